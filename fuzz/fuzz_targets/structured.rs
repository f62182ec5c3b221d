//! A structured model of a URI (scheme, userinfo, host forms, port forms,
//! segments with params, query, fragment) with controlled mutations, rendered
//! and passed to `check`: it reaches deep valid inputs that byte mutation
//! rarely builds. Panics as `differential` does (see `common`).
#![no_main]

#[path = "common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use uridiff::fuzzing::UriModel;

fuzz_target!(init: sancov_wide::init(), |model: UriModel| {
    let input = model.render();
    common::hunt(
        &uridiff::fuzzing::campaign_check(&input, common::known()),
        "found by the structured fuzz target",
    );
});
