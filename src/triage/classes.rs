//! The class catalogue: one row per class, with everything about it in one
//! place: its stable id, what it means, its basis, its default severity, the
//! spec sections (or documentation) behind it, and example inputs that must
//! produce it (`tests/triage.rs` checks every one).
//!
//! Class ids are public: users' baselines and scripts name them. Add rows;
//! never rename an id.

use std::fmt;

use serde::Serialize;

use super::Severity::{self, High, Low, Medium};

/// Why a finding exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// A by-design difference between standards, citing the sections.
    Spec,
    /// A parser breaks its own standard: it accepts what its standard
    /// forbids, drops or invents input, changes its answer when it reparses
    /// its own output, or disagrees with a peer of the same standard. A bug.
    Defect,
    /// No rule explains the finding: it may be either.
    Unexplained,
}

impl Basis {
    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Spec => "spec",
            Basis::Defect => "defect",
            Basis::Unexplained => "unexplained",
        }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

use Basis::{Defect, Spec, Unexplained as NoBasis};

macro_rules! classes {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $id:literal {
            basis: $basis:ident,
            severity: $severity:ident,
            spec: $spec:literal,
            examples: [$(($oracle:literal, $input:literal)),* $(,)?],
            $(with_base: [$(($b_oracle:literal, $b_base:literal, $b_input:literal)),* $(,)?],)?
        }
    )*) => {
        /// The named kinds of finding. Ids are stable kebab-case.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Class {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Class {
            /// Every class, in catalogue order.
            pub const ALL: &'static [Class] = &[$(Class::$variant,)*];

            /// The stable kebab-case id.
            pub fn id(self) -> &'static str {
                match self { $(Class::$variant => $id,)* }
            }

            /// The class with this id.
            pub fn from_id(id: &str) -> Option<Class> {
                match id { $($id => Some(Class::$variant),)* _ => None }
            }

            /// Spec difference or parser defect.
            pub fn basis(self) -> Basis {
                match self { $(Class::$variant => $basis,)* }
            }

            /// The severity unless the facts raise it (hosts or ports
            /// differ) or cap it (a refusal alone is at most medium).
            pub fn default_severity(self) -> Severity {
                match self { $(Class::$variant => $severity,)* }
            }

            /// The spec sections or documentation behind the class.
            pub fn spec(self) -> &'static str {
                match self { $(Class::$variant => $spec,)* }
            }

            /// What the class means, in one paragraph (its doc comment).
            pub fn description(self) -> &'static str {
                match self { $(Class::$variant => concat!($($doc, "\n"),*).trim_ascii(),)* }
            }

            /// Example inputs, each with the oracle whose finding it must
            /// produce.
            pub fn examples(self) -> &'static [(&'static str, &'static str)] {
                match self { $(Class::$variant => &[$(($oracle, $input)),*],)* }
            }

            /// Example (base, reference) pairs, each with the oracle whose
            /// finding `check_with_base` must produce.
            pub fn examples_with_base(self) -> &'static [(&'static str, &'static str, &'static str)] {
                match self { $(Class::$variant => &[$($(($b_oracle, $b_base, $b_input)),*)?],)* }
            }
        }
    };
}

classes! {
    /// A bracketed IP literal (`[::1]`): RFC 2732 and RFC 3986 section 3.2.2
    /// allow it, RFC 2396 section 2.4.3 calls `[` and `]` unwise.
    IpLiteral = "ip-literal" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.3; RFC 2732; RFC 3986 section 3.2.2",
        examples: [("url", "http://[::1]/"), ("ada", "http://[::1]/"), ("iri-string", "http://[::1]/")],
    }
    /// RFC 2396 reads the authority as a `reg_name` (no host), the other
    /// parser finds a host in it (RFC 2396 section 3.2).
    RegNameAuthority = "reg-name-authority" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 sections 3.2 and 3.2.2; RFC 3986 section 3.2.2",
        examples: [("url", "http://a_b.example/"), ("url", "http://a@b@c/"), ("http", "http://1.2.3.4.5/")],
    }
    /// `//@host`: RFC 2396 keeps an empty userinfo, the other drops it.
    EmptyUserinfo = "empty-userinfo" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 3.2.2; RFC 1738 section 3.1; URL Standard (authority state)",
        examples: [("url", "ftp://@host.com/")],
    }
    /// `//user:@host`: the empty password's `:` is dropped.
    EmptyPassword = "empty-password" {
        basis: Spec, severity: Low,
        spec: "RFC 1738 section 3.1; URL Standard (URL serializing)",
        examples: [("url", "ftp://foo:@host.com/"), ("url", "hutp://1%20sRRR;RRRmailto:@z6/")],
    }
    /// `//host:/`: RFC 2396 `port = *digit` allows an empty port.
    EmptyPort = "empty-port" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 3.2.2; RFC 3986 section 6.2.3",
        examples: [("url", "http://host:/")],
    }
    /// The scheme's default port is written out, and elided by the other.
    DefaultPort = "default-port" {
        basis: Spec, severity: Low,
        spec: "URL Standard (port state); RFC 3986 section 6.2.3",
        examples: [("url", "http://host:80/")],
    }
    /// RFC 2396 has no bound on `port`; the other rejects ports over 65535.
    PortOutOfRange = "port-out-of-range" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3.2.2; URL Standard (port state)",
        examples: [("url", "http://host:99999/")],
    }
    /// The same port number written differently (leading zeros).
    PortNormalized = "port-normalized" {
        basis: Spec, severity: Low,
        spec: "URL Standard (port state)",
        examples: [("url", "http://h:0081/")],
    }
    /// Scheme or host case folded (RFC 2396 sections 3.1 and 3.2.2 make them
    /// case-insensitive).
    CaseNormalized = "case-normalized" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 sections 3.1 and 3.2.2; URL Standard (host parsing)",
        examples: [("url", "HTTP://EXAMPLE.COM/")],
    }
    /// An IPv4 address in a form RFC 2396 does not know (hex, octal, fewer
    /// than four parts, out of range), read by WHATWG's IPv4 parser.
    Ipv4NumberForm = "ipv4-number-form" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3.2.2 (IPv4address); URL Standard (IPv4 parser)",
        examples: [("url", "http://0x7f.1/"), ("url", "http://127.1/"), ("url", "http://999.1.1.1/")],
    }
    /// A host WHATWG maps through IDNA (UTS #46): invalid `xn--` labels
    /// are refused.
    IdnaHost = "idna-host" {
        basis: Spec, severity: Medium,
        spec: "URL Standard (domain to ASCII); UTS #46",
        examples: [("url", "https://xn--o/")],
    }
    /// A percent-encoded host: RFC 2396 hostnames have no `escaped`, others
    /// decode it.
    PercentEncodedHost = "percent-encoded-host" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3.2.2; RFC 3986 section 3.2.2; URL Standard (host parsing)",
        examples: [("url", "http://ex%41mple.com/")],
    }
    /// `%` not followed by two hex digits (RFC 2396 section 2.4.1).
    InvalidEscape = "invalid-escape" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.1; URL Standard (percent-encoded bytes)",
        examples: [("url", "http://h/%zz")],
    }
    /// An `unwise` character (RFC 2396 section 2.4.3) tolerated or encoded.
    UnwiseCharacter = "unwise-character" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
        examples: [("url", "http://h/{x}")],
    }
    /// A `delims` character (`<`, `>`, `"`, a second `#`; RFC 2396 section
    /// 2.4.3) tolerated or encoded.
    DelimsCharacter = "delims-character" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
        examples: [("url", "http://h/a\"b"), ("url", "http://h/#a#b")],
    }
    /// A character outside US-ASCII (RFC 2396 section 2.1), encoded or
    /// IDNA-mapped by the other.
    NonAscii = "non-ascii" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.1; URL Standard (UTF-8 percent-encode)",
        examples: [("url", "http://h/é")],
    }
    /// Whitespace or a control character, stripped or tolerated by the other
    /// (RFC 2396 section 2.4.3; WHATWG strips tabs, newlines, edge spaces).
    WhitespaceOrControl = "whitespace-or-control" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.3; URL Standard (basic URL parser, steps 1-3)",
        examples: [("url", "http://exa\tmple.com/"), ("url", " http://h/")],
    }
    /// A backslash, read by WHATWG as `/` in special schemes.
    Backslash = "backslash" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.3; URL Standard (special authority slashes state)",
        examples: [("url", "http:\\\\evil.com\\x")],
        with_base: [("url", "https://example.com/", "/\\evil.com"), ("ada", "https://example.com/", "\\/\\/evil.com/")],
    }
    /// Dot segments removed by the other (RFC 2396 section 5.2 removes them
    /// only when resolving a relative path).
    DotSegments = "dot-segments" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 5.2 step 6; RFC 3986 section 5.2.4; URL Standard (path state)",
        examples: [("url", "http://h/a/../b"), ("url", "http://a/../g"), ("url", "ht3:/%2e/a/"), ("url", "http://h/a/%2E%2e/b")],
        with_base: [("rfc3986", "http://a/b/c/d;p?q", "../../../g"), ("url", "http://a/b/c/d;p?q", "../../../g")],
    }
    /// WHATWG's own rules for `file` URLs: `localhost` is the empty host,
    /// drive letters belong to the path, no credentials or port.
    FileScheme = "file-scheme" {
        basis: Spec, severity: Medium,
        spec: "URL Standard (file state, file host state); RFC 8089 section 2",
        examples: [("url", "file://localhost/etc/passwd"), ("url", "file://c:/x"), ("url", "file:?//tables.json")],
    }
    /// A special scheme (`http:`, …) without `//`, or with an empty
    /// authority: WHATWG finds a host anyway.
    SpecialSchemeSlashes = "special-scheme-slashes" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3; URL Standard (special authority ignore slashes state)",
        examples: [("url", "http:evil.com/"), ("url", "http:/evil.com/"), ("url", "http:///evil.com/"), ("url", "httpS:s3:?/")],
    }
    /// `http::Uri` reads `name:rest` as an authority-form request target.
    AuthorityForm = "authority-form" {
        basis: Spec, severity: Medium,
        spec: "RFC 9112 section 3.2.3; RFC 2396 sections 3 and 5",
        examples: [("http", "mailto:a@b"), ("http", "localhost:8080"), ("http", "g")],
    }
    /// `scheme:/path` or `scheme://` with an empty authority, which
    /// `http::Uri` refuses: its absolute-form needs an authority.
    MissingAuthority = "missing-authority" {
        basis: Spec, severity: Medium,
        spec: "RFC 9112 section 3.2.2; RFC 2396 section 3",
        examples: [("http", "http:/evil.com/"), ("http", "file:///etc")],
    }
    /// More than eight `:` before the host, which `http::Uri` refuses.
    AuthorityColons = "authority-colons" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3.2.2; http 1.5 `MAX_COLONS` (src/uri/authority.rs)",
        examples: [("http", "http://=RJc8l=f2%83:B:::::::::@example.com."), ("http", "http://a:::::::::@h/")],
    }
    /// `//host/path`: a network-path reference for RFC 2396, an origin-form
    /// path for `http::Uri`.
    NetworkPathReference = "network-path-reference" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 5 (net_path); RFC 9112 section 3.2.1 (origin-form)",
        examples: [("http", "//g"), ("http", "//evil.com/x")],
        with_base: [("http", "https://example.com/", "//evil.com/"), ("http", "https://example.com/", "///evil.com/")],
    }
    /// With a base, `http:g`: RFC 2396 and RFC 3986 (strict) keep the
    /// absolute `http:g`, WHATWG resolves it against a base of the same
    /// special scheme (`http://a/b/c/g`).
    SameSchemeReference = "same-scheme-reference" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 5.2 step 3 and Appendix C.2; RFC 3986 section 5.2.2 (strict parser); URL Standard (scheme state, special relative or authority state)",
        examples: [],
        with_base: [("url", "http://a/b/c/d;p?q", "http:g"), ("url", "ws:7", "ws:?"), ("ada", "ws:7", "ws::"), ("ada", "http:'/L", "http:/")],
    }
    /// With a base that has a fragment: RFC 3986 parsers refuse it (a base
    /// is an `absolute-URI`), RFC 2396 and WHATWG ignore the fragment.
    BaseFragment = "base-fragment" {
        basis: Spec, severity: Low,
        spec: "RFC 3986 sections 4.3 and 5.1; RFC 2396 section 5.2 step 1; URL Standard (basic URL parser)",
        examples: [],
        with_base: [("rfc3986", "http://a/b#frag", "c"), ("iri-string", "http://a/b#frag", "c")],
    }
    /// With a base, `?y`: RFC 2396 resolves it in the base's directory
    /// (`http://a/b/c/?y`), RFC 3986 and WHATWG on the base's path
    /// (`http://a/b/c/d;p?y`).
    QueryOnlyResolution = "query-only-resolution" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 Appendix C.1 and section 5.2 step 6; RFC 3986 section 5.2.2 and 5.4.1; URL Standard (relative state)",
        examples: [],
        with_base: [("rfc3986", "http://a/b/c/d;p?q", "?y"), ("url", "http://a/b/c/d;p?q", "?y"), ("url", "http://a/b/../c", "?y")],
    }
    /// An absolute reference against a base RFC 2396 refuses: this crate
    /// refuses the pair, RFC 3986 and WHATWG take the reference as it is.
    BaseIgnored = "base-ignored" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 5.2 (an absolute base URI); RFC 3986 section 5.2.2 (R.scheme defined: T = R); URL Standard (scheme state)",
        examples: [],
        with_base: [("http", "", "http://h/"), ("http", "rtt", "a://h")],
    }
    /// With a base the other parser refuses on its own (see `uridiff check
    /// BASE` for why): it resolves nothing against it.
    BaseRefused = "base-refused" {
        basis: Spec, severity: Low,
        spec: "the base's own findings (uridiff check BASE)",
        examples: [],
        with_base: [("url", "http://", "ttp://")],
    }
    /// With an opaque base (`mailto:a@b`): RFC 2396 resolves only a
    /// fragment or empty reference, RFC 3986 merges with a rootless path,
    /// WHATWG refuses all but a fragment.
    OpaqueBase = "opaque-base" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 5.2 steps 2-3; RFC 3986 section 5.2.3; URL Standard (no scheme state)",
        examples: [],
        with_base: [("url", "mailto:a@b", ""), ("iri-string", "mailto:a@b", "c")],
    }
    /// With a base, the merged path starts with `//` and the result has no
    /// authority: RFC 2396 and RFC 3986 cannot write it, WHATWG writes
    /// `/.//`.
    AmbiguousResolvedPath = "ambiguous-resolved-path" {
        basis: Spec, severity: Medium,
        spec: "RFC 3986 section 5.2.4 and 3.3 (a path without authority cannot begin with //); URL Standard (URL serializing, /. prefix)",
        examples: [],
        with_base: [("url", "foo:/a/b", "..//g")],
    }
    /// With a base, a `%2e` segment in the path being resolved: WHATWG, the
    /// RFC 3986 parsers (normalising first) and libcurl remove it as a dot
    /// segment, RFC 2396 as an ordinary segment a later `..` takes away.
    EncodedDotSegment = "encoded-dot-segment" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 5.2 step 6; RFC 3986 sections 2.3, 5.2.4 and 6.2.2.2; URL Standard (single-dot and double-dot URL path segment); libcurl lib/urlapi.c (is_dot)",
        examples: [],
        with_base: [("url", "httj://t", "1/%2e/.."), ("rfc3986", "httj://t", "1/%2e/.."), ("iri-string", "http6:/../", "t/%2e/.."), ("curl", "httj://t", "1/%2e/.."), ("rfc3986", "http:/../...////%2e./..//%1e/.", ".")],
    }
    /// With a base: WHATWG and libcurl resolve against the base as they read
    /// it, its dot segments already removed and its host found, where RFC
    /// 2396 merges with the base's path as written.
    NormalizedBase = "normalized-base" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 5.2 step 6; URL Standard (basic URL parser: the base is a parsed URL record; path state); libcurl lib/urlapi.c (dedotdotify on curl_url_set)",
        examples: [],
        with_base: [("url", "r:/f//..", "i"), ("ada", "r:/f//..", "i"), ("curl", "file:/..///..", "~"), ("url", "ttp://.p://.%2E#/ftp:7.", "2"), ("url", "ws://$@%22/.i/..", ",")],
    }
    /// `http::Uri` drops the fragment.
    FragmentDropped = "fragment-dropped" {
        basis: Spec, severity: Low,
        spec: "RFC 9112 section 3.2",
        examples: [("http", "http://h/a#b")],
    }
    /// A relative reference, which the other only resolves against a base
    /// or does not take at all.
    RelativeReference = "relative-reference" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 5; URL Standard (URL parsing without a base); RFC 9112 section 3.2",
        examples: [("url", "/rel/path?q"), ("ada", "/rel/path?q")],
        with_base: [("http", "http://a/b/c/d;p?q", "../../../g")],
    }
    /// The text before the first `:` is not an RFC 2396 scheme (it must
    /// start with a letter, section 3.1), so RFC 2396 reads a relative path
    /// whose first segment may not hold `:`.
    SchemeSyntax = "scheme-syntax" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 sections 3.1 and 5",
        examples: [("http", "1http://h/")],
    }
    /// Longer than the other parser accepts (`http::Uri`: 65 534 bytes, and
    /// 64 for a scheme).
    LengthLimit = "length-limit" {
        basis: Spec, severity: Low,
        spec: "http 1.5 `MAX_LEN` and `MAX_SCHEME_LEN` (src/uri/mod.rs); libcurl `MAX_SCHEME_LEN` (lib/urlapi.c) and `CURL_MAX_INPUT_LENGTH`",
        examples: [("http", "sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss://h/")],
    }
    /// `scheme:` with nothing after it: RFC 2396's `opaque_part` needs a
    /// character; RFC 3986 and WHATWG allow an empty path.
    EmptyOpaquePart = "empty-opaque-part" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 3; RFC 3986 section 3 (path-empty)",
        examples: [("rfc3986", "about:")],
    }
    /// `?y`: Appendix A cannot derive a query-only reference (Appendix C
    /// resolves one); RFC 3986 allows it.
    QueryOnlyReference = "query-only-reference" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 Appendix A and Appendix C; RFC 3986 section 4.2",
        examples: [("rfc3986", "?y")],
    }
    /// The same octets, percent-encoded differently (RFC 2396 section 2.4.2).
    PercentEncoding = "percent-encoding" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 2.4.2; URL Standard (percent-encode sets)",
        examples: [("url", "http://h/?a'b")],
    }
    /// An empty path written as `/` by the other.
    EmptyPathSlash = "empty-path-slash" {
        basis: Spec, severity: Low,
        spec: "URL Standard (path start state); RFC 9110 section 4.2.3",
        examples: [("url", "http://h")],
    }
    /// `?` inside an RFC 2396 `opaque_part` belongs to the path; the others
    /// split off a query.
    OpaquePartQuery = "opaque-part-query" {
        basis: Spec, severity: Medium,
        spec: "RFC 2396 section 3; RFC 3986 section 3.4",
        examples: [("rfc3986", "mailto:a@b?x")],
    }
    /// java.net.URI leaves an empty authority (`file:///p`) undefined
    /// (`getRawAuthority()` is null), where RFC 2396 has an empty one.
    JavaEmptyAuthority = "java-empty-authority" {
        basis: Spec, severity: Low,
        spec: "java.net.URI javadoc (Java SE 17): an empty authority is permitted, its components undefined; RFC 2396 section 3.2",
        // Checked through the CLI with the shipped adapter (tests/external_cli.rs).
        examples: [("java-uri", "file:///etc/passwd")],
    }
    /// An empty host where RFC 2396 has none (an empty `server`).
    EmptyHost = "empty-host" {
        basis: Spec, severity: Low,
        spec: "RFC 2396 section 3.2.2 (server); RFC 3986 section 3.2.2 (reg-name)",
        examples: [("rfc3986", "file:///etc/passwd")],
    }
    /// curl passes characters RFC 2396 excludes on (unwise, delims, a
    /// stray `%`) and percent-encodes non-ASCII bytes.
    CurlLenientCharacters = "curl-lenient-characters" {
        basis: Spec, severity: Medium,
        spec: "everything.curl.dev, URLs (\"only limited checks of the format\"); curl docs/URL-SYNTAX.md (non-ASCII); RFC 2396 section 2.4.3",
        examples: [("curl", "http://a\\b@c/d"), ("curl", "http://h/{x}")],
    }
    /// curl's `file://` takes only `localhost`, `127.0.0.1` or no host, and
    /// reports none.
    CurlFileHost = "curl-file-host" {
        basis: Spec, severity: Medium,
        spec: "everything.curl.dev, The scheme separator (file:// host names); curl test 1145; libcurl CURLUE_BAD_FILE_URL",
        examples: [("curl", "file://localhost/etc/passwd"), ("curl", "file://1.2.3.4/C:/"), ("curl", "file:///C:/")],
    }
    /// curl needs a host in every URL but `file://`.
    CurlHostRequired = "curl-host-required" {
        basis: Spec, severity: Medium,
        spec: "libcurl curl_url_set (CURLUE_NO_HOST); curl docs/URL-SYNTAX.md (Hostname); RFC 2396 section 3",
        examples: [("curl", "http:///"), ("curl", "mailto:a@b")],
    }
    /// curl accepts one or three slashes after the scheme and finds the
    /// host there.
    CurlSlashes = "curl-slashes" {
        basis: Spec, severity: Medium,
        spec: "everything.curl.dev, The scheme separator (one or three slashes); RFC 2396 section 3",
        examples: [("curl", "ftp:///path"), ("curl", "h:/d?")],
    }
    /// rust-url keeps a drive-letter-like segment (`c:`) against `..` in
    /// every scheme, not only `file`, and empties the host of a `file` URL
    /// whose path starts with a drive letter: both break the URL Standard,
    /// so defects of `url`.
    WindowsDriveLetter = "windows-drive-letter" {
        basis: Defect, severity: Medium,
        spec: "URL Standard (shorten a URL's path; file host state); rust-url 2.5.8 `last_slash_can_be_removed`; WPT url/resources/urltestdata.json",
        examples: [("url", "http://h/a/r:/../../ZZ"), ("url", "htt:/1./r:/../../ZZ"), ("url", "afiue://h/E:/%2e%2E/x"), ("url", "file://1.2.3.4/C:/")],
    }
    /// The components a parser reports do not account for the authority it
    /// consumed: userinfo, host and port do not recompose it, so input was
    /// silently dropped (the shape of Go's CVE-2019-14809).
    DroppedInput = "dropped-input" {
        basis: Defect, severity: High,
        spec: "RFC 3986 section 3.2 (authority = [ userinfo \"@\" ] host [ \":\" port ])",
        examples: [("http", "http://[::1]evil.com:80/"), ("http", "http://h:80x/")],
    }
    /// A host with `[` or `]` that is not an IP literal of RFC 3986 section
    /// 3.2.2 (IPv6address or IPvFuture; a zone ID only as RFC 6874's `%25`).
    InvalidIpLiteral = "invalid-ip-literal" {
        basis: Defect, severity: High,
        spec: "RFC 3986 section 3.2.2 (IP-literal); RFC 6874 section 2",
        examples: [("http", "http://[www.google.com]/"), ("http", "http://[fe80::1%en0]:8080/")],
    }
    /// Reparsing the parser's own serialization gives other components:
    /// the parser does not keep its own answer.
    RoundTrip = "round-trip" {
        basis: Defect, severity: Medium,
        spec: "URL Standard (URL serializing: parsing the serialization gives an equal URL); RFC 3986 section 5.3",
        examples: [("url", "file://h//c:/../..")],
    }
    /// Two parsers of the same standard (url and ada for WHATWG, rfc3986
    /// and iri-string for RFC 3986, http::Uri's authority against RFC
    /// 3986's) disagree: one of them breaks it.
    PeerDisagreement = "peer-disagreement" {
        basis: Defect, severity: Medium,
        spec: "the standard both implement",
        examples: [("url", "file://1.2.3.4/C:/")],
    }
    /// No rule explains it: a finding to investigate.
    Unexplained = "unexplained" {
        basis: NoBasis, severity: Medium,
        spec: "",
        examples: [],
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Class {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}
