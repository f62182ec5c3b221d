//! Comparison tracing that costs a campaign only what libFuzzer reads.
//!
//! With comparison tracing (`-sanitizer-coverage-trace-compares`, which
//! cargo-fuzz turns on, and clang's `-fsanitize=fuzzer-no-link` for the C and
//! C++ oracles) every integer comparison calls a
//! `__sanitizer_cov_trace_[const_]cmp{1,2,4,8}` hook with its operands.
//! libFuzzer (`TracePC::HandleCmp` in `FuzzerTracePC.cpp`, the copy that
//! libfuzzer-sys 0.4.13 bundles) does two things with them:
//!
//! - four- and eight-byte operands go into its tables of recent comparisons,
//!   which the mutator reads (`-use_cmp`, on by default);
//! - operands of every width go into its value profile, which only
//!   `-use_value_profile=1` reads (off by default, and in every campaign
//!   `scripts/fuzz.sh` runs).
//!
//! A one- or two-byte comparison therefore feeds the search nothing unless
//! value profile is on. Its hook still updates the value profile's bitmap
//! twice per call, and parsers compare bytes in every loop. Over real URLs
//! that hook was the largest single symbol of the differential fuzz target,
//! 12 % of its time (BENCHMARKS.md, "tenth round").
//!
//! Most four- and eight-byte comparisons are the same thing widened: a byte
//! or a character (`char` is four bytes) against an ASCII constant, an
//! index or a length against a small bound. When both operands fit in one
//! byte, the words the mutator would make of them (`Mutate_AddWordFromTORC`,
//! `MakeDictionaryEntryFromCMP` in `FuzzerMutate.cpp`: the operand's bytes,
//! either byte order, give or take one) are that byte and zeros, which
//! libFuzzer does not record for a one-byte comparison either; and each
//! takes one of the 32 slots of its table (chosen by the operands' XOR)
//! from a comparison whose words carry text, four bytes of the input against
//! `http`. Over real URLs two thirds of the wide comparisons are of that
//! kind (600 of 885 per URL), and leaving them out takes 8.5 % off the
//! target's instructions per URL (BENCHMARKS.md, "eleventh round").
//!
//! An indirect call's hook (`__sanitizer_cov_trace_pc_indir`: clang's
//! `-fsanitize=fuzzer-no-link` and cargo-fuzz's `-sanitizer-coverage-level=4`
//! put one before every call through a pointer) feeds the value profile
//! alone as well (`TracePC::HandleCallerCallee`), at the cost of a division
//! by a prime per call.
//!
//! The fuzz targets are linked with `--wrap` for the eight one- to
//! eight-byte hooks and the indirect-call hook (`fuzz/build.rs`), so the
//! instrumented code calls the `__wrap_` functions of `src/hooks.c` instead.
//! The narrow ones and the indirect-call one do nothing, and the wide ones
//! drop operands that both fit in one byte (and, in a target of text input,
//! [`init_text`], operands neither of which could be a word of text),
//! unless [`init`] found value profile turned on in the process's
//! arguments, which reads every comparison and call. What they pass on, they pass to libFuzzer's own hook by
//! a jump (a tail call), so that libFuzzer still takes the instrumented
//! comparison's address for its caller.
//!
//! Most comparisons then reach no table at all, yet each still costs its
//! call. The fuzz build compiles the Rust parsers with gated comparison
//! tracing (`-sanitizer-coverage-gated-trace-callbacks`, `fuzz/Cargo.toml`),
//! which calls a hook only while a gate word (section `__sancov_gate`) is
//! not 0. [`init`] opens the gates when value profile is on or
//! [`TRACE_COMPARES_VAR`] is `1`, and leaves them closed otherwise: over
//! real URLs, 3 580 hook calls had passed libFuzzer one comparison, and
//! with the gates closed a campaign runs 13-15 % more executions in the same
//! time and reaches as many edges (BENCHMARKS.md, "twelfth round").
//!
//! The hooks are C, built without instrumentation whatever the build's flags
//! (`src/hooks.c` says why). They exist only in a fuzz build on Linux
//! (`cfg(fuzzing)`, which cargo-fuzz sets; `--wrap` is a GNU ld and lld
//! option).
//!
//! This crate, `curl-url` and `uriparser-ffi` are the crates of uridiff with
//! `unsafe` code; every block states the invariant it relies on in a
//! `SAFETY:` comment.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

use std::ffi::OsStr;

/// The environment variable that turns on the comparison tracing of the
/// gated code without value profile: `1` turns it on, anything else leaves
/// it off ([`trace_compares_requested`]).
pub const TRACE_COMPARES_VAR: &str = "SANCOV_WIDE_TRACE_COMPARES";

/// Reads the process's arguments and environment, and sets the hooks:
///
/// - value profile on ([`value_profile_requested`]): every comparison and
///   indirect call reaches libFuzzer, and the gated code traces its
///   comparisons;
/// - otherwise the gated code traces its comparisons only when
///   [`TRACE_COMPARES_VAR`] is `1`, and the hooks pass on only what
///   libFuzzer's tables of recent comparisons read.
///
/// A fuzz target calls it from its `init` (libfuzzer-sys's
/// `fuzz_target!(init: ...)`), which runs before the first input. Until then,
/// and in a target that never calls it, the gated code traces nothing and
/// the hooks pass on only what the other tables read.
pub fn init() {
    #[cfg(all(fuzzing, target_os = "linux"))]
    {
        let value_profile = value_profile_requested(std::env::args_os().skip(1));
        hooks::forward(value_profile);
        hooks::gate(
            value_profile || trace_compares_requested(std::env::var_os(TRACE_COMPARES_VAR)),
        );
    }
}

/// Does this value of [`TRACE_COMPARES_VAR`] ask for comparison tracing?
/// Only `1` does; unset, empty, `0` or any other text does not.
pub fn trace_compares_requested(value: Option<std::ffi::OsString>) -> bool {
    value.is_some_and(|v| v == "1")
}

/// [`init`] for a target that reads its input as UTF-8 text, whose hooks
/// (value profile off) also drop the four- and eight-byte comparisons in
/// which neither operand could be a word of text: every byte one that UTF-8
/// uses (RFC 3629 section 4), none of them NUL. The mutator uses a
/// comparison's words only where it finds one of them in the input
/// (`MakeDictionaryEntryFromCMP`), which in a text input a widened
/// character (U+0142 is `42 01 00 00` in memory, `C5 82` in the input), a
/// sentinel (`0x110000`, all ones) or a length never is. Over real URLs
/// this leaves one of the 288 wide comparisons per URL that [`init`]
/// passes on, a word of the input against `https://` (BENCHMARKS.md,
/// "twelfth round").
///
/// Not for a target whose input is bytes that `arbitrary` reads as
/// integers (lengths, choices), where an integer operand is a word of the
/// input.
pub fn init_text() {
    #[cfg(all(fuzzing, target_os = "linux"))]
    {
        hooks::text(true);
        init();
    }
}

/// Does this libFuzzer command line (the arguments after the program's name)
/// turn the value profile on? libFuzzer reads `-use_value_profile=N` as an
/// integer flag (`FuzzerFlags.def`; `FuzzerDriver.cpp`, `ParseOneFlag`), any
/// N but 0 turns it on, and the last one given wins. It ignores arguments
/// that start with `--`, and those after `-ignore_remaining_args=1`.
pub fn value_profile_requested<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut on = false;
    for arg in args {
        let Some(arg) = arg.as_ref().to_str() else {
            continue;
        };
        if let Some(value) = arg.strip_prefix("-use_value_profile=") {
            on = libfuzzer_int(value) != 0;
        } else if let Some(value) = arg.strip_prefix("-ignore_remaining_args=")
            && libfuzzer_int(value) != 0
        {
            break;
        }
    }
    on
}

/// An integer flag's value as libFuzzer reads it (`FuzzerDriver.cpp`:
/// `MyStol`, then `static_cast<int>`): an optional `-`, then digits up to the
/// first other character, whose value is returned without the sign when
/// there is one. Wraps where the C code would overflow.
fn libfuzzer_int(text: &str) -> i32 {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1i64, rest),
        None => (1, text),
    };
    let mut value = 0i64;
    for byte in digits.bytes() {
        if !byte.is_ascii_digit() {
            return value as i32;
        }
        value = value.wrapping_mul(10).wrapping_add(i64::from(byte - b'0'));
    }
    value.wrapping_mul(sign) as i32
}

/// The switches of the hooks in src/hooks.c: what [`init`] sets in a fuzz
/// build, and what `hook_tests` sets in this crate's tests.
#[cfg(all(any(fuzzing, test), target_os = "linux"))]
mod hooks {
    use std::ffi::c_int;

    unsafe extern "C" {
        fn sancov_wide_forward(on: c_int);
        fn sancov_wide_text(on: c_int);
        fn sancov_wide_gate(on: c_int);
    }

    pub(crate) fn gate(on: bool) {
        // SAFETY: sancov_wide_gate stores 0 or 1 with atomic stores into
        // the gates the instrumented code reads (the linker's bounds of
        // their section, `__sancov_gate`, null when there is none); no
        // precondition.
        unsafe { sancov_wide_gate(c_int::from(on)) }
    }

    pub(crate) fn forward(on: bool) {
        // SAFETY: sancov_wide_forward (src/hooks.c, compiled and linked by
        // build.rs in this build) stores the flag with an atomic store; it
        // has no precondition.
        unsafe { sancov_wide_forward(c_int::from(on)) }
    }

    pub(crate) fn text(on: bool) {
        // SAFETY: as for `forward`: sancov_wide_text stores a flag with an
        // atomic store, no precondition.
        unsafe { sancov_wide_text(c_int::from(on)) }
    }
}

/// The hooks of src/hooks.c called as instrumented code calls them, against
/// src/test_stubs.c's stand-ins for libFuzzer's hooks, which count what is
/// passed on (built into every build but a fuzz build, build.rs).
#[cfg(all(test, not(fuzzing), target_os = "linux"))]
mod hook_tests {
    use std::ffi::{c_int, c_ulong};

    use crate::hooks::{forward, gate, text};

    unsafe extern "C" {
        fn sancov_wide_test_passed_on(index: c_int) -> c_ulong;
        fn sancov_wide_test_gate() -> u64;
    }

    /// The stand-ins' indices (src/test_stubs.c).
    const CMP1: c_int = 0;
    const CONST_CMP2: c_int = 3;
    const CMP4: c_int = 4;
    const CONST_CMP4: c_int = 5;
    const CMP8: c_int = 6;
    const CONST_CMP8: c_int = 7;
    const PC_INDIR: c_int = 8;

    fn passed_on(index: c_int) -> c_ulong {
        // SAFETY: an atomic load of a counter, any index (out of range
        // reads 0; src/test_stubs.c).
        unsafe { sancov_wide_test_passed_on(index) }
    }

    /// The gated code's tracing is switched through every gate in the
    /// `__sancov_gate` section (src/test_stubs.c puts one there).
    #[test]
    fn the_gate_switches_comparison_tracing() {
        let switched = |on: bool| {
            gate(on);
            // SAFETY: an atomic load of the stand-in gate; no precondition.
            unsafe { sancov_wide_test_gate() }
        };
        assert_eq!(switched(true), 1);
        assert_eq!(switched(false), 0);
    }

    /// Calls `hook` and says whether it reached the stand-in at `index`.
    fn reaches(index: c_int, hook: impl FnOnce()) -> bool {
        let before = passed_on(index);
        hook();
        passed_on(index) > before
    }

    /// Each hook of src/hooks.c, declared, and called through a safe
    /// function of the same name without its prefix.
    macro_rules! hooks {
        ($($name:ident: $hook:ident($int:ty);)*) => {
            unsafe extern "C" {
                $(fn $hook(arg1: $int, arg2: $int);)*
            }
            $(fn $name(arg1: $int, arg2: $int) {
                // SAFETY: a hook only reads its two integer arguments
                // (src/hooks.c) and passes them on to a stand-in that
                // counts the call; no precondition.
                unsafe { $hook(arg1, arg2) }
            })*
        };
    }

    unsafe extern "C" {
        fn __wrap___sanitizer_cov_trace_pc_indir(callee: usize);
    }

    fn pc_indir(callee: usize) {
        // SAFETY: the hook only reads its integer argument (src/hooks.c)
        // and passes it on to a stand-in that counts the call.
        unsafe { __wrap___sanitizer_cov_trace_pc_indir(callee) }
    }

    hooks! {
        cmp1: __wrap___sanitizer_cov_trace_cmp1(u8);
        const_cmp2: __wrap___sanitizer_cov_trace_const_cmp2(u16);
        cmp4: __wrap___sanitizer_cov_trace_cmp4(u32);
        const_cmp4: __wrap___sanitizer_cov_trace_const_cmp4(u32);
        cmp8: __wrap___sanitizer_cov_trace_cmp8(u64);
        const_cmp8: __wrap___sanitizer_cov_trace_const_cmp8(u64);
    }

    /// Without value profile, libFuzzer is passed no one- or two-byte
    /// comparison, and a wider one only where an operand does not fit in
    /// one byte; with it, every comparison. One test, because the switch
    /// is the process's.
    #[test]
    fn libfuzzer_is_passed_only_the_comparisons_it_reads() {
        forward(false);
        text(false);
        assert!(!reaches(CMP1, || cmp1(b'/', b'a')));
        assert!(!reaches(PC_INDIR, || pc_indir(0x40_1000)));
        assert!(!reaches(CONST_CMP2, || const_cmp2(0x2f2f, 0x100)));
        // A character against an ASCII constant; an index against 255.
        assert!(!reaches(CONST_CMP4, || const_cmp4(
            u32::from('/'),
            u32::from('h')
        )));
        assert!(!reaches(CMP8, || cmp8(7, 255)));
        // Four bytes of the input against `http`; a port against 65535; a
        // character of more than one byte (U+0142); a negative number.
        assert!(reaches(CMP4, || cmp4(0x7074_7468, 0x7074_7448)));
        assert!(reaches(CONST_CMP8, || const_cmp8(8080, 65535)));
        assert!(reaches(CONST_CMP4, || const_cmp4(
            u32::from('ł'),
            u32::from('a')
        )));
        assert!(reaches(CMP8, || cmp8(u64::MAX, 0)));
        forward(true);
        assert!(reaches(CMP1, || cmp1(b'/', b'a')));
        assert!(reaches(PC_INDIR, || pc_indir(0x40_1000)));
        assert!(reaches(CONST_CMP2, || const_cmp2(1, 2)));
        assert!(reaches(CONST_CMP4, || const_cmp4(
            u32::from('/'),
            u32::from('h')
        )));
        assert!(reaches(CMP8, || cmp8(7, 255)));
        forward(false);
        assert!(!reaches(CMP8, || cmp8(7, 255)));

        // A text target: a wide comparison reaches libFuzzer only when an
        // operand could be four or eight bytes of UTF-8 text.
        text(true);
        assert!(reaches(CMP4, || cmp4(0x7074_7468, 0x7074_7448)));
        assert!(reaches(CONST_CMP8, || const_cmp8(
            u64::from_le_bytes(*b"https://"),
            0x2f2f_3a70_7474_6800
        )));
        // `ł` and ô (C3 B4 in the input) as characters; the "no character"
        // sentinel against `/`; the range test of `char::from_u32`; a
        // port against 65535; all ones against a small index.
        assert!(!reaches(CONST_CMP4, || const_cmp4(
            u32::from('ł'),
            u32::from('ô')
        )));
        assert!(!reaches(CONST_CMP4, || const_cmp4(0x11_0000, 0x2f)));
        assert!(!reaches(CONST_CMP4, || const_cmp4(
            0xffef_0800,
            0xffef_d82f
        )));
        assert!(!reaches(CONST_CMP8, || const_cmp8(8080, 65535)));
        assert!(!reaches(CMP8, || cmp8(u64::MAX, 5)));
        // Bytes UTF-8 never uses (0xC0, 0xF5) make no text word; C3 B4 is
        // one, and so is a word of the input with non-ASCII characters.
        assert!(!reaches(CMP4, || cmp4(0x6161_61c0, 0x6262_62f5)));
        assert!(reaches(CMP4, || cmp4(
            u32::from_le_bytes(*b"a\xc3\xb4b"),
            0xffff_ffff
        )));
        // Value profile still reads every comparison.
        forward(true);
        assert!(reaches(CONST_CMP4, || const_cmp4(0x11_0000, 0x2f)));
        assert!(reaches(CMP1, || cmp1(b'/', b'a')));
        forward(false);
        text(false);
        assert!(reaches(CONST_CMP4, || const_cmp4(
            u32::from('ł'),
            u32::from('a')
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_tracing_is_asked_for_by_1_only() {
        use std::ffi::OsString;
        assert!(trace_compares_requested(Some(OsString::from("1"))));
        assert!(!trace_compares_requested(None));
        for value in ["", "0", "yes", "true", " 1", "1 "] {
            assert!(
                !trace_compares_requested(Some(OsString::from(value))),
                "{value:?}"
            );
        }
    }

    #[test]
    fn value_profile_is_off_unless_asked_for() {
        assert!(!value_profile_requested(["corpus", "-dict=fuzz/uri.dict"]));
        assert!(!value_profile_requested(Vec::<&str>::new()));
        assert!(value_profile_requested(["-use_value_profile=1", "corpus"]));
        assert!(value_profile_requested(["-use_value_profile=2"]));
    }

    #[test]
    fn the_last_flag_wins_as_in_libfuzzer() {
        assert!(!value_profile_requested([
            "-use_value_profile=1",
            "-use_value_profile=0"
        ]));
        assert!(value_profile_requested([
            "-use_value_profile=0",
            "-use_value_profile=1"
        ]));
    }

    #[test]
    fn values_read_as_libfuzzer_reads_them() {
        assert!(!value_profile_requested(["-use_value_profile="]));
        assert!(!value_profile_requested(["-use_value_profile=no"]));
        assert!(!value_profile_requested(["-use_value_profile=+1"]));
        assert!(value_profile_requested(["-use_value_profile=1x"]));
        assert!(value_profile_requested(["-use_value_profile=-1"]));
        // 2^32 is 0 once cast to C's int.
        assert!(!value_profile_requested(["-use_value_profile=4294967296"]));
        // Another flag that merely starts alike is not this one, and
        // libFuzzer ignores flags that start with `--`.
        assert!(!value_profile_requested(["-use_value_profile_x=1"]));
        assert!(!value_profile_requested(["--use_value_profile=1"]));
    }

    #[test]
    fn arguments_libfuzzer_is_told_to_ignore_are_not_read() {
        assert!(!value_profile_requested([
            "-ignore_remaining_args=1",
            "-use_value_profile=1"
        ]));
        assert!(value_profile_requested([
            "-ignore_remaining_args=0",
            "-use_value_profile=1"
        ]));
    }

    #[test]
    fn integer_flags_read_as_my_stol_reads_them() {
        assert_eq!(libfuzzer_int("42"), 42);
        assert_eq!(libfuzzer_int("-7"), -7);
        // MyStol returns at the first non-digit, before it applies the sign.
        assert_eq!(libfuzzer_int("-7x"), 7);
        assert_eq!(libfuzzer_int("+3"), 0);
        assert_eq!(libfuzzer_int(""), 0);
        assert_eq!(libfuzzer_int("-"), 0);
        assert_eq!(libfuzzer_int("4294967297"), 1);
    }
}
