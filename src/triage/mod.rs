//! Triage: explain every disagreement with a named class, a severity and
//! its concrete effect.
//!
//! [`triage_into`] walks an ordered table of rules ([`rules::RULES`]) over what
//! is still unexplained of one oracle's disagreement with rfc2396: the
//! verdict, and each differing field. A rule claims what it explains; every
//! claim becomes a [`Finding`]. Whatever no rule claims becomes an
//! [`Class::Unexplained`] finding, which is what the fuzz targets hunt.

mod classes;
pub mod defects;
pub mod ip_literal;
pub mod rules;

pub use classes::{Basis, Class};
pub use rules::same_address;

use std::fmt;

use serde::Serialize;

use crate::components::{Component, ComponentSet, component_name};
use crate::diff::Diff;
use crate::oracle::{OracleId, Outcome, Standard, Verdict};
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

/// One explained (or unexplained) part of a disagreement, or a defect.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// The class that explains it.
    pub class: Class,
    /// Spec difference, parser defect, or unexplained (the class's basis).
    pub basis: Basis,
    /// How much it matters.
    pub severity: Severity,
    /// The parser the finding is about: the one that differs from rfc2396,
    /// or the one that breaks its standard.
    pub oracle: OracleId,
    /// The parser it is compared with: rfc2396 for a spec difference, the
    /// other peer for a peer disagreement, none for a self-check.
    pub peer: Option<OracleId>,
    /// Whether the accept/reject verdicts differ (and this finding explains it).
    pub verdict: bool,
    /// The differing (or defective) fields this finding explains.
    pub fields: ComponentSet,
    /// The effect, when it is known as the finding is made (defects);
    /// spec findings build theirs on demand ([`effect`]).
    pub detail: Option<String>,
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

    /// The signature reports group by and the regression set keeps one
    /// input for: (class, basis, oracle, fields).
    pub fn signature(&self) -> crate::signature::Signature {
        crate::signature::Signature::of(self)
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
    /// With a base: (base, reference); `input` is then rfc2396's resolved
    /// URI (or the text it refused).
    pub resolution: Option<(&'c str, &'c str)>,
    /// With a base: what rfc2396 made of it, worked out once per case.
    pub resolved: Option<&'c Resolution<'c>>,
    /// With a base: the other parser's own outcome for the base alone, run
    /// the first time a rule asks (several resolution rules do) and kept.
    pub their_base: std::cell::OnceCell<Option<Outcome<'c>>>,
}

/// A (base, reference) pair as rfc2396 sees it, worked out once per case:
/// the resolution rules ask for the base's parse and the refusal for every
/// oracle that disagrees.
#[derive(Debug)]
pub struct Resolution<'r> {
    /// The base.
    pub base: &'r str,
    /// The reference.
    pub reference: &'r str,
    /// rfc2396's parse of the base.
    pub base_parsed: Result<UriRef<'r>, ParseError>,
    /// rfc2396's refusal of the pair, if it refused.
    pub error: Option<crate::rfc2396::ResolveError>,
}

impl<'r> Resolution<'r> {
    /// Parses the base and resolves the pair with RFC 2396 section 5.2.
    pub fn new(base: &'r str, reference: &'r str) -> Self {
        Resolution {
            base,
            reference,
            base_parsed: crate::rfc2396::parse(base),
            error: crate::rfc2396::resolve(base, reference).err(),
        }
    }
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

    /// Does the other oracle implement the WHATWG URL Standard (url, ada)?
    pub fn whatwg(&self) -> bool {
        self.oracle.standard() == Some(Standard::Whatwg)
    }

    /// The strict parser's error, when it rejected the input.
    pub fn error(&self) -> Option<&ParseError> {
        self.parsed.as_ref().err()
    }

    /// With a base: the other parser's outcome for the base alone (whether
    /// it accepts it, and how it reads it), computed once per oracle.
    pub fn their_base(&self) -> Option<&Outcome<'_>> {
        self.their_base
            .get_or_init(|| {
                let (base, _) = self.resolution?;
                crate::oracle::info(self.oracle).map(|o| (o.run)(base))
            })
            .as_ref()
    }
}

/// The defects a parser showed on an input, as triage sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defects {
    /// The first defect's class: what is left unexplained is filed under it.
    pub class: Class,
    /// The fields the parser's self-check defects corrupted (empty for a
    /// peer disagreement, which claims only what is left).
    pub fields: ComponentSet,
}

/// Explains `diff` between rfc2396 and `oracle`: one finding per rule that
/// claims part of it, then one for what is left (`unexplained`, or the
/// parser's own defect), appended to `findings` (no list of its own:
/// `check()` runs this for every oracle that disagrees). What is left to a
/// peer disagreement is not appended: that finding holds it already.
// Each argument is one fact about the disagreement; a struct for them would
// only be built to be taken apart again here.
#[allow(clippy::too_many_arguments)]
pub fn triage_into(
    input: &str,
    parsed: &Result<UriRef<'_>, ParseError>,
    reference: &Outcome<'_>,
    oracle: OracleId,
    other: &Outcome<'_>,
    diff: Diff,
    defect: Option<Defects>,
    resolution: Option<&Resolution<'_>>,
    findings: &mut Vec<Finding>,
) {
    let mut ctx = Ctx {
        input,
        parsed,
        reference,
        oracle,
        other,
        resolution: resolution.map(|r| (r.base, r.reference)),
        resolved: resolution,
        their_base: std::cell::OnceCell::new(),
        open: Explains {
            verdict: diff.verdict,
            fields: diff.fields,
        },
    };
    if let Some(Defects { class, fields }) = defect {
        // What the parser's own defect touches is the defect's doing,
        // whatever spec rule might otherwise claim it: the fields it
        // corrupted, and, when rfc2396 refuses what it accepts, the
        // acceptance.
        let claimed = Explains {
            verdict: other.accepted() && !fields.is_empty(),
            fields,
        }
        .intersection(ctx.open);
        if !claimed.is_empty() {
            findings.push(finding(&ctx, class, claimed));
            ctx.open = ctx.open.without(claimed);
        }
    }
    for rule in rules::RULES {
        if ctx.open.is_empty() {
            break;
        }
        let claimed = (rule.explain)(&ctx).intersection(ctx.open);
        if claimed.is_empty() {
            continue;
        }
        findings.push(finding(&ctx, rule.class, claimed));
        ctx.open = ctx.open.without(claimed);
    }
    if !ctx.open.is_empty() {
        // What no spec rule explains, for a parser already caught breaking
        // its own standard on this input, is that defect's doing.
        let open = ctx.open;
        let class = defect.map_or(Class::Unexplained, |d| d.class);
        if class != Class::PeerDisagreement {
            findings.push(finding(&ctx, class, open));
        }
    }
}

/// Builds a finding. Severity by consequence: the class's default, raised
/// to high when the claimed fields give two accepting parsers different
/// hosts or effective ports; a refusal against an acceptance alone is at
/// most medium, and out of domain alone never above low.
fn finding(ctx: &Ctx<'_, '_>, class: Class, claimed: Explains) -> Finding {
    let default = class.default_severity();
    let severity = if claimed.verdict {
        let out_of_domain = [ctx.reference, ctx.other]
            .iter()
            .any(|o| o.verdict == Verdict::OutOfDomain);
        if out_of_domain {
            Severity::Low
        } else {
            default.min(Severity::Medium)
        }
    } else if rules::is_high(ctx, claimed) {
        Severity::High
    } else {
        default
    };
    Finding {
        class,
        basis: class.basis(),
        severity,
        oracle: ctx.oracle,
        peer: Some(OracleId::Rfc2396),
        verdict: claimed.verdict,
        fields: claimed.fields,
        detail: None,
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
        resolution: None,
        resolved: None,
        their_base: std::cell::OnceCell::new(),
        open: claimed,
    };
    rules::effect(&ctx, claimed)
}
