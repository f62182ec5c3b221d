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

/// A file's bytes as an input, exactly (NULs and a trailing newline kept):
/// the outer error is I/O (the file cannot be read, or is no regular file),
/// the inner one says why the bytes are no input (not UTF-8).
pub fn read_file(path: &std::path::Path) -> io::Result<Result<String, String>> {
    let meta = std::fs::metadata(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a regular file", path.display()),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    Ok(String::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 ({})", e.utf8_error())))
}

/// Standard input, line by line as it arrives: each line's number and its
/// text, or why it is no input (not UTF-8). A trailing `\r` is dropped.
pub fn stdin_lines() -> impl Iterator<Item = io::Result<(usize, Result<String, String>)>> {
    let mut reader = io::stdin().lock();
    let mut n = 0;
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                n += 1;
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                let text = String::from_utf8(buf)
                    .map_err(|e| format!("not valid UTF-8 ({})", e.utf8_error()));
                Some(Ok((n, text)))
            }
            Err(e) => Some(Err(e)),
        }
    })
}
