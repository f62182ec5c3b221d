//! The Ruby adapters: `URI` with its RFC 3986 parser (Ruby's default) and
//! its RFC 2396 one, and the Addressable gem, from Debian.

use super::{Accessors, Debian, Documented, Language, Reproduce, SchemeSyntax, Shipped};
use crate::oracle::Standard;

/// Ruby reads code to load from these (RUBYOPT=-r…, RUBYLIB) and
/// RUBYGEMS_GEMDEPS (a Gemfile to load) would load code of the caller's
/// choosing; GEM_HOME and GEM_PATH would make RubyGems look for a gem
/// elsewhere.
const RUBY_UNSET: &[&str] = &[
    "RUBYOPT",
    "RUBYLIB",
    "RUBYGEMS_GEMDEPS",
    "GEM_HOME",
    "GEM_PATH",
];

/// Ruby's `URI` objects, whichever parser made them.
const RUBY_URI_ACCESSORS: Accessors = Accessors {
    scheme: Some("u.scheme"),
    userinfo: Some("u.userinfo"),
    host: Some("u.host"),
    port: None,
    path: Some("u.path"),
    query: Some("u.query"),
    fragment: Some("u.fragment"),
};

const RUBY_URI: &[(&str, &str)] = &[(
    "ruby-uri.rb",
    include_str!("../../../../adapters/ruby-uri.rb"),
)];

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[
    Shipped::new(
        "ruby-uri",
        RUBY_URI,
        &["ruby"],
        &["ruby", "{dir}/ruby-uri.rb"],
        "apt-get install ruby",
    )
    .position(14)
    .unset(RUBY_UNSET)
    // URI.join (URI::RFC3986_Parser, Ruby's default).
    .resolves()
    // URI::RFC3986_Parser (Ruby's documentation: "Parses a URI according to RFC 3986").
    .standard(Standard::Rfc3986)
    .reproduce(
        Reproduce::new(Language::Ruby, "u = URI.parse({input})", RUBY_URI_ACCESSORS)
            .prelude("require \"uri\"")
            .resolve("u = URI.join({base}, {input})")
            .refusal("URI::InvalidURIError"),
    )
    .documented(URI_DOCUMENTED)
    // URI(input) is URI::RFC3986_Parser, this parser: Net::HTTP's request_get(URI(input)) and URI.open.
    .clients(&["ruby-net-http", "ruby-open-uri"]),

    Shipped::new(
        "ruby-uri-rfc2396",
        RUBY_URI,
        &["ruby"],
        &["ruby", "{dir}/ruby-uri.rb", "rfc2396"],
        "apt-get install ruby",
    )
    .position(15)
    .unset(RUBY_UNSET)
    // URI::RFC2396_Parser's own merge.
    .resolves()
    // URI::RFC2396_Parser: "Class that parses String's into URI's" per RFC 2396.
    .standard(Standard::Rfc2396)
    .reproduce(
        Reproduce::new(
            Language::Ruby,
            "u = URI::RFC2396_Parser.new.parse({input})",
            RUBY_URI_ACCESSORS,
        )
        .prelude("require \"uri\"")
        .resolve(
            "p = URI::RFC2396_Parser.new
u = p.parse({base}).merge(p.parse({input}))",
        )
        .refusal("URI::InvalidURIError"),
    )
    .documented(URI_DOCUMENTED.rfc2732(
        "ruby/uri lib/uri/rfc2396_parser.rb (uri 0.11.0), its pattern comments: \"RFC 2732 (IPv6 Literal Addresses in URL's)\", reserved with \"[\" | \"]\" (RFC 2732), \"ipv6reference = [ IPv6address ] (RFC 2732)\", \"host = hostname | IPv4address | IPv6reference (RFC 2732)\"",
    )),

    Shipped::new(
        "ruby-addressable",
        &[(
            "ruby-addressable.rb",
            include_str!("../../../../adapters/ruby-addressable.rb"),
        )],
        &["ruby"],
        &["ruby", "{dir}/ruby-addressable.rb"],
        "apt-get install ruby ruby-addressable",
    )
    .position(20)
    // The adapter takes the user's own gem directory off the path itself.
    .unset(RUBY_UNSET)
    .debian(&[
        Debian::named("ruby-addressable"),
        Debian::named("ruby-public-suffix"),
    ])
    // As the adapter loads it: RubyGems without the user's directory.
    .probe(
        "Ruby's Addressable gem",
        &[
            "ruby",
            "-e",
            "Gem.use_paths(Gem.default_dir, Gem.default_path - [Gem.user_dir]); require \"addressable/uri\"",
        ],
    )
    // Addressable::URI.join (RFC 3986 section 5.2).
    .resolves()
    // Addressable's README: "Addressable closely conforms to RFC 3986,
    // RFC 3987, and RFC 6570 (level 4)", and Addressable::URI's class
    // documentation: "an implementation of a URI parser based on RFC
    // 3986, RFC 3987". RFC 3986 is the syntax its parse implements
    // (Appendix B's expression, section 5.2's resolution); RFC 3987 is
    // the IRI extension of that same syntax (non-ASCII characters
    // where RFC 3986 allows unreserved ones), which no oracle here
    // implements: judged by RFC 3986, with what RFC 3987 adds as its
    // documented reading.
    .standard(Standard::Rfc3986)
    // Addressable's #port is an Integer (a written "080" reads 80): not
    // asserted.
    .reproduce(
        Reproduce::new(
            Language::Ruby,
            "u = Addressable::URI.parse({input})",
            RUBY_URI_ACCESSORS,
        )
        .prelude("require \"addressable/uri\"")
        .resolve("u = Addressable::URI.join({base}, {input})")
        .refusal("Addressable::URI::InvalidURIError"),
    )
    .documented(ADDRESSABLE_DOCUMENTED),
];

// Its validation is scheme-specific: Addressable::URI#validate ("Ensures
// that the URI is valid") raises "Absolute URI missing hierarchical
// segment" for a URI of an IP-based scheme (#ip_based?: "Returns true if
// the URI uses an IP-based protocol", the schemes of PORT_MAPPING) with
// neither host nor path. For http and https that is what their scheme
// requires: RFC 9110 section 4.2.1 ("http-URI = "http" "://" authority
// path-abempty ...", and "A sender MUST NOT generate an "http" URI with
// an empty host identifier. A recipient that processes such a URI
// reference MUST reject it as invalid"), section 4.2.2 for https.
// Ruby's URI::FTP ("FTP URI syntax is defined by RFC1738 section 3.2",
// its class documentation) refuses an ftp URI with no hierarchical part
// (`ftp:x`: its initialize raises InvalidURIError when there is no path),
// as RFC 1738 section 3.2.1 requires (`ftpurl = "ftp://" login [ "/" fpath
// ... ]`, the login holding the host). Both of its parsers build URI::FTP.
// Both build URI::MailTo for a mailto URI ("RFC6068, the mailto URL
// scheme", its class documentation), whose initialize raises
// InvalidComponentError ("unrecognised opaque part for mailtoURL") for a
// `to` that is no list of addresses (`mailto:x`) and whose headers= checks
// each `hfield` for its `=`: what RFC 6068 section 2 refuses.
pub(super) const URI_DOCUMENTED: Documented = Documented::NONE
    .host_required(
        &["ftp"],
        "Ruby URI::FTP (\"FTP URI syntax is defined by RFC1738 section 3.2\"; initialize raises URI::InvalidURIError for an ftp URI without a path); RFC 1738 section 3.2.1 (ftpurl = \"ftp://\" login ...)",
    )
    .scheme_syntax(
        &[SchemeSyntax::Mailto],
        "Ruby URI::MailTo (\"RFC6068, the mailto URL scheme\"; initialize raises URI::InvalidComponentError \"unrecognised opaque part for mailtoURL\" for a `to` that is no address list); RFC 6068 section 2 (to = addr-spec *(\",\" addr-spec ); hfield = hfname \"=\" hfvalue)",
    );

pub(super) const ADDRESSABLE_DOCUMENTED: Documented = Documented::NONE
.host_required(
    &["http", "https"],
    "Addressable::URI#validate (\"Absolute URI missing hierarchical segment\" for an #ip_based? scheme without host or path); RFC 9110 sections 4.2.1 and 4.2.2 (an http or https URI with an empty host \"MUST\" be rejected as invalid)",
);
