//! The class catalogue: one row per class, with everything about it in one
//! place: its stable id, what it means, its basis, its default severity, the
//! spec sections (or documentation) behind it, example inputs that must
//! produce it (`tests/it/triage.rs` checks every one), and, for a class a spec
//! rule explains, the rule's predicate and scope.
//!
//! **The order of the rows is the precedence of the rules**: triage tries
//! them in this order, and an earlier rule's claim is not open to a later
//! one. Specific explanations (a length limit, a dialect's leniency, a
//! refused character) come before general ones (a reg_name authority, a
//! case difference), and the resolution rules that look at how a pair was
//! resolved come last, once every rule about the resolved URI itself has
//! had its say. Rows without a rule (defects found by the self-checks and
//! peers, `unexplained`) may stand anywhere.
//!
//! A scope names the oracles a rule applies to: `Any`, `Oracle(Curl)`,
//! `Standard(Whatwg)`, an external oracle by its shipped adapter's name
//! (`External("java-uri")`), or several of those joined with `|`.
//!
//! Class ids are public: users' baselines and scripts name them. Add rows;
//! never rename an id.

use std::fmt;

use serde::Serialize;

use super::Severity::{self, High, Low, Medium};
use super::rules::{
    Rule, Scope, Target, authority, characters, curl, go, host, http, jetty, lenient, node, path,
    php, port, python, resolution, syntax,
};
use crate::oracle::{OracleId, Standard};

pub use super::basis::{Basis, ExampleOracle};

use Basis::{Defect, Spec, Unexplained as NoBasis};

classes! {
    /// Longer than the other parser accepts (`http::Uri`: 65 534 bytes, and
    /// 64 for a scheme).
    LengthLimit = "length-limit" {
        basis: Spec, severity: Low,
        rule: syntax::length_limit, scope: Oracle(Http) | Oracle(Curl),
        spec: "http 1.5 `MAX_LEN` and `MAX_SCHEME_LEN` (src/uri/mod.rs); libcurl `MAX_SCHEME_LEN` (lib/urlapi.c) and `CURL_MAX_INPUT_LENGTH`",
        examples: [(Http, "sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss://h/")],
    }
    /// curl passes characters RFC 2396 excludes on (unwise, delims, a
    /// stray `%`) and percent-encodes non-ASCII bytes.
    CurlLenientCharacters = "curl-lenient-characters" {
        basis: Spec, severity: Medium,
        rule: curl::curl_lenient_characters, scope: Oracle(Curl),
        spec: "everything.curl.dev, URLs (\"only limited checks of the format\"); curl docs/URL-SYNTAX.md (non-ASCII); RFC 2396 section 2.4.3",
        examples: [(Curl, "http://a\\b@c/d"), (Curl, "http://h/{x}")],
    }
    /// curl's `file://` takes only `localhost`, `127.0.0.1` or no host, and
    /// reports none.
    CurlFileHost = "curl-file-host" {
        basis: Spec, severity: Medium,
        rule: curl::curl_file_host, scope: Oracle(Curl),
        spec: "everything.curl.dev, The scheme separator (file:// host names); curl test 1145; libcurl CURLUE_BAD_FILE_URL",
        examples: [(Curl, "file://localhost/etc/passwd"), (Curl, "file://1.2.3.4/C:/"), (Curl, "file:///C:/")],
    }
    /// curl needs a host in every URL but `file://`.
    CurlHostRequired = "curl-host-required" {
        basis: Spec, severity: Medium,
        rule: curl::curl_host_required, scope: Oracle(Curl),
        spec: "libcurl curl_url_set (CURLUE_NO_HOST); curl docs/URL-SYNTAX.md (Hostname); RFC 2396 section 3",
        examples: [(Curl, "http:///"), (Curl, "mailto:a@b")],
    }
    /// libcurl refuses a host name its host name check does not take
    /// (`CURLUE_BAD_HOSTNAME`), where RFC 2396 reads a `reg_name`.
    CurlBadHostname = "curl-bad-hostname" {
        basis: Spec, severity: Medium,
        rule: curl::curl_bad_hostname, scope: Oracle(Curl),
        spec: "libcurl curl_url_set (CURLUE_BAD_HOSTNAME); curl docs/URL-SYNTAX.md (Hostname); RFC 2396 section 3.2.1",
        examples: [(Curl, "mysql://a,b,c/bar")],
    }
    /// libcurl refuses a port that is not a decimal number
    /// (`CURLUE_BAD_PORT_NUMBER`: `-80`, `80x`; a number above 65535
    /// that RFC 2396 reads as a port is `port-out-of-range`), where RFC 2396
    /// reads the whole authority as a `reg_name`.
    CurlBadPort = "curl-bad-port" {
        basis: Spec, severity: Medium,
        rule: curl::curl_bad_port, scope: Oracle(Curl),
        spec: "libcurl curl_url_set (CURLUE_BAD_PORT_NUMBER); RFC 3986 section 3.2.3 (port = *DIGIT); RFC 2396 section 3.2 (reg_name)",
        examples: [(Curl, "http://foo:-80/"), (Curl, "http://h:80x/")],
    }
    /// curl accepts one or three slashes after the scheme and finds the
    /// host there.
    CurlSlashes = "curl-slashes" {
        basis: Spec, severity: Medium,
        rule: curl::curl_slashes, scope: Oracle(Curl),
        spec: "everything.curl.dev, The scheme separator (one or three slashes); RFC 2396 section 3",
        examples: [(Curl, "ftp:///path"), (Curl, "h:/d?")],
    }
    /// A parser that claims no standard (its descriptor names none: a
    /// splitter such as PHP's `parse_url`, whose documentation says it does
    /// not validate) accepts what every standard here forbids and reports
    /// it: a bracketed host that is no IP literal (`adict[2]`), or a scheme
    /// that is none (`1http`). Its leniency, never a defect: the
    /// self-checks that would call it `invalid-ip-literal` or
    /// `invalid-scheme` apply only against a claimed standard.
    LenientSplitter = "lenient-splitter" {
        basis: Spec, severity: Medium,
        rule: lenient::lenient_splitter, scope: NoStandard,
        spec: "RFC 3986 sections 3.1 and 3.2.2; PHP manual, parse_url (\"This function is not meant to validate the given URL, it only breaks it up into the parts listed\"); Node.js docs, url.parse() (\"uses a lenient, non-standard algorithm for parsing URL strings\"; DEP0169: CVEs are not issued for it); Python docs, urllib.parse, URL parsing security (urlsplit and urlparse do not validate their input); Go docs, net/url Parse (\"parses a raw url into a URL structure\", no standard named); perldoc URI, URI->new (\"Characters outside this set are automatically escaped by the URI constructor\": it refuses nothing)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("php-parse-url", "cfg://adict[2]"), ("php-parse-url", "dax://{dct["), ("php-parse-url", "1http://h/"), ("node-url", "1http://h/"), ("python-urllib", "http://[fe80::1%en0]/"), ("perl-uri", "sftp://[user@]host/path")],
    }
    /// Whitespace or a control character, stripped or tolerated by the other
    /// (RFC 2396 section 2.4.3; WHATWG strips tabs, newlines, edge spaces).
    WhitespaceOrControl = "whitespace-or-control" {
        basis: Spec, severity: Medium,
        rule: characters::whitespace_or_control, scope: Any,
        spec: "RFC 2396 section 2.4.3; URL Standard (basic URL parser, steps 1-3)",
        examples: [(Url, "http://exa\tmple.com/"), (Url, " http://h/")],
    }
    /// Addressable, uri-js and fast-uri, which document RFC 3987 (IRIs)
    /// beside RFC 3986, accept characters beyond ASCII where an IRI may hold
    /// them (RFC 3987 `ucschar`), which RFC 3986 and RFC 2396 refuse (uri-js
    /// and fast-uri map the IRI to its URI: IDNA for a domain host,
    /// percent-encoded UTF-8 elsewhere).
    IriCharacters = "iri-characters" {
        basis: Spec, severity: Low,
        rule: characters::iri_characters, scope: External("ruby-addressable") | External("uri-js") | External("fast-uri"),
        spec: "RFC 3987 section 2.2 (ucschar) and section 3.1 (mapping an IRI to a URI); Addressable README (\"Addressable closely conforms to RFC 3986, RFC 3987, and RFC 6570 (level 4)\") and Addressable::URI (\"an implementation of a URI parser based on RFC 3986, RFC 3987\"); uri-js README (\"also compliant with the IRI (RFC 3987)\"; IRI Support: `URI.serialize(URI.parse(\"http://examplé.org/rosé\"))` is `http://xn--exampl-gva.org/ros%C3%A9`); fast-uri README, Options (`unicodeSupport`, off by default: non-ASCII characters stay escaped in the parsed output)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("ruby-addressable", "http://h/\u{e9}"), ("ruby-addressable", "https://\u{6e2c}\u{8a66}/?abc"), ("uri-js", "http://h/\u{e9}"), ("fast-uri", "http://h/\u{e9}")],
    }
    /// A character outside US-ASCII (RFC 2396 section 2.1), encoded or
    /// IDNA-mapped by the other.
    NonAscii = "non-ascii" {
        basis: Spec, severity: Medium,
        rule: characters::non_ascii, scope: Any,
        spec: "RFC 2396 section 2.1; URL Standard (UTF-8 percent-encode)",
        examples: [(Url, "http://h/é")],
    }
    /// A bracketed IP literal (`[::1]`): RFC 2732 and RFC 3986 section 3.2.2
    /// allow it, RFC 2396 section 2.4.3 calls `[` and `]` unwise.
    IpLiteral = "ip-literal" {
        basis: Spec, severity: Medium,
        rule: host::ip_literal, scope: Any,
        spec: "RFC 2396 section 2.4.3; RFC 2732; RFC 3986 section 3.2.2",
        // libcurl writes a valid literal in its own form (`[::13.1.68.3]`
        // here): the same literal, no leniency.
        examples: [(Url, "http://[::1]/"), (Ada, "http://[::1]/"), (IriString, "http://[::1]/"), (Curl, "http://[0:0:0:0:0:0:0d01:4403]/")],
    }
    /// A backslash, read by WHATWG as `/` in special schemes (also by
    /// upa-url, whose documentation claims the URL Standard).
    Backslash = "backslash" {
        basis: Spec, severity: Medium,
        rule: characters::backslash, scope: Standard(Whatwg) | External("upa-url"),
        spec: "RFC 2396 section 2.4.3; URL Standard (special authority slashes state); upa-url README (\"compliant with the WHATWG URL ... standards\")",
        examples: [(Url, "http:\\\\evil.com\\x"), ("upa-url", "http://example.com\\@evil.com/")],
        with_base: [(Url, "https://example.com/", "/\\evil.com"), (Ada, "https://example.com/", "\\/\\/evil.com/")],
    }
    /// An `unwise` character (RFC 2396 section 2.4.3) tolerated or encoded.
    UnwiseCharacter = "unwise-character" {
        basis: Spec, severity: Medium,
        rule: characters::unwise_character, scope: Any,
        spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
        examples: [(Url, "http://h/{x}")],
    }
    /// A `delims` character (`<`, `>`, `"`, a second `#`; RFC 2396 section
    /// 2.4.3) tolerated or encoded.
    DelimsCharacter = "delims-character" {
        basis: Spec, severity: Medium,
        rule: characters::delims_character, scope: Any,
        spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
        examples: [(Url, "http://h/a\"b"), (Url, "http://h/#a#b")],
    }
    /// `%` not followed by two hex digits (RFC 2396 section 2.4.1).
    InvalidEscape = "invalid-escape" {
        basis: Spec, severity: Medium,
        rule: characters::invalid_escape, scope: Any,
        spec: "RFC 2396 section 2.4.1; URL Standard (percent-encoded bytes)",
        examples: [(Url, "http://h/%zz")],
    }
    /// `scheme:` with nothing after it: RFC 2396's `opaque_part` needs a
    /// character; RFC 3986 and WHATWG allow an empty path.
    EmptyOpaquePart = "empty-opaque-part" {
        basis: Spec, severity: Low,
        rule: syntax::empty_opaque_part, scope: Any,
        spec: "RFC 2396 section 3; RFC 3986 section 3 (path-empty)",
        examples: [(Rfc3986, "about:")],
    }
    /// `?y`: Appendix A cannot derive a query-only reference (Appendix C
    /// resolves one); RFC 3986 allows it.
    QueryOnlyReference = "query-only-reference" {
        basis: Spec, severity: Low,
        rule: syntax::query_only_reference, scope: Any,
        spec: "RFC 2396 Appendix A and Appendix C; RFC 3986 section 4.2",
        examples: [(Rfc3986, "?y")],
    }
    /// The text before the first `:` is not an RFC 2396 scheme (it must
    /// start with a letter, section 3.1), so RFC 2396 reads a relative path
    /// whose first segment may not hold `:`.
    SchemeSyntax = "scheme-syntax" {
        basis: Spec, severity: Medium,
        rule: syntax::scheme_syntax, scope: Any,
        spec: "RFC 2396 sections 3.1 and 5",
        // http::Uri's acceptance of `1http://h/` is its own defect
        // (invalid-scheme), not this difference.
        examples: [(Http, ":")],
        with_base: [(Url, "h://ba:0", ":")],
    }
    /// `http::Uri` reads `name:rest` as an authority-form request target.
    AuthorityForm = "authority-form" {
        basis: Spec, severity: Medium,
        rule: http::authority_form, scope: Oracle(Http),
        spec: "RFC 9112 section 3.2.3; RFC 2396 sections 3 and 5",
        examples: [(Http, "mailto:a@b"), (Http, "localhost:8080"), (Http, "g")],
    }
    /// More than eight `:` before the host, which `http::Uri` refuses.
    AuthorityColons = "authority-colons" {
        basis: Spec, severity: Medium,
        rule: http::authority_colons, scope: Oracle(Http),
        spec: "RFC 2396 section 3.2.2; http 1.5 `MAX_COLONS` (src/uri/authority.rs)",
        examples: [(Http, "http://=RJc8l=f2%83:B:::::::::@example.com."), (Http, "http://a:::::::::@h/")],
    }
    /// `//host/path`: a network-path reference for RFC 2396, an origin-form
    /// path for `http::Uri`, and a path for Node's legacy `url.parse` (unless
    /// asked to read `//` as a host) and url-parse without a location.
    NetworkPathReference = "network-path-reference" {
        basis: Spec, severity: Medium,
        rule: http::network_path_reference, scope: Oracle(Http) | External("node-url") | External("url-parse"),
        spec: "RFC 2396 section 5 (net_path); RFC 9112 section 3.2.1 (origin-form); Node.js docs, url.parse(urlString, parseQueryString, slashesDenoteHost) (slashesDenoteHost, default false: \"given //foo/bar, the result would be ... {pathname: '//foo/bar'}\"); url-parse README (baseURL \"defaults to location in the browser\"; an empty location object in Node.js)",
        examples: [(Http, "//g"), (Http, "//evil.com/x"), ("node-url", "//evil.com/x"), ("url-parse", "//evil.com/x")],
        with_base: [(Http, "https://example.com/", "//evil.com/"), (Http, "https://example.com/", "///evil.com/")],
    }
    /// With a base, `http:g`: RFC 2396 and RFC 3986 (strict) keep the
    /// absolute `http:g`, WHATWG resolves it against a base of the same
    /// special scheme (`http://a/b/c/g`).
    SameSchemeReference = "same-scheme-reference" {
        basis: Spec, severity: Medium,
        rule: resolution::same_scheme_reference, scope: Standard(Whatwg),
        spec: "RFC 2396 section 5.2 step 3 and Appendix C.2; RFC 3986 section 5.2.2 (strict parser); URL Standard (scheme state, special relative or authority state)",
        examples: [],
        with_base: [(Url, "http://a/b/c/d;p?q", "http:g"), (Url, "ws:7", "ws:?"), (Ada, "ws:7", "ws::"), (Ada, "http:'/L", "http:/")],
    }
    /// Node's legacy `url.parse` reads a host after `HTTP:` (any case but
    /// lower) without `//`, where `http:a/b` has none: it looks the scheme
    /// up as written.
    NodeSchemeCaseHost = "node-scheme-case-host" {
        basis: Spec, severity: High,
        rule: node::node_scheme_case_host, scope: External("node-url"),
        spec: "RFC 3986 section 3.1 (schemes are case-insensitive); Node.js lib/url.js, Url.prototype.parse (slashedProtocol.has(proto) with proto as written; hostlessProtocol with lowerProto); Node.js docs, url.parse (legacy, \"a lenient, non-standard algorithm\")",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("node-url", "HTTP:evil.example/x")],
    }
    /// url-parse resolves a relative path only against a base written with
    /// `//`: against another base the reference's path is kept as written
    /// (`q` against `p:/p:` is `p:q`).
    UrlParseSlashlessBase = "url-parse-slashless-base" {
        basis: Spec, severity: Low,
        rule: node::url_parse_slashless_base, scope: External("url-parse"),
        spec: "RFC 3986 section 5.2.2 (merge with the base's path); url-parse 1.5.10 index.js (Url: \"Resolve a relative path if needed\" only when location.slashes); its README claims no standard",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("url-parse", "p:/p:", "q")],
    }
    /// Go's `ResolveReference` before Go 1.23 loses an opaque base's part
    /// for a reference without a path (`urn:a` + `#f`: `urn:#f`), where
    /// RFC 3986 section 5.2.2 keeps the base's path: its defect.
    GoOpaqueBaseDropped = "go-opaque-base-dropped" {
        basis: Defect, severity: Medium,
        rule: go::opaque_base_dropped, scope: External("go-net-url"),
        spec: "RFC 3986 section 5.2.2 (if R.path == \"\" then T.path = Base.path); https://github.com/golang/go/issues/66084 (fixed in Go 1.23, https://go.dev/cl/572915)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("go-net-url", "urn:a", "#f")],
    }
    /// Go's `url.Parse` reads `///x` without a scheme as a path, where RFC
    /// 3986 section 4.2 reads a network-path reference with an empty
    /// authority: its defect.
    GoTripleSlashPath = "go-triple-slash-path" {
        basis: Defect, severity: Medium,
        rule: go::triple_slash_path, scope: External("go-net-url"),
        spec: "RFC 3986 section 4.2 (network-path reference: relative-part = \"//\" authority path-abempty); https://github.com/golang/go/issues/46277 (open)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("go-net-url", "///x")],
        with_base: [("go-net-url", "ws:/6", "///f")],
    }
    /// Go's `ResolveReference` and Python's `urljoin` (so httpx's `join`)
    /// take a reference's empty authority (`//`) for none and keep the
    /// base's authority and path (`http://a/b` + `//`: `http://a/b`, RFC
    /// 3986: `http:`): their defect.
    EmptyAuthorityIgnored = "empty-authority-ignored" {
        basis: Defect, severity: Medium,
        rule: resolution::empty_authority_ignored, scope: External("go-net-url") | External("python-urllib") | External("httpx"),
        spec: "RFC 3986 section 5.2.2 (if defined(R.authority) then T.authority = R.authority; T.path = remove_dot_segments(R.path)); Go net/url, URL.ResolveReference (tests ref.Host != \"\"); CPython urljoin (`if netloc:`), kept \"non-distinguished for compatibility\" in https://github.com/python/cpython/pull/126679",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [],
        with_base: [("go-net-url", "http://a/b", "//"), ("python-urllib", "http://a/b", "//")],
    }
    /// Go's `ResolveReference` drops one slash of a resolved path that
    /// starts with `//` (`h:/a` + `/..//x`: path `/x`, RFC 3986: `//x`): its
    /// defect.
    GoLeadingSlashesCollapsed = "go-leading-slashes-collapsed" {
        basis: Defect, severity: Low,
        rule: go::leading_slashes_collapsed, scope: External("go-net-url"),
        spec: "RFC 3986 section 5.2.4 (remove_dot_segments keeps empty segments: /..//x is //x); https://github.com/golang/go/issues/80282 (open)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("go-net-url", "h:/a", "/..//x")],
    }
    /// Python's `urljoin` (and httpx's `URL.join`, which calls it) drops
    /// the empty segments of a merged path (`http://a/b//c` + `d`:
    /// `http://a/b/d`, RFC 3986: `http://a/b//d`): its defect.
    UrljoinEmptySegments = "urljoin-empty-segments" {
        basis: Defect, severity: Medium,
        rule: python::urljoin_empty_segments, scope: External("python-urllib") | External("httpx"),
        spec: "RFC 3986 section 5.2.3 and 5.2.4 (empty segments are kept); https://github.com/python/cpython/issues/84774 (open; fix proposed in python/cpython#126679); httpx/_urls.py, URL.join (calls urllib.parse.urljoin)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [],
        with_base: [("python-urllib", "http://a/b//c", "d"), ("httpx", "http://a/b//c", "d")],
    }
    /// Python's `urljoin` (so httpx's `join`) leaves out an empty query or
    /// fragment of the reference (`b?#` against `http://a/`:
    /// `http://a/b`): its defect.
    UrljoinEmptyComponents = "urljoin-empty-components" {
        basis: Defect, severity: Low,
        rule: python::urljoin_empty_components, scope: External("python-urllib") | External("httpx"),
        spec: "RFC 3986 section 5.2.2 (T.query = R.query; T.fragment = R.fragment) and 5.3; https://github.com/python/cpython/issues/67041 (bpo-22852, \"urllib.parse wrongly strips empty #fragment, ?query, //netloc\"); urljoin keeps them since https://github.com/python/cpython/pull/123273",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [],
        with_base: [("python-urllib", "http://a/", "b?#")],
    }
    /// An empty reference against a base with a fragment gives the base
    /// whole, fragment included, as RFC 1808 did (CPython's `urljoin`).
    EmptyReferenceIsBase = "empty-reference-is-base" {
        basis: Spec, severity: Low,
        rule: python::empty_reference_is_base, scope: Any,
        spec: "RFC 1808 section 4 step 2 (\"If the embedded URL is entirely empty, it inherits the entire base URL\"); RFC 2396 section 4.2 and RFC 3986 section 5.1 (a base is used without its fragment); CPython Lib/test/test_urlparse.py (checkJoin(RFC1808_BASE, '', 'http://a/b/c/d;p?q#f'))",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("python-urllib", "http://a/b#f", "")],
    }
    /// httpx's `normalize_path` drops the slash before a final dot segment
    /// (`http://a/b/.`: path `/b`, RFC 3986 section 5.2.4: `/b/`): its
    /// defect.
    HttpxDotSegmentSlash = "httpx-dot-segment-slash" {
        basis: Defect, severity: Medium,
        rule: python::httpx_dot_segment_slash, scope: External("httpx"),
        spec: "RFC 3986 section 5.2.4 (rule B: \"/.\" is replaced by \"/\"; rule C: \"/..\" by \"/\"), which httpx/_urlparse.py normalize_path cites; its docstring: normalize_path(\"/path/./to/somewhere/..\") == \"/path/to\"",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("httpx", "http://a/b/.")],
    }
    /// Go's `ResolveReference` result (`URL.String()`) and Python's
    /// `urljoin` result (`urlunsplit`, for a scheme in `uses_netloc`) are
    /// written with `//` after the scheme even where the base had no
    /// authority: an empty authority RFC 3986's result does not have.
    SerializedEmptyAuthority = "serialized-empty-authority" {
        basis: Spec, severity: Low,
        rule: resolution::serialized_empty_authority, scope: External("go-net-url") | External("python-urllib"),
        spec: "RFC 3986 section 5.3; Go net/url docs, URL.String (second form \"scheme://userinfo@host/path\"; \"if u.Host is empty, host/ is omitted\") and URL.OmitHost (\"do not emit empty host (authority)\", golang/go#46059), which ResolveReference's result does not carry (Go 1.19.8: `foo:/a/b` + `c` is `foo:///a/c`); CPython Lib/urllib/parse.py, urlunsplit (for a scheme in `uses_netloc` it writes `//` before an empty netloc: `urljoin(\"file:/p\", \"/i\")` is `file:///i`)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("go-net-url", "foo:/a/b", "c"), ("python-urllib", "file:/p", "/i")],
    }
    /// A pair whose base RFC 2396 and RFC 3986 do not resolve against (no
    /// scheme, or an opaque part), joined anyway by a parser that claims no
    /// standard.
    LenientBase = "lenient-base" {
        basis: Spec, severity: Low,
        rule: resolution::lenient_base, scope: NoStandard,
        spec: "RFC 2396 section 5.2; RFC 3986 section 5.2.1 (\"A base URI must conform to the <absolute-URI> syntax rule\"); Python docs, urllib.parse.urljoin (no check of the base); Go docs, URL.ResolveReference (\"from an absolute base URI u\": the caller's precondition); Node.js docs, url.resolve (legacy, \"similar to that of a web browser resolving an anchor tag\"); url-parse README (baseURL); perldoc URI, $uri->abs",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [],
        with_base: [("python-urllib", "/a/b", "c"), ("go-net-url", "/a/b", "c"), ("python-urllib", "t:x", "y")],
    }
    /// Python's `urljoin` (and yarl's and httpx's `join`) resolves only
    /// against a base whose scheme is in `uses_relative`; against another
    /// base (`s3:`, `foo:`) it gives the reference back unresolved, where
    /// RFC 2396 and RFC 3986 resolve against any base.
    JoinWithoutRelativeScheme = "join-without-relative-scheme" {
        basis: Spec, severity: Medium,
        rule: resolution::join_without_relative_scheme,
        scope: External("python-urllib") | External("yarl") | External("httpx"),
        spec: "RFC 3986 section 5.2; CPython Lib/urllib/parse.py, urljoin (`if scheme != bscheme or scheme not in uses_relative: return url`) and cpython#110463 (open: `urljoin(\"s3://example.com\", \"relative_path\")` is `relative_path`); yarl 1.25 URL.join (`USES_RELATIVE`, urllib's list); httpx 0.28 URL.join (calls urljoin)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [],
        with_base: [("python-urllib", "s3://example.com/a", "relative_path"), ("yarl", "s3://example.com/a", "relative_path"), ("httpx", "s3://example.com/a", "relative_path")],
    }
    /// With a base that has a fragment: RFC 3986 parsers refuse it (a base
    /// is an `absolute-URI`), RFC 2396 and WHATWG ignore the fragment.
    BaseFragment = "base-fragment" {
        basis: Spec, severity: Low,
        rule: resolution::base_fragment, scope: Standard(Rfc3986),
        spec: "RFC 3986 sections 4.3 and 5.1; RFC 2396 section 5.2 step 1; URL Standard (basic URL parser)",
        examples: [],
        with_base: [(Rfc3986, "http://a/b#frag", "c"), (IriString, "http://a/b#frag", "c")],
    }
    /// An absolute reference against a base RFC 2396 refuses: this crate
    /// refuses the pair, RFC 3986 and WHATWG take the reference as it is.
    BaseIgnored = "base-ignored" {
        basis: Spec, severity: Low,
        rule: resolution::base_ignored, scope: Any,
        spec: "RFC 2396 section 5.2 (an absolute base URI); RFC 3986 section 5.2.2 (R.scheme defined: T = R); URL Standard (scheme state)",
        examples: [],
        with_base: [(Http, "", "http://h/"), (Http, "rtt", "a://h")],
    }
    /// With a base the other parser refuses on its own (see `uridiff check
    /// BASE` for why): it resolves nothing against it.
    BaseRefused = "base-refused" {
        basis: Spec, severity: Low,
        rule: resolution::base_refused, scope: Any,
        spec: "the base's own findings (uridiff check BASE)",
        examples: [],
        with_base: [(Url, "http://", "ttp://")],
    }
    /// With an opaque base (`mailto:a@b`): RFC 2396 resolves only a
    /// fragment or empty reference, RFC 3986 merges with a rootless path,
    /// WHATWG refuses all but a fragment.
    OpaqueBase = "opaque-base" {
        basis: Spec, severity: Low,
        rule: resolution::opaque_base, scope: Standard(Whatwg) | Standard(Rfc3986) | Oracle(Curl),
        spec: "RFC 2396 section 5.2 steps 2-3; RFC 3986 section 5.2.3; URL Standard (no scheme state)",
        examples: [],
        with_base: [(Url, "mailto:a@b", ""), (IriString, "mailto:a@b", "c")],
    }
    /// With a base, the merged path starts with `//` and the result has no
    /// authority: RFC 2396 and RFC 3986 cannot write it, WHATWG writes
    /// `/.//`.
    AmbiguousResolvedPath = "ambiguous-resolved-path" {
        basis: Spec, severity: Medium,
        rule: resolution::ambiguous_resolved_path, scope: Any,
        spec: "RFC 3986 section 5.2.4 and 3.3 (a path without authority cannot begin with //); URL Standard (URL serializing, /. prefix)",
        examples: [],
        with_base: [(Url, "foo:/a/b", "..//g")],
    }
    /// With a base, `?y`: RFC 2396 resolves it in the base's directory
    /// (`http://a/b/c/?y`), RFC 3986 and WHATWG on the base's path
    /// (`http://a/b/c/d;p?y`).
    QueryOnlyResolution = "query-only-resolution" {
        basis: Spec, severity: Medium,
        rule: resolution::query_only_resolution, scope: Any,
        spec: "RFC 2396 Appendix C.1 and section 5.2 step 6; RFC 3986 section 5.2.2 and 5.4.1; URL Standard (relative state)",
        examples: [],
        with_base: [(Rfc3986, "http://a/b/c/d;p?q", "?y"), (Url, "http://a/b/c/d;p?q", "?y"), (Url, "http://a/b/../c", "?y")],
    }
    /// WHATWG's own rules for `file` URLs: `localhost` is the empty host,
    /// drive letters belong to the path, no credentials or port (also
    /// upa-url's, whose documentation claims the URL Standard).
    FileScheme = "file-scheme" {
        basis: Spec, severity: Medium,
        rule: authority::file_scheme, scope: Standard(Whatwg) | External("upa-url"),
        spec: "URL Standard (file state, file host state); RFC 8089 section 2; upa-url README (\"compliant with the WHATWG URL ... standards\")",
        examples: [(Url, "file://localhost/etc/passwd"), (Url, "file://c:/x"), (Url, "file:?//tables.json"), ("upa-url", "file://localhost/etc/passwd"), ("upa-url", "file://c:/foo.txt"), ("upa-url", "file://user@hostname/p")],
    }
    /// A special scheme (`http:`, …) without `//`, or with an empty
    /// authority: WHATWG finds a host anyway (and so does upa-url, whose
    /// documentation claims the URL Standard).
    SpecialSchemeSlashes = "special-scheme-slashes" {
        basis: Spec, severity: Medium,
        rule: authority::special_scheme_slashes, scope: Standard(Whatwg) | External("upa-url") | External("url-parse"),
        spec: "RFC 2396 section 3; URL Standard (special authority ignore slashes state); upa-url README (\"compliant with the WHATWG URL ... standards\"); url-parse 1.5.10 index.js, extractProtocol and isSpecial (for file, ftp, http, https, ws and wss the slashes and backslashes after the scheme are skipped and what follows is read as the authority)",
        examples: [(Url, "http:evil.com/"), (Url, "http:/evil.com/"), (Url, "http:///evil.com/"), (Url, "httpS:s3:?/"), ("upa-url", "ftp:///path"), ("upa-url", "http:///"), ("url-parse", "http:/evil.com/"), ("url-parse", "wss:/bbbbbb:0800")],
    }
    /// `scheme:/path` or `scheme://` with an empty authority, which
    /// `http::Uri` refuses: its absolute-form needs an authority.
    MissingAuthority = "missing-authority" {
        basis: Spec, severity: Medium,
        rule: http::missing_authority, scope: Oracle(Http),
        spec: "RFC 9112 section 3.2.2; RFC 2396 section 3",
        examples: [(Http, "http:/evil.com/"), (Http, "file:///etc")],
    }
    /// A relative reference, which the other only resolves against a base
    /// or does not take at all.
    RelativeReference = "relative-reference" {
        basis: Spec, severity: Low,
        rule: syntax::relative_reference, scope: Any,
        spec: "RFC 2396 section 5; URL Standard (URL parsing without a base); RFC 9112 section 3.2",
        examples: [(Url, "/rel/path?q"), (Ada, "/rel/path?q")],
        with_base: [(Http, "http://a/b/c/d;p?q", "../../../g")],
    }
    /// `java.net.URL` takes only schemes it has a protocol handler for (the
    /// JDK's: http, https, ftp, file, jar, mailto, jrt); any other scheme is
    /// out of its domain ("unknown protocol").
    UrlSchemeWithoutHandler = "url-scheme-without-handler" {
        basis: Spec, severity: Low,
        rule: syntax::url_scheme_without_handler, scope: External("java-url"),
        spec: "java.net.URI javadoc (Java SE 17), URIs, URLs, and URNs (\"it is impossible to create a URL instance for a scheme for which no handler is available\"); java.net.URL(String) javadoc (MalformedURLException: \"an unknown protocol is found\")",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("java-url", "ldap://h/o=x"), ("java-url", "ws://a/b")],
    }
    /// `java.net.URL`'s `mailto:` handler takes all that follows
    /// `mailto:` as the file, `//` included, with no authority
    /// (`mailto://a@b?x`: path `//a@b`, query `x`).
    JavaMailtoHandler = "java-mailto-handler" {
        basis: Spec, severity: Low,
        rule: syntax::java_mailto_handler, scope: External("java-url"),
        spec: "RFC 2396 section 3 (net_path); JDK 17 sun.net.www.protocol.mailto.Handler.parseURL (the whole scheme-specific part is the URL's file, the host empty); java.net.URL javadoc (getPath, getQuery: parts of the file)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("java-url", "mailto://a@b?x")],
    }
    /// `http::Uri` drops the fragment.
    FragmentDropped = "fragment-dropped" {
        basis: Spec, severity: Low,
        rule: http::fragment_dropped, scope: Oracle(Http),
        spec: "RFC 9112 section 3.2",
        examples: [(Http, "http://h/a#b")],
    }
    /// A percent-encoded host: RFC 2396 hostnames have no `escaped`, others
    /// decode it.
    PercentEncodedHost = "percent-encoded-host" {
        basis: Spec, severity: Medium,
        rule: host::percent_encoded_host, scope: Any,
        spec: "RFC 2396 section 3.2.2; RFC 3986 section 3.2.2; URL Standard (host parsing)",
        examples: [(Url, "http://ex%41mple.com/")],
    }
    /// An IPv4 address in a form RFC 2396 does not know (hex, octal, fewer
    /// than four parts, out of range), read by WHATWG's IPv4 parser.
    Ipv4NumberForm = "ipv4-number-form" {
        basis: Spec, severity: Medium,
        rule: host::ipv4_number_form, scope: Standard(Whatwg) | Oracle(Curl),
        spec: "RFC 2396 section 3.2.2 (IPv4address); URL Standard (IPv4 parser)",
        examples: [(Url, "http://0x7f.1/"), (Url, "http://127.1/"), (Url, "http://999.1.1.1/")],
    }
    /// A host WHATWG maps through IDNA (UTS #46): invalid `xn--` labels
    /// are refused.
    IdnaHost = "idna-host" {
        basis: Spec, severity: Medium,
        rule: host::idna_host, scope: Standard(Whatwg),
        spec: "URL Standard (domain to ASCII); UTS #46",
        examples: [(Url, "https://xn--o/")],
    }
    /// RFC 2396 has no bound on `port`; the other rejects ports over 65535.
    PortOutOfRange = "port-out-of-range" {
        basis: Spec, severity: Medium,
        rule: port::port_out_of_range, scope: Any,
        spec: "RFC 2396 section 3.2.2; URL Standard (port state)",
        examples: [(Url, "http://host:99999/")],
    }
    /// java.net.URI reads a host of one label that starts with a digit
    /// (`dvd://1`), which RFC 2396's `toplabel` (section 3.2.2) cannot
    /// start, so RFC 2396 reads a `reg_name`: its javadoc asks an alpha
    /// first only of the rightmost label of a name of two or more labels.
    JavaSingleLabelHost = "java-single-label-host" {
        basis: Spec, severity: Low,
        rule: authority::java_single_label_host, scope: External("java-uri"),
        spec: "java.net.URI javadoc (Java SE 17), getHost(): \"The rightmost label of a domain name consisting of two or more labels, begins with an alpha character\"; RFC 2396 section 3.2.2 (toplabel)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("java-uri", "dvd://1")],
    }
    /// RFC 2396 reads the authority as a `reg_name` (no host), the other
    /// parser finds a host in it (RFC 2396 section 3.2).
    RegNameAuthority = "reg-name-authority" {
        basis: Spec, severity: Medium,
        rule: authority::reg_name_authority, scope: Any,
        spec: "RFC 2396 sections 3.2 and 3.2.2; RFC 3986 section 3.2.2",
        examples: [(Url, "http://a_b.example/"), (Url, "http://a@b@c/"), (Http, "http://1.2.3.4.5/")],
    }
    /// java.net.URI leaves an empty authority (`file:///p`) undefined
    /// (`getRawAuthority()` is null), where RFC 2396 has an empty one.
    JavaEmptyAuthority = "java-empty-authority" {
        basis: Spec, severity: Low,
        rule: authority::java_empty_authority, scope: External("java-uri"),
        spec: "java.net.URI javadoc (Java SE 17): an empty authority is permitted, its components undefined; RFC 2396 section 3.2",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("java-uri", "file:///etc/passwd")],
    }
    /// httpx refuses a host of four dot-separated numbers that is no IPv4
    /// address Python's `ipaddress` takes (`999.1.1.1`, `1.2.3.04`).
    DottedHostRefused = "dotted-host-refused" {
        basis: Spec, severity: Low,
        rule: host::dotted_host_refused, scope: External("httpx"),
        spec: "RFC 2396 section 3.2.2 (hostname, IPv4address = 1*digit \".\" ...); httpx 0.28 _urlparse.py, encode_host (IPv4_STYLE_HOSTNAME, then ipaddress.IPv4Address: \"Invalid IPv4 address\"); Python docs, ipaddress (leading zeros are not accepted, since 3.9.5)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("httpx", "http://999.1.1.1/"), ("httpx", "http://125.025.062.125")],
    }
    /// Jetty 9.4's `HttpURI` gives port 0 for an empty port (`//h:`), where
    /// RFC 3986 reads none: its defect.
    JettyEmptyPortZero = "jetty-empty-port-zero" {
        basis: Defect, severity: Medium,
        rule: jetty::empty_port_zero, scope: External("jetty-httpuri"),
        spec: "RFC 3986 section 3.2.3 (an empty port is omitted); https://github.com/jetty/jetty.project/issues/11488 (Jetty 12: an unset port is -1)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("jetty-httpuri", "//c:")],
    }
    /// Jetty's `HttpURI` refuses an authority not ended by `/`, a path whose
    /// dot segments climb above its root, and an encoded NUL in a path.
    JettyHttpUriRefusal = "jetty-httpuri-refusal" {
        basis: Spec, severity: Low,
        rule: jetty::jetty_refusal, scope: External("jetty-httpuri"),
        spec: "RFC 2396 sections 2.4.1, 3.2 and 3.3; Jetty 9.4 HttpURI javadoc (\"Http URI\": a request target, parsed for a server to route) and its answers in 9.4.57 (\"Bad authority\", \"Bad URI\" for a path whose canonical form is null, \"Illegal character in path\")",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("jetty-httpuri", "http://evil.example#@allowed.example"), ("jetty-httpuri", "http://a/../x"), ("jetty-httpuri", "http://a/%00")],
    }
    /// Node's legacy `url.parse` throws on a userinfo that does not decode
    /// as UTF-8 and on an `xn--` host its IDNA conversion refuses.
    NodeUrlRefusal = "node-url-refusal" {
        basis: Spec, severity: Low,
        rule: node::node_refusal, scope: External("node-url"),
        spec: "RFC 2396 sections 3.2.1 and 3.2.2; Node.js docs, url.parse (\"A URIError is thrown if the auth property is present but cannot be decoded\") and errors, ERR_INVALID_URL (\"An invalid URL was passed to the WHATWG URL constructor or the legacy url.parse()\"); node test/parallel/test-url-parse-invalid-input.js",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("node-url", "http://%C3%28@fail/"), ("node-url", "HTTP://9yal.Xn--9amm///")],
    }
    /// PHP's `parse_url` returns false for an authority with an empty host
    /// (but `file:///path`) and for a port of more than five digits or
    /// above 65535.
    PhpParseUrlRefusal = "php-parse-url-refusal" {
        basis: Spec, severity: Low,
        rule: php::php_refusal, scope: External("php-parse-url"),
        spec: "RFC 2396 section 3.2.2 (`port = *digit`, an empty `reg_name`); PHP manual, parse_url (\"On seriously malformed URLs, parse_url() may return false\"); php-src ext/standard/url.c, php_url_parse_ex2 (PHP 8.2: the port's length and range, the empty host)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("php-parse-url", "w://"), ("php-parse-url", "http://h:0014949/")],
    }
    /// The parser's API has no empty value for a component RFC 2396 has
    /// present and empty: urllib3's `parse_url` gives `None` for an empty
    /// path or authority, PHP's `parse_url` leaves an empty path out, Node's
    /// legacy `url.parse` gives `pathname: null`, Spring's `UriComponents`
    /// keeps no empty path, query or fragment (null), Jetty's `HttpURI` no
    /// empty path; yarl's URL gives "" for an absent authority, query or
    /// fragment alike (`http://h/p?` is `http://h/p` to it).
    EmptyAsAbsent = "empty-as-absent" {
        basis: Spec, severity: Low,
        rule: authority::empty_as_absent,
        scope: External("urllib3") | External("php-parse-url") | External("node-url") | External("spring-uri") | External("jetty-httpuri") | External("yarl"),
        spec: "RFC 2396 section 3 (a path is always present, possibly empty); urllib3 util.Url docs (path None); PHP parse_url docs (missing components are not returned); Node url.parse docs (urlObject.pathname); Spring UriComponents javadoc (getPath, getQuery, getFragment: \"Can be null\"); Jetty HttpURI javadoc (9.4: the URI is split \"into the following optional elements\"); yarl URL docs (raw_authority: \"Empty string for relative URLs\"; raw_query_string: \"Empty string if query is missing\"; raw_fragment: \"Empty string if fragment is missing\")",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("urllib3", "dvd://1"), ("urllib3", "file:///"), ("php-parse-url", "dvd://1"), ("node-url", "dvd://1"), ("spring-uri", "dvd://1"), ("spring-uri", "http://h/p?#"), ("jetty-httpuri", "dvd://1"), ("yarl", "http://h/p?"), ("yarl", "http://h/p#"), ("yarl", "file:///")],
    }
    /// urllib3's `Url` puts a `/` before a path that lacks one (`mailto:x`
    /// gives path `/x`), splitting a query out of an `opaque_part`.
    SlashBeforePath = "slash-before-path" {
        basis: Spec, severity: Low,
        rule: path::slash_before_path, scope: External("urllib3"),
        spec: "RFC 2396 section 3 (opaque_part); urllib3 util/url.py (Url: \"Data structure for representing an HTTP URL\", a path always starts with /)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("urllib3", "mailto:x"), ("urllib3", "mailto:a@b?subject=x")],
    }
    /// Node's legacy `url.parse` reads `auth@host` out of an `opaque_part`
    /// (`mailto:gnat@frii.com`: auth `gnat`, host `frii.com`).
    OpaqueReadAsAuthority = "opaque-read-as-authority" {
        basis: Spec, severity: Medium,
        rule: authority::opaque_read_as_authority, scope: External("node-url"),
        spec: "RFC 2396 section 3 (opaque_part); Node.js Legacy URL API (urlObject.auth, urlObject.host; only javascript: is hostless)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("node-url", "mailto:gnat@frii.com"), ("node-url", "mailto:x")],
    }
    /// Node's legacy `url.parse` ends the host at the first character it
    /// does not take in a hostname (a `:` whose port is not digits, a `%`)
    /// and moves the rest of the authority into the path
    /// (`https://host:port`: pathname `/:port`).
    AuthorityRestInPath = "authority-rest-in-path" {
        basis: Spec, severity: High,
        rule: path::authority_rest_in_path, scope: External("node-url"),
        spec: "RFC 2396 sections 3.2.2 (port = *digit) and 3.2 (the authority ends at /, ? or end); Node.js Legacy URL API and deprecation DEP0170 (invalid URLs in url.parse)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("node-url", "https://host:port"), ("node-url", "http://www.%70ython.org/")],
    }
    /// Ruby's `URI::FTP#path` is the path without the `/` that separates it
    /// from the host: RFC 1738 makes an FTP url-path relative to the login
    /// directory, and Ruby's documentation says so.
    FtpRelativePath = "ftp-relative-path" {
        basis: Spec, severity: Medium,
        rule: path::ftp_relative_path, scope: External("ruby-uri") | External("ruby-uri-rfc2396"),
        spec: "RFC 1738 section 3.2.2; Ruby URI::FTP#path documentation",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("ruby-uri", "ftp:///path"), ("ruby-uri-rfc2396", "ftp://h/path")],
    }
    /// `file://localhost/…` names the local machine: the parser reports the
    /// empty host for it (RFC 8089 section 2; the URL Standard's file host
    /// state; Ruby's `URI::File`).
    FileLocalhost = "file-localhost" {
        basis: Spec, severity: Low,
        rule: host::file_localhost,
        scope: External("ruby-uri") | External("ruby-uri-rfc2396"),
        spec: "RFC 8089 sections 2 and 3; URL Standard, file host state; Ruby URI::File documentation",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("ruby-uri", "file://localhost")],
    }
    /// Perl's URI: for a scheme without the generic syntax (`mailto:`) the
    /// path is the whole opaque part, `?` and query included, and the
    /// query what follows its first `?`: the query is in both.
    OpaquePathAndQuery = "opaque-path-and-query" {
        basis: Spec, severity: Low,
        rule: syntax::opaque_path_and_query, scope: External("perl-uri"),
        spec: "RFC 2396 section 3 (opaque_part); perldoc URI ($uri->path: \"the same value as $uri->opaque unless the URI supports the generic syntax\"; mailto: \"support the common methods and the generic query methods\")",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("perl-uri", "mailto:a@b?subject=x"), ("perl-uri", "mailto://a@b?x")],
    }
    /// urllib3's `parse_url` refuses a `.` in a scheme and reads the text
    /// before `://` as the host (`opc.tcp://203.0.113.0:49320`: host
    /// `opc.tcp`), where RFC 3986 section 3.1 allows it: its defect
    /// (urllib3#2897, open).
    DottedScheme = "dotted-scheme" {
        basis: Defect, severity: High,
        rule: syntax::dotted_scheme, scope: External("urllib3"),
        spec: "RFC 3986 section 3.1 (scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )); urllib3 parse_url docstring (\"This parser is RFC 3986 and RFC 6874 compliant\"); https://github.com/urllib3/urllib3/issues/2897",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("urllib3", "opc.tcp://203.0.113.0:49320")],
    }
    /// urllib3's `parse_url` reads an input without a scheme or a leading
    /// `/` as an authority (`example/x`: host `example`, path `/x`; a
    /// dotted scheme, `google.com:80`, is `dotted-scheme`).
    SchemelessAuthority = "schemeless-authority" {
        basis: Spec, severity: Medium,
        rule: authority::schemeless_authority, scope: External("urllib3"),
        spec: "RFC 2396 section 5 (rel_path); urllib3 util/url.py, parse_url (\"Best-effort is performed to parse incomplete urls\"; its example `parse_url('google.com:80')` gives host google.com, port 80; `_SCHEME_RE` decides when `//` is put before the input)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("urllib3", "example/x"), ("urllib3", "h/%2f")],
    }
    /// Perl's URI keeps the `:` of an empty port in the host (`ftp://h:/`:
    /// host `h:`): its host removes a `:` only with digits after it.
    /// `$uri->host` is documented to return the hostname: its defect.
    HostKeepsPortColon = "host-keeps-port-colon" {
        basis: Defect, severity: Medium,
        rule: host::host_keeps_port_colon, scope: External("perl-uri"),
        spec: "RFC 3986 section 3.2.3 (port = *DIGIT; the host ends at the ':'); perldoc URI ($uri->host: \"Sets and returns the unescaped hostname\")",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        // With a port accessor too (`ftp://h:/`) the self-check's
        // dropped-input (host and port do not recompose `h:`) comes first.
        examples: [("perl-uri", "file://c:/path")],
    }
    /// An empty host where RFC 2396 has none (an empty `server`).
    EmptyHost = "empty-host" {
        basis: Spec, severity: Low,
        rule: host::empty_host, scope: Any,
        spec: "RFC 2396 section 3.2.2 (server); RFC 3986 section 3.2.2 (reg-name)",
        examples: [(Rfc3986, "file:///etc/passwd")],
    }
    /// `//@host`: RFC 2396 keeps an empty userinfo, the other drops it.
    EmptyUserinfo = "empty-userinfo" {
        basis: Spec, severity: Low,
        rule: authority::empty_userinfo, scope: Any,
        spec: "RFC 2396 section 3.2.2; RFC 1738 section 3.1; URL Standard (authority state)",
        examples: [(Url, "ftp://@host.com/")],
    }
    /// `//user:@host`: the empty password's `:` is dropped.
    EmptyPassword = "empty-password" {
        basis: Spec, severity: Low,
        rule: authority::empty_password, scope: Any,
        spec: "RFC 1738 section 3.1; URL Standard (URL serializing)",
        examples: [(Url, "ftp://foo:@host.com/"), (Url, "hutp://1%20sRRR;RRRmailto:@z6/")],
    }
    /// Addressable reads the port as an Integer: a written `080` is 80, an
    /// empty port none.
    IntegerPort = "integer-port" {
        basis: Spec, severity: Low,
        rule: port::integer_port, scope: External("ruby-addressable"),
        spec: "RFC 3986 sections 3.2.3 and 6.2.3; Addressable::URI#port (\"This is the port number actually given in the URI\", @return [Integer])",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("ruby-addressable", "http://h:080/"), ("ruby-addressable", "file://c:/path/name")],
    }
    /// `//host:/`: RFC 2396 `port = *digit` allows an empty port.
    EmptyPort = "empty-port" {
        basis: Spec, severity: Low,
        rule: port::empty_port, scope: Any,
        spec: "RFC 2396 section 3.2.2; RFC 3986 section 6.2.3",
        examples: [(Url, "http://host:/"), ("urllib3", "http://foo.com:/")],
    }
    /// The scheme's default port is written out, and elided by the other.
    DefaultPort = "default-port" {
        basis: Spec, severity: Low,
        rule: port::default_port, scope: Any,
        spec: "URL Standard (port state); RFC 3986 section 6.2.3",
        examples: [(Url, "http://host:80/")],
    }
    /// The same port number written differently (leading zeros).
    PortNormalized = "port-normalized" {
        basis: Spec, severity: Low,
        rule: port::port_normalized, scope: Any,
        spec: "URL Standard (port state)",
        examples: [(Url, "http://h:0081/")],
    }
    /// `?` inside an RFC 2396 `opaque_part` belongs to the path; the others
    /// split off a query.
    OpaquePartQuery = "opaque-part-query" {
        basis: Spec, severity: Medium,
        rule: syntax::opaque_part_query, scope: Any,
        spec: "RFC 2396 section 3; RFC 3986 section 3.4",
        examples: [(Rfc3986, "mailto:a@b?x")],
    }
    /// Scheme or host case folded (RFC 2396 sections 3.1 and 3.2.2 make them
    /// case-insensitive).
    CaseNormalized = "case-normalized" {
        basis: Spec, severity: Low,
        rule: host::case_normalized, scope: Any,
        spec: "RFC 2396 sections 3.1 and 3.2.2; URL Standard (host parsing)",
        examples: [(Url, "HTTP://EXAMPLE.COM/")],
    }
    /// An empty path written as `/` by the other.
    EmptyPathSlash = "empty-path-slash" {
        basis: Spec, severity: Low,
        rule: path::empty_path_slash, scope: Any,
        spec: "URL Standard (path start state); RFC 9110 section 4.2.3",
        examples: [(Url, "http://h")],
    }
    /// Spring's `UriComponentsBuilder` writes every `//` in a path as `/`.
    PathSlashesCollapsed = "path-slashes-collapsed" {
        basis: Spec, severity: Medium,
        rule: path::path_slashes_collapsed, scope: External("spring-uri"),
        spec: "RFC 2396 section 3.3 (empty segments); Spring UriComponentsBuilder, FullPathComponentBuilder (\"replace all // by /\", since spring-framework#14904 and #17006; spring-framework#34076, closed: sanitising kept)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [("spring-uri", "http://h/a//b"), ("spring-uri", "http:/evil.example://allowed.example")],
    }
    /// Dot segments removed by the other (RFC 2396 section 5.2 removes them
    /// only when resolving a relative path).
    DotSegments = "dot-segments" {
        basis: Spec, severity: Medium,
        rule: path::dot_segments, scope: Any,
        spec: "RFC 2396 section 5.2 step 6; RFC 3986 section 5.2.4; URL Standard (path state)",
        examples: [(Url, "http://h/a/../b"), (Url, "http://a/../g"), (Url, "ht3:/%2e/a/"), (Url, "http://h/a/%2E%2e/b")],
        with_base: [(Rfc3986, "http://a/b/c/d;p?q", "../../../g"), (Url, "http://a/b/c/d;p?q", "../../../g")],
    }
    /// rust-url keeps a drive-letter-like segment (`c:`) against `..` in
    /// every scheme, not only `file`, and empties the host of a `file` URL
    /// whose path starts with a drive letter: both break the URL Standard,
    /// so defects of `url`.
    WindowsDriveLetter = "windows-drive-letter" {
        basis: Defect, severity: Medium,
        rule: path::windows_drive_letter, scope: Oracle(Url),
        spec: "URL Standard (shorten a URL's path; file host state); rust-url 2.5.8 `last_slash_can_be_removed`; WPT url/resources/urltestdata.json",
        examples: [(Url, "http://h/a/r:/../../ZZ"), (Url, "htt:/1./r:/../../ZZ"), (Url, "afiue://h/E:/%2e%2E/x"), (Url, "file://1.2.3.4/C:/")],
    }
    /// The same octets, percent-encoded differently (RFC 2396 section 2.4.2).
    PercentEncoding = "percent-encoding" {
        basis: Spec, severity: Medium,
        rule: characters::percent_encoding, scope: Any,
        spec: "RFC 2396 section 2.4.2; URL Standard (percent-encode sets)",
        examples: [(Url, "http://h/?a'b")],
    }
    /// With a base, a `%2e` segment in the path being resolved: WHATWG, the
    /// RFC 3986 parsers (normalising first) and libcurl remove it as a dot
    /// segment, RFC 2396 as an ordinary segment a later `..` takes away.
    EncodedDotSegment = "encoded-dot-segment" {
        basis: Spec, severity: Medium,
        rule: resolution::encoded_dot_segment, scope: Any,
        spec: "RFC 2396 section 5.2 step 6; RFC 3986 sections 2.3, 5.2.4 and 6.2.2.2; URL Standard (single-dot and double-dot URL path segment); libcurl lib/urlapi.c (is_dot)",
        examples: [],
        with_base: [(Url, "httj://t", "1/%2e/.."), (Rfc3986, "httj://t", "1/%2e/.."), (IriString, "http6:/../", "t/%2e/.."), (Curl, "httj://t", "1/%2e/.."), (Rfc3986, "http:/../...////%2e./..//%1e/.", ".")],
    }
    /// With a base: WHATWG and libcurl resolve against the base as they read
    /// it, its dot segments already removed and its host found, where RFC
    /// 2396 merges with the base's path as written.
    NormalizedBase = "normalized-base" {
        basis: Spec, severity: Medium,
        rule: resolution::normalized_base, scope: Standard(Whatwg) | Oracle(Curl),
        spec: "RFC 2396 section 5.2 step 6; URL Standard (basic URL parser: the base is a parsed URL record; path state); libcurl lib/urlapi.c (dedotdotify on curl_url_set)",
        examples: [],
        with_base: [(Url, "r:/f//..", "i"), (Ada, "r:/f//..", "i"), (Curl, "file:/..///..", "~"), (Url, "ttp://.p://.%2E#/ftp:7.", "2"), (Url, "ws://$@%22/.i/..", ",")],
    }
    /// The components a parser reports do not account for the authority it
    /// consumed: userinfo, host and port do not recompose it, even once
    /// percent-decoded, so input was silently dropped (the shape of Go's
    /// CVE-2019-14809). Input lost is lost whatever standard the parser
    /// claims, so this holds for a parser that claims none too (CPython's
    /// `urlsplit` reads `[::1]x:80` as host `::1`, port 80).
    DroppedInput = "dropped-input" {
        basis: Defect, severity: High,
        spec: "RFC 3986 section 3.2 (authority = [ userinfo \"@\" ] host [ \":\" port ])",
        examples: [(Http, "http://[::1]evil.com:80/"), (Http, "http://h:80x/"), ("python-urllib", "http://[::1]x:80/")],
    }
    /// A WHATWG parser accepts an authority whose host after `@` is empty,
    /// which the URL Standard fails (authority state and host state:
    /// host-missing validation error, return failure).
    HostMissing = "host-missing" {
        basis: Defect, severity: Medium,
        spec: "URL Standard, authority state and host state (host-missing validation error, return failure)",
        examples: [(Url, "s://@")],
    }
    /// The parser reports a scheme no standard here allows: each writes it
    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 section 3.1,
    /// RFC 2396 section 3.1, the URL Standard's scheme state), so an empty
    /// scheme, or one that starts with a digit or `~`, is none.
    InvalidScheme = "invalid-scheme" {
        basis: Defect, severity: Medium,
        spec: "RFC 3986 section 3.1; RFC 2396 section 3.1; URL Standard, scheme start state",
        examples: [(Http, "://h/"), (Http, "1://h/")],
    }
    /// A host with `[` or `]` that is not an IP literal of RFC 3986 section
    /// 3.2.2 (IPv6address or IPvFuture; a zone ID only as RFC 6874's `%25`).
    InvalidIpLiteral = "invalid-ip-literal" {
        basis: Defect, severity: High,
        spec: "RFC 3986 section 3.2.2 (IP-literal); RFC 6874 section 2",
        examples: [(Http, "http://[www.google.com]/"), (Http, "http://[fe80::1%en0]:8080/")],
    }
    /// Reparsing the parser's own serialization gives other components:
    /// the parser does not keep its own answer.
    RoundTrip = "round-trip" {
        basis: Defect, severity: Medium,
        spec: "URL Standard (URL serializing: parsing the serialization gives an equal URL); RFC 3986 section 5.3",
        examples: [(Url, "file://h//c:/../..")],
    }
    /// Two parsers of the same standard (url and ada for WHATWG, rfc3986
    /// and iri-string for RFC 3986, http::Uri's authority against RFC
    /// 3986's) disagree: one of them breaks it.
    PeerDisagreement = "peer-disagreement" {
        basis: Defect, severity: Medium,
        spec: "the standard both implement",
        examples: [(Url, "file://1.2.3.4/C:/")],
    }
    /// The parser departs from its standard's reference (`whatwg-url` for
    /// the URL Standard, the RFC 3986 grammar with section 5.2 transcribed)
    /// on an input where the parsers disagree: `decided_by` names the
    /// reference.
    ReferenceDisagreement = "reference-disagreement" {
        basis: Defect, severity: Medium,
        spec: "the standard the parser implements, as its reference runs it",
        examples: [],
        // fluent-uri removes the `%2e` as a dot segment, as iri-string
        // does, where uriparser guards the `//` with `./` (a permitted
        // variation), so no peer sides with the reference.
        with_base: [(Rfc3986, "p:/", ".///%2e")],
    }
    /// With a base, an RFC 3986 parser resolves against the base normalised
    /// (dot segments removed, percent-encoded unreserved characters
    /// decoded) where the strict algorithm uses it as written: section
    /// 5.2.1 makes that normalisation optional.
    OptionalBaseNormalization = "optional-base-normalization" {
        basis: Spec, severity: Low,
        spec: "RFC 3986 section 5.2.1 (normalization of the base URI, sections 6.2.2 and 6.2.3, is optional)",
        examples: [],
        with_base: [(Rfc3986, "h:/.", "")],
    }
    /// A parser writes the input's valid IPv6 literal as another text form
    /// of the same address (RFC 5952's compressed lower-case form, an IPv4
    /// tail in hex), or, where its own documentation says so (its
    /// descriptor's host readings), with the zone ID after a single `%`:
    /// the same address and zone, where its peers keep the literal as
    /// written. Compared with the reference's host (`decided_by`).
    Ipv6TextForm = "ipv6-text-form" {
        basis: Spec, severity: Medium,
        spec: "RFC 4291 section 2.2 (text forms of one address); RFC 5952 section 4; RFC 4007 section 11 and RFC 6874 section 2 (the `%25` of a URI is the `%` of the address's text form); uri-js README (IP Support: IPv6 normalization, zone identifier support); fast-uri types/index.d.ts (URIComponent.ipv6Zone)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("uri-js", "http://[0:0:0:0:0:0:0d01:4403]/"), ("fast-uri", "http://[0:0:0:0:0:0:0d01:4403]/")],
    }
    /// A parser whose documentation names RFC 6874 accepts an IPv6 literal
    /// with a zone ID (`[fe80::1%25en0]`), which RFC 3986's own grammar
    /// (its reference) refuses: RFC 6874 updates section 3.2.2 with
    /// `IPv6addrz = IPv6address "%25" ZoneID`, and the input is valid once
    /// the zone ID is taken out.
    Ipv6ZoneId = "ipv6-zone-id" {
        basis: Spec, severity: Medium,
        spec: "RFC 6874 section 2 (IPv6addrz, updating RFC 3986 section 3.2.2); uri-js README (\"compliant with ... IPv6 Zone Identifier (RFC 6874)\"; IPv6 zone identifier support); fast-uri types/index.d.ts (URIComponent.ipv6Zone)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("uri-js", "http://[fe80::1%25en0]/"), ("fast-uri", "http://[fe80::1%25en0]/")],
    }
    /// For the schemes whose handler its documentation says treats the
    /// host as a domain name (uri-js's and fast-uri's `domainHost`: http,
    /// https, ws, wss), a parser reports the reg-name percent-decoded and
    /// converted to ASCII through IDNA, where its peers keep the reg-name
    /// as written: RFC 3986 section 3.2.2 lets a reg-name's percent-encoded
    /// UTF-8 stand for a name that is looked up in its IDNA form.
    DomainHost = "domain-host" {
        basis: Spec, severity: Medium,
        spec: "RFC 3986 section 3.2.2 (a non-ASCII reg-name is transformed to the IDNA encoding before lookup); RFC 5891; uri-js README and fast-uri README, Options (`domainHost`: \"convert IDNs (International Domain Names) as per RFC 5891\"), set by their http, https, ws and wss handlers",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("uri-js", "https://%CF%80.example.com/foo"), ("fast-uri", "https://%CF%80.example.com/foo")],
    }
    /// urllib3's and yarl's authority is rebuilt from their own parts
    /// (`userinfo@host:port`), not read from the input: it differs where
    /// those parts differ, and they are judged one by one.
    AuthorityRebuilt = "authority-rebuilt" {
        basis: Spec, severity: Low,
        rule: authority::authority_rebuilt, scope: External("urllib3") | External("yarl"),
        spec: "RFC 3986 section 3.2; urllib3 util.Url.authority (\"Authority component as defined in RFC 3986 3.2. This includes userinfo (auth), host and port\", built from them); yarl URL.raw_authority (built from the encoded user, password, host and port)",
        // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
        examples: [("yarl", "NNNhttps://A:008/422"), ("urllib3", "T://@127.0.0.1")],
    }
    /// The parser answered that the input is out of its domain (a pair,
    /// for a parser without a resolution function; a scheme it has no
    /// handler for): it declined to read it, so there is no reading to
    /// depart from a standard. A state of its outcome, not a disagreement
    /// about the input; a more specific class (`relative-reference`,
    /// `url-scheme-without-handler`) names the reason where one applies.
    OutOfDomain = "out-of-domain" {
        basis: Spec, severity: Low,
        rule: syntax::out_of_domain, scope: Any,
        spec: "uridiff pipe protocol, version 2 (GUIDE.md: `out-of-domain`, the parser does not take the input); an in-process oracle's registry row (`domain`)",
        // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
        examples: [],
        with_base: [("spring-uri", "http://a/b/c", "d"), ("urllib3", "http://a/b/c", "../d")],
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
