//! The client rows: [`ClientInfo`], one per HTTP client, and which of
//! them run where.

/// One HTTP client: a row of [`clients`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo {
    /// The client's id: `libcurl`, `urllib3`, `urllib.request`,
    /// `requests`, `httpx`, `aiohttp`, `node-http-url-parse`,
    /// `node-http-new-url`, `go-net-http`, `node-fetch`, `ruby-net-http`,
    /// `ruby-open-uri`, `php-file-get-contents`, `php-curl`,
    /// `java-httpclient`, `java-httpurlconnection`, `chromium`.
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
    /// Is it sent a trap page that redirects to the input (`302` with the
    /// input as its `Location`) rather than the input itself? Then what is
    /// observed is where it goes when a site redirects it there: the open
    /// redirect's fetcher ([`super::Observer::observe`]).
    pub follows_redirect: bool,
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
        follows_redirect: false,
    }
}

pub(super) const LIBCURL: ClientInfo = row(
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

// Chromium's URL parser is GURL, which uridiff has no oracle of (WHATWG
// in most respects; the url and ada oracles are the nearest). It is sent a
// trap page whose 302 names the input, and follows it: the redirect
// target is resolved against the page's URL, as a browser resolves any
// Location.
const CHROMIUM: ClientInfo = ClientInfo {
    follows_redirect: true,
    ..row(
        "chromium",
        None,
        "headless Chromium over the DevTools pipe: Page.navigate to a trap page answering 302 Location: input, followed",
        false,
    )
};

#[cfg(feature = "curl")]
static CLIENTS: [ClientInfo; 17] = [
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
    CHROMIUM,
];
#[cfg(not(feature = "curl"))]
static CLIENTS: [ClientInfo; 16] = [
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
    CHROMIUM,
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

#[cfg(test)]
mod tests {
    use super::super::programs::program;
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
        // Only Chromium is sent a redirect, and only in the namespace.
        let redirected: Vec<&str> = clients()
            .iter()
            .filter(|c| c.follows_redirect)
            .map(|c| c.id)
            .collect();
        assert_eq!(redirected, ["chromium"]);
        assert!(clients().iter().any(|c| c.id == "chromium" && !c.guarded));
    }
}
