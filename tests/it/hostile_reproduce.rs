//! Hostile input to `reproduce` (issue 29), through the built binary: each
//! case asserts the exit status, what is printed and what is left on disk.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::BIN;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// A. A NUL in the input: the C test carries every byte.

/// `\0http:\u{79b}.0t` is a live Ada defect (the bidi rule, ledger row
/// ada-bidi-rule-other-labels). A C test that passed `strlen(input)`
/// handed Ada the empty string, which it rightly refuses: `--check` said
/// the defect was fixed. The input is an array, its length `sizeof - 1`.
#[cfg(feature = "ada")]
#[test]
fn a_nul_in_the_input_is_tested_whole_and_the_live_defect_still_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    fs::write(&file, b"\0http:\xde\x9b.0t").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(BIN)
        .args(["reproduce", "--check", "--json", "--file"])
        .arg(&file)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = json_lines(&o);
    let r = lines
        .iter()
        .find(|r| r["root_cause"] == "ada-bidi-rule-other-labels")
        .unwrap_or_else(|| panic!("no Ada bidi root cause: {lines:?}"));
    let c = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["language"] == "c")
        .unwrap();
    let code = c["code"].as_str().unwrap();
    assert_eq!(c["still_fails"], true, "{code}");
    assert!(
        code.contains("static const char input[] = \"\\000http:\\336\\233.0t\";"),
        "{code}"
    );
    assert!(
        code.contains("ada_parse(input, sizeof input - 1)"),
        "{code}"
    );
    assert!(!code.contains("strlen"), "{code}");
    let js = r["tests"][0]["code"].as_str().unwrap();
    assert!(js.contains("new URL(\"\\u0000http:\u{79b}.0t\")"), "{js}");
    // The check's temporary projects are gone; the input file is as it was.
    let left: Vec<String> = names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with("uridiff-reproduce"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
    assert_eq!(names(dir.path()), ["f"]);
    assert_eq!(fs::read(&file).unwrap(), b"\0http:\xde\x9b.0t");
}
