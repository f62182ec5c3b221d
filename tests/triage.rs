//! Every triage class, with the inputs that must produce it; and the
//! properties of diff, triage and check that the harness relies on.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use uridiff::check;
use uridiff::diff::diff;
use uridiff::oracle::OracleId;
use uridiff::triage::{Class, Severity};

/// (class id, oracle that must show it, inputs). The first rows are the
/// issue's minimum catalogue; the rest are classes the data demanded.
const EXAMPLES: &[(&str, &str, &[&str])] = &[
    ("ip-literal", "url", &["http://[::1]/"]),
    (
        "reg-name-authority",
        "url",
        &["http://a_b.example/", "http://a@b@c/"],
    ),
    ("reg-name-authority", "http", &["http://1.2.3.4.5/"]),
    ("empty-userinfo", "url", &["ftp://@host.com/"]),
    ("empty-password", "url", &["ftp://foo:@host.com/"]),
    ("empty-port", "url", &["http://host:/"]),
    ("default-port", "url", &["http://host:80/"]),
    ("port-out-of-range", "url", &["http://host:99999/"]),
    ("case-normalized", "url", &["HTTP://EXAMPLE.COM/"]),
    (
        "ipv4-number-form",
        "url",
        &["http://0x7f.1/", "http://127.1/", "http://999.1.1.1/"],
    ),
    ("percent-encoded-host", "url", &["http://ex%41mple.com/"]),
    ("invalid-escape", "url", &["http://h/%zz"]),
    ("unwise-character", "url", &["http://h/{x}"]),
    ("non-ascii", "url", &["http://h/é"]),
    (
        "whitespace-or-control",
        "url",
        &["http://exa\tmple.com/", " http://h/"],
    ),
    ("backslash", "url", &["http:\\\\evil.com\\x"]),
    ("dot-segments", "url", &["http://h/a/../b", "http://a/../g"]),
    (
        "special-scheme-slashes",
        "url",
        &["http:evil.com/", "http:/evil.com/", "http:///evil.com/"],
    ),
    (
        "authority-form",
        "http",
        &["mailto:a@b", "localhost:8080", "g"],
    ),
    ("network-path-reference", "http", &["//g", "//evil.com/x"]),
    ("fragment-dropped", "http", &["http://h/a#b"]),
    ("relative-reference", "url", &["/rel/path?q"]),
    ("scheme-syntax", "http", &["1http://h/"]),
    ("length-limit", "http", &[]), // built below: http://h/ + 70 000 'a'
    // Classes added from the real-URL data set.
    (
        "delims-character",
        "url",
        &["http://h/a\"b", "http://h/#a#b"],
    ),
    ("empty-opaque-part", "rfc3986", &["about:"]),
    ("query-only-reference", "rfc3986", &["?y"]),
    (
        "file-scheme",
        "url",
        &["file://localhost/etc/passwd", "file://c:/x"],
    ),
    (
        "missing-authority",
        "http",
        &["http:/evil.com/", "file:///etc"],
    ),
    ("port-normalized", "url", &["http://h:0081/"]),
    ("opaque-part-query", "rfc3986", &["mailto:a@b?x"]),
    ("empty-path-slash", "url", &["http://h"]),
    ("percent-encoding", "url", &["http://h/?a'b"]),
    ("empty-host", "rfc3986", &["file:///etc/passwd"]),
    // Classes added from fuzzing (see FUZZING.md).
    ("idna-host", "url", &["https://xn--o/"]),
    (
        "length-limit",
        "http",
        &["sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss://h/"],
    ),
    ("special-scheme-slashes", "url", &["httpS:s3:?/"]),
    ("file-scheme", "url", &["file:?//tables.json"]),
    (
        "dot-segments",
        "url",
        &["ht3:/%2e/a/", "http://h/a/%2E%2e/b"],
    ),
    (
        "windows-drive-letter",
        "url",
        &[
            "http://h/a/r:/../../ZZ",
            "htt:/1./r:/../../ZZ",
            "afiue://h/E:/%2e%2E/x",
        ],
    ),
    ("empty-password", "url", &["hutp://1%20sRRR;RRRmailto:@z6/"]),
    (
        "authority-colons",
        "http",
        &[
            "http://=RJc8l=f2%83:B:::::::::@example.com.",
            "http://a:::::::::@h/",
        ],
    ),
];

fn long_input() -> String {
    format!("http://h/{}", "a".repeat(70_000))
}

fn examples() -> Vec<(&'static str, &'static str, String)> {
    let mut all = Vec::new();
    for &(class, oracle, inputs) in EXAMPLES {
        for input in inputs {
            all.push((class, oracle, (*input).to_owned()));
        }
    }
    all.push(("length-limit", "http", long_input()));
    all
}

#[test]
fn every_example_produces_its_class_and_nothing_unexplained() {
    let mut failures = Vec::new();
    for (class, oracle, input) in examples() {
        let case = check(&input);
        let found = case
            .findings
            .iter()
            .any(|f| f.class.id() == class && f.oracle.as_str() == oracle);
        if !found {
            let got: Vec<String> = case
                .findings
                .iter()
                .map(|f| format!("{}/{}", f.class, f.oracle))
                .collect();
            failures.push(format!(
                "{input:.60?}: expected {class}/{oracle}, got {got:?}"
            ));
        }
        for f in case.unexplained() {
            failures.push(format!(
                "{input:.60?}: unexplained {}: {}",
                f.oracle,
                case.effect(f)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_class_but_unexplained_has_an_example() {
    let examples = examples();
    for class in Class::ALL {
        if *class == Class::Unexplained {
            continue;
        }
        assert!(
            examples.iter().any(|(c, _, _)| *c == class.id()),
            "class {class} has no example"
        );
    }
}

#[test]
fn class_ids_round_trip_and_are_kebab_case() {
    for class in Class::ALL {
        assert_eq!(Class::from_id(class.id()), Some(*class));
        assert!(
            class
                .id()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
        );
    }
}

fn severity_of(input: &str, class: &str, oracle: OracleId) -> Severity {
    check(input)
        .findings
        .iter()
        .find(|f| f.class.id() == class && f.oracle == oracle)
        .map(|f| f.severity)
        .unwrap_or_else(|| panic!("{input}: no {class}/{oracle}"))
}

#[test]
fn severity_is_high_when_hosts_ports_or_hosted_verdicts_differ() {
    // Hosts differ (one side has none).
    assert_eq!(
        severity_of("http://a_b.example/", "reg-name-authority", OracleId::Url),
        Severity::High
    );
    // One side rejects while the accepting side yields a host.
    assert_eq!(
        severity_of("http://[::1]/", "ip-literal", OracleId::Url),
        Severity::High
    );
    // Effective ports differ: http::Uri drops a port it cannot read.
    assert_eq!(
        severity_of("http://host:99999/", "port-out-of-range", OracleId::Http),
        Severity::High
    );
}

#[test]
fn severity_is_low_for_cosmetic_and_medium_for_boundaries() {
    assert_eq!(
        severity_of("HTTP://EXAMPLE.COM/", "case-normalized", OracleId::Url),
        Severity::Low
    );
    assert_eq!(
        severity_of("http://host:80/", "default-port", OracleId::Url),
        Severity::Low
    );
    assert_eq!(
        severity_of("ftp://@host.com/", "empty-userinfo", OracleId::Url),
        Severity::Low
    );
    assert_eq!(
        severity_of("http://h/a/../b", "dot-segments", OracleId::Url),
        Severity::Medium
    );
    assert_eq!(
        severity_of("http://h/?a'b", "percent-encoding", OracleId::Url),
        Severity::Medium
    );
}

#[test]
fn effects_name_the_concrete_difference() {
    let case = check("http://a_b.example/");
    let f = case
        .findings
        .iter()
        .find(|f| f.oracle == OracleId::Url)
        .unwrap();
    assert_eq!(
        case.effect(f),
        "rfc2396 and url see different hosts (none vs \"a_b.example\")"
    );
    let case = check("http://h/a/../b");
    let f = case
        .findings
        .iter()
        .find(|f| f.oracle == OracleId::Url)
        .unwrap();
    assert_eq!(case.effect(f), "path \"/a/../b\" vs \"/b\"");
}

#[test]
fn diff_of_an_outcome_with_itself_is_empty_and_diff_is_symmetric() {
    for (_, _, input) in examples() {
        let case = check(&input);
        for (_, a) in &case.outcomes {
            assert!(diff(a, a).is_empty(), "{input:.60?}");
            for (_, b) in &case.outcomes {
                assert_eq!(diff(a, b), diff(b, a), "{input:.60?}");
            }
        }
    }
}

#[test]
fn check_is_deterministic() {
    for (_, _, input) in examples() {
        assert_eq!(check(&input), check(&input));
    }
}

#[test]
fn agreeing_inputs_have_no_findings() {
    for input in [
        "http://example.com/a/b?c#d",
        "https://user@host.example:8443/x;p?q",
    ] {
        let case = check(input);
        let others: Vec<_> = case
            .findings
            .iter()
            .filter(|f| f.oracle != OracleId::Http)
            .collect();
        assert!(others.is_empty(), "{input}: {others:?}");
    }
}

#[test]
fn appendix_b_never_disagrees_on_the_verdict() {
    let case = check("http://[::1]/");
    assert!(
        case.findings
            .iter()
            .all(|f| f.oracle != OracleId::AppendixB)
    );
}
