//! `uridiff reproduce`: per root cause, a test in the parser's own API and
//! (for WHATWG parsers) a web-platform-tests entry. The command asks the
//! WHATWG reference (Node and the pinned whatwg-url, installed by
//! `scripts/setup-oracles.sh`), so each test first checks it is there.

use serde_json::Value;

use crate::util::uridiff;

/// The WHATWG reference runs here: reproduce takes url's and ada's
/// expected values from it.
fn require_whatwg_url() {
    let out = uridiff(&["oracles", "--json"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let row: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == "whatwg-url")
        .unwrap();
    assert_eq!(
        row["present"], true,
        "whatwg-url is missing ({}): run scripts/setup-oracles.sh",
        row["missing"]
    );
}

/// `uridiff reproduce ARGS`: its exit code and one JSON object per line.
fn reproduce(args: &[&str]) -> (Option<i32>, Vec<Value>) {
    require_whatwg_url();
    let out = uridiff(&[&["reproduce"], args].concat());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code(), lines)
}

#[test]
fn reproduction_json_has_exactly_the_documented_keys() {
    let (code, lines) = reproduce(&["--json", "--", "http://example.com:80x/"]);
    assert_eq!(code, Some(0));
    let keys: Vec<&str> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "root_cause",
        "parser",
        "version",
        "status",
        "upstream",
        "spec",
        "tests",
        "wpt",
    ];
    expected.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, expected);
    let test_keys: Vec<&String> = lines[0]["tests"][0].as_object().unwrap().keys().collect();
    assert_eq!(test_keys, ["code", "language"]);
}

#[test]
fn a_port_that_is_no_u16_is_one_http_root_cause_with_an_http_uri_test() {
    let (code, lines) = reproduce(&["--json", "--", "http://example.com:80x/"]);
    assert_eq!(code, Some(0));
    assert_eq!(lines.len(), 1, "{lines:?}");
    let r = &lines[0];
    assert_eq!(r["root_cause"], "http-port-not-u16");
    assert_eq!(r["parser"], "http");
    assert_eq!(r["version"], "http 1.5.0");
    assert!(
        r["upstream"]
            .as_str()
            .unwrap()
            .contains("hyperium/http/issues/509")
    );
    assert_eq!(r["wpt"], Value::Null);
    let test = &r["tests"][0];
    assert_eq!(test["language"], "rust");
    let code = test["code"].as_str().unwrap();
    assert!(
        code.starts_with("// [dev-dependencies]\n// http = \"=1.5.0\"\n"),
        "{code}"
    );
    assert!(code.contains("parse::<http::Uri>()"), "{code}");
    assert!(code.contains("is_err()"), "{code}");
    assert!(code.contains("RFC 3986 section 3.2.3"), "{code}");
    assert!(test.get("still_fails").is_none(), "unchecked: {test}");
    // Reported upstream and open (hyperium/http#509): `known`.
    assert!(lines.iter().any(|r| r["status"] == "known"), "{lines:?}");
}

#[cfg(feature = "curl")]
#[test]
fn curls_rewritten_ip_literal_is_a_new_root_cause_with_a_c_test_of_curl_url_set() {
    let (code, lines) = reproduce(&["--json", "--", "h://[::1:]/"]);
    assert_eq!(code, Some(0));
    let r = lines
        .iter()
        .find(|r| r["parser"] == "curl")
        .unwrap_or_else(|| panic!("no curl root cause: {lines:?}"));
    assert_eq!(r["root_cause"], "curl-ipv6-trailing-colon");
    assert_eq!(r["status"], "new");
    assert_eq!(r["upstream"], Value::Null);
    let test = &r["tests"][0];
    assert_eq!(test["language"], "c");
    let code = test["code"].as_str().unwrap();
    assert!(
        code.contains("static const char input[] = \"h://[::1:]/\";"),
        "{code}"
    );
    assert!(
        code.contains("curl_url_set(h, CURLUPART_URL, input, CURLU_NON_SUPPORT_SCHEME)"),
        "{code}"
    );
    assert!(code.contains("curl_url_get"), "{code}");
}

#[cfg(feature = "ada")]
#[test]
fn a_backslash_against_a_non_special_base_gives_a_url_join_test_and_a_wpt_entry() {
    let (code, lines) = reproduce(&[
        "--json",
        "--base",
        "foo://good.example/a",
        "--",
        "\\\\evil.example/x",
    ]);
    assert_eq!(code, Some(0));
    let r = lines
        .iter()
        .find(|r| r["parser"] == "url")
        .unwrap_or_else(|| panic!("no url root cause: {lines:?}"));
    assert_eq!(r["root_cause"], "url-nonspecial-relative-backslash");
    let code = r["tests"][0]["code"].as_str().unwrap();
    assert!(
        code.contains("url::Url::parse(\"foo://good.example/a\").unwrap().join("),
        "{code}"
    );
    assert!(
        code.contains("assert_eq!(url.host_str(), Some(\"good.example\"));"),
        "{code}"
    );
    let wpt = &r["wpt"];
    assert_eq!(wpt["input"], "\\\\evil.example/x");
    assert_eq!(wpt["base"], "foo://good.example/a");
    assert_eq!(wpt["hostname"], "good.example");
    assert_eq!(wpt["pathname"], "/\\\\evil.example/x");
    assert_eq!(wpt["href"], "foo://good.example/\\\\evil.example/x");
    assert_eq!(wpt["search"], "");
}

#[test]
fn an_input_with_no_defect_exits_1_with_no_reproduction() {
    let (code, lines) = reproduce(&["--json", "--", "http://example.com/"]);
    assert_eq!(code, Some(1));
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn reproduce_without_an_input_is_a_usage_error() {
    let out = uridiff(&["reproduce"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_checked_rust_test_of_a_live_defect_still_fails() {
    let (code, lines) = reproduce(&["--check", "--json", "--", "http://example.com:80x/"]);
    assert_eq!(code, Some(0));
    assert_eq!(lines[0]["tests"][0]["still_fails"], true, "{lines:?}");
}

/// The bar for the ledger: every root cause's witness emits Rust
/// and C tests that build and still fail on the pinned versions (the
/// JavaScript tests for Ada are not run: Node's URL is another Ada).
#[cfg(all(feature = "ada", feature = "curl"))]
#[test]
fn every_ledger_witnesses_rust_and_c_tests_build_and_still_fail() {
    require_whatwg_url();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in uridiff::rootcause::ledger() {
        if row.parser.is_reference() {
            continue;
        }
        // A built-in parser behind a cargo feature this build lacks
        // (uriparser without `--features uriparser`) has nothing to run.
        if uridiff::oracle::OracleId::is_builtin_id(row.parser.as_str())
            && uridiff::oracle::info(row.parser).is_none()
        {
            continue;
        }
        let mut args = vec!["--json", "--check"];
        // A shipped adapter's row: reproduced through that adapter.
        let adapter = match row.parser {
            uridiff::OracleId::External(name) => Some(name.as_str().to_owned()),
            _ => None,
        };
        if let Some(name) = adapter.as_deref() {
            args.extend(["--oracle", name]);
        }
        if let Some(base) = row.base.as_deref() {
            args.extend(["--base", base]);
        }
        args.extend(["--", row.witness.as_str()]);
        let (code, lines) = reproduce(&args);
        let Some(r) = lines.iter().find(|r| r["root_cause"] == row.id.as_str()) else {
            failures.push(format!("{}: no reproduction (exit {code:?})", row.id));
            continue;
        };
        for t in r["tests"].as_array().unwrap() {
            match t["language"].as_str().unwrap() {
                "rust" | "c" => {
                    checked += 1;
                    if t["still_fails"] != true {
                        failures.push(format!("{}: {} test: {t}", row.id, t["language"]));
                    }
                }
                _ => assert!(t.get("still_fails").is_none(), "{t}"),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 17, "{checked} tests checked");
}

/// A shipped adapter's defect gets a test in its own language: Go 1.19's
/// `net/url` accepts `cfg://adict[2]`, brackets that hold no IP literal
/// (CVE-2025-47912, the ledger row go-net-url-bracket-host-not-ip-literal),
/// and the Go test asserts a refusal. (Until 2026-11-26 this was Java's
/// `dvd://1`, which java.net.URI's javadoc allows: `java-single-label-host`.)
#[test]
fn an_external_adapters_defect_gets_a_test_in_its_own_language() {
    let (code, lines) = reproduce(&["--json", "--oracle", "go-net-url", "--", "cfg://adict[2]"]);
    assert_eq!(code, Some(0), "{lines:?}");
    let r = lines
        .iter()
        .find(|r| r["parser"] == "go-net-url")
        .unwrap_or_else(|| panic!("no go-net-url reproduction: {lines:?}"));
    assert_eq!(r["root_cause"], "go-net-url-bracket-host-not-ip-literal");
    let test = &r["tests"][0];
    assert_eq!(test["language"], "go");
    let code = test["code"].as_str().unwrap();
    assert!(code.contains("url.Parse(\"cfg://adict[2]\")"), "{code}");
    assert!(code.contains("if err == nil"), "{code}");
}

/// java.net.URI's single-label host that starts with a digit is what its
/// javadoc allows, so `dvd://1` is no java-uri defect and gets no test.
#[test]
fn java_uri_single_label_host_is_no_defect() {
    let (_, lines) = reproduce(&["--json", "--oracle", "java-uri", "--", "dvd://1"]);
    assert!(lines.iter().all(|r| r["parser"] != "java-uri"), "{lines:?}");
}
