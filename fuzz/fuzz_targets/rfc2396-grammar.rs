//! The strict parser against RFC 2396 Appendix A run as text (the
//! `uridiff-grammar` crate's Earley engine): both accept exactly the same
//! inputs, and the strict parser's reading is among the grammar's
//! (`uridiff::fuzzing::rfc2396_grammar_agrees`). An input beyond the
//! grammar engine's limits (over 16 KiB) is not compared. The `parse`
//! target holds the strict parser's other invariants at its own speed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: sancov_wide::init_text(), |data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        if let Err(broken) = uridiff::fuzzing::rfc2396_grammar_agrees(input) {
            panic!("the strict parser and the RFC 2396 grammar disagree on {input:?}: {broken}");
        }
    }
});
