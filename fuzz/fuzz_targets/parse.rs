//! The strict parser on arbitrary input: no panic; an accepted input
//! recomposes to itself with ordered in-bounds spans and agrees with the
//! Appendix B split; a rejection points inside the input; and RFC 2396
//! Appendix A run as text (the `uridiff-grammar` crate) accepts exactly the
//! same inputs, the strict parser's reading among its own
//! (`uridiff::fuzzing::rfc2396_grammar_agrees`). An input beyond the
//! grammar engine's limits (over 16 KiB) is not compared with the grammar.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        if let Err(broken) = uridiff::fuzzing::parse_invariants(input) {
            panic!("parse invariant broken on {input:?}: {broken}");
        }
    }
});
