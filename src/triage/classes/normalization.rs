//! Class catalogue, part 4 of 5 in precedence order (see `mod.rs`):
//! normalization: empty components, ports, case, paths,
//! percent-encoding, normalized bases.

/// Appends this part's rows to those gathered so far and hands them on
/// (`catalogue!` in `class_macros.rs`).
macro_rules! normalization_classes {
    ([$($rows:tt)*] $($rest:ident)*) => {
        catalogue! { [$($rows)*
            /// An empty host where RFC 2396 has none (an empty `server`).
            EmptyHost = "empty-host" {
                basis: Spec, severity: Low,
                rule: host::empty_host, scope: Any,
                spec: "RFC 2396 section 3.2.2 (server); RFC 3986 section 3.2.2 (reg-name)",
                examples: [(Rfc3986, "file:///etc/passwd")],
            }
            /// `//@host`: RFC 2396 keeps an empty userinfo, the other drops it.
            EmptyUserinfo = "empty-userinfo" {
                basis: Spec, severity: Low,
                rule: authority::empty_userinfo, scope: Any,
                spec: "RFC 2396 section 3.2.2; RFC 1738 section 3.1; URL Standard (authority state)",
                examples: [(Url, "ftp://@host.com/")],
            }
            /// `//user:@host`: the empty password's `:` is dropped.
            EmptyPassword = "empty-password" {
                basis: Spec, severity: Low,
                rule: authority::empty_password, scope: Any,
                spec: "RFC 1738 section 3.1; URL Standard (URL serializing)",
                examples: [(Url, "ftp://foo:@host.com/"), (Url, "hutp://1%20sRRR;RRRmailto:@z6/")],
            }
            /// Addressable reads the port as an Integer: a written `080` is 80, an
            /// empty port none.
            IntegerPort = "integer-port" {
                basis: Spec, severity: Low,
                rule: port::integer_port, scope: External("ruby-addressable"),
                spec: "RFC 3986 sections 3.2.3 and 6.2.3; Addressable::URI#port (\"This is the port number actually given in the URI\", @return [Integer])",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-addressable", "http://h:080/"), ("ruby-addressable", "file://c:/path/name")],
            }
            /// `//host:/`: RFC 2396 `port = *digit` allows an empty port.
            EmptyPort = "empty-port" {
                basis: Spec, severity: Low,
                rule: port::empty_port, scope: Any,
                spec: "RFC 2396 section 3.2.2; RFC 3986 section 6.2.3",
                examples: [(Url, "http://host:/"), ("urllib3", "http://foo.com:/")],
            }
            /// The scheme's default port is written out, and elided by the other.
            DefaultPort = "default-port" {
                basis: Spec, severity: Low,
                rule: port::default_port, scope: Any,
                spec: "URL Standard (port state); RFC 3986 section 6.2.3",
                examples: [(Url, "http://host:80/")],
            }
            /// The same port number written differently (leading zeros).
            PortNormalized = "port-normalized" {
                basis: Spec, severity: Low,
                rule: port::port_normalized, scope: Any,
                spec: "URL Standard (port state)",
                examples: [(Url, "http://h:0081/")],
            }
            /// `?` inside an RFC 2396 `opaque_part` belongs to the path; the others
            /// split off a query.
            OpaquePartQuery = "opaque-part-query" {
                basis: Spec, severity: Medium,
                rule: syntax::opaque_part_query, scope: Any,
                spec: "RFC 2396 section 3; RFC 3986 section 3.4",
                // The adapters' rows: an empty path reported as none
                // (`empty-as-absent`), checked through the CLI with the
                // shipped adapters (tests/it/external_cli.rs).
                examples: [(Rfc3986, "mailto:a@b?x"), ("node-url", "gmi:?g"), ("php-parse-url", "gmi:?g")],
            }
            /// Scheme or host case folded (RFC 2396 sections 3.1 and 3.2.2 make them
            /// case-insensitive).
            CaseNormalized = "case-normalized" {
                basis: Spec, severity: Low,
                rule: host::case_normalized, scope: Any,
                spec: "RFC 2396 sections 3.1 and 3.2.2; URL Standard (host parsing)",
                examples: [(Url, "HTTP://EXAMPLE.COM/")],
            }
            /// An empty path written as `/` by the other.
            EmptyPathSlash = "empty-path-slash" {
                basis: Spec, severity: Low,
                rule: path::empty_path_slash, scope: Any,
                spec: "URL Standard (path start state); RFC 9110 section 4.2.3",
                examples: [(Url, "http://h")],
            }
            /// Spring's `UriComponentsBuilder` writes every `//` in a path as `/`.
            PathSlashesCollapsed = "path-slashes-collapsed" {
                basis: Spec, severity: Medium,
                rule: path::path_slashes_collapsed, scope: External("spring-uri"),
                spec: "RFC 2396 section 3.3 (empty segments); Spring UriComponentsBuilder, FullPathComponentBuilder (\"replace all // by /\", since spring-framework#14904 and #17006; spring-framework#34076, closed: sanitising kept)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("spring-uri", "http://h/a//b"), ("spring-uri", "http:/evil.example://allowed.example")],
            }
            /// Spring gives its query back rebuilt from the parameters it found
            /// (`QUERY_PARAM_PATTERN`, values grouped by name): `?a&&b` is `a&b`,
            /// `?=x` is `x`.
            SpringQueryRebuilt = "spring-query-rebuilt" {
                basis: Spec, severity: Low,
                rule: spring::spring_query_rebuilt, scope: External("spring-uri"),
                spec: "RFC 2396 section 3.4 (the query is a string); Spring 4.3 UriComponentsBuilder.query (QUERY_PARAM_PATTERN ([^&=]+)(=?)([^&]+)? into a LinkedMultiValueMap) and HierarchicalUriComponents.getQuery (name or name=value joined by &); its documentation claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("spring-uri", "http://h/?a&&b"), ("spring-uri", "http://h/?a=1&b&a=2")],
            }
            /// For an opaque URI Spring cuts an empty fragment's `#` off its
            /// scheme-specific part only when the fragment has a length:
            /// `file:s/a#` has the part `s/a#`.
            SpringOpaqueEmptyFragment = "spring-opaque-empty-fragment" {
                basis: Spec, severity: Low,
                rule: spring::spring_opaque_empty_fragment, scope: External("spring-uri"),
                spec: "RFC 2396 section 3 (opaque_part ends before the fragment) and 4.1; Spring 4.3 UriComponentsBuilder.fromUriString (for an opaque URI the fragment is cut off the scheme-specific part only if StringUtils.hasLength(fragment)); its documentation claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("spring-uri", "file:s/a#")],
            }
            /// Dot segments removed by the other (RFC 2396 section 5.2 removes them
            /// only when resolving a relative path).
            DotSegments = "dot-segments" {
                basis: Spec, severity: Medium,
                rule: path::dot_segments, scope: Any,
                spec: "RFC 2396 section 5.2 step 6; RFC 3986 section 5.2.4; URL Standard (path state)",
                examples: [(Url, "http://h/a/../b"), (Url, "http://a/../g"), (Url, "ht3:/%2e/a/"), (Url, "http://h/a/%2E%2e/b")],
                with_base: [(Rfc3986, "http://a/b/c/d;p?q", "../../../g"), (Url, "http://a/b/c/d;p?q", "../../../g")],
            }
            /// rust-url keeps a drive-letter-like segment (`c:`) against `..` in
            /// every scheme, not only `file`, and empties the host of a `file` URL
            /// whose path starts with a drive letter: both break the URL Standard,
            /// so defects of `url`.
            WindowsDriveLetter = "windows-drive-letter" {
                basis: Defect, severity: Medium,
                rule: path::windows_drive_letter, scope: Oracle(Url),
                spec: "URL Standard (shorten a URL's path; file host state); rust-url 2.5.8 `last_slash_can_be_removed`; WPT url/resources/urltestdata.json",
                examples: [(Url, "http://h/a/r:/../../ZZ"), (Url, "htt:/1./r:/../../ZZ"), (Url, "afiue://h/E:/%2e%2E/x"), (Url, "file://1.2.3.4/C:/")],
            }
            /// The same octets, percent-encoded differently (RFC 2396 section 2.4.2).
            PercentEncoding = "percent-encoding" {
                basis: Spec, severity: Medium,
                rule: characters::percent_encoding, scope: Any,
                spec: "RFC 2396 section 2.4.2; URL Standard (percent-encode sets)",
                examples: [(Url, "http://h/?a'b")],
            }
            /// With a base, a `%2e` segment in the path being resolved: WHATWG, the
            /// RFC 3986 parsers (normalising first) and libcurl remove it as a dot
            /// segment, RFC 2396 as an ordinary segment a later `..` takes away.
            EncodedDotSegment = "encoded-dot-segment" {
                basis: Spec, severity: Medium,
                rule: resolution::encoded_dot_segment, scope: Any,
                spec: "RFC 2396 section 5.2 step 6; RFC 3986 sections 2.3, 5.2.4 and 6.2.2.2; URL Standard (single-dot and double-dot URL path segment); libcurl lib/urlapi.c (is_dot)",
                examples: [],
                with_base: [(Url, "httj://t", "1/%2e/.."), (Rfc3986, "httj://t", "1/%2e/.."), (IriString, "http6:/../", "t/%2e/.."), (Curl, "httj://t", "1/%2e/.."), (Rfc3986, "http:/../...////%2e./..//%1e/.", ".")],
            }
            /// With a base: WHATWG and libcurl resolve against the base as they read
            /// it, its dot segments already removed and its host found, where RFC
            /// 2396 merges with the base's path as written.
            NormalizedBase = "normalized-base" {
                basis: Spec, severity: Medium,
                rule: resolution::normalized_base, scope: Standard(Whatwg) | Oracle(Curl) | External("yarl"),
                spec: "RFC 2396 section 5.2 step 6; URL Standard (basic URL parser: the base is a parsed URL record; path state); libcurl lib/urlapi.c (dedotdotify on curl_url_set); RFC 3986 section 5.2.1 (\"Normalization of the base URI ... is optional\") and yarl 1.25 yarl/_url.py (a path under an authority is normalize_path'd as the URL is built)",
                examples: [],
                with_base: [(Url, "r:/f//..", "i"), (Ada, "r:/f//..", "i"), (Curl, "file:/..///..", "~"), (Url, "ttp://.p://.%2E#/ftp:7.", "2"), (Url, "ws://$@%22/.i/..", ","), ("upa-url", "htj:/..j:/.%2E", "n/x"), ("yarl", "http://h/a/b/..", "c")],
            }
        ] $($rest)* }
    };
}
