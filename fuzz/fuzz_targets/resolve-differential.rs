//! `check_with_base(base, reference)` on arbitrary (base, reference) pairs
//! (decoded with `arbitrary`, as the `resolve` target's): every oracle
//! resolves with its own algorithm, and the resolved URIs go through the
//! same self-checks, triage and host confusions as `differential`'s inputs.
//! Panics as `differential` does (see `common`).
#![no_main]

#[path = "common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: sancov_wide::init(), |pair: (&str, &str)| {
    let (base, reference) = pair;
    common::hunt(
        &uridiff::fuzzing::campaign_check_with_base(base, reference, common::known()),
        "found by the resolve-differential fuzz target",
    );
});
