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
use uridiff::triage::{Class, ExampleOracle, Severity};

fn long_input() -> String {
    format!("http://h/{}", "a".repeat(70_000))
}

/// An example's oracle, when it is one of the registry; `None` for a
/// shipped external adapter, whose examples are checked through the CLI
/// with the adapter (tests/external_cli.rs).
fn registry_oracle(class: Class, oracle: ExampleOracle) -> Option<OracleId> {
    match oracle {
        ExampleOracle::Oracle(id) => Some(id),
        ExampleOracle::External(name) => {
            assert!(
                uridiff::oracle::external::shipped_names().contains(&name),
                "{class}: example names {name}, which is no shipped adapter"
            );
            None
        }
    }
}

/// Every example of the class catalogue (`src/triage/classes/`), with
/// the oracle whose finding it must produce, plus one too long to write
/// there. Examples naming an oracle this build lacks are left out.
fn examples() -> Vec<(Class, OracleId, String)> {
    let mut all = Vec::new();
    for class in Class::ALL {
        for (oracle, input) in class.examples() {
            let Some(id) = registry_oracle(*class, *oracle) else {
                continue;
            };
            // A peer disagreement needs both peers; ada is a cargo feature.
            let peers_built =
                *class != Class::PeerDisagreement || uridiff::oracle::info(OracleId::Ada).is_some();
            if uridiff::oracle::info(id).is_some() && peers_built {
                all.push((*class, id, (*input).to_owned()));
            }
        }
    }
    all.push((Class::LengthLimit, OracleId::Http, long_input()));
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
            .any(|f| f.class == class && f.oracle == oracle);
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
fn every_example_with_a_base_produces_its_class_and_nothing_unexplained() {
    let mut failures = Vec::new();
    for class in Class::ALL {
        for (oracle, base, input) in class.examples_with_base() {
            // An oracle behind a cargo feature this build lacks.
            let Some(oracle) =
                registry_oracle(*class, *oracle).filter(|id| uridiff::oracle::info(*id).is_some())
            else {
                continue;
            };
            let case = uridiff::check_with_base(base, input);
            if !case
                .findings
                .iter()
                .any(|f| f.class == *class && f.oracle == oracle)
            {
                let got: Vec<String> = case
                    .findings
                    .iter()
                    .map(|f| format!("{}/{}", f.class, f.oracle))
                    .collect();
                failures.push(format!(
                    "{base} + {input}: expected {class}/{oracle}, got {got:?}"
                ));
            }
            for f in case.unexplained() {
                failures.push(format!(
                    "{base} + {input}: unexplained {}: {}",
                    f.oracle,
                    case.effect(f)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_class_but_unexplained_has_an_example() {
    for class in Class::ALL {
        if *class == Class::Unexplained {
            continue;
        }
        assert!(
            !class.examples().is_empty() || !class.examples_with_base().is_empty(),
            "class {class} has no example in its catalogue row"
        );
        assert!(!class.spec().is_empty(), "class {class} cites no spec");
        assert!(
            !class.description().is_empty(),
            "class {class} has no description"
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
fn severity_is_high_when_accepting_parsers_see_different_hosts_or_ports() {
    // Hosts differ (one side has none).
    assert_eq!(
        severity_of("http://a_b.example/", "reg-name-authority", OracleId::Url),
        Severity::High
    );
    // One side rejects while the accepting side yields a host: a refusal
    // alone is at most medium.
    assert_eq!(
        severity_of("http://[::1]/", "ip-literal", OracleId::Url),
        Severity::Medium
    );
    // Out of domain alone is never above low.
    assert_eq!(
        severity_of("//www.python.org:80", "relative-reference", OracleId::Url),
        Severity::Low
    );
    // Effective ports differ: http::Uri drops a port it cannot read, a
    // defect of its own that changes the port it reports.
    assert_eq!(
        severity_of("http://host:99999/", "dropped-input", OracleId::Http),
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
