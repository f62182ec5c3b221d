//! Character classes of RFC 2396, one 256-entry table per grammar rule.
//!
//! Each table carries the rule it implements as its doc comment. A table
//! answers "may this byte appear here"; `%` is a member wherever `escaped` is
//! part of the rule, and the scanner then checks the two hex digits that must
//! follow it (Section 2.4.1). Bytes 0x80 and above are never members: RFC 2396
//! is defined over US-ASCII and non-ASCII characters must be escaped.

/// A set of bytes, looked up in constant time.
#[derive(Clone, Copy)]
pub struct CharClass([bool; 256]);

impl CharClass {
    /// Builds the union of the listed byte sets.
    // Runs only in const evaluation: an out-of-range index would be a
    // compile error, never a run-time panic.
    #[allow(clippy::indexing_slicing)]
    const fn of(sets: &[&[u8]]) -> Self {
        let mut table = [false; 256];
        let mut s = 0;
        while s < sets.len() {
            let set = sets[s];
            let mut i = 0;
            while i < set.len() {
                table[set[i] as usize] = true;
                i += 1;
            }
            s += 1;
        }
        CharClass(table)
    }

    /// Is `b` a member?
    #[inline(always)]
    // A u8 always indexes a 256-entry table in bounds.
    #[allow(clippy::indexing_slicing)]
    pub const fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

impl std::fmt::Debug for CharClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let members: String = (0u8..=0x7f)
            .filter(|&b| self.contains(b))
            .map(char::from)
            .collect();
        f.debug_tuple("CharClass").field(&members).finish()
    }
}

const LOWALPHA_BYTES: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const UPALPHA_BYTES: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT_BYTES: &[u8] = b"0123456789";
const MARK_BYTES: &[u8] = b"-_.!~*'()";
const RESERVED_BYTES: &[u8] = b";/?:@&=+$,";
/// `escaped = "%" hex hex`: the `%` that starts it.
const PERCENT: &[u8] = b"%";

/// `alpha = lowalpha | upalpha`
pub const ALPHA: CharClass = CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES]);

/// `digit = "0" | "1" | ... | "9"`
pub const DIGIT: CharClass = CharClass::of(&[DIGIT_BYTES]);

/// `alphanum = alpha | digit`
pub const ALPHANUM: CharClass = CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES]);

/// `hex = digit | "A" | "B" | "C" | "D" | "E" | "F" | "a" | "b" | "c" | "d" | "e" | "f"`
pub const HEX: CharClass = CharClass::of(&[DIGIT_BYTES, b"ABCDEFabcdef"]);

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`: the characters after the first.
pub const SCHEME: CharClass = CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, b"+-."]);

/// `unreserved = alphanum | mark`, with
/// `mark = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"`
pub const UNRESERVED: CharClass =
    CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, MARK_BYTES]);

/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const RESERVED: CharClass = CharClass::of(&[RESERVED_BYTES]);

/// `uric = reserved | unreserved | escaped`; `query = *uric`, `fragment = *uric`
pub const URIC: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    RESERVED_BYTES,
    PERCENT,
]);

/// `uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const URIC_NO_SLASH: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b";?:@&=+$,",
    PERCENT,
]);

/// `pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const PCHAR: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b":@&=+$,",
    PERCENT,
]);

/// `path_segments = segment *( "/" segment )`, `segment = *pchar *( ";" param )`,
/// `param = *pchar`: every byte an `abs_path` may contain.
pub const PATH_SEGMENTS: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b":@&=+$,;/",
    PERCENT,
]);

/// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
///
/// No `:` (it would read as a scheme delimiter, Section 5) and no `/`.
pub const REL_SEGMENT: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b";@&=+$,",
    PERCENT,
]);

/// `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )`
pub const REG_NAME: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b"$,;:@&=+",
    PERCENT,
]);

/// `userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )`
pub const USERINFO: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    b";:&=+$,",
    PERCENT,
]);

/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`: the interior characters.
pub const LABEL_INTERIOR: CharClass =
    CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, b"-"]);

/// Every character RFC 2396 allows anywhere in a URI reference unescaped:
/// `uric` plus `#` (the fragment delimiter, Section 4.1). The floor the
/// benchmarks compare the parser against.
pub const URI_REFERENCE: CharClass = CharClass::of(&[
    LOWALPHA_BYTES,
    UPALPHA_BYTES,
    DIGIT_BYTES,
    MARK_BYTES,
    RESERVED_BYTES,
    PERCENT,
    b"#",
]);

/// Bits of [`classes`]: which rules allow a byte unescaped.
///
/// The scanners of the parser test a byte against one of these with a single
/// lookup, and eight bytes at a time by combining eight lookups. Unlike the
/// [`CharClass`] tables, `%` is in none of them: a scanner stops at `%` and
/// checks the `escaped` it starts out of its hot loop.
pub(crate) mod class {
    /// `scheme`: the characters after the first.
    pub(crate) const SCHEME: u8 = 1 << 0;
    /// `uric`, less `escaped`; `query = *uric`, `fragment = *uric`.
    pub(crate) const URIC: u8 = 1 << 1;
    /// `path_segments`, less `escaped`: pchar, `;` and `/`.
    pub(crate) const PATH_SEGMENTS: u8 = 1 << 2;
    /// `rel_segment`, less `escaped`.
    pub(crate) const REL_SEGMENT: u8 = 1 << 3;
    /// `reg_name`, less `escaped`.
    pub(crate) const REG_NAME: u8 = 1 << 4;
    /// `alphanum | "-" | "."`: every byte of a `hostname` or `IPv4address`.
    pub(crate) const HOST: u8 = 1 << 5;
}

/// The [`class`] bits of every byte.
static CLASSES: [u8; 256] = {
    // Runs only in const evaluation: an out-of-range index would be a
    // compile error, never a run-time panic.
    #[allow(clippy::indexing_slicing)]
    const fn set(table: &mut [u8; 256], bit: u8, sets: &[&[u8]]) {
        let mut s = 0;
        while s < sets.len() {
            let set = sets[s];
            let mut i = 0;
            while i < set.len() {
                table[set[i] as usize] |= bit;
                i += 1;
            }
            s += 1;
        }
    }
    const UNRESERVED_SETS: [&[u8]; 4] = [LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, MARK_BYTES];
    let mut table = [0u8; 256];
    set(
        &mut table,
        class::SCHEME,
        &[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, b"+-."],
    );
    set(&mut table, class::URIC, &UNRESERVED_SETS);
    set(&mut table, class::URIC, &[RESERVED_BYTES]);
    set(&mut table, class::PATH_SEGMENTS, &UNRESERVED_SETS);
    set(&mut table, class::PATH_SEGMENTS, &[b":@&=+$,;/"]);
    set(&mut table, class::REL_SEGMENT, &UNRESERVED_SETS);
    set(&mut table, class::REL_SEGMENT, &[b";@&=+$,"]);
    set(&mut table, class::REG_NAME, &UNRESERVED_SETS);
    set(&mut table, class::REG_NAME, &[b"$,;:@&=+"]);
    set(
        &mut table,
        class::HOST,
        &[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, b"-."],
    );
    table
};

/// The [`class`] bits of `b`.
#[inline(always)]
// A u8 always indexes a 256-entry table in bounds.
#[allow(clippy::indexing_slicing)]
pub(crate) fn classes(b: u8) -> u8 {
    CLASSES[b as usize]
}

/// `delims = "<" | ">" | "#" | "%" | <">` (Section 2.4.3)
pub const DELIMS: CharClass = CharClass::of(&[b"<>#%\""]);

/// `unwise = "{" | "}" | "|" | "\" | "^" | "[" | "]" | "`"` (Section 2.4.3)
pub const UNWISE: CharClass = CharClass::of(&[b"{}|\\^[]`"]);

/// `control = <US-ASCII coded characters 00-1F and 7F hexadecimal>` (Section 2.4.3)
#[inline]
pub const fn is_control(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 2: every US-ASCII byte is exactly one of uric, `#`, or an excluded class.
    #[test]
    fn ascii_partitions_into_uric_and_excluded_classes() {
        for b in 0u8..=0x7f {
            let classes = [
                URIC.contains(b) && b != b'%',
                b == b'%',
                b == b'#',
                is_control(b),
                b == b' ',
                DELIMS.contains(b) && b != b'#' && b != b'%',
                UNWISE.contains(b),
            ];
            let n = classes.iter().filter(|&&c| c).count();
            assert_eq!(n, 1, "byte {b:#04x} is in {n} classes");
        }
    }

    #[test]
    fn rule_tables_are_subsets_of_uric() {
        for table in [
            ALPHA,
            DIGIT,
            ALPHANUM,
            HEX,
            SCHEME,
            UNRESERVED,
            RESERVED,
            URIC_NO_SLASH,
            PCHAR,
            PATH_SEGMENTS,
            REL_SEGMENT,
            REG_NAME,
            USERINFO,
            LABEL_INTERIOR,
        ] {
            for b in 0u8..=0xff {
                assert!(
                    !table.contains(b) || URIC.contains(b),
                    "{table:?} has {b:#04x}"
                );
            }
        }
    }

    /// Each class bit is its `CharClass` table less `%`.
    #[test]
    fn class_bits_match_the_tables() {
        for (bit, table) in [
            (class::SCHEME, SCHEME),
            (class::URIC, URIC),
            (class::PATH_SEGMENTS, PATH_SEGMENTS),
            (class::REL_SEGMENT, REL_SEGMENT),
            (class::REG_NAME, REG_NAME),
            (
                class::HOST,
                CharClass::of(&[LOWALPHA_BYTES, UPALPHA_BYTES, DIGIT_BYTES, b"-."]),
            ),
        ] {
            for b in 0u8..=0xff {
                assert_eq!(
                    classes(b) & bit != 0,
                    table.contains(b) && b != b'%',
                    "{table:?} and bit {bit:#x} disagree on {b:#04x}"
                );
            }
        }
    }

    #[test]
    fn non_ascii_is_never_a_member() {
        for b in 0x80u8..=0xff {
            assert!(!URI_REFERENCE.contains(b));
        }
    }

    #[test]
    fn rel_segment_excludes_colon_and_slash_but_pchar_has_colon() {
        assert!(!REL_SEGMENT.contains(b':'));
        assert!(!REL_SEGMENT.contains(b'/'));
        assert!(PCHAR.contains(b':'));
        assert!(!PCHAR.contains(b';'));
        assert!(PATH_SEGMENTS.contains(b';'));
    }
}
