//! The programs behind the process clients: one [`Shipped`] row per
//! client, its files embedded.

use crate::oracle::external::shipped::{GO_MOD, SETUP, Shipped, go_build};

/// The programs behind the process clients: the same machinery as the
/// shipped oracles (sources embedded, written to a temporary directory, Go
/// built once into the cache). Built on [`Shipped::new`], so that a field
/// added to [`Shipped`] takes its default here.
#[allow(clippy::too_many_arguments)]
const fn program_row(
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    runtimes: &'static [&'static str],
    command: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    libraries: &'static [(&'static str, &'static str)],
    build: Option<crate::oracle::external::shipped::Build>,
    install: &'static str,
) -> Shipped {
    Shipped {
        env,
        libraries,
        build,
        ..Shipped::new(name, files, runtimes, command, install)
    }
}

const PY: &[(&str, &str)] = &[("fetch.py", include_str!("../../adapters/fetch/fetch.py"))];
// .cjs: CommonJS whatever a package.json above TMPDIR says.
const JS: &[(&str, &str)] = &[("fetch.cjs", include_str!("../../adapters/fetch/fetch.cjs"))];
const RB: &[(&str, &str)] = &[("fetch.rb", include_str!("../../adapters/fetch/fetch.rb"))];
const PHP: &[(&str, &str)] = &[("fetch.php", include_str!("../../adapters/fetch/fetch.php"))];
const JAVA: &[(&str, &str)] = &[(
    "Fetch.java",
    include_str!("../../adapters/fetch/Fetch.java"),
)];
const CHROMIUM_JS: &[(&str, &str)] = &[(
    "chromium.cjs",
    include_str!("../../adapters/fetch/chromium.cjs"),
)];
const NODE_INSTALL: &str = "apt-get install nodejs";
const RUBY_INSTALL: &str = "apt-get install ruby";
const JAVA_INSTALL: &str = "apt-get install default-jdk-headless";
/// The Java source launcher (JDK 11+) compiles the file at start; the
/// serial collector and the first JIT tier start fastest.
macro_rules! java_command {
    ($client:literal) => {
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "{dir}/Fetch.java",
            $client,
        ]
    };
}

/// Each process client's program, by client id.
static PROGRAMS: [(&str, Shipped); 16] = [
    (
        "urllib3",
        // -I: isolated from the user's environment and site directory;
        // the client puts URIDIFF_PYTHON_LIB, where the pinned urllib3
        // is, first on sys.path itself.
        program_row(
            "fetch-urllib3",
            PY,
            &["python3"],
            &["python3", "-I", "{dir}/fetch.py", "urllib3"],
            &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
            &[("urllib3", "{cache}/python/urllib3/__init__.py")],
            None,
            SETUP,
        ),
    ),
    (
        "urllib.request",
        // The standard library only: isolated from the user's environment.
        program_row(
            "fetch-urllib.request",
            PY,
            &["python3"],
            &["python3", "-I", "{dir}/fetch.py", "urllib.request"],
            &[],
            &[],
            None,
            "apt-get install python3",
        ),
    ),
    (
        "requests",
        // -S as well: no site-packages at all, so that no optional
        // import of these libraries (httpx's click and rich, aiohttp's
        // aiodns, which would replace its resolver) loads from the
        // machine; only the standard library and the pinned directory.
        program_row(
            "fetch-requests",
            PY,
            &["python3"],
            &["python3", "-I", "-S", "{dir}/fetch.py", "requests"],
            &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
            &[("requests", "{cache}/python/requests/__init__.py")],
            None,
            SETUP,
        ),
    ),
    (
        "httpx",
        program_row(
            "fetch-httpx",
            PY,
            &["python3"],
            &["python3", "-I", "-S", "{dir}/fetch.py", "httpx"],
            &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
            &[("httpx", "{cache}/python/httpx/__init__.py")],
            None,
            SETUP,
        ),
    ),
    (
        "aiohttp",
        program_row(
            "fetch-aiohttp",
            PY,
            &["python3"],
            &["python3", "-I", "-S", "{dir}/fetch.py", "aiohttp"],
            &[("URIDIFF_PYTHON_LIB", "{cache}/python")],
            &[("aiohttp", "{cache}/python/aiohttp/__init__.py")],
            None,
            SETUP,
        ),
    ),
    (
        "node-http-url-parse",
        program_row(
            "fetch-node-http-url-parse",
            JS,
            &["node"],
            &["node", "{dir}/fetch.cjs", "node-http-url-parse"],
            &[],
            &[],
            None,
            NODE_INSTALL,
        ),
    ),
    (
        "node-http-new-url",
        program_row(
            "fetch-node-http-new-url",
            JS,
            &["node"],
            &["node", "{dir}/fetch.cjs", "node-http-new-url"],
            &[],
            &[],
            None,
            NODE_INSTALL,
        ),
    ),
    (
        "go-net-http",
        program_row(
            "fetch-go-net-http",
            &[
                ("fetch.go", include_str!("../../adapters/fetch/fetch.go")),
                GO_MOD,
            ],
            &[],
            &["{cache}/go/fetch-{hash}", "go-net-http"],
            &[],
            &[],
            Some(go_build("{cache}/go/fetch-{hash}")),
            "apt-get install golang-go",
        ),
    ),
    (
        "node-fetch",
        program_row(
            "fetch-node-fetch",
            JS,
            &["node"],
            &["node", "{dir}/fetch.cjs", "node-fetch"],
            &[],
            &[],
            None,
            NODE_INSTALL,
        ),
    ),
    (
        "ruby-net-http",
        program_row(
            "fetch-ruby-net-http",
            RB,
            &["ruby"],
            &["ruby", "{dir}/fetch.rb", "ruby-net-http"],
            &[],
            &[],
            None,
            RUBY_INSTALL,
        ),
    ),
    (
        "ruby-open-uri",
        program_row(
            "fetch-ruby-open-uri",
            RB,
            &["ruby"],
            &["ruby", "{dir}/fetch.rb", "ruby-open-uri"],
            &[],
            &[],
            None,
            RUBY_INSTALL,
        ),
    ),
    (
        "php-file-get-contents",
        program_row(
            "fetch-php-file-get-contents",
            PHP,
            &["php"],
            &["php", "{dir}/fetch.php", "php-file-get-contents"],
            &[],
            &[],
            None,
            "apt-get install php-cli",
        ),
    ),
    (
        "php-curl",
        program_row(
            "fetch-php-curl",
            PHP,
            &["php"],
            &["php", "{dir}/fetch.php", "php-curl"],
            &[],
            &[],
            None,
            "apt-get install php-cli php-curl",
        ),
    ),
    (
        "java-httpclient",
        program_row(
            "fetch-java-httpclient",
            JAVA,
            &["java"],
            java_command!("java-httpclient"),
            &[],
            &[],
            None,
            JAVA_INSTALL,
        ),
    ),
    (
        "java-httpurlconnection",
        program_row(
            "fetch-java-httpurlconnection",
            JAVA,
            &["java"],
            java_command!("java-httpurlconnection"),
            &[],
            &[],
            None,
            JAVA_INSTALL,
        ),
    ),
    (
        "chromium",
        // Node drives Chromium over the DevTools pipe; both must be
        // on PATH (Debian's chromium: /usr/bin/chromium).
        program_row(
            "fetch-chromium",
            CHROMIUM_JS,
            &["node", "chromium"],
            &["node", "{dir}/chromium.cjs", "chromium"],
            &[],
            &[],
            None,
            "apt-get install nodejs chromium",
        ),
    ),
];

/// The program of the process client `id`.
pub(super) fn program(id: &str) -> Option<&'static Shipped> {
    PROGRAMS.iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}
