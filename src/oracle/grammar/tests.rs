//! The grammar oracles against the parsers they stand beside, over the
//! saved corpus: `rfc3986_run` against fluent-uri, `rfc2396_run` against
//! the strict parser; and RFC 3986 section 5.4's examples through
//! `rfc3986_resolve`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::*;
use crate::diff::diff;
use crate::oracle::Verdict;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every distinct input of the saved corpus: corpus/parse and
/// corpus/differential (files that are UTF-8), corpus/curated.txt and the
/// inputs of corpus/signatures.txt (column 2), first source kept.
fn saved_inputs() -> BTreeMap<String, String> {
    let root = root();
    let mut out = BTreeMap::new();
    for dir in ["parse", "differential"] {
        let mut files: Vec<_> = fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() > 100, "corpus/{dir}: {} files", files.len());
        for f in files {
            if let Ok(s) = String::from_utf8(fs::read(&f).unwrap()) {
                let from = format!("corpus/{dir}/{}", f.file_name().unwrap().to_string_lossy());
                out.entry(s).or_insert(from);
            }
        }
    }
    let curated = fs::read_to_string(root.join("curated.txt")).unwrap();
    for (line, s) in crate::corpus::parse_curated(&curated).unwrap() {
        out.entry(s)
            .or_insert_with(|| format!("corpus/curated.txt:{line}"));
    }
    let signatures = fs::read_to_string(root.join("signatures.txt")).unwrap();
    for (i, line) in signatures.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let s: String = serde_json::from_str(line.split('\t').nth(1).unwrap()).unwrap();
        out.entry(s)
            .or_insert_with(|| format!("corpus/signatures.txt:{}", i + 1));
    }
    out
}

/// Where fluent-uri 0.4.1 departs from RFC 3986 on the saved corpus: each
/// input, and why the grammar is right.
const FLUENT_URI_DEPARTURES: &[(&str, &str)] = &[];

#[test]
fn rfc3986_grammar_agrees_with_fluent_uri_on_the_saved_corpus() {
    let inputs = saved_inputs();
    assert!(inputs.len() > 1000, "{} inputs", inputs.len());
    let mut differ = Vec::new();
    let mut accepted = 0;
    for (input, from) in &inputs {
        let fluent = crate::oracle::rfc3986::run(input);
        let grammar = rfc3986_run(input);
        // RFC 3986's grammar has no ambiguity section 3.2.2 leaves.
        assert!(grammar.notes.is_empty(), "{from}: {input:?}: {grammar:?}");
        accepted += usize::from(grammar.accepted());
        let d = diff(&fluent, &grammar);
        if !d.is_empty() {
            differ.push((
                input.as_str(),
                format!("{from}: {d:?}\n  fluent-uri {fluent:?}\n  grammar {grammar:?}"),
            ));
        }
    }
    let found: BTreeSet<&str> = differ.iter().map(|(i, _)| *i).collect();
    let known: BTreeSet<&str> = FLUENT_URI_DEPARTURES.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        found,
        known,
        "{}",
        differ
            .iter()
            .filter(|(i, _)| !known.contains(i))
            .map(|(i, why)| format!("{i:?}\n  {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!(
        "{} distinct inputs, {accepted} accepted by the RFC 3986 grammar, {} differ from fluent-uri",
        inputs.len(),
        found.len()
    );
    assert!(accepted > 500, "{accepted} of {} accepted", inputs.len());
}

#[test]
fn rfc2396_grammar_reports_as_the_strict_oracle_on_the_saved_corpus() {
    let settled = Note::GrammarAmbiguity(SERVER_OR_REG_NAME.id);
    let mut ambiguous = 0;
    for (input, from) in &saved_inputs() {
        let strict = crate::oracle::rfc2396::run(input);
        let grammar = rfc2396_run(input);
        assert!(
            diff(&strict, &grammar).is_empty(),
            "{from}: {input:?}\n  strict {strict:?}\n  grammar {grammar:?}"
        );
        assert_eq!(strict.verdict, grammar.verdict, "{from}: {input:?}");
        // The strict oracle's notes, and the convention's when it was used.
        let mut without: Vec<Note> = grammar.notes.clone();
        without.retain(|n| *n != settled);
        assert_eq!(strict.notes, without, "{from}: {input:?}");
        ambiguous += usize::from(grammar.notes.len() != without.len());
    }
    println!("{ambiguous} inputs settled by the server convention");
    assert!(
        ambiguous > 50,
        "{ambiguous} settled by the server convention"
    );
}

#[test]
fn rfc2396_server_or_reg_name_is_settled_as_server_and_noted() {
    let o = rfc2396_run("ftp://u:p@h.example:21/a;b?q#f");
    assert_eq!(o.components.get(Component::Userinfo), Some("u:p"));
    assert_eq!(o.components.get(Component::Host), Some("h.example"));
    assert_eq!(o.components.get(Component::Port), Some("21"));
    assert_eq!(o.notes, [Note::GrammarAmbiguity(SERVER_OR_REG_NAME.id)]);
    assert_eq!(
        o.notes[0].as_str(),
        "grammar-ambiguity:rfc2396-3.2-server-or-reg_name"
    );
    // `;` is a reg_name character and no server's: one reading.
    let o = rfc2396_run("//a;b/c");
    assert_eq!(o.components.get(Component::Authority), Some("a;b"));
    assert_eq!(o.components.get(Component::Host), None);
    assert_eq!(o.notes, [Note::RegNameAuthority]);
    let o = rfc2396_run("mailto:a@b?x");
    assert_eq!(o.components.get(Component::Path), Some("a@b?x"));
    assert_eq!(o.components.get(Component::Query), None);
    assert_eq!(o.notes, [Note::OpaquePart]);
    // An empty authority is a server only.
    let o = rfc2396_run("http:///p");
    assert_eq!(o.components.get(Component::Authority), Some(""));
    assert!(o.notes.is_empty());
    assert_eq!(rfc2396_run("http://[::1]/").verdict, Verdict::Reject);
}

#[test]
fn grammar_ambiguity_notes_read_grammar_ambiguity_and_the_id() {
    for id in [
        SERVER_OR_REG_NAME.id,
        super::RFC2396_UNCLASSIFIED,
        super::RFC3986_UNCLASSIFIED,
    ] {
        assert_eq!(
            Note::GrammarAmbiguity(id).as_str(),
            format!("grammar-ambiguity:{id}")
        );
    }
}

#[test]
fn rfc3986_run_keeps_absent_apart_from_empty_and_says_where_it_rejects() {
    let o = rfc3986_run("foo://@[v7.x]:/?#");
    assert_eq!(o.verdict, Verdict::Accept);
    let c = &o.components;
    assert_eq!(c.get(Component::Scheme), Some("foo"));
    assert_eq!(c.get(Component::Authority), Some("@[v7.x]:"));
    assert_eq!(c.get(Component::Userinfo), Some(""));
    assert_eq!(c.get(Component::Host), Some("[v7.x]"));
    assert_eq!(c.get(Component::Port), Some(""));
    assert_eq!(c.get(Component::Path), Some("/"));
    assert_eq!(c.get(Component::Query), Some(""));
    assert_eq!(c.get(Component::Fragment), Some(""));
    assert!(c.all_borrowed());
    let o = rfc3986_run("a");
    let c = &o.components;
    assert_eq!(c.get(Component::Authority), None);
    assert_eq!(c.get(Component::Host), None);
    assert_eq!(c.get(Component::Path), Some("a"));
    assert_eq!(c.get(Component::Query), None);
    let o = rfc3986_run("http://a b/");
    assert_eq!(o.verdict, Verdict::Reject);
    let message = o.message.unwrap();
    assert!(
        message.starts_with("byte 8 (%x20) is not allowed here"),
        "{message}"
    );
}

#[test]
fn inputs_beyond_the_grammar_limits_are_refused_with_the_limit() {
    let long = format!("http://a/{}", "b".repeat(20_000));
    for o in [rfc3986_run(&long), rfc2396_run(&long)] {
        assert_eq!(o.verdict, Verdict::Reject);
        let message = o.message.unwrap();
        assert!(message.contains("limits"), "{message}");
    }
    let o = rfc3986_resolve(&long, "g");
    assert!(o.message.unwrap().starts_with("the base is beyond"));
}

// ---------------------------------------------------------------------------
// Section 5.2
// ---------------------------------------------------------------------------

/// Section 5.3 on an outcome's components.
fn recompose(o: &Outcome<'_>) -> String {
    let c = &o.components;
    let mut s = String::new();
    if let Some(x) = c.get(Component::Scheme) {
        s.push_str(x);
        s.push(':');
    }
    if let Some(x) = c.get(Component::Authority) {
        s.push_str("//");
        s.push_str(x);
    }
    s.push_str(c.get(Component::Path).unwrap());
    if let Some(x) = c.get(Component::Query) {
        s.push('?');
        s.push_str(x);
    }
    if let Some(x) = c.get(Component::Fragment) {
        s.push('#');
        s.push_str(x);
    }
    s
}

use ::grammar::rfc3986::{ABNORMAL_EXAMPLES, EXAMPLES_BASE as BASE, NORMAL_EXAMPLES};

/// Section 5.4.1's normal examples, then 5.4.2's abnormal ones.
fn examples() -> impl Iterator<Item = (&'static str, &'static str)> {
    NORMAL_EXAMPLES.into_iter().chain(ABNORMAL_EXAMPLES)
}

#[test]
fn section_5_4_examples_resolve_to_the_rfc_targets() {
    for (reference, expected) in examples() {
        let o = rfc3986_resolve(BASE, reference);
        assert_eq!(o.verdict, Verdict::Accept, "{reference}: {o:?}");
        assert_eq!(recompose(&o), expected, "{reference}");
        // The target's own reading gives the same components: none of
        // these targets is one 5.3 recomposes wrongly.
        assert!(
            diff(&o, &rfc3986_run(expected)).is_empty(),
            "{reference}: {o:?}"
        );
        // Without dot-segments or escapes in the base, normalising it
        // changes nothing.
        assert_eq!(o, rfc3986_resolve_normalized_base(BASE, reference));
        assert!(
            o.components.get(Component::Host).is_some()
                == o.components.get(Component::Authority).is_some()
        );
    }
    let o = rfc3986_resolve(BASE, "//g");
    assert_eq!(o.components.get(Component::Host), Some("g"));
    let o = rfc3986_resolve("http://u@a:8/b", "g");
    assert_eq!(o.components.get(Component::Userinfo), Some("u"));
    assert_eq!(o.components.get(Component::Port), Some("8"));
    assert!(!o.components.all_borrowed());
}

#[test]
fn target_components_are_not_read_back_from_the_recomposition() {
    // T has no authority and the path `//`: 5.3 would write `foo://`,
    // whose reading has an empty authority.
    let o = rfc3986_resolve("foo:/a/b", "..//");
    assert_eq!(o.verdict, Verdict::Accept);
    let c = &o.components;
    assert_eq!(c.get(Component::Scheme), Some("foo"));
    assert_eq!(c.get(Component::Authority), None);
    assert_eq!(c.get(Component::Host), None);
    assert_eq!(c.get(Component::Path), Some("//"));
    let t = rfc3986_transform_parts("foo:/a/b", "..//").unwrap();
    assert_eq!((t.authority, t.path.as_str()), (None, "//"));
}

#[test]
fn normalising_the_base_removes_its_dot_segments_and_decodes_unreserved() {
    let strict = rfc3986_resolve("h:/.", "");
    assert_eq!(strict.components.get(Component::Path), Some("/."));
    let normal = rfc3986_resolve_normalized_base("h:/.", "");
    assert_eq!(normal.components.get(Component::Path), Some("/"));
    // 6.2.2.2 before 6.2.2.3: `%2E%2E` is `..`.
    let base = "http://%61@a/b/%2E%2E/c%2f/d";
    let strict = rfc3986_resolve(base, "g");
    assert_eq!(
        strict.components.get(Component::Path),
        Some("/b/%2E%2E/c%2f/g")
    );
    assert_eq!(strict.components.get(Component::Userinfo), Some("%61"));
    let normal = rfc3986_resolve_normalized_base(base, "g");
    assert_eq!(normal.components.get(Component::Path), Some("/c%2f/g"));
    assert_eq!(normal.components.get(Component::Authority), Some("a@a"));
    assert_eq!(normal.components.get(Component::Userinfo), Some("a"));
    // The base's path, normalised to `//a`, stays a path.
    let normal = rfc3986_resolve_normalized_base("foo:/.//a", "?q");
    assert_eq!(normal.components.get(Component::Authority), None);
    assert_eq!(normal.components.get(Component::Path), Some("//a"));
    // A base that is no URI as written stays refused.
    assert_eq!(
        rfc3986_resolve_normalized_base("h%41:/", "g").verdict,
        Verdict::Reject
    );
}

#[test]
fn decode_unreserved_decodes_only_unreserved_triplets() {
    assert_eq!(decode_unreserved("a%2Eb%2e%7E%41%30"), "a.b.~A0");
    assert_eq!(
        decode_unreserved("%2F%25%20%4%+1%zz%"),
        "%2F%25%20%4%+1%zz%"
    );
    assert_eq!(decode_unreserved("é%2Dé"), "é-é");
    assert!(matches!(decode_unreserved("/a/b"), Cow::Borrowed("/a/b")));
}

#[test]
fn refusals_name_the_base_or_the_reference() {
    let o = rfc3986_resolve("/a/b", "g");
    assert_eq!(o.verdict, Verdict::Reject);
    assert!(o.message.unwrap().contains("the base has no scheme"));
    let o = rfc3986_resolve("http://a b/", "g");
    assert!(
        o.message
            .unwrap()
            .starts_with("the base is not a URI-reference: byte 8")
    );
    let o = rfc3986_resolve("http://a/", "g h");
    assert!(
        o.message
            .unwrap()
            .starts_with("the reference is not a URI-reference: byte 1")
    );
    assert_eq!(
        rfc3986_transform_parts("http://a/", "%").unwrap_err(),
        "the reference is not a URI-reference: the input ends too early, at 1; \
         expected \"0\"-\"9\" / \"A\"-\"F\" / \"a\"-\"f\" (in `pct-encoded`)"
    );
}

/// The one-pass reading answers the engine's outcome wherever it answers,
/// over the saved corpus, the benchmark's URLs and texts at its edges; and
/// it answers for most real URLs (it is the fast path of `rfc3986-grammar`).
#[test]
fn the_linear_reading_is_the_engines_wherever_it_answers() {
    let urls =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/urls.txt"))
            .unwrap();
    let edges = [
        "",
        "a",
        ":",
        ":a",
        "1a:b",
        "a:",
        "a:/",
        "a://",
        "//",
        "///",
        "/",
        "//@",
        "//u@h:",
        "//h:80",
        "//h:8a",
        "//a@b@c",
        "//u:p@h",
        "http://1.2.3.4:0/",
        "http://256.1.1.1/",
        "a/b:c",
        "a:b/c",
        "./a:b",
        "?",
        "#",
        "?#",
        "#?#",
        "a?b?c#d/e?",
        "%",
        "%4",
        "%41",
        "%4g",
        "s://h/%zz",
        "s://h:1:2",
        "s://[::1]/",
        "s://h/ a",
        "s://h/\u{e9}",
        "a+.-1:x",
        "HTTP://H/P",
        "s:/a//b",
        "s:a//b",
        "/a//b",
        "//h?q",
        "//h#f",
        "s://h\\p",
    ];
    let check = |input: &str| -> bool {
        let Some(components) = linear::read(input) else {
            return false;
        };
        assert_eq!(
            Outcome::accept(components),
            rfc3986_engine(input),
            "{input:?}"
        );
        true
    };
    let saved = saved_inputs();
    let answered = saved.keys().filter(|s| check(s)).count();
    edges.iter().for_each(|s| {
        check(s);
    });
    let url_count = urls.lines().count();
    let url_answered = urls.lines().filter(|s| check(s)).count();
    assert!(answered > 300, "{answered} of the saved inputs answered");
    assert!(
        url_answered * 2 > url_count,
        "{url_answered} of {url_count} URLs"
    );
    for refused in [
        "s://[::1]/",
        "%4g",
        "//a@b@c",
        "s://h:1:2",
        ":a",
        "1a:b",
        "s://h/ a",
    ] {
        assert!(linear::read(refused).is_none(), "{refused:?}");
    }
}
