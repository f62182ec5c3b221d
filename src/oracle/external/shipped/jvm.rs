//! The Java adapters: `java.net.URI`, `java.net.URL`, and Spring's and
//! Jetty's parsers from Debian's jars, all one source (`JavaUri.java`, its
//! argument choosing the parser), run by the source launcher.

use super::{Accessors, Debian, Documented, Language, Reproduce, Resolver, Shipped};
use crate::oracle::Standard;

const SOURCE: &[(&str, &str)] = &[(
    "JavaUri.java",
    include_str!("../../../../adapters/JavaUri.java"),
)];

/// A Java adapter with `command`: its runtime, the JDK's install command
/// with `install`'s packages after it, and Java's resolver.
const fn java(
    name: &'static str,
    command: &'static [&'static str],
    install: &'static str,
) -> Shipped {
    Shipped::new(name, SOURCE, &["java"], command, install).resolver(Resolver::Java)
}

/// The accessors of a parser whose `getPort()` is -1 for none: the port
/// as text, and the others by name.
const fn int_port(
    userinfo: &'static str,
    path: &'static str,
    query: &'static str,
    fragment: &'static str,
) -> Accessors {
    Accessors {
        scheme: Some("u.getScheme()"),
        userinfo: Some(userinfo),
        host: Some("u.getHost()"),
        port: Some("(u.getPort() == -1 ? null : String.valueOf(u.getPort()))"),
        path: Some(path),
        query: Some(query),
        fragment: Some(fragment),
    }
}

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[
    java(
        "java-uri",
        // The source launcher (JDK 11+) compiles it at start; the serial
        // collector and the first JIT tier start fastest.
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "{dir}/JavaUri.java",
        ],
        "apt-get install default-jdk-headless",
    )
    .position(2)
    // java.net.URI.resolve.
    .resolves()
    // java.net.URI: "Parsing ... is performed according to RFC 2396" (its class
    // documentation, which lists the RFC 2732 amendment and its deviations).
    .standard(Standard::Rfc2396)
    .reproduce(
        Reproduce::new(
            Language::Java,
            "java.net.URI u = new java.net.URI({input});",
            Accessors {
                scheme: Some("u.getScheme()"),
                userinfo: Some("u.getRawUserInfo()"),
                host: Some("u.getHost()"),
                port: None,
                path: Some("u.getRawPath()"),
                query: Some("u.getRawQuery()"),
                fragment: Some("u.getRawFragment()"),
            },
        )
        .resolve("java.net.URI u = new java.net.URI({base}).resolve(new java.net.URI({input}));")
        .refusal("java.net.URISyntaxException"),
    )
    .documented(JAVA_URI_DOCUMENTED)
    // HttpClient.send(HttpRequest.newBuilder(URI.create(input))).
    .clients(&["java-httpclient"]),

    java(
        "java-url",
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "{dir}/JavaUri.java",
            "url",
        ],
        "apt-get install default-jdk-headless",
    )
    .position(3)
    // new URL(URL context, String spec).
    .resolves()
    // No standard: java.net.URL's class documentation (Java SE 17) says "The URL
    // class does not itself encode or decode any URL components according
    // to the escaping mechanism defined in RFC2396", and java.net.URI's
    // that "A URL string is parsed according to its scheme" by a stream
    // handler, "impossible to create ... for a scheme for which no handler
    // is available": what it checks is the scheme's handler and the port,
    // not a grammar (`http://a b\@c/` is a URL).
    .reproduce(
        Reproduce::new(
            Language::Java,
            "java.net.URL u = new java.net.URL({input});",
            Accessors {
                scheme: Some("u.getProtocol()"),
                ..int_port(
                    "u.getUserInfo()",
                    "u.getPath()",
                    "u.getQuery()",
                    "u.getRef()",
                )
            },
        )
        .resolve("java.net.URL u = new java.net.URL(new java.net.URL({base}), {input});")
        .refusal("java.net.MalformedURLException"),
    )
    .documented(JAVA_URL_DOCUMENTED)
    // new URL(input).openConnection(): java.net.URL's parser.
    .clients(&["java-httpurlconnection"]),

    java(
        "spring-uri",
        // Debian's jars by their fixed paths, nothing else on the class path.
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            "/usr/share/java/spring3-web.jar:/usr/share/java/spring3-core.jar:/usr/share/java/commons-logging.jar",
            "{dir}/JavaUri.java",
            "spring",
        ],
        "apt-get install default-jdk-headless libspring-web-java",
    )
    .position(4)
    // libspring-web-java 4.3.30 names its jars spring3-*.jar.
    .debian(&[
        Debian::file("libspring-web-java", "/usr/share/java/spring3-web.jar"),
        Debian::file("libspring-core-java", "/usr/share/java/spring3-core.jar"),
        Debian::file(
            "libcommons-logging-java",
            "/usr/share/java/commons-logging.jar",
        ),
    ])
    // Spring has no resolution function: pairs are out of its domain.
    // No standard: UriComponentsBuilder's documentation names none; of
    // fromUriString it says "The presence of reserved characters can
    // prevent correct parsing of the URI string", and its pattern is
    // RFC 3986 appendix B's (its source: "See RFC 3986, appendix B"), a
    // regular expression that splits and validates nothing.
    .reproduce(
        Reproduce::new(
            Language::Java,
            "org.springframework.web.util.UriComponents u = org.springframework.web.util.UriComponentsBuilder.fromUriString({input}).build();",
            int_port(
                "u.getUserInfo()",
                // An opaque URI's path is its scheme-specific part, as the
                // adapter reports it.
                "(u.getPath() != null ? u.getPath() : u.getSchemeSpecificPart())",
                "u.getQuery()",
                "u.getFragment()",
            ),
        )
        // fromUriString's "... is not a valid URI", and a port out of
        // int range (NumberFormatException is one).
        .refusal("IllegalArgumentException"),
    ),

    java(
        "jetty-httpuri",
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            "/usr/share/java/jetty9-http.jar:/usr/share/java/jetty9-util.jar",
            "{dir}/JavaUri.java",
            "jetty",
        ],
        "apt-get install default-jdk-headless libjetty9-java",
    )
    .position(5)
    .debian(&[
        Debian::file("libjetty9-java", "/usr/share/java/jetty9-http.jar"),
        Debian::file("libjetty9-java", "/usr/share/java/jetty9-util.jar"),
    ])
    // HttpURI(HttpURI, HttpURI) copies scheme, host and port from one
    // and the rest from the other: no resolution, pairs are out of its
    // domain.
    // No standard: HttpURI's class documentation (Jetty 9.4) says it will "Parse
    // an HTTP URI from a string or byte array" and "split it into the
    // following optional elements", and that its approach "is somewhat
    // contrary to RFC3986": it claims none.
    .reproduce(
        Reproduce::new(
            Language::Java,
            "org.eclipse.jetty.http.HttpURI u = new org.eclipse.jetty.http.HttpURI({input});",
            int_port(
                "u.getUser()",
                "u.getPath()",
                "u.getQuery()",
                "u.getFragment()",
            ),
        )
        // "Bad authority", and a port that is no number
        // (NumberFormatException is one).
        .refusal("IllegalArgumentException"),
    ),
];

// java.net.URI's class documentation: "The Literal IPv6 address format
// also supports scope_ids. The syntax and usage of scope_ids is described
// here" (Inet6Address, "Scoped addresses": IPv6address%scope_id), after a
// bare `%`, where RFC 6874 writes `%25`.
pub(super) const JAVA_URI_DOCUMENTED: Documented = Documented::NONE
    .zone_ids(
        "java.net.URI (\"The Literal IPv6 address format also supports scope_ids. The syntax and usage of scope_ids is described here\": Inet6Address, IPv6address%scope_id)",
    )
    .rfc2732(
        "java.net.URI (\"a URI reference as defined by RFC 2396: Uniform Resource Identifiers (URI): Generic Syntax, amended by RFC 2732: Format for Literal IPv6 Addresses in URLs\"; deviations: \"IPv6 addresses are permitted for the host component. An IPv6 address must be enclosed in square brackets ('[' and ']') as specified by RFC 2732\")",
    );

// No standard as a whole (below), but its constructor's documentation
// names the one it parses and resolves by: "The new URL is created from
// the given context URL and the spec argument as described in RFC2396
// ... For a more detailed description of URL parsing, refer to RFC2396"
// (URL(URL, String); URL(String) is that with no context).
pub(super) const JAVA_URL_DOCUMENTED: Documented = Documented::NONE
.claims_parse(
    Standard::Rfc2396,
    "java.net.URL(URL context, String spec) (\"The new URL is created from the given context URL and the spec argument as described in RFC2396\"; \"For a more detailed description of URL parsing, refer to RFC2396\"); URL(String spec) is this(null, spec)",
)
.claims_resolve(
    Standard::Rfc2396,
    "java.net.URL(URL context, String spec) (\"The new URL is created from the given context URL and the spec argument as described in RFC2396\")",
);
