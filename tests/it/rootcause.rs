//! The known-bug ledger (`testdata/ledger.tsv`) against the pinned parsers:
//! every row's witness still shows its root cause (an upgrade that fixes
//! one fails here, loudly), and every defect signature of the saved corpus
//! has a row. Needs the WHATWG reference (`scripts/setup-oracles.sh`): the
//! corpus is blessed with it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use uridiff::harness::{Harness, Query};
use uridiff::rootcause::{self, Match};

fn harness() -> Harness<'static> {
    Harness::builder()
        .whatwg_reference(uridiff::reference::WHATWG_TIMEOUT)
        .build()
}

#[test]
fn the_ledger_loads_without_errors() {
    assert!(
        rootcause::load_errors().is_empty(),
        "{:?}",
        rootcause::load_errors()
    );
    assert!(rootcause::ledger().len() >= 13);
}

#[test]
fn every_ledger_rows_witness_still_shows_its_root_cause() {
    let mut h = harness();
    let mut stale = Vec::new();
    for row in rootcause::ledger() {
        // The reference's own bug is never a finding: tests/it/arbiter.rs
        // replays it through whatwg-url.
        if row.parser.is_reference() {
            assert!(matches!(row.matcher, Match::Known(_)), "{}", row.id);
            continue;
        }
        // A shipped adapter's row: replayed through the adapter, on the
        // version the row was found in (another version is told, not
        // judged: the row is keyed by its library column).
        if let uridiff::OracleId::External(name) = row.parser {
            external_row_shows(
                &row.id,
                name.as_str(),
                &row.library,
                (&row.witness, row.base.as_deref()),
                &mut stale,
            );
            continue;
        }
        // A parser behind a cargo feature this build lacks (ada, curl,
        // uriparser).
        if uridiff::oracle::info(row.parser).is_none() {
            let off = match row.parser.as_str() {
                "ada" => !cfg!(feature = "ada"),
                "curl" => !cfg!(feature = "curl"),
                "uriparser" => !cfg!(feature = "uriparser"),
                _ => false,
            };
            assert!(off, "{}: {} is not in this build", row.id, row.parser);
            continue;
        }
        // Where the reference has a known bug on the witness it decides
        // nothing, and only a peer of the same standard shows the defect:
        // url's needs ada.
        let reference_unfit = row
            .parser
            .standard()
            .and_then(uridiff::reference::reference_for)
            .is_some_and(|r| {
                uridiff::known::lookup(r, &row.witness, row.base.as_deref()).is_some()
            });
        if reference_unfit && row.parser.as_str() == "url" && !cfg!(feature = "ada") {
            continue;
        }
        let case = h.check_query(Query {
            input: &row.witness,
            base: row.base.as_deref(),
        });
        let shows = case
            .findings
            .iter()
            .filter_map(|f| rootcause::of(case.evidence(), f))
            .any(|rc| rc.id == row.id);
        if !shows {
            stale.push(format!(
                "{}: {:?} (base {:?}) no longer shows it in {} ({}): fixed? move it to `fixed in X`",
                row.id, row.witness, row.base, row.parser, row.library
            ));
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

/// Does the shipped adapter `name` still show the root cause `id` on
/// `witness` (resolved against `base`, if any)? Where its version is not the row's (`library`: its second
/// word, `Go 1.19.8 …`), says so on stderr and judges nothing.
fn external_row_shows(
    id: &str,
    name: &str,
    library: &str,
    (witness, base): (&str, Option<&str>),
    stale: &mut Vec<String>,
) {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_uridiff"))
            .args(args)
            .output()
            .unwrap()
    };
    // Every adapter's version, asked once for all the rows (`oracles`
    // starts every adapter: once per row, it was most of this test's time).
    static ORACLES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let oracles =
        ORACLES.get_or_init(|| String::from_utf8(run(&["oracles", "--json"]).stdout).unwrap());
    let version = oracles
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["id"] == name)
        .and_then(|r| r["version"]["parser"].as_str().map(str::to_owned))
        .unwrap_or_else(|| {
            panic!("{id}: {name} is not ready: run `bash scripts/setup-oracles.sh`")
        });
    let wanted = library.split_whitespace().nth(1).unwrap_or(library);
    if !version.contains(wanted) {
        eprintln!("{id}: {name} here is {version:?}, the row is about {library:?}: not replayed");
        return;
    }
    let mut args = vec!["check", "--json", "--oracle", name];
    if let Some(base) = base {
        args.extend(["--base", base]);
    }
    args.extend(["--", witness]);
    let out = run(&args);
    let case: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shows = case["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["root_cause"]["id"] == id);
    if !shows {
        stale.push(format!(
            "{id}: {witness:?} (base {base:?}) no longer shows it in {name} ({version}): fixed? move it to `fixed in X`"
        ));
    }
}

#[test]
fn every_defect_signature_of_the_saved_corpus_has_a_ledger_row() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/signatures.txt"
    ))
    .unwrap();
    let mut h = harness();
    let mut unknown = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains("/defect/"))
    {
        let mut cols = line.split('\t');
        let signature = cols.next().unwrap();
        let input: String = serde_json::from_str(cols.next().unwrap()).unwrap();
        let base: Option<String> = cols.next().map(|b| serde_json::from_str(b).unwrap());
        let case = h.check_query(Query {
            input: &input,
            base: base.as_deref(),
        });
        for f in case.findings.iter() {
            if uridiff::Signature::of(f).to_string() != signature {
                continue;
            }
            let rc = rootcause::of(case.evidence(), f).unwrap();
            if rc.status == "new" && rc.id.starts_with("new:") {
                unknown.push(format!("{signature} ({input:?}): no ledger row"));
            }
        }
    }
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
}

#[test]
fn fuzzing_md_lists_every_ledger_row_with_its_status_and_upstream() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/FUZZING.md")).unwrap();
    for row in rootcause::ledger() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", row.id)))
            .unwrap_or_else(|| panic!("FUZZING.md has no row for {}", row.id));
        let cells: Vec<&str> = line.split(" | ").collect();
        assert_eq!(cells[2], row.status, "{}: {line}", row.id);
        let upstream = if row.upstream == "none found" {
            row.upstream.clone()
        } else {
            format!("<{}>", row.upstream)
        };
        assert_eq!(cells[3], upstream, "{}: {line}", row.id);
    }
}

#[test]
fn the_json_report_lists_root_causes_with_their_signatures() {
    let text = report_of_lines(
        "uridiff-rootcause",
        "http://example.com:80x/\n:x\nhttp://h/\n",
        "jsonl",
    );
    let summary: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let cause = summary["root_causes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["root_cause"]["id"] == "http-port-not-u16")
        .unwrap_or_else(|| panic!("{summary:#}"));
    assert_eq!(cause["oracle"], "http");
    assert_eq!(cause["root_cause"]["status"], "open");
    assert!(
        cause["signatures"].as_array().unwrap().len() >= 2,
        "{cause}"
    );
}

/// The Markdown report ends with the root causes per parser, a parser's
/// new ones (to report upstream) in their own column before the known.
#[test]
fn the_markdown_report_ends_with_root_causes_per_parser() {
    let dir = std::env::temp_dir().join(format!("uridiff-rootcause-md-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("inputs.txt");
    // http's port-not-u16 (ledger: open) and url's backslash after a port
    // of a non-special URL (ledger: new).
    std::fs::write(&input, ":x\ns://h:1\\x\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["report", "--model", "--lines", "--format", "md"])
        .arg(&input)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let section = text
        .split("## Root causes per parser\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no section: {text}"));
    assert!(
        !section.contains("\n## "),
        "not the last section: {section}"
    );
    let row = |parser: &str| {
        section
            .lines()
            .find(|l| l.starts_with(&format!("| {parser} |")))
            .unwrap_or_else(|| panic!("no {parser} row: {section}"))
            .to_owned()
    };
    let http = row("http");
    assert!(http.contains("| - | `http-port-not-u16` ("), "{http}");
    assert!(http.contains(", open)"), "{http}");
    let url = row("url");
    assert!(
        url.contains("| `url-nonspecial-backslash-after-port` (1 input) |"),
        "{url}"
    );
}

/// A signature's inputs can have several root causes: url's backslash
/// after the port of a non-special URL and its empty host after an `@` are
/// each a `peer-disagreement/defect/url/verdict` (Ada refuses both; in the
/// pure-Rust build, a `reference-disagreement`). The report counts every
/// input under its own root cause (FUZZING.md's campaign of 2026-11-26
/// listed only the shortest example's), and the signature's group lists
/// them all. With Ada in the build (the default), url's IDNA fallback on an
/// ASCII `xn--` label is a third.
#[test]
fn every_input_of_a_signature_is_counted_under_its_own_root_cause() {
    let text = report_of_lines(
        "uridiff-rootcause-each",
        "s://h:1\\x\nws://xn--a\ns://@\n",
        "jsonl",
    );
    // Ada is url's peer in the default build: without it (the pure-Rust
    // build) the `xn--` label is nobody's defect.
    let with_ada = cfg!(feature = "ada");
    let summary: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap_or_default()).unwrap();
    let causes: Vec<(&str, u64)> = summary["root_causes"]
        .as_array()
        .unwrap_or_else(|| panic!("{summary:#}"))
        .iter()
        .map(|c| {
            (
                c["root_cause"]["id"].as_str().unwrap(),
                c["inputs"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut expected = vec![
        ("url-nonspecial-backslash-after-port", 1),
        ("url-nonspecial-empty-host-after-at", 1),
    ];
    if with_ada {
        expected.insert(0, ("url-ascii-domain-idna-fallback", 1));
    }
    for (id, _) in &expected {
        assert!(
            causes.iter().any(|(c, n)| c == id && *n >= 1),
            "{id}: {causes:?}"
        );
    }
    // With Ada, Ada is the peer that refuses (`peer-disagreement`); without
    // it, the URL Standard's reference does (`reference-disagreement`).
    let signature = if with_ada {
        "peer-disagreement/defect/url/verdict"
    } else {
        "reference-disagreement/defect/url/verdict"
    };
    let group = summary["signatures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["signature"] == signature)
        .unwrap_or_else(|| panic!("{summary:#}"));
    let mut in_group: Vec<(&str, u64)> = group["root_causes"]
        .as_array()
        .unwrap_or_else(|| panic!("{group:#}"))
        .iter()
        .map(|c| {
            (
                c["root_cause"]["id"].as_str().unwrap(),
                c["inputs"].as_u64().unwrap(),
            )
        })
        .collect();
    in_group.sort();
    assert_eq!(in_group, expected, "{group:#}");
    assert_eq!(group["count"], expected.len(), "{group:#}");
}

/// `uridiff report --model --lines --format FORMAT` over `inputs` (one per
/// line), written to a file of its own under a directory named by `tag`.
fn report_of_lines(tag: &str, inputs: &str, format: &str) -> String {
    let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("inputs.txt");
    std::fs::write(&input, inputs).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["report", "--model", "--lines", "--format", format])
        .arg(&input)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    String::from_utf8(out.stdout).unwrap()
}
