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
//! `<root>/go/NAME-KEY` (a Go program, built on first use, its key
//! covering the source and the toolchain: [`go_build`]).
//!
//! An adapter loads code only from its own directory, its runtime and the
//! cache root (or, for a Java library Debian packages, that package's jars
//! by their fixed paths under `/usr/share/java`: `Shipped::debian`),
//! never by a search through the directories above its file:
//! that file is under `TMPDIR`, whose parents anyone may write to
//! (`/tmp/node_modules`). Node programs are `.cjs` files (CommonJS whatever
//! a `package.json` above says) that load Node's modules by their `node:`
//! names and a library by its absolute path; Python runs isolated (`-I`:
//! no `PYTHON*` variable, no user site directory; yarl, httpx and upa-url
//! also `-S`: not the interpreter's site-packages, whose unpinned packages
//! httpx's import would try) and puts the cache's directory on `sys.path`
//! itself. Java's source launcher loads the file's
//! own classes before the class path, Ruby and PHP put neither the
//! script's directory nor the working directory on their load paths, and
//! these adapters use their standard libraries only.
//!
//! A row is built from [`Shipped::new`] (name, sources, runtimes, command,
//! install command), then its `position` in the order every output lists
//! the adapters in, and states only what differs from the defaults; the
//! rows live by runtime family (`python.rs`, `jvm.rs`, `node.rs`, `go.rs`,
//! `php.rs`, `ruby.rs`, `perl.rs`, each a `ROWS` table) and [`SHIPPED`]
//! is them in the order of their positions (`order.rs`). How a row is
//! prepared, built and started is in `run.rs`.

mod documented;
mod go;
mod jvm;
mod node;
mod order;
mod perl;
mod php;
mod python;
mod reproduce;
mod ruby;
mod run;

use std::path::PathBuf;

use super::cache::{self, CacheRootError};
use crate::oracle::Standard;

pub(crate) use documented::Documented;
pub(crate) use go::{GO_MOD, go_build};
pub(crate) use order::SHIPPED;
pub(crate) use reproduce::{Accessors, Language, Reproduce};
pub(crate) use run::Prepare;

/// An adapter shipped with uridiff.
///
/// Templates (`command`, `env`, `libraries`, `build`) may hold `{dir}` (the
/// temporary directory holding `files`), `{cache}` (the cache root),
/// `{hash}` (for a built adapter, [`Build::key`]: its first file and its
/// toolchain) and, in `build.command`, `{output}` (the program it writes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shipped {
    /// The name `--oracle` takes, and the oracle's id in reports.
    pub name: &'static str,
    /// Its place, from 1, in the order of the shipped adapters: the order
    /// `uridiff oracles` lists them, `--oracle all` starts them and every
    /// output gives their outcomes in ([`SHIPPED`]). A new adapter takes
    /// the next number; the build fails unless the rows' positions are 1
    /// to their number, each once. 0 for a row that is no shipped oracle
    /// (a client's program, `fetch::programs`).
    pub position: usize,
    /// The embedded sources: file name and text.
    pub files: &'static [(&'static str, &'static str)],
    /// The programs that run it, looked up on `PATH` (for a built adapter,
    /// none: its build tool is `build`'s first word).
    pub runtimes: &'static [&'static str],
    /// The command line, one template per argument, run without a shell.
    pub command: &'static [&'static str],
    /// Environment variables set for it.
    pub env: &'static [(&'static str, &'static str)],
    /// Variables of the caller's environment removed for it: those through
    /// which its runtime would load code from elsewhere than its own
    /// directory and the system's library paths (`PERL5LIB`, `RUBYOPT`).
    pub unset: &'static [&'static str],
    /// Libraries that must be in the cache root: what, and a path that is
    /// there once it is installed.
    pub libraries: &'static [(&'static str, &'static str)],
    /// The Debian packages its answers depend on beside its runtime's
    /// ([`super::version::AdapterVersion`]): files a package installs at a
    /// fixed path that it loads (the jars of a Java library under
    /// `/usr/share/java`; a missing file is installed with `install`), and
    /// packages its parser comes from by name (a library the distribution
    /// installs on the runtime's own load path, as `liburi-perl`, or whose
    /// files' paths carry its version, as a gem's directory).
    pub debian: &'static [Debian],
    /// For a library of the system's (a Debian package's, not the cache
    /// root's): what it is, and a command, run with the row's `unset`
    /// removed, that exits 0 only when the runtime can load it
    /// (`perl -MURI -e 1`). Without it the runtime is there (perl is in
    /// every Debian) and the adapter would fail only once started.
    pub probe: Option<(&'static str, &'static [&'static str])>,
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
    /// The shipped adapter whose library this one's derives from (fast-uri
    /// from uri-js): the two are one implementation when a majority of a
    /// standard's implementations decides (`OracleId::lineage`).
    pub lineage: Option<&'static str>,
    /// The self-checks (RFC 3986's `IP-literal`, its `scheme`) it is held
    /// to although it claims no `standard`: what its own maintainers later
    /// fixed as a bug (Go's `net/url` refuses a bracketed host that is no
    /// IPv6 literal since CVE-2025-47912). Empty for one that claims a
    /// standard (every self-check applies) or documents it does not validate.
    pub held_to: &'static [SelfCheck],
    /// How its runtime's resolver reads a host as an address (the bypass
    /// matrix's model of where a fetcher of this runtime connects).
    pub resolver: Resolver,
    /// How its parser's own documentation says it writes a host it
    /// accepted where that is not the input's text, each with the passage
    /// that says so: triage compares its host with the reference's read
    /// that way, and a host that then agrees is a `spec` finding citing
    /// that passage, not a peer disagreement (`triage::reading`).
    pub host_readings: &'static [(HostReading, &'static str)],
    /// How its parser flags an input it calls malformed while still
    /// returning the components it read (fast-uri's `error` field): the
    /// prefix of the adapter's note that carries the flag, and the passage
    /// of its documentation that says so. Such an outcome is the parser's
    /// own refusal as far as its standard goes (no self-check, peer or
    /// reference claims accepting it), while its components still take part
    /// in host confusions: what a caller that ignores the flag reads.
    pub flag_note: Option<(&'static str, &'static str)>,
    /// Is it the reference implementation of its `standard` (whatwg-url,
    /// the URL Standard's)? A reference decides, it is not judged.
    pub reference: bool,
    /// How `reproduce` writes a test of a defect in its parser's own API;
    /// none for one it writes no test of (the WHATWG reference, which
    /// decides and is not judged).
    pub reproduce: Option<Reproduce>,
    /// What its parser documents of itself beyond `standard` ([`Documented`]).
    pub documented: Documented,
    /// The ids of the HTTP clients that read a URL with its parser
    /// (`Descriptor::clients`).
    pub clients: &'static [&'static str],
}

/// A Debian package a shipped adapter's answers depend on (`Shipped::debian`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Debian {
    /// The package's name.
    pub package: &'static str,
    /// The file of it the adapter loads, by its fixed path: the package
    /// that owns it counts (`dpkg-query -S`), and the adapter is missing
    /// while it is absent. None for a package named for itself
    /// (`dpkg-query -W`; `NAME -` when it is not installed).
    pub file: Option<&'static str>,
}

impl Debian {
    /// The package owning `file`, a file the adapter loads.
    pub(crate) const fn file(package: &'static str, file: &'static str) -> Debian {
        Debian {
            package,
            file: Some(file),
        }
    }

    /// The package `package`, by name.
    pub(crate) const fn named(package: &'static str) -> Debian {
        Debian {
            package,
            file: None,
        }
    }
}

impl Shipped {
    /// A row with the name `--oracle` takes, its sources, the programs that
    /// run it, its command and the command that installs its runtime; by
    /// default it sets and unsets no variable, needs nothing else, resolves
    /// no pair, claims no standard, connects through glibc's resolver,
    /// writes hosts as the input has them and has no `reproduce` template.
    pub(crate) const fn new(
        name: &'static str,
        files: &'static [(&'static str, &'static str)],
        runtimes: &'static [&'static str],
        command: &'static [&'static str],
        install: &'static str,
    ) -> Shipped {
        Shipped {
            name,
            position: 0,
            files,
            runtimes,
            command,
            env: &[],
            unset: &[],
            libraries: &[],
            debian: &[],
            probe: None,
            build: None,
            resolves: false,
            install,
            standard: None,
            lineage: None,
            held_to: &[],
            resolver: Resolver::Glibc,
            host_readings: &[],
            flag_note: None,
            reference: false,
            reproduce: None,
            documented: Documented::NONE,
            clients: &[],
        }
    }

    /// At `position` in the order of the shipped adapters (`Shipped::position`).
    pub(crate) const fn position(self, position: usize) -> Shipped {
        Shipped { position, ..self }
    }

    /// What its parser documents beyond `standard` (`Shipped::documented`).
    pub(crate) const fn documented(self, documented: Documented) -> Shipped {
        Shipped { documented, ..self }
    }

    /// With these variables set (`Shipped::env`).
    pub(crate) const fn env(self, env: &'static [(&'static str, &'static str)]) -> Shipped {
        Shipped { env, ..self }
    }

    /// With these variables of the caller's removed (`Shipped::unset`).
    pub(crate) const fn unset(self, unset: &'static [&'static str]) -> Shipped {
        Shipped { unset, ..self }
    }

    /// Needing these libraries in the cache root (`Shipped::libraries`).
    pub(crate) const fn libraries(
        self,
        libraries: &'static [(&'static str, &'static str)],
    ) -> Shipped {
        Shipped { libraries, ..self }
    }

    /// Depending on these Debian packages (`Shipped::debian`).
    pub(crate) const fn debian(self, debian: &'static [Debian]) -> Shipped {
        Shipped { debian, ..self }
    }

    /// With a system library checked by `probe` (`Shipped::probe`).
    pub(crate) const fn probe(self, what: &'static str, probe: &'static [&'static str]) -> Shipped {
        Shipped {
            probe: Some((what, probe)),
            ..self
        }
    }

    /// Built from its sources on first use (`Shipped::build`).
    pub(crate) const fn build(self, build: Build) -> Shipped {
        Shipped {
            build: Some(build),
            ..self
        }
    }

    /// Resolving a reference against a base (`Shipped::resolves`).
    pub(crate) const fn resolves(self) -> Shipped {
        Shipped {
            resolves: true,
            ..self
        }
    }

    /// Claiming `standard` (`Shipped::standard`).
    pub(crate) const fn standard(self, standard: Standard) -> Shipped {
        Shipped {
            standard: Some(standard),
            ..self
        }
    }

    /// Its library deriving from the shipped adapter `of`'s (`Shipped::lineage`).
    pub(crate) const fn lineage(self, of: &'static str) -> Shipped {
        Shipped {
            lineage: Some(of),
            ..self
        }
    }

    /// Held to these self-checks without a standard (`Shipped::held_to`).
    pub(crate) const fn held_to(self, held_to: &'static [SelfCheck]) -> Shipped {
        Shipped { held_to, ..self }
    }

    /// Its runtime resolving hosts with `resolver` (`Shipped::resolver`).
    pub(crate) const fn resolver(self, resolver: Resolver) -> Shipped {
        Shipped { resolver, ..self }
    }

    /// Writing hosts as these documented readings say (`Shipped::host_readings`).
    pub(crate) const fn host_readings(
        self,
        host_readings: &'static [(HostReading, &'static str)],
    ) -> Shipped {
        Shipped {
            host_readings,
            ..self
        }
    }

    /// Flagging a malformed input by a note with `prefix`, as `passage`
    /// says (`Shipped::flag_note`).
    pub(crate) const fn flag_note(self, prefix: &'static str, passage: &'static str) -> Shipped {
        Shipped {
            flag_note: Some((prefix, passage)),
            ..self
        }
    }

    /// The reference implementation of its standard (`Shipped::reference`).
    pub(crate) const fn reference(self) -> Shipped {
        Shipped {
            reference: true,
            ..self
        }
    }

    /// Read by these HTTP clients (`Shipped::clients`).
    pub(crate) const fn clients(self, clients: &'static [&'static str]) -> Shipped {
        Shipped { clients, ..self }
    }

    /// With a `reproduce` template (`Shipped::reproduce`).
    pub(crate) const fn reproduce(self, reproduce: Reproduce) -> Shipped {
        Shipped {
            reproduce: Some(reproduce),
            ..self
        }
    }
}

/// How a runtime turns a host into an address: Go's and Java's resolvers
/// their own way, every other runtime (Python, Node, PHP, Ruby, Perl, and
/// libcurl and hyper in process) through glibc's `getaddrinfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolver {
    /// glibc's `getaddrinfo` (IPv4 through `inet_aton`).
    Glibc,
    /// Go's resolver (`net.ParseIP`, else a name).
    Go,
    /// Java's `InetAddress`.
    Java,
}

/// A self-check of a parser's own answer (`triage::defects`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfCheck {
    /// A bracketed host is an `IP-literal` (RFC 3986 section 3.2.2).
    IpLiteral,
    /// A scheme is one RFC 3986 section 3.1 allows.
    Scheme,
}

/// A host reading a parser's own documentation gives: how it writes a
/// host it accepted where that is not the input's text. Each is exact (a
/// function of the input's host), so a host that it explains is the very
/// one the documentation promises, and anything else stays a departure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostReading {
    /// An IPv6 literal's zone ID after a single `%`: RFC 6874's `%25`
    /// delimiter read as the `%` of the address's own text form (RFC 4007
    /// section 11, `<address>%<zone_id>`), the zone ID itself as written
    /// (`[fe80::1%25en0]` as `fe80::1%en0`).
    ZoneDecoded,
    /// For these schemes (lower case), a reg-name read as a domain name:
    /// percent-decoded, lower-cased, and each label beyond ASCII written as
    /// `xn--` and its Punycode (RFC 3492; the punycode.js `toASCII` of
    /// uri-js's scheme handlers with `domainHost`).
    DomainPunycode(&'static [&'static str]),
    /// For these schemes (lower case), a reg-name that is no IP address
    /// read by the URL Standard's host parser (domain to ASCII through UTS
    /// #46, IPv4 number forms as the dotted quad): fast-uri hands such a
    /// host to the runtime's WHATWG `URL` and keeps its `hostname`.
    DomainWhatwg(&'static [&'static str]),
    /// A host of four dot-separated decimal numbers of one to three digits
    /// (RFC 2373's `IPv4address` form) written with each number's
    /// leading zeros dropped (`192.068.001.000` as `192.68.1.0`): uri-js's
    /// documented "IPv4 normalization". RFC 3986 reads such a host, with
    /// a leading zero, as a reg-name (its `dec-octet` has none), and
    /// section 7.4 warns that some resolvers read `068` as octal.
    Ipv4LeadingZerosDropped,
    /// For these schemes (lower case; `""` for an input without one), a
    /// reg-name normalised as RFC 3986 section 6.2.2 describes: lower-cased
    /// (6.2.2.1), percent-encoded unreserved octets decoded and the other
    /// percent-encodings' hex digits upper-cased (6.2.2.2): urllib3's
    /// `_normalize_host` since urllib3#5095 (`%5F3!` as `_3!`).
    Rfc3986Normalized(&'static [&'static str]),
    /// The whole host percent-decoded, an IP literal's zone ID included
    /// (`[fe80::1%25en0]` as `[fe80::1%en0]`, `%25%41` as `%A`): Go's `URL.Host`.
    PercentDecoded,
    /// The host unescaped, its octets as UTF-8 text where they are that, else
    /// each as the character of its code point (`%DE%DEo`: `ÞÞo`): Perl's `->host`.
    Unescaped,
}

/// A scheme's own syntax, narrower than the generic one (RFC 3986 section
/// 3.1 and RFC 2396 section 3 leave it to the scheme's specification).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemeSyntax {
    /// `mailto`, RFC 6068 section 2: `mailtoURI = "mailto:" [ to ] [
    /// hfields ]`, `to = addr-spec *("," addr-spec )` (RFC 5322 section
    /// 3.4.1, with the characters section 2 lists percent-encoded),
    /// `hfields = "?" hfield *( "&" hfield )`, `hfield = hfname "="
    /// hfvalue`, each of `qchar`s; no authority.
    Mailto,
}

/// How a shipped adapter is built: in the temporary directory holding its
/// files (its working directory), in an environment of its own, into the
/// cache under a name that covers the source and the toolchain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Build {
    /// Where the program is kept (a template with `{cache}` and `{hash}`).
    pub output: &'static str,
    /// The build command, one template per argument; the first is the
    /// build tool, looked up on `PATH`. It writes `{output}` (a file in the
    /// temporary directory, copied into the cache once built).
    pub command: &'static [&'static str],
    /// A command whose output names the toolchain and what it builds for;
    /// it is hashed with the source (`{hash}`).
    pub toolchain: &'static [&'static str],
    /// The only variables of the caller's environment the build and the
    /// toolchain query see (those that are set).
    pub keep: &'static [&'static str],
    /// Variables set for them.
    pub set: &'static [(&'static str, &'static str)],
    /// A variable that must name a cache directory (`GOCACHE`) and the
    /// variables that give a default for it: when none of them is set, it
    /// is set to a scratch directory in the temporary directory.
    pub scratch_cache: Option<(&'static str, &'static [&'static str])>,
}

/// The command that installs every third-party library of the shipped
/// adapters into the cache root.
pub(crate) const SETUP: &str = "bash scripts/setup-oracles.sh";

/// The name of the shipped adapter that is the URL Standard's reference
/// implementation: the row of [`SHIPPED`] that says so (`.reference()`
/// with the WHATWG standard), read at compile time so that the row's
/// descriptor is the one place that says it; `""` if no row does (a test
/// of the descriptors fails then).
pub(crate) const WHATWG_REFERENCE: &str = whatwg_reference(SHIPPED);

/// The name of the first of `rows` that is the WHATWG reference, or `""`
/// (a slice pattern, not indexing: this runs in a `const`).
const fn whatwg_reference(rows: &[Shipped]) -> &'static str {
    match rows {
        [row, rest @ ..] => {
            if row.reference && matches!(row.standard, Some(Standard::Whatwg)) {
                row.name
            } else {
                whatwg_reference(rest)
            }
        }
        [] => "",
    }
}

/// The names of the shipped adapters, in the order the output gives their
/// outcomes in.
pub fn shipped_names() -> Vec<&'static str> {
    SHIPPED.iter().map(|s| s.name).collect()
}

pub(crate) fn find(name: &str) -> Option<&'static Shipped> {
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

/// For every shipped adapter, in the order the output gives their outcomes
/// in: is its runtime (and library) here, and if not, the one command that
/// installs it.
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
