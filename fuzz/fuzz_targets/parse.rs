//! The strict parser on arbitrary input: no panic; an accepted input
//! recomposes to itself with ordered in-bounds spans and agrees with the
//! Appendix B split; a rejection points inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        if let Err(broken) = uridiff::fuzzing::parse_invariants(input) {
            panic!("parse invariant broken on {input:?}: {broken}");
        }
    }
});
