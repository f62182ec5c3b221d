//! Class catalogue, part 5 of 5 in precedence order (see `mod.rs`):
//! the self-checks' defects, the peers' and references'
//! disagreements, and the catch-alls (`out-of-domain`, `unexplained`).

/// Appends this part's rows to those gathered so far and hands them on
/// (`catalogue!` in `class_macros.rs`).
macro_rules! defect_classes {
    ([$($rows:tt)*] $($rest:ident)*) => {
        catalogue! { [$($rows)*
            /// The components a parser reports do not account for the authority it
            /// consumed: userinfo, host and port do not recompose it, even once
            /// percent-decoded, so input was silently dropped (the shape of Go's
            /// CVE-2019-14809). Input lost is lost whatever standard the parser
            /// claims, so this holds for a parser that claims none too (CPython's
            /// `urlsplit` reads `[::1]x:80` as host `::1`, port 80).
            DroppedInput = "dropped-input" {
                basis: Defect, severity: High,
                spec: "RFC 3986 section 3.2 (authority = [ userinfo \"@\" ] host [ \":\" port ])",
                examples: [(Http, "http://[::1]evil.com:80/"), (Http, "http://h:80x/"), ("python-urllib", "http://[::1]x:80/")],
            }
            /// A WHATWG parser accepts an authority whose host after `@` is empty,
            /// which the URL Standard fails (authority state and host state:
            /// host-missing validation error, return failure).
            HostMissing = "host-missing" {
                basis: Defect, severity: Medium,
                spec: "URL Standard, authority state and host state (host-missing validation error, return failure)",
                examples: [(Url, "s://@")],
            }
            /// The parser reports a scheme no standard here allows: each writes it
            /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 section 3.1,
            /// RFC 2396 section 3.1, the URL Standard's scheme state), so an empty
            /// scheme, or one that starts with a digit or `~`, is none.
            InvalidScheme = "invalid-scheme" {
                basis: Defect, severity: Medium,
                spec: "RFC 3986 section 3.1; RFC 2396 section 3.1; URL Standard, scheme start state",
                examples: [(Http, "://h/"), (Http, "1://h/")],
            }
            /// A host with `[` or `]` that is not an IP literal of RFC 3986 section
            /// 3.2.2 (IPv6address or IPvFuture; a zone ID only as RFC 6874's `%25`).
            InvalidIpLiteral = "invalid-ip-literal" {
                basis: Defect, severity: High,
                spec: "RFC 3986 section 3.2.2 (IP-literal); RFC 6874 section 2",
                examples: [(Http, "http://[www.google.com]/"), (Http, "http://[fe80::1%en0]:8080/")],
            }
            /// Reparsing the parser's own serialization gives other components:
            /// the parser does not keep its own answer.
            RoundTrip = "round-trip" {
                basis: Defect, severity: Medium,
                spec: "URL Standard (URL serializing: parsing the serialization gives an equal URL); RFC 3986 section 5.3",
                examples: [(Url, "file://h//c:/../..")],
            }
            /// Two parsers of the same standard (url and ada for WHATWG, rfc3986
            /// and iri-string for RFC 3986, http::Uri's authority against RFC
            /// 3986's) disagree: one of them breaks it.
            PeerDisagreement = "peer-disagreement" {
                basis: Defect, severity: Medium,
                spec: "the standard both implement",
                examples: [(Url, "file://1.2.3.4/C:/")],
            }
            /// The parser departs from its standard's reference (`whatwg-url` for
            /// the URL Standard, the RFC 3986 grammar with section 5.2 transcribed)
            /// on an input where the parsers disagree: `decided_by` names the
            /// reference.
            ReferenceDisagreement = "reference-disagreement" {
                basis: Defect, severity: Medium,
                spec: "the standard the parser implements, as its reference runs it",
                examples: [],
                // fluent-uri removes the `%2e` as a dot segment, as iri-string
                // does, where uriparser guards the `//` with `./` (a permitted
                // variation), so no peer sides with the reference.
                with_base: [(Rfc3986, "p:/", ".///%2e")],
            }
            /// With a base, an RFC 3986 parser resolves against the base normalised
            /// (dot segments removed, percent-encoded unreserved characters
            /// decoded) where the strict algorithm uses it as written: section
            /// 5.2.1 makes that normalisation optional.
            OptionalBaseNormalization = "optional-base-normalization" {
                basis: Spec, severity: Low,
                spec: "RFC 3986 section 5.2.1 (normalization of the base URI, sections 6.2.2 and 6.2.3, is optional)",
                examples: [],
                with_base: [(Rfc3986, "h:/.", "")],
            }
            /// A parser writes the input's valid IPv6 literal as another text form
            /// of the same address (RFC 5952's compressed lower-case form, an IPv4
            /// tail in hex), or, where its own documentation says so (its
            /// descriptor's host readings), with the zone ID after a single `%`:
            /// the same address and zone, where its peers keep the literal as
            /// written. Compared with the reference's host (`decided_by`).
            Ipv6TextForm = "ipv6-text-form" {
                basis: Spec, severity: Medium,
                spec: "RFC 4291 section 2.2 (text forms of one address); RFC 5952 section 4; RFC 4007 section 11 and RFC 6874 section 2 (the `%25` of a URI is the `%` of the address's text form); uri-js README (IP Support: IPv6 normalization, zone identifier support); fast-uri types/index.d.ts (URIComponent.ipv6Zone)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("uri-js", "http://[0:0:0:0:0:0:0d01:4403]/"), ("fast-uri", "http://[0:0:0:0:0:0:0d01:4403]/")],
            }
            /// A parser whose documentation names RFC 6874 accepts an IPv6 literal
            /// with a zone ID (`[fe80::1%25en0]`), which RFC 3986's own grammar
            /// (its reference) refuses: RFC 6874 updates section 3.2.2 with
            /// `IPv6addrz = IPv6address "%25" ZoneID`, and the input is valid once
            /// the zone ID is taken out.
            Ipv6ZoneId = "ipv6-zone-id" {
                basis: Spec, severity: Medium,
                spec: "RFC 6874 section 2 (IPv6addrz, updating RFC 3986 section 3.2.2); uri-js README (\"compliant with ... IPv6 Zone Identifier (RFC 6874)\"; IPv6 zone identifier support); fast-uri types/index.d.ts (URIComponent.ipv6Zone)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("uri-js", "http://[fe80::1%25en0]/"), ("fast-uri", "http://[fe80::1%25en0]/")],
            }
            /// For the schemes whose handler its documentation says treats the
            /// host as a domain name (uri-js's and fast-uri's `domainHost`: http,
            /// https, ws, wss), a parser reports the reg-name percent-decoded and
            /// converted to ASCII through IDNA, where its peers keep the reg-name
            /// as written: RFC 3986 section 3.2.2 lets a reg-name's percent-encoded
            /// UTF-8 stand for a name that is looked up in its IDNA form.
            DomainHost = "domain-host" {
                basis: Spec, severity: Medium,
                spec: "RFC 3986 section 3.2.2 (a non-ASCII reg-name is transformed to the IDNA encoding before lookup); RFC 5891; uri-js README and fast-uri README, Options (`domainHost`: \"convert IDNs (International Domain Names) as per RFC 5891\"), set by their http, https, ws and wss handlers",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("uri-js", "https://%CF%80.example.com/foo"), ("fast-uri", "https://%CF%80.example.com/foo")],
            }
            /// uri-js writes a host of four dot-separated decimal numbers
            /// without their leading zeros (`125.025.062.125` as
            /// `125.25.62.125`), as its README's "IPv4 normalization" says:
            /// RFC 3986 reads such a host as a reg-name (`dec-octet` has no
            /// leading zeros), and a resolver that reads `025` as octal (RFC
            /// 3986 section 7.4) connects elsewhere, so the rewrite is the
            /// parser's documented reading, found by comparing with the
            /// reference (`triage::reading`), not a defect.
            Ipv4LeadingZeros = "ipv4-leading-zeros" {
                basis: Spec, severity: Medium,
                spec: "RFC 3986 section 3.2.2 (dec-octet; a host that is no IPv4address is a reg-name) and section 7.4 (\"0127.0.0.1\" read as octal by some implementations); uri-js README (\"IPv4 normalization\": `URI.normalize(\"//192.068.001.000\") === \"//192.68.1.0\"`)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("uri-js", "http://125.025.062.125")],
            }
            /// urllib3's and yarl's authority is rebuilt from their own parts
            /// (`userinfo@host:port`), not read from the input: it differs where
            /// those parts differ, and they are judged one by one.
            AuthorityRebuilt = "authority-rebuilt" {
                basis: Spec, severity: Low,
                rule: authority::authority_rebuilt, scope: External("urllib3") | External("yarl"),
                spec: "RFC 3986 section 3.2; urllib3 util.Url.authority (\"Authority component as defined in RFC 3986 3.2. This includes userinfo (auth), host and port\", built from them); yarl URL.raw_authority (built from the encoded user, password, host and port)",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("yarl", "NNNhttps://A:008/422"), ("urllib3", "T://@127.0.0.1")],
            }
            /// The parser answered that the input is out of its domain (a pair,
            /// for a parser without a resolution function; a scheme it has no
            /// handler for): it declined to read it, so there is no reading to
            /// depart from a standard. A state of its outcome, not a disagreement
            /// about the input; a more specific class (`relative-reference`,
            /// `url-scheme-without-handler`) names the reason where one applies.
            OutOfDomain = "out-of-domain" {
                basis: Spec, severity: Low,
                rule: syntax::out_of_domain, scope: Any,
                spec: "uridiff pipe protocol, version 2 (GUIDE.md: `out-of-domain`, the parser does not take the input); an in-process oracle's registry row (`domain`)",
                // Checked through the CLI with the shipped adapter (tests/it/external_cli.rs).
                examples: [],
                with_base: [("spring-uri", "http://a/b/c", "d"), ("urllib3", "http://a/b/c", "../d")],
            }
            /// A parser that claims a standard but whose documentation says
            /// its parse does not validate (its descriptor's `no_validation`:
            /// uri-js) accepts what the standard forbids: its documented
            /// leniency, never a defect (neither against its peers, nor its
            /// reference, nor the `invalid-ip-literal` or `invalid-scheme`
            /// self-checks). Last of the rules: a more specific explanation
            /// of the acceptance wins.
            NonValidatingParser = "non-validating-parser" {
                basis: Spec, severity: Medium,
                rule: lenient::non_validating_parser, scope: Any,
                spec: "RFC 3986 section 3 (what the parser accepts is no URI-reference); uri-js README, Breaking changes from 2.x (\"URI validation has been removed as it was slow, exposed a vulnerabilty, and was generally not useful.\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("uri-js", "/gi?t.st%2QGQ"), ("uri-js", "G://[")],
            }
            /// A parser whose documentation says it validates some schemes by
            /// their own specification (its descriptor's `host_required`:
            /// Addressable's `validate`, fast-uri's `resolve`, Ruby's URI::FTP) refuses a URI of such a scheme that
            /// has no host or an empty one, which the scheme's specification
            /// requires it to refuse (RFC 9110 section 4.2.1 for `http`, 4.2.2
            /// for `https`); RFC 3986 section 3.1 leaves a scheme's syntax to
            /// its specification, so the refusal is no departure.
            SchemeHostRequired = "scheme-host-required" {
                basis: Spec, severity: Low,
                rule: lenient::scheme_host_required, scope: Any,
                spec: "RFC 9110 sections 4.2.1 and 4.2.2 (\"A sender MUST NOT generate an \"http\" URI with an empty host identifier. A recipient that processes such a URI reference MUST reject it as invalid\"); RFC 3986 section 3.1; Addressable::URI#validate (\"Absolute URI missing hierarchical segment\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-addressable", "http://"), ("ruby-uri", "ftp:x")],
                with_base: [("fast-uri", "http:/x", "y")],
            }
            /// A parser whose documentation says it validates a URI of some
            /// schemes by the scheme's own syntax (its descriptor's
            /// `scheme_syntax`: Ruby's URI::MailTo, "RFC6068, the mailto URL
            /// scheme") refuses a URI of such a scheme that the syntax
            /// refuses (`mailto:x`: `to = addr-spec *("," addr-spec)`, and
            /// `x` has no `@`); RFC 2396 section 3 and RFC 3986 section 3.1
            /// leave the scheme-specific part to the scheme's
            /// specification, so the refusal is no departure.
            SchemeSyntaxRefused = "scheme-syntax-refused" {
                basis: Spec, severity: Low,
                rule: lenient::scheme_syntax_refused, scope: Any,
                spec: "RFC 6068 section 2 (mailtoURI = \"mailto:\" [ to ] [ hfields ]; to = addr-spec *(\",\" addr-spec ); hfield = hfname \"=\" hfvalue); RFC 3986 section 3.1; RFC 2396 section 3; Ruby URI::MailTo (\"RFC6068, the mailto URL scheme\")",
                // Checked through the CLI with the shipped adapters (tests/it/external_cli.rs).
                examples: [("ruby-uri", "mailto:66Nvah/?"), ("ruby-uri-rfc2396", "mailto:x")],
            }
            /// A defect class's finding about an operation (parsing an input,
            /// or resolving a reference against a base) for which the
            /// parser's documentation claims no standard (its descriptor
            /// claims none for that operation: Go's `url.Parse`, Perl's
            /// `URI->new_abs`): no standard it claims is broken, so the finding is
            /// this spec class, its effect unchanged. Found by no rule: the
            /// defect it would have been is rewritten (`check`).
            UnclaimedStandard = "unclaimed-standard" {
                basis: Spec, severity: Low,
                spec: "the parser's own documentation, which names no standard for the operation (Go net/url: \"Package url parses URLs and implements query escaping\", url.Parse \"parses a raw url into a URL structure\"; perldoc URI, $uri->abs and URI->new_abs: \"Returns an absolute URI reference\")",
                examples: [("go-net-url", "///?a.t#t")],
                with_base: [("perl-uri", "http://[::1.2>3.4.51]:/[::1]", "")],
            }
            /// No rule explains it: a finding to investigate.
            Unexplained = "unexplained" {
                basis: NoBasis, severity: Medium,
                spec: "",
                examples: [],
            }
        ] $($rest)* }
    };
}
