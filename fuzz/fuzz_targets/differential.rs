//! `check(input)` on arbitrary input, with every in-process oracle (the RFC
//! grammars asked and the round trips made only where the verdict without
//! them is a finding: `uridiff::fuzzing::campaign_check`). Panics on an `unexplained`
//! difference and on a defect signature the saved corpus does not know (see
//! `common`); a crash inside a parser shows as the parser's own frames.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: sancov_wide::init_text(), |data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        common::hunt(
            &uridiff::fuzzing::campaign_check(input, common::known()),
            "found by the differential fuzz target",
        );
    }
});
