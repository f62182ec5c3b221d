//! The strict parser on arbitrary input: no panic; an accepted input
//! recomposes to itself with ordered in-bounds spans and agrees with the
//! Appendix B split; a rejection points inside the input
//! (`uridiff::fuzzing::strict_parser_invariants`). Its agreement with RFC
//! 2396 Appendix A run as text is the `rfc2396-grammar` target's, whose
//! Earley engine would cost this target nine tenths of its speed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: sancov_wide::init_text(), |data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        if let Err(broken) = uridiff::fuzzing::strict_parser_invariants(input) {
            panic!("parse invariant broken on {input:?}: {broken}");
        }
    }
});
