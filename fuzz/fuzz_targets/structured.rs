//! A structured model of a URI (scheme, userinfo, host forms, port forms,
//! segments with params, query, fragment) with controlled mutations, rendered
//! and passed to `check`: it reaches deep valid inputs that byte mutation
//! rarely builds. As in `differential`, an `unexplained` disagreement and a
//! defect signature the saved corpus does not know each panic in their own
//! function, so crash grouping by stack keeps them apart.
#![no_main]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use uridiff::Case;
use uridiff::fuzzing::UriModel;
use uridiff::triage::Finding;

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
        uridiff::fuzzing::corpus_entry(case, "found by the structured fuzz target")
    );
}

#[inline(never)]
fn new_defect_signature(case: &Case<'_>, new: &[&Finding]) -> ! {
    panic!(
        "parser defect with a signature the saved corpus does not know; saved-corpus entry:\n{}",
        uridiff::fuzzing::corpus_entry_with(case, "found by the structured fuzz target", new)
    );
}

fuzz_target!(|model: UriModel| {
    let input = model.render();
    let case = uridiff::check(&input);
    if case.has_unexplained() {
        unexplained_disagreement(&case);
    }
    let new = uridiff::fuzzing::new_defects(&case, known());
    if !new.is_empty() {
        new_defect_signature(&case, &new);
    }
});
