//! The adapters shipped with uridiff: one row each, from which everything
//! else is derived (the names `--oracle` takes, the command that starts
//! each, whether its runtime is here and, if not, how to install it).
//!
//! Sources are embedded in the binary and written to a private temporary
//! directory when an adapter starts. Third-party libraries and built
//! programs live in the cache root ([`cache_root`]), where
//! `scripts/setup-oracles.sh` installs them from pinned files:
//! `<root>/python` (named by `URIDIFF_PYTHON_LIB`), `<root>/node/node_modules`
//! (the package named by its absolute path in `URIDIFF_WHATWG_URL`),
//! `<root>/go/NAME-HASH` (a Go adapter, built on first use).
//!
//! An adapter loads code only from its own directory, its runtime and the
//! cache root, never by a search through the directories above its file:
//! that file is under `TMPDIR`, whose parents anyone may write to
//! (`/tmp/node_modules`). Node programs are `.cjs` files (CommonJS whatever
//! a `package.json` above says) that load Node's modules by their `node:`
//! names and a library by its absolute path; Python runs isolated (`-I`:
//! no `PYTHON*` variable, no user site directory) and puts the cache's
//! directory on `sys.path` itself. Java's source launcher loads the file's
//! own classes before the class path, Ruby and PHP put neither the
//! script's directory nor the working directory on their load paths, and
//! these adapters use their standard libraries only.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::cache::{self, CacheRootError, Root};
use crate::oracle::Standard;

/// An adapter shipped with uridiff.
///
/// Templates (`command`, `env`, `libraries`, `build`) may hold `{dir}` (the
/// temporary directory holding `files`), `{cache}` (the cache root),
/// `{hash}` (the first 16 hex digits of the SHA-256 of the first file) and,
/// in `build`, `{output}` (the program it writes).
#[derive(Debug)]
pub(crate) struct Shipped {
    /// The name `--oracle` takes, and the oracle's id in reports.
    pub name: &'static str,
    /// The embedded sources: file name and text.
    pub files: &'static [(&'static str, &'static str)],
    /// The programs that run it, looked up on `PATH` (for a built adapter,
    /// none: its build tool is `build`'s first word).
    pub runtimes: &'static [&'static str],
    /// The command line, one template per argument, run without a shell.
    pub command: &'static [&'static str],
    /// Environment variables set for it.
    pub env: &'static [(&'static str, &'static str)],
    /// Libraries that must be in the cache root: what, and a path that is
    /// there once it is installed.
    pub libraries: &'static [(&'static str, &'static str)],
    /// A program built from the sources on first use, kept in the cache.
    pub build: Option<Build>,
    /// Does it resolve a reference against a base (protocol v2 pairs)?
    pub resolves: bool,
    /// The one command that installs its runtime.
    pub install: &'static str,
    /// The standard its parser's own documentation says it implements,
    /// if any: its outcomes are then judged by that standard's reference,
    /// and it is a peer of the other parsers of that standard.
    pub standard: Option<Standard>,
}

/// How a shipped adapter is built.
#[derive(Debug)]
pub(crate) struct Build {
    /// The program it writes (a template).
    pub output: &'static str,
    /// The build command, one template per argument; the first is the
    /// build tool, looked up on `PATH`.
    pub command: &'static [&'static str],
}

/// The command that installs every third-party library of the shipped
/// adapters into the cache root.
pub const SETUP: &str = "bash scripts/setup-oracles.sh";

pub(super) const SHIPPED: &[Shipped] = &[
    Shipped {
        name: "python-urllib",
        files: &[(
            "python-urllib.py",
            include_str!("../../../adapters/python-urllib.py"),
        )],
        runtimes: &["python3"],
        // -I: isolated from the user's environment and site packages; the
        // standard library is all it uses.
        command: &["python3", "-I", "{dir}/python-urllib.py"],
        env: &[],
        libraries: &[],
        build: None,
        // urllib.parse.urljoin, then urlsplit of the result.
        resolves: true,
        install: "apt-get install python3",
        standard: None,
    },
    Shipped {
        name: "java-uri",
        files: &[(
            "JavaUri.java",
            include_str!("../../../adapters/JavaUri.java"),
        )],
        runtimes: &["java"],
        // The source launcher (JDK 11+) compiles it at start; the serial
        // collector and the first JIT tier start fastest.
        command: &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "{dir}/JavaUri.java",
        ],
        env: &[],
        libraries: &[],
        build: None,
        // java.net.URI.resolve.
        resolves: true,
        install: "apt-get install default-jdk-headless",
        // java.net.URI: "Parsing ... is performed according to RFC 2396" (its class
        // documentation, which lists the RFC 2732 amendment and its deviations).
        standard: Some(Standard::Rfc2396),
    },
    Shipped {
        name: "urllib3",
        files: &[("urllib3.py", include_str!("../../../adapters/urllib3.py"))],
        runtimes: &["python3"],
        // -I: isolated from the user's environment and site directory; the
        // adapter puts URIDIFF_PYTHON_LIB, where the pinned urllib3 is,
        // first on sys.path itself.
        command: &["python3", "-I", "{dir}/urllib3.py"],
        env: &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
        libraries: &[("urllib3", "{cache}/python/urllib3/__init__.py")],
        build: None,
        // urllib3 has no resolution function: pairs are out of its domain.
        resolves: false,
        install: SETUP,
        standard: None,
    },
    Shipped {
        name: "node-url",
        files: &[(
            "node-url.cjs",
            include_str!("../../../adapters/node-url.cjs"),
        )],
        runtimes: &["node"],
        command: &["node", "{dir}/node-url.cjs"],
        env: &[],
        libraries: &[],
        build: None,
        // Node's legacy url.resolve.
        resolves: true,
        install: "apt-get install nodejs npm",
        standard: None,
    },
    Shipped {
        name: "whatwg-url",
        files: &[(
            "whatwg-url.cjs",
            include_str!("../../../adapters/whatwg-url.cjs"),
        )],
        runtimes: &["node"],
        command: &["node", "{dir}/whatwg-url.cjs"],
        // By absolute path: a bare name would be looked for in every
        // node_modules above the adapter's file first.
        env: &[("URIDIFF_WHATWG_URL", "{cache}/node/node_modules/whatwg-url")],
        libraries: &[(
            "whatwg-url",
            "{cache}/node/node_modules/whatwg-url/package.json",
        )],
        build: None,
        // The URL Standard's basic URL parser with a base.
        resolves: true,
        install: SETUP,
        // The URL Standard's reference implementation (it is the reference).
        standard: Some(Standard::Whatwg),
    },
    Shipped {
        name: "go-net-url",
        files: &[(
            "go-net-url.go",
            include_str!("../../../adapters/go-net-url.go"),
        )],
        runtimes: &[],
        command: &["{cache}/go/go-net-url-{hash}"],
        env: &[],
        libraries: &[],
        // One file, standard library only: it builds without a module.
        build: Some(Build {
            output: "{cache}/go/go-net-url-{hash}",
            command: &[
                "go",
                "build",
                "-trimpath",
                "-o",
                "{output}",
                "{dir}/go-net-url.go",
            ],
        }),
        // net/url's URL.ResolveReference.
        resolves: true,
        install: "apt-get install golang-go",
        standard: None,
    },
    Shipped {
        name: "php-parse-url",
        files: &[(
            "php-parse-url.php",
            include_str!("../../../adapters/php-parse-url.php"),
        )],
        runtimes: &["php"],
        command: &["php", "{dir}/php-parse-url.php"],
        env: &[],
        libraries: &[],
        build: None,
        // PHP has no resolver: pairs are out of its domain.
        resolves: false,
        install: "apt-get install php-cli",
        standard: None,
    },
    Shipped {
        name: "ruby-uri",
        files: &[("ruby-uri.rb", include_str!("../../../adapters/ruby-uri.rb"))],
        runtimes: &["ruby"],
        command: &["ruby", "{dir}/ruby-uri.rb"],
        env: &[],
        libraries: &[],
        build: None,
        // URI.join (URI::RFC3986_Parser, Ruby's default).
        resolves: true,
        install: "apt-get install ruby",
        // URI::RFC3986_Parser (Ruby's documentation: "Parses a URI according to RFC 3986").
        standard: Some(Standard::Rfc3986),
    },
    Shipped {
        name: "ruby-uri-rfc2396",
        files: &[("ruby-uri.rb", include_str!("../../../adapters/ruby-uri.rb"))],
        runtimes: &["ruby"],
        command: &["ruby", "{dir}/ruby-uri.rb", "rfc2396"],
        env: &[],
        libraries: &[],
        build: None,
        // URI::RFC2396_Parser's own merge.
        resolves: true,
        install: "apt-get install ruby",
        // URI::RFC2396_Parser: "Class that parses String's into URI's" per RFC 2396.
        standard: Some(Standard::Rfc2396),
    },
];

/// The standard a shipped adapter's parser implements (see
/// `Shipped::standard`); none for another name.
pub fn shipped_standard(name: &str) -> Option<Standard> {
    SHIPPED
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.standard)
}

/// The names of the shipped adapters, in table order.
pub fn shipped_names() -> Vec<&'static str> {
    SHIPPED.iter().map(|s| s.name).collect()
}

pub(super) fn find(name: &str) -> Option<&'static Shipped> {
    SHIPPED.iter().find(|s| s.name == name)
}

/// Whether a shipped adapter can run here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShippedStatus {
    /// Its name.
    pub name: &'static str,
    /// Does it resolve references against a base?
    pub resolves: bool,
    /// What is missing, if anything.
    pub missing: Option<Missing>,
}

/// Something a shipped adapter needs and does not find.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Missing {
    /// What is missing, e.g. "java not found on PATH".
    pub what: String,
    /// The one command that installs it; empty when installing would not
    /// help (a cache root that is not a directory, a file it cannot read).
    pub install: &'static str,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.what)?;
        if !self.install.is_empty() {
            write!(f, "; install it: {}", self.install)?;
        }
        Ok(())
    }
}

/// For every shipped adapter, in table order: is its runtime (and library)
/// here, and if not, the one command that installs it.
pub fn shipped_status() -> Vec<ShippedStatus> {
    let cache = cache::locate();
    SHIPPED
        .iter()
        .map(|s| ShippedStatus {
            name: s.name,
            resolves: s.resolves,
            missing: s.missing(cache.as_ref()),
        })
        .collect()
}

/// The cache root: `$URIDIFF_CACHE`, else `$XDG_CACHE_HOME/uridiff`, else
/// `$HOME/.cache/uridiff` (empty variables count as unset), absolute; an
/// error that says what is wrong with it (unset, not UTF-8, not a
/// directory, unreadable), naming the path the user gave.
pub fn cache_root() -> Result<PathBuf, CacheRootError> {
    cache::locate().map(|root| root.path().to_owned())
}

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
    /// The first 16 hex digits of the SHA-256 of the first source: a
    /// changed source gets a new build.
    fn hash(&self) -> String {
        let text = self.files.first().map_or("", |(_, text)| text);
        let digest = Sha256::digest(text.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }

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
    /// the runtimes (or the built program, else its build tool), the
    /// libraries.
    fn missing(&self, cache: Result<&Root, &CacheRootError>) -> Option<Missing> {
        let cache_text = cache.ok().map(Root::text);
        let hash = self.hash();
        let fill = self.fill("", cache_text, &hash);
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
        if let Some(build) = &self.build {
            let built = fill
                .apply(build.output)
                .is_some_and(|p| is_executable(Path::new(&p)));
            let tool = build.command.first().copied().unwrap_or_default();
            if !built && !on_path(tool) {
                return Some(Missing {
                    what: format!("{tool} not found on PATH (it builds {})", self.name),
                    install: self.install,
                });
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

    /// Everything to start it: the files written to a new temporary
    /// directory, the program built if it has to be, and the command.
    pub(crate) fn prepare(&self) -> Result<(Command, tempfile::TempDir), Prepare> {
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
        let hash = self.hash();
        let mut fill = self.fill(dir_text, cache_text, &hash);
        let output = match (&self.build, &root) {
            (Some(build), Some(root)) => Some(self.build_once(build, &fill, root)?),
            (Some(_), None) => return Err(Prepare::Missing("no cache root".to_owned())),
            (None, _) => None,
        };
        if let Some(output) = &output {
            fill.output = output;
        }
        let argv: Option<Vec<String>> = self.command.iter().map(|a| fill.apply(a)).collect();
        let Some((program, args)) = argv.as_deref().and_then(<[String]>::split_first) else {
            return Err(Prepare::Missing("its command is empty".to_owned()));
        };
        let mut command = Command::new(program);
        command.args(args);
        for (key, value) in self.env {
            if let Some(value) = fill.apply(value) {
                command.env(key, value);
            }
        }
        Ok((command, dir))
    }

    /// Builds the program unless the cache has it, and returns its path.
    /// The build writes beside the output and renames into place, so
    /// that two uridiff runs building at once never run a half-written
    /// program.
    fn build_once(&self, build: &Build, fill: &Fill<'_>, root: &Root) -> Result<String, Prepare> {
        let Some(output) = fill.apply(build.output) else {
            return Err(Prepare::Missing("no cache root".to_owned()));
        };
        if is_executable(Path::new(&output)) {
            return Ok(output);
        }
        let partial = format!("{output}.partial-{}", std::process::id());
        let with_output = Fill {
            output: &partial,
            ..*fill
        };
        let argv: Option<Vec<String>> =
            build.command.iter().map(|a| with_output.apply(a)).collect();
        let Some((program, args)) = argv.as_deref().and_then(<[String]>::split_first) else {
            return Err(Prepare::Missing("its build command is empty".to_owned()));
        };
        let parent = Path::new(&output).parent().unwrap_or(root.path());
        root.create(parent).map_err(Prepare::Cache)?;
        let mut command = Command::new(program);
        command.args(args);
        // In a process group uridiff ends on a signal, with the adapter's
        // directory: the compiler never outlives it.
        let built = super::process::run_to_end(command, Some(Path::new(fill.dir)))
            .map_err(|e| Prepare::Io("running its build", e))?;
        if !built.status.success() {
            let _ = std::fs::remove_file(&partial);
            // A full or read-only cache is said as such, not as a build
            // error whose cause is in the compiler's last lines.
            if let Err(e) = cache::probe_writable(parent) {
                return Err(Prepare::Cache(root.unwritable(parent, e)));
            }
            return Err(Prepare::Io(
                "building it",
                io::Error::other(format!(
                    "{} ({}): {}",
                    argv.as_deref().unwrap_or_default().join(" "),
                    built.status,
                    String::from_utf8_lossy(&built.stderr).trim_end()
                )),
            ));
        }
        std::fs::rename(&partial, &output)
            .map_err(|e| Prepare::Cache(root.unwritable(Path::new(&output), e)))?;
        Ok(output)
    }
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
pub(super) fn on_path(program: &str) -> bool {
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
    fn the_hash_is_the_sources_sha256_prefix() {
        let row = Shipped {
            name: "t",
            files: &[("t", "abc")],
            runtimes: &[],
            command: &[],
            env: &[],
            libraries: &[],
            build: None,
            resolves: false,
            install: "",
            standard: None,
        };
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(row.hash(), "ba7816bf8f01cfea");
    }

    /// A built adapter, with python3 as its "compiler": built once into the
    /// cache, found there the second time, and a missing library reported
    /// with the setup command.
    #[test]
    fn built_adapters_are_built_once_and_libraries_checked() {
        let cache = tempfile::tempdir().unwrap();
        let cache_text = cache.path().to_str().unwrap();
        let row = Shipped {
            name: "built",
            files: &[(
                "build.py",
                "import sys, shutil, os\nopen(sys.argv[1], 'w').write('#!/bin/sh\\necho built\\n')\nos.chmod(sys.argv[1], 0o755)\n",
            )],
            runtimes: &[],
            command: &["{output}"],
            env: &[("X_PATH", "{cache}/x")],
            libraries: &[],
            build: Some(Build {
                output: "{cache}/bin/built-{hash}",
                command: &["python3", "{dir}/build.py", "{output}"],
            }),
            resolves: true,
            install: "apt-get install python3",
            standard: None,
        };
        let hash = row.hash();
        let fill = row.fill("", Some(cache_text), &hash);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("build.py"), row.files[0].1).unwrap();
        let fill = Fill {
            dir: dir.path().to_str().unwrap(),
            ..fill
        };
        let root = Root::at(cache.path());
        let out = row
            .build_once(row.build.as_ref().unwrap(), &fill, &root)
            .unwrap();
        assert_eq!(out, format!("{cache_text}/bin/built-{hash}"));
        assert!(is_executable(Path::new(&out)));
        assert_eq!(row.missing(Ok(&root)), None);
        // Built already: no build tool needed (an empty PATH is not
        // consulted, the program is there).
        std::fs::remove_file(dir.path().join("build.py")).unwrap();
        assert_eq!(
            row.build_once(row.build.as_ref().unwrap(), &fill, &root)
                .unwrap(),
            out
        );

        let with_library = Shipped {
            libraries: &[("urllib3", "{cache}/python/urllib3")],
            ..row
        };
        let missing = with_library.missing(Ok(&root)).unwrap();
        assert_eq!(missing.install, SETUP);
        assert!(
            missing.what.starts_with("urllib3 not installed in "),
            "{missing}"
        );
    }
}
