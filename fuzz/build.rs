//! Binds the fuzz targets' one- and two-byte comparison hooks to
//! crates/sancov-wide's (`--wrap`), which do nothing unless libFuzzer reads
//! its value profile: that crate's documentation says why. Only in a fuzz
//! build (`--cfg fuzzing`, which cargo-fuzz passes) on Linux, where the
//! wrapped hooks exist and the linker (GNU ld, lld) knows `--wrap`.

const NARROW_HOOKS: [&str; 4] = [
    "__sanitizer_cov_trace_cmp1",
    "__sanitizer_cov_trace_const_cmp1",
    "__sanitizer_cov_trace_cmp2",
    "__sanitizer_cov_trace_const_cmp2",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if fuzzing && linux {
        for hook in NARROW_HOOKS {
            println!("cargo:rustc-link-arg-bins=-Wl,--wrap={hook}");
        }
    }
}
