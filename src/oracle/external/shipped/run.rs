//! How a shipped adapter runs: what it needs and does not find, its
//! templates filled in, its files written to a temporary directory, its
//! program built once into the cache, and its command started.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::super::cache::{self, CacheRootError, Root};
use super::super::process;
use super::{Build, Missing, SETUP, Shipped};

/// What a template needs filled in.
struct Fill<'a> {
    dir: &'a str,
    cache: Option<&'a str>,
    hash: &'a str,
    output: &'a str,
}

impl Fill<'_> {
    /// The value of placeholder `name`: `None` for a name that is no
    /// placeholder, `Some(None)` for `{cache}` without a cache root.
    fn value(&self, name: &str) -> Option<Option<&str>> {
        match name {
            "dir" => Some(Some(self.dir)),
            "cache" => Some(self.cache),
            "hash" => Some(Some(self.hash)),
            "output" => Some(Some(self.output)),
            _ => None,
        }
    }

    /// The template with its placeholders replaced, in one pass over the
    /// template: a value is never scanned again, so a cache root or a
    /// temporary directory whose path holds `{hash}` stays as it is. `None`
    /// when it needs a cache root and there is none.
    fn apply(&self, template: &str) -> Option<String> {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let (before, from) = rest.split_at(open);
            out.push_str(before);
            let placeholder = from.find('}').and_then(|close| {
                let value = self.value(from.get(1..close)?)?;
                Some((value, close))
            });
            match placeholder {
                Some((Some(value), close)) => {
                    out.push_str(value);
                    rest = from.get(close.saturating_add(1)..).unwrap_or_default();
                }
                Some((None, _)) => return None,
                None => {
                    out.push('{');
                    rest = from.get(1..).unwrap_or_default();
                }
            }
        }
        out.push_str(rest);
        Some(out)
    }
}

impl Shipped {
    fn fill<'a>(&self, dir: &'a str, cache: Option<&'a str>, hash: &'a str) -> Fill<'a> {
        Fill {
            dir,
            cache,
            hash,
            output: "",
        }
    }

    /// The command as shown in messages: the sources by their file names.
    pub(crate) fn display(&self) -> String {
        let shown: Vec<String> = self
            .command
            .iter()
            .map(|arg| {
                arg.replace("{dir}/", "")
                    .replace("{cache}", "$URIDIFF_CACHE")
            })
            .collect();
        shown.join(" ")
    }

    /// What it needs and does not find, checked in order: the cache root,
    /// the runtimes (or, for a built adapter, its build tool: the cache
    /// keeps a program per toolchain, which the tool names), the files of
    /// Debian packages, the libraries.
    pub(super) fn missing(&self, cache: Result<&Root, &CacheRootError>) -> Option<Missing> {
        let cache_text = cache.ok().map(Root::text);
        let fill = self.fill("", cache_text, "");
        let uses_cache = self
            .env
            .iter()
            .map(|(_, v)| *v)
            .chain(self.libraries.iter().map(|(_, p)| *p))
            .chain(self.build.iter().map(|b| b.output))
            .any(|t| t.contains("{cache}"));
        if uses_cache && let Err(e) = cache {
            // No install command mends a bad root: the message says what
            // is wrong with it.
            return Some(Missing {
                what: e.to_string(),
                install: "",
            });
        }
        for runtime in self.runtimes {
            if !on_path(runtime) {
                return Some(Missing {
                    what: format!("{runtime} not found on PATH"),
                    install: self.install,
                });
            }
        }
        if let Some((what, probe)) = self.probe
            && !self.loads(probe)
        {
            return Some(Missing {
                what: format!("{what} cannot be loaded (`{}` fails)", probe.join(" ")),
                install: self.install,
            });
        }
        if let Some(build) = &self.build {
            let tool = build.command.first().copied().unwrap_or_default();
            if !on_path(tool) {
                return Some(Missing {
                    what: format!("{tool} not found on PATH (it builds {})", self.name),
                    install: self.install,
                });
            }
        }
        for (package, path) in self
            .debian
            .iter()
            .filter_map(|d| Some((d.package, d.file?)))
        {
            match Path::new(path).try_exists() {
                Ok(true) => {}
                Ok(false) => {
                    return Some(Missing {
                        what: format!("{package} not installed ({path} not found)"),
                        install: self.install,
                    });
                }
                Err(e) => {
                    return Some(Missing {
                        what: format!("{package}: {path} cannot be read: {e}"),
                        install: "",
                    });
                }
            }
        }
        for (what, path) in self.libraries {
            let Some(path) = fill.apply(path) else {
                continue;
            };
            match Path::new(&path).try_exists() {
                Ok(true) => {}
                Ok(false) => {
                    return Some(Missing {
                        what: format!(
                            "{what} not installed in {}",
                            cache_text.unwrap_or("the cache directory")
                        ),
                        install: SETUP,
                    });
                }
                // Not "not installed": something is there that this
                // process may not read.
                Err(e) => {
                    return Some(Missing {
                        what: format!("{what}: {path} cannot be read: {e}"),
                        install: "",
                    });
                }
            }
        }
        None
    }

    /// Does `probe` exit 0, run as the adapter runs (the row's `unset`
    /// removed), with nothing to read and its output dropped?
    fn loads(&self, probe: &[&str]) -> bool {
        let Some((program, args)) = probe.split_first() else {
            return true;
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        for key in self.unset {
            command.env_remove(key);
        }
        command.status().is_ok_and(|s| s.success())
    }

    /// Prepares it and starts it with `spawn`. A kept program the system
    /// cannot run (ENOEXEC: built for another machine, or cut short) is
    /// removed and built again, once, instead of failing every later run.
    pub(crate) fn start<T>(
        &self,
        mut spawn: impl FnMut(Command, tempfile::TempDir) -> io::Result<T>,
    ) -> Result<T, Prepare> {
        let (command, dir, built) = self.prepare()?;
        let program = built.as_deref().unwrap_or(Path::new(""));
        match spawn(command, dir) {
            Err(e) if built.is_some() && cannot_run(&e, program) => {
                std::fs::remove_file(program).map_err(|e| Prepare::Io("removing it", e))?;
                let (command, dir, _) = self.prepare()?;
                spawn(command, dir).map_err(|e| Prepare::Io("starting it", e))
            }
            started => started.map_err(|e| Prepare::Io("starting it", e)),
        }
    }

    /// Everything to start it: the files written to a new temporary
    /// directory, the program built if it has to be, and the command;
    /// with the built program's path, for a built adapter.
    fn prepare(&self) -> Result<(Command, tempfile::TempDir, Option<PathBuf>), Prepare> {
        let cache = cache::locate();
        if let Some(missing) = self.missing(cache.as_ref()) {
            return Err(Prepare::Missing(missing.to_string()));
        }
        let root = cache.ok();
        let cache_text = root.as_ref().map(Root::text);
        let dir = tempfile::Builder::new()
            .prefix("uridiff-adapter-")
            .tempdir()
            .map_err(|e| Prepare::Io("creating a temporary directory", e))?;
        for (name, text) in self.files {
            std::fs::write(dir.path().join(name), text)
                .map_err(|e| Prepare::Io("writing the adapter", e))?;
        }
        let Some(dir_text) = dir.path().to_str() else {
            return Err(Prepare::Io(
                "writing the adapter",
                io::Error::other("the temporary path is not UTF-8"),
            ));
        };
        let (hash, built) = match (&self.build, &root) {
            (Some(build), Some(root)) => {
                let hash = self.key(build, dir_text)?;
                let fill = self.fill(dir_text, cache_text, &hash);
                let built = self.build_once(build, &fill, root)?;
                (hash, Some(built))
            }
            (Some(_), None) => return Err(Prepare::Missing("no cache root".to_owned())),
            (None, _) => (String::new(), None),
        };
        let fill = self.fill(dir_text, cache_text, &hash);
        let argv: Option<Vec<String>> = self.command.iter().map(|a| fill.apply(a)).collect();
        let Some((program, args)) = argv.as_deref().and_then(<[String]>::split_first) else {
            return Err(Prepare::Missing("its command is empty".to_owned()));
        };
        let mut command = Command::new(program);
        command.args(args);
        for key in self.unset {
            command.env_remove(key);
        }
        for (key, value) in self.env {
            if let Some(value) = fill.apply(value) {
                command.env(key, value);
            }
        }
        Ok((command, dir, built.map(PathBuf::from)))
    }

    /// `command` (templates filled with `fill`), to run in the build's
    /// environment in the temporary directory.
    fn build_command(
        build: &Build,
        command: &[&str],
        fill: &Fill<'_>,
    ) -> Result<(Command, String), Prepare> {
        let argv: Option<Vec<String>> = command.iter().map(|a| fill.apply(a)).collect();
        let Some((program, args)) = argv.as_deref().and_then(<[String]>::split_first) else {
            return Err(Prepare::Missing("its build command is empty".to_owned()));
        };
        let mut run = Command::new(program);
        run.args(args).current_dir(fill.dir).env_clear();
        for key in build.keep {
            if let Some(value) = std::env::var_os(key) {
                run.env(key, value);
            }
        }
        for (key, value) in build.set {
            run.env(key, value);
        }
        if let Some((variable, defaults)) = build.scratch_cache
            && defaults.iter().all(|d| std::env::var_os(d).is_none())
        {
            run.env(variable, Path::new(fill.dir).join("scratch-cache"));
        }
        let shown = argv.as_deref().unwrap_or_default().join(" ");
        Ok((run, shown))
    }

    /// The cache key of a built program (`{hash}`): the first 16 hex
    /// digits of the SHA-256 of its first file followed by what the
    /// toolchain says of itself (for Go, `go env GOVERSION GOOS GOARCH`
    /// in the build's environment): another source or another toolchain
    /// gets a program of its own.
    fn key(&self, build: &Build, dir: &str) -> Result<String, Prepare> {
        let fill = self.fill(dir, None, "");
        let (query, shown) = Self::build_command(build, build.toolchain, &fill)?;
        let said = process::run_to_end(query, Some(Path::new(dir)))
            .map_err(|e| Prepare::Io("asking its toolchain what it is", e))?;
        if !said.status.success() {
            return Err(Prepare::Io(
                "asking its toolchain what it is",
                io::Error::other(format!(
                    "{shown} ({}): {}",
                    said.status,
                    String::from_utf8_lossy(&said.stderr).trim_end()
                )),
            ));
        }
        let source = self.files.first().map_or("", |(_, text)| text);
        Ok(key(source.as_bytes(), &said.stdout))
    }

    /// Builds the program unless the cache has it, and returns its path.
    /// The build writes into the temporary directory; the program is
    /// copied beside its place in the cache and renamed into place, so
    /// that two uridiff runs building at once never run a half-written
    /// program.
    fn build_once(&self, build: &Build, fill: &Fill<'_>, root: &Root) -> Result<String, Prepare> {
        let Some(output) = fill.apply(build.output) else {
            return Err(Prepare::Missing("no cache root".to_owned()));
        };
        if is_executable(Path::new(&output)) {
            return Ok(output);
        }
        let written = Path::new(fill.dir).join("program");
        let Some(written_text) = written.to_str() else {
            return Err(Prepare::Missing("its build path is not UTF-8".to_owned()));
        };
        let with_output = Fill {
            output: written_text,
            ..*fill
        };
        let (command, shown) = Self::build_command(build, build.command, &with_output)?;
        let parent = Path::new(&output).parent().unwrap_or(root.path());
        root.create(parent).map_err(Prepare::Cache)?;
        // In a process group uridiff ends on a signal, with the adapter's
        // directory: the compiler never outlives it.
        let built = process::run_to_end(command, Some(Path::new(fill.dir)))
            .map_err(|e| Prepare::Io("running its build", e))?;
        if !built.status.success() {
            return Err(Prepare::Io(
                "building it",
                io::Error::other(format!(
                    "{shown} ({}): {}",
                    built.status,
                    String::from_utf8_lossy(&built.stderr).trim_end()
                )),
            ));
        }
        let partial = format!("{output}.partial-{}", std::process::id());
        let kept =
            std::fs::copy(&written, &partial).and_then(|_| std::fs::rename(&partial, &output));
        if let Err(e) = kept {
            let _ = std::fs::remove_file(&partial);
            return Err(Prepare::Cache(root.unwritable(Path::new(&output), e)));
        }
        Ok(output)
    }
}

/// The first 16 hex digits of the SHA-256 of `source` followed by
/// `toolchain` (see [`Shipped::key`]).
fn key(source: &[u8], toolchain: &[u8]) -> String {
    let mut digest = Sha256::new();
    digest.update(source);
    digest.update(toolchain);
    digest
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether starting `program` failed because the system cannot run that
/// file: not an executable for this machine (ENOEXEC), or one whose
/// interpreter or loader is missing (ENOENT for a file that is there).
fn cannot_run(error: &io::Error, program: &Path) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::NOEXEC.raw_os_error())
        || (error.kind() == io::ErrorKind::NotFound && program.is_file())
}

/// Why a shipped adapter could not be prepared.
#[derive(Debug)]
pub(crate) enum Prepare {
    /// Something it needs is missing: what, and how to install it.
    Missing(String),
    /// An I/O error: what was being done.
    Io(&'static str, io::Error),
    /// The cache root is unusable (it says how).
    Cache(CacheRootError),
}

/// Is `program` an executable file in a directory of `PATH` (or, with a
/// `/`, that file)?
fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return is_executable(Path::new(program));
    }
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| is_executable(&dir.join(program)))
    })
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::super::{SHIPPED, find, shipped_names, shipped_status};
    use super::*;

    #[test]
    fn names_come_from_the_table() {
        let names = shipped_names();
        let unique: std::collections::BTreeSet<_> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "a name twice: {names:?}");
        assert!(names.iter().all(|n| find(n).is_some()));
        assert!(
            SHIPPED
                .iter()
                .all(|s| !s.files.is_empty() && !s.command.is_empty())
        );
        assert!(find("no-such").is_none());
        let status = shipped_status();
        assert_eq!(status.len(), SHIPPED.len());
        assert!(status.iter().all(|s| s.name.len() <= 30));
    }

    #[test]
    fn commands_show_their_sources_by_name() {
        assert_eq!(
            find("python-urllib").unwrap().display(),
            "python3 -I python-urllib.py"
        );
    }

    /// The variables a row unsets are removed from the command it runs
    /// (whatever the caller's environment holds), and those it sets are
    /// set; Perl's and Ruby's code-loading variables are among the unset.
    #[test]
    fn a_rows_unset_variables_never_reach_it() {
        let row = Shipped::new("unsets", &[("a.txt", "")], &[], &["sh", "{dir}/a.txt"], "")
            .env(&[("X_SET", "1")])
            .unset(&["X_GONE", "PERL5OPT"]);
        let (command, _dir, built) = row.prepare().unwrap();
        assert!(built.is_none());
        let envs: Vec<_> = command.get_envs().collect();
        for gone in ["X_GONE", "PERL5OPT"] {
            assert!(
                envs.contains(&(std::ffi::OsStr::new(gone), None)),
                "{gone}: {envs:?}"
            );
        }
        assert!(envs.contains(&(
            std::ffi::OsStr::new("X_SET"),
            Some(std::ffi::OsStr::new("1"))
        )));
        for (name, variables) in [
            (
                "perl-uri",
                &["PERL5LIB", "PERLLIB", "PERL5OPT", "PERL_USE_UNSAFE_INC"][..],
            ),
            (
                "ruby-addressable",
                &["RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH"][..],
            ),
        ] {
            let unset = find(name).map(|r| r.unset).unwrap_or_default();
            for v in variables {
                assert!(unset.contains(v), "{name} keeps {v}");
            }
        }
    }

    /// A system library is checked by its probe, run without the row's
    /// unset variables: one that fails is missing, with the row's install
    /// command.
    #[test]
    fn a_probe_that_fails_makes_the_adapter_missing() {
        let cache = tempfile::tempdir().unwrap();
        let root = Root::at(cache.path());
        assert!(
            std::env::var_os("HOME").is_some(),
            "HOME is set under cargo"
        );
        let row = Shipped::new(
            "probed",
            &[("a.txt", "")],
            &["sh"],
            &["sh", "{dir}/a.txt"],
            "apt-get install a-library",
        )
        .unset(&["HOME"])
        // Passes only when HOME is not passed on.
        .probe("a library", &["sh", "-c", "test -z \"${HOME+set}\""]);
        assert_eq!(row.missing(Ok(&root)), None);
        let failing = row.probe("a library", &["sh", "-c", "exit 1"]);
        let missing = failing.missing(Ok(&root)).unwrap();
        assert_eq!(
            missing.to_string(),
            "a library cannot be loaded (`sh -c exit 1` fails); install it: apt-get install a-library"
        );
    }

    #[test]
    fn templates_fill_and_need_a_cache_when_they_name_it() {
        let fill = Fill {
            dir: "/t",
            cache: None,
            hash: "0123456789abcdef",
            output: "/o",
        };
        assert_eq!(fill.apply("{dir}/a.py").as_deref(), Some("/t/a.py"));
        assert_eq!(fill.apply("{cache}/python"), None);
        let fill = Fill {
            cache: Some("/c"),
            ..fill
        };
        assert_eq!(
            fill.apply("{cache}/go/x-{hash}").as_deref(),
            Some("/c/go/x-0123456789abcdef")
        );
        assert_eq!(fill.apply("-o {output}").as_deref(), Some("-o /o"));
        // Unknown names and lone braces stay as written.
        assert_eq!(
            fill.apply("{x}{dir}{").as_deref(),
            Some("{x}/t{"),
            "braces that are no placeholder"
        );
    }

    /// A value is never scanned for placeholders: a cache root named
    /// `/c/{hash}{dir}` stays that, in every template.
    #[test]
    fn substituted_values_are_not_filled_again() {
        let fill = Fill {
            dir: "/t/{cache}",
            cache: Some("/c/{hash}{dir}"),
            hash: "0123456789abcdef",
            output: "{output}",
        };
        assert_eq!(
            fill.apply("{cache}/go/x-{hash}").as_deref(),
            Some("/c/{hash}{dir}/go/x-0123456789abcdef")
        );
        assert_eq!(fill.apply("{dir}/a").as_deref(), Some("/t/{cache}/a"));
        assert_eq!(fill.apply("-o {output}").as_deref(), Some("-o {output}"));
    }

    #[test]
    fn the_key_is_the_sha256_prefix_of_the_source_then_the_toolchain() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1: the source's bytes, then
        // the toolchain's, as scripts/setup-oracles.sh hashes them.
        assert_eq!(key(b"abc", b""), "ba7816bf8f01cfea");
        assert_eq!(key(b"ab", b"c"), "ba7816bf8f01cfea");
        assert_ne!(
            key(b"package main", b"go1.19.8\nlinux\namd64\n"),
            key(b"package main", b"go1.19.8\nlinux\narm64\n")
        );
    }

    #[test]
    fn only_a_file_the_system_cannot_run_is_built_again() {
        let dir = tempfile::tempdir().unwrap();
        let there = dir.path().join("p");
        std::fs::write(&there, "x").unwrap();
        let noexec = io::Error::from_raw_os_error(rustix::io::Errno::NOEXEC.raw_os_error());
        assert!(cannot_run(&noexec, &there));
        // A file that is there but whose loader is not.
        assert!(cannot_run(
            &io::Error::from(io::ErrorKind::NotFound),
            &there
        ));
        assert!(!cannot_run(
            &io::Error::from(io::ErrorKind::NotFound),
            &dir.path().join("gone")
        ));
        assert!(!cannot_run(
            &io::Error::from(io::ErrorKind::PermissionDenied),
            &there
        ));
    }

    /// A built adapter, with python3 as its "compiler": run in the
    /// temporary directory with only the kept and set variables (cargo's
    /// CARGO_MANIFEST_DIR, which this test runs with, is not), named by
    /// the source and the toolchain's answer, built once into the cache and
    /// found there the second time; a missing library reported with the
    /// setup command.
    #[test]
    fn built_adapters_are_built_once_in_their_own_environment() {
        let cache = tempfile::tempdir().unwrap();
        let cache_text = cache.path().to_str().unwrap();
        let row = Shipped::new(
            "built",
            &[(
                "build.py",
                "import os, sys\n\
                 here = os.path.dirname(os.path.abspath(sys.argv[0]))\n\
                 assert os.getcwd() == here, os.getcwd()\n\
                 assert os.environ.get('X_SET') == '1', dict(os.environ)\n\
                 assert 'CARGO_MANIFEST_DIR' not in os.environ, dict(os.environ)\n\
                 open(sys.argv[1], 'w').write('#!/bin/sh\\necho built\\n')\n\
                 os.chmod(sys.argv[1], 0o755)\n",
            )],
            &[],
            &["{cache}/bin/built-{hash}"],
            "apt-get install python3",
        )
        .env(&[("X_PATH", "{cache}/x")])
        .build(Build {
            output: "{cache}/bin/built-{hash}",
            command: &["python3", "{dir}/build.py", "{output}"],
            toolchain: &["python3", "-c", "print('toolchain 1')"],
            keep: &["PATH"],
            set: &[("X_SET", "1")],
            scratch_cache: None,
        })
        .resolves();
        assert!(
            std::env::var_os("CARGO_MANIFEST_DIR").is_some(),
            "run under cargo: the build must not see its CARGO_MANIFEST_DIR"
        );
        let build = row.build.as_ref().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let dir_text = dir.path().to_str().unwrap();
        std::fs::write(dir.path().join("build.py"), row.files[0].1).unwrap();
        let hash = row.key(build, dir_text).unwrap();
        assert_eq!(hash, key(row.files[0].1.as_bytes(), b"toolchain 1\n"));
        let fill = row.fill(dir_text, Some(cache_text), &hash);
        let root = Root::at(cache.path());
        let out = row.build_once(build, &fill, &root).unwrap();
        assert_eq!(out, format!("{cache_text}/bin/built-{hash}"));
        assert!(is_executable(Path::new(&out)));
        assert_eq!(row.missing(Ok(&root)), None);
        // Built already: found in the cache, not built again.
        std::fs::remove_file(dir.path().join("build.py")).unwrap();
        assert_eq!(row.build_once(build, &fill, &root).unwrap(), out);

        let with_library = row.libraries(&[("urllib3", "{cache}/python/urllib3")]);
        let missing = with_library.missing(Ok(&root)).unwrap();
        assert_eq!(missing.install, SETUP);
        assert!(
            missing.what.starts_with("urllib3 not installed in "),
            "{missing}"
        );
    }
}
