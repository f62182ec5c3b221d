//! The wrapper against RFC 3986's own examples.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;

/// The components of `input` as text, `-` for an absent one:
/// scheme, userinfo, host, port, path, query, fragment.
fn parts(input: &str) -> [String; 7] {
    let r = UriRef::parse(input.as_bytes()).unwrap();
    let show = |part: Option<&[u8]>| match part {
        None => "-".to_owned(),
        Some(bytes) => String::from_utf8(bytes.to_vec()).unwrap(),
    };
    [
        show(r.scheme()),
        show(r.userinfo()),
        show(r.host()),
        show(r.port()),
        String::from_utf8(r.path().into_owned()).unwrap(),
        show(r.query()),
        show(r.fragment()),
    ]
}

#[test]
fn parses_the_examples_of_rfc3986() {
    // Section 3's figure.
    assert_eq!(
        parts("foo://example.com:8042/over/there?name=ferret#nose"),
        [
            "foo",
            "-",
            "example.com",
            "8042",
            "/over/there",
            "name=ferret",
            "nose"
        ]
    );
    // Section 1.1.2.
    assert_eq!(
        parts("ldap://[2001:db8::7]/c=GB?objectClass?one"),
        [
            "ldap",
            "-",
            "[2001:db8::7]",
            "-",
            "/c=GB",
            "objectClass?one",
            "-"
        ]
    );
    assert_eq!(
        parts("mailto:John.Doe@example.com"),
        ["mailto", "-", "-", "-", "John.Doe@example.com", "-", "-"]
    );
    assert_eq!(
        parts("telnet://192.0.2.16:80/"),
        ["telnet", "-", "192.0.2.16", "80", "/", "-", "-"]
    );
    assert_eq!(
        parts("urn:oasis:names:specification:docbook:dtd:xml:4.1.2"),
        [
            "urn",
            "-",
            "-",
            "-",
            "oasis:names:specification:docbook:dtd:xml:4.1.2",
            "-",
            "-"
        ]
    );
    // Section 3.2.1 (userinfo) and 3.2.3 (an empty port is allowed).
    assert_eq!(
        parts("ftp://user:pass@h:/?#"),
        ["ftp", "user:pass", "h", "", "/", "", ""]
    );
}

#[test]
fn tells_empty_components_from_absent_ones() {
    // Section 3.3: every reference has a path, possibly empty; an authority
    // may have an empty host (section 3.2.2).
    assert_eq!(parts(""), ["-", "-", "-", "-", "", "-", "-"]);
    assert_eq!(parts("file:///x"), ["file", "-", "", "-", "/x", "-", "-"]);
    assert_eq!(parts("//"), ["-", "-", "", "-", "", "-", "-"]);
    assert_eq!(parts("///"), ["-", "-", "", "-", "/", "-", "-"]);
    assert_eq!(parts("/"), ["-", "-", "-", "-", "/", "-", "-"]);
    assert_eq!(parts("x:/"), ["x", "-", "-", "-", "/", "-", "-"]);
    assert_eq!(parts("a/"), ["-", "-", "-", "-", "a/", "-", "-"]);
    assert_eq!(parts("http://h"), ["http", "-", "h", "-", "", "-", "-"]);
    assert_eq!(parts("http://h//"), ["http", "-", "h", "-", "//", "-", "-"]);
    assert_eq!(parts("?y"), ["-", "-", "-", "-", "", "y", "-"]);
    assert_eq!(parts("#s"), ["-", "-", "-", "-", "", "-", "s"]);
}

#[test]
fn reads_the_authority_from_the_input() {
    let authority = |input: &str| {
        UriRef::parse(input.as_bytes())
            .unwrap()
            .authority()
            .map(|a| String::from_utf8(a.to_vec()).unwrap())
    };
    assert_eq!(
        authority("http://u@[::1]:80/p").as_deref(),
        Some("u@[::1]:80")
    );
    assert_eq!(authority("http://h/p").as_deref(), Some("h"));
    assert_eq!(authority("//u@/p").as_deref(), Some("u@"));
    assert_eq!(authority("//:8").as_deref(), Some(":8"));
    assert_eq!(authority("///p").as_deref(), Some(""));
    assert_eq!(authority("//?q").as_deref(), Some(""));
    assert_eq!(authority("f://[v1.x]").as_deref(), Some("[v1.x]"));
    assert_eq!(authority("f:/p"), None);
    assert_eq!(authority("p"), None);
}

#[test]
fn reads_the_path_as_segments_and_the_absolute_flag() {
    let r = UriRef::parse(b"/a//b/").unwrap();
    assert!(r.absolute_path());
    let segments: Vec<&[u8]> = r.segments().collect();
    assert_eq!(segments, [&b"a"[..], b"", b"b", b""]);
    assert!(matches!(r.path(), Cow::Borrowed(b"/a//b/")));
    // With a host the flag is never set (Uri.h); the `/` comes from the
    // host and the segments.
    let r = UriRef::parse(b"http://h/a").unwrap();
    assert!(!r.absolute_path());
    assert!(matches!(r.path(), Cow::Borrowed(b"/a")));
}

#[test]
fn tells_the_kinds_of_host() {
    // Section 3.2.2: IP-literal (IPv6 or IPvFuture), IPv4address, reg-name;
    // `1.2.3.999` is no IPv4address (dec-octet), so a reg-name.
    let kind = |input: &str| UriRef::parse(input.as_bytes()).unwrap().host_kind();
    assert_eq!(kind("h://[::1]/"), Some(HostKind::Ipv6));
    assert_eq!(kind("h://[v7.x]/"), Some(HostKind::IpFuture));
    assert_eq!(kind("h://1.2.3.4/"), Some(HostKind::Ipv4));
    assert_eq!(kind("h://1.2.3.999/"), Some(HostKind::RegName));
    assert_eq!(kind("h:///"), Some(HostKind::RegName));
    assert_eq!(kind("h:/p"), None);
    let r = UriRef::parse(b"h://[v7.x]:1/").unwrap();
    assert_eq!(r.host(), Some(&b"[v7.x]"[..]));
    assert_eq!(r.host_text(), Some(&b"v7.x"[..]));
}

#[test]
fn refuses_what_rfc3986_forbids_with_the_offending_byte() {
    assert_eq!(UriRef::parse(b"%zz"), Err(Error::Syntax { at: 1 }));
    assert_eq!(
        UriRef::parse(b"http://h/a b"),
        Err(Error::Syntax { at: 10 })
    );
    // A NUL byte or a non-UTF-8 byte is parsed, not a string's end.
    assert_eq!(UriRef::parse(b"http://h/\0x"), Err(Error::Syntax { at: 9 }));
    assert_eq!(UriRef::parse(b"a\xff"), Err(Error::Syntax { at: 1 }));
    // Section 3.2.2: an IP literal is IPv6address or IPvFuture; uriparser
    // 0.9.7 has no RFC 6874 zone IDs.
    assert!(matches!(
        UriRef::parse(b"http://[::1%25eth0]/"),
        Err(Error::Syntax { .. })
    ));
    assert!(UriRef::parse(b"http://[::1:]/").is_err());
}

#[test]
fn recomposes_as_section_5_3_with_ip_addresses_rewritten() {
    assert_eq!(recompose(b"a:b?c#d").unwrap(), b"a:b?c#d");
    assert_eq!(recompose(b"").unwrap(), b"");
    // The IPv6 address is written from its 16 bytes, not from the input.
    assert_eq!(
        recompose(b"http://[::1]/").unwrap(),
        b"http://[0000:0000:0000:0000:0000:0000:0000:0001]/"
    );
}

/// Section 5.4's base.
const BASE: &[u8] = b"http://a/b/c/d;p?q";

fn resolved(reference: &str) -> String {
    String::from_utf8(resolve(BASE, reference.as_bytes()).unwrap()).unwrap()
}

#[test]
fn resolves_the_normal_examples_of_section_5_4_1() {
    let table = [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ];
    for (reference, expected) in table {
        assert_eq!(resolved(reference), expected, "{reference:?}");
    }
}

#[test]
fn resolves_the_abnormal_examples_of_section_5_4_2() {
    let table = [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        // The strict parser's reading (section 5.2.2, not the backward
        // compatible one that drops a scheme equal to the base's).
        ("http:g", "http:g"),
    ];
    for (reference, expected) in table {
        assert_eq!(resolved(reference), expected, "{reference:?}");
    }
}

#[test]
fn says_which_input_of_a_resolution_failed() {
    assert_eq!(
        resolve(b"http://a/ b", b"g"),
        Err(ResolveError::Base(Error::Syntax { at: 9 }))
    );
    assert_eq!(
        resolve(BASE, b"g h"),
        Err(ResolveError::Reference(Error::Syntax { at: 1 }))
    );
    // Section 5.1: the base must be an absolute URI.
    assert_eq!(
        resolve(b"/a/b", b"g"),
        Err(ResolveError::Resolution(Error::BaseNotAbsolute))
    );
}

#[test]
fn reports_the_version_it_was_built_against() {
    // build.rs asks pkg-config for at least 0.9.0.
    let numbers: Vec<u32> = VERSION.split('.').map(|n| n.parse().unwrap()).collect();
    assert!(numbers.len() >= 2, "{VERSION}");
    assert!(numbers[..2] >= [0, 9][..], "{VERSION}");
}
