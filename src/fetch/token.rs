//! [`Token`]s: the proof that a request arriving at a trap is the one a
//! client was asked to send, not a stray connection.
//!
//! A trap on loopback can be reached by anything on the machine: another
//! program, a client's late retry of an earlier request, a redirect. So
//! each request carries a token in the header [`TOKEN_HEADER`], the trap
//! records the header of every request it receives ([`super::Hit::token`]),
//! and only a hit carrying the token of the request out counts
//! ([`super::Hit::carries`]).
//!
//! A token is 128 bits, written as 32 lowercase hex digits: the first 16
//! bytes of SHA-256(seed ‖ counter), where the seed is 32 bytes from the
//! operating system's random source (`getrandom`), drawn once per
//! [`Tokens`], and the counter is the request's number in that run. Tokens
//! are thus distinct within a run (distinct counters) and unpredictable
//! without the seed, which never leaves this process: a local program that
//! sees earlier tokens (it cannot, unless it reads the loopback traffic)
//! learns nothing about the next. The time and process id would not do:
//! another local program knows both.
//!
//! Tokens travel only to loopback: the clients dial nothing else (the
//! guard, [`crate::fetch`]), and a trap answers the same way whatever
//! token it gets, so comparing tokens afterwards tells a stray nothing.

use std::fmt;

use sha2::{Digest, Sha256};

/// The request header that carries a request's token (sent by every
/// client, compared ASCII case-insensitively by the trap, as HTTP header
/// names are).
pub const TOKEN_HEADER: &str = "X-Uridiff-Token";

/// One request's token: 32 lowercase hex digits (128 bits). Made only by
/// [`Tokens::next_token`], so it is always a valid header value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Token(String);

impl Token {
    /// The token as sent: 32 lowercase hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({})", self.0)
    }
}

/// The tokens of one run: a random seed and a counter.
pub struct Tokens {
    seed: [u8; 32],
    counter: u64,
}

impl fmt::Debug for Tokens {
    /// The seed stays out of debug output (it would predict every token).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokens")
            .field("counter", &self.counter)
            .finish_non_exhaustive()
    }
}

impl Tokens {
    /// A new run's tokens, its seed drawn from the operating system's
    /// random source.
    ///
    /// # Errors
    /// The random source failed (no fallback to anything guessable).
    pub fn new() -> Result<Tokens, String> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)
            .map_err(|e| format!("no random seed for the request tokens: {e}"))?;
        Ok(Tokens { seed, counter: 0 })
    }

    /// The next request's token.
    pub fn next_token(&mut self) -> Token {
        self.counter = self.counter.wrapping_add(1);
        let digest = Sha256::new()
            .chain_update(self.seed)
            .chain_update(self.counter.to_le_bytes())
            .finalize();
        let hex: String = digest
            .iter()
            .take(16)
            .map(|byte| format!("{byte:02x}"))
            .collect();
        Token(hex)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_distinct_in_a_run_and_across_runs() {
        let mut run = Tokens::new().unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..1000 {
            let token = run.next_token();
            assert_eq!(token.as_str().len(), 32, "{token}");
            assert!(
                token
                    .as_str()
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "{token}"
            );
            assert!(seen.insert(token.as_str().to_owned()), "{token} twice");
        }
        // Another run has another seed: its first token is none of these.
        let other = Tokens::new().unwrap().next_token();
        assert!(!seen.contains(other.as_str()), "{other}");
        assert!(!format!("{run:?}").contains("seed"));
    }
}
