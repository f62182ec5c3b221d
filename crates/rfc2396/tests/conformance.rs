//! Conformance of the strict parser with RFC 2396 Appendix A.
//!
//! Two parts:
//!
//! - hand-written rows that derive every production of Appendix A, each with
//!   its expected components or its expected error index and kind, kept as
//!   data in `testdata/conformance.toml` (each group of rows names its rule
//!   and RFC section) and loaded by the driver below;
//! - a generated table that puts every character class (alpha, digit, each
//!   `mark`, each `reserved`, `escaped`, bad escapes, and every excluded
//!   character of Section 2.4.3 plus non-ASCII) in every position of a
//!   reference (scheme, userinfo, host labels, IPv4, port, path segment,
//!   param, query, fragment, opaque part, relative segments). The expectation
//!   of each cell comes from the rule that governs the position, written here
//!   from the grammar, not from the parser's own tables.
//!
//! Error index rule: the first offending byte; for a bad escape the `%` that
//! starts it; for an unexpected end the input length.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use rfc2396::RefKind::{
    AbsPath, AbsoluteHierarchical as Hier, AbsoluteOpaque as Opaque, Empty, NetPath, RelPath,
};
use rfc2396::{AuthorityKind, Component, HostKind, RefKind, UriRef, chars, parse};
use serde::Deserialize;

// ---------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------

/// `authority = server | reg_name`, with the server's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Auth<S> {
    Server {
        text: S,
        userinfo: Option<S>,
        host: Option<(S, HostKind)>,
        port: Option<S>,
    },
    RegName(S),
}

/// Every component of a valid reference. `None` = absent, `Some("")` = empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts<S> {
    kind: RefKind,
    scheme: Option<S>,
    authority: Option<Auth<S>>,
    path: S,
    query: Option<S>,
    fragment: Option<S>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect<S> {
    Valid(Parts<S>),
    /// Error index and `ErrorKind::id()`.
    Invalid {
        index: usize,
        kind: &'static str,
    },
}

impl<S> Auth<S> {
    fn map<T>(self, f: &impl Fn(S) -> T) -> Auth<T> {
        match self {
            Auth::Server {
                text,
                userinfo,
                host,
                port,
            } => Auth::Server {
                text: f(text),
                userinfo: userinfo.map(f),
                host: host.map(|(h, k)| (f(h), k)),
                port: port.map(f),
            },
            Auth::RegName(text) => Auth::RegName(f(text)),
        }
    }
}

impl<S> Parts<S> {
    fn map<T>(self, f: impl Fn(S) -> T) -> Parts<T> {
        Parts {
            kind: self.kind,
            scheme: self.scheme.map(&f),
            authority: self.authority.map(|a| a.map(&f)),
            path: f(self.path),
            query: self.query.map(&f),
            fragment: self.fragment.map(&f),
        }
    }
}

impl Expect<String> {
    fn borrowed(&self) -> Expect<&str> {
        match self {
            Expect::Valid(p) => Expect::Valid(p.map_ref()),
            Expect::Invalid { index, kind } => Expect::Invalid {
                index: *index,
                kind,
            },
        }
    }
}

impl Parts<String> {
    fn map_ref(&self) -> Parts<&str> {
        Parts {
            kind: self.kind,
            scheme: self.scheme.as_deref(),
            authority: self.authority.as_ref().map(|a| match a {
                Auth::Server {
                    text,
                    userinfo,
                    host,
                    port,
                } => Auth::Server {
                    text: text.as_str(),
                    userinfo: userinfo.as_deref(),
                    host: host.as_ref().map(|(h, k)| (h.as_str(), *k)),
                    port: port.as_deref(),
                },
                Auth::RegName(text) => Auth::RegName(text.as_str()),
            }),
            path: &self.path,
            query: self.query.as_deref(),
            fragment: self.fragment.as_deref(),
        }
    }
}

/// Reads the components of a parsed reference, checking on the way that the
/// accessors agree with each other (`get`, `authority_kind`, `host_kind`).
fn actual<'a>(r: &UriRef<'a>) -> Result<Parts<&'a str>, String> {
    for c in Component::ALL {
        let via_accessor = match c {
            Component::Scheme => r.scheme(),
            Component::Authority => r.authority(),
            Component::Userinfo => r.userinfo(),
            Component::Host => r.host(),
            Component::Port => r.port(),
            Component::Path => Some(r.path()),
            Component::Query => r.query(),
            Component::Fragment => r.fragment(),
        };
        if r.get(c) != via_accessor {
            return Err(format!(
                "get({c:?}) = {:?} but accessor gives {via_accessor:?}",
                r.get(c)
            ));
        }
    }
    if r.host().is_some() != r.host_kind().is_some() {
        return Err(format!(
            "host {:?} but host_kind {:?}",
            r.host(),
            r.host_kind()
        ));
    }
    let authority = match (r.authority(), r.authority_kind()) {
        (None, None) => None,
        (Some(text), Some(AuthorityKind::Server)) => Some(Auth::Server {
            text,
            userinfo: r.userinfo(),
            host: r.host().zip(r.host_kind()),
            port: r.port(),
        }),
        (Some(text), Some(AuthorityKind::RegName)) => {
            if r.userinfo().is_some() || r.host().is_some() || r.port().is_some() {
                return Err("a reg_name has a userinfo, host or port".to_string());
            }
            Some(Auth::RegName(text))
        }
        (a, k) => return Err(format!("authority {a:?} with authority_kind {k:?}")),
    };
    if authority.is_none() && (r.userinfo().is_some() || r.host().is_some() || r.port().is_some()) {
        return Err("userinfo, host or port without an authority".to_string());
    }
    Ok(Parts {
        kind: r.kind(),
        scheme: r.scheme(),
        authority,
        path: r.path(),
        query: r.query(),
        fragment: r.fragment(),
    })
}

/// Parses `input` and compares with `expect`; `Err` describes the mismatch.
fn check(input: &str, expect: &Expect<&str>) -> Result<(), String> {
    let got = parse(input);
    match (expect, got) {
        (Expect::Valid(want), Ok(r)) => {
            let parts = actual(&r)?;
            if &parts != want {
                return Err(format!("expected {want:?}\n      got {parts:?}"));
            }
            let recomposed = r.to_string();
            if recomposed != input {
                return Err(format!("recomposes to {recomposed:?}"));
            }
            Ok(())
        }
        (Expect::Invalid { index, kind }, Err(e)) => {
            if e.index() == *index && e.kind().id() == *kind {
                Ok(())
            } else {
                Err(format!(
                    "expected error {kind} at {index}, got {} at {} ({e})",
                    e.kind().id(),
                    e.index()
                ))
            }
        }
        (Expect::Valid(want), Err(e)) => Err(format!("expected valid {want:?}, got error {e}")),
        (Expect::Invalid { index, kind }, Ok(r)) => Err(format!(
            "expected error {kind} at {index}, got valid {:?}",
            actual(&r)
        )),
    }
}

// ---------------------------------------------------------------------------
// Hand-written rows: testdata/conformance.toml
// ---------------------------------------------------------------------------

/// The rows, with the production each derives; the file's header describes
/// its shape.
const ROWS_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/conformance.toml");

// The file's shape as types: `deny_unknown_fields` everywhere, so that a
// misspelt key (`fragmnet = "x"`) is an error rather than an absent
// component. Names (kinds, errors) are looked up when a row is converted.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RowsFile {
    group: Vec<Group>,
}

/// The rows of one production (or a few that go together): the production
/// as Appendix A spells it, and the sections of RFC 2396 that govern it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    rule: String,
    section: String,
    rows: Vec<RowSpec>,
}

/// A row: an invalid reference with its error, or a valid one with its
/// components (a left-out component is absent, `""` present but empty).
/// The two shapes share `input` and `why` only, so a row is the one whose
/// keys it has.
// Rows are read once and converted at once: their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Deserialize)]
#[serde(
    untagged,
    deny_unknown_fields,
    expecting = "expected a valid row {input, kind, path[, scheme, authority, query, fragment, \
                 why]} or an invalid row {input, error, index[, why]}"
)]
enum RowSpec {
    Invalid {
        input: String,
        error: String,
        index: usize,
        why: Option<String>,
    },
    Valid {
        input: String,
        kind: String,
        scheme: Option<String>,
        authority: Option<AuthoritySpec>,
        path: String,
        query: Option<String>,
        fragment: Option<String>,
        why: Option<String>,
    },
}

/// `{ reg_name = TEXT }`, or a server with the pieces that are present.
#[derive(Debug, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum AuthoritySpec {
    RegName {
        reg_name: String,
    },
    Server {
        server: String,
        userinfo: Option<String>,
        host: Option<String>,
        host_kind: Option<String>,
        port: Option<String>,
    },
}

/// `ErrorKind::id()` of every kind the parser reports.
const ERROR_KINDS: [&str; 9] = [
    "control",
    "space",
    "delims",
    "unwise",
    "non-ascii",
    "invalid-escape",
    "empty-opaque-part",
    "missing-rel-segment",
    "colon-in-rel-segment",
];

/// `RefKind` by the name the file uses (its Rust name).
const REF_KINDS: [(&str, RefKind); 6] = [
    ("AbsoluteHierarchical", Hier),
    ("AbsoluteOpaque", Opaque),
    ("NetPath", NetPath),
    ("AbsPath", AbsPath),
    ("RelPath", RelPath),
    ("Empty", Empty),
];

/// `HostKind` by the name the file uses.
const HOST_KINDS: [(&str, HostKind); 2] =
    [("Hostname", HostKind::Hostname), ("Ipv4", HostKind::Ipv4)];

/// Looks `name` up in a list of (name, value) pairs.
fn named<T: Copy>(what: &str, name: &str, names: &[(&str, T)]) -> Result<T, String> {
    names
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, v)| v)
        .ok_or_else(|| format!("unknown {what} {name:?}"))
}

impl AuthoritySpec {
    fn into_auth(self) -> Result<Auth<String>, String> {
        match self {
            AuthoritySpec::RegName { reg_name } => Ok(Auth::RegName(reg_name)),
            AuthoritySpec::Server {
                server,
                userinfo,
                host,
                host_kind,
                port,
            } => {
                let host = match (host, host_kind) {
                    (Some(h), Some(k)) => Some((h, named("host_kind", &k, &HOST_KINDS)?)),
                    (None, None) => None,
                    _ => return Err("`host` and `host_kind` go together".to_owned()),
                };
                Ok(Auth::Server {
                    text: server,
                    userinfo,
                    host,
                    port,
                })
            }
        }
    }
}

impl RowSpec {
    /// What parsing the row's input must give; `Err` for a name the file's
    /// header does not list or an empty `why`.
    fn into_row(self, origin: &str) -> Result<Row, String> {
        let (input, expect, why) = match self {
            RowSpec::Invalid {
                input,
                error,
                index,
                why,
            } => {
                let ids = ERROR_KINDS.map(|id| (id, id));
                let kind = named("error", &error, &ids);
                (input, kind.map(|kind| Expect::Invalid { index, kind }), why)
            }
            RowSpec::Valid {
                input,
                kind,
                scheme,
                authority,
                path,
                query,
                fragment,
                why,
            } => {
                let parts = || {
                    Ok(Parts {
                        kind: named("kind", &kind, &REF_KINDS)?,
                        scheme,
                        authority: authority.map(AuthoritySpec::into_auth).transpose()?,
                        path,
                        query,
                        fragment,
                    })
                };
                (input, parts().map(Expect::Valid), why)
            }
        };
        let at = |why: String| format!("{origin}, row {input:?}: {why}");
        if why.is_some_and(|w| w.trim().is_empty()) {
            return Err(at("`why` is empty".to_owned()));
        }
        Ok(Row {
            origin: origin.to_owned(),
            expect: expect.map_err(at)?,
            input,
        })
    }
}

/// One row of the file, with where it came from for failure messages.
#[derive(Debug)]
struct Row {
    /// The group's `rule` and `section`, e.g. "scheme = ... (section 3.1)".
    origin: String,
    input: String,
    expect: Expect<String>,
}

/// Reads the rows of a conformance file, in order; `Err` says where the
/// file leaves the shape (toml's messages name the line).
fn load(text: &str) -> Result<Vec<Row>, String> {
    let file: RowsFile = toml::from_str(text).map_err(|e| e.to_string())?;
    if file.group.is_empty() {
        return Err("no [[group]]".to_owned());
    }
    let mut rows = Vec::new();
    for group in file.group {
        let origin = format!("{} (section {})", group.rule, group.section);
        let sections_ok = group
            .section
            .split(", ")
            .all(|n| !n.is_empty() && n.split('.').all(|d| d.parse::<u8>().is_ok()));
        if group.rule.trim().is_empty() || !sections_ok || group.rows.is_empty() {
            return Err(format!(
                "{origin}: a group needs a rule, sections like \"3.2.2\" or \"2.4.3, 2.1\", and rows"
            ));
        }
        for row in group.rows {
            rows.push(row.into_row(&origin)?);
        }
    }
    Ok(rows)
}

/// The rows of [`ROWS_FILE`]; a file that cannot be read, or does not follow
/// the shape, fails every test that uses it, saying where and why.
fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(ROWS_FILE)
        .unwrap_or_else(|e| panic!("cannot read {ROWS_FILE}: {e}"));
    load(&text).unwrap_or_else(|e| panic!("{ROWS_FILE}: {e}"))
}

#[test]
fn every_table_row_parses_as_expected() {
    let rows = rows();
    // Every row of the file is checked: one per `input` key in its text.
    let text = std::fs::read_to_string(ROWS_FILE).unwrap();
    assert_eq!(rows.len(), text.matches("{ input = ").count());
    let mut failures = Vec::new();
    for row in &rows {
        if let Err(why) = check(&row.input, &row.expect.borrowed()) {
            failures.push(format!("{:?} [{}]: {why}", row.input, row.origin));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn table_has_no_duplicate_inputs() {
    let rows = rows();
    let mut inputs: Vec<&str> = rows.iter().map(|r| r.input.as_str()).collect();
    inputs.sort_unstable();
    let duplicates: Vec<&str> = inputs
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(duplicates.is_empty(), "duplicate rows: {duplicates:?}");
}

#[test]
fn table_uses_every_ref_kind_and_error_kind() {
    let rows = rows();
    for (name, kind) in REF_KINDS {
        assert!(
            rows.iter()
                .any(|r| matches!(&r.expect, Expect::Valid(p) if p.kind == kind)),
            "no valid row of kind {name}"
        );
    }
    for id in ERROR_KINDS {
        assert!(
            rows.iter()
                .any(|r| matches!(r.expect, Expect::Invalid { kind, .. } if kind == id)),
            "no invalid row of kind {id}"
        );
    }
}

/// A misspelt key or name in the file must not turn into an absent
/// component or a skipped row: the loader refuses it, and says where (a
/// misshapen row by its line, a wrong name by its row).
#[test]
fn misspelt_rows_are_refused() {
    let group = |row: &str| format!("[[group]]\nrule = 'g'\nsection = '5'\nrows = [{row}]\n");
    let row_cases = [
        (
            "{ input = 'g', kind = 'RelPath', path = 'g', fragmnet = 'x' }",
            "line 4",
        ),
        ("{ input = 'g', kind = 'RelPath' }", "line 4"),
        (
            "{ input = '?', error = 'missing-rel-segment', index = -1 }",
            "line 4",
        ),
        (
            "{ input = '?', error = 'missing-rel-segment', index = 0, path = '' }",
            "line 4",
        ),
        (
            "{ input = '//h', kind = 'NetPath', path = '', authority = { server = 'h', hots = 'h' } }",
            "line 4",
        ),
        (
            "{ input = '//h', kind = 'NetPath', path = '', authority = { reg_name = 'h', host = 'h' } }",
            "line 4",
        ),
        (
            "{ input = 'g', kind = 'Relative', path = 'g' }",
            "row \"g\": unknown kind \"Relative\"",
        ),
        (
            "{ input = '?', error = 'missing-segment', index = 0 }",
            "unknown error \"missing-segment\"",
        ),
        (
            "{ input = 'g', kind = 'RelPath', path = 'g', why = ' ' }",
            "`why` is empty",
        ),
        (
            "{ input = '//h', kind = 'NetPath', path = '', authority = { server = 'h', host = 'h' } }",
            "go together",
        ),
    ];
    let mut cases: Vec<(String, &str)> =
        row_cases.iter().map(|(r, why)| (group(r), *why)).collect();
    cases.extend([
        (group(""), "a group needs"),
        (
            group("{ input = 'g', kind = 'RelPath', path = 'g' }").replace("'5'", "'five'"),
            "a group needs",
        ),
        ("title = 'x'".to_owned(), "unknown field `title`"),
        (String::new(), "missing field `group`"),
    ]);
    for (text, reason) in &cases {
        match load(text) {
            Ok(rows) => panic!("accepted {text:?} as {rows:?}"),
            Err(e) => assert!(
                e.contains(reason),
                "{text:?}: {e:?} does not say {reason:?}"
            ),
        }
    }
    // What they misspell loads, row by row, in order.
    let rows = load(&group(
        "{ input = '//h', kind = 'NetPath', path = '', authority = { server = 'h', host = 'h', host_kind = 'Hostname' } }, \
         { input = '?', error = 'missing-rel-segment', index = 0, why = 'rel_segment needs a character' }",
    ))
    .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].expect.borrowed(),
        Expect::Valid(Parts {
            kind: NetPath,
            scheme: None,
            authority: hsrv("h"),
            path: "",
            query: None,
            fragment: None,
        })
    );
    assert_eq!(
        rows[1].expect.borrowed(),
        Expect::Invalid {
            index: 0,
            kind: "missing-rel-segment"
        }
    );
    assert_eq!(rows[1].origin, "g (section 5)");
}

// ---------------------------------------------------------------------------
// Authorities, for the generated table below
// ---------------------------------------------------------------------------

const fn srv(
    text: &'static str,
    userinfo: Option<&'static str>,
    host: Option<(&'static str, HostKind)>,
    port: Option<&'static str>,
) -> Option<Auth<&'static str>> {
    Some(Auth::Server {
        text,
        userinfo,
        host,
        port,
    })
}

/// A server that is just a hostname.
const fn hsrv(host: &'static str) -> Option<Auth<&'static str>> {
    srv(host, None, hn(host), None)
}

const fn reg(text: &'static str) -> Option<Auth<&'static str>> {
    Some(Auth::RegName(text))
}

const fn hn(host: &'static str) -> Option<(&'static str, HostKind)> {
    Some((host, HostKind::Hostname))
}

const fn v4(host: &'static str) -> Option<(&'static str, HostKind)> {
    Some((host, HostKind::Ipv4))
}

const EMPTY_SERVER: Option<Auth<&'static str>> = srv("", None, None, None);

// ---------------------------------------------------------------------------
// Character classes, written from Appendix A (independently of `chars`)
// ---------------------------------------------------------------------------

const ALPHA: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT: &str = "0123456789";
const MARK: &str = "-_.!~*'()";
const RESERVED: &str = ";/?:@&=+$,";
const HEX: &str = "0123456789ABCDEFabcdef";

/// Is the token `c` a single character of `set`?
fn one_of(c: &str, set: &str) -> bool {
    let mut it = c.chars();
    matches!((it.next(), it.next()), (Some(ch), None) if set.contains(ch))
}

/// `escaped = "%" hex hex`
fn escaped(c: &str) -> bool {
    let b = c.as_bytes();
    b.len() == 3 && b[0] == b'%' && HEX.as_bytes().contains(&b[1]) && HEX.as_bytes().contains(&b[2])
}

fn alpha(c: &str) -> bool {
    one_of(c, ALPHA)
}

fn digit(c: &str) -> bool {
    one_of(c, DIGIT)
}

fn alphanum(c: &str) -> bool {
    alpha(c) || digit(c)
}

/// `unreserved = alphanum | mark`
fn unreserved(c: &str) -> bool {
    alphanum(c) || one_of(c, MARK)
}

/// `uric = reserved | unreserved | escaped`
fn uric(c: &str) -> bool {
    one_of(c, RESERVED) || unreserved(c) || escaped(c)
}

/// `uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","`
fn uric_no_slash(c: &str) -> bool {
    unreserved(c) || escaped(c) || one_of(c, ";?:@&=+$,")
}

/// `pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","`
fn pchar(c: &str) -> bool {
    unreserved(c) || escaped(c) || one_of(c, ":@&=+$,")
}

/// What `path_segments` allows between two delimiters: pchar, ";" and "/".
fn path_segments(c: &str) -> bool {
    pchar(c) || one_of(c, ";/")
}

/// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
fn rel_segment(c: &str) -> bool {
    unreserved(c) || escaped(c) || one_of(c, ";@&=+$,")
}

/// `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )`
fn reg_name(c: &str) -> bool {
    unreserved(c) || escaped(c) || one_of(c, "$,;:@&=+")
}

/// `userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )`
fn userinfo(c: &str) -> bool {
    unreserved(c) || escaped(c) || one_of(c, ";:&=+$,")
}

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`, after the first.
fn scheme_later(c: &str) -> bool {
    alphanum(c) || one_of(c, "+-.")
}

/// The public tables of `chars` agree with the sets above, byte for byte
/// (with `%` standing for `escaped`).
#[test]
fn public_char_tables_match_appendix_a() {
    type Pred = fn(&str) -> bool;
    let pairs: [(&str, chars::CharClass, Pred); 16] = [
        ("LOWALPHA", chars::LOWALPHA, |c| one_of(c, &ALPHA[..26])),
        ("UPALPHA", chars::UPALPHA, |c| one_of(c, &ALPHA[26..])),
        ("ALPHA", chars::ALPHA, alpha),
        ("DIGIT", chars::DIGIT, digit),
        ("ALPHANUM", chars::ALPHANUM, alphanum),
        ("MARK", chars::MARK, |c| one_of(c, MARK)),
        ("ESCAPED", chars::ESCAPED, escaped),
        ("UNRESERVED", chars::UNRESERVED, unreserved),
        ("RESERVED", chars::RESERVED, |c| one_of(c, RESERVED)),
        ("URIC", chars::URIC, uric),
        ("URIC_NO_SLASH", chars::URIC_NO_SLASH, uric_no_slash),
        ("PCHAR", chars::PCHAR, pchar),
        ("PATH_SEGMENTS", chars::PATH_SEGMENTS, path_segments),
        ("REL_SEGMENT", chars::REL_SEGMENT, rel_segment),
        ("REG_NAME", chars::REG_NAME, reg_name),
        ("USERINFO", chars::USERINFO, userinfo),
    ];
    for (name, table, pred) in pairs {
        for b in 0u8..=0xff {
            let token = if b == b'%' {
                "%41".to_string()
            } else if b.is_ascii() {
                char::from(b).to_string()
            } else {
                // Not a one-byte token: no rule may contain it.
                "\u{e9}".to_string()
            };
            let want = b.is_ascii() && pred(&token);
            assert_eq!(table.contains(b), want, "{name} and byte {b:#04x}");
        }
    }
    for b in 0u8..=0xff {
        let want = b.is_ascii() && scheme_later(&char::from(b).to_string());
        assert_eq!(chars::SCHEME.contains(b), want, "SCHEME and byte {b:#04x}");
        let label = b.is_ascii() && (alphanum(&char::from(b).to_string()) || b == b'-');
        assert_eq!(
            chars::LABEL_INTERIOR.contains(b),
            label,
            "LABEL_INTERIOR {b:#04x}"
        );
        let excluded = b < 0x20 || b == 0x7f;
        assert_eq!(chars::is_control(b), excluded, "is_control {b:#04x}");
        assert_eq!(
            chars::UNWISE.contains(b),
            b"{}|\\^[]`".contains(&b),
            "UNWISE {b:#04x}"
        );
        assert_eq!(
            chars::DELIMS.contains(b),
            b"<>#%\"".contains(&b),
            "DELIMS {b:#04x}"
        );
    }
}

// ---------------------------------------------------------------------------
// Every class in every position
// ---------------------------------------------------------------------------

/// How a sample character relates to the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Part of `uric` (alpha, digit, mark, reserved, escaped): the position's
    /// rule decides.
    Uric,
    /// `#`: the fragment delimiter, misplaced unless it starts the fragment.
    Hash,
    /// `%` not followed by two hex digits.
    BadEscape,
    /// Never allowed anywhere; the error kind id.
    Excluded(&'static str),
}

#[derive(Clone, Debug)]
struct Sample {
    text: String,
    class: Class,
    /// Put the sample at the very end of the input (the suffix is dropped).
    at_end: bool,
}

fn samples() -> Vec<Sample> {
    let mut out = Vec::new();
    let mut push = |text: &str, class: Class, at_end: bool| {
        out.push(Sample {
            text: text.to_string(),
            class,
            at_end,
        });
    };
    for c in ["a", "Z", "0", "9", "%41", "%7e"] {
        push(c, Class::Uric, false);
    }
    for c in MARK.chars().chain(RESERVED.chars()) {
        push(&c.to_string(), Class::Uric, false);
    }
    push("#", Class::Hash, false);
    // "%4" is followed by a template character that is never a hex digit.
    for c in ["%zz", "%4", "%g0", "%0g"] {
        push(c, Class::BadEscape, false);
    }
    push("%", Class::BadEscape, true);
    push("%4", Class::BadEscape, true);
    for b in (0u8..0x20).chain([0x7f]) {
        push(
            &char::from(b).to_string(),
            Class::Excluded("control"),
            false,
        );
    }
    push(" ", Class::Excluded("space"), false);
    for c in ["<", ">", "\""] {
        push(c, Class::Excluded("delims"), false);
    }
    for c in "{}|\\^[]`".chars() {
        push(&c.to_string(), Class::Excluded("unwise"), false);
    }
    for c in ["é", "日", "😀"] {
        push(c, Class::Excluded("non-ascii"), false);
    }
    out
}

type Out = Option<Expect<String>>;

fn valid(p: Parts<&str>) -> Out {
    Some(Expect::Valid(p.map(str::to_string)))
}

fn invalid(index: usize, kind: &'static str) -> Out {
    Some(Expect::Invalid { index, kind })
}

fn parts<'a>(
    kind: RefKind,
    scheme: Option<&'a str>,
    authority: Option<Auth<&'a str>>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
) -> Parts<&'a str> {
    Parts {
        kind,
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// A position that is not inside an authority: `prefix{c}suffix`.
/// `rule` gives the expectation for a `uric` sample (or for `#` when the
/// position overrides the default), `None` when it has no answer.
struct Position {
    name: &'static str,
    prefix: &'static str,
    suffix: &'static str,
    rule: fn(&str) -> Out,
}

const H: Option<Auth<&str>> = hsrv("h");

const POSITIONS: &[Position] = &[
    Position {
        name: "scheme, first character",
        prefix: "",
        suffix: "ttp://h/p?q#g",
        rule: |c| {
            let scheme = format!("{c}ttp");
            let colon = c.len() + 3;
            if alpha(c) {
                valid(parts(Hier, Some(&scheme), H, "/p", Some("q"), Some("g")))
            } else if c == "/" {
                valid(parts(
                    AbsPath,
                    None,
                    None,
                    "/ttp://h/p",
                    Some("q"),
                    Some("g"),
                ))
            } else if c == "?" {
                invalid(0, "missing-rel-segment")
            } else if c == ":" {
                invalid(0, "colon-in-rel-segment")
            } else if rel_segment(c) {
                // Not a scheme: a relative path whose first segment has ':'.
                invalid(colon, "colon-in-rel-segment")
            } else {
                None
            }
        },
    },
    Position {
        name: "scheme, later character",
        prefix: "h",
        suffix: "tp://h/p?q#g",
        rule: |c| {
            let scheme = format!("h{c}tp");
            if scheme_later(c) {
                valid(parts(Hier, Some(&scheme), H, "/p", Some("q"), Some("g")))
            } else if c == "/" {
                valid(parts(
                    RelPath,
                    None,
                    None,
                    "h/tp://h/p",
                    Some("q"),
                    Some("g"),
                ))
            } else if c == "?" {
                valid(parts(
                    RelPath,
                    None,
                    None,
                    "h",
                    Some("tp://h/p?q"),
                    Some("g"),
                ))
            } else if c == ":" {
                valid(parts(
                    Opaque,
                    Some("h"),
                    None,
                    "tp://h/p?q",
                    None,
                    Some("g"),
                ))
            } else if rel_segment(c) {
                invalid(1 + c.len() + 2, "colon-in-rel-segment")
            } else {
                None
            }
        },
    },
    Position {
        name: "path segment",
        prefix: "http://h/p",
        suffix: "/s?q#g",
        rule: |c| {
            let path = format!("/p{c}/s");
            if path_segments(c) {
                valid(parts(Hier, Some("http"), H, &path, Some("q"), Some("g")))
            } else if c == "?" {
                valid(parts(Hier, Some("http"), H, "/p", Some("/s?q"), Some("g")))
            } else {
                None
            }
        },
    },
    Position {
        name: "param (after ';')",
        prefix: "http://h/p;",
        suffix: "x/s?q#g",
        rule: |c| {
            let path = format!("/p;{c}x/s");
            if path_segments(c) {
                valid(parts(Hier, Some("http"), H, &path, Some("q"), Some("g")))
            } else if c == "?" {
                valid(parts(
                    Hier,
                    Some("http"),
                    H,
                    "/p;",
                    Some("x/s?q"),
                    Some("g"),
                ))
            } else {
                None
            }
        },
    },
    Position {
        name: "query",
        prefix: "http://h/p?q",
        suffix: "r#g",
        rule: |c| {
            let query = format!("q{c}r");
            if uric(c) {
                valid(parts(Hier, Some("http"), H, "/p", Some(&query), Some("g")))
            } else {
                None
            }
        },
    },
    Position {
        name: "fragment",
        prefix: "http://h/p?q#g",
        suffix: "h",
        rule: |c| {
            let fragment = format!("g{c}h");
            if uric(c) {
                valid(parts(
                    Hier,
                    Some("http"),
                    H,
                    "/p",
                    Some("q"),
                    Some(&fragment),
                ))
            } else if c == "#" {
                invalid("http://h/p?q#g".len(), "delims")
            } else {
                None
            }
        },
    },
    Position {
        name: "opaque_part, first character",
        prefix: "mailto:",
        suffix: "x@y?z#g",
        rule: |c| {
            let path = format!("{c}x@y?z");
            if uric_no_slash(c) {
                valid(parts(Opaque, Some("mailto"), None, &path, None, Some("g")))
            } else if c == "/" {
                // scheme ":" abs_path: a hier_part, whose '?' starts a query.
                valid(parts(
                    Hier,
                    Some("mailto"),
                    None,
                    "/x@y",
                    Some("z"),
                    Some("g"),
                ))
            } else if c == "#" {
                invalid("mailto:".len(), "empty-opaque-part")
            } else {
                None
            }
        },
    },
    Position {
        name: "opaque_part, later character",
        prefix: "mailto:x",
        suffix: "@y?z#g",
        rule: |c| {
            let path = format!("x{c}@y?z");
            if uric(c) {
                valid(parts(Opaque, Some("mailto"), None, &path, None, Some("g")))
            } else {
                None
            }
        },
    },
    Position {
        name: "rel_segment, first character",
        prefix: "",
        suffix: "x/s?q#g",
        rule: |c| {
            let path = format!("{c}x/s");
            if rel_segment(c) {
                valid(parts(RelPath, None, None, &path, Some("q"), Some("g")))
            } else if c == ":" {
                invalid(0, "colon-in-rel-segment")
            } else if c == "/" {
                valid(parts(AbsPath, None, None, "/x/s", Some("q"), Some("g")))
            } else if c == "?" {
                invalid(0, "missing-rel-segment")
            } else {
                None
            }
        },
    },
    Position {
        name: "rel_segment, later character",
        // A leading digit keeps "9:y" from reading as a scheme.
        prefix: "9",
        suffix: "y/s?q#g",
        rule: |c| {
            let path = format!("9{c}y/s");
            if rel_segment(c) {
                valid(parts(RelPath, None, None, &path, Some("q"), Some("g")))
            } else if c == ":" {
                invalid(1, "colon-in-rel-segment")
            } else if c == "/" {
                valid(parts(RelPath, None, None, "9/y/s", Some("q"), Some("g")))
            } else if c == "?" {
                valid(parts(RelPath, None, None, "9", Some("y/s?q"), Some("g")))
            } else {
                None
            }
        },
    },
    Position {
        name: "rel_path, later segment",
        prefix: "9y/s",
        suffix: "t?q#g",
        rule: |c| {
            let path = format!("9y/s{c}t");
            if path_segments(c) {
                valid(parts(RelPath, None, None, &path, Some("q"), Some("g")))
            } else if c == "?" {
                valid(parts(RelPath, None, None, "9y/s", Some("t?q"), Some("g")))
            } else {
                None
            }
        },
    },
];

/// A position inside the authority of `http://{before}{c}{after}/p?q#g`.
///
/// A `uric` sample is, in order: a `/` or `?` that ends the authority
/// (leaving `cut`); a listed `special` outcome; `accepts(c)`, giving a server
/// from the `{c}` templates; any other `reg_name` character, which makes the
/// whole authority a `reg_name` (valid, no host).
struct AuthPosition {
    name: &'static str,
    before: &'static str,
    after: &'static str,
    accepts: fn(&str) -> bool,
    userinfo: Option<&'static str>,
    host: Option<(&'static str, HostKind)>,
    port: Option<&'static str>,
    /// The authority when it ends right before `c`.
    cut: Option<Auth<&'static str>>,
    /// Characters that reshape the server, with the resulting authority.
    special: &'static [(&'static str, Option<Auth<&'static str>>)],
}

use HostKind::{Hostname, Ipv4};

const AUTH_POSITIONS: &[AuthPosition] = &[
    AuthPosition {
        name: "userinfo",
        before: "u",
        after: "@h:8",
        accepts: userinfo,
        userinfo: Some("u{c}"),
        host: Some(("h", Hostname)),
        port: Some("8"),
        cut: hsrv("u"),
        special: &[("@", reg("u@@h:8"))],
    },
    AuthPosition {
        name: "hostname, label start",
        before: "",
        after: "k9m.org:8",
        accepts: alphanum,
        userinfo: None,
        host: Some(("{c}k9m.org", Hostname)),
        port: Some("8"),
        cut: EMPTY_SERVER,
        special: &[
            ("@", srv("@k9m.org:8", Some(""), hn("k9m.org"), Some("8"))),
            (".", reg(".k9m.org:8")),
            ("-", reg("-k9m.org:8")),
        ],
    },
    AuthPosition {
        name: "hostname, label middle",
        before: "k",
        after: "m.org:8",
        accepts: |c| alphanum(c) || c == "-",
        userinfo: None,
        host: Some(("k{c}m.org", Hostname)),
        port: Some("8"),
        cut: hsrv("k"),
        special: &[
            ("@", srv("k@m.org:8", Some("k"), hn("m.org"), Some("8"))),
            (".", srv("k.m.org:8", None, hn("k.m.org"), Some("8"))),
        ],
    },
    AuthPosition {
        name: "hostname, label end",
        before: "k9",
        after: ".org:8",
        accepts: alphanum,
        userinfo: None,
        host: Some(("k9{c}.org", Hostname)),
        port: Some("8"),
        cut: hsrv("k9"),
        special: &[("@", reg("k9@.org:8")), (".", reg("k9..org:8"))],
    },
    AuthPosition {
        name: "hostname, toplabel start",
        before: "k9m.",
        after: "rg:8",
        accepts: alpha,
        userinfo: None,
        host: Some(("k9m.{c}rg", Hostname)),
        port: Some("8"),
        cut: hsrv("k9m."),
        special: &[
            ("@", srv("k9m.@rg:8", Some("k9m."), hn("rg"), Some("8"))),
            (".", reg("k9m..rg:8")),
        ],
    },
    AuthPosition {
        name: "hostname, toplabel end",
        before: "k9m.or",
        after: ":8",
        accepts: alphanum,
        userinfo: None,
        host: Some(("k9m.or{c}", Hostname)),
        port: Some("8"),
        cut: hsrv("k9m.or"),
        special: &[
            // hostname = *( domainlabel "." ) toplabel [ "." ]
            (".", srv("k9m.or.:8", None, hn("k9m.or."), Some("8"))),
            ("@", reg("k9m.or@:8")),
        ],
    },
    AuthPosition {
        name: "IPv4address, first group",
        before: "1",
        after: ".2.3.4:8",
        accepts: digit,
        userinfo: None,
        host: Some(("1{c}.2.3.4", Ipv4)),
        port: Some("8"),
        // "1" is neither an IPv4address nor a hostname (toplabel starts with alpha).
        cut: reg("1"),
        special: &[("@", reg("1@.2.3.4:8")), (".", reg("1..2.3.4:8"))],
    },
    AuthPosition {
        name: "IPv4address, last group",
        before: "1.2.3.4",
        after: ":8",
        accepts: digit,
        userinfo: None,
        host: Some(("1.2.3.4{c}", Ipv4)),
        port: Some("8"),
        cut: srv("1.2.3.4", None, v4("1.2.3.4"), None),
        special: &[("@", reg("1.2.3.4@:8")), (".", reg("1.2.3.4.:8"))],
    },
    AuthPosition {
        name: "port",
        before: "h:8",
        after: "",
        accepts: digit,
        userinfo: None,
        host: Some(("h", Hostname)),
        port: Some("8{c}"),
        cut: srv("h:8", None, hn("h"), Some("8")),
        special: &[("@", reg("h:8@")), (".", reg("h:8."))],
    },
];

impl AuthPosition {
    fn prefix(&self) -> String {
        format!("http://{}", self.before)
    }

    fn suffix(&self) -> String {
        format!("{}/p?q#g", self.after)
    }

    fn rule(&self, c: &str) -> Out {
        let fill = |t: &str| t.replace("{c}", c);
        if c == "/" || c == "?" {
            let rest = self.after;
            return if c == "/" {
                let path = format!("/{rest}/p");
                valid(parts(
                    Hier,
                    Some("http"),
                    self.cut,
                    &path,
                    Some("q"),
                    Some("g"),
                ))
            } else {
                let query = format!("{rest}/p?q");
                valid(parts(
                    Hier,
                    Some("http"),
                    self.cut,
                    "",
                    Some(&query),
                    Some("g"),
                ))
            };
        }
        if let Some((_, auth)) = self.special.iter().find(|(s, _)| *s == c) {
            return valid(parts(Hier, Some("http"), *auth, "/p", Some("q"), Some("g")));
        }
        let text = format!("{}{c}{}", self.before, self.after);
        if (self.accepts)(c) {
            let userinfo = self.userinfo.map(fill);
            let host = self.host.map(|(h, k)| (fill(h), k));
            let port = self.port.map(fill);
            let auth = Auth::Server {
                text: text.as_str(),
                userinfo: userinfo.as_deref(),
                host: host.as_ref().map(|(h, k)| (h.as_str(), *k)),
                port: port.as_deref(),
            };
            valid(parts(
                Hier,
                Some("http"),
                Some(auth),
                "/p",
                Some("q"),
                Some("g"),
            ))
        } else if reg_name(c) {
            // Allowed in reg_name but not in a server here.
            valid(parts(
                Hier,
                Some("http"),
                Some(Auth::RegName(&text)),
                "/p",
                Some("q"),
                Some("g"),
            ))
        } else {
            None
        }
    }
}

/// One generated row: where, what, and the expectation (`None` = the
/// position's rule has no answer, a defect of this table).
struct Cell {
    position: &'static str,
    sample: Sample,
    input: String,
    expect: Out,
}

fn cell(
    position: &'static str,
    prefix: &str,
    suffix: &str,
    rule: &dyn Fn(&str) -> Out,
    sample: &Sample,
) -> Cell {
    let c = sample.text.as_str();
    let at = prefix.len();
    let input = if sample.at_end {
        format!("{prefix}{c}")
    } else {
        format!("{prefix}{c}{suffix}")
    };
    let expect = match sample.class {
        Class::Excluded(kind) => invalid(at, kind),
        Class::BadEscape => invalid(at, "invalid-escape"),
        // A misplaced '#' starts the fragment, so the template's own '#'
        // is then a second one: a `delims` error there.
        Class::Hash => rule(c).or_else(|| {
            suffix
                .find('#')
                .and_then(|i| invalid(at + c.len() + i, "delims"))
        }),
        Class::Uric => rule(c),
    };
    Cell {
        position,
        sample: sample.clone(),
        input,
        expect,
    }
}

fn generated() -> Vec<Cell> {
    let samples = samples();
    let mut cells = Vec::new();
    for pos in POSITIONS {
        for s in &samples {
            cells.push(cell(pos.name, pos.prefix, pos.suffix, &pos.rule, s));
        }
    }
    for pos in AUTH_POSITIONS {
        let rule = |c: &str| pos.rule(c);
        for s in &samples {
            cells.push(cell(pos.name, &pos.prefix(), &pos.suffix(), &rule, s));
        }
    }
    cells
}

#[test]
fn every_class_in_every_position_follows_the_rule_there() {
    let cells = generated();
    let mut failures = Vec::new();
    for cell in &cells {
        let why = match &cell.expect {
            None => "no expectation for this class here (table defect)".to_string(),
            Some(expect) => match check(&cell.input, &expect.borrowed()) {
                Ok(()) => continue,
                Err(why) => why,
            },
        };
        failures.push(format!(
            "[{}] {:?} in {:?}: {why}",
            cell.position, cell.sample.text, cell.input
        ));
    }
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n{}",
        failures.len(),
        cells.len(),
        failures.join("\n")
    );
}

#[test]
fn generated_table_covers_every_class_and_position() {
    let cells = generated();
    let samples = samples();
    assert_eq!(
        cells.len(),
        samples.len() * (POSITIONS.len() + AUTH_POSITIONS.len())
    );
    // 33 controls, space, 3 delims, 8 unwise, 3 non-ASCII.
    let excluded = samples
        .iter()
        .filter(|s| matches!(s.class, Class::Excluded(_)));
    assert_eq!(excluded.count(), 33 + 1 + 3 + 8 + 3);
    for c in MARK.chars().chain(RESERVED.chars()) {
        assert!(samples.iter().any(|s| s.text == c.to_string()), "{c}");
    }
    // Every position accepts something and rejects something.
    let names = POSITIONS
        .iter()
        .map(|p| p.name)
        .chain(AUTH_POSITIONS.iter().map(|p| p.name));
    for name in names {
        let here = || cells.iter().filter(move |c| c.position == name);
        assert!(
            here().any(|c| matches!(c.expect, Some(Expect::Valid(_)))),
            "{name}"
        );
        assert!(
            here().any(|c| matches!(c.expect, Some(Expect::Invalid { .. }))),
            "{name}"
        );
    }
    // Authority positions yield both kinds of authority.
    let reg_names = cells.iter().filter(|c| {
        matches!(
            &c.expect,
            Some(Expect::Valid(Parts {
                authority: Some(Auth::RegName(_)),
                ..
            }))
        )
    });
    assert!(reg_names.count() > 50);
}
