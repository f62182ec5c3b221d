//! What a shipped adapter's parser documents of itself beyond its row
//! (`Shipped::documented`): each reading with the passage that says so,
//! which triage reads through the oracle's descriptor.

use super::{SchemeSyntax, Standard};

/// What an adapter's parser documents of itself beyond its row's
/// `standard`: the standard it claims per operation, that it does not
/// validate, the schemes it refuses without a host (`Shipped::documented`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Documented {
    /// The standard its documentation claims for each operation although
    /// the row claims none as a whole (`standard`): for parsing and for
    /// resolving a reference against a base, each with the passage that
    /// says so (Go's `URL.ResolveReference`: "per RFC 3986 Section 5.2").
    /// A defect of an operation for which it claims no standard breaks
    /// none: triage files it as the spec class `unclaimed-standard`. A row
    /// with a `standard` claims it for both.
    pub(crate) claims: Claims,
    /// The passage of its documentation that says its parse does not
    /// validate, for a parser that claims a standard (uri-js: "URI
    /// validation has been removed"): what it accepts that its standard
    /// forbids is that documented leniency (the spec class
    /// `non-validating-parser`), never a defect; what it loses or misreads
    /// of what it accepts still is.
    pub(crate) no_validation: Option<&'static str>,
    /// The schemes whose URIs its documentation says it refuses without a
    /// host, as those schemes' own specifications require (RFC 9110
    /// section 4.2.1: an `http` URI has `//` and a non-empty host), with
    /// the passage that says so: such a refusal follows the scheme, not a
    /// departure from the generic syntax (the spec class
    /// `scheme-host-required`).
    pub(crate) host_required: Option<(&'static [&'static str], &'static str)>,
    /// The passage of its documentation that says it reads an IPv6
    /// literal's zone ID after a bare `%` (java.net.URI: "The Literal IPv6
    /// address format also supports scope_ids"): such a literal is one of
    /// its standard as the parser documents it, not an invalid one.
    pub(crate) zone_ids: Option<&'static str>,
    /// The passage of its documentation that says it accepts C0 controls
    /// and spaces inside a component (fast-uri: only "leading or trailing"
    /// ones are reported; "interior component data remain valid"): an
    /// input RFC 3986 refuses only for such characters is accepted as
    /// documented.
    pub(crate) interior_controls: Option<&'static str>,
    /// The passage of its documentation that says it writes what it parses
    /// as RFC 3986 section 6.2.2's syntax-based normalisation does
    /// (uri-js's parse decodes percent-encoded unreserved characters, and
    /// its resolution then removes the dot segments they spell: `/%2E`
    /// against `t:/4` is `t:/`): a result equivalent so to its reference's
    /// is that normalisation (sections 6.2.2.2 and 6.2.2.3), not a defect.
    pub(crate) syntax_normalized: Option<&'static str>,
    /// The passage of its documentation (or source) that says it reads RFC
    /// 2396 as RFC 2732 amends it: a bracketed IPv6 literal is a host, and
    /// `[` and `]` are reserved (RFC 2732 section 3). Its acceptance of a
    /// literal that RFC 2396 alone refuses is then its documented reading
    /// (`ip-literal`), not a defect against RFC 2396's grammar.
    pub(crate) rfc2732: Option<&'static str>,
    /// The scheme syntaxes its documentation says it validates a URI of
    /// that scheme by (Ruby's URI::MailTo: RFC 6068), with the passage:
    /// refusing what they refuse is `scheme-syntax-refused` (spec).
    pub(crate) scheme_syntax: Option<(&'static [SchemeSyntax], &'static str)>,
}

impl Documented {
    /// Nothing documented beyond the row.
    pub(crate) const NONE: Documented = Documented {
        claims: Claims::NONE,
        no_validation: None,
        host_required: None,
        zone_ids: None,
        interior_controls: None,
        syntax_normalized: None,
        rfc2732: None,
        scheme_syntax: None,
    };

    /// Claiming `standard` for its parse, as `passage` says (`Documented::claims`).
    pub(crate) const fn claims_parse(
        self,
        standard: Standard,
        passage: &'static str,
    ) -> Documented {
        Documented {
            claims: Claims {
                parse: Some((standard, passage)),
                ..self.claims
            },
            ..self
        }
    }

    /// Claiming `standard` for its resolution, as `passage` says
    /// (`Documented::claims`).
    pub(crate) const fn claims_resolve(
        self,
        standard: Standard,
        passage: &'static str,
    ) -> Documented {
        Documented {
            claims: Claims {
                resolve: Some((standard, passage)),
                ..self.claims
            },
            ..self
        }
    }

    /// Its parse documented as not validating, as `passage` says
    /// (`Documented::no_validation`).
    pub(crate) const fn no_validation(self, passage: &'static str) -> Documented {
        Documented {
            no_validation: Some(passage),
            ..self
        }
    }

    /// Accepting C0 controls and spaces inside a component, as `passage`
    /// says (`Documented::interior_controls`).
    pub(crate) const fn interior_controls(self, passage: &'static str) -> Documented {
        Documented {
            interior_controls: Some(passage),
            ..self
        }
    }

    /// Validating URIs of the schemes `syntaxes` define by their syntax,
    /// as `passage` says (`Documented::scheme_syntax`).
    pub(crate) const fn scheme_syntax(
        self,
        syntaxes: &'static [SchemeSyntax],
        passage: &'static str,
    ) -> Documented {
        Documented {
            scheme_syntax: Some((syntaxes, passage)),
            ..self
        }
    }

    /// Writing what it parses RFC 3986 section 6.2.2's way, as `passage`
    /// says (`Documented::syntax_normalized`).
    pub(crate) const fn syntax_normalized(self, passage: &'static str) -> Documented {
        Documented {
            syntax_normalized: Some(passage),
            ..self
        }
    }

    /// Reading RFC 2396 as RFC 2732 amends it, as `passage` says
    /// (`Documented::rfc2732`).
    pub(crate) const fn rfc2732(self, passage: &'static str) -> Documented {
        Documented {
            rfc2732: Some(passage),
            ..self
        }
    }

    /// Reading a zone ID after a bare `%`, as `passage` says
    /// (`Documented::zone_ids`).
    pub(crate) const fn zone_ids(self, passage: &'static str) -> Documented {
        Documented {
            zone_ids: Some(passage),
            ..self
        }
    }

    /// Refusing URIs of `schemes` without a host, as `passage` says
    /// (`Documented::host_required`).
    pub(crate) const fn host_required(
        self,
        schemes: &'static [&'static str],
        passage: &'static str,
    ) -> Documented {
        Documented {
            host_required: Some((schemes, passage)),
            ..self
        }
    }
}

/// The standard a parser's documentation claims for each of its
/// operations, each with the passage that says so (`Shipped::claims`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Claims {
    /// For parsing an input alone.
    pub parse: Option<(Standard, &'static str)>,
    /// For resolving a reference against a base.
    pub resolve: Option<(Standard, &'static str)>,
}

impl Claims {
    /// No claim for either operation.
    pub(crate) const NONE: Claims = Claims {
        parse: None,
        resolve: None,
    };
}
