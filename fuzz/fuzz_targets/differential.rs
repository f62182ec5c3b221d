//! `check(input)` on arbitrary input. Two kinds of finding stop the run,
//! each panicking in its own function so that stack-based grouping
//! (ClusterFuzz, OSS-Fuzz) keeps them apart, each printing a ready-to-paste
//! entry for `corpus/curated.txt`:
//!
//! - a disagreement no triage rule explains (`unexplained`);
//! - a parser defect whose signature (class, basis, parser, fields) the
//!   saved corpus's recorded expectations do not know yet.
//!
//! A crash inside a parser shows as the parser's own frames.
#![no_main]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use uridiff::Case;
use uridiff::triage::Finding;

/// The defect signatures corpus/signatures.txt records, read at build time.
fn known() -> &'static BTreeSet<String> {
    static KNOWN: OnceLock<BTreeSet<String>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        uridiff::corpus::known_defect_signatures(include_str!("../../corpus/signatures.txt"))
    })
}

#[inline(never)]
fn unexplained_disagreement(case: &Case<'_>) -> ! {
    panic!(
        "unexplained disagreement; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry(case, "found by the differential fuzz target")
    );
}

#[inline(never)]
fn new_defect_signature(case: &Case<'_>, new: &[&Finding]) -> ! {
    panic!(
        "parser defect with a signature the saved corpus does not know; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry_with(case, "found by the differential fuzz target", new)
    );
}

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        let case = uridiff::check(input);
        if case.has_unexplained() {
            unexplained_disagreement(&case);
        }
        let new = uridiff::fuzzing::new_defects(&case, known());
        if !new.is_empty() {
            new_defect_signature(&case, &new);
        }
    }
});
