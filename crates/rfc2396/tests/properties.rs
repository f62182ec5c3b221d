//! Property tests for the strict RFC 2396 parser.
//!
//! The grammar strategies below follow Appendix A production by production;
//! each returns the generated text together with the components the parser
//! must report for it, so "generated from the grammar" implies "accepted with
//! exactly these components".
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::ops::Range;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use rfc2396::{AuthorityKind, Component, HostKind, RefKind, UriRef, parse};

// ---------------------------------------------------------------------------
// Expected components
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Auth {
    Server {
        text: String,
        userinfo: Option<String>,
        host: Option<(String, HostKind)>,
        port: Option<String>,
    },
    RegName(String),
}

impl Auth {
    fn text(&self) -> &str {
        match self {
            Auth::Server { text, .. } | Auth::RegName(text) => text,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Parts {
    kind: RefKind,
    scheme: Option<String>,
    authority: Option<Auth>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

/// A generated reference and the components it must parse to.
#[derive(Clone, Debug)]
struct Generated {
    text: String,
    parts: Parts,
}

fn actual(r: &UriRef<'_>) -> Parts {
    let authority = r.authority().map(|text| match r.authority_kind() {
        Some(AuthorityKind::Server) => Auth::Server {
            text: text.to_string(),
            userinfo: r.userinfo().map(str::to_string),
            host: r.host().map(|h| (h.to_string(), r.host_kind().unwrap())),
            port: r.port().map(str::to_string),
        },
        Some(AuthorityKind::RegName) => {
            assert_eq!((r.userinfo(), r.host(), r.port()), (None, None, None));
            Auth::RegName(text.to_string())
        }
        None => panic!("authority {text:?} without authority_kind"),
    });
    Parts {
        kind: r.kind(),
        scheme: r.scheme().map(str::to_string),
        authority,
        path: r.path().to_string(),
        query: r.query().map(str::to_string),
        fragment: r.fragment().map(str::to_string),
    }
}

// ---------------------------------------------------------------------------
// Character sets and tokens
// ---------------------------------------------------------------------------

const ALPHA: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// `unreserved = alphanum | mark`
const UNRESERVED: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'()";

fn chars_of(set: &str) -> Vec<char> {
    set.chars().collect()
}

/// One character of `set`.
fn one(set: &str) -> BoxedStrategy<String> {
    select(chars_of(set)).prop_map(String::from).boxed()
}

/// `escaped = "%" hex hex`
fn escaped() -> BoxedStrategy<String> {
    "%[0-9A-Fa-f]{2}".boxed()
}

/// One token: a character of `unreserved` or of `extra`, or an `escaped`.
fn token(extra: &str) -> BoxedStrategy<String> {
    prop_oneof![
        6 => one(UNRESERVED),
        2 => one(extra),
        1 => escaped(),
    ]
    .boxed()
}

/// `*tok`, up to `max` tokens.
fn star(tok: BoxedStrategy<String>, max: usize) -> BoxedStrategy<String> {
    vec(tok, 0..=max).prop_map(|v| v.concat()).boxed()
}

/// `1*tok`, up to `max` tokens.
fn plus(tok: BoxedStrategy<String>, max: usize) -> BoxedStrategy<String> {
    vec(tok, 1..=max).prop_map(|v| v.concat()).boxed()
}

/// `uric = reserved | unreserved | escaped`
fn uric() -> BoxedStrategy<String> {
    token(";/?:@&=+$,")
}

/// `pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","`
fn pchar() -> BoxedStrategy<String> {
    token(":@&=+$,")
}

// ---------------------------------------------------------------------------
// One strategy per production of Appendix A
// ---------------------------------------------------------------------------

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`
fn scheme() -> BoxedStrategy<String> {
    (one(ALPHA), star(one(&format!("{ALPHANUM}+-.")), 6))
        .prop_map(|(a, b)| a + &b)
        .boxed()
}

/// `userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )`
fn userinfo() -> BoxedStrategy<String> {
    star(token(";:&=+$,"), 6)
}

/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`
fn domainlabel() -> BoxedStrategy<String> {
    prop_oneof![
        one(ALPHANUM),
        (
            one(ALPHANUM),
            star(one(&format!("{ALPHANUM}-")), 4),
            one(ALPHANUM)
        )
            .prop_map(|(a, b, c)| a + &b + &c),
    ]
    .boxed()
}

/// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`
fn toplabel() -> BoxedStrategy<String> {
    prop_oneof![
        one(ALPHA),
        (
            one(ALPHA),
            star(one(&format!("{ALPHANUM}-")), 4),
            one(ALPHANUM)
        )
            .prop_map(|(a, b, c)| a + &b + &c),
    ]
    .boxed()
}

/// `hostname = *( domainlabel "." ) toplabel [ "." ]`
fn hostname() -> BoxedStrategy<String> {
    (vec(domainlabel(), 0..3), toplabel(), any::<bool>())
        .prop_map(|(labels, top, dot)| {
            let mut h: String = labels.iter().map(|l| format!("{l}.")).collect();
            h.push_str(&top);
            if dot {
                h.push('.');
            }
            h
        })
        .boxed()
}

/// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit` (no range check)
fn ipv4address() -> BoxedStrategy<String> {
    vec("[0-9]{1,4}", 4).prop_map(|g| g.join(".")).boxed()
}

/// `host = hostname | IPv4address`
fn host() -> BoxedStrategy<(String, HostKind)> {
    prop_oneof![
        hostname().prop_map(|h| (h, HostKind::Hostname)),
        ipv4address().prop_map(|h| (h, HostKind::Ipv4)),
    ]
    .boxed()
}

/// `port = *digit` (no bound)
fn port() -> BoxedStrategy<String> {
    "[0-9]{0,6}".boxed()
}

/// `server = [ [ userinfo "@" ] hostport ]`, `hostport = host [ ":" port ]`
fn server() -> BoxedStrategy<Auth> {
    prop_oneof![
        1 => Just(Auth::Server {
            text: String::new(),
            userinfo: None,
            host: None,
            port: None,
        }),
        6 => (option::of(userinfo()), host(), option::of(port())).prop_map(|(u, h, p)| {
            let mut text = String::new();
            if let Some(u) = &u {
                text.push_str(u);
                text.push('@');
            }
            text.push_str(&h.0);
            if let Some(p) = &p {
                text.push(':');
                text.push_str(p);
            }
            Auth::Server {
                text,
                userinfo: u,
                host: Some(h),
                port: p,
            }
        }),
    ]
    .boxed()
}

/// `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )`,
/// restricted to names that are not a `server` (those parse as a server):
/// either no `@` and a `_` (which no host or port contains), or two `@`
/// (a userinfo has none, so a server has at most one).
fn reg_name() -> BoxedStrategy<Auth> {
    let no_at = || star(token("$,;:&=+"), 5);
    let any = || star(token("$,;:@&=+"), 4);
    prop_oneof![
        (no_at(), no_at()).prop_map(|(a, b)| Auth::RegName(format!("{a}_{b}"))),
        (any(), any(), any()).prop_map(|(a, b, c)| Auth::RegName(format!("{a}@{b}@{c}"))),
    ]
    .boxed()
}

/// `authority = server | reg_name`
fn authority() -> BoxedStrategy<Auth> {
    prop_oneof![3 => server(), 1 => reg_name()].boxed()
}

/// `param = *pchar`
fn param() -> BoxedStrategy<String> {
    star(pchar(), 4)
}

/// `segment = *pchar *( ";" param )`
fn segment() -> BoxedStrategy<String> {
    (star(pchar(), 5), vec(param(), 0..3))
        .prop_map(|(s, params)| {
            let mut out = s;
            for p in params {
                out.push(';');
                out.push_str(&p);
            }
            out
        })
        .boxed()
}

/// `path_segments = segment *( "/" segment )`
fn path_segments() -> BoxedStrategy<String> {
    vec(segment(), 1..4).prop_map(|s| s.join("/")).boxed()
}

/// `abs_path = "/" path_segments`
fn abs_path() -> BoxedStrategy<String> {
    path_segments().prop_map(|p| format!("/{p}")).boxed()
}

/// An `abs_path` where the grammar would also derive a `net_path`:
/// at the start of a reference or right after `scheme ":"`, `//x` is a
/// `net_path` (Section 4.3: the authority is greedy), so a top-level
/// `abs_path` here never starts with an empty segment followed by `/`.
fn top_abs_path() -> BoxedStrategy<String> {
    abs_path()
        .prop_filter("'//' starts a net_path", |p| !p.starts_with("//"))
        .boxed()
}

/// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
fn rel_segment() -> BoxedStrategy<String> {
    plus(token(";@&=+$,"), 5)
}

/// `rel_path = rel_segment [ abs_path ]`
fn rel_path() -> BoxedStrategy<String> {
    (rel_segment(), option::of(abs_path()))
        .prop_map(|(s, a)| s + a.as_deref().unwrap_or(""))
        .boxed()
}

/// `opaque_part = uric_no_slash *uric`
fn opaque_part() -> BoxedStrategy<String> {
    (token(";?:@&=+$,"), star(uric(), 8))
        .prop_map(|(a, b)| a + &b)
        .boxed()
}

/// `query = *uric`
fn query() -> BoxedStrategy<String> {
    star(uric(), 8)
}

/// `fragment = *uric`
fn fragment() -> BoxedStrategy<String> {
    star(uric(), 8)
}

/// `net_path = "//" authority [ abs_path ]`: (text, authority, path).
fn net_path() -> BoxedStrategy<(String, Auth, String)> {
    (authority(), option::of(abs_path()))
        .prop_map(|(a, p)| {
            let path = p.unwrap_or_default();
            (format!("//{}{path}", a.text()), a, path)
        })
        .boxed()
}

/// The part of a reference after the scheme: text and components (kind,
/// authority, path, query); `scheme` and `fragment` are filled in later.
type Body = (String, Parts);

fn body(kind: RefKind, authority: Option<Auth>, path: String, query: Option<String>) -> Parts {
    Parts {
        kind,
        scheme: None,
        authority,
        path,
        query,
        fragment: None,
    }
}

/// `[ "?" query ]` appended to a path part.
fn with_query(
    head: BoxedStrategy<(String, Option<Auth>, String)>,
    kind: RefKind,
) -> BoxedStrategy<Body> {
    (head, option::of(query()))
        .prop_map(move |((text, auth, path), q)| {
            let text = match &q {
                Some(q) => format!("{text}?{q}"),
                None => text,
            };
            (text, body(kind, auth, path, q))
        })
        .boxed()
}

fn net_path_head() -> BoxedStrategy<(String, Option<Auth>, String)> {
    net_path().prop_map(|(t, a, p)| (t, Some(a), p)).boxed()
}

fn abs_path_head() -> BoxedStrategy<(String, Option<Auth>, String)> {
    top_abs_path().prop_map(|p| (p.clone(), None, p)).boxed()
}

/// `hier_part = ( net_path | abs_path ) [ "?" query ]`
fn hier_part() -> BoxedStrategy<Body> {
    with_query(
        prop_oneof![net_path_head(), abs_path_head()].boxed(),
        RefKind::AbsoluteHierarchical,
    )
}

/// `absoluteURI = scheme ":" ( hier_part | opaque_part )`
fn absolute_uri() -> BoxedStrategy<Body> {
    let opaque = opaque_part()
        .prop_map(|p| (p.clone(), body(RefKind::AbsoluteOpaque, None, p, None)))
        .boxed();
    (scheme(), prop_oneof![hier_part(), opaque])
        .prop_map(|(s, (text, mut parts))| {
            parts.scheme = Some(s.clone());
            (format!("{s}:{text}"), parts)
        })
        .boxed()
}

/// `relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]`
fn relative_uri() -> BoxedStrategy<Body> {
    prop_oneof![
        with_query(net_path_head(), RefKind::NetPath),
        with_query(abs_path_head(), RefKind::AbsPath),
        with_query(
            rel_path().prop_map(|p| (p.clone(), None, p)).boxed(),
            RefKind::RelPath
        ),
    ]
    .boxed()
}

/// `URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]`
fn uri_reference() -> BoxedStrategy<Generated> {
    let main = prop_oneof![absolute_uri(), relative_uri()];
    (option::weighted(0.9, main), option::of(fragment()))
        .prop_map(|(main, f)| {
            let (mut text, mut parts) = main.unwrap_or_else(|| {
                (
                    String::new(),
                    body(RefKind::Empty, None, String::new(), None),
                )
            });
            if let Some(f) = &f {
                text.push('#');
                text.push_str(f);
            }
            parts.fragment = f;
            Generated { text, parts }
        })
        .boxed()
}

// ---------------------------------------------------------------------------
// Other inputs
// ---------------------------------------------------------------------------

/// Strings over an alphabet dense in URI delimiters, with some excluded and
/// non-ASCII characters: many are accepted, many fail late.
fn uri_alphabet_string() -> BoxedStrategy<String> {
    let alphabet = chars_of("aZ09-_.!~*'();/?:@&=+$,%#[] <>\"{}|\\^`\t\u{7f}é日😀");
    vec(select(alphabet), 0..40)
        .prop_map(|v| v.into_iter().collect())
        .boxed()
}

/// A grammar-generated reference with a few characters replaced at random.
fn mutated_reference() -> BoxedStrategy<String> {
    (uri_reference(), vec((any::<Index>(), any::<char>()), 1..3))
        .prop_map(|(g, edits)| {
            let mut chars: Vec<char> = g.text.chars().collect();
            for (i, c) in edits {
                if chars.is_empty() {
                    chars.push(c);
                } else {
                    let i = i.index(chars.len());
                    chars[i] = c;
                }
            }
            chars.into_iter().collect()
        })
        .boxed()
}

fn any_input() -> BoxedStrategy<String> {
    prop_oneof![
        any::<String>(),
        uri_alphabet_string(),
        mutated_reference(),
        uri_reference().prop_map(|g| g.text),
    ]
    .boxed()
}

/// Excluded characters (Section 2.4.3) and non-ASCII, with their error kind.
fn excluded_char() -> BoxedStrategy<(char, &'static str)> {
    prop_oneof![
        prop_oneof![0u8..0x20, Just(0x7f)].prop_map(|b| (char::from(b), "control")),
        Just((' ', "space")),
        select(chars_of("<>\"")).prop_map(|c| (c, "delims")),
        select(chars_of("{}|\\^[]`")).prop_map(|c| (c, "unwise")),
        any::<char>()
            .prop_filter("non-ASCII", |c| !c.is_ascii())
            .prop_map(|c| (c, "non-ascii")),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

/// Spans are in bounds, on char boundaries, agree with `get`, are framed by
/// their delimiters and come in order; the reference recomposes to itself.
fn check_accepted(input: &str, r: &UriRef<'_>) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.to_string(), input, "recomposition");
    prop_assert_eq!(r.as_str(), input);
    let span = |c| r.span(c);
    for c in Component::ALL {
        if let Some(Range { start, end }) = span(c) {
            prop_assert!(start <= end && end <= input.len(), "{c:?} {start}..{end}");
            prop_assert!(input.is_char_boundary(start) && input.is_char_boundary(end));
            prop_assert_eq!(r.get(c), input.get(start..end), "{:?}", c);
        } else {
            prop_assert_eq!(r.get(c), None);
        }
    }
    let byte = |i: usize| input.as_bytes().get(i).copied();
    // scheme < authority < path < query < fragment, each after its delimiter.
    let mut last_end = 0;
    if let Some(s) = span(Component::Scheme) {
        prop_assert_eq!(s.start, 0);
        prop_assert_eq!(byte(s.end), Some(b':'));
        last_end = s.end + 1;
    }
    if let Some(a) = span(Component::Authority) {
        prop_assert_eq!(input.get(last_end..a.start), Some("//"));
        let mut inner = a.start;
        if let Some(u) = span(Component::Userinfo) {
            prop_assert_eq!(u.start, a.start);
            prop_assert_eq!(byte(u.end), Some(b'@'));
            inner = u.end + 1;
        }
        if let Some(h) = span(Component::Host) {
            prop_assert_eq!(h.start, inner);
            inner = h.end;
        }
        if let Some(p) = span(Component::Port) {
            prop_assert!(span(Component::Host).is_some());
            prop_assert_eq!(byte(inner), Some(b':'));
            prop_assert_eq!(p.start, inner + 1);
            inner = p.end;
        }
        if span(Component::Host).is_some() {
            prop_assert_eq!(inner, a.end, "server pieces cover the authority");
        }
        prop_assert!(inner <= a.end);
        last_end = a.end;
    } else {
        prop_assert!(span(Component::Userinfo).is_none());
        prop_assert!(span(Component::Host).is_none());
        prop_assert!(span(Component::Port).is_none());
    }
    let path = span(Component::Path).expect("the path is always present");
    prop_assert_eq!(path.start, last_end);
    last_end = path.end;
    if let Some(q) = span(Component::Query) {
        prop_assert_eq!(byte(last_end), Some(b'?'));
        prop_assert_eq!(q.start, last_end + 1);
        last_end = q.end;
    }
    if let Some(f) = span(Component::Fragment) {
        prop_assert_eq!(byte(last_end), Some(b'#'));
        prop_assert_eq!(f.start, last_end + 1);
        last_end = f.end;
    }
    prop_assert_eq!(last_end, input.len());
    Ok(())
}

/// Where an excluded character inserted at `i` into the valid ASCII
/// reference `text` is reported: at `i`, unless `i` falls inside an
/// `escaped` triplet, which it breaks: then at the `%` that starts it.
fn expected_insert_error(text: &str, i: usize, kind: &'static str) -> (usize, &'static str) {
    let b = text.as_bytes();
    // In a generated reference every '%' starts an escape.
    if i >= 1 && b[i - 1] == b'%' {
        (i - 1, "invalid-escape")
    } else if i >= 2 && b[i - 2] == b'%' {
        (i - 2, "invalid-escape")
    } else {
        (i, kind)
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        // Do not write regression files next to the tests; a failure prints
        // the minimal input, which belongs in testdata/conformance.toml.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_never_panics_and_errors_point_at_a_char_boundary_within_the_input(
        input in any_input()
    ) {
        if let Err(e) = parse(&input) {
            prop_assert!(e.index() <= input.len(), "{} > {}", e.index(), input.len());
            prop_assert!(input.is_char_boundary(e.index()), "index {} in {:?}", e.index(), input);
        }
    }

    #[test]
    fn accepted_input_recomposes_to_itself_with_ordered_in_bounds_spans(
        input in any_input()
    ) {
        if let Ok(r) = parse(&input) {
            check_accepted(&input, &r)?;
        }
    }

    #[test]
    fn grammar_generated_reference_recomposes_with_ordered_in_bounds_spans(
        g in uri_reference()
    ) {
        let r = parse(&g.text).map_err(|e| TestCaseError::fail(format!("{:?}: {e}", g.text)))?;
        check_accepted(&g.text, &r)?;
    }

    #[test]
    fn grammar_generated_reference_parses_to_exactly_its_generated_components(
        g in uri_reference()
    ) {
        match parse(&g.text) {
            Ok(r) => prop_assert_eq!(actual(&r), g.parts, "input {:?}", g.text),
            Err(e) => prop_assert!(false, "{:?} rejected: {}", g.text, e),
        }
    }

    #[test]
    fn grammar_generated_authority_parses_to_its_server_or_reg_name(
        a in authority(), path in option::of(abs_path())
    ) {
        let path = path.unwrap_or_default();
        let text = format!("//{}{path}", a.text());
        let want = body(RefKind::NetPath, Some(a), path, None);
        match parse(&text) {
            Ok(r) => prop_assert_eq!(actual(&r), want, "input {:?}", text),
            Err(e) => prop_assert!(false, "{:?} rejected: {}", text, e),
        }
    }

    #[test]
    fn inserting_an_excluded_character_into_a_valid_reference_is_an_error_at_that_index(
        g in uri_reference(), at in any::<Index>(), (c, kind) in excluded_char()
    ) {
        // Generated references are ASCII: every byte index is a char boundary.
        prop_assert!(g.text.is_ascii());
        let i = at.index(g.text.len() + 1);
        let mut input = g.text.clone();
        input.insert(i, c);
        let (index, kind) = expected_insert_error(&g.text, i, kind);
        match parse(&input) {
            Ok(r) => prop_assert!(false, "{:?} accepted: {:?}", input, r),
            Err(e) => {
                prop_assert_eq!((e.index(), e.kind().id()), (index, kind), "input {:?}: {}", input, e);
            }
        }
    }
}

/// The grammar strategies reach every alternative, so the properties above
/// cannot pass vacuously on a narrow slice of the language.
#[test]
fn grammar_strategies_reach_every_alternative() {
    let mut runner = TestRunner::deterministic();
    let strategy = uri_reference();
    let mut kinds = Vec::new();
    let (mut server, mut reg, mut empty_server, mut ipv4, mut hostname) = (0, 0, 0, 0, 0);
    let (mut userinfo, mut port, mut empty_port, mut query, mut fragment, mut escape) =
        (0, 0, 0, 0, 0, 0);
    for _ in 0..2000 {
        let g = strategy.new_tree(&mut runner).unwrap().current();
        if !kinds.contains(&g.parts.kind) {
            kinds.push(g.parts.kind);
        }
        match &g.parts.authority {
            Some(Auth::RegName(_)) => reg += 1,
            Some(Auth::Server { host: None, .. }) => empty_server += 1,
            Some(Auth::Server {
                host: Some((_, k)),
                userinfo: u,
                port: p,
                ..
            }) => {
                server += 1;
                match k {
                    HostKind::Ipv4 => ipv4 += 1,
                    HostKind::Hostname => hostname += 1,
                }
                userinfo += usize::from(u.is_some());
                port += usize::from(p.is_some());
                empty_port += usize::from(p.as_deref() == Some(""));
            }
            None => {}
        }
        query += usize::from(g.parts.query.is_some());
        fragment += usize::from(g.parts.fragment.is_some());
        escape += usize::from(g.text.contains('%'));
    }
    assert_eq!(kinds.len(), 6, "kinds reached: {kinds:?}");
    for (name, n) in [
        ("server", server),
        ("reg_name", reg),
        ("empty server", empty_server),
        ("IPv4address", ipv4),
        ("hostname", hostname),
        ("userinfo", userinfo),
        ("port", port),
        ("empty port", empty_port),
        ("query", query),
        ("fragment", fragment),
        ("escaped", escape),
    ] {
        assert!(n >= 5, "{name} generated only {n} times in 2000");
    }
}
