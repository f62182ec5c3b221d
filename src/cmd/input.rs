//! Reading inputs from arguments or standard input.

use std::io::{self, BufRead};

/// One input line that could not be used, with its 1-based line number.
#[derive(Debug)]
pub struct BadLine {
    pub line: usize,
    pub reason: String,
}

/// The inputs given as arguments, or else one per line of standard input
/// (a trailing `\r` is dropped so that CRLF files work). Lines that are not
/// UTF-8 are returned apart, so the caller can report them.
pub fn arguments_or_stdin(args: &[String]) -> io::Result<(Vec<String>, Vec<BadLine>)> {
    if !args.is_empty() {
        return Ok((args.to_vec(), Vec::new()));
    }
    let stdin = io::stdin();
    lines_of(stdin.lock())
}

/// Splits a reader into lines, keeping non-UTF-8 lines apart.
pub fn lines_of(mut reader: impl BufRead) -> io::Result<(Vec<String>, Vec<BadLine>)> {
    let mut inputs = Vec::new();
    let mut bad = Vec::new();
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line += 1;
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        match String::from_utf8(std::mem::take(&mut buf)) {
            Ok(s) => inputs.push(s),
            Err(e) => bad.push(BadLine {
                line,
                reason: format!("not valid UTF-8 ({})", e.utf8_error()),
            }),
        }
    }
    Ok((inputs, bad))
}
