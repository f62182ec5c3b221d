//! String literals for the generated tests, one builder per language.
//!
//! Each builder writes a literal that its language's compiler or
//! interpreter reads back as exactly the text given, every character
//! included: a NUL, a lone `\r`, quotes, backslashes, whatever the
//! language would otherwise interpolate. A test of an input must test that
//! input, not a prefix of it or a neighbour.
//!
//! And each writes every character that a person would not see as it is
//! ([`crate::text::is_hidden`]: control characters, bidirectional
//! controls, zero-width and other invisible characters) with the
//! language's own escape, so that a test shown on a terminal or pasted
//! into a bug report reads as what it tests (U+202E cannot reverse the
//! rest of the line, U+200B cannot hide in a host) and no source holds a
//! character its compiler refuses (Go refuses a U+FEFF byte order mark
//! anywhere but at the start of a file, and NUL anywhere). Every other
//! character is written as it is, so that `é` stays readable.
//!
//! Inputs are Rust strings: valid UTF-8, never a lone surrogate. The
//! languages whose strings are UTF-16 (JavaScript, Java) get a character
//! outside the Basic Multilingual Plane as its surrogate pair (written raw
//! in UTF-8, or as two `\u` escapes in Java), which is that character.

use std::fmt::Write as _;

use crate::text::is_hidden;

/// Writes `text` between double quotes, each character through `escape`
/// (which writes the character's escape and returns `true`, or returns
/// `false` for a character written as it is).
fn quoted(text: &str, mut escape: impl FnMut(&mut String, char) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if !escape(&mut out, c) {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// A double-quoted literal in a language of the C family's escapes: `\\`,
/// `\"`, `\n`, `\r`, `\t`, then `more` (a language's own: `\0`, `\$`,
/// `\#`), then every other hidden character through `hidden`, which writes
/// the language's escape of its code point; the rest as it is.
fn c_family(text: &str, more: &[(char, &str)], hidden: fn(&mut String, u32)) -> String {
    quoted(text, |out, c| {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => match more.iter().find(|(m, _)| *m == c) {
                Some((_, escape)) => out.push_str(escape),
                None if is_hidden(c) => hidden(out, u32::from(c)),
                None => return false,
            },
        }
        true
    })
}

/// `\u{…}`: Rust, ES2015, PHP 7 and Ruby read it as the code point.
fn braced_u(out: &mut String, n: u32) {
    let _ = write!(out, "\\u{{{n:x}}}");
}

/// A Rust string literal (the Reference, "Tokens", string literals):
/// `\\`, `\"`, `\n`, `\r`, `\t`, `\0`, and `\u{…}` for every other hidden
/// character (a bare CR is refused in a literal, NUL would be invisible).
pub fn rust(text: &str) -> String {
    c_family(text, &[('\0', "\\0")], braced_u)
}

/// A C string literal: printable ASCII as is, every other byte as a
/// three-digit octal escape (which, unlike `\x`, ends after three digits
/// whatever follows: C17 section 6.4.4.4); `?` escaped against trigraphs.
/// A NUL byte is written `\000` and is part of the array the literal
/// initialises: a test takes the length from `sizeof`, never `strlen`.
pub fn c(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        match b {
            b'"' | b'\\' | b'?' => {
                out.push('\\');
                out.push(char::from(b));
            }
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

/// A JavaScript string literal (ECMA-262, "String Literals"): `\\`, `\"`,
/// `\n`, `\r`, `\t`, and `\uXXXX` (`\u{…}` outside the Basic Multilingual
/// Plane, ES2015) for every other hidden character.
pub fn javascript(text: &str) -> String {
    c_family(text, &[], |out, n| {
        let _ = if n <= 0xFFFF {
            write!(out, "\\u{n:04x}")
        } else {
            write!(out, "\\u{{{n:x}}}")
        };
    })
}

/// A Python 3 string literal (the Language Reference, 2.4.1 "String and
/// Bytes literals"): `\\`, `\"`, `\n`, `\r`, `\t`, and `\xXX`, `\uXXXX` or
/// `\UXXXXXXXX` (by the code point's size) for every other hidden
/// character. In a `str` literal each of those is the code point, not a
/// byte.
pub fn python(text: &str) -> String {
    c_family(text, &[], |out, n| {
        let _ = if n <= 0xFF {
            write!(out, "\\x{n:02x}")
        } else if n <= 0xFFFF {
            write!(out, "\\u{n:04x}")
        } else {
            write!(out, "\\U{n:08x}")
        };
    })
}

/// A Go interpreted string literal (the Go specification, "Rune literals"
/// and "String literals"): `\\`, `\"`, `\n`, `\r`, `\t`, and `\uXXXX` or
/// `\UXXXXXXXX` for every other hidden character: the UTF-8 encoding of
/// the code point, where `\xXX` would be one byte (`\x9b` is not U+009B).
/// Go refuses NUL in a source file and U+FEFF anywhere but at its start:
/// both are hidden, so never written raw.
pub fn go(text: &str) -> String {
    c_family(text, &[], |out, n| {
        let _ = if n <= 0xFFFF {
            write!(out, "\\u{n:04x}")
        } else {
            write!(out, "\\U{n:08x}")
        };
    })
}

/// A Java string literal, all ASCII: javac reads a source in the
/// platform's encoding unless told (`-encoding`; UTF-8 only from JDK 18,
/// JEP 400), so a character outside ASCII is written `\uXXXX`, one per
/// UTF-16 code unit (a surrogate pair for a character beyond U+FFFF).
///
/// Java translates `\uXXXX` before it lexes (JLS section 3.3), so an
/// escape of a line terminator, a `"` or a `\` would end or break the
/// literal: ASCII is never written that way, but `\\`, `\"`, `\b`, `\t`,
/// `\n`, `\f`, `\r`, and a three-digit octal escape for the other control
/// characters (JLS section 3.10.7; three digits, so a digit after it is
/// not read into it). A `\` is written `\\`, which JLS 3.3 keeps from
/// starting a `\u` escape whatever follows (an odd run of backslashes
/// before `u` is no escape).
pub fn java(text: &str) -> String {
    quoted(text, |out, c| {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => {
                let _ = write!(out, "\\{:03o}", u32::from(c));
            }
            c if c.is_ascii() => return false,
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
        true
    })
}

/// A PHP double-quoted string (the PHP manual, "Strings", double quoted):
/// `\\`, `\"`, `\$` (a `$` interpolates a variable, and `{$` an
/// expression), `\n`, `\r`, `\t`, and `\u{…}` (PHP 7) for every other
/// hidden character: its UTF-8 bytes, as PHP strings are bytes.
pub fn php(text: &str) -> String {
    c_family(text, &[('$', "\\$")], braced_u)
}

/// A Ruby double-quoted string (Ruby's syntax documentation, "String
/// Literals"): `\\`, `\"`, `\#` (`#{`, `#@` and `#$` interpolate), `\n`,
/// `\r`, `\t`, and `\u{…}` for every other hidden character.
pub fn ruby(text: &str) -> String {
    c_family(text, &[('#', "\\#")], braced_u)
}

/// A Perl double-quoted string (perlop, "Quote and Quote-like
/// Operators"): `\\`, `\"`, `\$` and `\@` (both interpolate a variable),
/// `\n`, `\r`, `\t`, and `\x{…}` (the code point) for every other hidden
/// character. Other characters are written as they are: the source must
/// say `use utf8` for Perl to read them as characters, not UTF-8 bytes.
pub fn perl(text: &str) -> String {
    c_family(text, &[('$', "\\$"), ('@', "\\@")], |out, n| {
        let _ = write!(out, "\\x{{{n:x}}}");
    })
}

/// JSON for a person to read: `value` as serde_json writes it, with every
/// hidden character also written as a `\uXXXX` escape (a surrogate pair
/// beyond U+FFFF, RFC 8259 section 7). The same JSON value: outside
/// strings JSON text is ASCII, so every such character stands in a string,
/// where the escape means it.
pub fn json_shown(value: &serde_json::Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        if is_hidden(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Characters every builder must get right: syntax, interpolation,
    /// escape look-alikes, hidden characters of each kind, and characters
    /// beyond the Basic Multilingual Plane.
    const HOSTILE: &[char] = &[
        '\0',
        '\u{1}',
        '\t',
        '\n',
        '\r',
        '\u{1b}',
        '\u{7f}',
        '\u{85}',
        '\u{9b}',
        '\u{ad}',
        '"',
        '\'',
        '\\',
        '$',
        '#',
        '{',
        '}',
        '@',
        '?',
        'u',
        'x',
        'U',
        '0',
        '7',
        'a',
        'é',
        '日',
        '\u{200b}',
        '\u{200e}',
        '\u{2028}',
        '\u{2029}',
        '\u{202e}',
        '\u{2066}',
        '\u{feff}',
        '\u{fe0f}',
        '\u{3164}',
        '😀',
        '\u{e0001}',
        '\u{e007f}',
    ];

    fn hostile_text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![prop::sample::select(HOSTILE), any::<char>()],
            0..24,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    #[test]
    fn c_strings_escape_what_c_reads_otherwise() {
        assert_eq!(c("h://[::1:]/"), "\"h://[::1:]/\"");
        assert_eq!(c("a\"\\?\t\u{e9}"), "\"a\\\"\\\\\\?\\011\\303\\251\"");
        assert_eq!(c("\0x"), "\"\\000x\"");
    }

    #[test]
    fn each_language_writes_hidden_characters_with_its_own_escape() {
        let text = "\0\u{9b}\u{202e}\u{feff}\u{e0001}é$#{\"\\";
        assert_eq!(rust(text), r#""\0\u{9b}\u{202e}\u{feff}\u{e0001}é$#{\"\\""#);
        assert_eq!(
            javascript(text),
            r#""\u0000\u009b\u202e\ufeff\u{e0001}é$#{\"\\""#
        );
        assert_eq!(python(text), r#""\x00\x9b\u202e\ufeff\U000e0001é$#{\"\\""#);
        assert_eq!(go(text), r#""\u0000\u009b\u202e\ufeff\U000e0001é$#{\"\\""#);
        assert_eq!(
            java(text),
            r#""\000\u009b\u202e\ufeff\udb40\udc01\u00e9$#{\"\\""#
        );
        assert_eq!(
            php(text),
            r#""\u{0}\u{9b}\u{202e}\u{feff}\u{e0001}é\$#{\"\\""#
        );
        assert_eq!(
            ruby(text),
            r#""\u{0}\u{9b}\u{202e}\u{feff}\u{e0001}é$\#{\"\\""#
        );
        assert_eq!(
            perl(text),
            r#""\x{0}\x{9b}\x{202e}\x{feff}\x{e0001}é\$#{\"\\""#
        );
        assert_eq!(perl("a@b.c $x @{[1]}"), r#""a\@b.c \$x \@{[1]}""#);
    }

    #[test]
    fn java_never_escapes_ascii_as_a_unicode_escape() {
        // `\u000a` or `\u0022` would be a line end or a quote to javac.
        let all_ascii: String = (0u8..0x80).map(char::from).collect();
        let lit = java(&all_ascii);
        assert!(!lit.to_ascii_lowercase().contains("\\u00"), "{lit}");
        assert!(lit.contains("\\000\\001"), "{lit}");
        assert!(lit.contains("\\177"), "{lit}");
    }

    #[test]
    fn shown_json_is_the_same_json() {
        let value = serde_json::json!({"input": "a\u{202e}\u{85}\u{e0001}\"é", "base": null});
        let shown = json_shown(&value);
        assert!(!shown.chars().any(is_hidden), "{shown}");
        assert!(shown.contains("a\\u202e\\u0085\\udb40\\udc01"), "{shown}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&shown).unwrap(),
            value
        );
    }

    proptest! {
        /// The Rust literal is read back, by syn's lexer (proc-macro2's),
        /// as exactly the text, and shows no hidden character.
        #[test]
        fn a_rust_literal_reads_back_as_the_text(text in hostile_text()) {
            let lit = rust(&text);
            let parsed: syn::LitStr = syn::parse_str(&lit).unwrap();
            prop_assert_eq!(parsed.value(), text);
            prop_assert!(!lit.chars().any(is_hidden), "{}", lit);
        }

        /// No builder leaves a hidden character raw, and Java's literal is
        /// ASCII.
        #[test]
        fn no_literal_holds_a_hidden_character(text in hostile_text()) {
            for lit in [
                rust(&text),
                c(&text),
                javascript(&text),
                python(&text),
                go(&text),
                java(&text),
                php(&text),
                ruby(&text),
                perl(&text),
            ] {
                prop_assert!(!lit.chars().any(is_hidden), "{}", lit);
            }
            prop_assert!(java(&text).is_ascii());
            prop_assert!(c(&text).is_ascii());
        }
    }
}
