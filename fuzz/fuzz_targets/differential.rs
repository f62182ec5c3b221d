//! `check(input)` on arbitrary input: panics only when a disagreement is
//! `unexplained`, with a ready-to-paste entry for `corpus/curated.txt`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        let case = uridiff::check(input);
        if case.has_unexplained() {
            panic!(
                "unexplained disagreement; saved-corpus entry:\n{}",
                uridiff::fuzzing::corpus_entry(&case, "found by the differential fuzz target")
            );
        }
    }
});
