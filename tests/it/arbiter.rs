//! The arbiter through the CLI: references decide which parser departs
//! (issue "The arbiter"). With Node and the pinned `whatwg-url` (installed
//! by `scripts/setup-oracles.sh`; a test fails with that command when they
//! are missing), and without Node, where the WHATWG reference is reported
//! missing and nothing is blamed.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::process::{Command, Output};

use serde_json::Value;

fn check(env_path: Option<&str>, base: Option<&str>, input: &str) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_uridiff"));
    cmd.arg("check").arg("--json");
    if let Some(base) = base {
        cmd.arg("--base").arg(base);
    }
    cmd.arg("--").arg(input);
    if let Some(path) = env_path {
        cmd.env("PATH", path);
    }
    let out: Output = cmd.output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{input:?}: {e}: {out:?}"))
}

fn defects<'v>(case: &'v Value, oracle: &str) -> Vec<&'v Value> {
    case["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["basis"] == "defect" && f["oracle"] == oracle)
        .collect()
}

/// The WHATWG reference runs here: the tests below rely on it.
#[cfg(feature = "ada")]
fn require_whatwg_url() {
    let out = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["oracles", "--json", "--no-versions"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == "whatwg-url")
        .unwrap();
    assert_eq!(row["reference"], true);
    assert_eq!(row["reference_for"], "whatwg");
    assert_eq!(
        row["present"], true,
        "whatwg-url is missing ({}): run `bash scripts/setup-oracles.sh`",
        row["missing"]
    );
}

/// Each harness owns its `whatwg-url` process (no process-wide one): the
/// end of one harness ends its own process and leaves another's
/// answering, started in the background or on first need.
#[cfg(feature = "ada")]
#[test]
fn each_harness_owns_its_whatwg_reference() {
    use uridiff::harness::{Harness, Query};
    require_whatwg_url();
    let whatwg = uridiff::reference::reference_for(uridiff::oracle::Standard::Whatwg).unwrap();
    let harness = || {
        Harness::builder()
            .whatwg_reference(uridiff::reference::WHATWG_TIMEOUT)
            .build()
    };
    // A WHATWG peer disagreement (url and ada), so that the reference is
    // asked: it answers.
    let answers = |h: &mut Harness<'_>| {
        let case = h.check_query(Query::new("file:\\\\//"));
        let outcome = case.outcome(whatwg).expect("the reference was asked");
        assert!(!outcome.is_missing(), "{outcome:?}");
    };
    let mut first = harness();
    let mut second = harness();
    second.prestart();
    answers(&mut first);
    answers(&mut second);
    assert_eq!(first.finish(), Vec::<String>::new());
    // The first harness's end did not stop the second's process.
    answers(&mut second);
    assert_eq!(second.missing_references(), Vec::<String>::new());
    drop(second);
    // A harness built after both ended starts a process of its own.
    let mut third = harness();
    answers(&mut third);
    assert_eq!(third.finish(), Vec::<String>::new());
}

#[cfg(feature = "ada")]
#[test]
fn the_url_standards_reference_decides_between_url_and_ada() {
    require_whatwg_url();
    // WPT: file:\\// parses to path "//" (url gives "/": rust-url lists it
    // in its expected failures).
    let case = check(None, None, "file:\\\\//");
    let url = defects(&case, "url");
    assert!(
        url.iter().any(|f| f["decided_by"] == "whatwg-url"),
        "{case:#}"
    );
    assert!(url.iter().all(|f| {
        f["known"]["source"]
            .as_str()
            .unwrap()
            .contains("expected_failures.txt")
    }));
    assert!(defects(&case, "ada").is_empty(), "{case:#}");
    // WPT expected failure until June 2026; since whatwg/url#914 (WPT
    // #60476) the URL Standard accepts it (ASCII fallback for an `xn--`
    // label), as ada does. The pinned reference, whatwg-url 16.0.1,
    // predates that (fixed in 17.0.0, which needs Node 22.14): its known bug
    // keeps it from deciding, so nobody is blamed by it.
    let case = check(None, None, "http://10.0.0.xn--pokxncvks");
    assert!(
        case["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["decided_by"] != "whatwg-url"),
        "{case:#}"
    );
    let peer = case["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["class"] == "peer-disagreement")
        .unwrap();
    assert_eq!(peer["decided_by"], Value::Null);
    assert!(
        peer["effect"]
            .as_str()
            .unwrap()
            .contains("whatwg-url/pull/321"),
        "{peer}"
    );
    // A backslash in a non-special URL is no slash: url goes to another host.
    let case = check(None, Some("foo://good.example/a"), "\\\\evil.example/x");
    assert!(
        defects(&case, "url")
            .iter()
            .any(|f| f["decided_by"] == "whatwg-url" && f["severity"] == "high"),
        "{case:#}"
    );
    assert!(defects(&case, "ada").is_empty(), "{case:#}");
    // The URL Standard fails an empty host after '@'.
    let case = check(None, None, "s://@");
    assert!(!defects(&case, "url").is_empty(), "{case:#}");
    assert!(defects(&case, "ada").is_empty(), "{case:#}");
}

#[test]
fn rfc3986_resolution_is_decided_by_the_grammar_with_its_permitted_variations() {
    // fluent-uri refuses `0` against `ha:h0` (a documented deviation);
    // iri-string gives `ha:0`, as section 5.2.3 does.
    let case = check(None, Some("ha:h0"), "0");
    assert!(defects(&case, "iri-string").is_empty(), "{case:#}");
    let fluent = defects(&case, "rfc3986");
    assert!(
        fluent
            .iter()
            .any(|f| f["decided_by"] == "rfc3986-grammar" && f["known"]["id"].is_string()),
        "{case:#}"
    );
    // Section 5.2.1: normalising the base is optional, so `h:/` and `h:/.`
    // are both right.
    let case = check(None, Some("h:/."), "");
    let all = case["findings"].as_array().unwrap();
    assert!(all.iter().all(|f| f["basis"] != "defect"), "{case:#}");
    assert!(
        all.iter()
            .any(|f| f["class"] == "optional-base-normalization" && f["oracle"] == "rfc3986"),
        "{case:#}"
    );
    // Both libraries write `foo:/.//`, which the strict algorithm cannot
    // write at all.
    let case = check(None, Some("foo:/a/b"), "..//");
    let all = case["findings"].as_array().unwrap();
    assert!(all.iter().all(|f| f["basis"] != "defect"), "{case:#}");
}

// The WHATWG peers (url and ada) need the `ada` feature.
#[cfg(feature = "ada")]
#[test]
fn without_node_the_whatwg_reference_is_missing_and_nobody_is_blamed() {
    // No directory on PATH holds node.
    let case = check(Some("/nonexistent"), None, "file:\\\\//");
    let reference = &case["outcomes"]["whatwg-url"];
    assert_eq!(reference["notes"][0], "missing-outcome", "{case:#}");
    assert!(
        reference["message"].as_str().unwrap().contains("node"),
        "{case:#}"
    );
    let peers: Vec<&Value> = case["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["class"] == "peer-disagreement")
        .collect();
    assert!(!peers.is_empty(), "{case:#}");
    for f in peers {
        assert_eq!(f["decided_by"], Value::Null, "{f}");
        assert!(
            f["effect"]
                .as_str()
                .unwrap()
                .contains("nothing settles which departs"),
            "{f}"
        );
    }
}

#[cfg(feature = "ada")]
#[test]
fn a_known_bug_of_the_whatwg_reference_keeps_it_from_deciding_and_still_shows() {
    require_whatwg_url();
    let rows: Vec<_> = uridiff::known::all()
        .iter()
        .filter(|r| r.oracle.as_str() == "whatwg-url")
        .collect();
    assert!(!rows.is_empty());
    for row in rows {
        let uridiff::known::Expected::Href(href) = &row.expected else {
            panic!("{}: a whatwg-url row expects an href", row.id);
        };
        // The bug is still there in the pinned version: the reference's
        // answer does not recompose to the standard's (else the row must
        // go).
        let case = check(None, row.base.as_deref(), &row.input);
        let r = &case["outcomes"]["whatwg-url"];
        let text = |k: &str| r[k].as_str().unwrap_or("").to_owned();
        let recomposed = format!(
            "{}://{}{}{}{}",
            text("scheme"),
            r["userinfo"]
                .as_str()
                .map_or(String::new(), |u| format!("{u}@")),
            text("host"),
            r["port"]
                .as_str()
                .map_or(String::new(), |p| format!(":{p}")),
            text("path"),
        );
        let still = r["verdict"] != "accept"
            || recomposed.trim_end_matches('/') != href.trim_end_matches('/');
        assert!(
            still,
            "{}: whatwg-url now gives the standard's answer ({recomposed}): the row must go",
            row.id
        );
        // url and ada (right here) are not blamed by it.
        for oracle in ["url", "ada"] {
            assert!(
                defects(&case, oracle)
                    .iter()
                    .all(|f| f["decided_by"] != "whatwg-url"),
                "{case:#}"
            );
        }
    }
}

#[cfg(feature = "ada")]
#[test]
fn without_node_check_and_report_say_the_whatwg_reference_is_missing() {
    let dir = std::env::temp_dir().join(format!("uridiff-arbiter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("inputs.txt");
    std::fs::write(&input, "file:\\\\//\nhttp://h/\n").unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_uridiff"))
            .args(args)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap()
    };
    let text = run(&["check", "--", "file:\\\\//"]);
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(
        stdout.contains("reference whatwg-url missing: "),
        "{stdout}"
    );
    let report = run(&[
        "report",
        "--model",
        "--lines",
        "--format",
        "md",
        input.to_str().unwrap(),
    ]);
    let md = String::from_utf8(report.stdout).unwrap();
    assert!(md.contains("## References missing"), "{md}");
    assert!(md.contains("nothing (undecided)"), "{md}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped adapters' known deviations still hold with the runtimes
/// `scripts/setup-oracles.sh` installs (a row whose parser now follows its
/// standard must move or go).
#[test]
fn every_shipped_adapters_known_deviation_still_departs() {
    let rows: Vec<_> = uridiff::known::all()
        .iter()
        .filter(|r| {
            let name = r.oracle.as_str();
            name != "whatwg-url" && uridiff::oracle::external::shipped_names().contains(&name)
        })
        .collect();
    assert!(rows.len() >= 4, "{} rows", rows.len());
    for row in rows {
        let name = row.oracle.as_str();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_uridiff"));
        cmd.args(["check", "--json", "--oracle", name]);
        if let Some(base) = &row.base {
            cmd.args(["--base", base]);
        }
        let out = cmd.arg("--").arg(&row.input).output().unwrap();
        let case: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}: {out:?} (run scripts/setup-oracles.sh)", row.id));
        // The reference the case asked: every key both report is compared.
        let outcome = &case["outcomes"][name];
        let reference_id = row
            .oracle
            .standard()
            .and_then(uridiff::reference::reference_for)
            .unwrap();
        // A scheme handler's row whose fields the adapter now leaves out
        // (not reported: fast-uri's and uri-js's ws `resourceName`,
        // Ruby's URI::File without userinfo and port) has nothing left to
        // compare: it documents the handler, and covers no finding.
        if let uridiff::known::Match::Rule(rule) = row.matcher
            && let Some(fields) = rule.fields()
            && fields.iter().all(|c| {
                outcome
                    .get(uridiff::components::component_name(c))
                    .is_none()
            })
        {
            continue;
        }
        let reference = &case["outcomes"][reference_id.as_str()];
        // RFC 2396's reference is Appendix A alone: it decides nothing on
        // what RFC 2732 adds to RFC 2396 (`[::1]`, which both RFC 2396
        // parsers claim), so a row about that is the parser's reading,
        // with nothing to depart from here.
        if row.id.ends_with("-rfc2732-ip-literal") {
            assert!(
                !reference.is_object() || reference["verdict"] != "reject",
                "{case:#}"
            );
            continue;
        }
        assert!(
            reference.is_object(),
            "{}: {reference_id} not asked: {case:#}",
            row.id
        );
        let departs = outcome.as_object().unwrap().iter().any(|(key, value)| {
            [
                "verdict",
                "scheme",
                "authority",
                "userinfo",
                "host",
                "port",
                "path",
                "query",
                "fragment",
            ]
            .contains(&key.as_str())
                && reference.get(key).is_some_and(|r| r != value)
        });
        assert!(
            departs,
            "{}: {name} now follows its standard on {:?}: the row must move or go ({outcome})",
            row.id, row.input
        );
        assert!(
            defects(&case, name)
                .iter()
                .all(|f| f["known"]["id"] == row.id.as_str()),
            "{}: {case:#}",
            row.id
        );
    }
}
