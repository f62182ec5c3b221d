//! `check` with an external oracle answers standard input line by line as
//! it arrives: an interactive user (or a pipeline that waits for each
//! answer) is not kept waiting for a batch of 512 lines or the end of input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn check_with_an_external_oracle_answers_each_line_before_the_next_arrives() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_uridiff"))
        .args(["check", "--json", "--oracle", "python-urllib"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, answers) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for input in ["http://a_b.example/", "http://example.com\\@evil.com/"] {
        writeln!(stdin, "{input}").unwrap();
        stdin.flush().unwrap();
        // Standard input stays open: the answer must come anyway. The
        // timeout only keeps a regression from hanging the test run.
        let answer = answers
            .recv_timeout(Duration::from_secs(120))
            .expect("no answer while standard input is still open");
        let case: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(case["input"], input);
        assert!(case["outcomes"]["python-urllib"]["verdict"].is_string());
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
