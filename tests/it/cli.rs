//! End-to-end tests of the `uridiff` binary: outputs, exit codes, bad input.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{uridiff, uridiff_stdin};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn parse_json(input: &str) -> Value {
    let o = uridiff(&["parse", "--json", "--", input]);
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

#[test]
fn parse_json_has_exactly_the_documented_keys_in_order() {
    let o = uridiff(&["parse", "--json", "--", "ftp://@host.com/"]);
    let text = stdout(&o);
    let keys: Vec<String> = serde_json::from_str::<serde_json::Map<String, Value>>(text.trim())
        .unwrap()
        .keys()
        .cloned()
        .collect();
    // serde_json's Map is sorted; check the set, then the order in the text.
    let expected = [
        "input",
        "valid",
        "kind",
        "scheme",
        "authority",
        "authority_kind",
        "userinfo",
        "host",
        "host_kind",
        "port",
        "path",
        "query",
        "fragment",
        "error",
    ];
    let mut sorted = expected.to_vec();
    sorted.sort_unstable();
    assert_eq!(keys, sorted);
    let positions: Vec<usize> = expected
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn parse_json_shows_the_grammar_decisions() {
    let v = parse_json("ftp://@host.com/");
    assert_eq!(
        (
            v["valid"].as_bool(),
            v["userinfo"].as_str(),
            v["host"].as_str()
        ),
        (Some(true), Some(""), Some("host.com"))
    );
    assert!(parse_json("ftp://host.com/")["userinfo"].is_null());
    assert_eq!(parse_json("ftp://foo:@host.com/")["userinfo"], "foo:");
    let v = parse_json("http://[::1]/");
    assert_eq!(
        (v["valid"].as_bool(), v["error"]["index"].as_u64()),
        (Some(false), Some(7))
    );
    assert_eq!(v["error"]["kind"], "unwise");
    assert!(v["host"].is_null() && v["path"].is_null());
    assert_eq!(parse_json("http://h:/")["port"], "");
    assert_eq!(parse_json("http://h:99999/")["port"], "99999");
    for input in ["foo://a_b.example/", "http://1.2.3.4.5/"] {
        let v = parse_json(input);
        assert_eq!(v["authority_kind"], "reg_name", "{input}");
        assert!(
            v["host"].is_null() && v["userinfo"].is_null() && v["port"].is_null(),
            "{input}"
        );
    }
    assert_eq!(parse_json("http://999.1.1.1/")["host_kind"], "ipv4");
    let v = parse_json("mailto:a@b?x");
    assert_eq!(
        (v["kind"].as_str(), v["path"].as_str()),
        (Some("absolute"), Some("a@b?x"))
    );
    assert!(v["query"].is_null());
    assert_eq!(parse_json("http:")["valid"], false);
    assert_eq!(parse_json("?y")["valid"], false);
    for input in ["", "#f"] {
        let v = parse_json(input);
        assert_eq!(v["valid"], true, "{input}");
        assert!(v["kind"].is_null(), "{input}");
    }
    let v = parse_json("//");
    assert_eq!(
        (
            v["kind"].as_str(),
            v["authority"].as_str(),
            v["authority_kind"].as_str()
        ),
        (Some("relative"), Some(""), Some("server"))
    );
    assert!(v["host"].is_null());
    let v = parse_json("http://h/%zz");
    assert_eq!(
        (v["valid"].as_bool(), v["error"]["index"].as_u64()),
        (Some(false), Some(9))
    );
}

#[test]
fn parse_exit_status_is_0_all_valid_1_any_invalid_2_usage() {
    assert_eq!(uridiff(&["parse", "http://a/", "g"]).status.code(), Some(0));
    assert_eq!(
        uridiff(&["parse", "http://a/", "http://[::1]/"])
            .status
            .code(),
        Some(1)
    );
    let o = uridiff(&["parse", "--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--no-such-flag"), "{}", stderr(&o));
}

#[test]
fn parse_reads_stdin_lines_and_reports_non_utf8_lines() {
    let o = uridiff_stdin(&["parse", "--json"], b"http://a/\r\ng h\n");
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["input"], "http://a/");
    assert_eq!(lines[1]["error"]["index"], 1);
    let o = uridiff_stdin(&["parse"], b"http://a/\n\xff\xfe\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("http://a/"),
        "valid lines are still shown"
    );
}

#[test]
fn parse_inputs_starting_with_a_dash_follow_double_dash() {
    let o = uridiff(&["parse", "--json", "--", "-a"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"path\":\"-a\""));
}

#[test]
fn parse_view_puts_a_caret_under_the_error() {
    let o = uridiff(&["parse", "http://[::1]/"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    // Line 0 is the quoted input, line 1 the caret: column 7 + 1 for the quote.
    assert_eq!(lines[1].find('^'), Some(8), "{text}");
    assert!(text.contains("unwise character '[' at byte 7"), "{text}");
}

#[test]
fn resolve_prints_the_result_or_exits_1_on_an_invalid_base_or_reference() {
    let o = uridiff(&["resolve", "http://a/b/c/d;p?q", "../g"]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "http://a/b/g\n")
    );
    // The inputs answer what was asked, as for `parse`: exit 1, the reason
    // on standard error once, nothing on standard output.
    let o = uridiff(&["resolve", "http://[::1]/", "g"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("invalid base URI"), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("uridiff: cannot resolve"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let o = uridiff(&["resolve", "http://a/", "g h"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("invalid reference"), "{}", stderr(&o));
    // A relative base is no base: the inputs again.
    assert_eq!(uridiff(&["resolve", "a/b", "g"]).status.code(), Some(1));
    // Usage errors stay 2.
    assert_eq!(uridiff(&["resolve", "http://a/"]).status.code(), Some(2));
}

#[test]
fn errors_are_printed_once_with_the_program_name() {
    let o = uridiff(&["minimize", "--file", "/nonexistent/uridiff-input"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "uridiff: cannot read the input file /nonexistent/uridiff-input: No such file or directory (os error 2)\n"
    );
    let o = uridiff(&["check", "--oracle", "no-such-oracle", "http://h/"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("uridiff: unknown oracle 'no-such-oracle'"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

/// The fuzz crate's targets: the `name = "..."` of each `[[bin]]` in
/// fuzz/Cargo.toml, sorted.
fn fuzz_crate_bins() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/Cargo.toml")).unwrap();
    let mut bins = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let (true, Some(name)) = (in_bin, line.strip_prefix("name = ")) {
            bins.push(name.trim_matches('"').to_owned());
        }
    }
    bins.sort();
    bins
}

#[test]
fn targets_lists_the_fuzz_targets_the_fuzz_crate_builds() {
    let o = uridiff(&["targets"]);
    assert_eq!(o.status.code(), Some(0));
    let listed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    // Every target has its source file and its binary in the fuzz crate,
    // and the crate has no other.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/fuzz_targets");
    let mut sources: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".rs").map(str::to_owned))
        .collect();
    sources.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, sources, "uridiff targets vs fuzz/fuzz_targets/");
    assert_eq!(
        sorted,
        fuzz_crate_bins(),
        "uridiff targets vs fuzz/Cargo.toml"
    );
}

/// `targets --format tsv` is what the scripts read: the same targets as
/// `targets`, and each `report` mode holds for the target's saved corpus
/// (`file`: `report` checks a corpus file as the one input it holds;
/// `structured`: `report --structured` checks the URI the model renders).
#[test]
fn targets_tsv_says_how_report_reads_each_corpus() {
    let names = stdout(&uridiff(&["targets"]));
    let o = uridiff(&["targets", "--format", "tsv"]);
    assert_eq!(o.status.code(), Some(0));
    let tsv = stdout(&o);
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("target\tformat\treport"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let tsv_names: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(tsv_names, names.lines().collect::<Vec<_>>());
    let mut checked = 0;
    for row in &rows {
        let [target, format, report] = row.as_slice() else {
            panic!("three columns: {row:?}")
        };
        let parsed: uridiff::fuzzing::FuzzTarget = target.parse().unwrap();
        assert_eq!(*format, parsed.format().as_str());
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpus")
            .join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let Some(file) = files.first() else {
            panic!("{} is empty", dir.display())
        };
        let bytes = std::fs::read(file).unwrap();
        let (args, expected) = match *report {
            "file" => (vec![], String::from_utf8(bytes).unwrap()),
            "target" => {
                let decoded = uridiff::corpus::decode(parsed.format(), bytes).unwrap();
                (vec!["--target", *target], decoded.input)
            }
            other => panic!("{target}: unknown report mode {other}"),
        };
        let mut argv = vec!["report", "--model", "--format", "jsonl"];
        argv.extend(args);
        argv.push(file.to_str().unwrap());
        let o = uridiff(&argv);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{target}: {}",
            stderr(&o)
        );
        let summary: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
        assert_eq!(summary["summary"]["inputs"], 1, "{target}: {summary}");
        assert_eq!(summary["not_checked"], 0, "{target}: {summary}");
        let examples: Vec<&str> = summary["signatures"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["examples"].as_array().unwrap())
            .map(|e| e["input"].as_str().unwrap())
            .collect();
        assert!(
            examples.iter().all(|i| *i == expected),
            "{target}: {examples:?} vs {expected:?}"
        );
        checked += 1;
    }
    assert_eq!(
        checked,
        rows.len(),
        "every target's corpus is readable by report"
    );
}

/// The scripts take the target list from the binary: scripts/lib.sh's
/// `load_targets` reads `targets --format tsv` into `FUZZ_TARGETS`, and
/// `target_field` finds a column by its header name.
#[test]
fn scripts_read_the_targets_from_the_binary() {
    let o = Command::new("bash")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-c",
            r#". scripts/lib.sh && load_targets "$1" && echo "${FUZZ_TARGETS[*]}" && target_field structured report && target_field differential format && ! target_field nope format && ! is_target nope"#,
            "bash",
            env!("CARGO_BIN_EXE_uridiff"),
        ])
        .output()
        .expect("run bash");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names = stdout(&uridiff(&["targets"]))
        .lines()
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(stdout(&o), format!("{names}\ntarget\nreference\n"));
}

/// Each target's own libFuzzer settings, in ClusterFuzzLite's `.options`
/// form and as flags for `scripts/fuzz.sh`: edges without hit counts for
/// the targets that run `check()` on every input (FUZZING.md), libFuzzer's
/// defaults for the others.
#[test]
fn the_differential_targets_count_edges_not_hit_counts() {
    let o = Command::new("bash")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-c",
            r#". scripts/lib.sh && for t in differential structured resolve-differential parse resolve; do echo "$t [$(target_libfuzzer_flags "$t")] [$(target_libfuzzer_options "$t")]"; done"#,
        ])
        .output()
        .expect("run bash");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "differential [-use_counters=0 ] [use_counters = 0]\n\
         structured [-use_counters=0 ] [use_counters = 0]\n\
         resolve-differential [-use_counters=0 ] [use_counters = 0]\n\
         parse [] []\n\
         resolve [] []\n"
    );
}

#[test]
fn corpus_add_writes_each_target_in_its_format() {
    let dir = tempfile::tempdir().unwrap();
    // A saved corpus: `corpus add` writes into nothing else.
    std::fs::write(dir.path().join("curated.txt"), "").unwrap();
    let root = dir.path().to_str().unwrap();
    for target in ["resolve", "resolve-differential"] {
        let o = uridiff(&[
            "corpus",
            "add",
            "--root",
            root,
            target,
            "http://a/b",
            "../g",
        ]);
        assert_eq!(o.status.code(), Some(0), "{target}: {}", stderr(&o));
        let file = stdout(&o).trim().to_owned();
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            uridiff::fuzzing::decode_resolve_pair(&bytes),
            Some(("http://a/b", "../g")),
            "{target}"
        );
        let o = uridiff(&["corpus", "add", "--root", root, target, "http://a/b"]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            format!("uridiff: {target} inputs come in BASE REFERENCE pairs\n")
        );
    }
    let o = uridiff(&["corpus", "add", "--root", root, "curl_url", "http://h/"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(stdout(&o).trim()).unwrap(), b"http://h/");
    // A structured input is a model: no string turns back into one.
    let o = uridiff(&["corpus", "add", "--root", root, "structured", "http://h/"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!dir.path().join("structured").exists());
}

#[test]
fn check_json_has_outcomes_per_oracle_and_findings() {
    let o = uridiff(&["check", "--json", "--", "http://a_b.example/"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["input"], "http://a_b.example/");
    for id in ["rfc2396", "appendix-b", "url", "http", "rfc3986"] {
        assert!(v["outcomes"][id]["verdict"].is_string(), "{id}");
    }
    assert!(v["outcomes"]["rfc2396"]["host"].is_null());
    assert_eq!(v["outcomes"]["url"]["host"], "a_b.example");
    let f = &v["findings"][0];
    assert_eq!(
        (f["class"].as_str(), f["severity"].as_str()),
        (Some("reg-name-authority"), Some("high"))
    );
    assert_eq!(f["fields"][0], "host");
    assert!(f["effect"].as_str().unwrap().contains("different hosts"));
}

#[test]
fn check_table_marks_differing_cells() {
    let o = uridiff(&["check", "HTTP://EXAMPLE.COM/"]);
    let text = stdout(&o);
    assert!(text.contains("\"example.com\" *"), "{text}");
    assert!(text.contains("case-normalized"), "{text}");
}

fn corpus(dir: &Path, files: &[(&str, &[u8])]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

#[test]
fn report_over_a_corpus_counts_non_utf8_and_writes_atomically() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    corpus(
        &dir,
        &[
            ("a", b"http://a_b.example/"),
            ("b", b"http://h/a#b"),
            ("c", b"\xff\xfeok"),
            ("d", b"http://a_b.example/"),
        ],
    );
    let out = tmp.path().join("report.md");
    let o = uridiff(&[
        "report",
        "--model",
        "--out",
        out.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("4 inputs (2 distinct)"),
        "{}",
        stdout(&o)
    );
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(
        md.contains("| not UTF-8 (listed below, not checked) | 1 |"),
        "{md}"
    );
    assert!(md.contains("not UTF-8"));
    assert!(md.contains("`reg-name-authority/spec/url/host`"), "{md}");
    assert!(md.contains("None: every disagreement has a class."), "{md}");
    // No temporary file is left beside the report.
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // The report is an ordinary readable file, not the temporary file's 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{mode:o}");
    }
}

#[test]
fn report_formats_are_jsonl_and_self_contained_html() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("urls.txt");
    std::fs::write(&file, "http://h/a#b\nHTTP://X/\n").unwrap();
    let o = uridiff(&[
        "report",
        "--model",
        "--lines",
        "--format",
        "jsonl",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["summary"]["inputs"], 2);
    assert_eq!(lines.len(), 3);
    assert!(
        lines[1]["source"].as_str().unwrap().ends_with("urls.txt:1"),
        "in the order read"
    );
    // The objects of `check --json`, with their source.
    assert_eq!(lines[1]["input"], "http://h/a#b");
    assert!(lines[1]["findings"][0]["basis"].is_string(), "{}", lines[1]);
    let o = uridiff(&[
        "report",
        "--model",
        "--lines",
        "--format",
        "html",
        file.to_str().unwrap(),
    ]);
    let html = stdout(&o);
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "self-contained"
    );
}

#[test]
fn report_is_byte_identical_whatever_the_file_order() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs: [&[u8]; 4] = [
        b"http://[::1]/",
        b"ftp://@h/",
        b"mailto:a@b",
        b"http://h:80/",
    ];
    let one = tmp.path().join("one");
    let two = tmp.path().join("two");
    let names = ["w", "x", "y", "z"];
    let forward: Vec<(&str, &[u8])> = names.iter().copied().zip(inputs.iter().copied()).collect();
    let backward: Vec<(&str, &[u8])> = names
        .iter()
        .copied()
        .zip(inputs.iter().rev().copied())
        .collect();
    corpus(&one, &forward);
    corpus(&two, &backward);
    // The same inputs under other file names: the counts and signatures
    // agree (the JSON summary without sources), whatever order the files
    // are read in.
    let a = uridiff(&[
        "report",
        "--model",
        "--format",
        "jsonl",
        one.to_str().unwrap(),
    ]);
    let b = uridiff(&[
        "report",
        "--model",
        "--format",
        "jsonl",
        two.to_str().unwrap(),
    ]);
    let summary = |o: &Output| {
        let mut v: Value = serde_json::from_str(stdout(o).lines().next().unwrap()).unwrap();
        for g in v["signatures"].as_array_mut().unwrap() {
            for e in g["examples"].as_array_mut().unwrap() {
                e.as_object_mut().unwrap().remove("source");
                e.as_object_mut().unwrap().remove("reproduce");
            }
        }
        for p in v["host_confusion_pairs"].as_array_mut().unwrap() {
            p["example"].as_object_mut().unwrap().remove("source");
        }
        v
    };
    assert_eq!(summary(&a), summary(&b));
}

#[test]
fn report_missing_path_is_a_clear_error_with_exit_2() {
    let o = uridiff(&["report", "--model", "/nonexistent/uridiff-corpus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/uridiff-corpus"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn report_unreadable_file_is_listed_and_exits_2_with_the_report_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    corpus(&dir, &[("good", b"http://h/")]);
    std::os::unix::fs::symlink(tmp.path().join("missing"), dir.join("dangling")).unwrap();
    let o = uridiff(&["report", "--model", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("dangling"), "{}", stderr(&o));
    assert!(stdout(&o).contains("dangling"), "listed in the report");
    assert!(stdout(&o).contains("| inputs read | 1 |"), "{}", stdout(&o));
}

#[test]
fn report_unknown_flag_and_no_path_are_usage_errors() {
    assert_eq!(
        uridiff(&["report", "--model", "--format", "pdf", "x"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(uridiff(&["report"]).status.code(), Some(2));
}

#[test]
fn report_build_is_independent_of_item_order() {
    use uridiff::report::{Item, build, md};
    let items: Vec<Item> = [
        "http://[::1]/",
        "ftp://@h/",
        "mailto:a@b",
        "http://h:80/",
        "?y",
    ]
    .iter()
    .enumerate()
    .map(|(i, s)| Item {
        source: format!("f{i}"),
        bytes: s.as_bytes().to_vec(),
        base: None,
    })
    .collect();
    let mut reversed = items.clone();
    reversed.reverse();
    let render = |items: Vec<Item>| {
        let report = build(
            items,
            vec![
                ("z".into(), "unreadable".into()),
                ("a".into(), "too large".into()),
            ],
            || {},
        );
        let mut out = Vec::new();
        md::write(&report, &mut out).unwrap();
        out
    };
    assert_eq!(render(items), render(reversed));
}

/// Every `--help` text, as recorded in `testdata/help.txt`: a change to a
/// command's options or its words shows in review, beside the change that
/// made it (`BLESS=1` rewrites the file). Terminal width does not enter:
/// clap wraps only when it knows one, and a test's output is a pipe.
#[test]
fn help_texts_are_as_recorded() {
    let commands = [
        "parse",
        "resolve",
        "check",
        "report",
        "corpus",
        "oracles",
        "minimize",
        "targets",
        "reproduce",
        "bypass",
        "fetch",
    ];
    let mut current = String::from(
        "# Generated by BLESS=1 cargo test --test it help_texts: every `uridiff ... --help`.\n",
    );
    let mut texts: Vec<(String, Vec<&str>)> = vec![("uridiff --help".to_owned(), vec!["--help"])];
    for c in commands {
        texts.push((format!("uridiff {c} --help"), vec![c, "--help"]));
    }
    texts.push((
        "uridiff corpus add --help".to_owned(),
        vec!["corpus", "add", "--help"],
    ));
    texts.push((
        "uridiff corpus follow --help".to_owned(),
        vec!["corpus", "follow", "--help"],
    ));
    for (title, args) in texts {
        let out = uridiff(&args);
        assert_eq!(out.status.code(), Some(0), "{title}: {out:?}");
        current.push_str(&format!(
            "\n== {title}\n{}",
            String::from_utf8(out.stdout).unwrap()
        ));
    }
    // The fuzz targets' names are their rows' (`uridiff targets`), which a
    // test holds to fuzz/: recorded here, every new target would be a second
    // edit. The snapshot keeps the words around them. `corpus add` takes
    // every target but the structured one (its files are models).
    let targets: Vec<&str> = uridiff::fuzzing::FuzzTarget::ALL
        .iter()
        .filter(|t| !t.holds_models())
        .map(|t| t.as_str())
        .collect();
    let current = current.replace(
        &format!("[possible values: {}]", targets.join(", ")),
        "[possible values: the fuzz targets whose corpus files are not models]",
    );
    let path = crate::util::root().join("testdata/help.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &current).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        recorded == current,
        "--help changed; review, then BLESS=1:\n{}",
        similar::TextDiff::from_lines(&recorded, &current)
            .unified_diff()
            .header("testdata/help.txt", "current")
    );
}

/// The saved corpus records every built-in oracle: a build that lacks one
/// refuses to bless it (it would drop that oracle's lines) or check it.
#[cfg(not(all(feature = "ada", feature = "curl", feature = "uriparser")))]
#[test]
fn corpus_bless_and_check_refuse_a_build_without_every_oracle() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    for action in ["bless", "check"] {
        let o = uridiff(&["corpus", action, "--root", root]);
        assert_eq!(o.status.code(), Some(2), "{action}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("lacks") && stderr(&o).contains("--features uriparser"),
            "{action}: {}",
            stderr(&o)
        );
    }
}
