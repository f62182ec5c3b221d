//! Compiles src/hooks.c, the comparison hooks, on Linux. A fuzz build
//! (`--cfg fuzzing`, which cargo-fuzz passes) links them into the targets
//! (fuzz/build.rs: `--wrap`, which binds their `__real_` names to
//! libFuzzer's hooks); any other build adds src/test_stubs.c, stand-ins for
//! libFuzzer's hooks, for this crate's tests.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/hooks.c");
    println!("cargo:rerun-if-changed=src/test_stubs.c");
    let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if !linux {
        return;
    }
    let mut build = cc::Build::new();
    build
        .file("src/hooks.c")
        // The forwarding call must stay a jump (src/hooks.c), and a hook
        // called on every byte compared needs no frame of its own.
        .flag_if_supported("-foptimize-sibling-calls")
        .flag_if_supported("-fomit-frame-pointer");
    if !fuzzing {
        // Outside a fuzz build nothing binds the `__real_` names: this
        // crate's tests call the hooks against stand-ins that count what
        // reaches them (src/lib.rs, `hook_tests`). Nothing else links the
        // hooks there.
        build.file("src/test_stubs.c");
    }
    build.compile("sancov_wide_hooks");
}
