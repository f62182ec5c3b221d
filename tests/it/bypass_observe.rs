//! `uridiff bypass --observe` through the CLI: candidates sent through
//! real clients in a network namespace (`uridiff fetch`'s), and what the
//! outputs say of each cell. Needs root, iproute2 and the clients'
//! runtimes (`scripts/setup-oracles.sh`); a missing one fails the test
//! with uridiff's install hint, never skips.

use serde_json::Value;

use super::bypass::bypass;

/// `uridiff bypass --observe --json ARGS`: its exit code and lines. Needs
/// root, iproute2 and the fetchers' client runtimes, as `fetch_netns`: a
/// missing one fails with what uridiff says, never skips.
fn observed(args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["--observe", "--json"];
    all.extend_from_slice(args);
    let (code, lines, err) = bypass(&all);
    assert!(
        code == 0 || code == 1,
        "uridiff bypass {all:?} (needs root and the clients' runtimes): {err}"
    );
    (code, lines)
}

/// The bypasses a client was observed to carry to the target.
fn reached(lines: &[Value]) -> Vec<&Value> {
    lines
        .iter()
        .filter(|b| b["observed"]["reached"] == true)
        .collect()
}

#[cfg(feature = "curl")]
#[test]
fn a_hostless_check_is_bypassed_by_what_libcurl_is_observed_to_fetch() {
    let (code, lines) = observed(&[
        "--allow-no-host",
        "--target",
        "evil.example",
        "--validator",
        "python-urllib",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1, "{lines:?}");
    let hits = reached(&lines);
    assert!(
        hits.iter()
            .any(|b| b["input"].as_str().unwrap().starts_with("http:/")
                && b["validator_host"].is_null()
                && b["observed"]["client"] == "libcurl"
                && b["observed"]["predicted"] == true
                && b["observed"]["resolved_name"] == "evil.example"),
        "{lines:?}"
    );
}

#[test]
fn url_validating_and_urllib_request_fetching_is_no_bypass_once_observed() {
    let (code, lines) = observed(&[
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "url",
        "--fetcher",
        "python-urllib",
    ]);
    assert_eq!(code, 0, "{lines:?}");
    assert!(reached(&lines).is_empty(), "{lines:?}");
    // The model predicted some; each was sent and did not arrive.
    assert!(
        lines
            .iter()
            .any(|b| b["observed"]["predicted"] == true && b["observed"]["reached"] == false),
        "{lines:?}"
    );
}

#[test]
fn urlsplit_and_an_ip_check_then_urllib_request_reach_loopback_by_a_number_form() {
    let (code, lines) = observed(&[
        "--deny",
        "internal",
        "--validator",
        "python-urllib",
        "--fetcher",
        "python-urllib",
    ]);
    assert_eq!(code, 1, "{lines:?}");
    let number_forms = [
        "127.1",
        "0177.0.0.1",
        "2130706433",
        "0x7f.1",
        "0x7f000001",
        "0",
    ];
    assert!(
        reached(&lines)
            .iter()
            .any(|b| b["validator"] == "python-urllib"
                && b["fetcher"] == "python-urllib"
                && number_forms.contains(&b["validator_host"].as_str().unwrap_or_default())
                && b["observed"]["address"] == "127.0.0.1"),
        "{lines:?}"
    );
}

#[cfg(feature = "curl")]
#[test]
fn a_prefix_check_is_bypassed_by_a_name_under_the_attackers_domain() {
    let (code, found, err) = bypass(&[
        "--json",
        "--allow",
        "allowed.example",
        "--target-domain",
        "evil.example",
        "--validator",
        "prefix",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        found
            .iter()
            .any(|b| b["input"] == "http://allowed.example.evil.example"
                || b["input"] == "http://allowed.example.evil.example/"),
        "{found:?}"
    );
    let (code, lines) = observed(&[
        "--allow",
        "allowed.example",
        "--target-domain",
        "evil.example",
        "--validator",
        "prefix",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1);
    assert!(
        reached(&lines)
            .iter()
            .any(|b| b["observed"]["resolved_name"] == "allowed.example.evil.example"),
        "{lines:?}"
    );
}

/// httpx and yarl had no client until `uridiff fetch` had `httpx` and
/// `aiohttp`: `--observe` now sends their cells through them. urllib3's
/// authority ends at a backslash (urllib3/util/url.py, `_URI_RE`), httpx's
/// userinfo runs to the '@' (httpx/_urlparse.py, `"userinfo": "[^@]*"`): the
/// model's bypass is what the httpx client was observed to do.
#[test]
fn urllib3_validating_and_httpx_fetching_is_observed_by_the_httpx_client() {
    let (code, lines) = observed(&[
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "urllib3",
        "--fetcher",
        "httpx",
    ]);
    assert_eq!(code, 1, "{lines:?}");
    assert!(
        reached(&lines)
            .iter()
            .any(|b| b["input"] == "http://allowed.example\\@evil.example"
                && b["observed"]["client"] == "httpx"
                && b["observed"]["predicted"] == true
                && b["observed"]["resolved_name"] == "evil.example"
                && b["observed"]["host_header"] == "evil.example"),
        "{lines:?}"
    );
}

/// The model reads yarl's `127.1` as glibc's resolver would (127.0.0.1), but
/// aiohttp refuses an all-digit IPv4 form that is not a dotted quad before
/// it resolves (aiohttp/connector.py, `_resolve_host`:
/// `is_canonical_ipv4_address`): every such cell is predicted, sent, and
/// not reached (one with a non-ASCII userinfo fails earlier, encoding it).
/// It dials a hex form (`0x7f.1`: not all digits), which the model reads
/// alike: each spelling of the host is a candidate of its own, so that
/// one is sent too, and reached.
#[test]
fn aiohttp_refuses_the_short_number_forms_the_model_predicts_for_yarl() {
    let (_, lines) = observed(&[
        "--deny",
        "internal",
        "--validator",
        "yarl",
        "--fetcher",
        "yarl",
    ]);
    let short: Vec<&Value> = lines
        .iter()
        .filter(|b| b["fetcher_host"] == "127.1")
        .collect();
    assert!(!short.is_empty(), "{lines:?}");
    for b in &short {
        assert_eq!(b["observed"]["client"], "aiohttp", "{b}");
        assert_eq!(b["observed"]["predicted"], true, "{b}");
        assert_eq!(b["observed"]["reached"], false, "{b}");
        assert!(b["observed"]["address"].is_null(), "{b}");
    }
    let plain = short
        .iter()
        .find(|b| b["input"] == "http://127.1")
        .unwrap_or_else(|| panic!("no cell for http://127.1: {lines:?}"));
    assert_eq!(
        plain["observed"]["error"],
        "InvalidUrlClientError: 127.1 - is not a canonical IPv4 address",
        "{plain}"
    );
    let hex = lines
        .iter()
        .find(|b| b["input"] == "http://0x7f.1")
        .unwrap_or_else(|| panic!("http://0x7f.1 was not sent: {lines:?}"));
    assert_eq!(hex["observed"]["client"], "aiohttp", "{hex}");
    assert_eq!(hex["observed"]["reached"], true, "{hex}");
    assert_eq!(hex["observed"]["address"], "127.0.0.1", "{hex}");
}

/// With `--observe`, the Markdown and HTML outputs say of each cell
/// whether a client was observed carrying it to the target (✔, with the
/// client and where its request arrived), whether the model predicted it
/// and no client did (✗, with what the client did), or whether it was not
/// sent (?: fast-uri has no client). The HTML page is rendered by headless
/// Chromium in a network namespace of its own (`unshare -n`: it loads a
/// local file and reaches nothing).
#[cfg(feature = "curl")]
#[test]
fn markdown_and_html_say_of_each_cell_whether_a_client_was_observed() {
    let args = [
        "--observe",
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "url",
        "--fetcher",
        "python-urllib",
        "--fetcher",
        "curl",
        "--fetcher",
        "fast-uri",
    ];
    let mut markdown = vec!["--markdown"];
    markdown.extend(args);
    let (code, _, text) = bypass(&markdown);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("| url | 1 ✗ | 2 ✔ | 3 ? |"), "{text}");
    assert!(
        text.contains(
            "**1 of 3 validator/fetcher pairs bypassed, each observed in a network namespace"
        ),
        "{text}"
    );
    for words in [
        "1. url → python-urllib: `http://allowed.example\\@evil.example`",
        "; not observed: urllib.request failed: `URLError:",
        "2. url → curl: `http://allowed.example\\@evil.example`",
        "; observed: libcurl reached `127.0.0.3` (resolved `evil.example`) (Host `evil.example`); the model predicted it.",
        "3. url → fast-uri:",
        "; not sent: no client reads URLs with fast-uri's parser; the model predicted it.",
    ] {
        assert!(text.contains(words), "{words:?} in {text}");
    }

    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bypass.html");
    let out = std::process::Command::new(crate::util::BIN)
        .arg("bypass")
        .arg("--html")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(&page, &out.stdout).unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    let data = html
        .split("<script type=\"application/json\" id=\"data\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let data: Value = serde_json::from_str(data).unwrap();
    let matrix = &data["bypass"];
    assert_eq!(matrix["observation"], "ran");
    assert_eq!(matrix["cells"].as_array().unwrap().len(), 1, "{matrix}");
    assert_eq!(matrix["cells"][0]["observed"]["client"], "libcurl");
    let unobserved: Vec<&str> = matrix["unobserved_cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["fetcher"].as_str().unwrap())
        .collect();
    assert_eq!(unobserved, ["python-urllib", "fast-uri"]);

    let dom = dom(&page, &dir.path().join("profile"));
    for words in [
        "<td class=\"unobserved\" title=\"http://allowed.example\\@evil.example\">1 ✗</td>",
        "<td class=\"hit\" title=\"http://allowed.example\\@evil.example\">2 ✔</td>",
        "<td class=\"unobserved\" title=\"http://allowed.example\\@evil.example\">3 ?</td>",
        "; observed: libcurl reached 127.0.0.3 (resolved evil.example) (Host evil.example); the model predicted it.",
        "; not observed: urllib.request failed: URLError:",
        "; not sent; the model predicted it.",
        "each observed in a network namespace",
    ] {
        assert!(dom.contains(words), "{words:?} in {dom}");
    }
}

/// The DOM of the local page `page` after its script ran, dumped by
/// headless Chromium in a network namespace of its own (`unshare -n`: no
/// interface up, nothing reachable).
#[cfg(feature = "curl")]
fn dom(page: &std::path::Path, profile: &std::path::Path) -> String {
    let out = std::process::Command::new("unshare")
        .args([
            "-n",
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium (apt-get install chromium): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `report` observes its Bypasses section by default, as `bypass` observes
/// a matrix (as root, in a network namespace):
/// its marks and each entry's words say what a client did and what the
/// model predicted, and a cell only a client's rewriting makes is there.
#[cfg(feature = "curl")]
#[test]
fn the_reports_bypasses_section_is_observed_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input");
    std::fs::write(&input, "http://allowed.example\\@evil.example").unwrap();
    let out_path = dir.path().join("report.md");
    let out = std::process::Command::new(crate::util::BIN)
        .args(["report", "--oracle", "urllib3", "--format", "md", "--out"])
        .arg(&out_path)
        .arg(&input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "uridiff report (observes as root; needs the clients' runtimes): {err}"
    );
    assert!(
        !err.contains("is not observed"),
        "observation must run here: {err}"
    );
    let report = std::fs::read_to_string(&out_path).unwrap();
    let section = report.split("## Bypasses").nth(1).unwrap();
    assert!(
        section.contains("each observed in a network namespace"),
        "{section}"
    );
    assert!(
        section.contains("; observed: libcurl reached `127.0.0.3`")
            && section.contains("the model predicted it"),
        "{section}"
    );
    // urllib3 adds `http://` to what its parser reads as a scheme-less
    // input: a cell the model does not predict, observed.
    assert!(
        section
            .lines()
            .any(|l| l.contains("→ urllib3: `evil.example://allowed.example")
                && l.contains("observed: urllib3 reached `127.0.0.3`")
                && l.contains("the model predicted no bypass of this pair")),
        "{section}"
    );
}

/// `uridiff bypass ARGS` as it is given (no `--model` added): exit code,
/// JSON lines, standard error.
fn bypass_as_given(args: &[&str]) -> (i32, Vec<Value>, String) {
    let out = std::process::Command::new(crate::util::BIN)
        .arg("bypass")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        json_lines(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The example, with no flag: `bypass` observes by default (as
/// root), so the cell the parser model predicts for url → python-urllib
/// (`http://allowed.example\@evil.example`) is shown with what
/// urllib.request did and is not claimed; `--model` still prints the
/// model's claim.
#[test]
fn bypass_observes_by_default_and_claims_no_cell_a_client_disproves() {
    let args = [
        "--json",
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "url",
        "--fetcher",
        "python-urllib",
    ];
    let (code, lines, err) = bypass_as_given(&args);
    assert_eq!(code, 0, "no bypass observed (needs root): {err}");
    assert!(!lines.is_empty(), "the model's prediction is shown: {err}");
    for b in &lines {
        assert_eq!(b["observed"]["reached"], false, "{b}");
        assert_eq!(b["observed"]["client"], "urllib.request", "{b}");
    }
    let mut model = vec!["--model"];
    model.extend(args);
    let (code, lines, err) = bypass_as_given(&model);
    assert_eq!(code, 1, "the model claims the cell: {err}");
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines.iter().all(|b| b.get("observed").is_none()),
        "{lines:?}"
    );
}

/// Where no network namespace can be entered (here an unprivileged user,
/// through util-linux's setpriv, running a copy of uridiff in a directory
/// it may read), `bypass` prints the model's cells, exits as the model
/// finds (url -> curl: the backslash), and says on standard error and in
/// its text output that they are predictions, not observations.
#[cfg(feature = "curl")]
#[test]
fn without_a_namespace_bypass_and_report_say_their_cells_are_the_models_predictions() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = dir.path().join("uridiff");
    std::fs::copy(crate::util::BIN, &bin).unwrap();
    let run = |json: bool| {
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .arg("bypass")
            .args(json.then_some("--json"))
            .args(["--validator", "url", "--fetcher", "curl"])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = run(true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the model's cell is claimed: {err}"
    );
    assert!(
        err.contains("bypass: not observed: no network namespace")
            && err.contains("the cells are the parser model's predictions"),
        "{err}"
    );
    let lines = json_lines(&out.stdout);
    assert!(
        lines
            .iter()
            .any(|b| b["input"].as_str().unwrap().contains('\\')),
        "{lines:?}"
    );
    let text = String::from_utf8(run(false).stdout).unwrap();
    assert!(
        text.contains("not observed: no network namespace")
            && text.contains("these cells are the parser model's predictions"),
        "{text}"
    );
    // `report` falls back the same way: the report is written, standard
    // error says why its Bypasses section is not observed, and the section
    // says its cells are the model's.
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "http://allowed.example\\@evil.example/\n").unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&bin)
        .args(["report", "--lines", "--format", "md"])
        .arg(&input)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{err}");
    assert!(
        err.contains("the Bypasses section is not observed: no network namespace")
            && err.contains("its cells are the parser model's predictions"),
        "{err}"
    );
    let report = String::from_utf8(out.stdout).unwrap();
    let section = report.split("## Bypasses").nth(1).unwrap();
    assert!(
        section.contains("none observed") && section.contains("observation did not run"),
        "{section}"
    );
}
