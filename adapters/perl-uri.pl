# uridiff external oracle `perl-uri`: Perl's URI module (CPAN's URI, Debian's
# liburi-perl), URI->new for an input and URI->new_abs for a pair.
#
# Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
# line, then one JSON request {"id", "input", "base"} per line in and one
# JSON answer per line out, in request order, each echoing the request's id.
# Perl's core modules and URI only:
#
#     perl adapters/perl-uri.pl
#
# uridiff runs it without PERL5LIB, PERLLIB, PERL5OPT, PERL_USE_UNSAFE_INC,
# PERL_UNICODE and PERLIO (src/oracle/external/shipped.rs, the row's
# `unset`): Perl since 5.26 has no `.` in @INC, so it loads only from the
# system's library directories.
#
# Documentation: `perldoc URI` (https://metacpan.org/pod/URI). URI->new
# "determines the scheme, maps this to an appropriate URI subclass" and
# "Characters outside this set are automatically escaped by the URI
# constructor": it refuses nothing, so every input is `accept` unless the
# module dies (then `reject` with its message). What each key reports is
# what the object's own accessors return, read only where the object's class
# has the accessor (URI::http has host and port; URI::_foreign, the class of
# an unknown scheme, and URI::_generic, that of a relative reference, have
# authority but no host; URI::mailto and URI::urn have neither): a key the
# class has no accessor for is left out (not reported).
#
# - scheme: ->scheme (lower-cased by URI); null for a relative reference.
# - authority: ->authority, escaped; null when there is none.
# - userinfo: ->userinfo, escaped; null when there is no '@'.
# - host: ->host, as an application reads it: unescaped (percent-escapes
#   read as UTF-8), an IDN as its A-label (URI->new writes a non-ASCII host
#   as xn--...). URI::file's host is its whole authority, unescaped. ->host removes
#   the brackets of an IP literal; they are put back when the authority's
#   host is written in brackets, so that the host compares with the other
#   parsers' as the same text (not for URI::file, whose host keeps them).
# - port: the port as written: ->_port, which perldoc URI names for that
#   ("If you don't want the default port substituted, then you can use the
#   $uri->_port method instead"): "" for `h:`, null when none is written.
#   (->host keeps the ':' of an empty port: `ftp://h:/` has host "h:".)
# - path, query, fragment: ->path, ->query, ->fragment, escaped; query and
#   fragment null when absent, "" when empty.
# - resolved (pairs): URI->new_abs(input, base)->as_string. The base is
#   first made an object alone (URI->new), so that its refusal is told
#   apart; a base with no scheme leaves the reference as it is (URI's abs
#   returns it unchanged).
#
# IO: standard input is read with sysread in chunks of whatever has arrived;
# every complete line of a chunk is answered, and the answers are written
# once per chunk, so a batch costs a handful of system calls.

use strict;
use warnings;

use JSON::PP ();
use URI ();

my $JSON = JSON::PP->new->utf8->ascii->allow_nonref;

# Answers are written by hand: JSON::PP, pure Perl, took most of the
# adapter's time encoding them. Strings are written in ASCII, everything
# else as \u escapes (a UTF-16 pair beyond U+FFFF); the id as the digits
# it came as; undef as null.
sub json_string {
    my ($text) = @_;
    return 'null' unless defined $text;
    $text =~ s/(["\\])/\\$1/g;
    $text =~ s{([^\x20-\x7e])}{
        my $n = ord $1;
        $n < 0x10000
            ? sprintf('\\u%04x', $n)
            : sprintf('\\u%04x\\u%04x', 0xD800 + (($n - 0x10000) >> 10), 0xDC00 + (($n - 0x10000) & 0x3FF))
    }ge;
    return qq{"$text"};
}

sub json_answer {
    my ($answer) = @_;
    my @keys = grep { $_ ne 'id' } sort keys %{$answer};
    return '{"id":' . $answer->{id} . join('', map { ',' . json_string($_) . ':' . json_string($answer->{$_}) } @keys) . '}';
}

sub fail {
    my ($message) = @_;
    print STDERR "perl-uri adapter: $message\n";
    exit 2;
}

# The object's value of each component its class has an accessor for.
sub describe {
    my ($uri) = @_;
    my %answer = (verdict => 'accept', message => undef, scheme => $uri->scheme);
    for my $key (qw(authority userinfo path query fragment)) {
        $answer{$key} = $uri->$key if $uri->can($key);
    }
    if ($uri->can('host')) {
        my $host = $uri->host;
        # ->host unescapes %XX into octets: the host as text is their UTF-8
        # reading (`%CF%80` is "\x{3c0}"); octets that are no UTF-8 stay
        # as they are, one character each.
        if (defined $host) {
            my $text = $host;
            $host = $text if utf8::decode($text);
        }
        my $authority = $uri->authority;
        # The host as written in the authority: after the last '@' (as
        # ->host reads it), without a ':digits' port. Not for URI::file,
        # whose ->host is the whole authority, unescaped (its _port and
        # userinfo are not separated: `file://u@[::1]:80/` has host
        # "u@[::1]:80"), brackets and all.
        if (defined $host && defined $authority && !$uri->isa('URI::file')) {
            (my $written = $authority) =~ s/.*@//s;
            $written =~ s/:\d*\z//;
            $host = "[$host]" if $written =~ /\A\[.*\]\z/s;
        }
        $answer{host} = $host;
    }
    if ($uri->can('_port')) {
        my $port = $uri->_port;
        $answer{port} = $port;
    }
    return \%answer;
}

sub refusal {
    my ($error, $what) = @_;
    chomp $error;
    # croak and die end with " at FILE line N." naming this script's
    # temporary copy: left out so that the message is the same every run.
    $error =~ s/ at \S+ line \d+\.?\z//;
    return { verdict => 'reject', message => defined $what ? "$what: $error" : $error };
}

sub answer {
    my ($request) = @_;
    my ($input, $base) = @{$request}{qw(input base)};
    my $result;
    if (!defined $base) {
        my $uri = eval { URI->new($input) };
        $result = defined $uri ? describe($uri) : refusal($@ || 'URI->new returned nothing');
    } else {
        my $base_uri = eval { URI->new($base) };
        if (!defined $base_uri) {
            $result = refusal($@ || 'URI->new returned nothing', 'base');
        } else {
            my $uri = eval { URI->new_abs($input, $base_uri) };
            if (defined $uri) {
                $result = describe($uri);
                $result->{resolved} = $uri->as_string;
            } else {
                $result = refusal($@ || 'URI->new_abs returned nothing');
            }
        }
    }
    # Checked to be digits (request): written back as they are.
    $result->{id} = $request->{id};
    return $result;
}

sub request {
    my ($line) = @_;
    my $r = eval { $JSON->decode($line) };
    fail("request line is not JSON: $@") unless defined $r;
    # JSON::PP writes a scalar back as the JSON type it was read as: an
    # integer is digits, a string is quoted (matching the id itself would
    # make it a string, and its echo "5").
    my $is = sub { my ($value, $shape) = @_; defined $value && $JSON->encode($value) =~ $shape };
    unless (ref $r eq 'HASH'
        && $is->($r->{id}, qr/\A[0-9]+\z/)
        && $is->($r->{input}, qr/\A"/)
        && (!defined $r->{base} || $is->($r->{base}, qr/\A"/)))
    {
        fail('request line without an integer "id", a string "input" and a null or string "base": '
            . substr($line, 0, 200));
    }
    return $r;
}

sub write_all {
    my ($text) = @_;
    while (length $text) {
        my $n = syswrite(STDOUT, $text);
        if (!defined $n) {
            next if $!{EINTR};
            exit 0 if $!{EPIPE};
            fail("writing: $!");
        }
        substr($text, 0, $n) = '';
    }
}

sub main {
    # A closed reader is EPIPE from syswrite, and then the end.
    $SIG{PIPE} = 'IGNORE';
    binmode STDIN, ':raw';
    binmode STDOUT, ':raw';
    my $runtime = sprintf('perl %vd', $^V);
    my $hello = JSON::PP->new->ascii->canonical->encode({
        uridiff_protocol => 2,
        parser => "Perl URI $URI::VERSION",
        standard => 'none (URI->new escapes what RFC 2396 does not allow and refuses nothing)',
        runtime => $runtime,
    });
    write_all("$hello\n");
    my $buffer = '';
    while (1) {
        my $n = sysread(STDIN, $buffer, 1 << 16, length $buffer);
        if (!defined $n) {
            next if $!{EINTR};
            fail("reading: $!");
        }
        my $out = '';
        while ((my $end = index($buffer, "\n")) >= 0) {
            my $line = substr($buffer, 0, $end + 1, '');
            next if $line =~ /\A\s*\z/;
            $out .= json_answer(answer(request($line))) . "\n";
        }
        write_all($out) if length $out;
        last if $n == 0;
    }
    fail('the last request line has no newline') if $buffer =~ /\S/;
    exit 0;
}

main();
