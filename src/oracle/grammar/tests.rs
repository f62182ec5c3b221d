//! The grammar oracles against the parsers they stand beside, over the
//! saved corpus: `rfc3986_run` against fluent-uri, `rfc2396_run` against
//! the strict parser.

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
}
