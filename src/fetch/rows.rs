//! The client rows: [`ClientInfo`], one per HTTP client, and which of
//! them run where. Which oracle's parser a client reads URLs with is that
//! oracle's fact ([`Descriptor::clients`](crate::oracle::Descriptor::clients)).

use crate::oracle::OracleId;

/// One HTTP client: a row of [`clients`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo {
    /// The client's id: `libcurl`, `urllib3`, `urllib.request`,
    /// `requests`, `httpx`, `aiohttp`, `node-http-url-parse`,
    /// `node-http-new-url`, `go-net-http`, `node-fetch`, `ruby-net-http`,
    /// `ruby-open-uri`, `php-file-get-contents`, `php-curl`,
    /// `java-httpclient`, `java-httpurlconnection`, `chromium`.
    pub id: &'static str,
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

const fn row(id: &'static str, code_path: &'static str, guarded: bool) -> ClientInfo {
    ClientInfo {
        id,
        code_path,
        guarded,
        follows_redirect: false,
    }
}

pub(super) const LIBCURL: ClientInfo = row("libcurl", "libcurl easy API: curl_easy_perform", true);
const URLLIB3: ClientInfo = row(
    "urllib3",
    "urllib3.PoolManager().request('GET', url, redirect=False, retries=False)",
    true,
);
const URLLIB_REQUEST: ClientInfo = row(
    "urllib.request",
    "urllib.request.OpenerDirector.open(url) (build_opener's http handlers, ProxyHandler({}), no redirects)",
    true,
);
const REQUESTS: ClientInfo = row(
    "requests",
    "requests.Session().get(url, allow_redirects=False) (trust_env off)",
    false,
);
const HTTPX: ClientInfo = row(
    "httpx",
    "httpx.Client(follow_redirects=False).get(url) (sync, trust_env off)",
    false,
);
const AIOHTTP: ClientInfo = row(
    "aiohttp",
    "aiohttp.ClientSession().get(url, allow_redirects=False) (trust_env off)",
    false,
);
const NODE_URL_PARSE: ClientInfo = row("node-http-url-parse", "http.get(url.parse(input))", true);
const NODE_NEW_URL: ClientInfo = row("node-http-new-url", "http.get(new URL(input))", true);
const GO_NET_HTTP: ClientInfo = row("go-net-http", "net/http Client.Get", true);
const NODE_FETCH: ClientInfo = row(
    "node-fetch",
    "fetch(input, {redirect: 'manual'}) (Node's global fetch, undici)",
    false,
);
const RUBY_NET_HTTP: ClientInfo = row(
    "ruby-net-http",
    "Net::HTTP.start(uri.hostname, uri.port).request_get(URI(input))",
    false,
);
const RUBY_OPEN_URI: ClientInfo = row(
    "ruby-open-uri",
    "URI.open(input, redirect: false, proxy: false)",
    false,
);
const PHP_FILE_GET_CONTENTS: ClientInfo = row(
    "php-file-get-contents",
    "file_get_contents(input, false, stream_context_create(['http' => ['follow_location' => 0]]))",
    false,
);
const PHP_CURL: ClientInfo = row(
    "php-curl",
    "curl_init(); CURLOPT_URL input; curl_exec (PHP's curl extension, Debian's libcurl)",
    false,
);
const JAVA_HTTPCLIENT: ClientInfo = row(
    "java-httpclient",
    "HttpClient.send(HttpRequest.newBuilder(URI.create(input)))",
    false,
);
const JAVA_HTTPURLCONNECTION: ClientInfo = row(
    "java-httpurlconnection",
    "new URL(input).openConnection(Proxy.NO_PROXY).getResponseCode()",
    false,
);

// Chromium's URL parser is GURL, which uridiff has no oracle of (WHATWG
// in most respects; the url and ada oracles are the nearest): no oracle's
// descriptor lists it. It is sent a
// trap page whose 302 names the input, and follows it: the redirect
// target is resolved against the page's URL, as a browser resolves any
// Location.
const CHROMIUM: ClientInfo = ClientInfo {
    follows_redirect: true,
    ..row(
        "chromium",
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

/// The clients that read URLs with the oracle `parser`'s parser: those its
/// descriptor lists ([`Descriptor::clients`](crate::oracle::Descriptor::clients)),
/// in table order. None for an id that names no oracle.
pub fn clients_of(parser: &str) -> Vec<&'static ClientInfo> {
    let ids = OracleId::from_id(parser).map_or(&[][..], |id| id.descriptor().clients);
    CLIENTS.iter().filter(|c| ids.contains(&c.id)).collect()
}

/// The guarded clients ([`ClientInfo::guarded`]) that read URLs with the
/// oracle `parser`: those `bypass --confirm` runs, outside any namespace.
pub fn clients_for(parser: &str) -> Vec<&'static ClientInfo> {
    clients_of(parser)
        .into_iter()
        .filter(|c| c.guarded)
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
            assert!(clients_of(parser).contains(&info.unwrap()), "{id}");
            assert!(info.is_some_and(|c| !c.guarded), "{id}");
        }
        assert_eq!(clients_of("ruby-uri"), [&RUBY_NET_HTTP, &RUBY_OPEN_URI]);
        assert!(clients_of("no-such-oracle").is_empty());
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

    /// Every client an oracle's descriptor names is a row here, and every
    /// row but Chromium's (GURL, which uridiff has no oracle of) is named
    /// by exactly one oracle: the one whose parser it reads URLs with.
    #[test]
    fn each_client_is_named_by_one_oracles_descriptor() {
        use crate::oracle::ExternalName;
        let oracles = OracleId::ALL.iter().copied().chain(
            crate::oracle::external::shipped_names()
                .into_iter()
                .map(|n| OracleId::External(ExternalName::new(n).unwrap())),
        );
        let mut readers: std::collections::BTreeMap<&str, Vec<OracleId>> = Default::default();
        for id in oracles {
            for &client in id.descriptor().clients {
                readers.entry(client).or_default().push(id);
            }
        }
        for (client, by) in &readers {
            // libcurl is no row without the `curl` feature.
            let known = clients().iter().any(|c| c.id == *client) || *client == LIBCURL.id;
            assert!(known, "{client} is no client row");
            assert_eq!(by.len(), 1, "{client} is named by {by:?}");
        }
        for c in clients() {
            assert_eq!(readers.contains_key(c.id), c.id != "chromium", "{}", c.id);
        }
    }
}
