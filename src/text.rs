//! Showing inputs to people. Wherever a person reads an input (terminal,
//! Markdown, HTML), characters that are invisible, that reorder the text
//! around them (bidirectional controls) or that are control characters are
//! written as `\u{…}` escapes, so that `http://a\u{200b}b.com/` does not read
//! as `http://ab.com/` and U+202E cannot reverse the rest of a line. JSON
//! stays exact: it is for programs.
//!
//! The shown form is unambiguous: a run of literal backslashes is doubled
//! when it stands right before `u{` or before a hidden character, so the
//! six characters `\u{200b}` are shown `\\u{200b}` while U+200B is shown
//! `\u{200b}`. Every other backslash is shown as it is, so that `/\evil.com`
//! reads as typed. (Read back like a Rust or JSON string: a run of `n`
//! backslashes before `u{` is an escape when `n` is odd, after `n / 2`
//! literal backslashes.)
//!
//! This module also writes the shell commands that reproduce an input
//! ([`reproduce`]): byte-exact whatever the input holds.

use std::path::Path;

/// Is `c` shown escaped? Control characters (C0, DEL, C1), bidirectional
/// formatting characters (Unicode UAX #9: U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069), and characters with no visible glyph that
/// can hide inside a host (zero-width spaces and joiners, word joiner,
/// invisible operators, soft hyphen, BOM, Hangul fillers, variation
/// selectors, tag characters, interlinear annotation and other specials).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0xE0000..=0xE0FFF
        )
}

/// `s` with every hidden character ([`is_hidden`]) written as `\u{…}`
/// (lower-case hex, as Rust writes it), and a run of backslashes that could
/// be read as part of such an escape doubled (see the module documentation).
pub fn visible(s: &str) -> String {
    shown_before(s, s.len())
}

/// The part of [`visible`]`(s)` that shows the characters of `s` before byte
/// `end`: what stands left of a caret under byte `end`.
pub fn shown_before(s: &str, end: usize) -> String {
    let mut out = String::with_capacity(s.len());
    // How many backslashes of the current run are still to come, and
    // whether the run is doubled.
    let mut run_doubled = false;
    let mut in_run = false;
    for (at, c) in s.char_indices() {
        if at >= end {
            break;
        }
        if c == '\\' {
            if !in_run {
                in_run = true;
                let rest = s.get(at..).unwrap_or_default();
                let after = rest.trim_start_matches('\\');
                run_doubled =
                    after.starts_with("u{") || after.chars().next().is_some_and(is_hidden);
            }
            out.push_str(if run_doubled { "\\\\" } else { "\\" });
            continue;
        }
        in_run = false;
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`visible`] line by line: newlines are kept as line breaks, everything
/// else hidden is escaped. For messages a person reads on a terminal that
/// may span lines (an external program's standard error, say).
pub fn visible_lines(s: &str) -> String {
    s.split('\n').map(visible).collect::<Vec<_>>().join("\n")
}

/// Quotes `s` for a POSIX shell: one single-quoted word, a `'` inside
/// written `'\''`. Safe to paste whatever `s` holds but NUL, which no
/// command-line argument can carry.
pub(crate) fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+=,".contains(&b));
    if safe {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Who runs a [`reproduce`] command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A program (JSON output): any character but NUL may stand in a
    /// quoted argument, since nothing is shown.
    Program,
    /// A person, who copies it from a report: a hidden character in the
    /// command would be shown escaped and pasted as a backslash, so inputs
    /// that hold one are written with `printf` escapes instead.
    Person,
}

/// The longest string put in a command-line argument. Linux refuses a
/// single argument over 128 KiB (`MAX_ARG_STRLEN`, counted with its NUL);
/// a longer input goes through a file or a pipe.
const LONGEST_ARGUMENT: usize = 64 * 1024;

/// Can `s` be one quoted argument of a command `reader` runs?
fn fits_an_argument(s: &str, reader: Reader) -> bool {
    !s.contains('\0')
        && s.len() <= LONGEST_ARGUMENT
        && (reader == Reader::Program || !s.chars().any(is_hidden))
}

/// A `printf` command that writes exactly the bytes of `s`: the format
/// quoted, every byte that is not plainly shown (hidden characters, NUL,
/// `\`, `%`, `'`, a leading `-` printf could read as an option) written as
/// a three-digit octal escape, which POSIX printf turns back into the byte.
fn printf_command(s: &str) -> String {
    let mut format = String::with_capacity(s.len() + 2);
    for (at, c) in s.char_indices() {
        let plain = match c {
            '\\' | '%' | '\'' => false,
            '-' => at > 0,
            c => !is_hidden(c),
        };
        if plain {
            format.push(c);
        } else {
            let mut bytes = [0u8; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                format.push_str(&format!("\\{b:03o}"));
            }
        }
    }
    format!("printf '{format}'")
}

/// A shell command that runs `uridiff check` on exactly `input` (resolved
/// against `base`, when given), whatever bytes they hold: the one place
/// that writes such a command, for every report.
///
/// Each string goes in a quoted argument when it can ([`Reader`] decides
/// what can), or else through standard input or a file: `input` from
/// `file` when that file holds exactly its bytes (checked here), otherwise
/// from `printf` into `--file -`; the base from `printf` into
/// `--base-file -`. When both need a pipe, the input's goes to descriptor 3
/// (`--file /dev/fd/3`).
pub fn reproduce(input: &str, base: Option<&str>, file: Option<&Path>, reader: Reader) -> String {
    let base_piped = base.filter(|b| !fits_an_argument(b, reader));
    let base_option = match base {
        Some(_) if base_piped.is_some() => " --base-file -".to_owned(),
        Some(b) => format!(" --base {}", shell_quote(b)),
        None => String::new(),
    };
    let (input_option, input_piped) = if fits_an_argument(input, reader) {
        (format!("-- {}", shell_quote(input)), false)
    } else if let Some(file) = file.filter(|f| crate::input::holds_exactly(f, input.as_bytes())) {
        (
            format!("--file {}", shell_quote(&file.to_string_lossy())),
            false,
        )
    } else if base_piped.is_some() {
        ("--file /dev/fd/3".to_owned(), true)
    } else {
        ("--file -".to_owned(), true)
    };
    let check = format!("uridiff check{base_option} {input_option}");
    match (input_piped, base_piped) {
        (false, None) => check,
        (false, Some(b)) => format!("{} | {check}", printf_command(b)),
        (true, None) => format!("{} | {check}", printf_command(input)),
        (true, Some(b)) => format!(
            "{} | {{ {} | {check}; }} 3<&0",
            printf_command(input),
            printf_command(b)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(visible("http://a\u{200b}b.com/"), "http://a\\u{200b}b.com/");
        assert_eq!(visible("x\u{202e}moc.live"), "x\\u{202e}moc.live");
        assert_eq!(visible("a\tb\u{7f}"), "a\\u{9}b\\u{7f}");
        assert_eq!(visible("é日本\\"), "é日本\\");
        assert_eq!(visible("/\\evil.com\\\\x"), "/\\evil.com\\\\x");
    }

    #[test]
    fn a_literal_escape_is_shown_apart_from_the_character() {
        let hidden = visible("a\u{200b}");
        let literal = visible("a\\u{200b}");
        assert_eq!(hidden, "a\\u{200b}");
        assert_eq!(literal, "a\\\\u{200b}");
        assert_ne!(hidden, literal);
        // A backslash before a hidden character, and runs of them.
        assert_eq!(visible("\\\u{200b}"), "\\\\\\u{200b}");
        assert_eq!(visible("\\\\u{1}"), "\\\\\\\\u{1}");
        assert_ne!(visible("\\\u{200b}"), visible("\\\\u{200b}"));
    }

    #[test]
    fn the_shown_prefix_is_a_prefix_of_the_shown_text() {
        let s = "a\\u{x}\u{200b}b";
        for end in (0..=s.len()).filter(|i| s.is_char_boundary(*i)) {
            assert!(visible(s).starts_with(&shown_before(s, end)), "{end}");
        }
        assert_eq!(shown_before(s, 2), "a\\\\");
    }

    #[test]
    fn lines_keep_their_breaks() {
        assert_eq!(visible_lines("a\u{1b}]0;x\nb"), "a\\u{1b}]0;x\nb");
    }

    #[test]
    fn shell_quoting_survives_quotes_and_spaces() {
        assert_eq!(shell_quote("http://h/"), "http://h/");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn reproduce_uses_arguments_when_they_can_carry_the_input() {
        assert_eq!(
            reproduce("http://h/", None, None, Reader::Person),
            "uridiff check -- http://h/"
        );
        assert_eq!(
            reproduce("a\tb", Some("http://b/"), None, Reader::Program),
            "uridiff check --base http://b/ -- 'a\tb'"
        );
        assert_eq!(
            reproduce("a\tb", None, None, Reader::Person),
            "printf 'a\\011b' | uridiff check --file -"
        );
        assert_eq!(
            reproduce("-x%\u{0}", Some("p://\u{0}"), None, Reader::Program),
            "printf '\\055x\\045\\000' | { printf 'p://\\000' | uridiff check --base-file - --file /dev/fd/3; } 3<&0"
        );
    }
}
