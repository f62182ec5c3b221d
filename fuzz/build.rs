//! Binds the fuzz targets' comparison and indirect-call hooks to
//! crates/sancov-wide's (`--wrap`), which pass libFuzzer only what it reads:
//! the one- and two-byte comparisons, the indirect calls, and the wider
//! comparisons whose operands both fit in a byte (in a target of text input,
//! also those neither of whose operands could be a word of text), only when
//! it reads its value profile. That crate's documentation says why. Only in a fuzz build (`--cfg fuzzing`, which cargo-fuzz passes) on
//! Linux, where the wrapped hooks exist and the linker (GNU ld, lld) knows
//! `--wrap`.

const HOOKS: [&str; 9] = [
    "__sanitizer_cov_trace_cmp1",
    "__sanitizer_cov_trace_const_cmp1",
    "__sanitizer_cov_trace_cmp2",
    "__sanitizer_cov_trace_const_cmp2",
    "__sanitizer_cov_trace_cmp4",
    "__sanitizer_cov_trace_const_cmp4",
    "__sanitizer_cov_trace_cmp8",
    "__sanitizer_cov_trace_const_cmp8",
    "__sanitizer_cov_trace_pc_indir",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if fuzzing && linux {
        for hook in HOOKS {
            println!("cargo:rustc-link-arg-bins=-Wl,--wrap={hook}");
        }
    }
}
