//! Showing inputs to people. Wherever a person reads an input (terminal,
//! Markdown, HTML), characters that are invisible, that reorder the text
//! around them (bidirectional controls) or that are control characters are
//! written as `\u{…}` escapes, so that `http://a\u{200b}b.com/` does not read
//! as `http://ab.com/` and U+202E cannot reverse the rest of a line. JSON
//! stays exact: it is for programs.

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
/// (lower-case hex, as Rust writes it).
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// Quotes `s` for a POSIX shell: one single-quoted word, a `'` inside
/// written `'\''`. Safe to paste whatever `s` holds but NUL, which no
/// command-line argument can carry.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+=,".contains(&b));
    if safe {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
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
    }

    #[test]
    fn shell_quoting_survives_quotes_and_spaces() {
        assert_eq!(shell_quote("http://h/"), "http://h/");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
