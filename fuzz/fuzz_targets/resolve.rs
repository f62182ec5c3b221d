//! Section 5.2 resolution on arbitrary (base, reference) pairs: no panic;
//! when both parse and the base is absolute, the result is an absolute URI
//! (or a documented error).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: sancov_wide::init(), |pair: (&str, &str)| {
    let (base, reference) = pair;
    if let Err(broken) = uridiff::fuzzing::resolve_invariants(base, reference) {
        panic!("resolve invariant broken on {base:?} + {reference:?}: {broken}");
    }
});
