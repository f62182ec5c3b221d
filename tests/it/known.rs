//! The known deviations (`testdata/known-deviations.tsv`, read by
//! `uridiff::known`): every row is replayed against the parser uridiff runs
//! today, so that a row goes stale loudly when its parser is fixed; the
//! rules match their witnesses, and agree with the parser on other pairs.

use uridiff::OracleId;
use uridiff::known::{self, Expected, KnownDeviation, Match, Rule};

use crate::util::serialization;

/// rust-url's `tests/expected_failures.txt` as the url crate 2.5.8 ships it
/// (https://github.com/servo/rust-url/blob/v2.5.8/url/tests/expected_failures.txt):
/// 47 lines, of which lines 37 to 47 are setter cases uridiff does not run.
const EXPECTED_FAILURES_LINES: usize = 47;
const SETTER_LINES: usize = 11;
/// Lines url 2.5.8 passes although the list names them (none): they would
/// be left out of the data file.
const STALE_LINES: usize = 0;

const EXPECTED_FAILURES_URL: &str =
    "https://github.com/servo/rust-url/blob/v2.5.8/url/tests/expected_failures.txt";
const FLUENT_URI_URL: &str =
    "https://docs.rs/fluent-uri/0.4.1/fluent_uri/struct.UriRef.html#method.resolve_against";

fn rows_of(oracle: OracleId) -> Vec<&'static KnownDeviation> {
    known::all().iter().filter(|r| r.oracle == oracle).collect()
}

fn pair(row: &KnownDeviation) -> String {
    match &row.base {
        Some(base) => format!("{:?} against {base:?}", row.input),
        None => format!("{:?}", row.input),
    }
}

fn shown(result: &Result<String, String>) -> String {
    match result {
        Ok(text) => format!("{text:?}"),
        Err(why) => format!("a refusal ({why})"),
    }
}

#[test]
fn the_data_file_loads_without_errors() {
    assert!(
        known::load_errors().is_empty(),
        "testdata/known-deviations.tsv:\n{}",
        known::load_errors().join("\n")
    );
    assert!(!known::all().is_empty());
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut ids: Vec<&str> = known::all().iter().map(|r| r.id.as_str()).collect();
    for id in &ids {
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{id}"
        );
    }
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "an id is used twice");
}

#[test]
fn url_rows_are_the_parse_and_resolution_lines_of_rust_urls_expected_failures() {
    let rows = rows_of(OracleId::Url);
    assert_eq!(
        rows.len(),
        EXPECTED_FAILURES_LINES - SETTER_LINES - STALE_LINES,
        "one url row per non-setter line of expected_failures.txt"
    );
    // Each row names its own line, once; the setter lines come last.
    let mut lines: Vec<usize> = rows
        .iter()
        .map(|r| {
            assert_eq!(r.matcher, Match::Exact, "{}", r.id);
            let line = r
                .source
                .strip_prefix(EXPECTED_FAILURES_URL)
                .and_then(|s| s.strip_prefix("#L"))
                .unwrap_or_else(|| panic!("{}: source {}", r.id, r.source));
            line.parse().unwrap()
        })
        .collect();
    lines.sort_unstable();
    let expected: Vec<usize> = (1..=EXPECTED_FAILURES_LINES - SETTER_LINES).collect();
    assert_eq!(lines, expected);
}

#[test]
fn every_url_row_still_fails_its_wpt_case_in_url() {
    let mut fixed = Vec::new();
    for row in rows_of(OracleId::Url) {
        let got = serialization(OracleId::Url, &row.input, row.base.as_deref());
        let still_departs = match (&row.expected, &got) {
            // WPT says failure: url must still accept.
            (Expected::Failure, result) => result.is_ok(),
            // WPT gives an href: url must refuse, or serialize otherwise.
            (Expected::Href(href), Ok(text)) => text != href,
            (Expected::Href(_), Err(_)) => true,
        };
        if !still_departs {
            fixed.push(format!(
                "{}: url now gives {} for {}, as WPT expects: fixed upstream, the row must \
                 move or go",
                row.id,
                shown(&got),
                pair(row)
            ));
        }
    }
    assert!(fixed.is_empty(), "{}", fixed.join("\n"));
}

#[test]
fn fluent_uri_rows_expect_the_strict_rfc_3986_result_and_cite_its_documentation() {
    let rows = rows_of(OracleId::Rfc3986);
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row.source, FLUENT_URI_URL, "{}", row.id);
        let base = row
            .base
            .as_deref()
            .expect("a resolution deviation has a base");
        // The reference implementation of section 5.2 (crates/grammar).
        let strict = grammar::rfc3986::resolve(base, &row.input).unwrap();
        assert_eq!(row.expected, Expected::Href(strict), "{}", row.id);
    }
}

#[test]
fn every_fluent_uri_and_iri_string_row_still_departs_from_rfc_3986() {
    let mut fixed = Vec::new();
    let rows = rows_of(OracleId::Rfc3986)
        .into_iter()
        .chain(rows_of(OracleId::IriString));
    for row in rows {
        assert_eq!(
            row.expected,
            Expected::Href(
                grammar::rfc3986::resolve(row.base.as_deref().unwrap(), &row.input).unwrap()
            ),
            "{}",
            row.id
        );
        let got = serialization(row.oracle, &row.input, row.base.as_deref());
        let still_departs = match &row.expected {
            Expected::Href(href) => got.as_ref() != Ok(href),
            Expected::Failure => got.is_ok(),
        };
        if !still_departs {
            fixed.push(format!(
                "{}: {} now gives {} for {}, as RFC 3986 section 5.2 does: fixed \
                 upstream, the row must move or go",
                row.id,
                row.oracle,
                shown(&got),
                pair(row)
            ));
        }
    }
    assert!(fixed.is_empty(), "{}", fixed.join("\n"));
}

#[test]
fn lookup_finds_every_row_by_its_input_and_base_and_only_for_its_oracle() {
    for row in known::all() {
        let found = known::lookup(row.oracle, &row.input, row.base.as_deref());
        assert_eq!(found.map(|r| r.id.as_str()), Some(row.id.as_str()));
        if let Match::Rule(rule) = row.matcher {
            assert!(
                rule.matches(&row.input, row.base.as_deref()),
                "{}: the witness does not fit rule:{}",
                row.id,
                rule.as_str()
            );
        }
        // Another parser of the same standard has its own record: a lookup
        // never answers with another parser's row.
        for other in [
            OracleId::Ada,
            OracleId::Url,
            OracleId::IriString,
            OracleId::Rfc3986,
            OracleId::Uriparser,
        ] {
            if other == row.oracle {
                continue;
            }
            let found = known::lookup(other, &row.input, row.base.as_deref());
            assert!(found.is_none_or(|r| r.oracle == other), "{}", row.id);
        }
    }
    // An exact row needs its base: the input alone is another finding.
    let with_base = known::all()
        .iter()
        .find(|r| r.oracle == OracleId::Url && r.base.is_some())
        .unwrap();
    assert_eq!(known::lookup(OracleId::Url, &with_base.input, None), None);
}

#[test]
fn every_rule_has_a_row() {
    for &rule in Rule::ALL {
        assert!(
            known::all().iter().any(|r| r.matcher == Match::Rule(rule)),
            "rule:{} has no row",
            rule.as_str()
        );
    }
}

/// Bases and references for the rules: rootless and hierarchical bases,
/// literal and percent-encoded dot segments, the documented exceptions
/// (a scheme, the empty reference, a fragment).
const BASES: &[&str] = &[
    "foo:a/b",
    "mailto:a@b",
    "urn:isbn:0451450523",
    "foo:/a/b",
    "http://h/a/b",
    "http://h/a/%2e%2e/b",
    "foo:/bar/baz/.%2E/",
];
const REFERENCES: &[&str] = &[
    "",
    "#f",
    "?q",
    "c",
    "c/d",
    "./c",
    "../c",
    "/c",
    "//h2/c",
    "x:y",
    "%2e/c",
    "c/%2E%2e/d",
    "c/.%2e",
    "%2e%2e%2e/c",
];

#[test]
fn rootless_base_matches_exactly_the_pairs_fluent_uri_refuses() {
    for &base in BASES {
        for &reference in REFERENCES {
            let matches = Rule::RootlessBase.matches(reference, Some(base));
            let got = serialization(OracleId::Rfc3986, reference, Some(base));
            assert_eq!(
                matches,
                got.is_err(),
                "{reference:?} against {base:?}: rule {matches}, fluent-uri {}",
                shown(&got)
            );
            if matches {
                // RFC 3986 itself resolves the pair.
                grammar::rfc3986::resolve(base, reference).unwrap();
            }
        }
    }
}

#[test]
fn fluent_uri_departs_from_rfc_3986_on_these_pairs_only_where_percent_encoded_dot_segments_match() {
    // Pairs where none of fluent-uri's other documented items applies (no
    // base ends in "..", no reference path is empty, no target path starts
    // with "//" without an authority): there, any departure is one of the
    // rules.
    for &base in BASES {
        for &reference in REFERENCES
            .iter()
            .filter(|r| !r.is_empty() && !r.starts_with(['#', '?']))
        {
            if Rule::RootlessBase.matches(reference, Some(base)) {
                continue;
            }
            let got = serialization(OracleId::Rfc3986, reference, Some(base));
            let strict = grammar::rfc3986::resolve(base, reference).unwrap();
            let departs = got.as_ref() != Ok(&strict);
            let matches = Rule::PercentEncodedDotSegments.matches(reference, Some(base));
            assert!(
                !departs || matches,
                "{reference:?} against {base:?}: fluent-uri {} where RFC 3986 gives {strict:?}, \
                 and no rule matches",
                shown(&got)
            );
        }
    }
    // And where the rule matches, the documented witnesses depart.
    for (reference, base) in [("1/%2e/..", "httj://t"), ("d", "http://a/b/%2e%2e/c")] {
        assert!(Rule::PercentEncodedDotSegments.matches(reference, Some(base)));
        let got = serialization(OracleId::Rfc3986, reference, Some(base));
        let strict = grammar::rfc3986::resolve(base, reference).unwrap();
        assert_ne!(got.as_ref(), Ok(&strict), "{reference:?} against {base:?}");
    }
}
