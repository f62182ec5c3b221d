//! `reproduce --check`: build and run an emitted Rust test against the pinned
//! crate.

use super::*;

/// Why [`check_rust`] could not tell.
#[derive(Debug)]
pub enum CheckError {
    /// Not a Rust test, or one with no dependency line.
    NotRust,
    /// The project could not be written or cargo not run.
    Io(std::io::Error),
    /// The test did not build: the compiler's message.
    Build(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::NotRust => f.write_str("only Rust tests are checked"),
            CheckError::Io(e) => write!(f, "cannot run the test: {e}"),
            CheckError::Build(message) => write!(f, "the test does not build:\n{message}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Where checked tests are built: one target directory shared by every
/// check, so the pinned crates build once (`<cache root>/reproduce-target`).
pub fn check_target_dir() -> Option<PathBuf> {
    crate::oracle::external::cache_root().map(|root| root.join("reproduce-target"))
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
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let run = |extra: &[&str]| {
        Command::new(&cargo)
            .args(["test", "--offline", "--quiet", "--lib"])
            .args(extra)
            .current_dir(dir.path())
            .env("CARGO_TARGET_DIR", target_dir)
            .output()
            .map_err(CheckError::Io)
    };
    // Built first and apart, so that a test that does not compile is an
    // error and never reads as "fixed".
    let build = run(&["--no-run"])?;
    if !build.status.success() {
        return Err(CheckError::Build(
            String::from_utf8_lossy(&build.stderr).into_owned(),
        ));
    }
    let ran = run(&[])?;
    Ok(!ran.status.success())
}
