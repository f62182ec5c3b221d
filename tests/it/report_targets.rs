//! `uridiff report --target NAME` reads any fuzz target's corpus files in
//! that target's own format.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::process::Command;

fn uridiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_uridiff"))
}

fn corpus(target: &str) -> std::path::PathBuf {
    crate::util::root().join("corpus").join(target)
}

fn jsonl_report(target: &str) -> Vec<serde_json::Value> {
    let out = uridiff()
        .args(["report", "--model", "--format", "jsonl", "--target", target])
        .arg(corpus(target))
        .output()
        .unwrap();
    // 1 is an unexplained finding: the pure-Rust build lacks ada, the
    // peer that explains some of url's departures. Reading is what counts.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{target}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_resolve_differential_corpus_is_reported_as_pairs_every_file_checked() {
    let files = std::fs::read_dir(corpus("resolve-differential"))
        .unwrap()
        .count();
    let lines = jsonl_report("resolve-differential");
    let summary = &lines[0]["summary"];
    assert_eq!(summary["inputs"], files);
    let cases: Vec<_> = lines
        .iter()
        .filter(|l| l.get("outcomes").is_some())
        .collect();
    assert!(!cases.is_empty());
    // Every case is a resolution: it names its base and rfc2396's result.
    assert!(
        cases.iter().all(|c| c["base"].is_string()),
        "a case without its base"
    );
}

#[test]
fn curl_url_corpus_files_with_a_nul_are_a_base_and_a_reference() {
    let lines = jsonl_report("curl_url");
    let cases: Vec<_> = lines
        .iter()
        .filter(|l| l.get("outcomes").is_some())
        .collect();
    assert!(cases.iter().any(|c| c["base"].is_string()));
    assert!(cases.iter().any(|c| c.get("base").is_none()));
}

#[test]
fn an_unknown_target_is_a_usage_error_naming_the_targets() {
    let out = uridiff()
        .args(["report", "--model", "--target", "nope", "corpus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resolve-differential"), "{err}");
}
