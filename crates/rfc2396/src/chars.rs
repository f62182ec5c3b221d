//! Character classes of RFC 2396, one 256-entry table per grammar rule.
//!
//! Each table carries the rule it implements as its doc comment. A table
//! answers "may this byte appear here"; `%` is a member wherever `escaped` is
//! part of the rule, and the scanner then checks the two hex digits that must
//! follow it (Section 2.4.1). Bytes 0x80 and above are never members: RFC 2396
//! is defined over US-ASCII and non-ASCII characters must be escaped.

/// A set of bytes, looked up in constant time.
///
/// Tables are built the way Appendix A builds its rules: from the sets of
/// single characters it lists ([`CharClass::new`]) and from other rules
/// ([`CharClass::or`]), so each table reads like its rule.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CharClass([bool; 256]);

impl CharClass {
    /// The set of the listed bytes.
    // Runs only in const evaluation: an out-of-range index would be a
    // compile error, never a run-time panic.
    #[allow(clippy::indexing_slicing)]
    pub const fn new(bytes: &[u8]) -> Self {
        let mut table = [false; 256];
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        CharClass(table)
    }

    /// The union of two sets: a rule's `|`.
    // As in `new`: const evaluation only, and `b` stays below 256.
    #[allow(clippy::indexing_slicing)]
    pub const fn or(self, other: CharClass) -> Self {
        let mut table = self.0;
        let mut b = 0;
        while b < 256 {
            table[b] = table[b] || other.0[b];
            b += 1;
        }
        CharClass(table)
    }

    /// The members of `self` that are not in `other`.
    // As in `new`: const evaluation only, and `b` stays below 256.
    #[allow(clippy::indexing_slicing)]
    pub const fn minus(self, other: CharClass) -> Self {
        let mut table = self.0;
        let mut b = 0;
        while b < 256 {
            table[b] = table[b] && !other.0[b];
            b += 1;
        }
        CharClass(table)
    }

    /// Is `b` a member?
    // `inline`: one load, worth inlining into callers in other crates too
    // (the uridiff benchmarks' byte-table floor calls it once per byte).
    #[inline]
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

/// `lowalpha = "a" | "b" | ... | "z"`
pub const LOWALPHA: CharClass = CharClass::new(b"abcdefghijklmnopqrstuvwxyz");

/// `upalpha = "A" | "B" | ... | "Z"`
pub const UPALPHA: CharClass = CharClass::new(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ");

/// `alpha = lowalpha | upalpha`
pub const ALPHA: CharClass = LOWALPHA.or(UPALPHA);

/// `digit = "0" | "1" | ... | "9"`
pub const DIGIT: CharClass = CharClass::new(b"0123456789");

/// `alphanum = alpha | digit`
pub const ALPHANUM: CharClass = ALPHA.or(DIGIT);

/// `hex = digit | "A" | "B" | "C" | "D" | "E" | "F" | "a" | "b" | "c" | "d" | "e" | "f"`
pub const HEX: CharClass = DIGIT.or(CharClass::new(b"ABCDEFabcdef"));

/// `escaped = "%" hex hex`: the `%` that starts it. A table cannot check the
/// two `hex` that follow; the scanner does (Section 2.4.1).
pub const ESCAPED: CharClass = CharClass::new(b"%");

/// `mark = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"`
pub const MARK: CharClass = CharClass::new(b"-_.!~*'()");

/// `unreserved = alphanum | mark`
pub const UNRESERVED: CharClass = ALPHANUM.or(MARK);

/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const RESERVED: CharClass = CharClass::new(b";/?:@&=+$,");

/// `uric = reserved | unreserved | escaped`; `query = *uric`, `fragment = *uric`
pub const URIC: CharClass = RESERVED.or(UNRESERVED).or(ESCAPED);

/// `uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const URIC_NO_SLASH: CharClass = UNRESERVED.or(ESCAPED).or(CharClass::new(b";?:@&=+$,"));

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`: the characters after the first.
pub const SCHEME: CharClass = ALPHA.or(DIGIT).or(CharClass::new(b"+-."));

/// `pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","`
pub const PCHAR: CharClass = UNRESERVED.or(ESCAPED).or(CharClass::new(b":@&=+$,"));

/// `path_segments = segment *( "/" segment )`, `segment = *pchar *( ";" param )`,
/// `param = *pchar`: every byte an `abs_path` may contain.
pub const PATH_SEGMENTS: CharClass = PCHAR.or(CharClass::new(b";/"));

/// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
///
/// No `:` (it would read as a scheme delimiter, Section 5) and no `/`.
pub const REL_SEGMENT: CharClass = UNRESERVED.or(ESCAPED).or(CharClass::new(b";@&=+$,"));

/// `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )`
pub const REG_NAME: CharClass = UNRESERVED.or(ESCAPED).or(CharClass::new(b"$,;:@&=+"));

/// `userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )`
pub const USERINFO: CharClass = UNRESERVED.or(ESCAPED).or(CharClass::new(b";:&=+$,"));

/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`: the interior characters.
pub const LABEL_INTERIOR: CharClass = ALPHANUM.or(CharClass::new(b"-"));

/// Every character RFC 2396 allows anywhere in a URI reference unescaped:
/// `uric` plus `#` (the fragment delimiter, Section 4.1). The floor the
/// benchmarks compare the parser against.
pub const URI_REFERENCE: CharClass = URIC.or(CharClass::new(b"#"));

/// `delims = "<" | ">" | "#" | "%" | <">` (Section 2.4.3)
pub const DELIMS: CharClass = CharClass::new(b"<>#%\"");

/// `unwise = "{" | "}" | "|" | "\" | "^" | "[" | "]" | "`"` (Section 2.4.3)
pub const UNWISE: CharClass = CharClass::new(b"{}|\\^[]`");

/// `control = <US-ASCII coded characters 00-1F and 7F hexadecimal>` (Section 2.4.3)
// `inline`: two compares, for callers in other crates.
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
            LOWALPHA,
            UPALPHA,
            ALPHA,
            DIGIT,
            ALPHANUM,
            HEX,
            ESCAPED,
            MARK,
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
