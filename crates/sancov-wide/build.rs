//! Compiles src/hooks.c, the comparison hooks, in a fuzz build
//! (`--cfg fuzzing`, which cargo-fuzz passes) on Linux: the only build that
//! links them (fuzz/build.rs) and the only one where their `__real_`
//! symbols resolve.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/hooks.c");
    let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if fuzzing && linux {
        cc::Build::new()
            .file("src/hooks.c")
            // The forwarding call must stay a jump (src/hooks.c), and a hook
            // called on every byte compared needs no frame of its own.
            .flag_if_supported("-foptimize-sibling-calls")
            .flag_if_supported("-fomit-frame-pointer")
            .compile("sancov_wide_hooks");
    }
}
