//! Class catalogue, part 1 of 5 in precedence order (see `mod.rs`):
//! refusals and dialects: length limits, curl's dialect, the lenient
//! splitters, whitespace and characters, escapes, scheme syntax.

/// Appends this part's rows to those gathered so far and hands them on
/// (`catalogue!` in `class_macros.rs`).
macro_rules! refusal_classes {
    ([$($rows:tt)*] $($rest:ident)*) => {
        catalogue! { [$($rows)*
            /// Longer than the other parser accepts (`http::Uri`: 65 534 bytes, and
            /// 64 for a scheme).
            LengthLimit = "length-limit" {
                basis: Spec, severity: Low,
                rule: syntax::length_limit, scope: Oracle(Http) | Oracle(Curl),
                spec: "http 1.5 `MAX_LEN` and `MAX_SCHEME_LEN` (src/uri/mod.rs); libcurl `MAX_SCHEME_LEN` (lib/urlapi.c) and `CURL_MAX_INPUT_LENGTH`",
                examples: [(Http, "sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss://h/")],
            }
            /// curl passes characters RFC 2396 excludes on (unwise, delims, a
            /// stray `%`) and percent-encodes non-ASCII bytes.
            CurlLenientCharacters = "curl-lenient-characters" {
                basis: Spec, severity: Medium,
                rule: curl::curl_lenient_characters, scope: Oracle(Curl),
                spec: "everything.curl.dev, URLs (\"only limited checks of the format\"); curl docs/URL-SYNTAX.md (non-ASCII); RFC 2396 section 2.4.3",
                examples: [(Curl, "http://a\\b@c/d"), (Curl, "http://h/{x}")],
            }
            /// curl's `file://` takes only `localhost`, `127.0.0.1` or no host, and
            /// reports none.
            CurlFileHost = "curl-file-host" {
                basis: Spec, severity: Medium,
                rule: curl::curl_file_host, scope: Oracle(Curl),
                spec: "everything.curl.dev, The scheme separator (file:// host names); curl test 1145; libcurl CURLUE_BAD_FILE_URL",
                examples: [(Curl, "file://localhost/etc/passwd"), (Curl, "file://1.2.3.4/C:/"), (Curl, "file:///C:/")],
            }
            /// curl needs a host in every URL but `file://`.
            CurlHostRequired = "curl-host-required" {
                basis: Spec, severity: Medium,
                rule: curl::curl_host_required, scope: Oracle(Curl),
                spec: "libcurl curl_url_set (CURLUE_NO_HOST); curl docs/URL-SYNTAX.md (Hostname); RFC 2396 section 3",
                examples: [(Curl, "http:///"), (Curl, "mailto:a@b")],
            }
            /// libcurl refuses a host name its host name check does not take
            /// (`CURLUE_BAD_HOSTNAME`), where RFC 2396 reads a `reg_name`.
            CurlBadHostname = "curl-bad-hostname" {
                basis: Spec, severity: Medium,
                rule: curl::curl_bad_hostname, scope: Oracle(Curl),
                spec: "libcurl curl_url_set (CURLUE_BAD_HOSTNAME); curl docs/URL-SYNTAX.md (Hostname); RFC 2396 section 3.2.1",
                examples: [(Curl, "mysql://a,b,c/bar")],
            }
            /// libcurl refuses a port that is not a decimal number
            /// (`CURLUE_BAD_PORT_NUMBER`: `-80`, `80x`; a number above 65535
            /// that RFC 2396 reads as a port is `port-out-of-range`), where RFC 2396
            /// reads the whole authority as a `reg_name`.
            CurlBadPort = "curl-bad-port" {
                basis: Spec, severity: Medium,
                rule: curl::curl_bad_port, scope: Oracle(Curl),
                spec: "libcurl curl_url_set (CURLUE_BAD_PORT_NUMBER); RFC 3986 section 3.2.3 (port = *DIGIT); RFC 2396 section 3.2 (reg_name)",
                examples: [(Curl, "http://foo:-80/"), (Curl, "http://h:80x/")],
            }
            /// curl accepts one or three slashes after the scheme and finds the
            /// host there.
            CurlSlashes = "curl-slashes" {
                basis: Spec, severity: Medium,
                rule: curl::curl_slashes, scope: Oracle(Curl),
                spec: "everything.curl.dev, The scheme separator (one or three slashes); RFC 2396 section 3",
                examples: [(Curl, "ftp:///path"), (Curl, "h:/d?")],
            }
            /// A parser that claims no standard (its descriptor names none: a
            /// splitter such as PHP's `parse_url`, whose documentation says it does
            /// not validate) accepts what every standard here forbids and reports
            /// it: a bracketed host that is no IP literal (`adict[2]`), or a scheme
            /// that is none (`1http`). Its leniency, never a defect: the
            /// self-checks that would call it `invalid-ip-literal` or
            /// `invalid-scheme` apply only against a claimed standard.
            LenientSplitter = "lenient-splitter" {
                basis: Spec, severity: Medium,
                rule: lenient::lenient_splitter, scope: NoStandard,
                spec: "RFC 3986 sections 3.1 and 3.2.2; PHP manual, parse_url (\"This function is not meant to validate the given URL, it only breaks it up into the parts listed\"); Node.js docs, url.parse() (\"uses a lenient, non-standard algorithm for parsing URL strings\"; DEP0169: CVEs are not issued for it); Python docs, urllib.parse, URL parsing security (urlsplit and urlparse do not validate their input); Go docs, net/url Parse (\"parses a raw url into a URL structure\", no standard named); perldoc URI, URI->new (\"Characters outside this set are automatically escaped by the URI constructor\": it refuses nothing)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("php-parse-url", "cfg://adict[2]"), ("php-parse-url", "dax://{dct["), ("php-parse-url", "1http://h/"), ("node-url", "1http://h/"), ("python-urllib", "http://[fe80::1%en0]/"), ("perl-uri", "sftp://[user@]host/path")],
            }
            /// Whitespace or a control character, stripped or tolerated by the other
            /// (RFC 2396 section 2.4.3; WHATWG strips tabs, newlines, edge spaces).
            WhitespaceOrControl = "whitespace-or-control" {
                basis: Spec, severity: Medium,
                rule: characters::whitespace_or_control, scope: Any,
                spec: "RFC 2396 section 2.4.3; URL Standard (basic URL parser, steps 1-3)",
                examples: [(Url, "http://exa\tmple.com/"), (Url, " http://h/")],
            }
            /// Addressable, uri-js and fast-uri, which document RFC 3987 (IRIs)
            /// beside RFC 3986, accept characters beyond ASCII where an IRI may hold
            /// them (RFC 3987 `ucschar`), which RFC 3986 and RFC 2396 refuse (uri-js
            /// and fast-uri map the IRI to its URI: IDNA for a domain host,
            /// percent-encoded UTF-8 elsewhere).
            IriCharacters = "iri-characters" {
                basis: Spec, severity: Low,
                rule: characters::iri_characters, scope: External("ruby-addressable") | External("uri-js") | External("fast-uri"),
                spec: "RFC 3987 section 2.2 (ucschar) and section 3.1 (mapping an IRI to a URI); Addressable README (\"Addressable closely conforms to RFC 3986, RFC 3987, and RFC 6570 (level 4)\") and Addressable::URI (\"an implementation of a URI parser based on RFC 3986, RFC 3987\"); uri-js README (\"also compliant with the IRI (RFC 3987)\"; IRI Support: `URI.serialize(URI.parse(\"http://examplé.org/rosé\"))` is `http://xn--exampl-gva.org/ros%C3%A9`); fast-uri README, Options (`unicodeSupport`, off by default: non-ASCII characters stay escaped in the parsed output)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-addressable", "http://h/\u{e9}"), ("ruby-addressable", "https://\u{6e2c}\u{8a66}/?abc"), ("uri-js", "http://h/\u{e9}"), ("fast-uri", "http://h/\u{e9}")],
            }
            /// java.net.URI accepts characters outside US-ASCII of its "other"
            /// category (no ISO control, no space character) wherever RFC 2396
            /// permits an escaped octet: in the userinfo, path, query and
            /// fragment, and in a registry-based authority (`https://i❤️.ws`
            /// has no host). Its documented deviation from RFC 2396, which is
            /// limited to US-ASCII (section 2.1).
            JavaOtherCharacters = "java-other-characters" {
                basis: Spec, severity: Low,
                rule: characters::java_other_characters, scope: External("java-uri"),
                spec: "java.net.URI javadoc (Java SE 17), Character categories: \"other\" characters \"are permitted wherever RFC 2396 permits escaped octets, that is, in the user-information, path, query, and fragment components, as well as in the authority component if the authority is registry-based\" (\"Deviation from RFC 2396, which is limited to US-ASCII\"); RFC 2396 sections 2.1 and 2.4.1",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [("java-uri", "https://i\u{2764}\u{fe0f}.ws"), ("java-uri", "HTTP://@\u{dd}/44///"), ("java-uri", "http://u\u{e9}@h/p?\u{e9}#\u{e9}")],
            }
            /// A character outside US-ASCII (RFC 2396 section 2.1), encoded or
            /// IDNA-mapped by the other.
            NonAscii = "non-ascii" {
                basis: Spec, severity: Medium,
                rule: characters::non_ascii, scope: Any,
                spec: "RFC 2396 section 2.1; URL Standard (UTF-8 percent-encode)",
                examples: [(Url, "http://h/é")],
            }
            /// A bracketed IP literal (`[::1]`): RFC 2732 and RFC 3986 section 3.2.2
            /// allow it, RFC 2396 section 2.4.3 calls `[` and `]` unwise.
            IpLiteral = "ip-literal" {
                basis: Spec, severity: Medium,
                rule: host::ip_literal, scope: Any,
                spec: "RFC 2396 section 2.4.3; RFC 2732; RFC 3986 section 3.2.2",
                // libcurl writes a valid literal in its own form (`[::13.1.68.3]`
                // here): the same literal, no leniency.
                examples: [(Url, "http://[::1]/"), (Ada, "http://[::1]/"), (IriString, "http://[::1]/"), (Curl, "http://[0:0:0:0:0:0:0d01:4403]/")],
            }
            /// A backslash, read by WHATWG as `/` in special schemes (also by
            /// upa-url, whose documentation claims the URL Standard).
            Backslash = "backslash" {
                basis: Spec, severity: Medium,
                rule: characters::backslash, scope: Standard(Whatwg) | External("upa-url"),
                spec: "RFC 2396 section 2.4.3; URL Standard (special authority slashes state); upa-url README (\"compliant with the WHATWG URL ... standards\")",
                examples: [(Url, "http:\\\\evil.com\\x"), ("upa-url", "http://example.com\\@evil.com/")],
                with_base: [(Url, "https://example.com/", "/\\evil.com"), (Ada, "https://example.com/", "\\/\\/evil.com/")],
            }
            /// An `unwise` character (RFC 2396 section 2.4.3) tolerated or encoded.
            UnwiseCharacter = "unwise-character" {
                basis: Spec, severity: Medium,
                rule: characters::unwise_character, scope: Any,
                spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
                examples: [(Url, "http://h/{x}")],
            }
            /// A `delims` character (`<`, `>`, `"`, a second `#`; RFC 2396 section
            /// 2.4.3) tolerated or encoded.
            DelimsCharacter = "delims-character" {
                basis: Spec, severity: Medium,
                rule: characters::delims_character, scope: Any,
                spec: "RFC 2396 section 2.4.3; URL Standard (percent-encode sets)",
                examples: [(Url, "http://h/a\"b"), (Url, "http://h/#a#b")],
            }
            /// `%` not followed by two hex digits (RFC 2396 section 2.4.1).
            InvalidEscape = "invalid-escape" {
                basis: Spec, severity: Medium,
                rule: characters::invalid_escape, scope: Any,
                spec: "RFC 2396 section 2.4.1; URL Standard (percent-encoded bytes)",
                examples: [(Url, "http://h/%zz")],
            }
            /// `scheme:` with nothing after it: RFC 2396's `opaque_part` needs a
            /// character; RFC 3986 and WHATWG allow an empty path.
            EmptyOpaquePart = "empty-opaque-part" {
                basis: Spec, severity: Low,
                rule: syntax::empty_opaque_part, scope: Any,
                spec: "RFC 2396 section 3; RFC 3986 section 3 (path-empty)",
                examples: [(Rfc3986, "about:")],
            }
            /// `?y`: Appendix A cannot derive a query-only reference (Appendix C
            /// resolves one); RFC 3986 allows it.
            QueryOnlyReference = "query-only-reference" {
                basis: Spec, severity: Low,
                rule: syntax::query_only_reference, scope: Any,
                spec: "RFC 2396 Appendix A and Appendix C; RFC 3986 section 4.2",
                examples: [(Rfc3986, "?y")],
            }
            /// The text before the first `:` is not an RFC 2396 scheme (it must
            /// start with a letter, section 3.1), so RFC 2396 reads a relative path
            /// whose first segment may not hold `:`.
            SchemeSyntax = "scheme-syntax" {
                basis: Spec, severity: Medium,
                rule: syntax::scheme_syntax, scope: Any,
                spec: "RFC 2396 sections 3.1 and 5",
                // http::Uri's acceptance of `1http://h/` is its own defect
                // (invalid-scheme), not this difference.
                examples: [(Http, ":")],
                with_base: [(Url, "h://ba:0", ":")],
            }
        ] $($rest)* }
    };
}
