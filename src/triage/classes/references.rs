//! Class catalogue, part 2 of 5 in precedence order (see `mod.rs`):
//! reference forms and resolution: authority-form, network-path and
//! same-scheme references, and how each library resolves against a base.

/// Appends this part's rows to those gathered so far and hands them on
/// (`catalogue!` in `class_macros.rs`).
macro_rules! reference_classes {
    ([$($rows:tt)*] $($rest:ident)*) => {
        catalogue! { [$($rows)*
            /// `http::Uri` reads `name:rest` as an authority-form request target.
            AuthorityForm = "authority-form" {
                basis: Spec, severity: Medium,
                rule: http::authority_form, scope: Oracle(Http),
                spec: "RFC 9112 section 3.2.3; RFC 2396 sections 3 and 5",
                examples: [(Http, "mailto:a@b"), (Http, "localhost:8080"), (Http, "g")],
            }
            /// More than eight `:` before the host, which `http::Uri` refuses.
            AuthorityColons = "authority-colons" {
                basis: Spec, severity: Medium,
                rule: http::authority_colons, scope: Oracle(Http),
                spec: "RFC 2396 section 3.2.2; http 1.5 `MAX_COLONS` (src/uri/authority.rs)",
                examples: [(Http, "http://=RJc8l=f2%83:B:::::::::@example.com."), (Http, "http://a:::::::::@h/")],
            }
            /// `//host/path`: a network-path reference for RFC 2396, an origin-form
            /// path for `http::Uri`, and a path for Node's legacy `url.parse` (unless
            /// asked to read `//` as a host) and url-parse without a location.
            NetworkPathReference = "network-path-reference" {
                basis: Spec, severity: Medium,
                rule: http::network_path_reference, scope: Oracle(Http) | External("node-url") | External("url-parse"),
                spec: "RFC 2396 section 5 (net_path); RFC 9112 section 3.2.1 (origin-form); Node.js docs, url.parse(urlString, parseQueryString, slashesDenoteHost) (slashesDenoteHost, default false: \"given //foo/bar, the result would be ... {pathname: '//foo/bar'}\"); url-parse README (baseURL \"defaults to location in the browser\"; an empty location object in Node.js)",
                examples: [(Http, "//g"), (Http, "//evil.com/x"), ("node-url", "//evil.com/x"), ("url-parse", "//evil.com/x")],
                with_base: [(Http, "https://example.com/", "//evil.com/"), (Http, "https://example.com/", "///evil.com/")],
            }
            /// With a base, `http:g`: RFC 2396 and RFC 3986 (strict) keep the
            /// absolute `http:g`, WHATWG resolves it against a base of the same
            /// special scheme (`http://a/b/c/g`).
            SameSchemeReference = "same-scheme-reference" {
                basis: Spec, severity: Medium,
                rule: resolution::same_scheme_reference, scope: Standard(Whatwg) | External("node-url") | External("java-url"),
                spec: "RFC 2396 section 5.2 step 3 and Appendix C.2; RFC 3986 section 5.2.2 (strict parser); URL Standard (scheme state, special relative or authority state); Node.js lib/url.js, Url.prototype.resolveObject (a reference of the base's protocol is resolved as a relative one; url.resolve \"in a manner similar to that of a web browser\", Node.js docs); java.net.URL(URL, String) javadoc (\"If the scheme component is defined in the given spec and does not match the scheme of the context, then the new URL is created as an absolute URL based on the spec alone. Otherwise the scheme component is inherited from the context URL\"; OpenJDK 17 drops it against a base whose path starts with /)",
                examples: [],
                with_base: [(Url, "http://a/b/c/d;p?q", "http:g"), (Url, "ws:7", "ws:?"), (Ada, "ws:7", "ws::"), (Ada, "http:'/L", "http:/"), ("node-url", "http://a/b", "http:g"), ("node-url", "ws:a.b", "ws:?j"), ("upa-url", "ftp:gbKz4H", "ftp:g"), ("java-url", "http://a/b/c", "HTTP:g")],
            }
            /// With a base, a reference with the base's scheme (`http:g`) resolved
            /// as a relative one: RFC 3986's non-strict parser, which section 5.2.2
            /// allows "for backward compatibility" (Python's `urljoin`, httpx's and
            /// yarl's `URL.join`).
            NonStrictSameScheme = "non-strict-same-scheme" {
                basis: Spec, severity: Medium,
                rule: python::non_strict_same_scheme, scope: External("python-urllib") | External("httpx") | External("yarl"),
                spec: "RFC 3986 section 5.2.2 (\"if ((not strict) and (R.scheme == Base.scheme)) then undefine(R.scheme)\") and 5.4.2 (\"http:g\" = \"http://a/b/c/g\" \"for backward compatibility\"); CPython Lib/urllib/parse.py, urljoin (the reference parsed with the base's scheme as default; resolved when the schemes are the same and in uses_relative) and Lib/test/test_urlparse.py (checkJoin(RFC3986_BASE, 'http:g', 'http://a/b/c/g')); httpx 0.28 URL.join (calls urljoin); yarl 1.25 URL.join (scheme = url._scheme or self._scheme)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "http://a/b/c/d", "http:g"), ("httpx", "http://a/b/c/d", "http:g"), ("yarl", "http://a/b/c/d", "http:g"), ("yarl", "ws:x", "ws:?j")],
            }
            /// Node's legacy `url.parse` reads a host after `HTTP:` (any case but
            /// lower) without `//`, where `http:a/b` has none: it looks the scheme
            /// up as written.
            NodeSchemeCaseHost = "node-scheme-case-host" {
                basis: Spec, severity: High,
                rule: node::node_scheme_case_host, scope: External("node-url"),
                spec: "RFC 3986 section 3.1 (schemes are case-insensitive); Node.js lib/url.js, Url.prototype.parse (slashedProtocol.has(proto) with proto as written; hostlessProtocol with lowerProto); Node.js docs, url.parse (legacy, \"a lenient, non-standard algorithm\")",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("node-url", "HTTP:evil.example/x")],
            }
            /// Node's legacy `url.resolve` against a base whose scheme it does not
            /// list as slashed takes the reference's first path segment for the
            /// host: `evil.example` against `app://trusted` is
            /// `app://evil.example`.
            NodeResolveCrawlsToHost = "node-resolve-crawls-to-host" {
                basis: Spec, severity: Medium,
                rule: node::node_resolve_crawls_to_host, scope: External("node-url"),
                spec: "RFC 3986 section 5.2.2 (T.authority = Base.authority for a relative-path reference); Node.js lib/url.js, Url.prototype.resolveObject (\"If the url is a non-slashed url, then relative links like ../.. should be able to crawl up to the hostname, as well. This is strange.\"); Node.js docs, url.resolve (legacy)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("node-url", "app://trusted", "evil.example")],
            }
            /// Node's legacy `url.resolve` takes the first non-empty path segment of
            /// a reference of another slashed scheme, written without a host, for
            /// the host: `http:/evil.example/x` against `fp:/a` is
            /// `http://evil.example/x`.
            NodeResolveSchemeChangeHost = "node-resolve-scheme-change-host" {
                basis: Spec, severity: Medium,
                rule: node::node_resolve_scheme_change_host, scope: External("node-url"),
                spec: "RFC 3986 section 5.2.2 (a reference with a scheme is taken as it is: http:/evil.example/x has no authority); Node.js lib/url.js, Url.prototype.resolveObject (relative.protocol !== result.protocol, a slashed protocol and no relative.host: \"while (relPath.length && !(relative.host = relPath.shift()));\"); Node.js docs, url.resolve (legacy)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("node-url", "fp:/a", "http:/evil.example/x")],
            }
            /// url-parse resolves a relative path only against a base written with
            /// `//`: against another base the reference's path is kept as written
            /// (`q` against `p:/p:` is `p:q`).
            UrlParseSlashlessBase = "url-parse-slashless-base" {
                basis: Spec, severity: Low,
                rule: node::url_parse_slashless_base, scope: External("url-parse"),
                spec: "RFC 3986 section 5.2.2 (merge with the base's path); url-parse 1.5.10 index.js (Url: \"Resolve a relative path if needed\" only when location.slashes); its README claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("url-parse", "p:/p:", "q")],
            }
            /// url-parse reads a `file:` URL whose text after `//` starts with a
            /// letter and `:` as a path with no host (`file://c:/x`: path `/c:/x`),
            /// as the URL Standard's file host state reads a Windows drive letter.
            UrlParseFileDriveLetter = "url-parse-file-drive-letter" {
                basis: Spec, severity: Low,
                rule: node::url_parse_file_drive_letter, scope: External("url-parse"),
                spec: "URL Standard, file host state (a Windows drive letter as the host buffer: file-invalid-Windows-drive-letter-host, path state); url-parse 1.5.10 index.js (windowsDriveLetter = /^[a-zA-Z]:/; \"When the authority component is absent the URL starts with a path component\"); its README claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("url-parse", "file://c:/x"), ("url-parse", "file://h:1/x")],
            }
            /// url-parse drops a port `requires-port` says is not required: 0,
            /// a `file` URI's, a scheme's default (`y://h:0` has no port).
            UrlParsePortNotRequired = "url-parse-port-not-required" {
                basis: Spec, severity: Low,
                rule: node::url_parse_port_not_required, scope: External("url-parse"),
                spec: "RFC 3986 section 3.2.3 (the port as written; section 6.2.3 may drop only a default one); url-parse 1.5.10 index.js (if (!required(url.port, url.protocol)) url.port = ''); requires-port 1.0.0 index.js (if (!port) return false; case 'file': return false; the default ports of http, ws, https, wss, ftp and gopher); its README claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("url-parse", "y://h:0"), ("url-parse", "file://h1:55255/x")],
            }
            /// url-parse copies no query from the base: `""` against
            /// `http://h/p?q` is `http://h/p`.
            UrlParseNoBaseQuery = "url-parse-no-base-query" {
                basis: Spec, severity: Low,
                rule: node::url_parse_no_base_query, scope: External("url-parse"),
                spec: "RFC 3986 section 5.2.2 (if R.path == \"\" and R.query undefined, T.query = Base.query); url-parse 1.5.10 index.js (rules: of the location only the host, hostname and port rows are copied, not ['?', 'query'] nor ['#', 'hash']); its README claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("url-parse", "http://h/p?q", ""), ("url-parse", "http://h/p?q", "#f")],
            }
            /// url-parse copies no userinfo from the base: `b` against
            /// `http://u:p@h/a` is `http://h/b`.
            UrlParseNoBaseUserinfo = "url-parse-no-base-userinfo" {
                basis: Spec, severity: Low,
                rule: node::url_parse_no_base_userinfo, scope: External("url-parse"),
                spec: "RFC 3986 section 5.2.2 (T.authority = Base.authority for a reference without scheme or authority); url-parse 1.5.10 index.js (rules: of the location only the host, hostname and port rows are copied, not ['@', 'auth', 1]); its README claims no standard",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("url-parse", "http://u:p@h/a", "b"), ("url-parse", "ftp://u@h/", "")],
            }
            /// Perl's URI::ftp `path` is its `path_query`: `ftp://h?x` has the
            /// path `?x`.
            PerlUriFtpPathQuery = "perl-uri-ftp-path-query" {
                basis: Spec, severity: Low,
                rule: perl::perl_uri_ftp_path_query, scope: External("perl-uri"),
                spec: "RFC 2396 section 3 (the path ends at '?'); URI 5.17 URI/ftp.pm (sub path { shift->path_query(@_) }  # XXX)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("perl-uri", "ftp://h?x"), ("perl-uri", "ftp://h:21/p?q")],
            }
            /// Perl's `new_abs` keeps the base's fragment for a reference with
            /// an empty path and no fragment: `?` against `http://a/b#f` is
            /// `http://a/b?#f`.
            PerlUriBaseFragmentKept = "perl-uri-base-fragment-kept" {
                basis: Spec, severity: Low,
                rule: perl::perl_uri_base_fragment_kept, scope: External("perl-uri"),
                spec: "RFC 2396 section 5.2 step 7 and RFC 3986 section 5.2.2 (T.fragment = R.fragment); URI 5.17 URI/_generic.pm, abs (for an empty path: $abs->fragment($fragment) if defined $fragment); perldoc URI claims RFC 2396 for its objects, not for new_abs",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("perl-uri", "http://a/b#f", "?"), ("perl-uri", "http://a/b?q#f", "?x")],
            }
            /// Go's `ResolveReference` before Go 1.23 loses an opaque base's part
            /// for a reference without a path (`urn:a` + `#f`: `urn:#f`), where
            /// RFC 3986 section 5.2.2 keeps the base's path: its defect.
            GoOpaqueBaseDropped = "go-opaque-base-dropped" {
                basis: Defect, severity: Medium,
                rule: go::opaque_base_dropped, scope: External("go-net-url"),
                spec: "RFC 3986 section 5.2.2 (if R.path == \"\" then T.path = Base.path); https://github.com/golang/go/issues/66084 (fixed in Go 1.23, https://go.dev/cl/572915)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("go-net-url", "urn:a", "#f")],
            }
            /// Go's `url.Parse` reads `///x` without a scheme as a path, where RFC
            /// 3986 section 4.2 reads a network-path reference with an empty
            /// authority: its defect.
            GoTripleSlashPath = "go-triple-slash-path" {
                basis: Defect, severity: Medium,
                rule: go::triple_slash_path, scope: External("go-net-url"),
                spec: "RFC 3986 section 4.2 (network-path reference: relative-part = \"//\" authority path-abempty); https://github.com/golang/go/issues/46277 (open)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                // A parse alone is `unclaimed-standard` (url.Parse claims no
                // standard); ResolveReference claims RFC 3986 section 5.2.
                examples: [],
                with_base: [("go-net-url", "ws:/6", "///f")],
            }
            /// Go's `ResolveReference`, Python's `urljoin` (so httpx's `join`) and
            /// yarl's `URL.join` take a reference's empty authority (`//`) for none
            /// and keep the base's authority and path (`http://a/b` + `//`:
            /// `http://a/b`, RFC 3986: `http:`): their defect.
            EmptyAuthorityIgnored = "empty-authority-ignored" {
                basis: Defect, severity: Medium,
                rule: resolution::empty_authority_ignored, scope: External("go-net-url") | External("python-urllib") | External("httpx") | External("yarl") | External("ruby-uri") | External("ruby-uri-rfc2396"),
                spec: "RFC 3986 section 5.2.2 (if defined(R.authority) then T.authority = R.authority; T.path = remove_dot_segments(R.path)); Go net/url, URL.ResolveReference (tests ref.Host != \"\"); CPython urljoin (`if netloc:`), kept \"non-distinguished for compatibility\" in https://github.com/python/cpython/pull/126679; RFC 2396 section 5.2 step 4 (a defined authority makes a network-path reference; `server` may be empty, Appendix A); ruby/uri 0.11.0 (and 1.1.1) lib/uri/rfc3986_parser.rb and rfc2396_parser.rb give `//` no host (nil), and URI::Generic#merge keeps the base's authority when the reference has none; yarl 1.25 URL.join (`if (join_netloc := url._netloc) and scheme in USES_AUTHORITY`)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                // yarl claims no standard for URL.join: its finding is
                // `unclaimed-standard` (check.rs), so no example of its own.
                with_base: [("go-net-url", "http://a/b", "//"), ("python-urllib", "http://a/b", "//"), ("ruby-uri", "http://a/b", "//"), ("ruby-uri-rfc2396", "http://a/b", "///p")],
            }
            /// Go's `ResolveReference` drops one slash of a resolved path that
            /// starts with `//` (`h:/a` + `/..//x`: path `/x`, RFC 3986: `//x`): its
            /// defect.
            GoLeadingSlashesCollapsed = "go-leading-slashes-collapsed" {
                basis: Defect, severity: Low,
                rule: go::leading_slashes_collapsed, scope: External("go-net-url"),
                spec: "RFC 3986 section 5.2.4 (remove_dot_segments keeps empty segments: /..//x is //x); https://github.com/golang/go/issues/80282 (open)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("go-net-url", "h:/a", "/..//x")],
            }
            /// Go's `ResolveReference` loses an empty component RFC 3986 keeps
            /// apart from an undefined one: a reference's empty fragment (Go's
            /// `URL` has no `ForceFragment`, golang/go#29603), the base's empty
            /// query, and an empty authority with an empty path (`http://a/b`
            /// + `s://`: `s:`): its defect.
            GoEmptyComponentLost = "go-empty-component-lost" {
                basis: Defect, severity: Low,
                rule: go::empty_component_lost, scope: External("go-net-url"),
                spec: "RFC 3986 section 5.2.2 (T.query = Base.query; T.fragment = R.fragment) and 5.3 (\"we are careful to preserve the distinction between a component that is undefined ... and a component that is empty\"); Go net/url docs, URL.ResolveReference (\"per RFC 3986 Section 5.2\"); https://github.com/golang/go/issues/29603 (URL.ForceFragment, closed without one)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("go-net-url", "http://a/b?", ""), ("go-net-url", "http://a/b#g", "#"), ("go-net-url", "http://a/b", "s://")],
            }
            /// Python's `urljoin` (and httpx's `URL.join`, which calls it) drops
            /// the empty segments of a merged path (`http://a/b//c` + `d`:
            /// `http://a/b/d`, RFC 3986: `http://a/b//d`): its defect.
            UrljoinEmptySegments = "urljoin-empty-segments" {
                basis: Defect, severity: Medium,
                rule: python::urljoin_empty_segments, scope: External("python-urllib") | External("httpx"),
                spec: "RFC 3986 section 5.2.3 and 5.2.4 (empty segments are kept); https://github.com/python/cpython/issues/84774 (open; fix proposed in python/cpython#126679); httpx/_urls.py, URL.join (calls urllib.parse.urljoin)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "http://a/b//c", "d"), ("httpx", "http://a/b//c", "d")],
            }
            /// Python's `urljoin` (so httpx's `join`) leaves out an empty query or
            /// fragment of the reference (`b?#` against `http://a/`:
            /// `http://a/b`): its defect.
            UrljoinEmptyComponents = "urljoin-empty-components" {
                basis: Defect, severity: Low,
                rule: python::urljoin_empty_components, scope: External("python-urllib") | External("httpx"),
                spec: "RFC 3986 section 5.2.2 (T.query = R.query; T.fragment = R.fragment) and 5.3; https://github.com/python/cpython/issues/67041 (bpo-22852, \"urllib.parse wrongly strips empty #fragment, ?query, //netloc\"); urljoin keeps them since https://github.com/python/cpython/pull/123273",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "http://a/", "b?#")],
            }
            /// An empty reference against a base with a fragment gives the base
            /// whole, fragment included, as RFC 1808 did (CPython's `urljoin`).
            EmptyReferenceIsBase = "empty-reference-is-base" {
                basis: Spec, severity: Low,
                rule: python::empty_reference_is_base, scope: Any,
                spec: "RFC 1808 section 4 step 2 (\"If the embedded URL is entirely empty, it inherits the entire base URL\"); RFC 2396 section 4.2 and RFC 3986 section 5.1 (a base is used without its fragment); CPython Lib/test/test_urlparse.py (checkJoin(RFC1808_BASE, '', 'http://a/b/c/d;p?q#f'))",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "http://a/b#f", "")],
            }
            /// httpx's `urlparse` takes an empty authority for none, so `////`
            /// (authority "", path `//`, RFC 3986 section 4.2) is refused as a
            /// relative URL whose path starts with `//`, and `URL.join` joins `//`
            /// as "" (the base whole, whatever its scheme): its defect.
            HttpxEmptyAuthorityAsNone = "httpx-empty-authority-as-none" {
                basis: Defect, severity: Low,
                rule: python::httpx_empty_authority_as_none, scope: External("httpx"),
                spec: "RFC 3986 section 4.2 (relative-part = \"//\" authority path-abempty; authority may be empty) and 3.3 (the `//` rule is for a path without authority); httpx 0.28.1 httpx/_urlparse.py (has_authority = userinfo != \"\" or host != \"\" or port is not None; validate_path)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("httpx", "////")],
                with_base: [("httpx", "http://a/b", "////x"), ("httpx", "fine:/a", "//")],
            }
            /// httpx's `normalize_path` drops the slash before a final dot segment
            /// (`http://a/b/.`: path `/b`, RFC 3986 section 5.2.4: `/b/`): its
            /// defect.
            HttpxDotSegmentSlash = "httpx-dot-segment-slash" {
                basis: Defect, severity: Medium,
                rule: python::httpx_dot_segment_slash, scope: External("httpx"),
                spec: "RFC 3986 section 5.2.4 (rule B: \"/.\" is replaced by \"/\"; rule C: \"/..\" by \"/\"), which httpx/_urlparse.py normalize_path cites; its docstring: normalize_path(\"/path/./to/somewhere/..\") == \"/path/to\"",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("httpx", "http://a/b/.")],
            }
            /// Python's `urljoin` (so httpx's `join`) writes a rootless target path
            /// under an empty authority, with a `/` before it, for a scheme in
            /// `uses_netloc` (`ftp:a` + `ftp:g`: `ftp:///g`, RFC 3986: `ftp:g`):
            /// `urlunsplit`'s defect before CPython 3.12.6.
            UrlunsplitRootlessSlash = "urlunsplit-rootless-slash" {
                basis: Defect, severity: Low,
                rule: python::urlunsplit_rootless_slash, scope: External("python-urllib") | External("httpx"),
                spec: "RFC 3986 section 5.2.2 and 5.3 (the target's path as merged, rootless under no authority); CPython Lib/urllib/parse.py, urlunsplit (\"if url and url[:1] != '/': url = '/' + url\" for a scheme in uses_netloc); https://github.com/python/cpython/issues/85110 (\"urlunsplit makes relative path to absolute (http:g -> http:///g)\"), fixed by https://github.com/python/cpython/pull/123179 (CPython 3.12.6); httpx 0.28 URL.join (calls urljoin)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "ftp:a", "ftp:g"), ("httpx", "ftp:a", "ftp:g")],
            }
            /// Python's `urljoin` (so httpx's `join`) writes a target without
            /// authority whose path starts with `//` as `scheme:` and the path, which
            /// reads back with the path's first segment as the authority (`http:/` +
            /// `/.//h/p`: `http://h/p`, RFC 3986: path `//h/p`, no host):
            /// `urlunsplit`'s defect before CPython 3.12.4.
            UrlunsplitDoubleSlash = "urlunsplit-double-slash" {
                basis: Defect, severity: High,
                rule: python::urlunsplit_double_slash, scope: External("python-urllib") | External("httpx"),
                spec: "RFC 3986 section 3.3 (\"If a URI does not contain an authority component, then the path cannot begin with two slash characters\") and 5.2.4; CPython Lib/urllib/parse.py, urlunsplit (`//` before an empty netloc only \"if url[:2] != '//'\"); https://github.com/python/cpython/issues/67693, fixed by https://github.com/python/cpython/pull/113563 (CPython 3.12.4; 3.11: https://github.com/python/cpython/pull/119025); httpx 0.28 URL.join (calls urljoin)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "http:/", "/.//h/p"), ("httpx", "http:/", "/.//h/p")],
            }
            /// `java.net.URL` reads a file part that starts with four slashes
            /// (a Windows UNC name, `file:////server/share`) as a path with no
            /// authority, where RFC 2396 reads an empty authority and the path
            /// after it: the same text, split otherwise; a reference `////x` so
            /// keeps the base's authority (`http://a/b` + `////x`:
            /// `http://a////x`, RFC 2396: no host). Its defect (`URL(URL,
            /// String)` parses "as described in RFC2396").
            JavaUrlUncPath = "java-url-unc-path" {
                basis: Defect, severity: Low,
                rule: java::java_url_unc_path, scope: External("java-url"),
                spec: "RFC 2396 section 3 (net_path = \"//\" authority [ abs_path ]) and 3.2.2 (a server may be empty); java.net.URL(URL, String) javadoc (\"as described in RFC2396\"); RFC 2396 section 5.2 step 4 (a reference with an authority takes its own); OpenJDK 17 URLStreamHandler.parseURL (isUNCName: no authority step for a file part starting ////, so the context's authority stays)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-url", "file:////h/share")],
                with_base: [("java-url", "http://a/b", "////x")],
            }
            /// `java.net.URL` resolves a reference with an empty authority and no
            /// path (`//`) to that authority and the base's path (`https:/a` +
            /// `//`: `https:/a`, RFC 2396: `https://`): its defect.
            JavaUrlEmptyAuthorityKeepsPath = "java-url-empty-authority-keeps-path" {
                basis: Defect, severity: Low,
                rule: java::java_url_empty_authority_keeps_path, scope: External("java-url"),
                spec: "RFC 2396 section 5.2 step 4 (a reference with an authority is a network-path: its authority and path are taken); java.net.URL(URL, String) javadoc (\"If the authority component is present in the spec then ... the spec authority and path will replace the context authority and path\"); OpenJDK 17 URLStreamHandler.parseURL (the path is cleared only for a non-empty authority)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("java-url", "http://a/b", "//")],
            }
            /// `java.net.URL` removes dot segments only from a relative path it
            /// appends to a non-empty base path, with its own loop: a query-only
            /// reference keeps the base's (`http://a/b/../c/d` + `?y`:
            /// `/b/../c/`), and a `..` can take out a `..` before it
            /// (`http://a/../../b` + `../c`: `/../c`): its defect.
            JavaUrlDotSegments = "java-url-dot-segments" {
                basis: Defect, severity: Low,
                rule: java::java_url_dot_segments, scope: External("java-url"),
                spec: "RFC 2396 section 5.2 step 6 (c to f: every merged path loses its . and <segment>/.. for a segment other than ..) and Appendix C.1 (?y against http://a/b/c/d;p?q is http://a/b/c/?y); java.net.URL(URL, String) javadoc (\"the path is canonicalized through the removal of directory changes made by occurrences of '..' and '.'\"); OpenJDK 17 URLStreamHandler.parseURL (removal only when isRelPath)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("java-url", "http://a/b/../c/d", "?y"), ("java-url", "http://a/../../b", "../c"), ("java-url", "http://a", "./b")],
            }
            /// java.net.URI's `resolve` returns the reference itself against an
            /// opaque base (`mailto:x` + `y`: `y`), as its javadoc says.
            JavaUriOpaqueBase = "java-uri-opaque-base" {
                basis: Spec, severity: Low,
                rule: java::java_uri_opaque_base, scope: External("java-uri"),
                spec: "RFC 2396 section 5.2 (any absolute base); java.net.URI javadoc (Java SE 17), resolve(URI) (\"If the given URI is already absolute, or if this URI is opaque, then the given URI is returned.\")",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("java-uri", "mailto:x", "y"), ("java-uri", "urn:a:b", "#f")],
            }
            /// java.net.URI's `resolve` merges an empty reference's path like any
            /// other (`http://h/a/b` + `""`: `http://h/a/`), as its javadoc's
            /// steps say, where RFC 2396 makes it the current document.
            JavaUriEmptyReferenceMerged = "java-uri-empty-reference-merged" {
                basis: Spec, severity: Low,
                rule: java::java_uri_empty_reference_merged, scope: External("java-uri"),
                spec: "RFC 2396 section 5.2 step 2 (an empty path with no scheme, authority or query is the current document); java.net.URI javadoc (Java SE 17), resolve(URI) (only a fragment-only reference keeps this URI's path; otherwise the path is resolved \"by concatenating all but the last segment of this URI's path, if any, with the given URI's path\")",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("java-uri", "http://h/a/b", ""), ("java-uri", "ad2ddd:/f%20320", "")],
            }
            /// java.net.URI's `resolve` normalises the merged path with
            /// `normalize`, which also drops empty segments (`ftp:/a//b/c` + `d`:
            /// `ftp:/a/b/d`, RFC 2396: `ftp:/a//b/d`): its defect (Java SE 17's
            /// javadoc lists only `.` and `..`).
            JavaUriEmptySegmentsCollapsed = "java-uri-empty-segments-collapsed" {
                basis: Defect, severity: Low,
                rule: java::java_uri_empty_segments_collapsed, scope: External("java-uri"),
                spec: "RFC 2396 section 5.2 step 6 (the merged path keeps its empty segments; only . and <segment>/.. go); java.net.URI javadoc (Java SE 17), resolve (\"normalizing the result as if by invoking the normalize method\") and normalize (\"in a manner consistent with RFC 2396, section 5.2, step 6, sub-steps c through f\"); https://bugs.openjdk.org/browse/JDK-8382928 (documents the empty segments it drops)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("java-uri", "ftp:/a//b/c", "d")],
            }
            /// Go's `ResolveReference` result (`URL.String()`) and Python's
            /// `urljoin` result (`urlunsplit`, for a scheme in `uses_netloc`) are
            /// written with `//` after the scheme even where the base had no
            /// authority: an empty authority RFC 3986's result does not have.
            SerializedEmptyAuthority = "serialized-empty-authority" {
                basis: Spec, severity: Low,
                rule: resolution::serialized_empty_authority, scope: External("go-net-url") | External("python-urllib"),
                spec: "RFC 3986 section 5.3; Go net/url docs, URL.String (second form \"scheme://userinfo@host/path\"; \"if u.Host is empty, host/ is omitted\") and URL.OmitHost (\"do not emit empty host (authority)\", golang/go#46059), which ResolveReference's result does not carry (Go 1.19.8: `foo:/a/b` + `c` is `foo:///a/c`); CPython Lib/urllib/parse.py, urlunsplit (for a scheme in `uses_netloc` it writes `//` before an empty netloc: `urljoin(\"file:/p\", \"/i\")` is `file:///i`)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("go-net-url", "foo:/a/b", "c"), ("python-urllib", "file:/p", "/i")],
            }
            /// A pair whose base RFC 2396 and RFC 3986 do not resolve against (no
            /// scheme, or an opaque part), joined anyway by a parser that claims no
            /// standard.
            LenientBase = "lenient-base" {
                basis: Spec, severity: Low,
                rule: resolution::lenient_base, scope: NoStandard,
                spec: "RFC 2396 section 5.2; RFC 3986 section 5.2.1 (\"A base URI must conform to the <absolute-URI> syntax rule\"); Python docs, urllib.parse.urljoin (no check of the base); Go docs, URL.ResolveReference (\"from an absolute base URI u\": the caller's precondition); Node.js docs, url.resolve (legacy, \"similar to that of a web browser resolving an anchor tag\"); url-parse README (baseURL); perldoc URI, $uri->abs",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "/a/b", "c"), ("go-net-url", "/a/b", "c"), ("python-urllib", "t:x", "y")],
            }
            /// Python's `urljoin` (and yarl's and httpx's `join`) resolves only
            /// against a base whose scheme is in `uses_relative`; against another
            /// base (`s3:`, `foo:`) it gives the reference back unresolved, where
            /// RFC 2396 and RFC 3986 resolve against any base.
            JoinWithoutRelativeScheme = "join-without-relative-scheme" {
                basis: Spec, severity: Medium,
                rule: resolution::join_without_relative_scheme,
                scope: External("python-urllib") | External("yarl") | External("httpx"),
                spec: "RFC 3986 section 5.2; CPython Lib/urllib/parse.py, urljoin (`if scheme != bscheme or scheme not in uses_relative: return url`) and cpython#110463 (open: `urljoin(\"s3://example.com\", \"relative_path\")` is `relative_path`); yarl 1.25 URL.join (`USES_RELATIVE`, urllib's list); httpx 0.28 URL.join (calls urljoin)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [],
                with_base: [("python-urllib", "s3://example.com/a", "relative_path"), ("yarl", "s3://example.com/a", "relative_path"), ("httpx", "s3://example.com/a", "relative_path"), ("yarl", "c://", "//"), ("yarl", "h:/", "//Q:")],
            }
            /// With a base that has a fragment: RFC 3986 parsers refuse it (a base
            /// is an `absolute-URI`), RFC 2396 and WHATWG ignore the fragment.
            BaseFragment = "base-fragment" {
                basis: Spec, severity: Low,
                rule: resolution::base_fragment, scope: Standard(Rfc3986),
                spec: "RFC 3986 sections 4.3 and 5.1; RFC 2396 section 5.2 step 1; URL Standard (basic URL parser)",
                examples: [],
                with_base: [(Rfc3986, "http://a/b#frag", "c"), (IriString, "http://a/b#frag", "c")],
            }
            /// An absolute reference against a base RFC 2396 refuses: this crate
            /// refuses the pair, RFC 3986 and WHATWG take the reference as it is.
            BaseIgnored = "base-ignored" {
                basis: Spec, severity: Low,
                rule: resolution::base_ignored, scope: Any,
                spec: "RFC 2396 section 5.2 (an absolute base URI); RFC 3986 section 5.2.2 (R.scheme defined: T = R); URL Standard (scheme state)",
                examples: [],
                with_base: [(Http, "", "http://h/"), (Http, "rtt", "a://h")],
            }
            /// With a base the other parser refuses on its own (see `uridiff check
            /// BASE` for why): it resolves nothing against it.
            BaseRefused = "base-refused" {
                basis: Spec, severity: Low,
                rule: resolution::base_refused, scope: Any,
                spec: "the base's own findings (uridiff check BASE)",
                examples: [],
                with_base: [(Url, "http://", "ttp://")],
            }
            /// With an opaque base (`mailto:a@b`): RFC 2396 resolves only a
            /// fragment or empty reference, RFC 3986 merges with a rootless path,
            /// WHATWG refuses all but a fragment.
            OpaqueBase = "opaque-base" {
                basis: Spec, severity: Low,
                rule: resolution::opaque_base, scope: Standard(Whatwg) | Standard(Rfc3986) | Oracle(Curl),
                spec: "RFC 2396 section 5.2 steps 2-3; RFC 3986 section 5.2.3; URL Standard (no scheme state)",
                examples: [],
                with_base: [(Url, "mailto:a@b", ""), (IriString, "mailto:a@b", "c")],
            }
            /// With a base, the merged path starts with `//` and the result has no
            /// authority: RFC 2396 and RFC 3986 cannot write it, WHATWG writes
            /// `/.//`.
            AmbiguousResolvedPath = "ambiguous-resolved-path" {
                basis: Spec, severity: Medium,
                rule: resolution::ambiguous_resolved_path, scope: Any,
                spec: "RFC 3986 section 5.2.4 and 3.3 (a path without authority cannot begin with //); URL Standard (URL serializing, /. prefix)",
                examples: [],
                with_base: [(Url, "foo:/a/b", "..//g")],
            }
            /// With a base, `?y`: RFC 2396 resolves it in the base's directory
            /// (`http://a/b/c/?y`), RFC 3986 and WHATWG on the base's path
            /// (`http://a/b/c/d;p?y`).
            QueryOnlyResolution = "query-only-resolution" {
                basis: Spec, severity: Medium,
                rule: resolution::query_only_resolution, scope: Any,
                spec: "RFC 2396 Appendix C.1 and section 5.2 step 6; RFC 3986 section 5.2.2 and 5.4.1; URL Standard (relative state)",
                examples: [],
                with_base: [(Rfc3986, "http://a/b/c/d;p?q", "?y"), (Url, "http://a/b/c/d;p?q", "?y"), (Url, "http://a/b/../c", "?y")],
            }
            /// WHATWG's own rules for `file` URLs: `localhost` is the empty host,
            /// drive letters belong to the path, no credentials or port (also
            /// upa-url's, whose documentation claims the URL Standard).
            FileScheme = "file-scheme" {
                basis: Spec, severity: Medium,
                rule: authority::file_scheme, scope: Standard(Whatwg) | External("upa-url"),
                spec: "URL Standard (file state, file host state); RFC 8089 section 2; upa-url README (\"compliant with the WHATWG URL ... standards\")",
                examples: [(Url, "file://localhost/etc/passwd"), (Url, "file://c:/x"), (Url, "file:?//tables.json"), ("upa-url", "file://localhost/etc/passwd"), ("upa-url", "file://c:/foo.txt"), ("upa-url", "file://user@hostname/p")],
            }
            /// A special scheme (`http:`, …) without `//`, or with an empty
            /// authority: WHATWG finds a host anyway (and so does upa-url, whose
            /// documentation claims the URL Standard).
            SpecialSchemeSlashes = "special-scheme-slashes" {
                basis: Spec, severity: Medium,
                rule: authority::special_scheme_slashes, scope: Standard(Whatwg) | External("upa-url") | External("url-parse"),
                spec: "RFC 2396 section 3; URL Standard (special authority ignore slashes state); upa-url README (\"compliant with the WHATWG URL ... standards\"); url-parse 1.5.10 index.js, extractProtocol and isSpecial (for file, ftp, http, https, ws and wss the slashes and backslashes after the scheme are skipped and what follows is read as the authority)",
                examples: [(Url, "http:evil.com/"), (Url, "http:/evil.com/"), (Url, "http:///evil.com/"), (Url, "httpS:s3:?/"), ("upa-url", "ftp:///path"), ("upa-url", "http:///"), ("url-parse", "http:/evil.com/"), ("url-parse", "wss:/bbbbbb:0800")],
                with_base: [(Ada, "ws:/6", "///f"), ("url-parse", "ws:/6", "///f"), ("url-parse", "http:/%4e:80?", "////u@h:36/a")],
            }
            /// `scheme:/path` or `scheme://` with an empty authority, which
            /// `http::Uri` refuses: its absolute-form needs an authority.
            MissingAuthority = "missing-authority" {
                basis: Spec, severity: Medium,
                rule: http::missing_authority, scope: Oracle(Http),
                spec: "RFC 9112 section 3.2.2; RFC 2396 section 3",
                examples: [(Http, "http:/evil.com/"), (Http, "file:///etc")],
            }
        ] $($rest)* }
    };
}
