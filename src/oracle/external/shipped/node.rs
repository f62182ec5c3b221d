//! The Node adapters: Node's legacy `url.parse`, and whatwg-url, fast-uri,
//! uri-js and url-parse from the cache root, each loaded by the absolute
//! path a variable of its own names. Each is a `.cjs` file that shares the
//! protocol loop of `node-protocol.cjs`, written beside it.

use super::{Accessors, Documented, HostReading, Language, Reproduce, SETUP, Shipped};
use crate::oracle::Standard;

/// The pipe protocol's loop the Node adapters share (each requires it from
/// its own directory).
pub(crate) const NODE_PROTOCOL: (&str, &str) = (
    "node-protocol.cjs",
    include_str!("../../../../adapters/node-protocol.cjs"),
);

/// The schemes whose hosts fast-uri's and uri-js's scheme handlers read as
/// domain names (`domainHost`).
const DOMAIN_SCHEMES: &[&str] = &["http", "https", "ws", "wss"];

/// The components as fast-uri and uri-js report them: undefined is null,
/// a port is a number, an IPv6 host comes without its brackets.
const URI_COMPONENTS: Accessors = Accessors {
    scheme: Some("u.scheme ?? null"),
    userinfo: Some("u.userinfo ?? null"),
    host: Some(
        "(u.host?.includes(\":\") && !u.host.startsWith(\"[\") ? \"[\" + u.host + \"]\" : u.host ?? null)",
    ),
    port: Some("(u.port === undefined ? null : String(u.port))"),
    path: Some("u.path ?? null"),
    query: Some("u.query ?? null"),
    fragment: Some("u.fragment ?? null"),
};

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[
    Shipped::new(
        "node-url",
        &[
            (
                "node-url.cjs",
                include_str!("../../../../adapters/node-url.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        &["node"],
        &["node", "{dir}/node-url.cjs"],
        "apt-get install nodejs npm",
    )
    .position(7)
    // Node's legacy url.resolve.
    .resolves()
    .reproduce(
        Reproduce::new(
            Language::JavaScript,
            "const u = url.parse({input});",
            Accessors {
                scheme: None,
                userinfo: Some("u.auth"),
                host: Some("u.hostname"),
                port: Some("u.port"),
                path: Some("u.pathname"),
                query: Some("u.query"),
                fragment: None,
            },
        )
        .prelude("const url = require(\"node:url\");")
        .resolve("const u = url.parse(url.resolve({base}, {input}));"),
    )
    // http.get(url.parse(input)).
    .clients(&["node-http-url-parse"]),

    Shipped::new(
        "whatwg-url",
        &[
            (
                "whatwg-url.cjs",
                include_str!("../../../../adapters/whatwg-url.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        &["node"],
        &["node", "{dir}/whatwg-url.cjs"],
        SETUP,
    )
    .position(8)
    // By absolute path: a bare name would be looked for in every
    // node_modules above the adapter's file first.
    .env(&[("URIDIFF_WHATWG_URL", "{cache}/node/node_modules/whatwg-url")])
    .libraries(&[(
        "whatwg-url",
        "{cache}/node/node_modules/whatwg-url/package.json",
    )])
    // The URL Standard's basic URL parser with a base.
    .resolves()
    // The URL Standard's reference implementation (it is the reference): no
    // `reproduce` template, since it decides and is not judged.
    .standard(Standard::Whatwg)
    .reference(),

    Shipped::new(
        "fast-uri",
        &[
            (
                "fast-uri.cjs",
                include_str!("../../../../adapters/fast-uri.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        &["node"],
        &["node", "{dir}/fast-uri.cjs"],
        SETUP,
    )
    .position(9)
    // By absolute path, as whatwg-url: one variable per package, so
    // that each adapter names the one directory it loads.
    .env(&[("URIDIFF_FAST_URI", "{cache}/node/node_modules/fast-uri")])
    .libraries(&[(
        "fast-uri",
        "{cache}/node/node_modules/fast-uri/package.json",
    )])
    // fastUri.resolve(base, reference).
    .resolves()
    // Its README and package description: "Dependency-free RFC 3986 URI
    // toolbox".
    .standard(Standard::Rfc3986)
    // Forked from uri-js (its LICENSE: "Copyright (c) 2011-2021, Gary
    // Court until" a uri-js commit): one implementation when a majority
    // decides.
    .lineage("uri-js")
    // Node's http connects through getaddrinfo.
    .host_readings(&[
        (
            HostReading::ZoneDecoded,
            "fast-uri types/index.d.ts, URIComponent.ipv6Zone (parse writes a zoned host in \"the ambiguous single-`%` form\"); test/ipv6-validation.test.js (`http://[fe80::a%25eth%2D0]/` has host `fe80::a%eth%2D0`)",
        ),
        (
            HostReading::DomainWhatwg(DOMAIN_SCHEMES),
            "fast-uri README, Options (\"schemes with domain hosts (`http`, `https`, `ws`, `wss` ...)\"; `domainHost`: \"treat the `host` component as a domain name, and convert IDNs\"); index.js canonicalizeHost (the host through `new URL('http://' + host).hostname`)",
        ),
    ])
    // The adapter's note "error:" and the text of parse's `error`.
    .flag_note(
        "error:",
        "fast-uri README, Options (\"Malformed authorities, out-of-range ports, and raw leading or trailing C0 controls or spaces (U+0000-U+0020) are reported through the parsed component's `error` field\"; \"`resolve()` rejects them\")",
    )
    .reproduce(
        Reproduce::new(
            Language::JavaScript,
            "const u = fastUri.parse({input});",
            URI_COMPONENTS,
        )
        .prelude("const fastUri = require(\"fast-uri\");")
        .resolve("const u = fastUri.parse(fastUri.resolve({base}, {input}));"),
    )
    .documented(FAST_URI_DOCUMENTED),

    Shipped::new(
        "uri-js",
        &[
            (
                "uri-js.cjs",
                include_str!("../../../../adapters/uri-js.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        &["node"],
        &["node", "{dir}/uri-js.cjs"],
        SETUP,
    )
    .position(10)
    .env(&[("URIDIFF_URI_JS", "{cache}/node/node_modules/uri-js")])
    .libraries(&[("uri-js", "{cache}/node/node_modules/uri-js/package.json")])
    // URI.resolve(base, reference).
    .resolves()
    // Its README: "URI.js is an RFC 3986 compliant, scheme extendable URI
    // parsing/validating/resolving library".
    .standard(Standard::Rfc3986)
    .host_readings(&[
        (
            HostReading::ZoneDecoded,
            "uri-js README, IP Support (\"IPv6 zone identifier support\": `URI.parse(\"//[2001:db8::7%25en1]\")` returns host `2001:db8::7%en1`)",
        ),
        (
            HostReading::DomainPunycode(DOMAIN_SCHEMES),
            "uri-js README, Options (`domainHost`: \"treat the `host` component as a domain name, and convert IDNs (International Domain Names) as per RFC 5891\"), set by its http, https, ws and wss scheme handlers (dist/es5/uri.all.js: `punycode.toASCII` of the percent-decoded, lower-cased host)",
        ),
        (
            HostReading::Ipv4LeadingZerosDropped,
            "uri-js README, \"IPv4 normalization\": `URI.normalize(\"//192.068.001.000\") === \"//192.68.1.0\"` (normalize is serialize of parse, and parse writes the host so)",
        ),
    ])
    .flag_note(
        "error:",
        "uri-js dist/es5/uri.all.d.ts, URIComponents.error (parse sets it, as \"URI can not be parsed.\" or \"HTTP URIs must have a host.\", and still returns the components)",
    )
    .reproduce(
        Reproduce::new(
            Language::JavaScript,
            "const u = URI.parse({input});",
            URI_COMPONENTS,
        )
        .prelude("const URI = require(\"uri-js\");")
        .resolve("const u = URI.parse(URI.resolve({base}, {input}));"),
    )
    .documented(URI_JS_DOCUMENTED),

    Shipped::new(
        "url-parse",
        &[
            (
                "url-parse.cjs",
                include_str!("../../../../adapters/url-parse.cjs"),
            ),
            NODE_PROTOCOL,
        ],
        &["node"],
        &["node", "{dir}/url-parse.cjs"],
        SETUP,
    )
    .position(11)
    // Its dependencies (querystringify, requires-port) are found beside
    // it in the cache's node_modules.
    .env(&[("URIDIFF_URL_PARSE", "{cache}/node/node_modules/url-parse")])
    .libraries(&[(
        "url-parse",
        "{cache}/node/node_modules/url-parse/package.json",
    )])
    // new Url(reference, base): the README's baseURL argument, "the base
    // URL to use in case `url` is a relative URL".
    .resolves()
    // No standard: its README says of `host` "The hostname might be invalid"
    // and of `hostname` "This might be an invalid hostname": it splits,
    // it does not validate.
    .reproduce(
        Reproduce::new(
            Language::JavaScript,
            "const u = new Url({input}, {});",
            // Its properties hold "" for an absent component; the adapter
            // reports null, and the query and fragment without '?' and '#'.
            Accessors {
                scheme: Some("(u.protocol === \"\" ? null : u.protocol.slice(0, -1))"),
                userinfo: Some("(u.auth === \"\" ? null : u.auth)"),
                host: Some("(u.protocol !== \"\" && u.slashes ? u.hostname : null)"),
                port: Some("(u.port === \"\" ? null : u.port)"),
                path: Some("u.pathname"),
                query: Some("(u.query === \"\" ? null : u.query.slice(1))"),
                fragment: Some("(u.hash === \"\" ? null : u.hash.slice(1))"),
            },
        )
        .prelude("const Url = require(\"url-parse\");")
        .resolve("const u = new Url({input}, {base});"),
    ),
];

// fast-uri's resolve refuses an http or https URI with an empty host, as
// its README says and as the scheme requires (RFC 9110 sections 4.2.1
// and 4.2.2: an http URI with an empty host "MUST" be rejected as
// invalid); its parse flags one (`error` "HTTP URIs must have a host.").
// Its README reports only "raw leading or trailing C0 controls or spaces
// (U+0000-U+0020)" through `error`: "Percent-encoded and interior component
// data remain valid", so a control or space inside a component is accepted
// (percent-encoded) as documented.
pub(super) const FAST_URI_DOCUMENTED: Documented = Documented::NONE
    .host_required(
        &["http", "https"],
        "fast-uri README (`resolve()` \"rejects HTTP(S) results with an empty host\"); lib/schemes.js, httpParse (\"HTTP URIs must have a host.\"); RFC 9110 sections 4.2.1 and 4.2.2",
    )
    .interior_controls(
        "fast-uri README, Options (\"raw leading or trailing C0 controls or spaces (U+0000-U+0020) are reported through the parsed component's `error` field ... Percent-encoded and interior component data remain valid\")",
    );

// Its parse does not validate: README, Breaking changes from 2.x, "URI
// validation has been removed as it was slow, exposed a vulnerabilty,
// and was generally not useful." What it accepts that RFC 3986 forbids
// is that documented leniency, not a defect.
pub(super) const URI_JS_DOCUMENTED: Documented = Documented::NONE
.no_validation(
    "uri-js README, Breaking changes from 2.x (\"URI validation has been removed as it was slow, exposed a vulnerabilty, and was generally not useful.\")",
)
// Run directly (uri-js 4.4.1): parse("t:/a/%2E%2E/%41b").path is
// "/a/../Ab", resolve("t:/4", "/%2E") is "t:/".
.syntax_normalized(
    "uri-js README, Normalizing (`URI.normalize(\"HTTP://ABC.com:80/%7Esmith/home.html\") === \"http://abc.com/~smith/home.html\"`; normalize serializes what parse returns, and parse decodes the percent-encoded unreserved characters)",
);
