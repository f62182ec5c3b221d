//! What a shipped adapter's answers depend on, as this machine runs it: the
//! parser and runtime its hello line names and, for a runtime a Debian
//! package installed, that package's version, with those of the Debian
//! packages of its library (Perl's URI is `liburi-perl`, whose security
//! updates keep `$URI::VERSION`).
//!
//! A distribution's Go, PHP, Ruby (and whatever Python, Node or Java the
//! machine has) change under security updates without a new upstream
//! version: Debian's `ruby3.1 3.1.7+really3.1.2-0+deb12u1` still says
//! `ruby 3.1.2p20`. Recorded outcomes of such an adapter hold only for the
//! versions that recorded them; those of an adapter whose library is
//! pinned by a committed file (urllib3, whatwg-url, fast-uri, uri-js,
//! url-parse) hold wherever that library runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::shipped::{self, Shipped};
use super::wire::Hello;

/// The versions behind a shipped adapter's answers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AdapterVersion {
    /// The parser and its version, as its hello line says
    /// (`Ruby URI 0.11.0 RFC3986_Parser`).
    pub parser: String,
    /// The runtime, as its hello line says (`ruby 3.1.2p20`).
    pub runtime: Option<String>,
    /// The Debian package that installed the program running it (its
    /// runtime, or for a built adapter its build tool) and the package's
    /// version, as `dpkg-query -W` prints them
    /// (`ruby3.1 3.1.7+really3.1.2-0+deb12u1`), followed by those of the
    /// Debian files it loads (`…, libspring-web-java 4.3.30-2`) and of the
    /// Debian packages its parser comes from by name (`Shipped::debian`:
    /// `perl-base 5.36.0-7+deb12u4, liburi-perl 5.17-1`, `NAME -` for one
    /// not installed); none where no package owns that program (a toolchain
    /// manager's, a hand-built one) and the row names none, or there is no
    /// `dpkg-query`.
    pub package: Option<String>,
    /// Is its parser a library pinned by a file in `adapters/`
    /// (`requirements.txt`, `package-lock.json`) and installed into the
    /// cache root? Then its answers depend on that pin alone.
    pub pinned: bool,
}

impl AdapterVersion {
    /// What two runs must share for one's recorded outcomes to hold for the
    /// other: the parser line for a pinned library, else the parser,
    /// runtime and package lines.
    pub fn key(&self) -> String {
        if self.pinned {
            return format!("parser={}", self.parser);
        }
        format!(
            "parser={} runtime={} package={}",
            self.parser,
            self.runtime.as_deref().unwrap_or("-"),
            self.package.as_deref().unwrap_or("-")
        )
    }
}

impl AdapterVersion {
    /// A version of the shipped adapter `name` as recorded elsewhere (a
    /// file of recorded outcomes); `None` for a name that is not a shipped
    /// adapter.
    pub fn recorded(
        name: &str,
        parser: String,
        runtime: Option<String>,
        package: Option<String>,
    ) -> Option<AdapterVersion> {
        let row = shipped::find(name)?;
        Some(AdapterVersion {
            parser,
            runtime,
            package,
            pinned: !row.libraries.is_empty(),
        })
    }
}

/// The versions of the shipped adapter `name` as it runs here, given the
/// hello line it answered with; `None` for a name that is not a shipped
/// adapter.
pub(crate) fn adapter_version(name: &str, hello: &Hello) -> Option<AdapterVersion> {
    let row = shipped::find(name)?;
    let runtime = runtime_program(row).and_then(|p| debian_package(&p));
    let packaged: Vec<Option<String>> = row
        .debian
        .iter()
        .filter_map(|d| d.file)
        .map(|path| debian_package(Path::new(path)))
        .collect();
    let named: Vec<&str> = row
        .debian
        .iter()
        .filter(|d| d.file.is_none())
        .map(|d| d.package)
        .collect();
    let before = packages(runtime, &packaged);
    let dpkg = before.is_some() || dpkg_query(&["--version"]).is_some();
    let package = packages_line(before, &named, dpkg, package_version);
    AdapterVersion::recorded(name, hello.parser.clone(), hello.runtime.clone(), package)
}

/// The runtime's package, then those of the Debian files the adapter loads
/// (a Java library's jars), each once, joined with `, `: a security update
/// of any of them is another version. A file no package owns is `-`, so
/// that it still counts; none at all (no `dpkg-query`) is `None`.
fn packages(runtime: Option<String>, packaged: &[Option<String>]) -> Option<String> {
    if packaged.is_empty() {
        return runtime;
    }
    if runtime.is_none() && packaged.iter().all(Option::is_none) {
        return None;
    }
    let mut all: Vec<String> = Vec::new();
    for p in std::iter::once(&runtime).chain(packaged) {
        let text = p.clone().unwrap_or_else(|| "-".to_owned());
        if !all.contains(&text) {
            all.push(text);
        }
    }
    Some(all.join(", "))
}

/// The `package` of a version: the line so far (the runtime's package and
/// those of the files the adapter loads), then each of the row's own
/// packages (`liburi-perl 5.17-1`), `, ` between them. A listed
/// package that `version` does not find is written `NAME -`: the library
/// the adapter loaded came from elsewhere, and that is part of the key too.
/// Without dpkg (`dpkg` false) only the runtime's, which is then none.
fn packages_line(
    before: Option<String>,
    packages: &[&str],
    dpkg: bool,
    version: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let listed = packages
        .iter()
        .filter(|_| dpkg)
        .map(|p| version(p).unwrap_or_else(|| format!("{p} -")));
    let all: Vec<String> = before.into_iter().chain(listed).collect();
    (!all.is_empty()).then(|| all.join(", "))
}

/// The program whose package counts: the first runtime (`ruby`), else the
/// build tool of a built adapter (`go`), found on `PATH`.
fn runtime_program(row: &Shipped) -> Option<PathBuf> {
    let program = row
        .runtimes
        .first()
        .copied()
        .or_else(|| row.build.as_ref().and_then(|b| b.command.first().copied()))?;
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// `dpkg-query -S` names the package owning a path; the path given is the
/// real file, since `/usr/bin/ruby` is a link (through `/etc/alternatives`
/// for some) that dpkg may not list.
fn debian_package(program: &Path) -> Option<String> {
    let real = std::fs::canonicalize(program).ok()?;
    let real_text = real.to_str()?;
    let owners = dpkg_query(&["-S", real_text])?;
    // "ruby3.1: /usr/bin/ruby3.1" or "openjdk-17-jre-headless:amd64: /usr/...";
    // "diversion by …" lines name no owner.
    let line = owners
        .lines()
        .find(|l| l.ends_with(&format!(": {real_text}")) && !l.starts_with("diversion "))?;
    let owner = line.strip_suffix(&format!(": {real_text}"))?;
    // Several packages may share a path ("a, b: /p"): the first decides.
    let package = owner.split(", ").next()?.trim();
    package_version(package)
}

/// `PACKAGE VERSION` of an installed Debian package, as `dpkg-query -W`
/// prints them; none for one that is not installed (dpkg-query prints no
/// version for a package it only knows of) or without dpkg.
fn package_version(package: &str) -> Option<String> {
    let line = dpkg_query(&["-W", "-f=${Package} ${Version}", package])?;
    let line = line.trim();
    line.split_once(' ')
        .is_some_and(|(_, version)| !version.trim().is_empty())
        .then(|| line.to_owned())
}

/// `dpkg-query ARGS`'s standard output, when it runs and succeeds.
fn dpkg_query(args: &[&str]) -> Option<String> {
    let out = Command::new("dpkg-query")
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(pinned: bool) -> AdapterVersion {
        AdapterVersion {
            parser: "Ruby URI 0.11.0 RFC3986_Parser".to_owned(),
            runtime: Some("ruby 3.1.2p20".to_owned()),
            package: Some("ruby3.1 3.1.7+really3.1.2-0+deb12u1".to_owned()),
            pinned,
        }
    }

    #[test]
    fn a_pinned_library_is_keyed_by_its_parser_alone() {
        assert_eq!(version(true).key(), "parser=Ruby URI 0.11.0 RFC3986_Parser");
        let other_runtime = AdapterVersion {
            runtime: Some("ruby 3.3.0".to_owned()),
            package: None,
            ..version(true)
        };
        assert_eq!(other_runtime.key(), version(true).key());
    }

    #[test]
    fn a_distribution_runtime_is_keyed_by_its_package_too() {
        let key = version(false).key();
        assert_eq!(
            key,
            "parser=Ruby URI 0.11.0 RFC3986_Parser runtime=ruby 3.1.2p20 package=ruby3.1 3.1.7+really3.1.2-0+deb12u1"
        );
        // A security update that keeps the upstream version is another key.
        let updated = AdapterVersion {
            package: Some("ruby3.1 3.1.8+really3.1.2-0+deb12u1".to_owned()),
            ..version(false)
        };
        assert_ne!(updated.key(), key);
    }

    #[test]
    fn the_program_is_the_runtime_or_the_build_tool() {
        let ruby = shipped::find("ruby-uri").map(|r| r.runtimes.first().copied());
        assert_eq!(ruby, Some(Some("ruby")));
        let go = shipped::find("go-net-url")
            .and_then(|r| r.build.as_ref())
            .and_then(|b| b.command.first().copied());
        assert_eq!(go, Some("go"));
        // The pinned adapters keep their library in the cache root.
        for name in [
            "urllib3",
            "whatwg-url",
            "yarl",
            "httpx",
            "upa-url",
            "fast-uri",
            "uri-js",
            "url-parse",
        ] {
            assert!(
                shipped::find(name).is_some_and(|r| !r.libraries.is_empty()),
                "{name}"
            );
        }
        for name in ["ruby-uri", "go-net-url", "php-parse-url", "python-urllib"] {
            assert!(
                shipped::find(name).is_some_and(|r| r.libraries.is_empty()),
                "{name}"
            );
        }
    }

    #[test]
    fn debian_files_add_their_packages_once_after_the_runtime() {
        let jdk = Some("openjdk-17-jre-headless 17.0.15+6-1~deb12u1".to_owned());
        assert_eq!(packages(jdk.clone(), &[]), jdk);
        let jetty = Some("libjetty9-java 9.4.57-1.1~deb12u1".to_owned());
        assert_eq!(
            packages(jdk.clone(), &[jetty.clone(), jetty.clone()]).as_deref(),
            Some("openjdk-17-jre-headless 17.0.15+6-1~deb12u1, libjetty9-java 9.4.57-1.1~deb12u1")
        );
        // A jar no package owns still counts, as "-".
        assert_eq!(
            packages(None, &[jetty, None]).as_deref(),
            Some("-, libjetty9-java 9.4.57-1.1~deb12u1")
        );
        assert_eq!(packages(None, &[None]), None);
        // The rows that load Debian jars name a package for each.
        for name in ["spring-uri", "jetty-httpuri"] {
            let row = shipped::find(name).unwrap();
            assert!(row.debian.iter().any(|d| d.file.is_some()), "{name}");
            assert!(row.libraries.is_empty(), "{name}: not a pinned library");
        }
    }

    /// A library the distribution installs is part of the key: its
    /// package follows the runtime's, and one not installed says so.
    #[test]
    fn a_distribution_library_is_keyed_by_its_package_too() {
        let versions = |p: &str| (p == "liburi-perl").then(|| "liburi-perl 5.17-1".to_owned());
        let perl = Some("perl-base 5.36.0-7+deb12u4".to_owned());
        assert_eq!(
            packages_line(perl.clone(), &["liburi-perl"], true, versions).as_deref(),
            Some("perl-base 5.36.0-7+deb12u4, liburi-perl 5.17-1")
        );
        assert_eq!(
            packages_line(perl.clone(), &["liburi-perl", "gone"], true, versions).as_deref(),
            Some("perl-base 5.36.0-7+deb12u4, liburi-perl 5.17-1, gone -")
        );
        assert_eq!(
            packages_line(None, &["liburi-perl"], true, versions).as_deref(),
            Some("liburi-perl 5.17-1")
        );
        assert_eq!(packages_line(None, &["liburi-perl"], false, versions), None);
        assert_eq!(
            packages_line(perl, &[], true, versions).as_deref(),
            Some("perl-base 5.36.0-7+deb12u4")
        );
        for (name, package) in [
            ("perl-uri", "liburi-perl"),
            ("ruby-addressable", "ruby-addressable"),
        ] {
            assert!(
                shipped::find(name)
                    .is_some_and(|r| r.debian.contains(&shipped::Debian::named(package))),
                "{name}"
            );
        }
    }

    /// Where Debian's `dpkg` is (Debian, Ubuntu, this project's CI), the
    /// package that owns `dpkg-query` itself is `dpkg`.
    #[test]
    fn dpkg_names_its_own_package() {
        let Some(program) = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("dpkg-query"))
                .find(|p| p.is_file())
        }) else {
            // No dpkg: then no package is ever named, which is what the
            // function must say.
            assert_eq!(debian_package(Path::new("/bin/sh")), None);
            return;
        };
        let package = debian_package(&program).unwrap_or_default();
        assert!(package.starts_with("dpkg "), "{package:?}");
        assert_eq!(debian_package(Path::new("/nonexistent/x")), None);
    }
}
