//! `reproduce --check`: build and run an emitted Rust test against the pinned
//! crate, and an emitted C test against the very libcurl uridiff runs (the
//! vendored, static one of the pinned curl-sys).

use super::*;

/// Why [`check_rust`] or [`check`] could not tell.
#[derive(Debug)]
pub enum CheckError {
    /// Not a Rust test, or one with no dependency line (or, for
    /// [`check`], a language it does not run).
    NotRust,
    /// The project could not be written or cargo not run.
    Io(std::io::Error),
    /// The test did not build: the compiler's message.
    Build(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::NotRust => f.write_str("only Rust and C tests are checked"),
            CheckError::Io(e) => write!(f, "cannot run the test: {e}"),
            CheckError::Build(message) => write!(f, "the test does not build:\n{message}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Where checked tests are built: one target directory shared by every
/// check, so the pinned crates build once (`<cache root>/reproduce-target`),
/// created here, so that a cache root that cannot hold it is said as such
/// (not a directory, read-only, full) before any build.
pub fn check_target_dir() -> Result<PathBuf, crate::oracle::external::CacheRootError> {
    crate::oracle::external::cache::locate()?.create(Path::new("reproduce-target"))
}

/// Builds and runs a Rust test in a temporary cargo project whose
/// `[dependencies]` are the ones its header pins, offline (the pinned
/// crates are those uridiff builds with, so they are in cargo's cache).
/// `Ok(true)` when the test fails: the defect is still there.
pub fn check_rust(test: &Test, target_dir: &Path) -> Result<bool, CheckError> {
    if test.language != "rust" {
        return Err(CheckError::NotRust);
    }
    // The header's pin lines: every `// name = "=version"` before the test.
    let pins: Vec<&str> = test
        .code
        .lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// "))
        .filter(|l| l.contains(" = \"="))
        .collect();
    if pins.is_empty() {
        return Err(CheckError::NotRust);
    }
    let dir = tempfile::Builder::new()
        .prefix("uridiff-reproduce-")
        .tempdir()
        .map_err(CheckError::Io)?;
    let manifest = format!(
        "[package]\nname = \"uridiff-reproduce\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n{}\n\n[workspace]\n",
        pins.join("\n")
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).map_err(CheckError::Io)?;
    std::fs::create_dir_all(dir.path().join("src")).map_err(CheckError::Io)?;
    let lib = format!("#![cfg(test)]\n{}", test.code);
    std::fs::write(dir.path().join("src").join("lib.rs"), lib).map_err(CheckError::Io)?;
    run_checked(dir.path(), target_dir)
}

/// The pinned curl-sys (the registry's libcurl row; crates/curl-url builds
/// it the same way: vendored sources, static, no TLS).
const CURL_SYS: &str =
    "curl-sys = { version = \"=0.4.91\", default-features = false, features = [\"static-curl\"] }";

/// The build script of a C check: compiles `repro.c` into a program,
/// linked with the static libcurl curl-sys built (its `links = "curl"`
/// metadata: `DEP_CURL_INCLUDE`, `DEP_CURL_ROOT`) and the system zlib it
/// needs, and hands the program's path to the test.
const C_BUILD_RS: &str = r#"use std::env;
use std::path::PathBuf;

fn main() {
    let include = env::var("DEP_CURL_INCLUDE").expect("curl-sys's include directory");
    let root = PathBuf::from(env::var("DEP_CURL_ROOT").expect("curl-sys's output directory"));
    let program = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("repro");
    let status = cc::Build::new()
        .get_compiler()
        .to_command()
        .arg("repro.c")
        .arg("-I")
        .arg(&include)
        .arg(root.join("build").join("libcurl.a"))
        .args(["-lz", "-lpthread", "-o"])
        .arg(&program)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "repro.c does not compile against libcurl");
    println!("cargo:rustc-env=REPRO_PROGRAM={}", program.display());
    println!("cargo:rerun-if-changed=repro.c");
}
"#;

/// The test of a C check: the program exits 0 once the defect is gone.
const C_TEST_RS: &str = r#"#![cfg(test)]
#[test]
fn c_reproduction() {
    let status = std::process::Command::new(env!("REPRO_PROGRAM"))
        .status()
        .expect("the reproduction runs");
    assert!(status.success(), "exit {status}: the defect holds");
}
"#;

/// Builds and runs a C test (a program that exits non-zero while the
/// defect holds) against the libcurl of the pinned curl-sys, in a
/// temporary cargo project, offline. `Ok(true)` when it still fails.
pub fn check_c(test: &Test, target_dir: &Path) -> Result<bool, CheckError> {
    if test.language != "c" {
        return Err(CheckError::NotRust);
    }
    let dir = tempfile::Builder::new()
        .prefix("uridiff-reproduce-c-")
        .tempdir()
        .map_err(CheckError::Io)?;
    let manifest = format!(
        "[package]\nname = \"uridiff-reproduce-c\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n{CURL_SYS}\n\n[build-dependencies]\ncc = \"1\"\n\n[workspace]\n"
    );
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).map_err(CheckError::Io)
    };
    write("Cargo.toml", &manifest)?;
    write("build.rs", C_BUILD_RS)?;
    write("repro.c", &test.code)?;
    std::fs::create_dir_all(dir.path().join("src")).map_err(CheckError::Io)?;
    write("src/lib.rs", C_TEST_RS)?;
    run_checked(dir.path(), target_dir)
}

/// Builds (`--no-run`: a build failure is an error, never "fixed"), then
/// runs the project's tests; `Ok(true)` when they fail.
fn run_checked(project: &Path, target_dir: &Path) -> Result<bool, CheckError> {
    run_checked_with(project, target_dir, &[])
}

/// [`run_checked`], with environment variables for the build script.
fn run_checked_with(
    project: &Path,
    target_dir: &Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> Result<bool, CheckError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // In a process group uridiff ends on a signal, with the project: cargo,
    // rustc, cc and the test never outlive it, and no project is left.
    let run = |extra: &[&str]| {
        let mut command = Command::new(&cargo);
        command
            .args(["test", "--offline", "--quiet", "--lib"])
            .args(extra)
            .current_dir(project)
            .env("CARGO_TARGET_DIR", target_dir)
            .envs(env.iter().copied());
        crate::oracle::external::process::run_to_end(command, Some(project)).map_err(CheckError::Io)
    };
    let build = run(&["--no-run"])?;
    if !build.status.success() {
        // A target directory that cannot be written (a full or read-only
        // disk) fails the build too: said as what it is.
        if let Err(e) = crate::oracle::external::cache::probe_writable(target_dir) {
            return Err(CheckError::Io(std::io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", target_dir.display()),
            )));
        }
        return Err(CheckError::Build(
            String::from_utf8_lossy(&build.stderr).into_owned(),
        ));
    }
    let ran = run(&[])?;
    Ok(!ran.status.success())
}

/// [`check_rust`], [`check_c`], [`check_ada_c`] or [`check_uriparser_c`], by
/// the test's language
/// (and, for C, the library it includes).
pub fn check(test: &Test, target_dir: &Path) -> Result<bool, CheckError> {
    match test.language {
        "rust" => check_rust(test, target_dir),
        "c" if test.code.contains("#include \"ada_c.h\"") => check_ada_c(test, target_dir),
        "c" if test.code.contains("#include <uriparser/Uri.h>") => {
            check_uriparser_c(test, target_dir)
        }
        "c" => check_c(test, target_dir),
        _ => Err(CheckError::NotRust),
    }
}

/// The pinned Ada release's sources (`ada.cpp`, `ada.h`, `ada_c.h`), as
/// the ada-url crate ships them in cargo's registry (uridiff's build put
/// them there).
fn ada_sources() -> Option<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let registry = std::fs::read_dir(cargo_home.join("registry").join("src")).ok()?;
    registry
        .filter_map(Result::ok)
        .map(|index| index.path().join("ada-url-4.0.0").join("deps"))
        .find(|deps| deps.join("ada.cpp").is_file() && deps.join("ada_c.h").is_file())
}

/// The build script of an Ada C check: compiles the release's `ada.cpp`
/// once (kept beside the shared target directory), then the program.
const ADA_BUILD_RS: &str = r#"use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let deps = PathBuf::from(env::var("ADA_SOURCES").expect("ADA_SOURCES"));
    let object = PathBuf::from(env::var("ADA_OBJECT").expect("ADA_OBJECT"));
    let program = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("repro");
    println!("cargo:rerun-if-env-changed=ADA_SOURCES");
    println!("cargo:rerun-if-changed=repro.c");
    if !object.is_file() {
        let status = Command::new("c++")
            .args(["-std=c++20", "-O2", "-c"])
            .arg(deps.join("ada.cpp"))
            .arg("-I")
            .arg(&deps)
            .arg("-o")
            .arg(&object)
            .status()
            .expect("c++ runs");
        assert!(status.success(), "ada.cpp does not compile");
    }
    let status = Command::new("c++")
        .args(["-x", "c", "repro.c", "-x", "none"])
        .arg("-I")
        .arg(&deps)
        .arg(&object)
        .args(["-lstdc++", "-o"])
        .arg(&program)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "repro.c does not compile against ada_c.h");
    println!("cargo:rustc-env=REPRO_PROGRAM={}", program.display());
}
"#;

/// Builds and runs a C test of Ada's C API against the pinned release's
/// sources, in a temporary cargo project, offline. `Ok(true)` when it
/// still fails.
pub fn check_ada_c(test: &Test, target_dir: &Path) -> Result<bool, CheckError> {
    let sources = ada_sources().ok_or_else(|| {
        CheckError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "the ada-url 4.0.0 sources are not in cargo's registry (build uridiff first)",
        ))
    })?;
    std::fs::create_dir_all(target_dir).map_err(CheckError::Io)?;
    let object = target_dir.join("ada-url-4.0.0.o");
    let dir = c_test_project("ada", ADA_BUILD_RS, &test.code)?;
    run_checked_with(
        dir.path(),
        target_dir,
        &[
            ("ADA_SOURCES", sources.as_os_str()),
            ("ADA_OBJECT", object.as_os_str()),
        ],
    )
}

/// The build script of a uriparser C check: compiles `repro.c` against the
/// system's uriparser, the library uridiff's `uriparser` oracle links
/// (`pkg-config --cflags --libs liburiparser`).
const URIPARSER_BUILD_RS: &str = r#"use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let program = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("repro");
    println!("cargo:rerun-if-changed=repro.c");
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "liburiparser"])
        .output()
        .expect("pkg-config runs");
    assert!(flags.status.success(), "pkg-config finds no liburiparser");
    let flags = String::from_utf8(flags.stdout).expect("pkg-config's flags");
    let status = Command::new("cc")
        .arg("repro.c")
        .args(flags.split_whitespace())
        .arg("-o")
        .arg(&program)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "repro.c does not compile against uriparser");
    println!("cargo:rustc-env=REPRO_PROGRAM={}", program.display());
}
"#;

/// A temporary cargo project `uridiff-reproduce-NAME` that compiles the C
/// test `code` with `build_rs` and runs it from `src/lib.rs` (C_TEST_RS).
fn c_test_project(name: &str, build_rs: &str, code: &str) -> Result<tempfile::TempDir, CheckError> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("uridiff-reproduce-{name}-"))
        .tempdir()
        .map_err(CheckError::Io)?;
    let write = |file: &str, text: &str| {
        std::fs::write(dir.path().join(file), text).map_err(CheckError::Io)
    };
    write(
        "Cargo.toml",
        &format!(
            "[package]\nname = \"uridiff-reproduce-{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n"
        ),
    )?;
    write("build.rs", build_rs)?;
    write("repro.c", code)?;
    std::fs::create_dir_all(dir.path().join("src")).map_err(CheckError::Io)?;
    write("src/lib.rs", C_TEST_RS)?;
    Ok(dir)
}

/// Builds and runs a C test of uriparser's API against the system's
/// library (the one the `uriparser` oracle links), in a temporary cargo
/// project, offline. `Ok(true)` when it still fails.
pub fn check_uriparser_c(test: &Test, target_dir: &Path) -> Result<bool, CheckError> {
    let dir = c_test_project("uriparser", URIPARSER_BUILD_RS, &test.code)?;
    run_checked(dir.path(), target_dir)
}
