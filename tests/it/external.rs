//! External oracles over a pipe (`uridiff::oracle::external`): shipped
//! adapters on inputs whose answers their documentation fixes, and
//! every fault with a deliberately broken adapter from `tests/adapters/`.
//!
//! These tests need python3, java, and node with the pinned npm libraries
//! (`scripts/setup-oracles.sh`). When one is missing they fail with an
//! install hint; they never skip.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;
use std::time::Duration;

use uridiff::components::Component;
use uridiff::oracle::external::{
    External, ExternalError, Externals, Spec, V1_NO_BASE, shipped_names,
};
use uridiff::oracle::{Outcome, Verdict};

/// Generous: the machines running the tests are busy, and the Java source
/// launcher compiles the adapter before its hello line.
const START: Duration = Duration::from_secs(60);

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

fn require_python() {
    assert!(
        on_path("python3"),
        "python3 not found: install python3 (apt-get install python3)"
    );
}

fn require_node() {
    assert!(
        on_path("node"),
        "node not found: install Node.js (apt-get install nodejs npm), then bash scripts/setup-oracles.sh"
    );
}

fn require_java() {
    assert!(
        on_path("java"),
        "java not found: install a JDK 17 or later (apt-get install openjdk-17-jdk-headless)"
    );
}

fn require(program: &str, install: &str) {
    assert!(
        on_path(program),
        "{program} not found: install it ({install}, or bash scripts/setup-oracles.sh)"
    );
}

fn shipped(name: &str) -> External {
    match name {
        "java-uri" | "java-url" | "spring-uri" | "jetty-httpuri" => require_java(),
        "fast-uri" | "uri-js" | "url-parse" => require_node(),
        "perl-uri" => require("perl", "apt-get install perl liburi-perl"),
        "ruby-addressable" => require("ruby", "apt-get install ruby ruby-addressable"),
        _ => require_python(),
    }
    External::shipped(name, START)
        .unwrap_or_else(|| panic!("{name} is not a shipped adapter"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn one(ext: &mut External, input: &str) -> Outcome<'static> {
    let mut out = ext.run_batch(&[input]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.len(), 1);
    out.remove(0)
}

fn get<'a>(o: &'a Outcome<'static>, c: Component) -> Option<&'a str> {
    assert!(
        o.components.reported().contains(c),
        "{c:?} is not reported: {o:?}"
    );
    o.components.get(c)
}

fn accepted(ext: &mut External, input: &str) -> Outcome<'static> {
    let o = one(ext, input);
    assert_eq!(
        o.verdict,
        Verdict::Accept,
        "{} on {input:?}: {o:?}",
        ext.name()
    );
    o
}

#[test]
fn shipped_names_and_unknown_names() {
    // The names are the shipped rows in the order of their positions
    // (`shipped/order.rs`'s `SHIPPED`): a new adapter is a row in its
    // family's file, not a line here. Each name is unique, a
    // valid external name, and its descriptor is its shipped row's.
    let names = shipped_names();
    assert!(names.len() >= 20, "{names:?}");
    assert_eq!(names.first(), Some(&"python-urllib"), "the first row");
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    for name in &names {
        let id = uridiff::oracle::register_external(name).unwrap();
        assert_eq!(
            id.descriptor().kind,
            uridiff::oracle::Kind::Shipped,
            "{name}"
        );
    }
    for name in [
        "whatwg-url",
        "go-net-url",
        "php-parse-url",
        "ruby-uri",
        "java-uri",
    ] {
        assert!(names.contains(&name), "{name}");
    }
    assert!(External::shipped("no-such-adapter", START).is_none());
}

#[test]
fn python_urllib_answers() {
    let mut py = shipped("python-urllib");
    assert!(
        py.hello().parser.contains("urllib.parse.urlsplit"),
        "{:?}",
        py.hello()
    );

    // A reg_name authority and a doubled '@' (RFC 2396 section 3.2):
    // urlsplit takes the host after the last '@'.
    let o = accepted(&mut py, "http://a_b.example/");
    assert_eq!(get(&o, Component::Host), Some("a_b.example"));
    assert_eq!(get(&o, Component::Authority), Some("a_b.example"));
    let o = accepted(&mut py, "http://a@b@c/");
    assert_eq!(get(&o, Component::Host), Some("c"));
    assert_eq!(get(&o, Component::Userinfo), Some("a@b"));

    // Absent and empty query, fragment, port and authority.
    let o = accepted(&mut py, "http://h/p");
    assert_eq!(get(&o, Component::Query), None);
    assert_eq!(get(&o, Component::Fragment), None);
    assert_eq!(get(&o, Component::Port), None);
    assert_eq!(get(&o, Component::Userinfo), None);
    let o = accepted(&mut py, "http://h/p?#");
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), Some(""));
    let o = accepted(&mut py, "http://h/p#a?b");
    assert_eq!(get(&o, Component::Query), None);
    assert_eq!(get(&o, Component::Fragment), Some("a?b"));
    let o = accepted(&mut py, "http://h:8080/");
    assert_eq!(get(&o, Component::Port), Some("8080"));
    // `.port` is None for an empty port: absent, as an application sees it.
    let o = accepted(&mut py, "http://h:/");
    assert_eq!(get(&o, Component::Port), None);
    assert_eq!(get(&o, Component::Authority), Some("h:"));
    let o = accepted(&mut py, "http:///p");
    assert_eq!(get(&o, Component::Authority), Some(""));
    assert_eq!(get(&o, Component::Host), None);
    let o = accepted(&mut py, "http:/p");
    assert_eq!(get(&o, Component::Authority), None);
    let o = accepted(&mut py, "//h/p");
    assert_eq!(get(&o, Component::Scheme), None);
    assert_eq!(get(&o, Component::Authority), Some("h"));

    // `.hostname` lower-cases; urlsplit lower-cases the scheme.
    let o = accepted(&mut py, "HTTP://EXAMPLE.com/");
    assert_eq!(get(&o, Component::Scheme), Some("http"));
    assert_eq!(get(&o, Component::Host), Some("example.com"));
    assert_eq!(get(&o, Component::Authority), Some("EXAMPLE.com"));

    // `.port` raises: reject, with the message.
    let o = one(&mut py, "http://h:99999/");
    assert_eq!(o.verdict, Verdict::Reject);
    assert!(
        o.message
            .as_deref()
            .unwrap_or_default()
            .contains("out of range"),
        "{o:?}"
    );
    assert_eq!(one(&mut py, "http://h:x/").verdict, Verdict::Reject);

    // IPv6: `.hostname` drops the brackets; the adapter puts them back.
    let o = accepted(&mut py, "http://[::1]:80/");
    assert_eq!(get(&o, Component::Host), Some("[::1]"));
    assert_eq!(get(&o, Component::Port), Some("80"));
    assert_eq!(get(&o, Component::Authority), Some("[::1]:80"));
    assert_eq!(one(&mut py, "http://[::1/").verdict, Verdict::Reject);
    assert_eq!(
        one(&mut py, "http://[example.com]/").verdict,
        Verdict::Reject
    );

    // NUL kept; tab, CR and LF removed; leading C0 and space stripped.
    let o = accepted(&mut py, "http://h/a\0b");
    assert_eq!(get(&o, Component::Path), Some("/a\0b"));
    let o = accepted(&mut py, "http://h/a\nb\tc\r");
    assert_eq!(get(&o, Component::Path), Some("/abc"));
    let o = accepted(&mut py, "\x01 http://h/?q");
    assert_eq!(get(&o, Component::Scheme), Some("http"));
    assert_eq!(get(&o, Component::Query), Some("q"));

    // Non-ASCII, including a character outside the BMP.
    let o = accepted(&mut py, "http://ü.example/ä?ö#😀");
    assert_eq!(get(&o, Component::Host), Some("ü.example"));
    assert_eq!(get(&o, Component::Path), Some("/ä"));
    assert_eq!(get(&o, Component::Query), Some("ö"));
    assert_eq!(get(&o, Component::Fragment), Some("😀"));

    // 100 000 bytes.
    let long = format!("http://h/{}", "a".repeat(100_000 - 9));
    assert_eq!(long.len(), 100_000);
    let o = accepted(&mut py, &long);
    assert_eq!(get(&o, Component::Path).map(str::len), Some(100_000 - 8));

    py.finish().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn java_uri_answers() {
    let mut java = shipped("java-uri");
    assert!(
        java.hello().parser.contains("java.net.URI"),
        "{:?}",
        java.hello()
    );

    // A reg_name authority (RFC 2396 section 3.2): java.net.URI reports no
    // host, as RFC 2396 does.
    let o = accepted(&mut java, "http://a_b.example/");
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Authority), Some("a_b.example"));
    assert_eq!(get(&o, Component::Userinfo), None);
    let o = accepted(&mut java, "http://a@b@c/");
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Authority), Some("a@b@c"));

    // Server-based authority.
    let o = accepted(&mut java, "http://u@Example.COM:8080/p");
    assert_eq!(get(&o, Component::Userinfo), Some("u"));
    assert_eq!(get(&o, Component::Host), Some("Example.COM"));
    assert_eq!(get(&o, Component::Port), Some("8080"));

    // Absent and empty query, fragment and port.
    let o = accepted(&mut java, "http://h/p");
    assert_eq!(get(&o, Component::Query), None);
    assert_eq!(get(&o, Component::Fragment), None);
    assert_eq!(get(&o, Component::Port), None);
    let o = accepted(&mut java, "http://h/p?#");
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), Some(""));
    // getPort() is -1 for `h:`; the port text is read from the authority.
    let o = accepted(&mut java, "http://h:/");
    assert_eq!(get(&o, Component::Port), Some(""));
    let o = accepted(&mut java, "http://h:080/");
    assert_eq!(get(&o, Component::Port), Some("080"));
    // An empty authority before a non-empty path is allowed, and absent.
    let o = accepted(&mut java, "http:///p");
    assert_eq!(get(&o, Component::Authority), None);
    assert_eq!(get(&o, Component::Path), Some("/p"));

    // Opaque: the scheme-specific part is the path, query included.
    let o = accepted(&mut java, "mailto:a@b?subject=x#f");
    assert_eq!(get(&o, Component::Path), Some("a@b?subject=x"));
    assert_eq!(get(&o, Component::Query), None);
    assert_eq!(get(&o, Component::Fragment), Some("f"));

    // IPv6 (RFC 2732): getHost() keeps the brackets.
    let o = accepted(&mut java, "http://[::1]:80/");
    assert_eq!(get(&o, Component::Host), Some("[::1]"));
    assert_eq!(get(&o, Component::Port), Some("80"));
    let o = one(&mut java, "http://[::1/");
    assert_eq!(o.verdict, Verdict::Reject);
    assert!(
        o.message
            .as_deref()
            .unwrap_or_default()
            .contains("at index"),
        "{o:?}"
    );

    // NUL and newline: illegal characters.
    assert_eq!(one(&mut java, "http://h/a\0b").verdict, Verdict::Reject);
    assert_eq!(one(&mut java, "http://h/a\nb").verdict, Verdict::Reject);
    assert_eq!(one(&mut java, " http://h/").verdict, Verdict::Reject);

    // Non-ASCII ("other" characters) in path, query and fragment, raw, with
    // a character outside the BMP (a surrogate pair in Java); a non-ASCII
    // host is no hostname, so the authority is registry-based.
    let o = accepted(&mut java, "http://ü.example/ä?ö#😀");
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Authority), Some("ü.example"));
    assert_eq!(get(&o, Component::Path), Some("/ä"));
    assert_eq!(get(&o, Component::Query), Some("ö"));
    assert_eq!(get(&o, Component::Fragment), Some("😀"));

    // 100 000 bytes.
    let long = format!("http://h/{}", "a".repeat(100_000 - 9));
    let o = accepted(&mut java, &long);
    assert_eq!(get(&o, Component::Path).map(str::len), Some(100_000 - 8));

    java.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// `java.net.URL`: the userinfo ends at the last `@` of the authority and a
/// backslash is no delimiter (MSAL Android PR #3200: getHost() of
/// `https://evil.example.com\\@login.microsoftonline.com/`); an authority
/// with two `@` has an empty host; a scheme with no handler and a relative
/// reference are out of the class's domain.
#[test]
fn java_url_answers() {
    let mut java = shipped("java-url");
    assert!(
        java.hello().parser.contains("java.net.URL"),
        "{:?}",
        java.hello()
    );
    let o = accepted(&mut java, "http://example.com\\@evil.com/");
    assert_eq!(get(&o, Component::Host), Some("evil.com"));
    assert_eq!(get(&o, Component::Userinfo), Some("example.com\\"));
    let o = accepted(
        &mut java,
        "https://evil.example.com\\@login.microsoftonline.com/",
    );
    assert_eq!(get(&o, Component::Host), Some("login.microsoftonline.com"));
    let o = accepted(&mut java, "http://a@b@c/");
    assert_eq!(get(&o, Component::Host), Some(""));
    assert_eq!(get(&o, Component::Authority), Some("a@b@c"));
    assert_eq!(get(&o, Component::Userinfo), None);
    // The scheme is lower-cased; getPort() is -1 for an empty port.
    let o = accepted(&mut java, "HTTP://h:/p?#");
    assert_eq!(get(&o, Component::Scheme), Some("http"));
    assert_eq!(get(&o, Component::Port), None);
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), Some(""));
    for input in ["foo://x/", "/p"] {
        let o = one(&mut java, input);
        assert_eq!(o.verdict, Verdict::OutOfDomain, "{input}: {o:?}");
    }
    // A port that is no number.
    assert_eq!(one(&mut java, "http://h:x/").verdict, Verdict::Reject);
    java.finish().unwrap_or_else(|e| panic!("{e}"));

    let mut java = shipped("java-url");
    let out = java
        .run_queries(&[("../x?y#z", Some("http://h/a/b/c"))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(get(&out[0], Component::Path), Some("/a/x"));
    assert_eq!(get(&out[0], Component::Query), Some("y"));
    java.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Spring's `UriComponentsBuilder.fromUriString` as Debian's 4.3.30 has it:
/// `https://127.0.0.1[@evil.com` (CVE-2024-22243's shape, fixed upstream in
/// 5.3.32 and 6.x, not in 4.3) reads host `127.0.0.1`, the rest a path.
#[test]
fn spring_uri_answers() {
    let mut spring = shipped("spring-uri");
    let hello = spring.hello().parser.clone();
    assert!(hello.contains("UriComponentsBuilder"), "{hello}");
    let o = accepted(&mut spring, "https://127.0.0.1[@evil.com");
    assert_eq!(get(&o, Component::Host), Some("127.0.0.1"));
    assert_eq!(get(&o, Component::Path), Some("[@evil.com"));
    assert_eq!(get(&o, Component::Userinfo), None);
    let o = accepted(&mut spring, "http://example.com\\@evil.com/");
    assert_eq!(get(&o, Component::Host), Some("evil.com"));
    // The host runs on past a second `@`.
    let o = accepted(&mut spring, "http://a@b@c/");
    assert_eq!(get(&o, Component::Userinfo), Some("a"));
    assert_eq!(get(&o, Component::Host), Some("b@c"));
    // No authority accessor.
    assert!(!o.components.reported().contains(Component::Authority));
    // The query comes back from the parameters it was parsed into.
    let o = accepted(&mut spring, "http://h/?a&&b");
    assert_eq!(get(&o, Component::Query), Some("a&b"));
    // Opaque: the scheme-specific part is the path.
    let o = accepted(&mut spring, "mailto:a@b?x#f");
    assert_eq!(get(&o, Component::Path), Some("a@b?x"));
    // A port out of int range, and one that is a template variable.
    assert_eq!(
        one(&mut spring, "http://h:99999999999/").verdict,
        Verdict::Reject
    );
    assert_eq!(one(&mut spring, "http://h:{p}/").verdict, Verdict::Reject);
    spring.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Jetty 9.4's `HttpURI`: the authority runs to the first `/`, past a `#`
/// (CVE-2024-6763: `http://username:password#@hostname:80/` has host
/// `hostname`), and an authority with a second `@` is refused.
#[test]
fn jetty_httpuri_answers() {
    let mut jetty = shipped("jetty-httpuri");
    let hello = jetty.hello().parser.clone();
    assert!(hello.contains("HttpURI"), "{hello}");
    let o = accepted(&mut jetty, "http://username:password#@hostname:80/");
    assert_eq!(get(&o, Component::Userinfo), Some("username:password#"));
    assert_eq!(get(&o, Component::Host), Some("hostname"));
    assert_eq!(get(&o, Component::Port), Some("80"));
    assert_eq!(get(&o, Component::Fragment), None);
    // Without `//`, `username` is a scheme and the rest a path and fragment.
    let o = accepted(&mut jetty, "username:password#@hostname:port");
    assert_eq!(get(&o, Component::Scheme), Some("username"));
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Fragment), Some("@hostname:port"));
    assert_eq!(one(&mut jetty, "http://a@b@c/").verdict, Verdict::Reject);
    // Jetty's refusal of a `%2` before a character beyond U+FFFF quotes one
    // UTF-16 unit of its surrogate pair ("!hex \udb0d"): the adapter writes
    // that unit as U+FFFD, so the answer stays JSON uridiff reads and the
    // process keeps answering (a 10-minute campaign found it).
    let o = one(&mut jetty, "wei%2\u{d34da}/\u{2}lll");
    assert_eq!(o.verdict, Verdict::Reject);
    assert!(!o.is_missing(), "{:?}", o.message);
    assert!(
        o.message.as_deref().is_some_and(|m| m.contains('\u{fffd}')),
        "{:?}",
        o.message
    );
    assert_eq!(one(&mut jetty, "http://h/").verdict, Verdict::Accept);
    // An empty port is 0.
    let o = accepted(&mut jetty, "http://h:/p;x");
    assert_eq!(get(&o, Component::Port), Some("0"));
    assert_eq!(get(&o, Component::Path), Some("/p;x"));
    assert!(!o.components.reported().contains(Component::Authority));
    jetty.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Perl's URI (each answer checked against `perl -MURI -e`): URI->new
/// escapes what RFC 2396 does not allow and refuses nothing; a host is
/// read only from the classes that have one.
#[test]
fn perl_uri_answers() {
    let mut perl = shipped("perl-uri");
    assert!(
        perl.hello().parser.starts_with("Perl URI "),
        "{:?}",
        perl.hello()
    );
    // The authority ends at '/', '?' or '#'; a backslash is escaped into the
    // userinfo, the host is after the last '@'.
    let o = accepted(&mut perl, "http://example.com\\@evil.com/");
    assert_eq!(get(&o, Component::Userinfo), Some("example.com%5C"));
    assert_eq!(get(&o, Component::Host), Some("evil.com"));
    assert_eq!(
        get(&o, Component::Authority),
        Some("example.com%5C@evil.com")
    );
    let o = accepted(&mut perl, "http://a@b@c/");
    assert_eq!(get(&o, Component::Userinfo), Some("a@b"));
    assert_eq!(get(&o, Component::Host), Some("c"));
    // A non-ASCII host is written as its A-label: U+3002 is no dot to it.
    let o = accepted(&mut perl, "http://evil\u{3002}com/");
    assert_eq!(get(&o, Component::Host), Some("xn--evilcom-9o3f"));
    let o = accepted(&mut perl, "https://127.0.0.1[@evil.com");
    assert_eq!(get(&o, Component::Host), Some("evil.com"));
    assert_eq!(get(&o, Component::Userinfo), Some("127.0.0.1%5B"));
    assert_eq!(get(&o, Component::Path), Some(""));
    // ->host takes the brackets off; the adapter puts them back.
    let o = accepted(&mut perl, "http://[::ffff:127.0.0.1]/");
    assert_eq!(get(&o, Component::Host), Some("[::ffff:127.0.0.1]"));
    let o = accepted(&mut perl, "http://0x7f.1/");
    assert_eq!(get(&o, Component::Host), Some("0x7f.1"));
    // The port as written: ->port would say 80 for all three.
    let o = accepted(&mut perl, "http://h/");
    assert_eq!(get(&o, Component::Port), None);
    let o = accepted(&mut perl, "http://h:/");
    assert_eq!(get(&o, Component::Port), Some(""));
    let o = accepted(&mut perl, "http://h:080/p?#");
    assert_eq!(get(&o, Component::Port), Some("080"));
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), Some(""));
    // An unknown scheme's class (URI::_foreign) has an authority, no host;
    // mailto's has neither, and its path is the opaque part, query and all.
    let o = accepted(&mut perl, "foo://h/p");
    assert!(!o.components.reported().contains(Component::Host), "{o:?}");
    assert_eq!(get(&o, Component::Authority), Some("h"));
    let o = accepted(&mut perl, "mailto:a@b?c");
    assert!(
        !o.components.reported().contains(Component::Authority),
        "{o:?}"
    );
    assert_eq!(get(&o, Component::Path), Some("a@b?c"));
    assert_eq!(get(&o, Component::Query), Some("c"));
    // Nothing is refused: a NUL is escaped, surrounding white space removed.
    let o = accepted(&mut perl, " http://h/a\0b ");
    assert_eq!(get(&o, Component::Path), Some("/a%00b"));
    perl.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Addressable (each answer checked against `ruby -raddressable/uri -e`):
/// RFC 3986's Appendix B split, a host it validates, a port it reads as
/// an Integer.
#[test]
fn ruby_addressable_answers() {
    let mut ruby = shipped("ruby-addressable");
    assert!(
        ruby.hello().parser.starts_with("Addressable "),
        "{:?}",
        ruby.hello()
    );
    let o = accepted(&mut ruby, "http://example.com\\@evil.com/");
    assert_eq!(get(&o, Component::Userinfo), Some("example.com\\"));
    assert_eq!(get(&o, Component::Host), Some("evil.com"));
    let o = accepted(&mut ruby, "http://a@b@c/");
    assert_eq!(get(&o, Component::Userinfo), Some("a@b"));
    assert_eq!(get(&o, Component::Host), Some("c"));
    // The host as written (only #normalized_host maps it to an A-label).
    let o = accepted(&mut ruby, "http://evil\u{3002}com/");
    assert_eq!(get(&o, Component::Host), Some("evil\u{3002}com"));
    let o = one(&mut ruby, "https://127.0.0.1[@evil.com");
    assert_eq!(o.verdict, Verdict::Reject);
    assert!(
        o.message
            .as_deref()
            .unwrap_or_default()
            .starts_with("Addressable::URI::InvalidURIError: Invalid character in host"),
        "{o:?}"
    );
    let o = accepted(&mut ruby, "http://[::ffff:127.0.0.1]/");
    assert_eq!(get(&o, Component::Host), Some("[::ffff:127.0.0.1]"));
    let o = accepted(&mut ruby, "http://0x7f.1/");
    assert_eq!(get(&o, Component::Host), Some("0x7f.1"));
    // #port is an Integer: "080" reads 80, an empty port and port 0 none.
    let o = accepted(&mut ruby, "http://h:080/p?#");
    assert_eq!(get(&o, Component::Port), Some("80"));
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), Some(""));
    for input in ["http://h:/", "http://h:0/"] {
        assert_eq!(get(&accepted(&mut ruby, input), Component::Port), None);
    }
    let o = one(&mut ruby, "http://h:x/");
    assert_eq!(o.verdict, Verdict::Reject);
    ruby.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// A batch far bigger than the pipe buffers, both ways, in one call: the
/// writer thread and the reader must not deadlock, and the answers must
/// stay in order.
fn notes<'a>(o: &'a Outcome<'static>) -> Vec<&'a str> {
    o.notes.iter().map(uridiff::oracle::Note::as_str).collect()
}

/// fast-uri and uri-js (RFC 3986 toolboxes, one the other's descendant)
/// on the confusions their `parse` is known for, each answer as the
/// library gives it run directly: fast-uri's `error` is a note on an
/// acceptance, with the host parse returned.
#[test]
fn fast_uri_and_uri_js_answers() {
    for name in ["fast-uri", "uri-js"] {
        let mut ext = shipped(name);
        assert!(
            ext.hello().parser.starts_with(&format!("{name} ")),
            "{:?}",
            ext.hello()
        );
        // The backslash is userinfo: the host is evil.com (fast-uri 4.x
        // sets `error` and still returns it).
        let o = accepted(&mut ext, "http://example.com\\@evil.com/");
        assert_eq!(get(&o, Component::Host), Some("evil.com"), "{name}");
        let backslash = ["error:URI authority must not contain a literal backslash."];
        if name == "fast-uri" {
            assert_eq!(get(&o, Component::Userinfo), Some("example.com\\"));
            assert_eq!(notes(&o), backslash);
        } else {
            assert_eq!(get(&o, Component::Userinfo), Some("example.com%5C"));
            assert!(notes(&o).is_empty(), "{o:?}");
        }
        // The authority ends at the first '@' of the host: the second is
        // percent-encoded into the host.
        let o = accepted(&mut ext, "http://a@b@c/");
        assert_eq!(get(&o, Component::Userinfo), Some("a"), "{name}");
        assert_eq!(get(&o, Component::Host), Some("b%40c"), "{name}");
        // U+3002 is a label separator under IDNA (http's domain host).
        let o = accepted(&mut ext, "http://evil\u{3002}com/");
        assert_eq!(get(&o, Component::Host), Some("evil.com"), "{name}");
        // An IPv6 host gets its brackets back; the port is decimal text.
        let o = accepted(&mut ext, "http://[::1]:8080/p?q#f");
        assert_eq!(get(&o, Component::Host), Some("[::1]"), "{name}");
        assert_eq!(get(&o, Component::Port), Some("8080"), "{name}");
        assert_eq!(get(&o, Component::Query), Some("q"), "{name}");
        assert_eq!(get(&o, Component::Fragment), Some("f"), "{name}");
        // Every URI reference parses: no scheme for a relative one.
        let o = accepted(&mut ext, "//h/p");
        assert_eq!(get(&o, Component::Scheme), None, "{name}");
        assert_eq!(get(&o, Component::Host), Some("h"), "{name}");
        // Absent and empty query and port.
        let o = accepted(&mut ext, "http://h:/p?");
        assert_eq!(get(&o, Component::Port), Some(""), "{name}");
        assert_eq!(get(&o, Component::Query), Some(""), "{name}");
        assert_eq!(get(&o, Component::Fragment), None, "{name}");
        // Pairs: resolve(base, reference), then parse of the result.
        let out = ext
            .run_queries(&[("../g", Some("http://a/b/c/d;p?q"))])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out[0].serialization.as_deref(), Some("http://a/b/g"));
        assert_eq!(out[0].components.get(Component::Path), Some("/b/g"));
        ext.finish().unwrap_or_else(|e| panic!("{e}"));
    }
    // fast-uri's resolve refuses an input whose parse has an `error`.
    let mut fast = shipped("fast-uri");
    let out = fast
        .run_queries(&[("http://example.com\\@evil.com/", Some("http://a/"))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[0].verdict, Verdict::Reject, "{:?}", out[0]);
    fast.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// url-parse (`new Url(input, {})`) on the same confusions, as the
/// library gives them run directly.
#[test]
fn url_parse_answers() {
    let mut ext = shipped("url-parse");
    assert!(
        ext.hello().parser.starts_with("url-parse "),
        "{:?}",
        ext.hello()
    );
    // The backslash ends the authority, as in WHATWG.
    let o = accepted(&mut ext, "http://example.com\\@evil.com/");
    assert_eq!(get(&o, Component::Host), Some("example.com"));
    assert_eq!(get(&o, Component::Path), Some("/@evil.com/"));
    // The last '@' ends the userinfo, whose '@' url-parse percent-encodes.
    let o = accepted(&mut ext, "http://a@b@c/");
    assert_eq!(get(&o, Component::Host), Some("c"));
    assert_eq!(get(&o, Component::Userinfo), Some("a%40b"));
    // No IDNA: U+3002 stays.
    let o = accepted(&mut ext, "http://evil\u{3002}com/");
    assert_eq!(get(&o, Component::Host), Some("evil\u{3002}com"));
    // No protocol against the empty location: no host, the whole input is
    // the path.
    let o = accepted(&mut ext, "//evil.com/x");
    assert_eq!(get(&o, Component::Scheme), None);
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Path), Some("//evil.com/x"));
    // No authority: no host; an empty one: "".
    let o = accepted(&mut ext, "mailto:a@b");
    assert_eq!(get(&o, Component::Host), None);
    assert_eq!(get(&o, Component::Path), Some("a@b"));
    let o = accepted(&mut ext, "file:///etc/passwd");
    assert_eq!(get(&o, Component::Host), Some(""));
    // A lone '?' is an empty query; none is absent.
    let o = accepted(&mut ext, "http://h/p?");
    assert_eq!(get(&o, Component::Query), Some(""));
    assert_eq!(get(&o, Component::Fragment), None);
    // A malformed percent-encoding in the userinfo throws.
    let o = one(&mut ext, "http://u%zz@h/");
    assert_eq!(o.verdict, Verdict::Reject, "{o:?}");
    // Pairs: the README's baseURL argument.
    let out = ext
        .run_queries(&[("//evil.example/x", Some("https://good.example/a"))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[0].components.get(Component::Host), Some("evil.example"));
    assert_eq!(
        out[0].serialization.as_deref(),
        Some("https://evil.example/x")
    );
    ext.finish().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn big_batches_keep_order() {
    let inputs: Vec<String> = (0..20_000)
        .map(|i| format!("http://h{i}.example/{}?{i}", "p".repeat(i % 300)))
        .collect();
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    for name in shipped_names() {
        let mut ext = shipped(name);
        let out = ext.run_batch(&refs).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.len(), refs.len());
        for (i, o) in out.iter().enumerate() {
            let q = i.to_string();
            assert_eq!(
                o.components.get(Component::Query),
                Some(q.as_str()),
                "{name}"
            );
        }
        // A second batch on the same process.
        let out = ext.run_batch(&refs[..10]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.len(), 10);
        ext.finish().unwrap_or_else(|e| panic!("{e}"));
    }
}

// Faults.

fn adapter(script: &str, args: &str) -> String {
    require_python();
    format!(
        "python3 -B {}/tests/adapters/{script} {args}",
        env!("CARGO_MANIFEST_DIR")
    )
    .trim_end()
    .to_owned()
}

fn spawn(name: &str, command: &str, timeout: Duration) -> External {
    External::spawn(name, command, timeout).unwrap_or_else(|e| panic!("{e}"))
}

fn assert_names(e: &ExternalError, name: &str, needles: &[&str]) {
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("external oracle '{name}' (")),
        "{message}"
    );
    for needle in needles {
        assert!(message.contains(needle), "{needle:?} not in: {message}");
    }
    assert_eq!(e.oracle(), name);
}

fn assert_kind(e: &ExternalError, kind: &str) {
    assert_eq!(e.kind(), kind, "{e}");
}

fn assert_stopped(ext: &mut External) {
    let e = ext.run_batch(&["again"]).unwrap_err();
    assert_kind(&e, "stopped");
}

#[test]
fn missing_command() {
    let e = External::spawn("mine", "uridiff-no-such-adapter-7f3a", START).unwrap_err();
    assert_kind(&e, "missing");
    assert_names(
        &e,
        "mine",
        &["uridiff-no-such-adapter-7f3a", "command not found"],
    );
}

#[test]
fn missing_script_file() {
    let command = adapter("no_such_adapter.py", "");
    let e = External::spawn("mine", &command, START).unwrap_err();
    assert_kind(&e, "exited");
    assert!(e.exit_status().is_some_and(|s| !s.success()), "{e}");
    assert!(e.position().is_none(), "{e}");
    assert_names(&e, "mine", &["before its hello line", "no_such_adapter.py"]);
}

/// Protocol v1 has no ids: a batch cut short by an exit is discarded whole,
/// though three answers came before it.
#[test]
fn adapter_that_exits() {
    let mut ext = spawn("exits", &adapter("exit_after.py", "3 1"), START);
    let e = ext
        .run_batch(&["in0", "in1", "in2", "in3", "in4"])
        .unwrap_err();
    assert_kind(&e, "exited");
    assert_eq!(e.exit_status().and_then(|s| s.code()), Some(1));
    let at = e.position().unwrap();
    assert_eq!((at.index, at.discarded), (3, true));
    assert!(e.answered().is_empty());
    assert_names(
        &e,
        "exits",
        &[
            "exit_after.py",
            "\"in3\"",
            "input 4 of a batch of 5",
            "discarded",
            "boom",
        ],
    );
    assert_stopped(&mut ext);
}

#[test]
fn adapter_that_exits_between_batches() {
    let mut ext = spawn("exits", &adapter("exit_after.py", "0 0"), START);
    let e = ext.run_batch(&["first"]).unwrap_err();
    assert_kind(&e, "exited");
    assert_names(&e, "exits", &["\"first\"", "batch of 1 starting there"]);
}

#[test]
fn adapter_that_hangs() {
    let mut ext = spawn("hangs", &adapter("hang.py", ""), START);
    ext.set_timeout(Duration::from_secs(2));
    let e = ext.run_batch(&["a", "b", "please hang", "c"]).unwrap_err();
    assert_kind(&e, "timeout");
    assert!(e.answered().is_empty(), "v1: the batch is discarded");
    assert_names(
        &e,
        "hangs",
        &[
            "no answer within 2 s",
            "\"please hang\"",
            "input 3 of a batch of 4",
        ],
    );
    assert_stopped(&mut ext);
}

#[test]
fn adapter_that_prints_non_json() {
    let mut ext = spawn("garbled", &adapter("not_json.py", ""), START);
    let e = ext.run_batch(&["ok", "bad", "ok too"]).unwrap_err();
    assert_kind(&e, "not-json");
    assert!(e.answered().is_empty(), "v1: the batch is discarded");
    assert_names(
        &e,
        "garbled",
        &["\"bad\"", "this is not json", "not a protocol v1 object"],
    );
    assert_stopped(&mut ext);
}

#[test]
fn adapter_that_prints_two_lines_for_one_input() {
    let mut ext = spawn("chatty", &adapter("double.py", ""), START);
    let e = ext.run_batch(&["a", "twice", "b"]).unwrap_err();
    assert_kind(&e, "wrong-count");
    assert!(e.answered().is_empty());
    assert_names(
        &e,
        "chatty",
        &[
            "4 answer lines for a batch of 3 inputs",
            "starting with input \"a\"",
            "discarded",
        ],
    );
    assert_stopped(&mut ext);
}

#[test]
fn surplus_noticed_at_finish() {
    // The surplus answer comes after the batch's last answer was read, in a
    // write of its own: the batch cannot see it, `finish` does.
    let mut ext = spawn("chatty", &adapter("double.py", "late"), START);
    let out = ext.run_batch(&["twice"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.len(), 1);
    let e = ext.finish().unwrap_err();
    assert_kind(&e, "wrong-count");
    assert_names(
        &e,
        "chatty",
        &[
            "2 answer lines for a batch of 1 inputs",
            "\"twice\"",
            "misaligned",
        ],
    );
}

#[test]
fn adapter_that_prints_too_few_lines() {
    let mut ext = spawn("quiet", &adapter("too_few.py", ""), START);
    ext.set_timeout(Duration::from_secs(2));
    let e = ext.run_batch(&["a", "skip", "b"]).unwrap_err();
    assert_kind(&e, "timeout");
    assert!(e.answered().is_empty(), "v1: the batch is discarded");
    // Two answers arrived, so the third input is the first without one.
    assert_names(&e, "quiet", &["\"b\"", "the first 2 answered"]);
}

#[test]
fn bad_hello_lines() {
    for (mode, needle) in [
        ("text", "not JSON"),
        ("v3", "protocol version 3"),
        ("no-version", "no \"uridiff_protocol\" key"),
    ] {
        let e = External::spawn("hello", &adapter("bad_hello.py", mode), START).unwrap_err();
        assert_kind(&e, "bad-hello");
        assert_names(&e, "hello", &[needle, "bad_hello.py"]);
    }
    let e = External::spawn(
        "hello",
        &adapter("bad_hello.py", "silent"),
        Duration::from_secs(2),
    )
    .unwrap_err();
    assert_kind(&e, "timeout");
    assert!(e.position().is_none());
    assert_names(&e, "hello", &["no hello line within 2 s"]);
}

#[test]
fn a_shell_command_line_works() {
    require_python();
    let command = format!(
        "cd {}/tests/adapters && python3 -B double.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut ext = spawn("shell", &command, START);
    let out = ext.run_batch(&["x", "y"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[1].components.get(Component::Path), Some("y"));
    assert_eq!(out[0].components.reported().iter().count(), 2);
    ext.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Error texts keep the whole input: a reader may shorten them for
/// display, the error does not.
#[test]
fn error_texts_keep_long_inputs_whole() {
    let long = format!("http://h/{}", "x".repeat(5000));
    let mut ext = spawn("exits", &adapter("exit_after.py", "0 1"), START);
    let e = ext.run_batch(&[&long]).unwrap_err();
    assert_names(&e, "exits", &[&format!("{long:?}")]);
}

// Protocol v2.

#[test]
fn v2_resolves_and_keeps_ids_across_batches() {
    let mut ext = spawn("two", &adapter("v2.py", "ok"), START);
    assert_eq!(ext.hello().protocol, 2);
    let out = ext
        .run_queries(&[("a", None), ("g", Some("http://b/")), ("c", None)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[0].components.get(Component::Path), Some("a"));
    assert_eq!(out[1].components.get(Component::Path), Some("http://b/|g"));
    assert_eq!(out[1].serialization.as_deref(), Some("http://b/g"));
    assert_eq!(
        out[1].notes,
        [uridiff::oracle::Note::Adapter("test-resolved".into())]
    );
    assert_eq!(out[2].components.get(Component::Path), Some("c"));
    // Ids go on from 4: the adapter echoes them, and a mismatch would fail.
    let out = ext
        .run_queries(&[("d", None), ("e\0\n", Some("x:"))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[1].components.get(Component::Path), Some("x:|e\0\n"));
    ext.finish().unwrap_or_else(|e| panic!("{e}"));
}

/// Each way of answering out of step gives a `wrong-id` error that names
/// the id expected and the id got, and keeps exactly the answers whose
/// ids matched.
#[test]
fn v2_answers_out_of_step_are_never_kept() {
    for (mode, expected, got, kept) in [
        ("drop", "id 2", "id 3", 1),
        ("swap", "id 2", "id 3", 1),
        ("repeat", "id 3", "id 2", 2),
        ("invent", "id 2", "id 1002", 1),
        ("no-id", "id 2", "without an id", 1),
    ] {
        let mut ext = spawn(mode, &adapter("v2.py", mode), START);
        let e = ext
            .run_queries(&[("a", None), (mode, None), ("b", None)])
            .unwrap_err();
        assert_kind(&e, "wrong-id");
        assert_names(
            &e,
            mode,
            &[&format!("expected the answer with {expected}"), got],
        );
        assert_eq!(e.answered().len(), kept, "{mode}: {e}");
        assert_eq!(
            e.answered()[0].components.get(Component::Path),
            Some("a"),
            "{mode}"
        );
        assert_stopped(&mut ext);
    }
}

#[test]
fn v2_surplus_answers_are_faults() {
    // Behind the last answer of the batch: the batch's answers matched.
    let mut ext = spawn("repeat", &adapter("v2.py", "repeat"), START);
    let e = ext
        .run_queries(&[("a", None), ("repeat", None)])
        .unwrap_err();
    assert_kind(&e, "wrong-id");
    assert_eq!(e.answered().len(), 2);
    assert_names(&e, "repeat", &["expected no more answers", "id 2"]);

    // After the batch was returned: seen at the end.
    let mut ext = spawn("late", &adapter("v2.py", "late"), START);
    let out = ext
        .run_queries(&[("late", None)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.len(), 1);
    let e = ext.finish().unwrap_err();
    assert_kind(&e, "wrong-id");
    assert_names(&e, "late", &["expected no more answers", "id 999"]);
}

#[test]
fn v1_gets_no_base() {
    let mut ext = spawn("one", &adapter("double.py", ""), START);
    let out = ext
        .run_queries(&[("a", Some("http://b/")), ("c", None)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out[0].is_missing());
    assert_eq!(out[0].message.as_deref(), Some(V1_NO_BASE));
    assert_eq!(out[1].components.get(Component::Path), Some("c"));
    ext.finish().unwrap_or_else(|e| panic!("{e}"));
}

// Line lengths, the end of a run, process groups.

#[test]
fn lines_without_a_newline_are_cut_off() {
    let e = External::spawn("flood", &adapter("flood.py", "hello"), START).unwrap_err();
    assert_kind(&e, "line-too-long");
    assert_names(&e, "flood", &["longer than 65536 bytes", "hello line"]);

    let mut ext = spawn("flood", &adapter("flood.py", "answer"), START);
    let e = ext.run_batch(&["a"]).unwrap_err();
    assert_kind(&e, "line-too-long");
    let limit = uridiff::oracle::external::ANSWER_LINE_BASE
        + uridiff::oracle::external::ANSWER_LINE_PER_BYTE;
    assert_names(
        &e,
        "flood",
        &[
            &format!("longer than {limit} bytes"),
            "in answer to input \"a\"",
        ],
    );
    assert_stopped(&mut ext);
}

#[test]
fn an_adapter_that_does_not_exit_at_the_end() {
    let mut ext = spawn("stays", &adapter("no_exit.py", ""), START);
    ext.run_batch(&["a"]).unwrap_or_else(|e| panic!("{e}"));
    ext.set_timeout(Duration::from_secs(1));
    let e = ext.finish().unwrap_err();
    assert_kind(&e, "no-exit");
    assert_names(
        &e,
        "stays",
        &["answered every input but did not exit within 1 s"],
    );
    assert!(!e.to_string().contains("hello"), "{e}");
}

#[test]
fn an_adapter_that_fails_after_its_last_answer() {
    let mut ext = spawn("seven", &adapter("exit_at_end.py", "7"), START);
    ext.run_batch(&["a", "b"]).unwrap_or_else(|e| panic!("{e}"));
    let e = ext.finish().unwrap_err();
    assert_kind(&e, "failed-at-end");
    assert_names(
        &e,
        "seven",
        &[
            "exited with status 7 after its last answer",
            "exiting with 7 at the end",
        ],
    );
    assert!(!e.to_string().contains("hello"), "{e}");
}

/// Is the process gone (or a zombie nobody reaped yet)? Polled: a killed
/// process takes a moment to die.
fn gone(pid: u32) -> bool {
    for _ in 0..500 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) => {
                let state = stat.rsplit_once(") ").map(|(_, rest)| &rest[..1]);
                if state == Some("Z") || state == Some("X") {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

fn read_pids(path: &Path) -> Vec<u32> {
    for _ in 0..6000 {
        if let Ok(text) = std::fs::read_to_string(path) {
            return text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{} never appeared", path.display());
}

#[test]
fn the_whole_process_group_ends_with_the_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let mut ext = spawn(
        "group",
        &adapter("group.py", pidfile.to_str().unwrap()),
        START,
    );
    ext.run_batch(&["a"]).unwrap_or_else(|e| panic!("{e}"));
    let pids = read_pids(&pidfile);
    assert_eq!(pids.len(), 2);
    assert!(
        Path::new(&format!("/proc/{}", pids[1])).exists(),
        "the child died early"
    );
    drop(ext);
    for pid in pids {
        assert!(gone(pid), "{pid} outlived its oracle");
    }
}

// A set of external oracles.

fn command(name: &str, script: &str, args: &str) -> Spec {
    Spec::Command {
        name: name.to_owned(),
        command: adapter(script, args),
    }
}

#[test]
fn externals_run_queries_and_keep_what_a_fault_leaves() {
    let specs = [
        command("set-one", "double.py", ""),
        command("set-two", "v2.py", "drop"),
    ];
    let mut set = Externals::start(&specs, START).unwrap();
    let ids = set.ids();
    assert_eq!(
        ids.iter().map(|i| i.as_str()).collect::<Vec<_>>(),
        ["set-one", "set-two"]
    );
    let out = set.run(&[
        ("a", None),
        ("g", Some("http://b/")),
        ("drop", None),
        ("c", None),
    ]);
    assert_eq!(out.len(), 4);
    let get = |q: usize, o: usize| -> &Outcome<'static> {
        let (id, outcome) = &out[q][o];
        assert_eq!(*id, ids[o]);
        outcome
    };
    // v1: the plain inputs answered, the pair missing.
    assert_eq!(get(0, 0).components.get(Component::Path), Some("a"));
    assert_eq!(get(1, 0).message.as_deref(), Some(V1_NO_BASE));
    assert_eq!(get(3, 0).components.get(Component::Path), Some("c"));
    // v2: the answers before the dropped one kept, the rest missing.
    assert_eq!(get(0, 1).components.get(Component::Path), Some("a"));
    assert_eq!(
        get(1, 1).components.get(Component::Path),
        Some("http://b/|g")
    );
    assert!(get(2, 1).is_missing());
    assert!(get(3, 1).is_missing());
    assert_eq!(set.errors().len(), 1);
    // Later batches: missing for the failed oracle only.
    let out = set.run(&[("d", None)]);
    assert_eq!(out[0][0].1.components.get(Component::Path), Some("d"));
    assert!(out[0][1].1.is_missing());
    let errors = set.finish();
    assert_eq!(errors.len(), 1);
    assert_kind(&errors[0], "wrong-id");
    assert_eq!(errors[0].oracle(), "set-two");
}

/// Every name is checked before anything starts: the good first oracle's
/// command would leave a file behind if it ran.
#[test]
fn bad_names_are_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let first = Spec::Command {
        name: "fine".to_owned(),
        command: format!("touch {}", marker.display()),
    };
    let long = "n".repeat(31);
    for (bad, needle) in [
        (Spec::Shipped(String::new()), "empty"),
        (command("a b", "double.py", ""), "\"a b\""),
        (command("a/b", "double.py", ""), "\"a/b\""),
        (command("é", "double.py", ""), "\"é\""),
        (command("url", "double.py", ""), "'url' is a built-in"),
        (command("fine", "double.py", ""), "'fine' is given twice"),
        (command(&long, "double.py", ""), "at most 30 bytes"),
        (
            Spec::Shipped("lua-uri".to_owned()),
            "unknown oracle 'lua-uri'",
        ),
    ] {
        let e = Externals::start(&[first.clone(), bad.clone()], START).unwrap_err();
        assert!(e.to_string().contains(needle), "{needle:?} not in: {e}");
        assert_eq!(e.name(), bad.name());
    }
    assert!(
        Spec::parse_command("no-equals-sign").is_err() && Spec::parse_command("name=  ").is_err()
    );
    assert!(!marker.exists(), "an oracle was started");
}
