//! Reading inputs with a byte limit: every line and every file uridiff
//! reads as an input goes through [`Lines`] or [`read_limited`], so that
//! memory never holds more than the limit of one input, whatever a file
//! holds (a 1 GiB line is skipped while it streams past, a 1 GiB file is
//! refused after the limit is read).

use std::fmt;
use std::fs;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest input checked, in bytes: a longer line or file is listed as
/// not checked (or refused, when it is the one input asked for).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// An input over the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// Its length in bytes, when known (a line that streamed past; a
    /// regular file's size). A file read from a pipe is only known to be
    /// longer than the limit.
    pub bytes: Option<u64>,
    /// The limit it broke.
    pub limit: usize,
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bytes {
            Some(n) => write!(f, "{n} bytes, over the {}-byte input limit", self.limit),
            None => write!(f, "over the {}-byte input limit", self.limit),
        }
    }
}

impl std::error::Error for TooLong {}

/// Reads everything `reader` holds, or stops once it holds more than
/// `limit` bytes (having read `limit + 1`).
pub fn read_limited(reader: impl Read, limit: usize) -> io::Result<Result<Vec<u8>, TooLong>> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Ok(Err(TooLong { bytes: None, limit }));
    }
    Ok(Ok(bytes))
}

/// One line: its number (from 1) and its bytes without the line end, or
/// how long it was when over the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The line without its `\n` (and without a `\r` before it), or
    /// [`TooLong`] when it was longer than the limit (its bytes were not
    /// kept).
    pub bytes: Result<Vec<u8>, TooLong>,
}

/// The lines of a reader, each at most `limit` bytes long in memory.
///
/// A line ends at `\n`; a `\r` right before it is dropped (CRLF files); the
/// last line needs no `\n`. A longer line is read through and dropped as
/// it streams past, and given as [`TooLong`] with its length.
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    limit: usize,
    number: usize,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader` of at most `limit` bytes.
    pub fn new(reader: R, limit: usize) -> Self {
        Lines {
            reader,
            limit,
            number: 0,
            done: false,
        }
    }

    /// The next line, `None` at the end. `read_until` and `skip`-like reads
    /// through `Take` find the `\n` with the standard library's fast search
    /// and never read past the budget.
    fn read_line(&mut self) -> io::Result<Option<Line>> {
        // Up to the limit, a `\r` that may end the line, and its `\n`.
        let budget = u64::try_from(self.limit)
            .unwrap_or(u64::MAX)
            .saturating_add(2);
        let mut kept = Vec::new();
        let read = (&mut self.reader)
            .take(budget)
            .read_until(b'\n', &mut kept)?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let mut ended = kept.last() == Some(&b'\n');
        if ended {
            kept.pop();
        }
        let mut length = kept.len() as u64;
        let mut last = kept.last().copied();
        if !ended && read as u64 == budget {
            // Over the limit whatever follows: read the rest through a
            // small buffer, keeping only its length and last byte.
            kept = Vec::new();
            let mut scratch = Vec::new();
            while !ended {
                scratch.clear();
                let n = (&mut self.reader)
                    .take(SKIP_CHUNK)
                    .read_until(b'\n', &mut scratch)?;
                if n == 0 {
                    break;
                }
                if scratch.last() == Some(&b'\n') {
                    scratch.pop();
                    ended = true;
                }
                length += scratch.len() as u64;
                if let Some(&b) = scratch.last() {
                    last = Some(b);
                }
            }
        }
        // As before a `\n` only: a last line's `\r` is part of it.
        if ended && last == Some(b'\r') {
            length -= 1;
            kept.pop();
        }
        let bytes = if length > self.limit as u64 {
            Err(TooLong {
                bytes: Some(length),
                limit: self.limit,
            })
        } else {
            Ok(kept)
        };
        Ok(Some(Line {
            number: self.number,
            bytes,
        }))
    }
}

/// How much of an over-long line is read at a time while it is skipped.
const SKIP_CHUNK: u64 = 64 * 1024;

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    /// Ends after the first read error.
    fn next(&mut self) -> Option<io::Result<Line>> {
        if self.done {
            return None;
        }
        let line = self.read_line().transpose();
        if !matches!(line, Some(Ok(_))) {
            self.done = true;
        }
        line
    }
}

/// Does the regular file at `path` hold exactly `bytes`? (Read up to their
/// length; anything that cannot be read, or is no regular file, does not.)
pub fn holds_exactly(path: &Path, bytes: &[u8]) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let same_size = file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    same_size && matches!(read_limited(file, bytes.len()), Ok(Ok(read)) if read == bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(data: &[u8], limit: usize) -> Vec<(usize, Result<Vec<u8>, TooLong>)> {
        // A tiny buffer, so lines cross buffer refills.
        let reader = io::BufReader::with_capacity(3, data);
        Lines::new(reader, limit)
            .map(|l| {
                let l = l.unwrap();
                (l.number, l.bytes)
            })
            .collect()
    }

    #[test]
    fn lines_end_at_newlines_and_drop_a_cr_before_one() {
        let got = lines(b"ab\r\n\ncd\r", 10);
        assert_eq!(
            got,
            vec![
                (1, Ok(b"ab".to_vec())),
                (2, Ok(Vec::new())),
                (3, Ok(b"cd\r".to_vec()))
            ]
        );
        assert!(lines(b"", 10).is_empty());
    }

    #[test]
    fn a_line_over_the_limit_is_measured_not_kept() {
        let got = lines(b"12345\n123456\r\n1234567\nok", 6);
        assert_eq!(got[0], (1, Ok(b"12345".to_vec())));
        assert_eq!(got[1], (2, Ok(b"123456".to_vec())), "the CR is not counted");
        assert_eq!(
            got[2],
            (
                3,
                Err(TooLong {
                    bytes: Some(7),
                    limit: 6
                })
            )
        );
        assert_eq!(got[3], (4, Ok(b"ok".to_vec())));
        // Skipped through many small reads; a CRLF's `\r` is not counted, a
        // last line's is.
        let long = [
            vec![b'x'; 200_000],
            b"\r\n".to_vec(),
            vec![b'y'; 9],
            b"\r".to_vec(),
        ]
        .concat();
        let got = lines(&long, 6);
        let too_long = |n| {
            Err(TooLong {
                bytes: Some(n),
                limit: 6,
            })
        };
        assert_eq!(got, vec![(1, too_long(200_000)), (2, too_long(10))]);
    }

    #[test]
    fn read_limited_stops_after_the_limit() {
        assert_eq!(read_limited(&b"abc"[..], 3).unwrap(), Ok(b"abc".to_vec()));
        let err = read_limited(&b"abcd"[..], 3).unwrap().unwrap_err();
        assert_eq!(err.to_string(), "over the 3-byte input limit");
        assert_eq!(
            TooLong {
                bytes: Some(9),
                limit: 3
            }
            .to_string(),
            "9 bytes, over the 3-byte input limit"
        );
    }

    #[test]
    fn holds_exactly_compares_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"a\0b").unwrap();
        assert!(holds_exactly(&path, b"a\0b"));
        assert!(!holds_exactly(&path, b"a\0"));
        assert!(!holds_exactly(&path, b"a\0c"));
        assert!(!holds_exactly(&dir.path().join("missing"), b""));
        assert!(!holds_exactly(dir.path(), b""));
    }
}
