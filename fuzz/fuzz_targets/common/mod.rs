//! What the differential targets share: the baseline of known defect
//! signatures, and one panicking function per kind of finding, so that
//! crash grouping by stack (ClusterFuzz, OSS-Fuzz) keeps an `unexplained`
//! difference and a new defect signature apart. Included by each target
//! with `#[path]` (a cargo-fuzz crate has no library of its own).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use uridiff::Case;

/// The defect signatures `corpus/signatures.txt` records, read at build time.
pub fn known() -> &'static BTreeSet<uridiff::Signature> {
    static KNOWN: OnceLock<BTreeSet<uridiff::Signature>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        uridiff::corpus::known_defect_signatures(include_str!("../../../corpus/signatures.txt"))
    })
}

#[inline(never)]
fn unexplained_difference(case: &Case<'_>, origin: &str) -> ! {
    panic!(
        "unexplained difference; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry(case, origin)
    );
}

#[inline(never)]
fn new_defect_signature(case: &Case<'_>, origin: &str, new: &[&uridiff::triage::Finding]) -> ! {
    panic!(
        "parser defect with a signature corpus/signatures.txt does not know; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry_with(case, origin, new)
    );
}

/// Panics when `case` holds an `unexplained` finding or a defect signature
/// the saved corpus does not know, each in its own function. The targets
/// pass `uridiff::fuzzing::campaign_check`'s case: `check()` without the RFC
/// grammars and the round trips, the full check wherever that would be a
/// finding.
pub fn hunt(case: &Case<'_>, origin: &str) {
    if case.has_unexplained() {
        unexplained_difference(case, origin);
    }
    let new = uridiff::fuzzing::new_defects(case, known());
    if !new.is_empty() {
        new_defect_signature(case, origin, &new);
    }
}
