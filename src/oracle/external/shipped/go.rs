//! The Go adapter: `net/url`, a program built once per source and
//! toolchain into the cache root (`go_build`).

use super::{
    Accessors, Build, Documented, HostReading, Language, Reproduce, Resolver, SelfCheck, Shipped,
};
use crate::oracle::Standard;

/// A Go program of one file, standard library only, kept as `output`.
///
/// The caller's Go settings never reach the build: a GOOS or GOARCH there
/// would build a program this machine cannot run, GOFLAGS or a go.work
/// could fail it, and `go env -w` settings live in the file GOENV=off
/// ignores. Kept: where Go and its caches are. The working directory is
/// the temporary directory, with `adapters/go.mod` beside the source, so
/// no go.mod or go.work of the caller's directory (or above TMPDIR) is
/// found. CGO_ENABLED=0 makes a static program, as
/// `scripts/setup-oracles.sh` builds it (the same recipe: keep the two
/// together).
pub(crate) const fn go_build(output: &'static str) -> Build {
    Build {
        output,
        command: &["go", "build", "-trimpath", "-o", "{output}", "."],
        toolchain: &["go", "env", "GOVERSION", "GOOS", "GOARCH"],
        keep: &[
            "PATH",
            "HOME",
            "TMPDIR",
            "GOROOT",
            "GOPATH",
            "GOCACHE",
            "GOMODCACHE",
            "XDG_CACHE_HOME",
        ],
        set: &[
            ("GOENV", "off"),
            ("GOTOOLCHAIN", "local"),
            ("GOWORK", "off"),
            ("GO111MODULE", "on"),
            ("GOPROXY", "off"),
            ("CGO_ENABLED", "0"),
        ],
        scratch_cache: Some(("GOCACHE", &["GOCACHE", "XDG_CACHE_HOME", "HOME"])),
    }
}

/// The module a Go program is built in (see [`go_build`]).
pub(crate) const GO_MOD: (&str, &str) = ("go.mod", include_str!("../../../../adapters/go.mod"));

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[
    Shipped::new(
        "go-net-url",
        &[
            (
                "go-net-url.go",
                include_str!("../../../../adapters/go-net-url.go"),
            ),
            GO_MOD,
        ],
        &[],
        &["{cache}/go/go-net-url-{hash}"],
        "apt-get install golang-go",
    )
    .position(12)
    .build(go_build("{cache}/go/go-net-url-{hash}"))
    // net/url's URL.ResolveReference.
    .resolves()
    // net/url claims no standard, but Go fixed its acceptance of a
    // bracketed host that is no IPv6 literal (`cfg://adict[2]`) as
    // CVE-2025-47912 (Go 1.24.8 and 1.25.2): an older Go is held to it.
    .held_to(&[SelfCheck::IpLiteral])
    .resolver(Resolver::Go)
    .host_readings(&[(
        HostReading::PercentDecoded,
        "Go net/url, parseHost (src/net/url/url.go): \"RFC 6874 defines that %25 (%-encoded percent) introduces the zone identifier, and the zone identifier can use basically any %-encoding it likes\", then `unescape(host, encodeHost)`; URL.Host holds the host so decoded (url.Parse(\"http://[fe80::1%25en0]/\").Host is \"[fe80::1%en0]\", its String() gives the input back)",
    )])
    .reproduce(
        Reproduce::new(
            Language::Go,
            "u, err := url.Parse({input})",
            Accessors {
                scheme: Some("u.Scheme"),
                userinfo: None,
                host: Some("u.Hostname()"),
                port: Some("u.Port()"),
                path: Some("u.EscapedPath()"),
                query: Some("u.RawQuery"),
                fragment: Some("u.EscapedFragment()"),
            },
        )
        .prelude("\"net/url\"")
        .resolve(
            "base, err := url.Parse({base})
	if err != nil { log.Fatal(err) }
	ref, err := url.Parse({input})
	if err != nil { log.Fatal(err) }
	u := base.ResolveReference(ref)",
        ),
    )
    .documented(NET_URL_DOCUMENTED)
    // net/http's Client.Get parses with url.Parse.
    .clients(&["go-net-http"]),
];

// Its resolution claims RFC 3986 (the URL.ResolveReference doc comment,
// Go 1.19: "ResolveReference resolves a URI reference to an absolute URI
// from an absolute base URI u, per RFC 3986 Section 5.2"); its parse
// claims none (the package doc: "Package url parses URLs and implements
// query escaping"; url.Parse: "parses a raw url into a URL structure").
pub(super) const NET_URL_DOCUMENTED: Documented = Documented::NONE
.claims_resolve(
    Standard::Rfc3986,
    "Go net/url, URL.ResolveReference (\"resolves a URI reference to an absolute URI from an absolute base URI u, per RFC 3986 Section 5.2\")",
);
