//! Class catalogue, part 3 of 5 in precedence order (see `mod.rs`):
//! relative references, hosts, ports and authorities, with the
//! adapters' own readings (Java, Jetty, Node, PHP, urllib3, Ruby, Perl).

/// Appends this part's rows to those gathered so far and hands them on
/// (`catalogue!` in `class_macros.rs`).
macro_rules! host_classes {
    ([$($rows:tt)*] $($rest:ident)*) => {
        catalogue! { [$($rows)*
            /// A relative reference, which the other only resolves against a base
            /// or does not take at all.
            RelativeReference = "relative-reference" {
                basis: Spec, severity: Low,
                rule: syntax::relative_reference, scope: Any,
                spec: "RFC 2396 section 5; URL Standard (URL parsing without a base); RFC 9112 section 3.2",
                examples: [(Url, "/rel/path?q"), (Ada, "/rel/path?q")],
                with_base: [(Http, "http://a/b/c/d;p?q", "../../../g")],
            }
            /// `java.net.URL` takes only schemes it has a protocol handler for (the
            /// JDK's: http, https, ftp, file, jar, mailto, jrt); any other scheme is
            /// out of its domain ("unknown protocol").
            UrlSchemeWithoutHandler = "url-scheme-without-handler" {
                basis: Spec, severity: Low,
                rule: syntax::url_scheme_without_handler, scope: External("java-url"),
                spec: "java.net.URI javadoc (Java SE 17), URIs, URLs, and URNs (\"it is impossible to create a URL instance for a scheme for which no handler is available\"); java.net.URL(String) javadoc (MalformedURLException: \"an unknown protocol is found\")",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-url", "ldap://h/o=x"), ("java-url", "ws://a/b")],
            }
            /// `java.net.URL`'s `mailto:` handler takes all that follows
            /// `mailto:` as the file, `//` included, with no authority
            /// (`mailto://a@b?x`: path `//a@b`, query `x`).
            JavaMailtoHandler = "java-mailto-handler" {
                basis: Spec, severity: Low,
                rule: syntax::java_mailto_handler, scope: External("java-url"),
                spec: "RFC 2396 section 3 (net_path); JDK 17 sun.net.www.protocol.mailto.Handler.parseURL (the whole scheme-specific part is the URL's file, the host empty; setURL(u, protocol, \"\", -1, file, null) drops the ref); java.net.URL javadoc (getPath, getQuery: parts of the file)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-url", "mailto://a@b?x"), ("java-url", "mailto:a@b#f")],
            }
            /// `http::Uri` drops the fragment.
            FragmentDropped = "fragment-dropped" {
                basis: Spec, severity: Low,
                rule: http::fragment_dropped, scope: Oracle(Http),
                spec: "RFC 9112 section 3.2",
                examples: [(Http, "http://h/a#b")],
            }
            /// A percent-encoded host: RFC 2396 hostnames have no `escaped`, others
            /// decode it.
            PercentEncodedHost = "percent-encoded-host" {
                basis: Spec, severity: Medium,
                rule: host::percent_encoded_host, scope: Any,
                spec: "RFC 2396 section 3.2.2; RFC 3986 section 3.2.2; URL Standard (host parsing)",
                examples: [(Url, "http://ex%41mple.com/")],
            }
            /// An IPv4 address in a form RFC 2396 does not know (hex, octal, fewer
            /// than four parts, out of range), read by WHATWG's IPv4 parser.
            Ipv4NumberForm = "ipv4-number-form" {
                basis: Spec, severity: Medium,
                rule: host::ipv4_number_form, scope: Standard(Whatwg) | Oracle(Curl),
                spec: "RFC 2396 section 3.2.2 (IPv4address); URL Standard (IPv4 parser)",
                examples: [(Url, "http://0x7f.1/"), (Url, "http://127.1/"), (Url, "http://999.1.1.1/"), ("upa-url", "http://0127.0.0.1")],
            }
            /// A host WHATWG maps through IDNA (UTS #46): invalid `xn--` labels
            /// are refused.
            IdnaHost = "idna-host" {
                basis: Spec, severity: Medium,
                rule: host::idna_host, scope: Standard(Whatwg),
                spec: "URL Standard (domain to ASCII); UTS #46",
                examples: [(Url, "https://xn--o/")],
            }
            /// RFC 2396 has no bound on `port`; the other rejects ports over 65535.
            PortOutOfRange = "port-out-of-range" {
                basis: Spec, severity: Medium,
                rule: port::port_out_of_range, scope: Any,
                spec: "RFC 2396 section 3.2.2; URL Standard (port state)",
                examples: [(Url, "http://host:99999/")],
            }
            /// java.net.URI reads a host of one label that starts with a digit
            /// (`dvd://1`), which RFC 2396's `toplabel` (section 3.2.2) cannot
            /// start, so RFC 2396 reads a `reg_name`: its javadoc asks an alpha
            /// first only of the rightmost label of a name of two or more labels.
            JavaSingleLabelHost = "java-single-label-host" {
                basis: Spec, severity: Low,
                rule: authority::java_single_label_host, scope: External("java-uri"),
                spec: "java.net.URI javadoc (Java SE 17), getHost(): \"The rightmost label of a domain name consisting of two or more labels, begins with an alpha character\"; RFC 2396 section 3.2.2 (toplabel)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-uri", "dvd://1")],
            }
            /// RFC 2396 reads the authority as a `reg_name` (no host), the other
            /// parser finds a host in it (RFC 2396 section 3.2).
            RegNameAuthority = "reg-name-authority" {
                basis: Spec, severity: Medium,
                rule: authority::reg_name_authority, scope: Any,
                spec: "RFC 2396 sections 3.2 and 3.2.2; RFC 3986 section 3.2.2",
                examples: [(Url, "http://a_b.example/"), (Url, "http://a@b@c/"), (Http, "http://1.2.3.4.5/")],
            }
            /// java.net.URI leaves an empty authority (`file:///p`) undefined
            /// (`getRawAuthority()` is null), where RFC 2396 has an empty one;
            /// it refuses one followed by nothing (`file://`), and resolves a
            /// reference with one as a reference without (`//#f` keeps the base).
            JavaEmptyAuthority = "java-empty-authority" {
                basis: Spec, severity: Low,
                rule: authority::java_empty_authority, scope: External("java-uri"),
                spec: "java.net.URI javadoc (Java SE 17): \"An empty authority component is permitted as long as it is followed by a non-empty path, a query component, or a fragment component ... If the authority component is empty then the user-information, host, and port components are undefined\"; URI.resolve javadoc (a fragment-only reference keeps the base; an undefined authority is the base's); RFC 2396 section 3.2",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-uri", "file:///etc/passwd"), ("java-uri", "file://")],
                with_base: [("java-uri", "http://a/b", "//#f")],
            }
            /// httpx refuses a host of four dot-separated numbers that is no IPv4
            /// address Python's `ipaddress` takes (`999.1.1.1`, `1.2.3.04`).
            DottedHostRefused = "dotted-host-refused" {
                basis: Spec, severity: Low,
                rule: host::dotted_host_refused, scope: External("httpx"),
                spec: "RFC 2396 section 3.2.2 (hostname, IPv4address = 1*digit \".\" ...); httpx 0.28 _urlparse.py, encode_host (IPv4_STYLE_HOSTNAME, then ipaddress.IPv4Address: \"Invalid IPv4 address\"); Python docs, ipaddress (leading zeros are not accepted, since 3.9.5)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("httpx", "http://999.1.1.1/"), ("httpx", "http://125.025.062.125")],
            }
            /// Jetty 9.4's `HttpURI` gives port 0 for an empty port (`//h:`), where
            /// RFC 3986 reads none. Its documentation claims no standard (it
            /// is "somewhat contrary to RFC3986"), so this is its reading, not
            /// a defect (Jetty 12 reads an unset port as -1).
            JettyEmptyPortZero = "jetty-empty-port-zero" {
                basis: Spec, severity: Medium,
                rule: jetty::empty_port_zero, scope: External("jetty-httpuri"),
                spec: "RFC 3986 section 3.2.3 (an empty port is omitted); https://github.com/jetty/jetty.project/issues/11488 (Jetty 12: an unset port is -1)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("jetty-httpuri", "//c:")],
            }
            /// Jetty's `HttpURI` refuses an authority not ended by `/`, a `;` in its
            /// userinfo or host, a path whose dot segments climb above its root,
            /// and an encoded NUL in a path.
            JettyHttpUriRefusal = "jetty-httpuri-refusal" {
                basis: Spec, severity: Low,
                rule: jetty::jetty_refusal, scope: External("jetty-httpuri"),
                spec: "RFC 2396 sections 2.4.1, 3.2 and 3.3; Jetty 9.4 HttpURI javadoc (\"Http URI\": a request target, parsed for a server to route) and its answers in 9.4.57 (\"Bad authority\", also for a ; in the HOST state, \"Bad URI\" for a path whose canonical form is null, \"Illegal character in path\")",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("jetty-httpuri", "http://evil.example#@allowed.example"), ("jetty-httpuri", "http://a/../x"), ("jetty-httpuri", "http://a/%00"), ("jetty-httpuri", "ws://a;b@example.com/")],
            }
            /// Node's legacy `url.parse` throws on a userinfo that does not decode
            /// as UTF-8 and on an `xn--` host its IDNA conversion refuses.
            NodeUrlRefusal = "node-url-refusal" {
                basis: Spec, severity: Low,
                rule: node::node_refusal, scope: External("node-url") | External("url-parse"),
                spec: "RFC 2396 sections 3.2.1 and 3.2.2; Node.js docs, url.parse (\"A URIError is thrown if the auth property is present but cannot be decoded\") and errors, ERR_INVALID_URL (\"An invalid URL was passed to the WHATWG URL constructor or the legacy url.parse()\"); node test/parallel/test-url-parse-invalid-input.js; url-parse 1.5.10 index.js (the username and password go through decodeURIComponent, which throws URIError: URI malformed)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("node-url", "http://%C3%28@fail/"), ("node-url", "HTTP://9yal.Xn--9amm///"), ("url-parse", "http://%C3%28@fail/")],
            }
            /// PHP's `parse_url` returns false for an authority with an empty host
            /// (but `file:///path`) and for a port of more than five digits or
            /// above 65535.
            PhpParseUrlRefusal = "php-parse-url-refusal" {
                basis: Spec, severity: Low,
                rule: php::php_refusal, scope: External("php-parse-url"),
                spec: "RFC 2396 section 3.2.2 (`port = *digit`, an empty `reg_name`); PHP manual, parse_url (\"On seriously malformed URLs, parse_url() may return false\"); php-src ext/standard/url.c, php_url_parse_ex2 (PHP 8.2: the port's length and range, the empty host)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("php-parse-url", "w://"), ("php-parse-url", "http://h:0014949/")],
            }
            /// The parser's API has no empty value for a component RFC 2396 has
            /// present and empty: urllib3's `parse_url` gives `None` for an empty
            /// path or authority, PHP's `parse_url` leaves an empty path out, Node's
            /// legacy `url.parse` gives `pathname: null`, Spring's `UriComponents`
            /// keeps no empty path, query or fragment (null), Jetty's `HttpURI` no
            /// empty path; yarl's URL gives "" for an absent authority, query or
            /// fragment alike (`http://h/p?` is `http://h/p` to it).
            EmptyAsAbsent = "empty-as-absent" {
                basis: Spec, severity: Low,
                rule: authority::empty_as_absent,
                scope: External("urllib3") | External("php-parse-url") | External("node-url") | External("spring-uri") | External("jetty-httpuri") | External("yarl"),
                spec: "RFC 2396 section 3 (a path is always present, possibly empty); urllib3 util.Url docs (path None); PHP parse_url docs (missing components are not returned); Node url.parse docs (urlObject.pathname); Spring UriComponents javadoc (getPath, getQuery, getFragment: \"Can be null\"); Jetty HttpURI javadoc (9.4: the URI is split \"into the following optional elements\"); yarl URL docs (raw_authority: \"Empty string for relative URLs\"; raw_query_string: \"Empty string if query is missing\"; raw_fragment: \"Empty string if fragment is missing\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("urllib3", "dvd://1"), ("urllib3", "file:///"), ("php-parse-url", "dvd://1"), ("node-url", "dvd://1"), ("spring-uri", "dvd://1"), ("spring-uri", "http://h/p?#"), ("jetty-httpuri", "dvd://1"), ("yarl", "http://h/p?"), ("yarl", "http://h/p#"), ("yarl", "file:///")],
            }
            /// urllib3's `Url` puts a `/` before a path that lacks one (`mailto:x`
            /// gives path `/x`), splitting a query out of an `opaque_part`.
            SlashBeforePath = "slash-before-path" {
                basis: Spec, severity: Low,
                rule: path::slash_before_path, scope: External("urllib3"),
                spec: "RFC 2396 section 3 (opaque_part); urllib3 util/url.py (Url: \"Data structure for representing an HTTP URL\", a path always starts with /)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("urllib3", "mailto:x"), ("urllib3", "mailto:a@b?subject=x")],
            }
            /// Node's legacy `url.parse` reads `auth@host` out of an `opaque_part`
            /// or a rootless path, after any scheme it does not list as slashed
            /// (`mailto:gnat@frii.com`: auth `gnat`, host `frii.com`;
            /// `mailto:a@evil.example/x`: host `evil.example`, path `/x`).
            OpaqueReadAsAuthority = "opaque-read-as-authority" {
                basis: Spec, severity: Medium,
                rule: node::node_host_without_slashes, scope: External("node-url"),
                spec: "RFC 2396 section 3 (opaque_part); RFC 3986 section 3 (no authority without \"//\"); Node.js Legacy URL API (urlObject.auth, urlObject.host; only javascript: is hostless); Node.js lib/url.js, Url.prototype.parse (the host is parsed when slashes || (proto && !slashedProtocol.has(proto)); nonHostChars end it)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("node-url", "mailto:gnat@frii.com"), ("node-url", "mailto:x"), ("node-url", "mailto:a@evil.example/x")],
            }
            /// Node's legacy `url.parse` ends the host at the first character it
            /// does not take in a hostname (a `:` whose port is not digits, a `%`)
            /// and moves the rest of the authority into the path
            /// (`https://host:port`: pathname `/:port`); Spring's
            /// `UriComponentsBuilder` does so after a port's digits (`//g:80f`:
            /// port 80, path `f`).
            AuthorityRestInPath = "authority-rest-in-path" {
                basis: Spec, severity: High,
                rule: path::authority_rest_in_path, scope: External("node-url") | External("spring-uri"),
                spec: "RFC 2396 sections 3.2.2 (port = *digit) and 3.2 (the authority ends at /, ? or end); Node.js Legacy URL API and deprecation DEP0170 (invalid URLs in url.parse); Spring 4.3 UriComponentsBuilder (PORT_PATTERN \"(\\d*(?:\\{[^/]+?\\})?)\", then PATH_PATTERN \"([^?#]*)\"; fromUriString: \"The presence of reserved characters can prevent correct parsing of the URI string\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("node-url", "https://host:port"), ("node-url", "http://www.%70ython.org/"), ("spring-uri", "//g:80f")],
            }
            /// Ruby's `URI::FTP#path` is the path without the `/` that separates it
            /// from the host: RFC 1738 makes an FTP url-path relative to the login
            /// directory, and Ruby's documentation says so.
            FtpRelativePath = "ftp-relative-path" {
                basis: Spec, severity: Medium,
                rule: path::ftp_relative_path, scope: External("ruby-uri") | External("ruby-uri-rfc2396"),
                spec: "RFC 1738 section 3.2.2; Ruby URI::FTP#path documentation",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-uri", "ftp:///path"), ("ruby-uri-rfc2396", "ftp://h/path")],
            }
            /// `file://localhost/…` names the local machine: the parser reports the
            /// empty host for it (RFC 8089 section 2; the URL Standard's file host
            /// state; Ruby's `URI::File`).
            FileLocalhost = "file-localhost" {
                basis: Spec, severity: Low,
                rule: host::file_localhost,
                scope: External("ruby-uri") | External("ruby-uri-rfc2396"),
                spec: "RFC 8089 sections 2 and 3; URL Standard, file host state; Ruby URI::File documentation",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-uri", "file://localhost")],
            }
            /// Perl's URI: for a scheme without the generic syntax (`mailto:`) the
            /// path is the whole opaque part, `?` and query included, and the
            /// query what follows its first `?`: the query is in both.
            OpaquePathAndQuery = "opaque-path-and-query" {
                basis: Spec, severity: Low,
                rule: syntax::opaque_path_and_query, scope: External("perl-uri"),
                spec: "RFC 2396 section 3 (opaque_part); perldoc URI ($uri->path: \"the same value as $uri->opaque unless the URI supports the generic syntax\"; mailto: \"support the common methods and the generic query methods\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("perl-uri", "mailto:a@b?subject=x"), ("perl-uri", "mailto://a@b?x")],
            }
            /// urllib3's `parse_url` refuses a `.` in a scheme and reads the text
            /// before `://` as the host (`opc.tcp://203.0.113.0:49320`: host
            /// `opc.tcp`), where RFC 3986 section 3.1 allows it: its defect
            /// (urllib3#2897, open).
            DottedScheme = "dotted-scheme" {
                basis: Defect, severity: High,
                rule: syntax::dotted_scheme, scope: External("urllib3"),
                spec: "RFC 3986 section 3.1 (scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )); urllib3 parse_url docstring (\"This parser is RFC 3986 and RFC 6874 compliant\"); https://github.com/urllib3/urllib3/issues/2897",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                // `F.X3:aaR`: refused, its text read as host and port.
                examples: [("urllib3", "opc.tcp://203.0.113.0:49320"), ("urllib3", "F.X3:aaR")],
            }
            /// urllib3's `parse_url` reads an input without a scheme or a leading
            /// `/` as an authority (`example/x`: host `example`, path `/x`; a
            /// dotted scheme, `google.com:80`, is `dotted-scheme`).
            SchemelessAuthority = "schemeless-authority" {
                basis: Spec, severity: Medium,
                rule: authority::schemeless_authority, scope: External("urllib3"),
                spec: "RFC 2396 section 5 (rel_path); urllib3 util/url.py, parse_url (\"Best-effort is performed to parse incomplete urls\"; its example `parse_url('google.com:80')` gives host google.com, port 80; `_SCHEME_RE` decides when `//` is put before the input)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                // `%5F3!/`: host `_3!` (its documented host normalisation);
                // `%00`: the would-be host refused (urllib3#5095).
                examples: [("urllib3", "example/x"), ("urllib3", "h/%2f"), ("urllib3", "%5F3!/"), ("urllib3", "%00")],
            }
            /// Perl's `URI::file` reads a file URI's whole authority, unescaped, as
            /// its host (a host name or a device or volume specification, as its
            /// documentation describes the authority of a file URI): `file://c:/p`
            /// has host `c:`.
            FileAuthorityAsHost = "file-authority-as-host" {
                basis: Spec, severity: Low,
                rule: host::file_authority_as_host, scope: External("perl-uri"),
                spec: "RFC 8089 section 2 (file-auth = \"localhost\" / host); URI 5.17 URI/file.pm (sub host { uri_unescape(shift->authority(@_)) }; its POD: \"it makes sense to map them to the authority field of the generic URI syntax\" for device, volume or drive specifications)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("perl-uri", "file://c:/path"), ("perl-uri", "file://u@h:1/")],
            }
            /// java.net.URI reads an IPv4 address by RFC 2732 (at most three
            /// digits a part): `1241.2.41.2`, an `IPv4address` to RFC 2396, is a
            /// registry-based authority with no host to it, as its javadoc says.
            JavaUriRfc2732Ipv4 = "java-uri-rfc2732-ipv4" {
                basis: Spec, severity: Low,
                rule: java::java_uri_rfc2732_ipv4, scope: External("java-uri"),
                spec: "RFC 2396 Appendix A (IPv4address = 1*digit \".\" 1*digit \".\" 1*digit \".\" 1*digit); java.net.URI javadoc (Java SE 17), deviations: \"IPv4 addresses in host components are parsed rigorously, as specified by RFC 2732: Each element of a dotted-quad address must contain no more than three decimal digits\"",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-uri", "http://1241.2.41.2/")],
            }
            /// Perl's URI keeps the `:` of an empty port in the host (`ftp://h:/`:
            /// host `h:`): its host removes a `:` only with digits after it.
            /// `$uri->host` is documented to return the hostname: its defect.
            HostKeepsPortColon = "host-keeps-port-colon" {
                basis: Defect, severity: Medium,
                rule: host::host_keeps_port_colon, scope: External("perl-uri"),
                spec: "RFC 3986 section 3.2.3 (port = *DIGIT; the host ends at the ':'); perldoc URI ($uri->host: \"Sets and returns the unescaped hostname\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                // A file URI's host is its whole authority to Perl
                // (`file-authority-as-host`).
                examples: [("perl-uri", "http://h:/")],
            }
        ] $($rest)* }
    };
}
