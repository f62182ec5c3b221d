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
//! by their fixed paths under `/usr/share/java`: `Shipped::packaged`),
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
/// `{hash}` (for a built adapter, [`Build::key`]: its first file and its
/// toolchain) and, in `build.command`, `{output}` (the program it writes).
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
    /// Variables of the caller's environment removed for it: those through
    /// which its runtime would load code from elsewhere than its own
    /// directory and the system's library paths (`PERL5LIB`, `RUBYOPT`).
    pub unset: &'static [&'static str],
    /// Libraries that must be in the cache root: what, and a path that is
    /// there once it is installed.
    pub libraries: &'static [(&'static str, &'static str)],
    /// Files a Debian package installs at a fixed path that it loads (the
    /// jars of a Java library under `/usr/share/java`): the package, and
    /// the file. Its answers then depend on those packages' versions too
    /// (`version.rs`), and a missing file is installed with `install`.
    pub packaged: &'static [(&'static str, &'static str)],
    /// The Debian packages its parser comes from beside its runtime's,
    /// by name (a library the distribution installs on the runtime's own
    /// load path, as `liburi-perl`, or whose files' paths carry its version,
    /// as a gem's directory): their versions are part of what its answers
    /// depend on ([`super::version::AdapterVersion`]), as `packaged`'s are.
    pub packages: &'static [&'static str],
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
    /// standard (every self-check applies) or documents that it does not
    /// validate.
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
}

/// The test `reproduce` writes of a shipped adapter's defect: the calls
/// the adapter makes, in its parser's language, so that the test is the
/// bug report a user files upstream.
///
/// `parse` and `resolve` are templates in which `{input}` and `{base}`
/// stand for string literals of the input and the base (written in the
/// language's syntax by `reproduce::literal`); nothing else is replaced.
#[derive(Debug)]
pub(crate) struct Reproduce {
    /// The language of the parser's API.
    pub language: Language,
    /// What the test loads first: import lines (Python, JavaScript, Ruby),
    /// the import paths besides `log` (Go); empty for none.
    pub prelude: &'static str,
    /// The parse of `{input}`, bound to `u`.
    pub parse: &'static str,
    /// The resolution of `{input}` against `{base}`, bound to `u`; none
    /// when the adapter resolves no pair (then `parse` stands for it).
    pub resolve: Option<&'static str>,
    /// What a refusal raises (Python, Java, Ruby: the exception caught;
    /// unused in the languages where a refusal is a return value).
    pub refusal: &'static str,
    /// A statement after the parse that makes a lazy parser refuse
    /// (`urlsplit` checks the port only when `.port` is read); empty for none.
    pub refusal_probe: &'static str,
    /// The expression that reads each component from `u`.
    pub accessors: Accessors,
}

/// The expressions that read the components of a parse result `u`; none
/// where the API has no such accessor.
#[derive(Debug)]
pub(crate) struct Accessors {
    pub scheme: Option<&'static str>,
    pub userinfo: Option<&'static str>,
    pub host: Option<&'static str>,
    pub port: Option<&'static str>,
    pub path: Option<&'static str>,
    pub query: Option<&'static str>,
    pub fragment: Option<&'static str>,
}

impl Accessors {
    /// The accessor of component `c` (none for the authority, which no
    /// adapter's API gives whole).
    pub(crate) fn of(&self, c: crate::components::Component) -> Option<&'static str> {
        use crate::components::Component;
        match c {
            Component::Scheme => self.scheme,
            Component::Authority => None,
            Component::Userinfo => self.userinfo,
            Component::Host => self.host,
            Component::Port => self.port,
            Component::Path => self.path,
            Component::Query => self.query,
            Component::Fragment => self.fragment,
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
    /// The whole host percent-decoded, an IP literal's zone ID included
    /// (`[fe80::1%25en0]` as `[fe80::1%en0]`, `%25%41` as `%A`): Go's
    /// `URL.Host`.
    PercentDecoded,
}

/// The host readings of the shipped adapter `name`'s parser
/// (`Shipped::host_readings`); none for another name.
pub fn shipped_host_readings(name: &str) -> &'static [(HostReading, &'static str)] {
    find(name).map_or(&[], |s| s.host_readings)
}

/// The note prefix by which the shipped adapter `name` says its parser
/// flagged the input (`Shipped::flag_note`); none for another name.
pub fn shipped_flag_note(name: &str) -> Option<&'static str> {
    find(name)
        .and_then(|s| s.flag_note)
        .map(|(prefix, _)| prefix)
}

/// Is the shipped adapter `name` held to `check` although it claims no
/// standard (`Shipped::held_to`)? False for another name.
pub fn shipped_held_to(name: &str, check: SelfCheck) -> bool {
    find(name).is_some_and(|s| s.held_to.contains(&check))
}

/// The resolver of the shipped adapter `name`'s runtime; glibc's for
/// another name (every in-process parser's fetcher goes through it).
pub fn shipped_resolver(name: &str) -> Resolver {
    find(name).map_or(Resolver::Glibc, |s| s.resolver)
}

/// The language of a shipped adapter's parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    Python,
    Java,
    JavaScript,
    Go,
    Php,
    Ruby,
    Perl,
}

/// How `reproduce` writes a test of the shipped adapter `name`, if it
/// has a template.
pub(crate) fn shipped_reproduce(name: &str) -> Option<&'static Reproduce> {
    find(name).and_then(|s| s.reproduce.as_ref())
}

/// How a shipped adapter is built: in the temporary directory holding its
/// files (its working directory), in an environment of its own, into the
/// cache under a name that covers the source and the toolchain.
#[derive(Debug)]
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

/// A Go program of one file, standard library only, kept as `output`.
///
/// The caller's Go settings never reach the build: a GOOS or GOARCH there
/// would build a program this machine cannot run, GOFLAGS or a go.work
/// could fail it, and `go env -w` settings live in the file GOENV=off
/// ignores. Kept: where Go and its caches are. The working directory is
/// the temporary directory, with `adapters/go.mod` beside the source, so
/// no go.mod or go.work of the caller's directory (or above TMPDIR) is
/// found. CGO_ENABLED=0 makes a static program, as
/// `scripts/setup-oracles.sh` builds it (the same recipe: keep the two
/// together).
pub(crate) const fn go_build(output: &'static str) -> Build {
    Build {
        output,
        command: &["go", "build", "-trimpath", "-o", "{output}", "."],
        toolchain: &["go", "env", "GOVERSION", "GOOS", "GOARCH"],
        keep: &[
            "PATH",
            "HOME",
            "TMPDIR",
            "GOROOT",
            "GOPATH",
            "GOCACHE",
            "GOMODCACHE",
            "XDG_CACHE_HOME",
        ],
        set: &[
            ("GOENV", "off"),
            ("GOTOOLCHAIN", "local"),
            ("GOWORK", "off"),
            ("GO111MODULE", "on"),
            ("GOPROXY", "off"),
            ("CGO_ENABLED", "0"),
        ],
        scratch_cache: Some(("GOCACHE", &["GOCACHE", "XDG_CACHE_HOME", "HOME"])),
    }
}

/// The module a Go program is built in (see [`go_build`]).
pub(crate) const GO_MOD: (&str, &str) = ("go.mod", include_str!("../../../adapters/go.mod"));

/// The pipe protocol's loop the Node adapters share (each requires it from
/// its own directory).
pub(crate) const NODE_PROTOCOL: (&str, &str) = (
    "node-protocol.cjs",
    include_str!("../../../adapters/node-protocol.cjs"),
);

/// The command that installs every third-party library of the shipped
/// adapters into the cache root.
pub const SETUP: &str = "bash scripts/setup-oracles.sh";

/// Ruby's `URI` objects, whichever parser made them.
const RUBY_URI_ACCESSORS: Accessors = Accessors {
    scheme: Some("u.scheme"),
    userinfo: Some("u.userinfo"),
    host: Some("u.host"),
    port: None,
    path: Some("u.path"),
    query: Some("u.query"),
    fragment: Some("u.fragment"),
};

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
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // urllib.parse.urljoin, then urlsplit of the result.
        resolves: true,
        install: "apt-get install python3",
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Python,
            prelude: "from urllib.parse import urlsplit, urljoin",
            parse: "u = urlsplit({input})",
            resolve: Some("u = urlsplit(urljoin({base}, {input}))"),
            refusal: "ValueError",
            refusal_probe: "u.port  # urlsplit checks the port when it is read",
            accessors: Accessors {
                scheme: Some("u.scheme"),
                userinfo: None,
                host: Some("u.hostname"),
                port: Some("u.port"),
                path: Some("u.path"),
                query: Some("u.query"),
                fragment: Some("u.fragment"),
            },
        }),
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
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // java.net.URI.resolve.
        resolves: true,
        install: "apt-get install default-jdk-headless",
        // java.net.URI: "Parsing ... is performed according to RFC 2396" (its class
        // documentation, which lists the RFC 2732 amendment and its deviations).
        standard: Some(Standard::Rfc2396),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Java,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Java,
            prelude: "",
            parse: "java.net.URI u = new java.net.URI({input});",
            resolve: Some(
                "java.net.URI u = new java.net.URI({base}).resolve(new java.net.URI({input}));",
            ),
            refusal: "java.net.URISyntaxException",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.getScheme()"),
                userinfo: Some("u.getRawUserInfo()"),
                host: Some("u.getHost()"),
                port: None,
                path: Some("u.getRawPath()"),
                query: Some("u.getRawQuery()"),
                fragment: Some("u.getRawFragment()"),
            },
        }),
    },
    Shipped {
        name: "java-url",
        files: &[(
            "JavaUri.java",
            include_str!("../../../adapters/JavaUri.java"),
        )],
        runtimes: &["java"],
        command: &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "{dir}/JavaUri.java",
            "url",
        ],
        env: &[],
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // new URL(URL context, String spec).
        resolves: true,
        install: "apt-get install default-jdk-headless",
        // None: java.net.URL's class documentation (Java SE 17) says "The URL
        // class does not itself encode or decode any URL components according
        // to the escaping mechanism defined in RFC2396", and java.net.URI's
        // that "A URL string is parsed according to its scheme" by a stream
        // handler, "impossible to create ... for a scheme for which no handler
        // is available": what it checks is the scheme's handler and the port,
        // not a grammar (`http://a b\@c/` is a URL).
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Java,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Java,
            prelude: "",
            parse: "java.net.URL u = new java.net.URL({input});",
            resolve: Some("java.net.URL u = new java.net.URL(new java.net.URL({base}), {input});"),
            refusal: "java.net.MalformedURLException",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.getProtocol()"),
                userinfo: Some("u.getUserInfo()"),
                host: Some("u.getHost()"),
                port: Some("(u.getPort() == -1 ? null : String.valueOf(u.getPort()))"),
                path: Some("u.getPath()"),
                query: Some("u.getQuery()"),
                fragment: Some("u.getRef()"),
            },
        }),
    },
    Shipped {
        name: "spring-uri",
        files: &[(
            "JavaUri.java",
            include_str!("../../../adapters/JavaUri.java"),
        )],
        runtimes: &["java"],
        // Debian's jars by their fixed paths, nothing else on the class path.
        command: &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            "/usr/share/java/spring3-web.jar:/usr/share/java/spring3-core.jar:/usr/share/java/commons-logging.jar",
            "{dir}/JavaUri.java",
            "spring",
        ],
        env: &[],
        unset: &[],
        libraries: &[],
        // libspring-web-java 4.3.30 names its jars spring3-*.jar.
        packaged: &[
            ("libspring-web-java", "/usr/share/java/spring3-web.jar"),
            ("libspring-core-java", "/usr/share/java/spring3-core.jar"),
            (
                "libcommons-logging-java",
                "/usr/share/java/commons-logging.jar",
            ),
        ],
        packages: &[],
        probe: None,
        build: None,
        // Spring has no resolution function: pairs are out of its domain.
        resolves: false,
        install: "apt-get install default-jdk-headless libspring-web-java",
        // None: UriComponentsBuilder's documentation names no standard; of
        // fromUriString it says "The presence of reserved characters can
        // prevent correct parsing of the URI string", and its pattern is
        // RFC 3986 appendix B's (its source: "See RFC 3986, appendix B"), a
        // regular expression that splits and validates nothing.
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Java,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Java,
            prelude: "",
            parse: "org.springframework.web.util.UriComponents u = org.springframework.web.util.UriComponentsBuilder.fromUriString({input}).build();",
            resolve: None,
            // fromUriString's "... is not a valid URI", and a port out of
            // int range (NumberFormatException is one).
            refusal: "IllegalArgumentException",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.getScheme()"),
                userinfo: Some("u.getUserInfo()"),
                host: Some("u.getHost()"),
                port: Some("(u.getPort() == -1 ? null : String.valueOf(u.getPort()))"),
                // An opaque URI's path is its scheme-specific part, as the
                // adapter reports it.
                path: Some("(u.getPath() != null ? u.getPath() : u.getSchemeSpecificPart())"),
                query: Some("u.getQuery()"),
                fragment: Some("u.getFragment()"),
            },
        }),
    },
    Shipped {
        name: "jetty-httpuri",
        files: &[(
            "JavaUri.java",
            include_str!("../../../adapters/JavaUri.java"),
        )],
        runtimes: &["java"],
        command: &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            "/usr/share/java/jetty9-http.jar:/usr/share/java/jetty9-util.jar",
            "{dir}/JavaUri.java",
            "jetty",
        ],
        env: &[],
        unset: &[],
        libraries: &[],
        packaged: &[
            ("libjetty9-java", "/usr/share/java/jetty9-http.jar"),
            ("libjetty9-java", "/usr/share/java/jetty9-util.jar"),
        ],
        packages: &[],
        probe: None,
        build: None,
        // HttpURI(HttpURI, HttpURI) copies scheme, host and port from one
        // and the rest from the other: no resolution, pairs are out of its
        // domain.
        resolves: false,
        install: "apt-get install default-jdk-headless libjetty9-java",
        // None: HttpURI's class documentation (Jetty 9.4) says it will "Parse
        // an HTTP URI from a string or byte array" and "split it into the
        // following optional elements", and that its approach "is somewhat
        // contrary to RFC3986": it claims no standard.
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Java,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Java,
            prelude: "",
            parse: "org.eclipse.jetty.http.HttpURI u = new org.eclipse.jetty.http.HttpURI({input});",
            resolve: None,
            // "Bad authority", and a port that is no number
            // (NumberFormatException is one).
            refusal: "IllegalArgumentException",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.getScheme()"),
                userinfo: Some("u.getUser()"),
                host: Some("u.getHost()"),
                port: Some("(u.getPort() == -1 ? null : String.valueOf(u.getPort()))"),
                path: Some("u.getPath()"),
                query: Some("u.getQuery()"),
                fragment: Some("u.getFragment()"),
            },
        }),
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
        unset: &[],
        libraries: &[("urllib3", "{cache}/python/urllib3/__init__.py")],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // urllib3 has no resolution function: pairs are out of its domain.
        resolves: false,
        install: SETUP,
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Python,
            prelude: "from urllib3.util import parse_url",
            parse: "u = parse_url({input})",
            resolve: None,
            // urllib3's LocationParseError is a ValueError.
            refusal: "ValueError",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.scheme"),
                userinfo: Some("u.auth"),
                host: Some("u.host"),
                port: Some("u.port"),
                path: Some("u.path"),
                query: Some("u.query"),
                fragment: Some("u.fragment"),
            },
        }),
    },
    Shipped {
        name: "node-url",
        files: &[
            (
                "node-url.cjs",
                include_str!("../../../adapters/node-url.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        runtimes: &["node"],
        command: &["node", "{dir}/node-url.cjs"],
        env: &[],
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // Node's legacy url.resolve.
        resolves: true,
        install: "apt-get install nodejs npm",
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::JavaScript,
            prelude: "const url = require(\"node:url\");",
            parse: "const u = url.parse({input});",
            resolve: Some("const u = url.parse(url.resolve({base}, {input}));"),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: None,
                userinfo: Some("u.auth"),
                host: Some("u.hostname"),
                port: Some("u.port"),
                path: Some("u.pathname"),
                query: Some("u.query"),
                fragment: None,
            },
        }),
    },
    Shipped {
        name: "whatwg-url",
        files: &[
            (
                "whatwg-url.cjs",
                include_str!("../../../adapters/whatwg-url.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        runtimes: &["node"],
        command: &["node", "{dir}/whatwg-url.cjs"],
        // By absolute path: a bare name would be looked for in every
        // node_modules above the adapter's file first.
        env: &[("URIDIFF_WHATWG_URL", "{cache}/node/node_modules/whatwg-url")],
        unset: &[],
        libraries: &[(
            "whatwg-url",
            "{cache}/node/node_modules/whatwg-url/package.json",
        )],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // The URL Standard's basic URL parser with a base.
        resolves: true,
        install: SETUP,
        // The URL Standard's reference implementation (it is the reference).
        standard: Some(Standard::Whatwg),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: true,
        reproduce: None,
    },
    Shipped {
        name: "fast-uri",
        files: &[
            (
                "fast-uri.cjs",
                include_str!("../../../adapters/fast-uri.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        runtimes: &["node"],
        command: &["node", "{dir}/fast-uri.cjs"],
        // By absolute path, as whatwg-url: one variable per package, so
        // that each adapter names the one directory it loads.
        env: &[("URIDIFF_FAST_URI", "{cache}/node/node_modules/fast-uri")],
        unset: &[],
        libraries: &[(
            "fast-uri",
            "{cache}/node/node_modules/fast-uri/package.json",
        )],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // fastUri.resolve(base, reference).
        resolves: true,
        install: SETUP,
        // Its README and package description: "Dependency-free RFC 3986 URI
        // toolbox".
        standard: Some(Standard::Rfc3986),
        // Forked from uri-js (its LICENSE: "Copyright (c) 2011-2021, Gary
        // Court until" a uri-js commit): one implementation when a majority
        // decides.
        lineage: Some("uri-js"),
        // Node's http connects through getaddrinfo.
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[
            (
                HostReading::ZoneDecoded,
                "fast-uri types/index.d.ts, URIComponent.ipv6Zone (parse writes a zoned host in \"the ambiguous single-`%` form\"); test/ipv6-validation.test.js (`http://[fe80::a%25eth%2D0]/` has host `fe80::a%eth%2D0`)",
            ),
            (
                HostReading::DomainWhatwg(&["http", "https", "ws", "wss"]),
                "fast-uri README, Options (\"schemes with domain hosts (`http`, `https`, `ws`, `wss` ...)\"; `domainHost`: \"treat the `host` component as a domain name, and convert IDNs\"); index.js canonicalizeHost (the host through `new URL('http://' + host).hostname`)",
            ),
        ],
        // The adapter's note "error:" and the text of parse's `error`.
        flag_note: Some((
            "error:",
            "fast-uri README, Options (\"Malformed authorities, out-of-range ports, and raw leading or trailing C0 controls or spaces (U+0000-U+0020) are reported through the parsed component's `error` field\"; \"`resolve()` rejects them\")",
        )),
        reference: false,
        // The components as the adapter reports them: undefined is null, a
        // port is a number, an IPv6 host comes without its brackets.
        reproduce: Some(Reproduce {
            language: Language::JavaScript,
            prelude: "const fastUri = require(\"fast-uri\");",
            parse: "const u = fastUri.parse({input});",
            resolve: Some("const u = fastUri.parse(fastUri.resolve({base}, {input}));"),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.scheme ?? null"),
                userinfo: Some("u.userinfo ?? null"),
                host: Some(
                    "(u.host?.includes(\":\") && !u.host.startsWith(\"[\") ? \"[\" + u.host + \"]\" : u.host ?? null)",
                ),
                port: Some("(u.port === undefined ? null : String(u.port))"),
                path: Some("u.path ?? null"),
                query: Some("u.query ?? null"),
                fragment: Some("u.fragment ?? null"),
            },
        }),
    },
    Shipped {
        name: "uri-js",
        files: &[
            ("uri-js.cjs", include_str!("../../../adapters/uri-js.cjs")),
            NODE_PROTOCOL,
        ],
        runtimes: &["node"],
        command: &["node", "{dir}/uri-js.cjs"],
        env: &[("URIDIFF_URI_JS", "{cache}/node/node_modules/uri-js")],
        unset: &[],
        libraries: &[("uri-js", "{cache}/node/node_modules/uri-js/package.json")],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // URI.resolve(base, reference).
        resolves: true,
        install: SETUP,
        // Its README: "URI.js is an RFC 3986 compliant, scheme extendable URI
        // parsing/validating/resolving library".
        standard: Some(Standard::Rfc3986),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[
            (
                HostReading::ZoneDecoded,
                "uri-js README, IP Support (\"IPv6 zone identifier support\": `URI.parse(\"//[2001:db8::7%25en1]\")` returns host `2001:db8::7%en1`)",
            ),
            (
                HostReading::DomainPunycode(&["http", "https", "ws", "wss"]),
                "uri-js README, Options (`domainHost`: \"treat the `host` component as a domain name, and convert IDNs (International Domain Names) as per RFC 5891\"), set by its http, https, ws and wss scheme handlers (dist/es5/uri.all.js: `punycode.toASCII` of the percent-decoded, lower-cased host)",
            ),
        ],
        flag_note: Some((
            "error:",
            "uri-js dist/es5/uri.all.d.ts, URIComponents.error (parse sets it, as \"URI can not be parsed.\" or \"HTTP URIs must have a host.\", and still returns the components)",
        )),
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::JavaScript,
            prelude: "const URI = require(\"uri-js\");",
            parse: "const u = URI.parse({input});",
            resolve: Some("const u = URI.parse(URI.resolve({base}, {input}));"),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.scheme ?? null"),
                userinfo: Some("u.userinfo ?? null"),
                host: Some(
                    "(u.host?.includes(\":\") && !u.host.startsWith(\"[\") ? \"[\" + u.host + \"]\" : u.host ?? null)",
                ),
                port: Some("(u.port === undefined ? null : String(u.port))"),
                path: Some("u.path ?? null"),
                query: Some("u.query ?? null"),
                fragment: Some("u.fragment ?? null"),
            },
        }),
    },
    Shipped {
        name: "url-parse",
        files: &[
            (
                "url-parse.cjs",
                include_str!("../../../adapters/url-parse.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        runtimes: &["node"],
        command: &["node", "{dir}/url-parse.cjs"],
        // Its dependencies (querystringify, requires-port) are found beside
        // it in the cache's node_modules.
        env: &[("URIDIFF_URL_PARSE", "{cache}/node/node_modules/url-parse")],
        unset: &[],
        libraries: &[(
            "url-parse",
            "{cache}/node/node_modules/url-parse/package.json",
        )],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // new Url(reference, base): the README's baseURL argument, "the base
        // URL to use in case `url` is a relative URL".
        resolves: true,
        install: SETUP,
        // None: its README says of `host` "The hostname might be invalid"
        // and of `hostname` "This might be an invalid hostname": it splits,
        // it does not validate.
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        // Its properties hold "" for an absent component; the adapter
        // reports null, and the query and fragment without '?' and '#'.
        reproduce: Some(Reproduce {
            language: Language::JavaScript,
            prelude: "const Url = require(\"url-parse\");",
            parse: "const u = new Url({input}, {});",
            resolve: Some("const u = new Url({input}, {base});"),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("(u.protocol === \"\" ? null : u.protocol.slice(0, -1))"),
                userinfo: Some("(u.auth === \"\" ? null : u.auth)"),
                host: Some("(u.protocol !== \"\" && u.slashes ? u.hostname : null)"),
                port: Some("(u.port === \"\" ? null : u.port)"),
                path: Some("u.pathname"),
                query: Some("(u.query === \"\" ? null : u.query.slice(1))"),
                fragment: Some("(u.hash === \"\" ? null : u.hash.slice(1))"),
            },
        }),
    },
    Shipped {
        name: "go-net-url",
        files: &[
            (
                "go-net-url.go",
                include_str!("../../../adapters/go-net-url.go"),
            ),
            GO_MOD,
        ],
        runtimes: &[],
        command: &["{cache}/go/go-net-url-{hash}"],
        env: &[],
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: Some(go_build("{cache}/go/go-net-url-{hash}")),
        // net/url's URL.ResolveReference.
        resolves: true,
        install: "apt-get install golang-go",
        standard: None,
        lineage: None,
        // net/url claims no standard, but Go fixed its acceptance of a
        // bracketed host that is no IPv6 literal (`cfg://adict[2]`) as
        // CVE-2025-47912 (Go 1.24.8 and 1.25.2): an older Go is held to it.
        held_to: &[SelfCheck::IpLiteral],
        resolver: Resolver::Go,
        host_readings: &[(
            HostReading::PercentDecoded,
            "Go net/url, parseHost (src/net/url/url.go): \"RFC 6874 defines that %25 (%-encoded percent) introduces the zone identifier, and the zone identifier can use basically any %-encoding it likes\", then `unescape(host, encodeHost)`; URL.Host holds the host so decoded (url.Parse(\"http://[fe80::1%25en0]/\").Host is \"[fe80::1%en0]\", its String() gives the input back)",
        )],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Go,
            prelude: "\"net/url\"",
            parse: "u, err := url.Parse({input})",
            resolve: Some(
                "base, err := url.Parse({base})
	if err != nil { log.Fatal(err) }
	ref, err := url.Parse({input})
	if err != nil { log.Fatal(err) }
	u := base.ResolveReference(ref)",
            ),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("u.Scheme"),
                userinfo: None,
                host: Some("u.Hostname()"),
                port: Some("u.Port()"),
                path: Some("u.EscapedPath()"),
                query: Some("u.RawQuery"),
                fragment: Some("u.EscapedFragment()"),
            },
        }),
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
        unset: &[],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // PHP has no resolver: pairs are out of its domain.
        resolves: false,
        install: "apt-get install php-cli",
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Php,
            prelude: "",
            parse: "$u = parse_url({input});",
            resolve: None,
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("$u['scheme'] ?? null"),
                userinfo: None,
                host: Some("$u['host'] ?? null"),
                port: None,
                path: Some("$u['path'] ?? null"),
                query: Some("$u['query'] ?? null"),
                fragment: Some("$u['fragment'] ?? null"),
            },
        }),
    },
    Shipped {
        name: "ruby-uri",
        files: &[("ruby-uri.rb", include_str!("../../../adapters/ruby-uri.rb"))],
        runtimes: &["ruby"],
        command: &["ruby", "{dir}/ruby-uri.rb"],
        env: &[],
        // Ruby reads code to load from these (RUBYOPT=-r…), as for
        // ruby-addressable.
        unset: &[
            "RUBYOPT",
            "RUBYLIB",
            "RUBYGEMS_GEMDEPS",
            "GEM_HOME",
            "GEM_PATH",
        ],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // URI.join (URI::RFC3986_Parser, Ruby's default).
        resolves: true,
        install: "apt-get install ruby",
        // URI::RFC3986_Parser (Ruby's documentation: "Parses a URI according to RFC 3986").
        standard: Some(Standard::Rfc3986),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Ruby,
            prelude: "require \"uri\"",
            parse: "u = URI.parse({input})",
            resolve: Some("u = URI.join({base}, {input})"),
            refusal: "URI::InvalidURIError",
            refusal_probe: "",
            accessors: RUBY_URI_ACCESSORS,
        }),
    },
    Shipped {
        name: "ruby-uri-rfc2396",
        files: &[("ruby-uri.rb", include_str!("../../../adapters/ruby-uri.rb"))],
        runtimes: &["ruby"],
        command: &["ruby", "{dir}/ruby-uri.rb", "rfc2396"],
        env: &[],
        // Ruby reads code to load from these (RUBYOPT=-r…), as for
        // ruby-addressable.
        unset: &[
            "RUBYOPT",
            "RUBYLIB",
            "RUBYGEMS_GEMDEPS",
            "GEM_HOME",
            "GEM_PATH",
        ],
        libraries: &[],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // URI::RFC2396_Parser's own merge.
        resolves: true,
        install: "apt-get install ruby",
        // URI::RFC2396_Parser: "Class that parses String's into URI's" per RFC 2396.
        standard: Some(Standard::Rfc2396),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Ruby,
            prelude: "require \"uri\"",
            parse: "u = URI::RFC2396_Parser.new.parse({input})",
            resolve: Some(
                "p = URI::RFC2396_Parser.new
u = p.parse({base}).merge(p.parse({input}))",
            ),
            refusal: "URI::InvalidURIError",
            refusal_probe: "",
            accessors: RUBY_URI_ACCESSORS,
        }),
    },
    Shipped {
        name: "yarl",
        files: &[("yarl.py", include_str!("../../../adapters/yarl.py"))],
        runtimes: &["python3"],
        // -I: isolated from the user's environment and site directory; -S:
        // not the interpreter's site-packages either, so only the standard
        // library and the pinned libraries (URIDIFF_PYTHON_LIB, which the
        // adapter puts on sys.path itself) are loaded.
        command: &["python3", "-I", "-S", "{dir}/yarl.py"],
        env: &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
        unset: &[],
        libraries: &[
            ("yarl", "{cache}/python/yarl/__init__.py"),
            ("multidict", "{cache}/python/multidict/__init__.py"),
            ("propcache", "{cache}/python/propcache/__init__.py"),
            ("idna", "{cache}/python/idna/__init__.py"),
        ],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // yarl's URL.join, which aiohttp resolves a redirect with.
        resolves: true,
        install: SETUP,
        // None: yarl's documentation claims no standard to validate by; it
        // repairs what it is given ("Constructor and modification operators
        // perform encoding for all parts automatically", yarl's API docs,
        // class URL), as urllib3 does.
        standard: None,
        lineage: None,
        // aiohttp resolves a host with the event loop's getaddrinfo (glibc).
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Python,
            prelude: "from yarl import URL",
            parse: "u = URL({input})",
            resolve: Some("u = URL({base}).join(URL({input}))"),
            refusal: "ValueError",
            refusal_probe: "",
            // As the adapter reads them: raw_host (what aiohttp connects
            // to) with an IPv6 address's brackets, the port as written, an
            // empty query or fragment as none.
            accessors: Accessors {
                scheme: Some("(u.scheme or None)"),
                userinfo: Some(
                    "(u.raw_user if u.raw_password is None else f\"{u.raw_user or ''}:{u.raw_password}\")",
                ),
                host: Some(
                    "(f\"[{u.raw_host}]\" if \":\" in (u.raw_host or \"\") else u.raw_host)",
                ),
                port: Some("(None if u.explicit_port is None else str(u.explicit_port))"),
                path: Some("u.raw_path"),
                query: Some("(u.raw_query_string or None)"),
                fragment: Some("(u.raw_fragment or None)"),
            },
        }),
    },
    Shipped {
        name: "httpx",
        files: &[("httpx.py", include_str!("../../../adapters/httpx.py"))],
        runtimes: &["python3"],
        // -I -S as for yarl: `import httpx` tries click, pygments and rich,
        // which must not come from the machine's site-packages.
        command: &["python3", "-I", "-S", "{dir}/httpx.py"],
        env: &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
        unset: &[],
        libraries: &[
            ("httpx", "{cache}/python/httpx/__init__.py"),
            ("idna", "{cache}/python/idna/__init__.py"),
        ],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // httpx's URL.join.
        resolves: true,
        install: SETUP,
        // None: httpx's documentation claims no standard to validate by: a
        // URL is normalised, not refused ("A normalized, IDNA supporting
        // URL", httpx's URL documentation; httpx/_urlparse.py percent-encodes
        // what a component does not allow, with the URL Standard's
        // percent-encode sets, where RFC 3986 would refuse it).
        standard: None,
        lineage: None,
        // httpx connects through httpcore's socket.getaddrinfo (glibc).
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Python,
            prelude: "import httpx",
            parse: "u = httpx.URL({input})",
            resolve: Some("u = httpx.URL({base}).join({input})"),
            refusal: "httpx.InvalidURL",
            refusal_probe: "",
            // As the adapter reads them: the parsed components httpx.URL
            // keeps (`_uri_reference`), which keep an absent query or
            // fragment apart from an empty one; raw_host, what httpx's
            // transport connects to.
            accessors: Accessors {
                scheme: Some("(u.scheme or None)"),
                userinfo: Some("(u.userinfo.decode() or None)"),
                host: Some(
                    "(None if not u._uri_reference.authority else f\"[{u.raw_host.decode()}]\" if b\":\" in u.raw_host else u.raw_host.decode())",
                ),
                port: Some("(None if u.port is None else str(u.port))"),
                path: Some("u._uri_reference.path"),
                query: Some("u._uri_reference.query"),
                fragment: Some("u._uri_reference.fragment"),
            },
        }),
    },
    Shipped {
        name: "upa-url",
        files: &[("upa-url.py", include_str!("../../../adapters/upa-url.py"))],
        runtimes: &["python3"],
        // -I -S as for yarl.
        command: &["python3", "-I", "-S", "{dir}/upa-url.py"],
        env: &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
        unset: &[],
        libraries: &[("upa-url", "{cache}/python/upa_url/__init__.py")],
        packaged: &[],
        packages: &[],
        probe: None,
        build: None,
        // The URL Standard's API URL parser with a base (URL.parse(input, base)).
        resolves: true,
        install: SETUP,
        // upa-url's README (its PyPI description): "This package provides
        // Python bindings for the Upa URL library, which is compliant with
        // the WHATWG URL and URL Pattern standards". A peer
        // of url and ada; whatwg-url stays the reference that decides.
        standard: Some(Standard::Whatwg),
        // Its own implementation (Upa URL, C++): none of url's, ada's or
        // whatwg-url's lineage.
        lineage: None,
        // A Python service connects through socket.getaddrinfo (glibc).
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: Some(Reproduce {
            language: Language::Python,
            prelude: "from upa_url import URL",
            parse: "u = URL({input})",
            resolve: Some("u = URL({input}, {base})"),
            refusal: "RuntimeError",
            refusal_probe: "",
            // As the adapter reads them: the standard's getters, with a null
            // host, query or fragment told from an empty one by href.
            accessors: Accessors {
                scheme: Some("u.protocol[:-1]"),
                userinfo: Some(
                    "((u.username if not u.password else f\"{u.username}:{u.password}\") or None)",
                ),
                host: Some("(u.hostname if u.href[len(u.protocol):].startswith(\"//\") else None)"),
                port: Some("(u.port or None)"),
                path: Some("u.pathname"),
                query: Some("(u.search[1:] if \"?\" in u.href.partition(\"#\")[0] else None)"),
                fragment: Some("(u.hash[1:] if \"#\" in u.href else None)"),
            },
        }),
    },
    Shipped {
        name: "perl-uri",
        files: &[("perl-uri.pl", include_str!("../../../adapters/perl-uri.pl"))],
        runtimes: &["perl"],
        command: &["perl", "{dir}/perl-uri.pl"],
        env: &[],
        // Perl (5.26 on) has no `.` in @INC unless PERL_USE_UNSAFE_INC is
        // set; PERL5LIB and PERLLIB add directories before the system's,
        // PERL5OPT switches (`-MModule`), PERL_UNICODE and PERLIO the layers
        // of its standard streams. Without them perl reads only its own
        // library paths, and the adapter reads and writes bytes.
        unset: &[
            "PERL5LIB",
            "PERLLIB",
            "PERL5OPT",
            "PERL_USE_UNSAFE_INC",
            "PERL_UNICODE",
            "PERLIO",
        ],
        libraries: &[],
        packaged: &[],
        packages: &["liburi-perl"],
        probe: Some(("Perl's URI module", &["perl", "-MURI", "-e", "1"])),
        build: None,
        // URI->new_abs(input, base).
        resolves: true,
        install: "apt-get install perl liburi-perl",
        // None: perldoc URI says its objects "represent 'Uniform Resource
        // Identifier references' as specified in RFC 2396 (and updated by
        // RFC 2732)", but of its constructor: "Characters outside this set
        // are automatically escaped by the URI constructor": URI->new
        // refuses no input (it escapes what RFC 2396 does not allow and
        // splits the rest with regular expressions), so it claims no
        // standard its acceptances could be judged by.
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        // URI->new refuses nothing: a refusal is its dying. ->port puts
        // the scheme's default in place of a missing port; ->_port is the
        // port as written (perldoc URI names it for that). ->host takes an
        // IP literal's brackets off: the host is as an application reads
        // it. `use utf8`: the literals hold non-ASCII characters as they are.
        reproduce: Some(Reproduce {
            language: Language::Perl,
            prelude: "use strict;\nuse warnings;\nuse utf8;\nuse URI;",
            parse: "my $u = URI->new({input});",
            resolve: Some("my $u = URI->new_abs({input}, {base});"),
            refusal: "",
            refusal_probe: "",
            accessors: Accessors {
                scheme: Some("$u->scheme"),
                userinfo: Some("$u->userinfo"),
                host: Some("$u->host"),
                port: Some("$u->_port"),
                path: Some("$u->path"),
                query: Some("$u->query"),
                fragment: Some("$u->fragment"),
            },
        }),
    },
    Shipped {
        name: "ruby-addressable",
        files: &[(
            "ruby-addressable.rb",
            include_str!("../../../adapters/ruby-addressable.rb"),
        )],
        runtimes: &["ruby"],
        command: &["ruby", "{dir}/ruby-addressable.rb"],
        env: &[],
        // RUBYOPT (`-rlib`), RUBYLIB and RUBYGEMS_GEMDEPS (a Gemfile to
        // load) would load code of the caller's choosing; GEM_HOME and
        // GEM_PATH would make RubyGems look for Addressable elsewhere. The
        // adapter takes the user's own gem directory off the path itself.
        unset: &[
            "RUBYOPT",
            "RUBYLIB",
            "RUBYGEMS_GEMDEPS",
            "GEM_HOME",
            "GEM_PATH",
        ],
        libraries: &[],
        packaged: &[],
        packages: &["ruby-addressable", "ruby-public-suffix"],
        // As the adapter loads it: RubyGems without the user's directory.
        probe: Some((
            "Ruby's Addressable gem",
            &[
                "ruby",
                "-e",
                "Gem.use_paths(Gem.default_dir, Gem.default_path - [Gem.user_dir]); require \"addressable/uri\"",
            ],
        )),
        build: None,
        // Addressable::URI.join (RFC 3986 section 5.2).
        resolves: true,
        install: "apt-get install ruby ruby-addressable",
        // Addressable's README: "Addressable closely conforms to RFC 3986,
        // RFC 3987, and RFC 6570 (level 4)", and Addressable::URI's class
        // documentation: "an implementation of a URI parser based on RFC
        // 3986, RFC 3987". RFC 3986 is the syntax its parse implements
        // (Appendix B's expression, section 5.2's resolution); RFC 3987 is
        // the IRI extension of that same syntax (non-ASCII characters
        // where RFC 3986 allows unreserved ones), which no oracle here
        // implements: judged by RFC 3986, with what RFC 3987 adds as its
        // documented reading.
        standard: Some(Standard::Rfc3986),
        lineage: None,
        held_to: &[],
        resolver: Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        // Addressable's #port is an Integer (a written "080" reads 80): not
        // asserted.
        reproduce: Some(Reproduce {
            language: Language::Ruby,
            prelude: "require \"addressable/uri\"",
            parse: "u = Addressable::URI.parse({input})",
            resolve: Some("u = Addressable::URI.join({base}, {input})"),
            refusal: "Addressable::URI::InvalidURIError",
            refusal_probe: "",
            accessors: RUBY_URI_ACCESSORS,
        }),
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

/// Is the shipped adapter `name` its standard's reference (see
/// `Shipped::reference`)? False for another name.
pub fn shipped_is_reference(name: &str) -> bool {
    find(name).is_some_and(|s| s.reference)
}

/// The implementation the shipped adapter `name`'s library derives from,
/// if its row names one (`Shipped::lineage`).
pub fn shipped_lineage(name: &str) -> Option<&'static str> {
    find(name).and_then(|s| s.lineage)
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
    fn missing(&self, cache: Result<&Root, &CacheRootError>) -> Option<Missing> {
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
        for (package, path) in self.packaged {
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
        let said = super::process::run_to_end(query, Some(Path::new(dir)))
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
        let built = super::process::run_to_end(command, Some(Path::new(fill.dir)))
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

    /// The variables a row unsets are removed from the command it runs
    /// (whatever the caller's environment holds), and those it sets are
    /// set; Perl's and Ruby's code-loading variables are among the unset.
    #[test]
    fn a_rows_unset_variables_never_reach_it() {
        let row = Shipped {
            name: "unsets",
            files: &[("a.txt", "")],
            runtimes: &[],
            command: &["sh", "{dir}/a.txt"],
            env: &[("X_SET", "1")],
            unset: &["X_GONE", "PERL5OPT"],
            libraries: &[],
            packaged: &[],
            packages: &[],
            probe: None,
            build: None,
            resolves: false,
            install: "",
            standard: None,
            lineage: None,
            held_to: &[],
            resolver: Resolver::Glibc,
            host_readings: &[],
            flag_note: None,
            reference: false,
            reproduce: None,
        };
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
        let row = Shipped {
            name: "probed",
            files: &[("a.txt", "")],
            runtimes: &["sh"],
            command: &["sh", "{dir}/a.txt"],
            env: &[],
            unset: &["HOME"],
            libraries: &[],
            packaged: &[],
            packages: &[],
            // Passes only when HOME is not passed on.
            probe: Some(("a library", &["sh", "-c", "test -z \"${HOME+set}\""])),
            build: None,
            resolves: false,
            install: "apt-get install a-library",
            standard: None,
            lineage: None,
            held_to: &[],
            resolver: Resolver::Glibc,
            host_readings: &[],
            flag_note: None,
            reference: false,
            reproduce: None,
        };
        assert_eq!(row.missing(Ok(&root)), None);
        let failing = Shipped {
            probe: Some(("a library", &["sh", "-c", "exit 1"])),
            ..row
        };
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
        let row = Shipped {
            name: "built",
            files: &[(
                "build.py",
                "import os, sys\n\
                 here = os.path.dirname(os.path.abspath(sys.argv[0]))\n\
                 assert os.getcwd() == here, os.getcwd()\n\
                 assert os.environ.get('X_SET') == '1', dict(os.environ)\n\
                 assert 'CARGO_MANIFEST_DIR' not in os.environ, dict(os.environ)\n\
                 open(sys.argv[1], 'w').write('#!/bin/sh\\necho built\\n')\n\
                 os.chmod(sys.argv[1], 0o755)\n",
            )],
            runtimes: &[],
            command: &["{cache}/bin/built-{hash}"],
            env: &[("X_PATH", "{cache}/x")],
            unset: &[],
            libraries: &[],
            packaged: &[],
            packages: &[],
            probe: None,
            build: Some(Build {
                output: "{cache}/bin/built-{hash}",
                command: &["python3", "{dir}/build.py", "{output}"],
                toolchain: &["python3", "-c", "print('toolchain 1')"],
                keep: &["PATH"],
                set: &[("X_SET", "1")],
                scratch_cache: None,
            }),
            resolves: true,
            install: "apt-get install python3",
            standard: None,
            lineage: None,
            held_to: &[],
            resolver: Resolver::Glibc,
            host_readings: &[],
            flag_note: None,
            reference: false,
            reproduce: None,
        };
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
