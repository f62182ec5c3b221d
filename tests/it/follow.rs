//! `uridiff corpus follow`: a running campaign's new inputs checked by the
//! shipped adapters. It takes files added to a directory after it starts,
//! saves an input whose signature involves an adapter and is new (with its
//! `check --json`), never the same signature twice (in a run, or across
//! runs), counts what it does not check, ends with the process it follows,
//! and on a signal leaves no adapter running. Needs the adapters' runtimes
//! (java for the first tests, all of them for the signal test): a test
//! fails with the setup command when one is missing.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{BIN, assert_every_adapter_ready, root};

/// Fails unless the shipped adapter `name` can run here.
fn require_adapter(name: &str) {
    let status = uridiff::oracle::external::shipped_status();
    let row = status
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} is no shipped adapter"));
    assert!(
        row.missing.is_none(),
        "{name} cannot run here ({}): run bash scripts/setup-oracles.sh",
        row.missing
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default()
    );
}

/// The first input (no base) `testdata/adapter-outcomes/NAME.txt` records
/// a defect for: an input known to make that adapter disagree.
fn disagreeing_input(adapter: &str) -> String {
    let path = root().join(format!("testdata/adapter-outcomes/{adapter}.txt"));
    let text = fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains("defects="))
        .find_map(|l| {
            let quoted = l.split('\t').next()?;
            // `"INPUT" against "BASE"` is a pair: not what a
            // `differential` corpus file holds.
            serde_json::from_str::<String>(quoted).ok()
        })
        .unwrap_or_else(|| panic!("{} records no defect without a base", path.display()))
}

/// A follower at work: its process, its standard output read line by line.
struct Follower {
    child: Child,
    lines: std::io::Lines<BufReader<ChildStdout>>,
}

impl Follower {
    /// Starts `uridiff corpus follow ARGS` and waits for its "following"
    /// line: from then on, a file added to the directories is new to it.
    fn start(args: &[&str]) -> (Follower, String) {
        let mut child = Command::new(BIN)
            .args(["corpus", "follow", "--root"])
            .arg(root().join("corpus"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        assert!(
            first.starts_with("following "),
            "no 'following' line: {first:?}; {}",
            stderr_of(&mut child)
        );
        (Follower { child, lines }, first)
    }

    /// The next line it prints.
    fn line(&mut self) -> String {
        self.lines
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("the follower ended: {}", stderr_of(&mut self.child)))
    }

    /// Every line left, and the exit status.
    fn end(mut self) -> (Vec<String>, Option<i32>) {
        let rest: Vec<String> = self.lines.by_ref().map_while(Result::ok).collect();
        let status = self.child.wait().unwrap();
        (rest, status.code())
    }
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut text);
    }
    text
}

/// A stand-in for the campaign's process: the follower ends with it.
fn campaign() -> Child {
    Command::new("sleep").arg("600").spawn().unwrap()
}

/// Writes `bytes` into `dir` as `name`, whole, as libFuzzer adds an input.
fn drop_file(dir: &Path, name: &str, bytes: &[u8]) {
    let tmp = dir.join(format!(".{name}.part"));
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, dir.join(name)).unwrap();
}

fn names(dir: &Path) -> Vec<String> {
    crate::util::names(dir)
}

#[test]
fn a_new_file_with_an_adapter_signature_is_saved_once_with_its_report() {
    require_adapter("java-url");
    // java-url's recorded port-sign defect (`http://h:+80/`), which no
    // in-process parser accepts: its signatures are java-url's own in
    // every build.
    let input = disagreeing_input("java-url");
    let input = if input.starts_with("file:") {
        "http://h:+80/".to_owned()
    } else {
        input
    };
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("new");
    let artifacts = tmp.path().join("artifacts");
    fs::create_dir(&new).unwrap();
    // There before the follower: not checked (the campaign's seeds).
    drop_file(&new, "seed", input.as_bytes());
    let mut sleep = campaign();
    let pid = sleep.id().to_string();
    let (mut follower, ready) = Follower::start(&[
        "--oracle",
        "java-url",
        "--pid",
        &pid,
        "--interval-ms",
        "20",
        "--max-len",
        "64",
        "--artifacts",
        artifacts.to_str().unwrap(),
        new.to_str().unwrap(),
    ]);
    assert!(ready.contains("1 skipped"), "{ready}");
    drop_file(&new, "a", input.as_bytes());
    let saved = follower.line();
    assert!(saved.starts_with("saved "), "{saved}");
    let name = format!(
        "external-{}",
        &uridiff::corpus::file_name(input.as_bytes())[..16]
    );
    assert!(saved.contains(&name), "{saved}");
    let signatures: Vec<&str> = saved.split(": ").nth(1).unwrap().split(' ').collect();
    let listed = fs::read_to_string(root().join("corpus/signatures.txt")).unwrap();
    // The input, byte for byte, and its `check --json` beside it.
    assert_eq!(fs::read(artifacts.join(&name)).unwrap(), input.as_bytes());
    let report: Value =
        serde_json::from_str(&fs::read_to_string(artifacts.join(format!("{name}.json"))).unwrap())
            .unwrap();
    assert_eq!(report["input"], input.as_str());
    // Each saved signature is a finding about the adapter, or one that
    // compares a parser with it (its peer): what a follower saves
    // (`fuzzing::external_signatures`). In a build without ada, url's
    // reading of `file:////` is decided against java-url's by the
    // reference, a signature no saved corpus lists.
    let findings = report["findings"].as_array().unwrap();
    for s in &signatures {
        let involves = findings.iter().any(|f| {
            let fields: Vec<&str> = f["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let signature = format!(
                "{}/{}/{}/{}",
                f["class"].as_str().unwrap(),
                f["basis"].as_str().unwrap(),
                f["oracle"].as_str().unwrap(),
                fields.join(",")
            );
            signature == *s && (f["oracle"] == "java-url" || f["peer"] == "java-url")
        });
        assert!(involves, "{s} does not involve the adapter: {report}");
        assert!(
            !listed.lines().any(|l| l.split('\t').next() == Some(*s)),
            "{s} is known, yet saved"
        );
    }
    // The same signatures again (the same input under another name) and a
    // file over --max-len: neither is saved.
    drop_file(&new, "b", input.as_bytes());
    drop_file(&new, "big", &[b'a'; 65]);
    // Give the follower the time of many polls before the campaign ends.
    std::thread::sleep(Duration::from_millis(1500));
    sleep.kill().unwrap();
    sleep.wait().unwrap();
    let (rest, code) = follower.end();
    assert_eq!(code, Some(1), "{rest:?}");
    assert!(
        rest.iter().all(|l| !l.starts_with("saved ")),
        "saved twice: {rest:?}"
    );
    let summary = rest.last().unwrap();
    assert!(summary.starts_with("follow ended (process "), "{summary}");
    assert!(
        summary.contains(": 2 inputs checked; 1 findings saved"),
        "{summary}"
    );
    assert!(summary.contains("1 over 64 bytes"), "{summary}");
    assert_eq!(names(&artifacts), [name.clone(), format!("{name}.json")]);

    // A second run over the same directory, every file checked (the 65
    // bytes too, under the default --max-len): what the first saved is
    // known now (its report says so), nothing is saved.
    let sleep = campaign();
    let pid = sleep.id().to_string();
    let (follower, ready) = Follower::start(&[
        "--oracle",
        "java-url",
        "--pid",
        &pid,
        "--existing",
        "--artifacts",
        artifacts.to_str().unwrap(),
        new.to_str().unwrap(),
    ]);
    let earlier: usize = ready
        .split(" saved earlier")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{ready}"));
    assert!(earlier >= signatures.len(), "{ready}");
    let mut sleep = sleep;
    sleep.kill().unwrap();
    sleep.wait().unwrap();
    let (rest, code) = follower.end();
    assert_eq!(code, Some(0), "{rest:?}");
    assert!(
        rest.last()
            .is_some_and(|l| l.contains(": 4 inputs checked; 0 findings saved")),
        "{rest:?}"
    );
}

#[test]
fn what_is_no_corpus_directory_is_refused_before_any_adapter_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    fs::write(&file, "x").unwrap();
    for (args, said) in [
        (vec![file.to_str().unwrap()], "is not a directory"),
        (
            vec!["--queue", "0", tmp.path().to_str().unwrap()],
            "--queue must be at least 1",
        ),
    ] {
        let out = Command::new(BIN)
            .args(["corpus", "follow", "--root"])
            .arg(root().join("corpus"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(said),
            "{args:?}: {out:?}"
        );
    }
}

/// The processes below `root`, by reading every `/proc/PID/stat`.
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(e.path().join("stat")).ok()?;
            let ppid = stat.rsplit_once(") ")?.1.split(' ').nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect();
    let mut found = vec![root];
    let mut i = 0;
    while let Some(&parent) = found.get(i) {
        found.extend(parents.iter().filter(|(_, p)| *p == parent).map(|(c, _)| c));
        i += 1;
    }
    found.remove(0);
    found
}

/// Is `pid` running (a zombie, or a process gone, is not)?
fn running(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !matches!(
            stat.rsplit_once(") ").and_then(|(_, t)| t.chars().next()),
            Some('Z' | 'X')
        )
    })
}

#[test]
fn sigterm_ends_the_follower_and_every_adapter_it_started() {
    assert_every_adapter_ready();
    let tmp = tempfile::tempdir().unwrap();
    let new: PathBuf = tmp.path().join("new");
    fs::create_dir(&new).unwrap();
    let (follower, ready) = Follower::start(&[
        "--artifacts",
        tmp.path().join("artifacts").to_str().unwrap(),
        new.to_str().unwrap(),
    ]);
    // --oracle all by default: every shipped adapter.
    let count = uridiff::oracle::external::shipped_names().len();
    assert!(
        ready.contains(&format!("with {count} external oracles")),
        "{ready}"
    );
    let below = descendants(follower.child.id());
    assert!(below.len() >= count, "{below:?}");
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&follower.child),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    let (rest, code) = follower.end();
    assert_eq!(code, Some(143), "{rest:?}");
    assert!(
        rest.last()
            .is_some_and(|l| l.starts_with("follow ended (a signal)")),
        "{rest:?}"
    );
    // A killed process is gone once its new parent has reaped it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while below.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = below.into_iter().filter(|&p| running(p)).collect();
    assert!(left.is_empty(), "left running: {left:?}");
}

/// The line the follower prints next that starts with `prefix` (the
/// adapters' findings may come first).
fn line_starting(follower: &mut Follower, prefix: &str) -> String {
    loop {
        let line = follower.line();
        if line.starts_with(prefix) {
            return line;
        }
    }
}

/// `--client`: each input also goes through the HTTP client, in a network
/// namespace whose only interface is `lo` (this test needs root, as CI
/// runs; it fails, never skips, elsewhere), and an input on which the
/// client goes elsewhere than its own parser reads is saved once per
/// signature. `urllib.request` percent-decodes the host that
/// `urllib.parse.urlsplit` keeps (`http://%31%32%37.0.0.1/` dials
/// 127.0.0.1, checked by running both in CPython 3.11 inside `unshare -n`):
/// issue 33's example.
#[test]
fn a_client_that_goes_elsewhere_than_its_parser_is_saved_once() {
    require_adapter("python-urllib");
    assert!(
        rustix::process::geteuid().is_root(),
        "this test needs root (a network namespace for the clients), as CI runs it"
    );
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("new");
    let artifacts = tmp.path().join("artifacts");
    fs::create_dir(&new).unwrap();
    let mut sleep = campaign();
    let pid = sleep.id().to_string();
    let (mut follower, _) = Follower::start(&[
        "--oracle",
        "python-urllib",
        "--client",
        "urllib.request",
        "--pid",
        &pid,
        "--interval-ms",
        "20",
        "--artifacts",
        artifacts.to_str().unwrap(),
        new.to_str().unwrap(),
    ]);
    let with = follower.line();
    assert_eq!(
        with, "with 1 HTTP clients in mode namespace (urllib.request)",
        "{with}"
    );
    let input = "http://%31%32%37.0.0.1/";
    drop_file(&new, "a", input.as_bytes());
    let saved = line_starting(&mut follower, "saved ");
    // The adapter's and the client's processes (started at first use).
    let below = descendants(follower.child.id());
    assert!(below.len() >= 2, "{below:?}");
    let name = format!(
        "client-{}",
        &uridiff::corpus::file_name(input.as_bytes())[..16]
    );
    assert!(saved.contains(&name), "{saved}");
    assert!(
        saved.ends_with(": client-elsewhere/observed/urllib.request/host"),
        "{saved}"
    );
    assert_eq!(fs::read(artifacts.join(&name)).unwrap(), input.as_bytes());
    let record: Value =
        serde_json::from_str(&fs::read_to_string(artifacts.join(format!("{name}.json"))).unwrap())
            .unwrap();
    assert_eq!(record["parser"], "python-urllib", "{record}");
    assert_eq!(record["predicted"], "%31%32%37.0.0.1:80", "{record}");
    assert_eq!(record["address"], "127.0.0.1", "{record}");
    assert_eq!(record["mode"], "namespace", "{record}");
    assert_eq!(record["check"]["input"], input, "{record}");
    // The same departure on another input (`localhost%2e` decodes to
    // `localhost.`), an input the client reaches as its parser reads it,
    // and one of the first input's shape (the same reading, the same
    // steering characters), which the client is not sent: nothing more is
    // saved.
    drop_file(&new, "b", b"http://localhost%2e/");
    drop_file(&new, "c", b"http://127.0.0.1/");
    drop_file(&new, "d", b"http://%31%32%38.0.0.1/");
    std::thread::sleep(Duration::from_millis(3000));
    sleep.kill().unwrap();
    sleep.wait().unwrap();
    let (rest, code) = follower.end();
    assert_eq!(code, Some(1), "{rest:?}");
    assert!(
        rest.iter().all(|l| !l.contains("client-elsewhere")),
        "saved twice: {rest:?}"
    );
    let clients = rest.iter().find(|l| l.starts_with("clients: ")).unwrap();
    assert_eq!(
        clients,
        "clients: 3 requests, 2 departures from their parsers, 1 findings saved (1 new signatures); not sent: 1 of a shape the client was sent before, 0 with the queue full, 0 left at the end",
        "{rest:?}"
    );
    // The client process ended with the follower.
    let deadline = Instant::now() + Duration::from_secs(10);
    while below.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(below.iter().all(|&p| !running(p)), "left running");
}
