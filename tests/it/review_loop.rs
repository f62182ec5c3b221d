//! The review loop's sharp edges, end to end: minimal reproducers, exact
//! file input, exit codes, where `--out` may write, and the corpus commands.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::{uridiff, uridiff_stdin};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn minimize_keeps_the_same_signatures_and_shortens() {
    let out = uridiff(&["minimize", "--json", "http://user@a_b.example:8080/a/b?q#f"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let minimized = v["minimized"].as_str().unwrap();
    assert!(minimized.len() < v["input"].as_str().unwrap().len(), "{v}");
    let again = uridiff(&["minimize", "--json", "--", minimized]);
    let w: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w["signatures"], v["signatures"]);
}

#[test]
fn minimize_shrink_base_shortens_the_base_and_keeps_the_signatures() {
    let base = "httj://t/aaaa/bbbb?q#f";
    let out = uridiff(&[
        "minimize",
        "--json",
        "--base",
        base,
        "--shrink-base",
        "--",
        "1/%2e/..//x",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let small_base = v["minimized_base"].as_str().unwrap();
    assert!(small_base.len() < base.len(), "{v}");
    let again = uridiff(&[
        "minimize",
        "--json",
        "--base",
        small_base,
        "--",
        v["minimized"].as_str().unwrap(),
    ]);
    let w: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w["signatures"], v["signatures"]);
    assert!(w.get("minimized_base").is_none(), "{w}");
    let without_base = uridiff(&["minimize", "--shrink-base", "x"]);
    assert_eq!(without_base.status.code(), Some(2));
}

#[test]
fn check_file_reads_nuls_and_the_trailing_newline_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input");
    std::fs::write(&file, b"http://h/\0x\n").unwrap();
    let out = uridiff(&["check", "--json", "--file", file.to_str().unwrap()]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["input"], "http://h/\u{0}x\n");
}

#[test]
fn a_non_utf8_line_is_listed_and_no_error() {
    let out = uridiff_stdin(
        &["check", "--json"],
        b"http://h/\n\xff\xfe\nhttp://a_b.example/\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(lines[2]["input"], "http://a_b.example/");
}

#[test]
fn hidden_characters_are_escaped_in_the_table() {
    let out = uridiff(&["check", "http://a\u{200b}b.com/\u{202e}x"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("a\\u{200b}b.com"), "{shown}");
    assert!(shown.contains("\\u{202e}"), "{shown}");
    assert!(!shown.contains('\u{202e}') && !shown.contains('\u{200b}'));
}

#[test]
fn report_of_nothing_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = uridiff(&["report", "--model", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nothing was checked"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn report_with_a_line_over_the_limit_exits_2_and_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.txt");
    let mut body = b"http://h/\n".to_vec();
    body.extend(std::iter::repeat_n(b'a', (1 << 20) + 1));
    body.push(b'\n');
    std::fs::write(&file, body).unwrap();
    let out = uridiff(&["report", "--model", "--lines", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("input limit"),
        "listed in the report"
    );
}

#[cfg(unix)]
#[test]
fn out_never_replaces_a_fifo_and_writes_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in.txt");
    std::fs::write(&inputs, "http://h/\n").unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = uridiff(&[
        "report",
        "--model",
        "--lines",
        "--out",
        fifo.to_str().unwrap(),
        inputs.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo_like()
    );

    let target = dir.path().join("real.md");
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = uridiff(&[
        "report",
        "--model",
        "--lines",
        "--out",
        link.to_str().unwrap(),
        inputs.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("# uridiff disagreement report")
    );
    // No temporary file's name in what a person reads: only the path given.
    let said = text(&out.stdout).replace(dir.path().to_str().unwrap(), "DIR");
    assert!(
        said.contains("DIR/link.md") && !said.contains(".tmp"),
        "{said}"
    );
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}

impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        use std::os::unix::fs::FileTypeExt;
        self.is_fifo()
    }
}

#[test]
fn corpus_add_names_its_target_and_bless_needs_a_corpus() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("curated.txt"), "").unwrap();
    let root = dir.path().to_str().unwrap();
    // A URL where the target belongs is refused, not added as an input.
    let out = uridiff(&["corpus", "add", "--root", root, "http://x/"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let out = uridiff(&["corpus", "add", "--root", root, "differential", "http://x/"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_dir(dir.path().join("differential"))
            .unwrap()
            .count(),
        1
    );

    let empty = tempfile::tempdir().unwrap();
    let out = uridiff(&["corpus", "bless", "--root", empty.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no saved corpus"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn reports_group_by_signature_with_a_reproduce_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(&file, "http://[::1]evil.com:80/\nhttp://a_b.example/\n").unwrap();
    let out = uridiff(&["report", "--model", "--lines", file.to_str().unwrap()]);
    let md = text(&out.stdout);
    let defects = md.find("## Suspected parser defects").unwrap();
    let pairs = md.find("## Host confusions per parser pair").unwrap();
    let spec = md.find("## Spec differences").unwrap();
    assert!(defects < pairs && pairs < spec, "sections in order");
    assert!(
        md.contains("`dropped-input/defect/http/authority,host,port`"),
        "{md}"
    );
    assert!(
        md.contains("uridiff check -- 'http://[::1]evil.com:80/'"),
        "{md}"
    );
}

/// `parse` and `check` answer a line of standard input before the next one
/// arrives: the first answer is read while stdin is still open. (The
/// timeout only turns a hang into a failure; it measures nothing.)
#[test]
fn parse_and_check_answer_each_stdin_line_as_it_arrives() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;

    for command in [["parse", "--json"], ["check", "--json"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_uridiff"))
            .args(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"http://h/\n").unwrap();
        stdin.flush().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            BufReader::new(stdout).read_line(&mut line).unwrap();
            tx.send(line).unwrap();
        });
        let first = rx.recv_timeout(Duration::from_secs(60));
        drop(stdin);
        let _ = child.wait();
        let first = first.unwrap_or_else(|_| panic!("{command:?}: no answer before stdin closed"));
        let v: Value = serde_json::from_str(&first).unwrap();
        assert_eq!(v["input"], "http://h/", "{command:?}");
    }
}
