//! The finding model: basis, defects, peers, host confusions and severity,
//! on the inputs that motivated them (each a known confusion: Go's
//! CVE-2019-14809 shape, WHATWG's IPv4 number forms, RFC 2396's reg_name).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::Value;

fn json(input: &str) -> Value {
    serde_json::to_value(uridiff::check(input)).unwrap()
}

fn findings(case: &Value) -> &[Value] {
    case["findings"].as_array().unwrap()
}

/// The finding of `class` about `oracle`, with the basis it must have.
fn finding<'v>(case: &'v Value, class: &str, oracle: &str) -> &'v Value {
    findings(case)
        .iter()
        .find(|f| f["class"] == class && f["oracle"] == oracle)
        .unwrap_or_else(|| panic!("no {class}/{oracle} in {:#}", case["findings"]))
}

fn confusion<'v>(case: &'v Value, a: &str, b: &str) -> Option<&'v Value> {
    case["host_confusions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["oracles"][0] == a && h["oracles"][1] == b)
}

fn max_severity(case: &Value) -> &str {
    case["severity"].as_str().unwrap_or("none")
}

#[test]
fn http_dropping_bytes_after_an_ip_literal_is_a_defect_naming_the_dropped_text() {
    let case = json("http://[::1]evil.com:80/");
    let f = finding(&case, "dropped-input", "http");
    assert_eq!(f["basis"], "defect");
    assert_eq!(f["severity"], "high");
    assert!(
        f["effect"].as_str().unwrap().contains("\"evil.com\""),
        "{f}"
    );
    // No spec rule claims http's acceptance: it is the defect's.
    assert!(
        findings(&case)
            .iter()
            .filter(|f| f["oracle"] == "http")
            .all(|f| f["basis"] == "defect"),
        "{:#}",
        case["findings"]
    );
}

#[test]
fn bracketed_text_that_is_no_ip_literal_is_a_defect() {
    for input in ["http://[www.google.com]/", "http://[fe80::1%en0]:8080/"] {
        let case = json(input);
        let f = finding(&case, "invalid-ip-literal", "http");
        assert_eq!(f["basis"], "defect", "{input}");
        assert!(
            findings(&case).iter().all(|f| f["class"] != "ip-literal"),
            "{input}: filed as a spec difference"
        );
    }
}

#[test]
fn a_port_http_cannot_read_is_dropped_input() {
    let case = json("http://h:80x/");
    let f = finding(&case, "dropped-input", "http");
    assert_eq!(f["basis"], "defect");
    assert!(f["effect"].as_str().unwrap().contains(":80x"), "{f}");
}

#[test]
fn an_ip_literal_is_a_medium_spec_difference_and_no_host_confusion() {
    let case = json("http://[::1]/");
    let f = finding(&case, "ip-literal", "url");
    assert_eq!(f["basis"], "spec");
    assert_eq!(f["severity"], "medium");
    for (a, b) in [("url", "http"), ("url", "rfc3986"), ("http", "rfc3986")] {
        assert!(confusion(&case, a, b).is_none(), "{a}/{b}");
    }
    assert!(case["host_confusions"].as_array().unwrap().is_empty());
}

#[test]
fn out_of_domain_alone_is_never_above_low() {
    let case = json("//www.python.org:80");
    for f in findings(&case).iter().filter(|f| f["oracle"] == "url") {
        assert_eq!(f["severity"], "low", "{f}");
    }
}

#[test]
fn a_reg_name_authority_is_a_host_confusion_with_rfc2396() {
    let case = json("http://a_b.example/");
    let f = finding(&case, "reg-name-authority", "url");
    assert_eq!(
        (f["basis"].as_str(), f["severity"].as_str()),
        (Some("spec"), Some("high"))
    );
    let h = confusion(&case, "rfc2396", "url").expect("(rfc2396, url)");
    assert_eq!(h["hosts"], serde_json::json!([null, "a_b.example"]));

    let case = json("http://a@b@c/");
    assert_eq!(max_severity(&case), "high");
    assert!(confusion(&case, "rfc2396", "url").is_some());
}

#[test]
fn cosmetic_differences_stay_low() {
    let case = json("ftp://@host.com/");
    let f = finding(&case, "empty-userinfo", "url");
    assert_eq!(
        (f["basis"].as_str(), f["severity"].as_str()),
        (Some("spec"), Some("low"))
    );

    let case = json("HTTP://EXAMPLE.com/");
    assert!(case["host_confusions"].as_array().unwrap().is_empty());
    assert_ne!(max_severity(&case), "high");
}

#[test]
fn hosts_spelled_differently_are_a_confusion_marked_same_address() {
    let case = json("http://0x7f.1/");
    let h = confusion(&case, "url", "http").expect("(url, http)");
    assert_eq!(h["hosts"], serde_json::json!(["127.0.0.1", "0x7f.1"]));
    assert_eq!(h["same_address"], true);
    assert_eq!(max_severity(&case), "high");
}

#[test]
fn one_address_spelt_two_ways_raises_a_case_to_medium_and_two_addresses_to_high() {
    // WHATWG writes the embedded IPv4 in hex (`[::c22:384e]`), the RFC 3986
    // parsers keep it as written: one address, two spellings. Every
    // finding is a refusal against an acceptance (at most medium), so only
    // the confusions could raise the case.
    let case = json("http://[::12.34.56.78]/foo/");
    let confusions = case["host_confusions"].as_array().unwrap();
    assert!(!confusions.is_empty(), "{case:#}");
    assert!(
        confusions.iter().all(|h| h["same_address"] == true),
        "{case:#}"
    );
    assert!(findings(&case).iter().all(|f| f["severity"] != "high"));
    assert_eq!(max_severity(&case), "medium");

    // rfc2396 reads a reg_name (no host) where url reads 127.0.0.1: two
    // places, whatever other pairs spell the same address.
    let case = json("http://0x7f.1/");
    assert!(confusion(&case, "rfc2396", "url").is_some_and(|h| h["same_address"] == false));
    assert_eq!(max_severity(&case), "high");
}

#[test]
fn every_finding_has_the_one_json_shape() {
    let case = json("http://[::1]evil.com:80/");
    for f in findings(&case) {
        // The optional keys: `decided_by` on comparisons, `known` on a
        // documented deviation, `root_cause` on every defect.
        let keys: Vec<&str> = f
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .filter(|k| !["decided_by", "known", "root_cause"].contains(k))
            .collect();
        assert_eq!(
            keys,
            [
                "basis", "class", "effect", "fields", "oracle", "peer", "severity", "spec"
            ],
            "{f}"
        );
        assert_eq!(f["basis"] == "defect", f.get("root_cause").is_some(), "{f}");
    }
}

#[cfg(feature = "ada")]
#[test]
fn whatwg_peers_that_disagree_give_a_defect_and_a_host_confusion() {
    // WPT (url/resources/urltestdata.json) expects host "1.2.3.4"; rust-url
    // drops it for a drive-letter path.
    let case = json("file://1.2.3.4/C:/");
    let f = finding(&case, "peer-disagreement", "url");
    assert_eq!(f["basis"], "defect");
    assert_eq!(f["peer"], "ada");
    assert!(confusion(&case, "url", "ada").is_some());
}

#[cfg(all(feature = "ada", feature = "curl"))]
#[test]
fn without_the_whatwg_reference_a_whatwg_peer_disagreement_blames_nobody_and_says_why() {
    // The URL Standard reads `\` as `/` in special URLs only (relative slash
    // state; WPT urltestdata "Non-special relative" cases): ada and libcurl
    // stay on `h`, rust-url 2.5 goes to `p`. check() has no WHATWG
    // reference, and no majority (libcurl) or order decides instead.
    let case = serde_json::to_value(uridiff::check_with_base("x://h/a", "/\\p")).unwrap();
    let f = finding(&case, "peer-disagreement", "url");
    assert_eq!(f["peer"], "ada");
    assert_eq!(f["decided_by"], Value::Null, "{f}");
    assert_eq!(f["severity"], "high");
    let effect = f["effect"].as_str().unwrap();
    assert!(effect.contains("nothing settles which departs"), "{f}");
    assert!(effect.contains("whatwg-url"), "{f}");
    assert_eq!(case["outcomes"]["ada"]["host"], "h");
    assert_eq!(case["outcomes"]["curl"]["host"], "h");
    assert_eq!(case["outcomes"]["url"]["host"], "p");
    // check() does not ask it: no outcome, and the effect says so.
    assert!(case["outcomes"].get("whatwg-url").is_none(), "{case:#}");
    assert!(effect.contains("was not asked"), "{f}");
    assert!(confusion(&case, "url", "ada").is_some());
}

#[cfg(feature = "ada")]
#[test]
fn an_rfc3986_peer_disagreement_is_decided_by_the_grammar_not_by_the_others() {
    // `p:.` against `ha:h0`: RFC 3986 section 5.2.2 gives T.path =
    // remove_dot_segments(".") = "", iri-string `p:`, fluent-uri `p:.`.
    let case = serde_json::to_value(uridiff::check_with_base("ha:h0", "p:.")).unwrap();
    let f = finding(&case, "peer-disagreement", "rfc3986");
    assert_eq!(f["peer"], "iri-string");
    assert_eq!(f["decided_by"], "rfc3986-grammar");
    assert_eq!(case["outcomes"]["rfc3986-grammar"]["path"], "");
    assert!(
        findings(&case)
            .iter()
            .all(|f| f["oracle"] != "iri-string" || f["basis"] != "defect"),
        "{:#}",
        case["findings"]
    );
}

#[test]
fn url_syntax_violations_are_notes_a_reader_gets_from_annotate_not_from_check() {
    // A space in the path: url percent-encodes it and reports a violation.
    let input = "http://a_b.example/x y";
    let mut case = uridiff::check(input);
    let url_notes = |case: &uridiff::Case<'_>| {
        case.outcome(uridiff::oracle::OracleId::Url)
            .unwrap()
            .notes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let violation = "non-URL code point".to_owned();
    assert!(!url_notes(&case).contains(&violation));
    case.annotate();
    assert!(url_notes(&case).contains(&violation));
    // Nothing else changes: annotate adds notes only.
    let mut plain = uridiff::check(input);
    plain.annotate();
    assert_eq!(plain, case);
}

#[test]
fn registry_lists_every_oracle_once_with_the_reference_first() {
    let ids: Vec<&str> = uridiff::oracle::registry()
        .iter()
        .map(|o| o.id.as_str())
        .collect();
    assert_eq!(ids.first(), Some(&"rfc2396"));
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
    for id in ["appendix-b", "url", "http", "rfc3986", "iri-string"] {
        assert!(ids.contains(&id), "{id}");
    }
    #[cfg(feature = "ada")]
    assert!(ids.contains(&"ada"));
    #[cfg(feature = "curl")]
    assert!(ids.contains(&"curl"));
    #[cfg(feature = "uriparser")]
    assert!(ids.contains(&"uriparser"));
    // The references come last and are asked only where parsers disagree.
    let references: Vec<&str> = uridiff::oracle::registry()
        .iter()
        .filter(|o| o.reference)
        .map(|o| o.id.as_str())
        .collect();
    assert_eq!(references, ["rfc3986-grammar", "rfc2396-grammar"]);
    assert_eq!(&ids[ids.len() - references.len()..], references);
    let case = uridiff::check("http://example.com/");
    let outcome_ids: Vec<&str> = case.outcomes.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(outcome_ids, ids[..ids.len() - references.len()]);
}

#[test]
fn registry_versions_match_cargo_lock() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let version_of = |name: &str| -> Option<String> {
        let at = lock.find(&format!("name = \"{name}\"\n"))?;
        let rest = &lock[at..];
        let v = rest.lines().nth(1)?.strip_prefix("version = \"")?;
        Some(v.trim_end_matches('"').to_owned())
    };
    for o in uridiff::oracle::registry() {
        let mut words = o.library.split_whitespace();
        let (name, version) = (words.next().unwrap(), words.next().unwrap());
        if name == "uridiff" {
            continue;
        }
        assert_eq!(
            version_of(name).as_deref(),
            Some(version),
            "{}: registry says {}, Cargo.lock differs",
            o.id,
            o.library
        );
    }
}
