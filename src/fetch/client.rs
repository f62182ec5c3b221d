//! The HTTP clients: [`ClientInfo`] rows, and [`Client`], which runs one.

use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::Mode;
use super::token::Token;
use crate::oracle::external::process::{self, Event, Process};
use crate::oracle::external::shipped::{GO_MOD, Prepare, SETUP, Shipped, go_build};

/// One HTTP client: a row of [`clients`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo {
    /// The client's id: `libcurl`, `urllib3`, `urllib.request`,
    /// `requests`, `httpx`, `aiohttp`, `node-http-url-parse`,
    /// `node-http-new-url`, `go-net-http`, `node-fetch`, `ruby-net-http`,
    /// `ruby-open-uri`, `php-file-get-contents`, `php-curl`,
    /// `java-httpclient`, `java-httpurlconnection`.
    pub id: &'static str,
    /// The id of the uridiff oracle whose reading of the URL it shares;
    /// `None` when uridiff has no oracle of its parser.
    pub parser: Option<&'static str>,
    /// The library call that fetches.
    pub code_path: &'static str,
    /// Does it carry the in-client guard ([`crate::fetch`]), so that it
    /// may run outside a network namespace ([`super::Mode::Guard`])? The
    /// others run only in [`super::Mode::Namespace`].
    pub guarded: bool,
}

const fn row(
    id: &'static str,
    parser: Option<&'static str>,
    code_path: &'static str,
    guarded: bool,
) -> ClientInfo {
    ClientInfo {
        id,
        parser,
        code_path,
        guarded,
    }
}

const LIBCURL: ClientInfo = row(
    "libcurl",
    Some("curl"),
    "libcurl easy API: curl_easy_perform",
    true,
);
const URLLIB3: ClientInfo = row(
    "urllib3",
    Some("urllib3"),
    "urllib3.PoolManager().request('GET', url, redirect=False, retries=False)",
    true,
);
const URLLIB_REQUEST: ClientInfo = row(
    "urllib.request",
    Some("python-urllib"),
    "urllib.request.OpenerDirector.open(url) (build_opener's http handlers, ProxyHandler({}), no redirects)",
    true,
);
// requests prepares the URL with urllib3.util.parse_url
// (PreparedRequest.prepare_url), then re-quotes it (requote_uri) and sends
// it through urllib3's pool: the urllib3 oracle's parser, with requests'
// own steps after it.
const REQUESTS: ClientInfo = row(
    "requests",
    Some("urllib3"),
    "requests.Session().get(url, allow_redirects=False) (trust_env off)",
    false,
);
// httpx.URL (httpx/_urlparse.py): the httpx oracle's parser.
const HTTPX: ClientInfo = row(
    "httpx",
    Some("httpx"),
    "httpx.Client(follow_redirects=False).get(url) (sync, trust_env off)",
    false,
);
// ClientSession builds every request URL with yarl.URL(str_or_url).
const AIOHTTP: ClientInfo = row(
    "aiohttp",
    Some("yarl"),
    "aiohttp.ClientSession().get(url, allow_redirects=False) (trust_env off)",
    false,
);
const NODE_URL_PARSE: ClientInfo = row(
    "node-http-url-parse",
    Some("node-url"),
    "http.get(url.parse(input))",
    true,
);
// Node's URL is its bundled Ada.
const NODE_NEW_URL: ClientInfo = row(
    "node-http-new-url",
    Some("ada"),
    "http.get(new URL(input))",
    true,
);
const GO_NET_HTTP: ClientInfo = row(
    "go-net-http",
    Some("go-net-url"),
    "net/http Client.Get",
    true,
);
// undici parses with Node's URL (Ada).
const NODE_FETCH: ClientInfo = row(
    "node-fetch",
    Some("ada"),
    "fetch(input, {redirect: 'manual'}) (Node's global fetch, undici)",
    false,
);
// URI(input) is URI::RFC3986_Parser, the ruby-uri oracle's parser.
const RUBY_NET_HTTP: ClientInfo = row(
    "ruby-net-http",
    Some("ruby-uri"),
    "Net::HTTP.start(uri.hostname, uri.port).request_get(URI(input))",
    false,
);
const RUBY_OPEN_URI: ClientInfo = row(
    "ruby-open-uri",
    Some("ruby-uri"),
    "URI.open(input, redirect: false, proxy: false)",
    false,
);
// PHP's http:// stream wrapper splits the URL with php_url_parse_ex, the
// function behind parse_url.
const PHP_FILE_GET_CONTENTS: ClientInfo = row(
    "php-file-get-contents",
    Some("php-parse-url"),
    "file_get_contents(input, false, stream_context_create(['http' => ['follow_location' => 0]]))",
    false,
);
const PHP_CURL: ClientInfo = row(
    "php-curl",
    Some("curl"),
    "curl_init(); CURLOPT_URL input; curl_exec (PHP's curl extension, Debian's libcurl)",
    false,
);
const JAVA_HTTPCLIENT: ClientInfo = row(
    "java-httpclient",
    Some("java-uri"),
    "HttpClient.send(HttpRequest.newBuilder(URI.create(input)))",
    false,
);
// new URL(input): java.net.URL's parser, the shipped adapter java-url.
const JAVA_HTTPURLCONNECTION: ClientInfo = row(
    "java-httpurlconnection",
    Some("java-url"),
    "new URL(input).openConnection(Proxy.NO_PROXY).getResponseCode()",
    false,
);

#[cfg(feature = "curl")]
static CLIENTS: [ClientInfo; 16] = [
    LIBCURL,
    URLLIB3,
    URLLIB_REQUEST,
    REQUESTS,
    HTTPX,
    AIOHTTP,
    NODE_URL_PARSE,
    NODE_NEW_URL,
    GO_NET_HTTP,
    NODE_FETCH,
    RUBY_NET_HTTP,
    RUBY_OPEN_URI,
    PHP_FILE_GET_CONTENTS,
    PHP_CURL,
    JAVA_HTTPCLIENT,
    JAVA_HTTPURLCONNECTION,
];
#[cfg(not(feature = "curl"))]
static CLIENTS: [ClientInfo; 15] = [
    URLLIB3,
    URLLIB_REQUEST,
    REQUESTS,
    HTTPX,
    AIOHTTP,
    NODE_URL_PARSE,
    NODE_NEW_URL,
    GO_NET_HTTP,
    NODE_FETCH,
    RUBY_NET_HTTP,
    RUBY_OPEN_URI,
    PHP_FILE_GET_CONTENTS,
    PHP_CURL,
    JAVA_HTTPCLIENT,
    JAVA_HTTPURLCONNECTION,
];

/// Every client this build can run (libcurl with the `curl` feature).
pub fn clients() -> &'static [ClientInfo] {
    &CLIENTS
}

/// The guarded clients ([`ClientInfo::guarded`]) that read URLs with the
/// oracle `parser`: those `bypass --confirm` runs, outside any namespace.
pub fn clients_for(parser: &str) -> Vec<&'static ClientInfo> {
    CLIENTS
        .iter()
        .filter(|c| c.guarded && c.parser == Some(parser))
        .collect()
}

/// The programs behind the process clients: the same machinery as the
/// shipped oracles (sources embedded, written to a temporary directory, Go
/// built once into the cache). One constructor, so that a field added to
/// [`Shipped`] is filled in one place.
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
        name,
        files,
        runtimes,
        command,
        env,
        libraries,
        unset: &[],
        debian: &[],
        probe: None,
        build,
        resolves: false,
        install,
        standard: None,
        lineage: None,
        held_to: &[],
        resolver: crate::oracle::external::shipped::Resolver::Glibc,
        host_readings: &[],
        flag_note: None,
        reference: false,
        reproduce: None,
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

fn program(id: &str) -> Option<&'static Shipped> {
    static PROGRAMS: [(&str, Shipped); 15] = [
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
    ];
    PROGRAMS.iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}

/// Proxy settings the clients must never see (each client ignores proxies
/// in its own way too; these go so that no library reads them).
const PROXY_VARIABLES: [&str; 10] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
    "NODE_OPTIONS",
    "NODE_USE_ENV_PROXY",
];

/// The longest line read from a client process.
const LINE_LIMIT: usize = 64 * 1024;

/// How much longer than a request's own timeout its answer may take (the
/// runtime's own work around the request).
const GRACE: Duration = Duration::from_secs(5);

/// One fetch: the URL, where every connection goes, and the names it may
/// use.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The URL, given to the client as it is.
    pub url: &'a str,
    /// The trap's port: every connection goes there, whatever the URL says.
    pub port: u16,
    /// Host names and the address each stands for; any other name is
    /// refused, never looked up.
    pub hosts: &'a [(&'a str, IpAddr)],
    /// The time limit of the request.
    pub timeout: Duration,
    /// The request's token, sent in the header [`super::TOKEN_HEADER`] (a fresh
    /// one per request: [`super::Tokens::next_token`]).
    pub token: &'a Token,
}

/// What a client did with one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer {
    /// The address the client connected to (after the guard allowed it).
    pub dialled: Option<IpAddr>,
    /// Why the guard refused to dial (non-loopback address, unmapped name, ...).
    pub refused: Option<String>,
    /// The client's own error (refused URL, timeout, ...).
    pub error: Option<String>,
    /// The HTTP status, when a response came.
    pub status: Option<u16>,
}

/// An answer line of a client process.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    dialled: Option<String>,
    refused: Option<String>,
    error: Option<String>,
    status: Option<u16>,
}

/// A running client.
#[derive(Debug)]
pub struct Client {
    info: &'static ClientInfo,
    mode: Mode,
    inner: Inner,
    errors: Vec<String>,
}

#[derive(Debug)]
enum Inner {
    /// libcurl, in this process.
    #[cfg(feature = "curl")]
    Curl(Mode),
    /// A client process; `None` once it failed (and was killed).
    Process {
        process: Option<Process>,
        lines: VecDeque<Vec<u8>>,
    },
}

impl Client {
    /// Starts the client: a process for Python, Node and Go (waiting at
    /// most `timeout` for its first line, which says it loaded its
    /// library), nothing for libcurl, which runs in this process.
    ///
    /// # Errors
    /// A missing runtime or library (with the command that installs it), a
    /// build that fails, a process that exits or says nothing in time.
    pub fn start(info: &'static ClientInfo, timeout: Duration) -> Result<Client, String> {
        Client::start_in(info, timeout, Mode::Guard)
    }

    /// Starts the client for `mode`: in [`Mode::Namespace`] without its
    /// guard (the process gets `URIDIFF_FETCH_MODE=namespace`), which only
    /// a process in uridiff's network namespace may do
    /// ([`super::netns::enter`]).
    ///
    /// # Errors
    /// As [`Client::start`]; and a client without a guard
    /// ([`ClientInfo::guarded`]) in [`Mode::Guard`].
    pub fn start_in(
        info: &'static ClientInfo,
        timeout: Duration,
        mode: Mode,
    ) -> Result<Client, String> {
        if mode == Mode::Guard && !info.guarded {
            return Err(format!(
                "{}: runs only in a network namespace of its own (uridiff fetch as root): it has no in-client guard",
                info.id
            ));
        }
        #[cfg(feature = "curl")]
        if info.id == LIBCURL.id {
            return Ok(Client {
                info,
                mode,
                inner: Inner::Curl(mode),
                errors: Vec::new(),
            });
        }
        let Some(row) = program(info.id) else {
            return Err(format!(
                "no client {} in this build ({} needs the `curl` feature)",
                info.id, LIBCURL.id
            ));
        };
        let process = row
            .start(|mut command: Command, dir| {
                for variable in PROXY_VARIABLES {
                    command.env_remove(variable);
                }
                if mode == Mode::Namespace {
                    command.env("URIDIFF_FETCH_MODE", "namespace");
                }
                process::spawn_command(command, Some(dir), row.name, LINE_LIMIT)
            })
            .map_err(|e| match e {
                Prepare::Missing(detail) => format!("{}: {detail}", info.id),
                Prepare::Io(doing, source) => {
                    format!("{}: {doing} ({}): {source}", info.id, row.display())
                }
                Prepare::Cache(e) => format!("{}: {e}", info.id),
            })?;
        let mut client = Client {
            info,
            mode,
            inner: Inner::Process {
                process: Some(process),
                lines: VecDeque::new(),
            },
            errors: Vec::new(),
        };
        let hello = client.next_line(Instant::now() + timeout)?;
        let hello: serde_json::Value = serde_json::from_slice(&hello)
            .map_err(|e| format!("{}: its first line is not JSON: {e}", info.id))?;
        if hello
            .get("uridiff_fetch")
            .and_then(serde_json::Value::as_u64)
            != Some(1)
        {
            return Err(format!(
                "{}: its first line is no fetch hello: {hello}",
                info.id
            ));
        }
        Ok(client)
    }

    /// The client's row.
    pub fn info(&self) -> &'static ClientInfo {
        self.info
    }

    /// Fetches one URL.
    ///
    /// # Errors
    /// The client process failed: it exited, wrote something that is no
    /// answer, or did not answer within the request's timeout and a grace
    /// (it is killed then, and every later fetch fails at once).
    pub fn fetch(&mut self, request: &Request<'_>) -> Result<Answer, String> {
        match &mut self.inner {
            #[cfg(feature = "curl")]
            Inner::Curl(mode) => Ok(fetch_curl(request, *mode)),
            Inner::Process { .. } => self.fetch_process(request),
        }
    }

    fn fetch_process(&mut self, request: &Request<'_>) -> Result<Answer, String> {
        let hosts: BTreeMap<&str, String> = request
            .hosts
            .iter()
            .map(|(name, ip)| (*name, ip.to_string()))
            .collect();
        let timeout_ms = u64::try_from(request.timeout.as_millis()).unwrap_or(u64::MAX);
        let line = match self.mode {
            Mode::Guard => serde_json::json!({
                "client": self.info.id,
                "url": request.url,
                "port": request.port,
                "hosts": hosts,
                "timeout_ms": timeout_ms,
                // Sent as the X-Uridiff-Token header (adapters/fetch/*).
                "token": request.token.as_str(),
            }),
            // In the namespace the client connects where it will: no port
            // to force, no names to map.
            Mode::Namespace => serde_json::json!({
                "client": self.info.id,
                "url": request.url,
                "timeout_ms": timeout_ms,
                "token": request.token.as_str(),
            }),
        };
        let mut bytes = line.to_string().into_bytes();
        bytes.push(b'\n');
        let sent = match &self.inner {
            Inner::Process {
                process: Some(p), ..
            } => p.send(bytes),
            _ => {
                return Err(format!(
                    "{}: stopped after an earlier failure",
                    self.info.id
                ));
            }
        };
        if !sent {
            return Err(self.fail("its input is closed".to_owned()));
        }
        let deadline = Instant::now() + request.timeout + GRACE;
        let line = self.next_line(deadline)?;
        let wire: Wire = serde_json::from_slice(&line).map_err(|e| {
            self.fail(format!(
                "not an answer ({e}): {}",
                String::from_utf8_lossy(&line)
            ))
        })?;
        let dialled = match wire.dialled {
            Some(text) => Some(
                text.parse::<IpAddr>()
                    .map_err(|_| self.fail(format!("dialled is no IP address: {text:?}")))?,
            ),
            None => None,
        };
        Ok(Answer {
            dialled,
            refused: wire.refused,
            error: wire.error,
            status: wire.status,
        })
    }

    /// The next line of the client process, waiting until `deadline`; on
    /// any failure the process is killed and the error kept.
    fn next_line(&mut self, deadline: Instant) -> Result<Vec<u8>, String> {
        loop {
            let (process, lines) = match &mut self.inner {
                Inner::Process { process, lines } => (process, lines),
                #[cfg(feature = "curl")]
                Inner::Curl(_) => return Err(format!("{}: not a process", self.info.id)),
            };
            if let Some(line) = lines.pop_front() {
                return Ok(line);
            }
            let Some(p) = process else {
                return Err(format!(
                    "{}: stopped after an earlier failure",
                    self.info.id
                ));
            };
            let problem = match p.next_event(Some(deadline)) {
                Ok(Event::Lines(more)) => {
                    lines.extend(more.into_iter().filter(|l| !l.is_empty()));
                    continue;
                }
                Ok(Event::Eof) => "it exited".to_owned(),
                Ok(Event::TooLong { limit }) => format!("a line longer than {limit} bytes"),
                Ok(Event::ReadFailed(e)) => format!("reading its output: {e}"),
                Ok(Event::WriteFailed(e)) => format!("writing its input: {e}"),
                Err(RecvTimeoutError::Timeout) => "no answer in time".to_owned(),
                Err(RecvTimeoutError::Disconnected) => "its output ended".to_owned(),
            };
            return Err(self.fail(problem));
        }
    }

    /// Kills the process, keeps the error (with its standard error's end)
    /// and returns it.
    fn fail(&mut self, problem: String) -> String {
        let mut message = format!("{}: {problem}", self.info.id);
        if let Inner::Process { process, .. } = &mut self.inner
            && let Some(mut p) = process.take()
        {
            p.kill();
            let tail = p.stderr_tail(Duration::from_millis(200));
            let tail = tail.trim_end();
            if !tail.is_empty() {
                message.push_str("; its standard error ends: ");
                message.push_str(tail);
            }
        }
        self.errors.push(message.clone());
        message
    }

    /// Stops the client and returns the errors seen, with the end of its
    /// standard error when its process fails at the end.
    pub fn finish(mut self) -> Vec<String> {
        if let Inner::Process { process, .. } = &mut self.inner
            && let Some(mut p) = process.take()
        {
            p.close_input();
            let status = p.wait_exit(Some(Instant::now() + Duration::from_secs(2)));
            if !status.is_some_and(|s| s.success()) {
                let tail = p.stderr_tail(Duration::from_millis(200));
                self.errors.push(format!(
                    "{}: did not exit cleanly after its input closed ({}){}",
                    self.info.id,
                    status.map_or_else(|| "killed".to_owned(), |s| s.to_string()),
                    if tail.trim().is_empty() {
                        String::new()
                    } else {
                        format!("; its standard error ends: {}", tail.trim_end())
                    }
                ));
            }
        }
        self.errors
    }
}

#[cfg(feature = "curl")]
fn fetch_curl(request: &Request<'_>, mode: Mode) -> Answer {
    let report = match mode {
        Mode::Guard => guarded_curl(request),
        Mode::Namespace => curl_url::easy::fetch_unguarded(
            request.url,
            request.timeout,
            &[(super::TOKEN_HEADER, request.token.as_str())],
        ),
    };
    match report {
        Ok(report) => Answer {
            dialled: report.dialled,
            refused: report.refused,
            error: report.error,
            status: report.status,
        },
        Err(e) => Answer {
            error: Some(e.to_string()),
            ..Answer::default()
        },
    }
}

#[cfg(feature = "curl")]
fn guarded_curl(request: &Request<'_>) -> Result<curl_url::easy::FetchReport, curl_url::Error> {
    let options = curl_url::easy::FetchOptions {
        port: request.port,
        hosts: request.hosts,
        timeout: request.timeout,
        headers: &[(super::TOKEN_HEADER, request.token.as_str())],
    };
    curl_url::easy::fetch(request.url, &options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_has_a_way_to_run() {
        for info in clients() {
            assert!(
                info.id == LIBCURL.id || program(info.id).is_some(),
                "{}",
                info.id
            );
        }
        assert_eq!(clients_for("go-net-url"), [&GO_NET_HTTP]);
        // node-fetch reads with Ada too, but has no guard.
        assert_eq!(clients_for("ada"), [&NODE_NEW_URL]);
        // requests reads with urllib3's parse_url, but has no guard: only
        // urllib3 confirms outside a namespace; httpx and yarl have
        // clients only in the namespace.
        assert_eq!(clients_for("urllib3"), [&URLLIB3]);
        assert!(clients_for("httpx").is_empty());
        assert!(clients_for("yarl").is_empty());
        for (id, parser) in [
            ("requests", "urllib3"),
            ("httpx", "httpx"),
            ("aiohttp", "yarl"),
        ] {
            let info = clients().iter().find(|c| c.id == id);
            assert_eq!(info.and_then(|c| c.parser), Some(parser), "{id}");
            assert!(info.is_some_and(|c| !c.guarded), "{id}");
        }
        let ids: Vec<&str> = clients().iter().map(|c| c.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        assert!(clients_for("url").is_empty());
        assert_eq!(cfg!(feature = "curl"), clients_for("curl") == [&LIBCURL]);
    }
}
