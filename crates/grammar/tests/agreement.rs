//! The RFC 2396 grammar against the strict parser (`crates/rfc2396`): on
//! every input of the saved corpus, the grammar accepts exactly what
//! `rfc2396::parse` accepts, and the strict parser's components are one
//! reading of the grammar (the only one where the grammar has one).
//!
//! Where the grammar is ambiguous the strict parser has made a choice the
//! RFC text does not make: those inputs are counted per kind of ambiguity
//! and printed (`cargo test -- --nocapture`), not hidden.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use grammar::rfc2396::{AuthorityKind, Components, Form, HostKind, Rfc2396};
use proptest::prelude::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every input of the saved corpus, with where it came from.
fn corpus_inputs() -> Vec<(String, String)> {
    let root = root();
    let mut out = Vec::new();
    for dir in ["corpus/parse", "corpus/differential"] {
        let mut files: Vec<_> = fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() > 100, "{dir} has {} files", files.len());
        for f in files {
            let bytes = fs::read(&f).unwrap();
            // rfc2396::parse takes a str: inputs that are not UTF-8 are
            // not inputs of it.
            if let Ok(s) = String::from_utf8(bytes) {
                out.push((
                    format!("{dir}/{}", f.file_name().unwrap().to_string_lossy()),
                    s,
                ));
            }
        }
    }
    let curated = fs::read_to_string(root.join("corpus/curated.txt")).unwrap();
    for (i, line) in curated.lines().enumerate() {
        if line.starts_with('"') {
            let s: String = serde_json::from_str(line).unwrap();
            out.push((format!("corpus/curated.txt:{}", i + 1), s));
        }
    }
    let signatures = fs::read_to_string(root.join("corpus/signatures.txt")).unwrap();
    for (i, line) in signatures.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let column = line.split('\t').nth(1).unwrap();
        let s: String = serde_json::from_str(column).unwrap();
        out.push((format!("corpus/signatures.txt:{}", i + 1), s));
    }
    let conformance =
        fs::read_to_string(root.join("crates/rfc2396/testdata/conformance.toml")).unwrap();
    let table: toml::Table = conformance.parse().unwrap();
    for group in table["group"].as_array().unwrap() {
        for row in group["rows"].as_array().unwrap() {
            let input = row["input"].as_str().unwrap();
            out.push((
                "crates/rfc2396/testdata/conformance.toml".into(),
                input.to_owned(),
            ));
        }
    }
    out
}

/// Where each rejects. The strict parser points at the `%` of a bad escape,
/// the grammar at the first byte after it that cannot be a `hex`; otherwise
/// both name the first byte no reading can take.
fn same_rejection_index(input: &str) -> Result<(), String> {
    let Err(s) = rfc2396::parse(input) else {
        return Ok(());
    };
    let Err(g) = Rfc2396::get().unwrap().parse(input) else {
        return Ok(());
    };
    let (si, gi) = (s.index(), g.index().unwrap_or(usize::MAX));
    let ok = if s.kind() == rfc2396::ErrorKind::InvalidEscape {
        (si + 1..=si + 2).contains(&gi)
    } else {
        si == gi
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{input:?}: strict at {si} ({s}); grammar at {gi} ({g})"
        ))
    }
}

/// The strict parser's answer as grammar components.
fn strict(input: &str) -> Result<Components, usize> {
    let r = rfc2396::parse(input).map_err(|e| e.index())?;
    use rfc2396::Component as C;
    let form = match r.kind() {
        rfc2396::RefKind::AbsoluteHierarchical => Form::AbsoluteHierarchical,
        rfc2396::RefKind::AbsoluteOpaque => Form::AbsoluteOpaque,
        rfc2396::RefKind::NetPath => Form::NetPath,
        rfc2396::RefKind::AbsPath => Form::AbsPath,
        rfc2396::RefKind::RelPath => Form::RelPath,
        rfc2396::RefKind::Empty => Form::Empty,
    };
    Ok(Components {
        form,
        scheme: r.span(C::Scheme),
        authority: r.span(C::Authority),
        authority_kind: r.authority_kind().map(|k| match k {
            rfc2396::AuthorityKind::Server => AuthorityKind::Server,
            rfc2396::AuthorityKind::RegName => AuthorityKind::RegName,
        }),
        userinfo: r.span(C::Userinfo),
        host: r.span(C::Host),
        host_kind: r.host_kind().map(|k| match k {
            rfc2396::HostKind::Hostname => HostKind::Hostname,
            rfc2396::HostKind::Ipv4 => HostKind::Ipv4,
        }),
        port: r.span(C::Port),
        path: r.span(C::Path).unwrap_or(0..0),
        query: r.span(C::Query),
        fragment: r.span(C::Fragment),
    })
}

/// How the two answers relate.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
enum Verdict {
    /// Both reject.
    BothReject,
    /// Both accept, with the same components; the grammar has one reading.
    Same,
    /// Both accept; the grammar is ambiguous (of this kind) and the strict
    /// parser's components are one of its readings.
    OneOfAmbiguous(&'static str),
    /// A disagreement.
    Disagree(String),
}

fn compare(input: &str) -> Verdict {
    let rfc = Rfc2396::get().unwrap();
    let strict = strict(input);
    let grammar = rfc.parse(input);
    match (strict, grammar) {
        (_, Err(e)) if !e.is_rejection() => Verdict::Disagree(format!("grammar limit: {e}")),
        (Err(_), Err(_)) => Verdict::BothReject,
        (Ok(s), Err(e)) => Verdict::Disagree(format!("strict accepts {s:?}; grammar rejects: {e}")),
        (Err(at), Ok(o)) => Verdict::Disagree(format!(
            "strict rejects at {at}; grammar accepts {:?}",
            o.components().collect::<Vec<_>>()
        )),
        (Ok(s), Ok(o)) => {
            if let Some(g) = o.unique() {
                if *g == s {
                    Verdict::Same
                } else {
                    Verdict::Disagree(format!("strict {s:?}\ngrammar {g:?}"))
                }
            } else if o.components().any(|g| *g == s) {
                Verdict::OneOfAmbiguous(o.ambiguity().map_or("unclassified", |a| a.id))
            } else {
                Verdict::Disagree(format!(
                    "strict {s:?} is none of the grammar's readings {:?}",
                    o.components().collect::<Vec<_>>()
                ))
            }
        }
    }
}

/// Disagreements found and explained. Empty: none is known.
const KNOWN: &[&str] = &[];

#[test]
fn rfc2396_grammar_accepts_exactly_what_the_strict_parser_accepts_on_the_saved_corpus() {
    let inputs = corpus_inputs();
    assert!(inputs.len() > 1000, "{} inputs", inputs.len());
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut ambiguous_examples: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for (from, input) in &inputs {
        if !seen.insert(input.clone()) {
            continue;
        }
        let v = compare(input);
        let key = match &v {
            Verdict::BothReject => match same_rejection_index(input) {
                Ok(()) => "both reject, at the same byte".to_owned(),
                Err(why) => {
                    disagreements.push(format!("{from}: rejection index {why}"));
                    "both reject, at different bytes".to_owned()
                }
            },
            Verdict::Same => "same components, one reading".to_owned(),
            Verdict::OneOfAmbiguous(kind) => {
                let e = ambiguous_examples.entry(kind).or_default();
                if e.len() < 5 {
                    e.push(format!("{input:?}"));
                }
                format!("ambiguous ({kind}); strict is one reading")
            }
            Verdict::Disagree(why) => {
                disagreements.push(format!("{from}: {input:?}\n    {why}"));
                "disagree".to_owned()
            }
        };
        *counts.entry(key).or_default() += 1;
    }
    println!(
        "{} distinct inputs of {} compared:",
        seen.len(),
        inputs.len()
    );
    for (k, n) in &counts {
        println!("  {n:6}  {k}");
    }
    for (kind, examples) in &ambiguous_examples {
        println!("  {kind}, for example: {}", examples.join(", "));
    }
    for d in &disagreements {
        println!("DISAGREE {d}");
    }
    let unknown: Vec<_> = disagreements
        .iter()
        .filter(|d| !KNOWN.iter().any(|k| d.contains(k)))
        .collect();
    assert!(
        unknown.is_empty(),
        "{} disagreements:\n{unknown:#?}",
        unknown.len()
    );
    // Only the server/reg_name ambiguity is left: section 4.3 settles the rest.
    assert!(
        ambiguous_examples
            .keys()
            .all(|k| *k == "rfc2396-3.2-server-or-reg_name"),
        "{ambiguous_examples:?}"
    );
    assert!(
        counts
            .get("same components, one reading")
            .copied()
            .unwrap_or(0)
            > 100
    );
    assert!(
        counts
            .get("both reject, at the same byte")
            .copied()
            .unwrap_or(0)
            > 100
    );
}

/// Every tenth URL of the repository's real-URL set (`benches/data/urls.txt`,
/// 38 000 URLs): real URLs are mostly servers, so this mostly checks the
/// server reading's spans.
const URL_STEP: usize = 10;

#[test]
fn rfc2396_grammar_accepts_exactly_what_the_strict_parser_accepts_on_real_urls() {
    let text = fs::read_to_string(root().join("benches/data/urls.txt")).unwrap();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for (i, url) in text.lines().enumerate().step_by(URL_STEP) {
        let key = match compare(url) {
            Verdict::BothReject => match same_rejection_index(url) {
                Ok(()) => "both reject, at the same byte".to_owned(),
                Err(why) => {
                    disagreements.push(format!("line {}: rejection index {why}", i + 1));
                    "both reject, at different bytes".to_owned()
                }
            },
            Verdict::Same => "same components, one reading".to_owned(),
            Verdict::OneOfAmbiguous(kind) => format!("ambiguous ({kind}); strict is one reading"),
            Verdict::Disagree(why) => {
                disagreements.push(format!("line {}: {url:?}\n    {why}", i + 1));
                "disagree".to_owned()
            }
        };
        *counts.entry(key).or_default() += 1;
    }
    println!("benches/data/urls.txt, every {URL_STEP}th URL:");
    for (k, n) in &counts {
        println!("  {n:6}  {k}");
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(counts.values().sum::<usize>() > 3000);
}

/// URI-ish strings: each component drawn from characters that matter to
/// RFC 2396 (delimiters, excluded characters, escapes good and bad).
fn uri_ish() -> impl Strategy<Value = String> {
    let part = |chars: &'static str, max: usize| {
        proptest::collection::vec(
            proptest::sample::select(chars.chars().collect::<Vec<_>>()),
            0..max,
        )
        .prop_map(|v| v.into_iter().collect::<String>())
    };
    let escape = prop_oneof![
        Just("%41".to_owned()),
        Just("%4".to_owned()),
        Just("%zz".to_owned()),
        Just(String::new())
    ];
    (
        proptest::option::of(part("aZ9+-.:_", 5)),
        proptest::option::of(part("aZ09.-_@:%;&=+$,[]", 12)),
        part("aZ0/;:@&=+$,.-!~*'()%?#", 12),
        escape,
        proptest::option::of(part("a/?:@%#[ ", 6)),
        proptest::option::of(part("a/?#%", 4)),
    )
        .prop_map(|(scheme, authority, path, escape, query, fragment)| {
            let mut s = String::new();
            if let Some(x) = scheme {
                s.push_str(&x);
                s.push(':');
            }
            if let Some(a) = authority {
                s.push_str("//");
                s.push_str(&a);
            }
            s.push_str(&path);
            s.push_str(&escape);
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

/// Accepted-span equality, in one function for the proptest and its
/// regression inputs.
fn same_language_and_spans(input: &str) -> Result<(), String> {
    match compare(input) {
        Verdict::Disagree(why) => Err(format!("{input:?}: {why}")),
        _ => Ok(()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn rfc2396_grammar_accepts_exactly_what_the_strict_parser_accepts_with_the_same_spans(
        input in prop_oneof![uri_ish(), "[ -~]{0,24}", "[a/:@?#%.1]{0,16}"],
    ) {
        if let Err(e) = same_language_and_spans(&input) {
            prop_assert!(false, "{}", e);
        }
        if let Err(e) = same_rejection_index(&input) {
            prop_assert!(false, "{}", e);
        }
    }
}

#[test]
fn spans_of_a_server_reading_are_the_strict_parsers() {
    // One input per production of the authority, checked by hand.
    let input = "ftp://u:p@h.example:21/a;b/c?q#f";
    let s = strict(input).unwrap();
    assert_eq!(s.userinfo, Some(6..9));
    assert_eq!(
        compare(input),
        Verdict::OneOfAmbiguous("rfc2396-3.2-server-or-reg_name")
    );
    let r: Range<usize> = s.host.unwrap();
    assert_eq!(&input[r], "h.example");
}
