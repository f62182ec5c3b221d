//! Speed code: `host = hostname | IPv4address`, eight bytes at a time.
//!
//! [`host`] is the parser's only implementation of `hostname`: both the
//! one-pass `hostport` shortcut and the general `server` production call it.
//! It answers what the grammar's label-by-label reading would (the tests
//! keep that reading, written from Appendix A, and compare), without a
//! branch per byte or per label that real hosts, whose lengths vary without
//! pattern, would mispredict: one pass over the host, eight bytes at a time,
//! notes where its dots and hyphens are in bit masks, and the shape of the
//! labels is then checked on the masks.
//!
//! The bytes are classified by arithmetic on a whole word ([`HostMarks`])
//! rather than by eight table lookups: fewer instructions, and the end of
//! the host, where the rest of the reference is parsed from, is known
//! sooner (22 % faster parsing of the real-URL set when it was introduced,
//! criterion, 2026-11-23).

use crate::chars::{ALPHA, DIGIT};
use crate::parse::HostKind;
use crate::scan::word;

/// Each byte's top bit, the mark of the [`HostMarks`] masks.
const TOP_BITS: u64 = 0x8080_8080_8080_8080;
/// A one in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Which of the eight bytes of a [`word`] may be in a `host`, and which
/// are its label separators, each a mask with bit 7 of byte `k` set for
/// byte `k` and every other bit clear.
///
/// Computed on the bytes themselves, eight at a time, with no table lookup:
/// the host bytes are a few ranges of US-ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostMarks {
    /// `alphanum | "-" | "."`: every byte of a `hostname` or `IPv4address`.
    host: u64,
    /// `"."`, which separates host labels (among the host bytes).
    dots: u64,
    /// `"-"`, which may not start or end a host label (among the host bytes).
    hyphens: u64,
}

impl HostMarks {
    fn of(word: u64) -> Self {
        // Bytes from 0x80 up are in no host; the rest are compared on their
        // low seven bits. Adding 0x80 - c to such a byte sets its top bit
        // iff it is at least c, and cannot carry into the next byte.
        let ascii = !word & TOP_BITS;
        let low = word & !TOP_BITS;
        let at_least = |bytes: u64, c: u8| (bytes + u64::from(0x80 - c) * ONES) & TOP_BITS;
        // Setting bit 5 folds 'A'..='Z' onto 'a'..='z', and moves nothing
        // else into that range.
        let folded = low | (0x20 * ONES);
        let letters = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
        // '-', '.', '/' and the digits are the range 0x2d..=0x39.
        let digits_and_marks = at_least(low, b'-') & !at_least(low, b'9' + 1);
        let host = (letters | (digits_and_marks & !equal_bytes(word, b'/'))) & ascii;
        // The host bytes below '0' are '-' (0x2d) and '.' (0x2e), which
        // bit 0 tells apart; shifting by seven moves it to bit 7.
        let marks = host & !at_least(low, b'0');
        let hyphens = marks & (word << 7);
        HostMarks {
            host,
            dots: marks & !hyphens,
            hyphens,
        }
    }
}

/// Bit 7 of byte `k` of the result is set iff byte `k` of `word` is `b`;
/// every other bit is clear.
fn equal_bytes(word: u64, b: u8) -> u64 {
    const LOW7: u64 = !TOP_BITS;
    // A byte of `diff` is zero exactly where the bytes are equal. Adding
    // 0x7f to its low seven bits carries into bit 7 iff they are not all
    // zero, and never into the next byte; or-ing in `diff` itself adds its
    // own bit 7. What is left clear marks a zero byte.
    let diff = word ^ (u64::from(b) * ONES);
    !(((diff & LOW7) + LOW7) | diff | LOW7)
}

/// Bit `k` is set iff bit 7 of byte `k` of `marks` is.
fn gather(marks: u64) -> u8 {
    // Byte k's bit, moved to bit 0 of the byte, is multiplied into bit
    // 56 + k, and no two products overlap.
    ((marks >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// How many bytes of `marks` come before the first one without its mark;
/// 8 when all eight have it.
fn first_unmarked(marks: u64) -> usize {
    // With all eight marked nothing is left, and trailing_zeros is 64.
    ((!marks & TOP_BITS).trailing_zeros() / 8) as usize
}

/// The labels of a block of host bytes that break `domainlabel`, as a mask
/// (zero when there are none), given, for byte `k` of the block in bit `k`,
/// which bytes are dots and hyphens, and whether the byte before the block
/// is a dot (`after_dot`, also 1 at the start of the host, where a label
/// starts as it does after a dot) or a hyphen (`after_hyphen`).
///
/// A label is a `domainlabel` iff it is non-empty and neither starts nor
/// ends with `-` (it holds only alphanum and `-`): no dot or hyphen comes
/// right after a dot or the start, and no dot right after a hyphen. A hyphen
/// at the very end of the host is left to the caller.
fn misplaced(dots: u64, hyphens: u64, after_dot: u64, after_hyphen: u64) -> u64 {
    let before_dots = (dots << 1) | after_dot;
    let before_hyphens = (hyphens << 1) | after_hyphen;
    (before_dots & (dots | hyphens)) | (before_hyphens & dots)
}

/// `host = hostname | IPv4address` at `start`, running to the first byte
/// that is neither alphanum, `-` nor `.`: where it ends and which it is, or
/// `None` when those bytes are neither (or there are none). The two never
/// overlap, since a `toplabel` starts with a letter and an `IPv4address`
/// has none.
///
/// `hostname = *( domainlabel "." ) toplabel [ "." ]`, with
/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum` and
/// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`.
pub(crate) fn host(bytes: &[u8], start: usize) -> Option<(usize, HostKind)> {
    // The masks have a bit per byte, so a host is read in blocks of 64
    // bytes; what one block tells the next is carried in `after_dot`,
    // `after_hyphen` and `top`. Nearly every host fits in the first.
    let mut block = start;
    let mut after_dot = 1;
    let mut after_hyphen = 0;
    // Where the label after the last dot so far starts (the toplabel, if no
    // other dot follows), not counting a dot that ends the previous block.
    let mut top = start;
    loop {
        let mut dots = 0u64;
        let mut hyphens = 0u64;
        let mut base = 0;
        let len = loop {
            let marks = HostMarks::of(word(bytes, block + base));
            dots |= u64::from(gather(marks.dots)) << base;
            hyphens |= u64::from(gather(marks.hyphens)) << base;
            let run = first_unmarked(marks.host);
            if run < 8 {
                break base + run;
            }
            // The next eight bytes start where these end whatever they
            // held, so loading them need not wait for the arithmetic.
            base += 8;
            if base == 64 {
                break base;
            }
        };
        if len == 64 {
            // A whole block of host bytes; the host may go on.
            if misplaced(dots, hyphens, after_dot, after_hyphen) != 0 {
                return None;
            }
            // Bit j of `before_dots` is the byte before byte j; the block's
            // last byte is left for the next block to judge.
            let before_dots = (dots << 1) | after_dot;
            if before_dots != 0 {
                top = block + (63 - before_dots.leading_zeros()) as usize;
            }
            after_dot = dots >> 63;
            after_hyphen = hyphens >> 63;
            block += 64;
            continue;
        }
        let end = block + len;
        if end == start {
            return None;
        }
        // Drop what follows the host in the last eight bytes; len < 64.
        let in_host = (1u64 << len) - 1;
        dots &= in_host;
        hyphens &= in_host;
        let before_dots = (dots << 1) | after_dot;
        let before_hyphens = (hyphens << 1) | after_hyphen;
        // Bit `len` of `before_hyphens` is the last byte of the host: a
        // label may not end with "-" there either.
        if misplaced(dots, hyphens, after_dot, after_hyphen) | ((before_hyphens >> len) & 1) != 0 {
            return None;
        }
        // The toplabel follows the last dot but an optional trailing one:
        // bits 0..len of `before_dots` are the bytes before the last.
        let inner = before_dots & in_host;
        if inner != 0 {
            top = block + (63 - inner.leading_zeros()) as usize;
        }
        let kind = match bytes.get(top) {
            Some(&b) if ALPHA.contains(b) => HostKind::Hostname,
            // A toplabel cannot start with a digit, but an IPv4address can,
            // and IPv4 hosts are rare enough to check apart.
            _ if ipv4address(bytes.get(start..end)?) => HostKind::Ipv4,
            _ => return None,
        };
        return Some((end, kind));
    }
}

/// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`, with no
/// range check: the grammar has none (`999.1.1.1` is an IPv4address).
fn ipv4address(host: &[u8]) -> bool {
    let mut groups = 0;
    for group in host.split(|&b| b == b'.') {
        if group.is_empty() || !group.iter().all(|&b| DIGIT.contains(b)) {
            return false;
        }
        groups += 1;
    }
    groups == 4
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::chars::{ALPHANUM, CharClass};

    /// Every byte of a `hostname` or an `IPv4address`.
    const HOST_BYTES: CharClass = ALPHANUM.or(CharClass::new(b"-."));

    // The grammar's own reading, label by label (Section 3.2.2), against
    // which `host` is checked.

    /// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`
    fn domainlabel(label: &[u8]) -> bool {
        let inner = |b: &u8| ALPHANUM.contains(*b) || *b == b'-';
        match label {
            [only] => ALPHANUM.contains(*only),
            [first, middle @ .., last] => {
                ALPHANUM.contains(*first) && ALPHANUM.contains(*last) && middle.iter().all(inner)
            }
            [] => false,
        }
    }

    /// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`
    fn toplabel(label: &[u8]) -> bool {
        label.first().is_some_and(|&b| ALPHA.contains(b)) && domainlabel(label)
    }

    /// `hostname = *( domainlabel "." ) toplabel [ "." ]`
    fn hostname(host: &[u8]) -> bool {
        let host = host.strip_suffix(b".").unwrap_or(host);
        let labels: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
        match labels.split_last() {
            Some((top, rest)) => toplabel(top) && rest.iter().all(|l| domainlabel(l)),
            None => false,
        }
    }

    /// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`
    fn plain_ipv4address(host: &[u8]) -> bool {
        let groups: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
        groups.len() == 4
            && groups
                .iter()
                .all(|g| !g.is_empty() && g.iter().all(|&b| DIGIT.contains(b)))
    }

    /// What `host` must answer at `start`: the host runs to the first byte
    /// outside `HOST_BYTES`, and is whichever alternative matches it.
    fn plain_host(bytes: &[u8], start: usize) -> Option<(usize, HostKind)> {
        let rest = bytes.get(start..).unwrap_or_default();
        let end = start
            + rest
                .iter()
                .position(|&b| !HOST_BYTES.contains(b))
                .unwrap_or(rest.len());
        let text = bytes.get(start..end).unwrap_or_default();
        if hostname(text) {
            Some((end, HostKind::Hostname))
        } else if plain_ipv4address(text) {
            Some((end, HostKind::Ipv4))
        } else {
            None
        }
    }

    fn agree(bytes: &[u8], start: usize) {
        assert_eq!(
            host(bytes, start),
            plain_host(bytes, start),
            "{:?} from {start}",
            String::from_utf8_lossy(bytes)
        );
    }

    #[test]
    fn plain_reading_matches_the_examples() {
        for ok in [
            "a",
            "a.b",
            "a-b.c",
            "x1.com",
            "1x.com",
            "a.b.",
            "EXAMPLE.COM",
        ] {
            assert!(hostname(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", ".", "a..b", "-a.com", "a-.com", "a.1b", "a.b..", "1", "a_b", ".a",
        ] {
            assert!(!hostname(bad.as_bytes()), "{bad}");
        }
        for ok in ["1.2.3.4", "999.1.1.1", "0000.0.0.00"] {
            assert!(plain_ipv4address(ok.as_bytes()), "{ok}");
        }
        for bad in ["1.2.3", "1.2.3.4.5", "1.2.3.4.", "1..3.4", "a.2.3.4", ""] {
            assert!(!plain_ipv4address(bad.as_bytes()), "{bad}");
        }
    }

    /// Every string of up to seven bytes over the bytes that decide a
    /// host's shape, alone and after a prefix, and followed by what ends a
    /// host (or nothing).
    #[test]
    fn host_agrees_with_the_grammar_exhaustively_on_short_strings() {
        let alphabet = [b'a', b'Z', b'1', b'-', b'.', b'_'];
        let mut text = Vec::new();
        for len in 0..=7u32 {
            for n in 0..alphabet.len().pow(len) {
                text.clear();
                let mut n = n;
                for _ in 0..len {
                    text.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                for (prefix, suffix) in [("", ""), ("", ":80/p"), ("u@", "/"), ("ab.cd.ef", "?")] {
                    let bytes = [prefix.as_bytes(), &text, suffix.as_bytes()].concat();
                    agree(&bytes, prefix.len());
                }
            }
        }
        // Starting at or past the end of the input.
        for (bytes, start) in [(&b""[..], 0), (b"", 1), (b"a", 1), (b"a", 9), (b"ab.c", 4)] {
            agree(bytes, start);
        }
    }

    /// Hosts longer than a block of 64 bytes, with dots, hyphens and
    /// digits on either side of each block boundary.
    #[test]
    fn host_agrees_with_the_grammar_across_blocks() {
        for len in [62, 63, 64, 65, 66, 127, 128, 129, 130, 200] {
            for at in (0..len).filter(|k| k % 64 > 59 || k % 64 < 3 || *k + 3 > len) {
                for b in [b'.', b'-', b'1', b'_'] {
                    for last in [b'a', b'.', b'-', b'9'] {
                        let mut bytes = vec![b'a'; len];
                        bytes[at] = b;
                        bytes[len - 1] = last;
                        agree(&bytes, 0);
                        bytes.extend_from_slice(b":8/");
                        agree(&bytes, 0);
                    }
                }
            }
        }
        // Long IPv4address look-alikes.
        let digits = format!("{}.1.1.1", "9".repeat(100));
        agree(digits.as_bytes(), 0);
        let digits = format!("{}.1.1.1.", "9".repeat(100));
        agree(digits.as_bytes(), 0);
        let labels = "a1.".repeat(50) + "b";
        agree(labels.as_bytes(), 0);
        let labels = "a1.".repeat(50) + "9";
        agree(labels.as_bytes(), 0);
    }

    #[test]
    fn host_agrees_with_the_grammar_on_the_real_url_set() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data/urls.txt");
        let text = std::fs::read_to_string(path).unwrap();
        for url in text.lines() {
            let bytes = url.as_bytes();
            // From every position, not only where the host starts: every
            // suffix of a URL is some host-like string.
            for start in 0..=bytes.len() {
                agree(bytes, start);
            }
        }
    }

    proptest! {
        // A failure prints the minimal input; no regression files in the
        // source tree.
        #![proptest_config(ProptestConfig {
            cases: 2000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn host_agrees_with_the_grammar(
            input in "([a-zA-Z0-9]{0,3}[-.]?){0,30}[:/?#@_\u{e9}]?[a.-]{0,3}",
            start in 0usize..4,
        ) {
            let bytes = input.as_bytes();
            prop_assert_eq!(host(bytes, start), plain_host(bytes, start));
        }
    }

    /// `equal_bytes` and `gather` against a byte-by-byte comparison, for
    /// every byte value in every position, next to every other value.
    #[test]
    fn equal_bytes_marks_exactly_the_equal_bytes() {
        for b in [b'.', b'-', 0, 0x7f, 0x80, 0xff] {
            for v in 0u8..=0xff {
                for k in 0..8 {
                    for fill in [0u8, b, v, b ^ 0x80, b ^ 1] {
                        let mut bytes = [fill; 8];
                        bytes[k] = v;
                        let expected = bytes
                            .iter()
                            .enumerate()
                            .fold(0u8, |m, (j, &x)| m | (u8::from(x == b) << j));
                        let marks = equal_bytes(u64::from_le_bytes(bytes), b);
                        assert_eq!(marks & !TOP_BITS, 0);
                        assert_eq!(gather(marks), expected, "{b:#x} in {bytes:x?}");
                    }
                }
            }
        }
    }

    /// `HostMarks` against the table of host bytes, for every byte value in
    /// every position, between bytes of every kind.
    #[test]
    fn host_marks_match_the_host_bytes() {
        for v in 0u8..=0xff {
            for k in 0..8 {
                for fill in [b'a', b'.', b'-', b'0', b'/', 0, 0x7f, 0x80, 0xff, v] {
                    let mut bytes = [fill; 8];
                    bytes[k] = v;
                    let marks = HostMarks::of(u64::from_le_bytes(bytes));
                    let mark = |f: &dyn Fn(u8) -> bool| {
                        bytes
                            .iter()
                            .enumerate()
                            .fold(0u64, |m, (j, &x)| m | (u64::from(f(x)) << (8 * j + 7)))
                    };
                    let in_host = |x: u8| HOST_BYTES.contains(x);
                    assert_eq!(marks.host, mark(&in_host), "{bytes:x?}");
                    assert_eq!(marks.dots, mark(&|x| x == b'.'), "{bytes:x?}");
                    assert_eq!(marks.hyphens, mark(&|x| x == b'-'), "{bytes:x?}");
                    let first = bytes.iter().position(|&x| !in_host(x)).unwrap_or(8);
                    assert_eq!(first_unmarked(marks.host), first, "{bytes:x?}");
                }
            }
        }
    }
}
