//! A set of bytes: the terminal symbols of the engine.
//!
//! Both RFC grammars are defined over characters of US-ASCII, and the engine
//! reads its input as bytes; every terminal of a compiled grammar is a set of
//! bytes (a literal character, a `%x41-5A` range, or a whole rule whose
//! language is single characters, folded into one set).

use std::fmt;

/// A set of byte values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// The empty set.
    pub const EMPTY: ByteSet = ByteSet([0; 4]);

    /// The set of one byte.
    pub fn single(b: u8) -> Self {
        let mut s = Self::EMPTY;
        s.insert(b);
        s
    }

    /// The bytes `lo..=hi` (empty when `lo > hi`).
    pub fn range(lo: u8, hi: u8) -> Self {
        let mut s = Self::EMPTY;
        for b in lo..=hi {
            s.insert(b);
        }
        s
    }

    /// Adds `b`.
    pub fn insert(&mut self, b: u8) {
        let (word, bit) = (usize::from(b >> 6), b & 63);
        if let Some(w) = self.0.get_mut(word) {
            *w |= 1 << bit;
        }
    }

    /// Is `b` in the set?
    pub fn contains(&self, b: u8) -> bool {
        let (word, bit) = (usize::from(b >> 6), b & 63);
        self.0.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }

    /// The union of both sets.
    #[must_use]
    pub fn union(mut self, other: &ByteSet) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The bytes of the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&b| self.contains(b))
    }

    /// The set with both cases of every ASCII letter it holds: how a
    /// character of a case-insensitive literal (RFC 5234 section 2.3)
    /// becomes a terminal.
    #[must_use]
    pub fn with_ascii_case(mut self) -> Self {
        for b in self.iter().collect::<Vec<_>>() {
            self.insert(b.to_ascii_lowercase());
            self.insert(b.to_ascii_uppercase());
        }
        self
    }
}

/// Writes the set the way the RFCs write characters: `"a"` for a printable
/// character, `%x00` otherwise, `a-z` style runs, separated by ` / `.
impl fmt::Display for ByteSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn one(b: u8) -> String {
            if b.is_ascii_graphic() && b != b'"' {
                format!("\"{}\"", char::from(b))
            } else {
                format!("%x{b:02X}")
            }
        }
        if self.is_empty() {
            return f.write_str("nothing");
        }
        let mut first = true;
        let mut b = 0u16;
        while b <= 255 {
            let lo = u8::try_from(b).unwrap_or(u8::MAX);
            if !self.contains(lo) {
                b += 1;
                continue;
            }
            let mut hi = b;
            while hi < 255 && self.contains(u8::try_from(hi + 1).unwrap_or(u8::MAX)) {
                hi += 1;
            }
            if !first {
                f.write_str(" / ")?;
            }
            first = false;
            let hi8 = u8::try_from(hi).unwrap_or(u8::MAX);
            if hi8 == lo {
                f.write_str(&one(lo))?;
            } else if hi8 == lo + 1 {
                write!(f, "{} / {}", one(lo), one(hi8))?;
            } else {
                write!(f, "{}-{}", one(lo), one(hi8))?;
            }
            b = hi + 1;
        }
        Ok(())
    }
}

impl fmt::Debug for ByteSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ByteSet({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_what_was_put_in() {
        let s = ByteSet::range(b'a', b'c').union(&ByteSet::single(0xFF));
        assert!(s.contains(b'a') && s.contains(b'c') && s.contains(0xFF));
        assert!(!s.contains(b'd') && !s.contains(0));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![b'a', b'b', b'c', 0xFF]);
        assert_eq!(s.to_string(), "\"a\"-\"c\" / %xFF");
        assert!(ByteSet::range(2, 1).is_empty());
        assert_eq!(
            ByteSet::single(b'k').with_ascii_case().to_string(),
            "\"K\" / \"k\""
        );
    }
}
