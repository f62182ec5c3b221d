//! `check_with_base(base, reference)` on arbitrary (base, reference) pairs
//! (decoded with `arbitrary`, as the `resolve` target's): every oracle
//! resolves with its own algorithm, and the resolved URIs go through the
//! same self-checks, triage and host confusions as `differential`'s inputs.
//! An `unexplained` difference and a defect signature the saved corpus does
//! not know each panic in their own function, so stack-based grouping keeps
//! them apart.
#![no_main]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use uridiff::Case;
use uridiff::triage::Finding;

fn known() -> &'static BTreeSet<String> {
    static KNOWN: OnceLock<BTreeSet<String>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        uridiff::corpus::known_defect_signatures(include_str!("../../corpus/signatures.txt"))
    })
}

#[inline(never)]
fn unexplained_resolution(case: &Case<'_>) -> ! {
    panic!(
        "unexplained resolution difference; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry(case, "found by the resolve-differential fuzz target")
    );
}

#[inline(never)]
fn new_resolution_defect_signature(case: &Case<'_>, new: &[&Finding]) -> ! {
    panic!(
        "parser defect (resolving) with a signature the saved corpus does not know; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry_with(
            case,
            "found by the resolve-differential fuzz target",
            new
        )
    );
}

fuzz_target!(|pair: (&str, &str)| {
    let (base, reference) = pair;
    let case = uridiff::check_with_base(base, reference);
    if case.has_unexplained() {
        unexplained_resolution(&case);
    }
    let new = uridiff::fuzzing::new_defects(&case, known());
    if !new.is_empty() {
        new_resolution_defect_signature(&case, &new);
    }
});
