//! A structured model of a URI (scheme, userinfo, host forms, port forms,
//! segments with params, query, fragment) with controlled mutations, rendered
//! and passed to `check`: it reaches deep valid inputs that byte mutation
//! rarely builds. Panics only when a disagreement is `unexplained`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uridiff::fuzzing::UriModel;

fuzz_target!(|model: UriModel| {
    let input = model.render();
    let case = uridiff::check(&input);
    if case.has_unexplained() {
        panic!(
            "unexplained disagreement; saved-corpus entry:\n{}",
            uridiff::fuzzing::corpus_entry(&case, "found by the structured fuzz target")
        );
    }
});
