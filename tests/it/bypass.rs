//! `uridiff bypass` through the CLI: the examples of the issue "Impact:
//! which check a confusion bypasses". The urllib3 and python-urllib ones
//! need python3 and the pinned urllib3 (`scripts/setup-oracles.sh`); a
//! missing runtime fails the test with uridiff's install hint.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::process::Command;

use serde_json::Value;

/// Runs `uridiff bypass ARGS`: its exit code and its JSON lines. These
/// tests hold the parser model's predictions (or `--confirm`'s), so
/// `--model` is given unless ARGS ask for `--observe` or `--confirm`:
/// as root `bypass` observes by default (`bypass_observe.rs`).
pub(crate) fn bypass(args: &[&str]) -> (i32, Vec<Value>, String) {
    let model = !args
        .iter()
        .any(|a| ["--observe", "--confirm", "--model"].contains(a));
    let out = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .arg("bypass")
        .args(model.then_some("--model"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let lines = if args.contains(&"--json") {
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect()
    } else {
        Vec::new()
    };
    (
        out.status.code().unwrap_or(-1),
        lines,
        if args.contains(&"--json") {
            stderr
        } else {
            stdout + &stderr
        },
    )
}

#[cfg(feature = "curl")]
#[test]
fn url_validating_and_curl_fetching_is_bypassed_through_a_backslash() {
    let (code, found, err) = bypass(&[
        "--json",
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "url",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1, "a bypass found exits 1: {err}");
    assert!(!found.is_empty());
    for b in &found {
        assert_eq!(b["validator"], "url");
        assert_eq!(b["fetcher"], "curl");
        assert_eq!(b["validator_host"], "allowed.example");
        assert_eq!(b["fetcher_host"], "evil.example");
    }
    assert!(
        found.iter().any(|b| b["input"]
            .as_str()
            .unwrap()
            .starts_with("http://allowed.example\\@evil.example")),
        "{found:?}"
    );
}

#[test]
fn split_host_is_bypassed_through_a_fragment_or_query_before_the_at() {
    let (code, found, err) = bypass(&[
        "--json",
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "split-host",
        "--fetcher",
        "url",
    ]);
    assert_eq!(code, 1, "{err}");
    let inputs: Vec<&str> = found.iter().map(|b| b["input"].as_str().unwrap()).collect();
    assert!(
        inputs
            .iter()
            .any(|i| i.contains("evil.example#@allowed.example")
                || i.contains("evil.example?@allowed.example")),
        "{inputs:?}"
    );
    for b in &found {
        assert_eq!(b["validator_host"], "allowed.example");
        assert_eq!(b["fetcher_host"], "evil.example");
    }
}

#[cfg(feature = "curl")]
#[test]
fn a_denylist_in_http_is_bypassed_by_an_ipv4_number_form_curl_reads_as_loopback() {
    let (code, found, err) = bypass(&[
        "--json",
        "--deny",
        "internal",
        "--validator",
        "http",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1, "{err}");
    let loopback: Vec<&Value> = found
        .iter()
        .filter(|b| b["fetcher_place"] == "loopback")
        .collect();
    assert!(!loopback.is_empty(), "{found:?}");
    for b in &found {
        // http::Uri reads a name or a public address; libcurl an internal one.
        let host = b["validator_host"].as_str().unwrap();
        let literal = uridiff::bypass::read(host, uridiff::bypass::Reading::Literal).place();
        assert!(!literal.is_internal(), "{b}");
        assert_ne!(b["fetcher_place"], "public");
        assert_ne!(b["fetcher_place"], "name");
    }
    assert!(
        loopback
            .iter()
            .any(|b| b["validator_host"] == "0x7f.1" || b["validator_host"] == "127.1"),
        "{loopback:?}"
    );
}

#[test]
fn peers_of_one_standard_give_no_bypass_and_exit_0() {
    let (code, _, out) = bypass(&[
        "--allow",
        "a.example",
        "--target",
        "b.example",
        "--validator",
        "url",
        "--fetcher",
        "ada",
    ]);
    if cfg!(feature = "ada") {
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("no bypass"), "{out}");
    } else {
        assert_eq!(code, 2, "ada is not in a pure-Rust build: {out}");
    }
}

#[test]
fn python_urllib_validating_and_url_fetching_is_bypassed() {
    let (code, found, err) = bypass(&[
        "--json",
        "--allow",
        "allowed.example",
        "--target",
        "evil.example",
        "--validator",
        "python-urllib",
        "--fetcher",
        "url",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        found.iter().any(|b| b["input"]
            .as_str()
            .unwrap()
            .starts_with("http://evil.example\\@allowed.example")
            && b["validator_host"] == "allowed.example"),
        "{found:?}"
    );
}

#[test]
fn placeholders_in_given_inputs_are_filled() {
    let (code, found, err) = bypass(&[
        "--json",
        "--allow",
        "good.example",
        "--target",
        "bad.example",
        "--validator",
        "split-host",
        "--fetcher",
        "http",
        "--corpus",
        "corpus",
        "--",
        "http://{target}#@{allow}",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        found
            .iter()
            .any(|b| b["input"] == "http://bad.example#@good.example"),
        "{found:?}"
    );
}

#[test]
fn usage_errors_name_the_problem_and_exit_2() {
    for (args, says) in [
        (vec!["--fetcher", "split-host"], "fetches nothing"),
        (vec!["--validator", "regex:("], "not a regular expression"),
        (vec!["--validator", "no-such"], "not an oracle of this run"),
        (vec!["--deny", "public"], "not an internal place"),
        (vec!["--allow", "x", "--target", "X"], "same host"),
    ] {
        let (code, _, out) = bypass(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.contains(says), "{args:?}: {out}");
    }
}

/// The confirmed cells of `bypass --confirm --json`.
fn confirmed(found: &[Value]) -> Vec<&Value> {
    found
        .iter()
        .filter(|b| b["confirmed_by"].is_string())
        .collect()
}

#[cfg(feature = "curl")]
#[test]
fn libcurl_s_request_for_a_url_validated_bypass_arrives_at_the_target_trap() {
    let (code, found, err) = bypass(&[
        "--json",
        "--confirm",
        "--allow",
        "127.0.0.2",
        "--target",
        "127.0.0.3",
        "--validator",
        "url",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(code, 1, "{err}");
    let confirmed = confirmed(&found);
    assert!(!confirmed.is_empty(), "{found:?} {err}");
    assert!(confirmed.iter().all(|b| b["confirmed_by"] == "libcurl"));
    assert!(
        confirmed.iter().any(|b| b["input"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.2\\@127.0.0.3")),
        "{confirmed:?}"
    );
}

#[test]
fn urllib3_s_request_for_a_urlsplit_validated_bypass_arrives_at_the_target_trap() {
    let (code, found, err) = bypass(&[
        "--json",
        "--confirm",
        "--allow",
        "127.0.0.2",
        "--target",
        "127.0.0.3",
        "--validator",
        "python-urllib",
        "--fetcher",
        "urllib3",
    ]);
    assert_eq!(code, 1, "{err}");
    let confirmed = confirmed(&found);
    assert!(
        confirmed.iter().any(|b| b["confirmed_by"] == "urllib3"
            && b["input"]
                .as_str()
                .unwrap()
                .starts_with("http://127.0.0.3\\@127.0.0.2")),
        "{found:?} {err}"
    );
}

#[test]
fn names_are_confirmed_through_the_clients_resolver_hooks() {
    // allowed.example and evil.example are mapped to 127.0.0.2 and
    // 127.0.0.3 in each client's own hook; no DNS is asked.
    let (code, found, err) = bypass(&[
        "--json",
        "--confirm",
        "--validator",
        "split-host",
        "--fetcher",
        "node-url",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        confirmed(&found)
            .iter()
            .any(|b| b["confirmed_by"] == "node-http-url-parse"),
        "{found:?} {err}"
    );
}

#[test]
fn confirmation_never_aims_outside_loopback() {
    // A target outside loopback would be dialled as written: refused
    // before any client starts, exit 2.
    for (allow, target) in [("127.0.0.2", "192.0.2.1"), ("10.0.0.1", "127.0.0.3")] {
        let (code, _, out) = bypass(&[
            "--confirm",
            "--allow",
            allow,
            "--target",
            target,
            "--validator",
            "split-host",
            "--fetcher",
            "python-urllib",
        ]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("is not a loopback address"), "{out}");
        assert!(!out.contains("✔"), "{out}");
    }
}

/// The last example: `bypass --confirm` while another local
/// process connects to the target's trap (it finds the trap's port in
/// `/proc/net/tcp` and sends a request without the token, over and over).
/// `url` validating and `urllib.request` fetching is a prediction no
/// client carries out (urllib.request hands `127.0.0.2\\` to its
/// resolver): no cell may be confirmed by the other process's
/// connections, which are counted as strays.
#[cfg(target_os = "linux")]
#[test]
fn a_connection_from_another_process_confirms_no_cell() {
    use std::io::Write as _;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let child = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args([
            "bypass",
            "--confirm",
            "--allow",
            "127.0.0.2",
            "--target",
            "127.0.0.3",
            "--validator",
            "url",
            "--fetcher",
            "python-urllib",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let done = AtomicBool::new(false);
    let sent = AtomicUsize::new(0);
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                // Listening sockets (state 0A) on 127.0.0.3, whose
                // /proc/net/tcp spelling is the little-endian 0300007F.
                let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
                for line in table.lines().skip(1) {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    let (Some(local), Some(&"0A")) = (fields.get(1), fields.get(3)) else {
                        continue;
                    };
                    let Some(port) = local
                        .strip_prefix("0300007F:")
                        .and_then(|p| u16::from_str_radix(p, 16).ok())
                    else {
                        continue;
                    };
                    let addr = std::net::SocketAddr::from(([127, 0, 0, 3], port));
                    if let Ok(mut stream) = std::net::TcpStream::connect_timeout(
                        &addr,
                        std::time::Duration::from_millis(500),
                    ) {
                        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.3\r\n\r\n");
                        sent.fetch_add(1, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        });
        let out = child.wait_with_output().unwrap();
        done.store(true, Ordering::Relaxed);
        out
    });
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(
        sent.load(Ordering::Relaxed) > 0,
        "the other process never reached the trap, so this run tested nothing: {text}{err}"
    );
    assert!(
        text.contains("confirmed by real clients on loopback: 0 of those pairs"),
        "{text}"
    );
    assert!(
        text.contains("stray requests at the traps ignored"),
        "{text}"
    );
    assert!(!text.contains('✔'), "{text}");
}

/// The command whose output is `docs/bypass-matrix.md`'s block: every
/// candidate through every client of the fetcher's parser, observed in a
/// network namespace (root), the budget above what the matrix sends.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
const DOCS_MATRIX: [&str; 7] = [
    "bypass",
    "--oracle",
    "all",
    "--observe",
    "--observe-budget",
    "10000",
    "--markdown",
];

/// The pairs a Markdown matrix's entries show (`N. V → F: ...`), with
/// whether the parser model predicted a bypass of each: an observed
/// matrix says "the model predicted no bypass of this pair" where it did
/// not; a model-only one predicts every pair it lists.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
fn predicted_pairs(markdown: &str) -> std::collections::BTreeSet<String> {
    markdown
        .lines()
        .filter_map(|line| {
            let (n, rest) = line.split_once(". ")?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let (pair, _) = rest.split_once(": ")?;
            (!line.contains("the model predicted no bypass of this pair")).then(|| pair.to_owned())
        })
        .collect()
}

/// Writes `text` to standard error past the test harness's capture: what
/// a passing test could not check must be seen.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
fn say_loudly(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The matrix of `docs/bypass-matrix.md` is what `uridiff bypass --oracle
/// all --observe --observe-budget 10000 --markdown` prints (every
/// in-process oracle, the string checks, the shipped adapters; every
/// candidate through the real clients in a network namespace): `BLESS=1`
/// rewrites it. Without a network namespace (not root) the observed marks
/// cannot be checked: the test then holds the file's model predictions to
/// the model-only matrix, and says on standard error what it could not
/// check.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
#[test]
fn docs_bypass_matrix_is_the_one_uridiff_prints() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .current_dir(root)
        .args(DOCS_MATRIX)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("skipping"),
        "every shipped adapter must run here (scripts/setup-oracles.sh): {stderr}"
    );
    // The matrix holds the shipped adapters' answers, and a distribution's
    // runtime (Debian's Go, PHP, Ruby) changes under security updates: the
    // block records the versions that made it, and is compared exactly only
    // on those.
    let versions = adapter_versions();
    let doc_path = root.join("docs/bypass-matrix.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let (head, rest) = doc
        .split_once("<!-- bypass-matrix: generated -->\n")
        .expect("docs/bypass-matrix.md has a `<!-- bypass-matrix: generated -->` line");
    let (recorded, tail) = rest
        .split_once("<!-- /bypass-matrix -->")
        .expect("docs/bypass-matrix.md has a `<!-- /bypass-matrix -->` line");
    let (recorded_versions, recorded) = recorded
        .split_once('\n')
        .filter(|(first, _)| first.starts_with("<!-- versions: "))
        .unwrap_or(("", recorded));
    assert!(
        head.contains(&format!("`uridiff {}`", DOCS_MATRIX.join(" ")))
            && head.contains(
                "`BLESS=1 cargo test --features uriparser --test it -- docs_bypass_matrix`"
            ),
        "docs/bypass-matrix.md's header names the command that prints its block and the one that rewrites it"
    );
    if stderr.contains("--observe needs a network namespace") {
        // No namespace here (not root): the clients cannot be observed.
        // What the model predicts can still be held to the file.
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            std::env::var_os("BLESS").is_none(),
            "BLESS=1 needs the observed matrix: run it as root ({stderr})"
        );
        say_loudly(&format!(
            "docs_bypass_matrix: NOT CHECKED: the observed cells (✔ ✗ ?) of docs/bypass-matrix.md, \
             because `uridiff {}` could not enter a network namespace ({}). Checked instead: the \
             pairs the parser model predicts, against the file's entries.\n",
            DOCS_MATRIX.join(" "),
            stderr.trim()
        ));
        let model = Command::new(env!("CARGO_BIN_EXE_uridiff"))
            .current_dir(root)
            .args(["bypass", "--model", "--oracle", "all", "--markdown"])
            .output()
            .unwrap();
        assert_eq!(
            model.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&model.stderr)
        );
        let model = predicted_pairs(&String::from_utf8(model.stdout).unwrap());
        let doc_predicted = predicted_pairs(recorded);
        if recorded_versions == versions {
            assert_eq!(
                doc_predicted
                    .symmetric_difference(&model)
                    .collect::<Vec<_>>(),
                Vec::<&String>::new(),
                "the pairs docs/bypass-matrix.md says the model predicts are the model's"
            );
        } else {
            say_loudly(&format!(
                "docs_bypass_matrix: NOT CHECKED either: the model's pairs, made with \
                 {recorded_versions}, this machine runs {versions}; pairs that differ: {:?}\n",
                doc_predicted
                    .symmetric_difference(&model)
                    .collect::<Vec<_>>()
            ));
        }
        assert!(recorded.contains(" ✔ |"), "the file holds observed cells");
        return;
    }
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        !stderr.contains("--observe:"),
        "every client must run and the budget must not run out here (scripts/setup-oracles.sh): {stderr}"
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let printed = printed.strip_prefix("## Bypasses\n\n").unwrap().trim_end();
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(
            &doc_path,
            format!(
                "{head}<!-- bypass-matrix: generated -->\n{versions}\n{printed}\n<!-- /bypass-matrix -->{tail}"
            ),
        )
        .unwrap();
        return;
    }
    if recorded_versions != versions {
        // Other adapter versions than the recording's: what cannot depend
        // on them still holds (the search ran every adapter, found
        // bypasses, real clients were observed carrying some); the
        // differences are told.
        say_loudly(&format!(
            "docs_bypass_matrix: NOT CHECKED exactly: docs/bypass-matrix.md was made with {recorded_versions}\nthis machine runs {versions}\n{}",
            similar::TextDiff::from_lines(recorded.trim_end(), printed)
                .unified_diff()
                .header("docs/bypass-matrix.md", "printed")
        ));
    } else {
        assert!(
            recorded.trim_end() == printed,
            "docs/bypass-matrix.md is out of date: run `BLESS=1 cargo test --features uriparser --test it -- docs_bypass_matrix` as root"
        );
    }
    assert!(
        printed.contains(" ✔ |"),
        "cells observed through real clients"
    );
    assert!(printed.contains("the model predicted it"), "{printed}");
}

/// Every shipped adapter's version key (`AdapterVersion::key`) as one
/// comment line: what the bypass matrix's recording depends on.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
fn adapter_versions() -> String {
    use uridiff::oracle::external::{Externals, Spec, shipped_names};
    let specs: Vec<Spec> = shipped_names()
        .into_iter()
        .map(|n| Spec::Shipped(n.to_owned()))
        .collect();
    let externals = Externals::start(&specs, std::time::Duration::from_secs(120)).unwrap();
    let keys: Vec<String> = externals
        .versions()
        .into_iter()
        .map(|(id, v)| {
            format!(
                "{id}: {}",
                v.map_or_else(|| "not started".to_owned(), |v| v.key())
            )
        })
        .collect();
    assert!(externals.finish().is_empty());
    format!("<!-- versions: {} -->", keys.join("; "))
}

#[test]
fn a_name_blocklist_is_bypassed_by_a_spelling_a_whatwg_parser_decodes() {
    let (code, found, err) = bypass(&[
        "--json",
        "--deny-name",
        "evil.example",
        "--validator",
        "split-host",
        "--fetcher",
        "url",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        found.iter().any(|b| b["input"]
            .as_str()
            .unwrap()
            .starts_with("http://%65vil.example")
            && b["validator_host"] == "%65vil.example"
            && b["fetcher_host"] == "evil.example"),
        "{found:?}"
    );
}

#[test]
fn the_new_goals_refuse_what_makes_no_sense() {
    for args in [
        &["--target-domain", "example"][..],
        &["--deny-name", ""][..],
        &["--deny", "internal", "--deny-name", "a"][..],
    ] {
        let (code, _, err) = bypass(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}
