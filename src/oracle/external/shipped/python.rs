//! The Python adapters: CPython's `urllib.parse`, and urllib3, yarl, httpx
//! and upa-url from the cache root (`URIDIFF_PYTHON_LIB`).

use super::{Accessors, Documented, HostReading, Language, Reproduce, SETUP, Shipped};
use crate::oracle::Standard;

/// The pinned libraries' directory, which each adapter puts first on
/// `sys.path` itself.
const PYTHON_LIB: &[(&str, &str)] = &[("URIDIFF_PYTHON_LIB", "{cache}/python")];

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[
    Shipped::new(
        "python-urllib",
        &[(
            "python-urllib.py",
            include_str!("../../../../adapters/python-urllib.py"),
        )],
        &["python3"],
        // -I: isolated from the user's environment and site packages; the
        // standard library is all it uses.
        &["python3", "-I", "{dir}/python-urllib.py"],
        "apt-get install python3",
    )
    .position(1)
    // urllib.parse.urljoin, then urlsplit of the result.
    .resolves()
    .reproduce(
        Reproduce::new(
            Language::Python,
            "u = urlsplit({input})",
            Accessors {
                scheme: Some("u.scheme"),
                userinfo: None,
                host: Some("u.hostname"),
                port: Some("u.port"),
                path: Some("u.path"),
                query: Some("u.query"),
                fragment: Some("u.fragment"),
            },
        )
        .prelude("from urllib.parse import urlsplit, urljoin")
        .resolve("u = urlsplit(urljoin({base}, {input}))")
        .refusal("ValueError")
        .refusal_probe("u.port  # urlsplit checks the port when it is read"),
    )
    .documented(URLLIB_DOCUMENTED)
    .clients(&["urllib.request"]),

    Shipped::new(
        "urllib3",
        &[(
            "urllib3.py",
            include_str!("../../../../adapters/urllib3.py"),
        )],
        &["python3"],
        // -I: isolated from the user's environment and site directory; the
        // adapter puts URIDIFF_PYTHON_LIB, where the pinned urllib3 is,
        // first on sys.path itself.
        &["python3", "-I", "{dir}/urllib3.py"],
        SETUP,
    )
    .position(6)
    .env(PYTHON_LIB)
    .libraries(&[("urllib3", "{cache}/python/urllib3/__init__.py")])
    // urllib3 has no resolution function: pairs are out of its domain.
    .reproduce(
        Reproduce::new(
            Language::Python,
            "u = parse_url({input})",
            Accessors {
                scheme: Some("u.scheme"),
                userinfo: Some("u.auth"),
                host: Some("u.host"),
                port: Some("u.port"),
                path: Some("u.path"),
                query: Some("u.query"),
                fragment: Some("u.fragment"),
            },
        )
        .prelude("from urllib3.util import parse_url")
        // urllib3's LocationParseError is a ValueError.
        .refusal("ValueError"),
    )
    .documented(URLLIB3_DOCUMENTED)
    .host_readings(&[(
        HostReading::Rfc3986Normalized(&["http", "https", ""]),
        "urllib3 2.8.0 util/url.py, _normalize_host (for _NORMALIZABLE_SCHEMES, http, https and none: \"decoding percent-encoded unreserved characters and uppercasing the hexadecimal case of retained percent-encoded octets\", https://github.com/urllib3/urllib3/pull/5095; then _idna_encode lower-cases each label)",
    )])
    // requests prepares the URL with urllib3.util.parse_url
    // (PreparedRequest.prepare_url), then re-quotes it (requote_uri) and sends
    // it through urllib3's pool: this parser, with requests' own steps after it.
    .clients(&["urllib3", "requests"]),

    Shipped::new(
        "yarl",
        &[("yarl.py", include_str!("../../../../adapters/yarl.py"))],
        &["python3"],
        // -I: isolated from the user's environment and site directory; -S:
        // not the interpreter's site-packages either, so only the standard
        // library and the pinned libraries (URIDIFF_PYTHON_LIB, which the
        // adapter puts on sys.path itself) are loaded.
        &["python3", "-I", "-S", "{dir}/yarl.py"],
        SETUP,
    )
    .position(16)
    .env(PYTHON_LIB)
    .libraries(&[
        ("yarl", "{cache}/python/yarl/__init__.py"),
        ("multidict", "{cache}/python/multidict/__init__.py"),
        ("propcache", "{cache}/python/propcache/__init__.py"),
        ("idna", "{cache}/python/idna/__init__.py"),
    ])
    // yarl's URL.join, which aiohttp resolves a redirect with.
    .resolves()
    // No standard: yarl's documentation claims none to validate by; it
    // repairs what it is given ("Constructor and modification operators
    // perform encoding for all parts automatically", yarl's API docs,
    // class URL), as urllib3 does.
    // aiohttp resolves a host with the event loop's getaddrinfo (glibc).
    .reproduce(
        Reproduce::new(
            Language::Python,
            "u = URL({input})",
            // As the adapter reads them: raw_host (what aiohttp connects
            // to) with an IPv6 address's brackets, the port as written, an
            // empty query or fragment as none.
            Accessors {
                scheme: Some("(u.scheme or None)"),
                userinfo: Some(
                    "(u.raw_user if u.raw_password is None else f\"{u.raw_user or ''}:{u.raw_password}\")",
                ),
                host: Some("(f\"[{u.raw_host}]\" if \":\" in (u.raw_host or \"\") else u.raw_host)"),
                port: Some("(None if u.explicit_port is None else str(u.explicit_port))"),
                path: Some("u.raw_path"),
                query: Some("(u.raw_query_string or None)"),
                fragment: Some("(u.raw_fragment or None)"),
            },
        )
        .prelude("from yarl import URL")
        .resolve("u = URL({base}).join(URL({input}))")
        .refusal("ValueError"),
    )
    // aiohttp's ClientSession builds every request URL with yarl.URL(str_or_url).
    .clients(&["aiohttp"]),

    Shipped::new(
        "httpx",
        &[("httpx.py", include_str!("../../../../adapters/httpx.py"))],
        &["python3"],
        // -I -S as for yarl: `import httpx` tries click, pygments and rich,
        // which must not come from the machine's site-packages.
        &["python3", "-I", "-S", "{dir}/httpx.py"],
        SETUP,
    )
    .position(17)
    .env(PYTHON_LIB)
    .libraries(&[
        ("httpx", "{cache}/python/httpx/__init__.py"),
        ("idna", "{cache}/python/idna/__init__.py"),
    ])
    // httpx's URL.join.
    .resolves()
    // No standard: httpx's documentation claims none to validate by: a
    // URL is normalised, not refused ("A normalized, IDNA supporting
    // URL", httpx's URL documentation; httpx/_urlparse.py percent-encodes
    // what a component does not allow, with the URL Standard's
    // percent-encode sets, where RFC 3986 would refuse it).
    // httpx connects through httpcore's socket.getaddrinfo (glibc).
    .reproduce(
        Reproduce::new(
            Language::Python,
            "u = httpx.URL({input})",
            // As the adapter reads them: the parsed components httpx.URL
            // keeps (`_uri_reference`), which keep an absent query or
            // fragment apart from an empty one; raw_host, what httpx's
            // transport connects to.
            Accessors {
                scheme: Some("(u.scheme or None)"),
                userinfo: Some("(u.userinfo.decode() or None)"),
                host: Some(
                    "(None if not u._uri_reference.authority else f\"[{u.raw_host.decode()}]\" if b\":\" in u.raw_host else u.raw_host.decode())",
                ),
                port: Some("(None if u.port is None else str(u.port))"),
                path: Some("u._uri_reference.path"),
                query: Some("u._uri_reference.query"),
                fragment: Some("u._uri_reference.fragment"),
            },
        )
        .prelude("import httpx")
        .resolve("u = httpx.URL({base}).join({input})")
        .refusal("httpx.InvalidURL"),
    )
    .documented(HTTPX_DOCUMENTED)
    // httpx.Client builds every request URL with httpx.URL (httpx/_urlparse.py).
    .clients(&["httpx"]),

    Shipped::new(
        "upa-url",
        &[(
            "upa-url.py",
            include_str!("../../../../adapters/upa-url.py"),
        )],
        &["python3"],
        // -I -S as for yarl.
        &["python3", "-I", "-S", "{dir}/upa-url.py"],
        SETUP,
    )
    .position(18)
    .env(PYTHON_LIB)
    .libraries(&[("upa-url", "{cache}/python/upa_url/__init__.py")])
    // The URL Standard's API URL parser with a base (URL.parse(input, base)).
    .resolves()
    // upa-url's README (its PyPI description): "This package provides
    // Python bindings for the Upa URL library, which is compliant with
    // the WHATWG URL and URL Pattern standards". A peer
    // of url and ada; whatwg-url stays the reference that decides.
    // Its own implementation (Upa URL, C++): none of url's, ada's or
    // whatwg-url's lineage. A Python service connects through
    // socket.getaddrinfo (glibc).
    .standard(Standard::Whatwg)
    .reproduce(
        Reproduce::new(
            Language::Python,
            "u = URL({input})",
            // As the adapter reads them: the standard's getters, with a null
            // host, query or fragment told from an empty one by href.
            Accessors {
                scheme: Some("u.protocol[:-1]"),
                userinfo: Some(
                    "((u.username if not u.password else f\"{u.username}:{u.password}\") or None)",
                ),
                host: Some("(u.hostname if u.href[len(u.protocol):].startswith(\"//\") else None)"),
                port: Some("(u.port or None)"),
                path: Some("u.pathname"),
                query: Some("(u.search[1:] if \"?\" in u.href.partition(\"#\")[0] else None)"),
                fragment: Some("(u.hash[1:] if \"#\" in u.href else None)"),
            },
        )
        .prelude("from upa_url import URL")
        .resolve("u = URL({input}, {base})")
        .refusal("RuntimeError"),
    ),
];

// No standard as a whole (its documentation, "URL parsing security":
// urlsplit and urlparse "do not perform validation"), but its module
// documentation (help(urllib.parse)) names the one its parse follows:
// "urlparse module is based upon the following RFC specifications. RFC
// 3986 ... RFC 3986 is considered the current standard and any future
// changes to urlparse module should conform with it", and urljoin's
// documentation its resolution: "Changed in version 3.5: Behavior updated
// to match the semantics defined in RFC 3986".
pub(super) const URLLIB_DOCUMENTED: Documented = Documented::NONE
.claims_parse(
    Standard::Rfc3986,
    "Python urllib.parse module documentation (\"urlparse module is based upon the following RFC specifications. RFC 3986 ... RFC 3986 is considered the current standard\")",
)
.claims_resolve(
    Standard::Rfc3986,
    "Python docs, urllib.parse.urljoin (\"Changed in version 3.5: Behavior updated to match the semantics defined in RFC 3986\")",
);

// No standard as a whole (it normalises rather than refuses), but its
// parse claims one: parse_url's documentation, "This parser is RFC 3986
// and RFC 6874 compliant".
pub(super) const URLLIB3_DOCUMENTED: Documented = Documented::NONE.claims_parse(
    Standard::Rfc3986,
    "urllib3 util.parse_url (\"This parser is RFC 3986 and RFC 6874 compliant\")",
);

// No standard as a whole (above: httpx normalises rather than refuses),
// but its URL parser's own documentation names the one it follows
// (httpx/_urlparse.py: "An implementation of `urlparse` that provides URL
// validation and normalization as described by RFC3986"), and URL.join
// ("Return an absolute URL, using this URL as the base") is that parser
// over CPython's urljoin, whose documentation claims RFC 3986 ("Changed in
// version 3.5: Behavior updated to match the semantics defined in RFC
// 3986").
pub(super) const HTTPX_DOCUMENTED: Documented = Documented::NONE
    .claims_parse(
        Standard::Rfc3986,
        "httpx/_urlparse.py (\"An implementation of `urlparse` that provides URL validation and normalization as described by RFC3986\")",
    )
    .claims_resolve(
        Standard::Rfc3986,
        "httpx URL.join (`URL(urljoin(str(self), str(URL(url))))`: CPython's urljoin, \"Changed in version 3.5: Behavior updated to match the semantics defined in RFC 3986\"), its result parsed by httpx/_urlparse.py (\"as described by RFC3986\")",
    );
