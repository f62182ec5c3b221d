//! The resolution table (`testdata/resolution.tsv`): every oracle of a
//! standard must give the result its standard prescribes, or the deviation
//! the table records for it; and where a reference against a base sends a
//! redirect (GUIDE.md, "Base URLs: where a redirect goes"): a backslash path,
//! a network-path reference, a local path, dot segments above the root, a
//! same-scheme reference.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use uridiff::oracle::{OracleId, info};

/// One row of the table.
struct Row {
    line: usize,
    base: String,
    reference: String,
    /// RFC 2396, RFC 3986, WHATWG; `None`: no result.
    results: [Option<String>; 3],
    /// (oracle, result) the table records as a deviation.
    deviations: Vec<(String, Option<String>)>,
}

fn result(field: &str) -> Option<String> {
    (field != "-").then(|| field.to_owned())
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/resolution.tsv"
    ))
    .unwrap();
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            f.len() >= 6,
            "testdata/resolution.tsv:{}: {} fields",
            n + 1,
            f.len()
        );
        let deviations = f[5]
            .split(';')
            .filter(|d| !d.trim().is_empty())
            .map(|d| {
                let (oracle, rest) = d.trim().split_once('=').expect("ORACLE=RESULT");
                let value = rest.split(" (").next().unwrap_or_default();
                (oracle.to_owned(), result(value))
            })
            .collect();
        rows.push(Row {
            line: n + 1,
            base: f[0].to_owned(),
            reference: f[1].to_owned(),
            results: [result(f[2]), result(f[3]), result(f[4])],
            deviations,
        });
    }
    rows
}

#[test]
fn the_table_covers_the_rfcs_and_whatwg() {
    let rows = rows();
    assert!(rows.len() >= 50, "{} rows", rows.len());
    // RFC 3986 section 5.4's base, and WHATWG's backslash cases.
    assert!(
        rows.iter()
            .filter(|r| r.base == "http://a/b/c/d;p?q")
            .count()
            >= 40
    );
    assert!(rows.iter().any(|r| r.reference.contains('\\')));
}

#[test]
fn every_oracle_gives_what_its_standard_prescribes_or_its_recorded_deviation() {
    // Standard column -> the oracles that implement it.
    let standards: [(usize, &[OracleId]); 3] = [
        (0, &[OracleId::Rfc2396]),
        (
            1,
            &[OracleId::Rfc3986, OracleId::IriString, OracleId::Uriparser],
        ),
        (2, &[OracleId::Url, OracleId::Ada]),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows() {
        for (column, oracles) in standards {
            for &id in oracles {
                let Some(oracle) = info(id) else {
                    continue; // not in this build (cargo feature)
                };
                let got = (oracle.resolve)(&row.base, &row.reference).ok();
                let expected = row
                    .deviations
                    .iter()
                    .find(|(o, _)| o == id.as_str())
                    .map_or(&row.results[column], |(_, r)| r);
                checked += 1;
                if &got != expected {
                    failures.push(format!(
                        "testdata/resolution.tsv:{}: {id} resolves {:?} against {:?} to {got:?}, expected {expected:?}",
                        row.line, row.reference, row.base
                    ));
                }
            }
        }
    }
    assert!(checked > 200, "{checked} results checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn json(base: &str, input: &str) -> serde_json::Value {
    serde_json::to_value(uridiff::check_with_base(base, input)).unwrap()
}

fn host_of(case: &serde_json::Value, oracle: &str) -> Option<String> {
    case["outcomes"][oracle]["host"].as_str().map(str::to_owned)
}

#[test]
fn a_backslash_path_sends_whatwg_elsewhere_while_http_and_curl_stay() {
    let case = json("https://example.com/", "/\\evil.com");
    assert_eq!(case["severity"], "high");
    for whatwg in ["url", "ada"] {
        if case["outcomes"].get(whatwg).is_some() {
            assert_eq!(
                host_of(&case, whatwg).as_deref(),
                Some("evil.com"),
                "{whatwg}"
            );
        }
    }
    assert_eq!(host_of(&case, "http").as_deref(), Some("example.com"));
    #[cfg(feature = "curl")]
    assert_eq!(host_of(&case, "curl").as_deref(), Some("example.com"));
}

#[test]
fn a_network_path_reference_goes_elsewhere_for_all_but_http() {
    let case = json("https://example.com/", "//evil.com/");
    assert_eq!(case["severity"], "high");
    for (oracle, outcome) in case["outcomes"].as_object().unwrap() {
        if outcome["verdict"] != "accept" || outcome.get("host").is_none() {
            continue;
        }
        let expected = if oracle == "http" {
            "example.com"
        } else {
            "evil.com"
        };
        assert_eq!(outcome["host"], expected, "{oracle}");
    }
}

#[test]
fn a_local_path_is_no_confusion() {
    let case = json("https://example.com/", "/path/ok");
    assert!(case["host_confusions"].as_array().unwrap().is_empty());
    assert_ne!(case["severity"], "high");
}

#[test]
fn dot_segments_above_the_root_are_a_spec_difference_not_high() {
    let case = json("http://a/b/c/d;p?q", "../../../g");
    assert_eq!(case["resolved"], "http://a/../g");
    assert_eq!(case["outcomes"]["rfc3986"]["path"], "/g");
    assert_eq!(case["outcomes"]["url"]["path"], "/g");
    let findings = case["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["basis"] == "spec" && f["class"] == "dot-segments")
    );
    assert_ne!(case["severity"], "high");
}

#[test]
fn a_same_scheme_reference_is_a_spec_difference() {
    let case = json("http://a/b/c/d;p?q", "http:g");
    assert_eq!(case["resolved"], "http:g");
    assert_eq!(case["outcomes"]["url"]["path"], "/b/c/g");
    let findings = case["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["basis"] == "spec" && f["class"] == "same-scheme-reference"),
        "{findings:#?}"
    );
}

#[test]
fn resolve_keeps_its_rfc_2396_behaviour() {
    assert_eq!(
        uridiff::rfc2396::resolve("http://a/b/c/d;p?q", "../../../g").unwrap(),
        "http://a/../g"
    );
    assert_eq!(
        uridiff::rfc2396::resolve("http://a/b/c/d;p?q", "?y").unwrap(),
        "http://a/b/c/?y"
    );
}
