//! Speed code: reading the input eight bytes at a time.
//!
//! Nothing here decides what the grammar accepts; each function answers a
//! question a production of `parse` could answer with a loop over the bytes
//! and a [`crate::chars`] table, and its tests check that it gives that
//! loop's answer. They exist because scanning runs of one character class is
//! most of the work of parsing, and a byte-at-a-time loop pays a branch per
//! byte and a mispredicted one where the run ends.
//!
//! - [`classes`]: one table of bit sets instead of a table per rule, so a
//!   single lookup answers for any rule, and eight lookups can be combined.
//! - [`run_end`]: where a run of one class ends, eight bytes per step.
//! - [`word`]: eight bytes as one integer, for the host arithmetic of
//!   [`crate::host_class`].
//! - [`http_scheme`]: `http` and `https` recognised with one compare.
//!
//! Nothing in the parser is marked `#[inline(always)]`, here or in the
//! productions: against the same code with every production and helper so
//! marked, leaving inlining to the compiler parsed the real-URL set about
//! 1.5 % faster and a 64 KiB reference about 12 % faster (old and new parser
//! interleaved in one process, six runs each, 2026-11-23).

use crate::chars::{ESCAPED, PATH_SEGMENTS, REG_NAME, REL_SEGMENT, URIC};

/// Bits of [`classes`]: which rules allow a byte unescaped.
///
/// Unlike the [`crate::chars`] tables, `%` is in none of them: a scanner
/// stops at `%` and checks the `escaped` it starts out of its hot loop.
pub(crate) mod class {
    /// `uric`, less `escaped`; `query = *uric`, `fragment = *uric`.
    pub(crate) const URIC: u8 = 1 << 0;
    /// `path_segments`, less `escaped`: pchar, `;` and `/`.
    pub(crate) const PATH_SEGMENTS: u8 = 1 << 1;
    /// `rel_segment`, less `escaped`.
    pub(crate) const REL_SEGMENT: u8 = 1 << 2;
    /// `reg_name`, less `escaped`.
    pub(crate) const REG_NAME: u8 = 1 << 3;
}

/// The [`class`] bits of every byte, from the [`crate::chars`] tables.
static CLASSES: [u8; 256] = {
    let rules = [
        (class::URIC, URIC),
        (class::PATH_SEGMENTS, PATH_SEGMENTS),
        (class::REL_SEGMENT, REL_SEGMENT),
        (class::REG_NAME, REG_NAME),
    ];
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < rules.len() {
            // Runs only in const evaluation: an out-of-range index would be
            // a compile error, never a run-time panic.
            #[allow(clippy::indexing_slicing)]
            let (bit, rule) = rules[r];
            if rule.minus(ESCAPED).contains(b as u8) {
                #[allow(clippy::indexing_slicing)]
                {
                    table[b] |= bit;
                }
            }
            r += 1;
        }
        b += 1;
    }
    table
};

/// The [`class`] bits of `b`.
// A u8 always indexes a 256-entry table in bounds.
#[allow(clippy::indexing_slicing)]
pub(crate) fn classes(b: u8) -> u8 {
    CLASSES[b as usize]
}

/// Where the run of bytes in `class`, a [`class`] bit, that starts at `i`
/// ends: the plain answer is
/// `i + bytes[i..].iter().position(|&b| classes(b) & class == 0)`.
///
/// This looks at eight bytes per branch, and finds where a run ends within
/// eight bytes without a loop, whose exit would be a mispredicted branch on
/// almost every call.
pub(crate) fn run_end(bytes: &[u8], mut i: usize, class: u8) -> usize {
    loop {
        match bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            // The AND of eight lookups keeps the bit only if all eight have
            // it: the cheapest test of a chunk inside the run.
            Some(chunk) if chunk.iter().fold(class, |all, &b| all & classes(b)) != 0 => {
                i += 8;
            }
            _ => return i + plane(window(bytes, i), class).trailing_ones() as usize,
        }
    }
}

/// The [`class`] bits of the eight bytes from `i`, byte `k` in bits
/// `8k..8k + 8`. Bytes past the end of the input are in no class.
///
/// Mapping [`word`]'s bytes through the table would share its end-of-input
/// handling, and runs fewer instructions, but measured 5-8 % slower on the
/// real-URL set (criterion, 2026-11-23): the fold lets each lookup start as
/// soon as its byte is loaded.
fn window(bytes: &[u8], i: usize) -> u64 {
    let pack = |chunk: &[u8]| {
        chunk
            .iter()
            .rev()
            .fold(0, |set, &b| set << 8 | u64::from(classes(b)))
    };
    if let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return pack(chunk);
    }
    // Fewer than eight bytes are left. The last eight bytes of the input end
    // with them: shift out those before `i`.
    let left = bytes.len().saturating_sub(i);
    match bytes.last_chunk::<8>() {
        Some(last) => pack(last).checked_shr(8 * (8 - left) as u32).unwrap_or(0),
        None => pack(bytes.get(i..).unwrap_or_default()),
    }
}

/// Bit `k` is set iff byte `k` of `window` (from [`window`]) is in `class`,
/// a single [`class`] bit.
fn plane(window: u64, class: u8) -> u8 {
    // Move the class bit of each byte to the bottom of the byte, then
    // gather the eight bits into the top byte with one multiplication: byte
    // k's bit is multiplied into bit 56 + k, and no two products overlap.
    let bits = (window >> class.trailing_zeros()) & 0x0101_0101_0101_0101;
    (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The eight bytes from `i` as a little-endian word, byte `k` in bits
/// `8k..8k + 8`. Bytes past the end of the input read as 0.
pub(crate) fn word(bytes: &[u8], i: usize) -> u64 {
    if let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return u64::from_le_bytes(*chunk);
    }
    // Fewer than eight bytes are left: shift them down from the last eight.
    let left = bytes.len().saturating_sub(i);
    match bytes.last_chunk::<8>() {
        Some(last) => u64::from_le_bytes(*last)
            .checked_shr(8 * (8 - left) as u32)
            .unwrap_or(0),
        None => bytes
            .get(i..)
            .unwrap_or_default()
            .iter()
            .rev()
            .fold(0, |set, &b| set << 8 | u64::from(b)),
    }
}

/// `Some(4)` or `Some(5)`, the length of the scheme, when the input starts
/// with `http://` or `https://`; `None` otherwise (then the `scheme` rule
/// decides).
///
/// Most references in the wild start so: one 8-byte compare recognises those
/// schemes without a loop whose exit (after four or five bytes) would be
/// mispredicted. The `scheme` rule gives the same span for them, and the
/// `//` that follows starts a `net_path` either way (Section 3).
pub(crate) fn http_scheme(bytes: &[u8]) -> Option<usize> {
    const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
    const HTTPS: u64 = u64::from_le_bytes(*b"https://");
    let head = u64::from_le_bytes(*bytes.first_chunk::<8>()?);
    // Which of the two a URL uses is as good as random, so the fifth byte
    // picks what to compare with by arithmetic, not a branch: all eight
    // bytes against "https://" if it is 's', else the first seven
    // (little-endian: the low 56 bits) against "http://".
    let s = u64::from((head >> 32) as u8 == b's');
    let mask = 0x00ff_ffff_ffff_ffff | (s.wrapping_neg() << 56);
    let want = HTTP.wrapping_add(s.wrapping_mul(HTTPS.wrapping_sub(HTTP)));
    (head & mask == want).then_some(4 + s as usize)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::chars::CharClass;

    const CLASS_BITS: [u8; 4] = [
        class::URIC,
        class::PATH_SEGMENTS,
        class::REL_SEGMENT,
        class::REG_NAME,
    ];

    /// The plain answer `run_end` must give.
    fn plain_run_end(bytes: &[u8], i: usize, class: u8) -> usize {
        let rest = bytes.get(i..).unwrap_or_default();
        i + rest
            .iter()
            .position(|&b| classes(b) & class == 0)
            .unwrap_or(rest.len())
    }

    fn real_urls() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data/urls.txt");
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    /// Each class bit is its `CharClass` table less `%`.
    #[test]
    fn class_bits_match_the_tables() {
        let tables: [(u8, CharClass); 4] = [
            (class::URIC, URIC),
            (class::PATH_SEGMENTS, PATH_SEGMENTS),
            (class::REL_SEGMENT, REL_SEGMENT),
            (class::REG_NAME, REG_NAME),
        ];
        for (bit, table) in tables {
            for b in 0u8..=0xff {
                assert_eq!(
                    classes(b) & bit != 0,
                    table.contains(b) && b != b'%',
                    "{table:?} and bit {bit:#x} disagree on {b:#04x}"
                );
            }
        }
        assert_eq!(classes(b'%'), 0);
    }

    /// Every class, from every start, in inputs of every length up to 20
    /// whose bytes change class at every position.
    #[test]
    fn run_end_agrees_with_the_plain_loop_exhaustively_on_short_inputs() {
        // A byte in every class, one in some, and one in none.
        let fill = b"aaaaaaaaaaaaaaaaaaaa";
        for len in 0..=fill.len() {
            for stop in 0..=len {
                for b in [b'a', b'/', b':', b'%', b' ', b'.', b'?', 0x80] {
                    let mut bytes = fill[..len].to_vec();
                    if stop < len {
                        bytes[stop] = b;
                    }
                    for i in 0..=len + 9 {
                        for class in CLASS_BITS {
                            assert_eq!(
                                run_end(&bytes, i, class),
                                plain_run_end(&bytes, i, class),
                                "{bytes:?} from {i}, class {class:#x}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn run_end_agrees_with_the_plain_loop_on_the_real_url_set() {
        for url in real_urls() {
            let bytes = url.as_bytes();
            for i in 0..=bytes.len() {
                for class in CLASS_BITS {
                    assert_eq!(
                        run_end(bytes, i, class),
                        plain_run_end(bytes, i, class),
                        "{url:?} from {i}"
                    );
                }
            }
        }
    }

    proptest! {
        // A failure prints the minimal input; no regression files in the
        // source tree.
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn run_end_agrees_with_the_plain_loop(
            input in "[a:/?#@.%;=$ \u{e9}-]{0,40}", i in 0usize..48
        ) {
            for class in CLASS_BITS {
                prop_assert_eq!(
                    run_end(input.as_bytes(), i, class),
                    plain_run_end(input.as_bytes(), i, class)
                );
            }
        }
    }

    #[test]
    fn word_reads_zeros_past_the_end() {
        let input = b"abcdefghijk";
        for len in 0..=input.len() {
            let bytes = &input[..len];
            for i in 0..=len + 9 {
                let mut expected = [0u8; 8];
                for (k, e) in expected.iter_mut().enumerate() {
                    *e = bytes.get(i + k).copied().unwrap_or(0);
                }
                assert_eq!(word(bytes, i), u64::from_le_bytes(expected), "{len} {i}");
            }
        }
    }

    /// The plain `scheme` rule, for the inputs `http_scheme` answers.
    fn plain_scheme_len(input: &[u8]) -> Option<usize> {
        let end = input
            .iter()
            .position(|&b| !crate::chars::SCHEME.contains(b))?;
        (input
            .first()
            .is_some_and(|&b| crate::chars::ALPHA.contains(b))
            && input.get(end) == Some(&b':'))
        .then_some(end)
    }

    /// Where the shortcut answers, the `scheme` rule gives the same length
    /// and `//` follows; on the real-URL set it answers for most URLs.
    #[test]
    fn http_scheme_agrees_with_the_scheme_rule() {
        let check = |input: &[u8]| {
            if let Some(n) = http_scheme(input) {
                assert_eq!(Some(n), plain_scheme_len(input), "{input:?}");
                assert_eq!(input.get(n..n + 3), Some(&b"://"[..]), "{input:?}");
            }
        };
        for base in ["https://", "http://x", "http://", "https:/", "ftp://ab"] {
            for k in 0..base.len() {
                for b in [b's', b':', b'/', b'x', b'S', b'H', b'\0', b'%'] {
                    let mut bytes = base.as_bytes().to_vec();
                    bytes[k] = b;
                    for tail in ["", "a", "host/path"] {
                        let mut input = bytes.clone();
                        input.extend_from_slice(tail.as_bytes());
                        check(&input);
                    }
                }
            }
        }
        let urls = real_urls();
        let mut answered = 0;
        for url in &urls {
            check(url.as_bytes());
            answered += usize::from(http_scheme(url.as_bytes()).is_some());
        }
        assert!(answered * 2 > urls.len(), "{answered} of {}", urls.len());
        assert_eq!(http_scheme(b"http://h"), Some(4));
        assert_eq!(http_scheme(b"https://"), Some(5));
        assert_eq!(http_scheme(b"http:/hh"), None);
        assert_eq!(http_scheme(b"HTTP://h"), None);
    }
}
