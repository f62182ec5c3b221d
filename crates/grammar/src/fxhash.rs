//! A small multiplicative hasher for the chart's integer keys.
//!
//! The chart hashes packed `u64` item keys millions of times per second;
//! the standard library's SipHash guards against collision attacks the
//! chart does not face (its keys are positions and rule numbers), at several
//! times the cost. No dependency is taken for a dozen lines.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of integer writes (the constant is the 64-bit
/// golden-ratio multiplier).
#[derive(Default, Clone, Copy, Debug)]
pub(crate) struct IntHasher(u64);

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        // The low bits of a product depend only on the low bits of its
        // inputs, and the table picks buckets by the low bits: bring the
        // well-mixed high bits down.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(K);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

pub(crate) type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;
pub(crate) type IntSet<K> = HashSet<K, BuildHasherDefault<IntHasher>>;
