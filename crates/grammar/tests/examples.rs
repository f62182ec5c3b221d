//! The RFCs' own examples, read by their own grammars.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::ops::Range;

use grammar::rfc2396::{self, AuthorityKind, Form, Rfc2396};
use grammar::rfc3986::{self, HostKind, PathKind, Rfc3986};

/// The text of a component.
fn text<'a>(input: &'a str, r: &Option<Range<usize>>) -> Option<&'a str> {
    r.as_ref().map(|r| &input[r.clone()])
}

/// RFC 3986 components as text: scheme, authority, userinfo, host, port,
/// path, query, fragment.
type Parts3986<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
);

fn rfc3986_parts(input: &str) -> (Parts3986<'_>, rfc3986::Components) {
    let rfc = Rfc3986::get().unwrap();
    let outcome = rfc.parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let c = outcome
        .unique()
        .unwrap_or_else(|| panic!("{input}: {} readings", outcome.readings().len()))
        .clone();
    (
        (
            text(input, &c.scheme),
            text(input, &c.authority),
            text(input, &c.userinfo),
            text(input, &c.host),
            text(input, &c.port),
            &input[c.path.clone()],
            text(input, &c.query),
            text(input, &c.fragment),
        ),
        c,
    )
}

/// RFC 3986 section 1.1.2, "Examples", and section 3's two examples.
#[test]
fn rfc3986_section_1_1_2_and_3_examples() {
    let table: [(&str, Parts3986<'_>, HostKind, PathKind); 10] = [
        (
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            (
                Some("ftp"),
                Some("ftp.is.co.za"),
                None,
                Some("ftp.is.co.za"),
                None,
                "/rfc/rfc1808.txt",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Abempty,
        ),
        (
            "http://www.ietf.org/rfc/rfc2396.txt",
            (
                Some("http"),
                Some("www.ietf.org"),
                None,
                Some("www.ietf.org"),
                None,
                "/rfc/rfc2396.txt",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Abempty,
        ),
        (
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            (
                Some("ldap"),
                Some("[2001:db8::7]"),
                None,
                Some("[2001:db8::7]"),
                None,
                "/c=GB",
                Some("objectClass?one"),
                None,
            ),
            HostKind::IpLiteral,
            PathKind::Abempty,
        ),
        (
            "mailto:John.Doe@example.com",
            (
                Some("mailto"),
                None,
                None,
                None,
                None,
                "John.Doe@example.com",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Rootless,
        ),
        (
            "news:comp.infosystems.www.servers.unix",
            (
                Some("news"),
                None,
                None,
                None,
                None,
                "comp.infosystems.www.servers.unix",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Rootless,
        ),
        (
            "tel:+1-816-555-1212",
            (
                Some("tel"),
                None,
                None,
                None,
                None,
                "+1-816-555-1212",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Rootless,
        ),
        (
            "telnet://192.0.2.16:80/",
            (
                Some("telnet"),
                Some("192.0.2.16:80"),
                None,
                Some("192.0.2.16"),
                Some("80"),
                "/",
                None,
                None,
            ),
            HostKind::Ipv4,
            PathKind::Abempty,
        ),
        (
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            (
                Some("urn"),
                None,
                None,
                None,
                None,
                "oasis:names:specification:docbook:dtd:xml:4.1.2",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Rootless,
        ),
        // Section 3.
        (
            "foo://example.com:8042/over/there?name=ferret#nose",
            (
                Some("foo"),
                Some("example.com:8042"),
                None,
                Some("example.com"),
                Some("8042"),
                "/over/there",
                Some("name=ferret"),
                Some("nose"),
            ),
            HostKind::RegName,
            PathKind::Abempty,
        ),
        (
            "urn:example:animal:ferret:nose",
            (
                Some("urn"),
                None,
                None,
                None,
                None,
                "example:animal:ferret:nose",
                None,
                None,
            ),
            HostKind::RegName,
            PathKind::Rootless,
        ),
    ];
    for (input, want, host_kind, path_kind) in table {
        let (got, c) = rfc3986_parts(input);
        assert_eq!(got, want, "{input}");
        if c.host.is_some() {
            assert_eq!(c.host_kind, Some(host_kind), "{input}");
        }
        assert_eq!(c.path_kind, path_kind, "{input}");
    }
}

/// Section 3.2.2's own sentence settles IPv4address against reg-name, and
/// only where both match.
#[test]
fn rfc3986_ipv4_against_reg_name_is_settled_by_section_3_2_2() {
    let rfc = Rfc3986::get().unwrap();
    let o = rfc.parse("telnet://192.0.2.16:80/").unwrap();
    assert_eq!(o.readings().len(), 2);
    assert_eq!(o.settled_by(), [&rfc3986::IPV4_FIRST_MATCH]);
    assert_eq!(o.unique().unwrap().host_kind, Some(HostKind::Ipv4));
    // 256 is no dec-octet: only reg-name matches, nothing to settle.
    let o = rfc.parse("http://192.0.2.256/").unwrap();
    assert_eq!(o.readings().len(), 1);
    assert!(o.settled_by().is_empty());
    assert_eq!(o.unique().unwrap().host_kind, Some(HostKind::RegName));
}

/// Every reference of section 5.4 is a URI-reference, with one reading, and
/// the relative forms take the path rules section 4.2 names.
#[test]
fn rfc3986_section_5_4_references_are_uri_references() {
    let refs = [
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "?y",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        "",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../",
        "../../g",
        "../../../g",
        "../../../../g",
        "/./g",
        "/../g",
        "g.",
        ".g",
        "g..",
        "..g",
        "./../g",
        "./g/.",
        "g/./h",
        "g/../h",
        "g;x=1/./y",
        "g;x=1/../y",
        "g?y/./x",
        "g?y/../x",
        "g#s/./x",
        "g#s/../x",
        "http:g",
        "http://a/b/c/d;p?q",
    ];
    for r in refs {
        let (parts, c) = rfc3986_parts(r);
        let path = parts.5;
        let want = if c.scheme.is_some() {
            c.path_kind
        } else if c.authority.is_some() {
            PathKind::Abempty
        } else if path.starts_with('/') {
            PathKind::Absolute
        } else if path.is_empty() {
            PathKind::Empty
        } else {
            PathKind::Noscheme
        };
        assert_eq!(c.path_kind, want, "{r}");
    }
}

#[test]
fn rfc3986_grammar_refuses_what_appendix_a_cannot_derive() {
    let rfc = Rfc3986::get().unwrap();
    // (input, the first byte no reading can take)
    for (input, at) in [
        ("http://a b/", 8),
        ("http://[::1/", 11),
        ("a:b#c#d", 5),
        ("%zz", 1),
        ("1a:b", 2),
        // "h:8a" may still be a userinfo until the "/" says it is not.
        ("http://h:8a/", 11),
        ("http://u@h@i/", 10),
        ("\u{e9}", 0),
    ] {
        let e = rfc.parse(input).unwrap_err();
        assert_eq!(e.index(), Some(at), "{input}: {e}");
    }
    for input in [
        "http://[v1.x]/",
        "http://[::ffff:1.2.3.4]/",
        "http:",
        "?y",
        "//",
        "a:/",
    ] {
        assert!(rfc.parse(input).is_ok(), "{input}");
    }
}

/// RFC 2396 components as text: scheme, authority, userinfo, host, port,
/// path, query, fragment.
type Parts2396<'a> = Parts3986<'a>;

fn rfc2396_readings(input: &str) -> Vec<(Parts2396<'_>, rfc2396::Components)> {
    let rfc = Rfc2396::get().unwrap();
    let outcome = rfc.parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    outcome
        .components()
        .map(|c| {
            (
                (
                    text(input, &c.scheme),
                    text(input, &c.authority),
                    text(input, &c.userinfo),
                    text(input, &c.host),
                    text(input, &c.port),
                    &input[c.path.clone()],
                    text(input, &c.query),
                    text(input, &c.fragment),
                ),
                c.clone(),
            )
        })
        .collect()
}

/// The reading with a server authority (or the only one).
fn rfc2396_server_reading(input: &str) -> (Parts2396<'_>, rfc2396::Components) {
    let all = rfc2396_readings(input);
    let n = all.len();
    all.into_iter()
        .find(|(_, c)| n == 1 || c.authority_kind == Some(AuthorityKind::Server))
        .unwrap()
}

/// RFC 2396 section 1.3, "Example URI", and the example of Appendix B.
#[test]
fn rfc2396_section_1_3_and_appendix_b_examples() {
    let table: [(&str, Parts2396<'_>, Form); 7] = [
        (
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            (
                Some("ftp"),
                Some("ftp.is.co.za"),
                None,
                Some("ftp.is.co.za"),
                None,
                "/rfc/rfc1808.txt",
                None,
                None,
            ),
            Form::AbsoluteHierarchical,
        ),
        (
            "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
            (
                Some("gopher"),
                Some("spinaltap.micro.umn.edu"),
                None,
                Some("spinaltap.micro.umn.edu"),
                None,
                "/00/Weather/California/Los%20Angeles",
                None,
                None,
            ),
            Form::AbsoluteHierarchical,
        ),
        (
            "http://www.math.uio.no/faq/compression-faq/part1.html",
            (
                Some("http"),
                Some("www.math.uio.no"),
                None,
                Some("www.math.uio.no"),
                None,
                "/faq/compression-faq/part1.html",
                None,
                None,
            ),
            Form::AbsoluteHierarchical,
        ),
        (
            "mailto:mduerst@ifi.unizh.ch",
            (
                Some("mailto"),
                None,
                None,
                None,
                None,
                "mduerst@ifi.unizh.ch",
                None,
                None,
            ),
            Form::AbsoluteOpaque,
        ),
        (
            "news:comp.infosystems.www.servers.unix",
            (
                Some("news"),
                None,
                None,
                None,
                None,
                "comp.infosystems.www.servers.unix",
                None,
                None,
            ),
            Form::AbsoluteOpaque,
        ),
        (
            "telnet://melvyl.ucop.edu/",
            (
                Some("telnet"),
                Some("melvyl.ucop.edu"),
                None,
                Some("melvyl.ucop.edu"),
                None,
                "/",
                None,
                None,
            ),
            Form::AbsoluteHierarchical,
        ),
        // Appendix B: $2 = http, $4 = www.ics.uci.edu, $5 = /pub/ietf/uri/,
        // $7 undefined, $9 = Related.
        (
            "http://www.ics.uci.edu/pub/ietf/uri/#Related",
            (
                Some("http"),
                Some("www.ics.uci.edu"),
                None,
                Some("www.ics.uci.edu"),
                None,
                "/pub/ietf/uri/",
                None,
                Some("Related"),
            ),
            Form::AbsoluteHierarchical,
        ),
    ];
    for (input, want, form) in table {
        let (got, c) = rfc2396_server_reading(input);
        assert_eq!(got, want, "{input}");
        assert_eq!(c.form, form, "{input}");
    }
}

/// Section 4.3 settles `//` as an authority; `server | reg_name` stays
/// ambiguous wherever a server matches, since no sentence prefers one.
#[test]
fn rfc2396_authority_wins_and_server_or_reg_name_is_reported() {
    let rfc = Rfc2396::get().unwrap();
    let o = rfc.parse("//g").unwrap();
    // abs_path "//g", net_path with server "g", net_path with reg_name "g".
    assert_eq!(o.readings().len(), 3);
    assert_eq!(o.settled_by(), [&rfc2396::AUTHORITY_WINS]);
    assert!(o.is_ambiguous());
    assert_eq!(o.ambiguity(), Some(&rfc2396::SERVER_OR_REG_NAME));
    let kinds: Vec<_> = o.components().map(|c| c.authority_kind).collect();
    assert_eq!(kinds.len(), 2);
    assert!(
        kinds.contains(&Some(AuthorityKind::Server))
            && kinds.contains(&Some(AuthorityKind::RegName))
    );
    // An empty authority is only a server (reg_name is 1*): no ambiguity
    // left once section 4.3 has spoken.
    let o = rfc.parse("http:///p").unwrap();
    assert_eq!(o.readings().len(), 2);
    let c = o.unique().unwrap();
    assert_eq!(c.authority, Some(7..7));
    assert_eq!(c.authority_kind, Some(AuthorityKind::Server));
    assert_eq!(c.path, 7..9);
    // An authority that is no server is only a reg_name.
    let o = rfc.parse("http://a_b/").unwrap();
    let c = o.unique().unwrap();
    assert_eq!(c.authority_kind, Some(AuthorityKind::RegName));
    assert_eq!(c.host, None);
    // No `//`, nothing to settle.
    let o = rfc.parse("/a//b").unwrap();
    assert!(o.settled_by().is_empty());
    assert_eq!(o.unique().unwrap().form, Form::AbsPath);
}

/// Every reference of Appendix C is a URI-reference but `?y` (Appendix A
/// cannot derive a query alone: `rel_segment` is `1*`), with the server
/// reading where the authority is a server.
#[test]
fn rfc2396_appendix_c_references() {
    let refs = [
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../",
        "../../g",
        "",
        "../../../g",
        "../../../../g",
        "/./g",
        "/../g",
        "g.",
        ".g",
        "g..",
        "..g",
        "./../g",
        "./g/.",
        "g/./h",
        "g/../h",
        "g;x=1/./y",
        "g;x=1/../y",
        "g?y/./x",
        "g?y/../x",
        "g#s/./x",
        "g#s/../x",
        "http:g",
        "http://a/b/c/d;p?q",
    ];
    let rfc = Rfc2396::get().unwrap();
    for r in refs {
        let o = rfc.parse(r).unwrap_or_else(|e| panic!("{r}: {e}"));
        let c = rfc2396_server_reading(r).1;
        let want = match (c.scheme.is_some(), c.authority.is_some()) {
            (true, _) if r == "g:h" || r == "http:g" => Form::AbsoluteOpaque,
            (true, _) => Form::AbsoluteHierarchical,
            (false, true) => Form::NetPath,
            (false, false) if r.starts_with('/') => Form::AbsPath,
            (false, false) if r.is_empty() || r.starts_with('#') => Form::Empty,
            (false, false) => Form::RelPath,
        };
        assert_eq!(c.form, want, "{r}");
        assert!(o.readings().len() <= 3, "{r}");
    }
    let e = rfc.parse("?y").unwrap_err();
    assert_eq!(e.index(), Some(0));
    // `g:h` is opaque: its `?` would belong to the path.
    let (parts, _) = rfc2396_server_reading("g:h?y");
    assert_eq!((parts.5, parts.6), ("h?y", None));
}

#[test]
fn rfc2396_grammar_refuses_what_appendix_a_cannot_derive() {
    let rfc = Rfc2396::get().unwrap();
    for (input, at) in [
        ("http://[::1]/", 7),
        ("http:", 5),
        ("a:", 2),
        ("?y", 0),
        ("a:b:c/d#e#f", 9),
        // The engine points at the byte no reading can take, inside a bad
        // escape (the strict parser points at its `%`).
        ("%4g", 2),
        ("http://h/%zz", 10),
        ("a b", 1),
        ("http://h/a\\b", 10),
    ] {
        let e = rfc.parse(input).unwrap_err();
        assert_eq!(e.index(), Some(at), "{input}: {e}");
    }
}

/// The reading walk of both grammars nests a bounded depth, whatever the
/// length of the input (no tracked rule sits inside a repetition), as
/// `Limits::max_depth` documents.
#[test]
fn both_grammars_nest_a_bounded_depth_whatever_the_input_length() {
    let long = format!("http://u@h:1/{}?q#f", "a/b;c%41".repeat(500));
    let nested = |max_depth: usize| grammar::Limits {
        max_depth,
        ..grammar::Limits::default()
    };
    let p = Rfc3986::get()
        .unwrap()
        .parser()
        .clone()
        .with_limits(nested(24));
    for input in ["http://[::ffff:1.2.3.4]/a?b#c", "x", "", long.as_str()] {
        p.readings(input.as_bytes()).unwrap();
    }
    let p = Rfc2396::get()
        .unwrap()
        .parser()
        .clone()
        .with_limits(nested(34));
    for input in ["ftp://u:p@h.example:21/a;b/c?q#f", "a/b", "", long.as_str()] {
        p.readings(input.as_bytes()).unwrap();
    }
}
