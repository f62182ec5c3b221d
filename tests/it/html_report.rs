//! The HTML report in a real browser: headless Chromium loads the page
//! and a person's actions (filter by basis, search, expand an example) are
//! given through the address's fragment, which the page reads as its state;
//! the DOM Chromium dumps is what a person would see. Needs Chromium:
//! `.ci/run` installs Debian's `chromium`; without it the test fails with an
//! install hint.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            && out.status.success()
        {
            return PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        }
    }
    panic!(
        "Chromium not found: install it (apt-get install chromium) to test the HTML report in a browser"
    );
}

/// The DOM of `page` with `fragment` as its address's fragment, after its
/// script ran.
fn dom(browser: &Path, page: &Path, fragment: &str, profile: &Path) -> String {
    let url = format!("file://{}#{fragment}", page.display());
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `<tr class="group ...">` rows of the signature table.
fn group_rows(dom: &str) -> Vec<&str> {
    dom.split("<tr class=\"group ").skip(1).collect()
}

#[test]
fn a_person_can_filter_search_and_expand_the_report_in_a_browser() {
    let browser = chromium();
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs.txt");
    std::fs::write(
        &inputs,
        "http://[::1]evil.com:80/\nhttp://a_b.example/\nftp://@host.com/\nhttp://a\u{200b}b.com/\n",
    )
    .unwrap();
    let page = dir.path().join("report.html");
    let status = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["report", "--model", "--lines", "--format", "html", "--out"])
        .arg(&page)
        .arg(&inputs)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "self-contained"
    );
    let profile = dir.path().join("profile");

    // Everything: every signature listed, the hidden character escaped.
    let all = dom(&browser, &page, "", &profile);
    let rows = group_rows(&all);
    assert!(rows.len() >= 5, "{} rows", rows.len());
    assert!(
        all.contains("a\\u{200b}b.com"),
        "the zero-width space is shown escaped"
    );
    assert!(!all.contains("a\u{200b}b.com"));
    assert!(all.contains(&format!(
        "{} of {} signatures shown",
        rows.len(),
        rows.len()
    )));

    // Filter by basis: only defects remain.
    let defects = dom(&browser, &page, "basis=defect", &profile);
    let rows = group_rows(&defects);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.starts_with("defect\"")), "{rows:?}");
    assert!(defects.contains("dropped-input/defect/http"));

    // Search: only signatures with a matching input or effect.
    let searched = dom(&browser, &page, "q=a_b.example", &profile);
    let rows = group_rows(&searched);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.contains("a_b.example")), "{rows:?}");

    // Expand the first example of the first signature: its side-by-side table.
    let expanded = dom(&browser, &page, "basis=defect&expand=0.0", &profile);
    assert!(
        expanded.contains("class=\"expanded\""),
        "no expanded example"
    );
    assert!(expanded.contains("<table class=\"detail\">"));
    assert!(expanded.contains("<th>rfc2396</th>") && expanded.contains("<th>http</th>"));
    assert!(expanded.contains("reproduce: "));
}

/// Text as Chromium's DOM dump serializes a text node.
fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\u{a0}', "&nbsp;")
}

/// Inputs written to end, comment out or reorder the page's data: each
/// signature is still listed in the browser, and each input shown as
/// `uridiff::text::visible` shows it.
#[test]
fn crafted_inputs_cannot_hide_a_signature_in_a_browser() {
    let browser = chromium();
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs.txt");
    let crafted = [
        "http://a_b.com/<!--<script>",
        // `<!--` and `<script>` in two inputs, which the data may hold in
        // either order.
        "http://[::1]evil.com:80/<!--",
        "ftp://@host.com/<script>",
        "http://h:80/</script><p id=x>",
        "HTTP://X/]]>`x``y`",
        "http://a_b.com/\u{2028}\u{2029}",
        "http://a_b.com/\u{202e}\u{2066}gpj.exe",
        "http://a_b.com/\\u{200b}",
        "http://h/a#b`${alert(1)}`",
    ];
    std::fs::write(&inputs, crafted.join("\n")).unwrap();
    let page = dir.path().join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["report", "--model", "--lines", "--format", "html", "--out"])
        .arg(&page)
        .arg(&inputs)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The signatures and examples, from the JSON Lines report of the same
    // inputs.
    let o = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["report", "--model", "--lines", "--format", "jsonl"])
        .arg(&inputs)
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let groups = summary["signatures"].as_array().unwrap();
    assert!(groups.len() >= 5, "{} signatures", groups.len());

    let profile = dir.path().join("profile");
    let all = dom(&browser, &page, "", &profile);
    let rows = group_rows(&all);
    assert_eq!(rows.len(), groups.len(), "every signature is listed");
    assert!(all.contains(&format!(
        "{} of {} signatures shown",
        groups.len(),
        groups.len()
    )));
    let mut shown = 0;
    for g in groups {
        let signature = g["signature"].as_str().unwrap();
        assert!(
            rows.iter()
                .any(|r| r.contains(&format!("data-signature=\"{signature}\""))),
            "{signature} not listed"
        );
        for e in g["examples"].as_array().unwrap() {
            let input = e["input"].as_str().unwrap();
            let visible = escape_text(&uridiff::text::visible(input));
            assert!(all.contains(&visible), "{input:?} not shown as {visible:?}");
            shown += 1;
        }
    }
    assert!(shown >= crafted.len(), "{shown} examples shown");
    for raw in ['\u{2028}', '\u{2029}', '\u{202e}', '\u{2066}'] {
        assert!(!all.contains(raw), "{raw:?} reaches the page raw");
    }
    assert!(
        !all.contains("<p id=\"x\">"),
        "an input's markup became the page's"
    );
    // The literal escape is not shown as the character it names.
    assert!(all.contains("http://a_b.com/\\\\u{200b}"));
}

#[test]
fn the_bypass_grid_is_coloured_and_numbered_in_a_browser() {
    let browser = chromium();
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs.txt");
    std::fs::write(&inputs, "http://a\\b@c/d\nhttp://x.example#@y.example/\n").unwrap();
    let page = dir.path().join("report.html");
    let status = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args([
            "report",
            "--confirm",
            "--lines",
            "--format",
            "html",
            "--out",
        ])
        .arg(&page)
        .arg(&inputs)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let profile = dir.path().join("profile");
    let all = dom(&browser, &page, "", &profile);
    let grid = all
        .split("<table id=\"bypass\">")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .expect("the bypass table");
    let parsers = uridiff::oracle::registry()
        .iter()
        .filter(|o| o.validates && !o.reference)
        .count();
    // One row per validator (the parsers and four string checks), one
    // column per fetcher, each cell coloured by what it holds.
    assert_eq!(grid.matches("<tr>").count(), 1 + parsers + 4, "{grid}");
    assert_eq!(grid.matches("class=\"self\"").count(), parsers);
    let confirmed = grid.matches("class=\"confirmed\"").count();
    let hits = grid.matches("class=\"hit\"").count() + confirmed;
    assert!(hits >= 4, "string checks and backslash pairs: {grid}");
    assert_eq!(
        hits + grid.matches("class=\"none\"").count() + parsers,
        (parsers + 4) * parsers
    );
    // libcurl, the one HTTP client among the in-process fetchers, sends
    // url's backslash bypass to the target's trap: a dark cell.
    if cfg!(feature = "curl") {
        assert!(confirmed >= 1, "{grid}");
    } else {
        assert_eq!(confirmed, 0, "no in-process fetcher has a client: {grid}");
    }
    // split-host is bypassed when url fetches.
    assert!(all.contains("split-host → url: <code>"), "{all}");
    let list = all
        .split("<ol id=\"bypass-list\">")
        .nth(1)
        .and_then(|rest| rest.split("</ol>").next())
        .unwrap();
    assert_eq!(
        list.matches("<li>").count(),
        hits,
        "one list entry per red cell"
    );
    assert!(all.contains(&format!(
        "pairs bypassed, {confirmed} confirmed by a real client"
    )));
}
