//! Triage: explain every disagreement with a named class, a severity and
//! its concrete effect.
//!
//! [`triage`] walks an ordered table of rules ([`rules::RULES`]) over what
//! is still unexplained of one oracle's disagreement with rfc2396: the
//! verdict, and each differing field. A rule claims what it explains; every
//! claim becomes a [`Finding`]. Whatever no rule claims becomes an
//! [`Class::Unexplained`] finding, which is what the fuzz targets hunt.

pub mod rules;

use std::fmt;

use serde::Serialize;

use crate::components::{Component, ComponentSet, component_name};
use crate::diff::Diff;
use crate::oracle::{OracleId, Outcome};
use crate::rfc2396::{ParseError, UriRef};

/// How much a disagreement matters to a security engineer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Cosmetic: case, default port, empty versus absent.
    Low,
    /// Boundaries between userinfo and path parts, percent-decoding, dot
    /// segments, characters one side tolerates.
    Medium,
    /// Different hosts (one side having none counts), different effective
    /// ports, or one side rejects while the accepting side yields a host.
    High,
}

impl Severity {
    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! classes {
    ($( $(#[$doc:meta])* $variant:ident = $id:literal, )*) => {
        /// The named kinds of disagreement. Ids are stable kebab-case.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Class {
            $( $(#[$doc])* $variant, )*
        }

        impl Class {
            /// Every class, in catalogue order.
            pub const ALL: &'static [Class] = &[$(Class::$variant,)*];

            /// The stable kebab-case id.
            pub fn id(self) -> &'static str {
                match self { $(Class::$variant => $id,)* }
            }

            /// The class with this id.
            pub fn from_id(id: &str) -> Option<Class> {
                match id { $($id => Some(Class::$variant),)* _ => None }
            }
        }
    };
}

classes! {
    /// A bracketed IP literal (`[::1]`): RFC 2732 and RFC 3986 section 3.2.2
    /// allow it, RFC 2396 section 2.4.3 calls `[` and `]` unwise.
    IpLiteral = "ip-literal",
    /// RFC 2396 reads the authority as a `reg_name` (no host), the other
    /// parser finds a host in it (RFC 2396 section 3.2).
    RegNameAuthority = "reg-name-authority",
    /// `//@host`: RFC 2396 keeps an empty userinfo, the other drops it.
    EmptyUserinfo = "empty-userinfo",
    /// `//user:@host`: the empty password's `:` is dropped.
    EmptyPassword = "empty-password",
    /// `//host:/`: RFC 2396 `port = *digit` allows an empty port.
    EmptyPort = "empty-port",
    /// The scheme's default port is written out, and elided by the other.
    DefaultPort = "default-port",
    /// RFC 2396 has no bound on `port`; the other rejects ports over 65535.
    PortOutOfRange = "port-out-of-range",
    /// The same port number written differently (leading zeros).
    PortNormalized = "port-normalized",
    /// Scheme or host case folded (RFC 2396 sections 3.1 and 3.2.2 make them
    /// case-insensitive).
    CaseNormalized = "case-normalized",
    /// An IPv4 address in a form RFC 2396 does not know (hex, octal, fewer
    /// than four parts, out of range), read by WHATWG's IPv4 parser.
    Ipv4NumberForm = "ipv4-number-form",
    /// A host WHATWG maps through IDNA (UTS #46): invalid `xn--` labels
    /// are refused.
    IdnaHost = "idna-host",
    /// A percent-encoded host: RFC 2396 hostnames have no `escaped`, others
    /// decode it.
    PercentEncodedHost = "percent-encoded-host",
    /// `%` not followed by two hex digits (RFC 2396 section 2.4.1).
    InvalidEscape = "invalid-escape",
    /// An `unwise` character (RFC 2396 section 2.4.3) tolerated or encoded.
    UnwiseCharacter = "unwise-character",
    /// A `delims` character (`<`, `>`, `"`, a second `#`; RFC 2396 section
    /// 2.4.3) tolerated or encoded.
    DelimsCharacter = "delims-character",
    /// A character outside US-ASCII (RFC 2396 section 2.1), encoded or
    /// IDNA-mapped by the other.
    NonAscii = "non-ascii",
    /// Whitespace or a control character, stripped or tolerated by the other
    /// (RFC 2396 section 2.4.3; WHATWG strips tabs, newlines, edge spaces).
    WhitespaceOrControl = "whitespace-or-control",
    /// A backslash, read by WHATWG as `/` in special schemes.
    Backslash = "backslash",
    /// Dot segments removed by the other (RFC 2396 section 5.2 removes them
    /// only when resolving a relative path).
    DotSegments = "dot-segments",
    /// WHATWG's own rules for `file` URLs: `localhost` is the empty host,
    /// drive letters belong to the path, no credentials or port.
    FileScheme = "file-scheme",
    /// A special scheme (`http:`, …) without `//`, or with an empty
    /// authority: WHATWG finds a host anyway.
    SpecialSchemeSlashes = "special-scheme-slashes",
    /// `http::Uri` reads `name:rest` as an authority-form request target.
    AuthorityForm = "authority-form",
    /// `scheme:/path` or `scheme://` with an empty authority, which
    /// `http::Uri` refuses: its absolute-form needs an authority.
    MissingAuthority = "missing-authority",
    /// More than eight `:` before the host, which `http::Uri` refuses.
    AuthorityColons = "authority-colons",
    /// `//host/path`: a network-path reference for RFC 2396, an origin-form
    /// path for `http::Uri`.
    NetworkPathReference = "network-path-reference",
    /// `http::Uri` drops the fragment.
    FragmentDropped = "fragment-dropped",
    /// A relative reference, which the other only resolves against a base
    /// or does not take at all.
    RelativeReference = "relative-reference",
    /// The text before the first `:` is not an RFC 2396 scheme (it must
    /// start with a letter, section 3.1), so RFC 2396 reads a relative path
    /// whose first segment may not hold `:`.
    SchemeSyntax = "scheme-syntax",
    /// Longer than the other parser accepts (`http::Uri`: 65 534 bytes, and
    /// 64 for a scheme).
    LengthLimit = "length-limit",
    /// `scheme:` with nothing after it: RFC 2396's `opaque_part` needs a
    /// character; RFC 3986 and WHATWG allow an empty path.
    EmptyOpaquePart = "empty-opaque-part",
    /// `?y`: Appendix A cannot derive a query-only reference (Appendix C
    /// resolves one); RFC 3986 allows it.
    QueryOnlyReference = "query-only-reference",
    /// The same octets, percent-encoded differently (RFC 2396 section 2.4.2).
    PercentEncoding = "percent-encoding",
    /// An empty path written as `/` by the other.
    EmptyPathSlash = "empty-path-slash",
    /// `?` inside an RFC 2396 `opaque_part` belongs to the path; the others
    /// split off a query.
    OpaquePartQuery = "opaque-part-query",
    /// An empty host where RFC 2396 has none (an empty `server`).
    EmptyHost = "empty-host",
    /// rust-url keeps a drive-letter-like segment (`c:`) against `..` in
    /// every scheme, not only `file` (an oracle bug).
    WindowsDriveLetter = "windows-drive-letter",
    /// No rule explains it: a finding to investigate.
    Unexplained = "unexplained",
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Class {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// What a rule explains of a disagreement: the verdict, some fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Explains {
    /// The accept/reject difference.
    pub verdict: bool,
    /// Differing fields.
    pub fields: ComponentSet,
}

impl Explains {
    /// Nothing.
    pub const NOTHING: Explains = Explains {
        verdict: false,
        fields: ComponentSet::EMPTY,
    };

    /// The verdict difference.
    pub const VERDICT: Explains = Explains {
        verdict: true,
        fields: ComponentSet::EMPTY,
    };

    /// These fields.
    pub const fn fields(fields: ComponentSet) -> Self {
        Explains {
            verdict: false,
            fields,
        }
    }

    /// Does it explain anything?
    pub fn is_empty(&self) -> bool {
        !self.verdict && self.fields.is_empty()
    }

    fn intersection(self, other: Explains) -> Explains {
        Explains {
            verdict: self.verdict && other.verdict,
            fields: self.fields.intersection(other.fields),
        }
    }

    fn without(self, other: Explains) -> Explains {
        Explains {
            verdict: self.verdict && !other.verdict,
            fields: self.fields.difference(other.fields),
        }
    }
}

/// One explained (or unexplained) part of a disagreement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// The class that explains it.
    pub class: Class,
    /// How much it matters.
    pub severity: Severity,
    /// The oracle that disagrees with rfc2396.
    pub oracle: OracleId,
    /// Whether the accept/reject verdicts differ (and this finding explains it).
    pub verdict: bool,
    /// The differing fields this finding explains.
    pub fields: ComponentSet,
}

impl Finding {
    /// The explained aspects as names: `verdict`, then field names.
    pub fn field_names(&self) -> Vec<&'static str> {
        let verdict = self.verdict.then_some("verdict");
        verdict
            .into_iter()
            .chain(self.fields.iter().map(component_name))
            .collect()
    }
}

/// Everything a rule may look at.
#[derive(Debug)]
pub struct Ctx<'c, 'a> {
    /// The input.
    pub input: &'a str,
    /// The strict parser's result.
    pub parsed: &'c Result<UriRef<'a>, ParseError>,
    /// rfc2396's outcome.
    pub reference: &'c Outcome<'a>,
    /// The oracle that disagrees.
    pub oracle: OracleId,
    /// Its outcome.
    pub other: &'c Outcome<'a>,
    /// What is still unexplained.
    pub open: Explains,
}

impl<'a> Ctx<'_, 'a> {
    /// rfc2396's value of a field.
    pub fn ours(&self, c: Component) -> Option<&str> {
        self.reference.components.get(c)
    }

    /// The other oracle's value of a field.
    pub fn theirs(&self, c: Component) -> Option<&str> {
        self.other.components.get(c)
    }

    /// The open fields for which `same` holds of (ours, theirs).
    pub fn fields_where(&self, same: impl Fn(Option<&str>, Option<&str>) -> bool) -> ComponentSet {
        self.open
            .fields
            .iter()
            .filter(|&c| same(self.ours(c), self.theirs(c)))
            .fold(ComponentSet::EMPTY, ComponentSet::with)
    }

    /// The scheme, from whichever side has one (compare it ignoring case).
    pub fn scheme(&self) -> Option<&str> {
        self.ours(Component::Scheme)
            .or_else(|| self.theirs(Component::Scheme))
    }

    /// The strict parser's error, when it rejected the input.
    pub fn error(&self) -> Option<&ParseError> {
        self.parsed.as_ref().err()
    }
}

/// Explains `diff` between rfc2396 and `oracle`: one finding per rule that
/// claims part of it, then one `unexplained` finding for what is left.
pub fn triage(
    input: &str,
    parsed: &Result<UriRef<'_>, ParseError>,
    reference: &Outcome<'_>,
    oracle: OracleId,
    other: &Outcome<'_>,
    diff: Diff,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut ctx = Ctx {
        input,
        parsed,
        reference,
        oracle,
        other,
        open: Explains {
            verdict: diff.verdict,
            fields: diff.fields,
        },
    };
    for rule in rules::RULES {
        if ctx.open.is_empty() {
            break;
        }
        let claimed = (rule.explain)(&ctx).intersection(ctx.open);
        if claimed.is_empty() {
            continue;
        }
        findings.push(finding(&ctx, rule.class, rule.severity, claimed));
        ctx.open = ctx.open.without(claimed);
    }
    if !ctx.open.is_empty() {
        let open = ctx.open;
        findings.push(finding(&ctx, Class::Unexplained, Severity::Medium, open));
    }
    findings
}

/// Builds a finding: the severity is the rule's, raised to high by the facts
/// the issue names (hosts differ, effective ports differ, a rejection against
/// an acceptance that yields a host).
fn finding(ctx: &Ctx<'_, '_>, class: Class, base: Severity, claimed: Explains) -> Finding {
    Finding {
        class,
        severity: if rules::is_high(ctx, claimed) {
            Severity::High
        } else {
            base
        },
        oracle: ctx.oracle,
        verdict: claimed.verdict,
        fields: claimed.fields,
    }
}

/// The concrete effect of a finding, in one line ("rfc2396 and url see
/// different hosts (none vs \"a_b.example\")").
pub fn effect(
    input: &str,
    parsed: &Result<UriRef<'_>, ParseError>,
    reference: &Outcome<'_>,
    other: &Outcome<'_>,
    finding: &Finding,
) -> String {
    let claimed = Explains {
        verdict: finding.verdict,
        fields: finding.fields,
    };
    let ctx = Ctx {
        input,
        parsed,
        reference,
        oracle: finding.oracle,
        other,
        open: claimed,
    };
    rules::effect(&ctx, claimed)
}
