//! The Perl adapter: the `URI` module, from Debian's `liburi-perl`.

use super::{Accessors, Debian, Documented, HostReading, Language, Reproduce, Shipped};
use crate::oracle::Standard;

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[Shipped::new(
    "perl-uri",
    &[(
        "perl-uri.pl",
        include_str!("../../../../adapters/perl-uri.pl"),
    )],
    &["perl"],
    &["perl", "{dir}/perl-uri.pl"],
    "apt-get install perl liburi-perl",
)
.position(19)
// Perl (5.26 on) has no `.` in @INC unless PERL_USE_UNSAFE_INC is
// set; PERL5LIB and PERLLIB add directories before the system's,
// PERL5OPT switches (`-MModule`), PERL_UNICODE and PERLIO the layers
// of its standard streams. Without them perl reads only its own
// library paths, and the adapter reads and writes bytes.
.unset(&[
    "PERL5LIB",
    "PERLLIB",
    "PERL5OPT",
    "PERL_USE_UNSAFE_INC",
    "PERL_UNICODE",
    "PERLIO",
])
.debian(&[Debian::named("liburi-perl")])
.probe("Perl's URI module", &["perl", "-MURI", "-e", "1"])
// URI->new_abs(input, base).
.resolves()
// ->host unescapes (the adapter writes the octets as UTF-8 text where
// they are that, else each as the character of its code point).
.host_readings(&[(
    HostReading::Unescaped,
    "perldoc URI (5.17), $uri->host: \"Sets and returns the unescaped hostname\" (URI->new(\"ftp://u@%DE%DEo\")->host is the octets DE DE 6F)",
)])
// No standard: perldoc URI says its objects "represent 'Uniform Resource
// Identifier references' as specified in RFC 2396 (and updated by
// RFC 2732)", but of its constructor: "Characters outside this set
// are automatically escaped by the URI constructor": URI->new
// refuses no input (it escapes what RFC 2396 does not allow and
// splits the rest with regular expressions), so it claims no
// standard its acceptances could be judged by.
//
// Its objects are nonetheless RFC 2396's (perldoc URI: "Objects of
// this class represent \"Uniform Resource Identifier references\" as
// specified in RFC 2396 (and updated by RFC 2732)"): what its parse
// loses or misreads of an input stands against that claim.
//
// URI->new refuses nothing: a refusal is its dying. ->port puts
// the scheme's default in place of a missing port; ->_port is the
// port as written (perldoc URI names it for that). ->host takes an
// IP literal's brackets off: the host is as an application reads
// it. `use utf8`: the literals hold non-ASCII characters as they are.
.reproduce(
    Reproduce::new(
        Language::Perl,
        "my $u = URI->new({input});",
        Accessors {
            scheme: Some("$u->scheme"),
            userinfo: Some("$u->userinfo"),
            host: Some("$u->host"),
            port: Some("$u->_port"),
            path: Some("$u->path"),
            query: Some("$u->query"),
            fragment: Some("$u->fragment"),
        },
    )
    .prelude("use strict;\nuse warnings;\nuse utf8;\nuse URI;")
    .resolve("my $u = URI->new_abs({input}, {base});"),
)
.documented(URI_DOCUMENTED)];

// Its parse claims RFC 2396 (the comment above the row's reproduce).
pub(super) const URI_DOCUMENTED: Documented = Documented::NONE
.claims_parse(
    Standard::Rfc2396,
    "perldoc URI (\"Objects of this class represent \\\"Uniform Resource Identifier references\\\" as specified in RFC 2396 (and updated by RFC 2732)\")",
);
