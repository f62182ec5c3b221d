//! Triage: explain every disagreement with a named class, a severity and
//! its concrete effect.
//!
//! The class catalogue (`classes/`) holds one row per class; a spec
//! class's row names its rule and the oracles the rule applies to, and the
//! order of the rows is the precedence. `triage_into` walks those rules over
//! what is still unexplained of one oracle's disagreement with rfc2396: the
//! verdict, and each differing field. A rule claims what it explains; every
//! claim becomes a [`Finding`]. Whatever no rule claims becomes an
//! [`Class::Unexplained`] finding, which is what the fuzz targets hunt.
//!
//! Around the kernel: `rules/` (the predicates, by theme), `defects.rs`
//! (a parser against its own standard), `arbiter.rs` (parsers against
//! each other: peers, the reference, a majority), `variation.rs` (what a
//! standard permits besides its reference's answer), `class_macros.rs`
//! (the catalogue's notation), `host.rs` (when hosts and ports are
//! the same), `severity.rs` (the one place severity is decided),
//! `effect.rs` (the one line that says what differs), `text.rs` (schemes,
//! percent octets, dot segments, drive letters), `ip_literal.rs` (RFC
//! 3986's `IP-literal`).

pub(crate) mod arbiter;
mod basis;
#[macro_use]
mod class_macros;
mod classes;
pub(crate) mod defects;
mod effect;
mod equivalence;
pub(crate) mod host;
mod ip_literal;
pub(crate) mod reading;
mod rules;
mod scheme_syntax;
pub(crate) mod severity;
pub(crate) mod text;
mod variation;

pub use basis::{DecidedBy, Decision, Voters};
pub use classes::{Basis, Class, ExampleOracle};
pub use severity::Severity;

use std::cell::OnceCell;
use std::sync::OnceLock;

use crate::components::{Component, ComponentSet, component_name};
use crate::diff::Diff;
use crate::oracle::{OracleId, Outcome, Standard};
use crate::rfc2396::{ParseError, ResolveError, UriRef};

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
    /// spec findings build theirs on demand ([`Case::effect`](crate::Case::effect)).
    pub detail: Option<String>,
    /// For a finding that compares parsers against a reference or each
    /// other: who decided it.
    pub decided_by: Decision,
    /// The id of the documented deviation (`testdata/known-deviations.tsv`)
    /// that covers it, if any.
    pub known: Option<&'static str>,
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
pub(crate) struct Ctx<'c, 'a> {
    /// The input (with a base: rfc2396's resolved URI, or the text it
    /// refused).
    pub(crate) input: &'a str,
    /// The strict parser's result.
    pub(crate) parsed: &'c Result<UriRef<'a>, ParseError>,
    /// rfc2396's outcome.
    pub(crate) ours: &'c Outcome<'a>,
    /// The oracle that disagrees.
    pub(crate) oracle: OracleId,
    /// Its outcome.
    pub(crate) theirs: &'c Outcome<'a>,
    /// What is still unexplained.
    pub(crate) open: Diff,
    /// With a base: the pair, and what rfc2396 made of it, worked out once
    /// per case.
    pub(crate) resolved: Option<&'c Resolution<'c>>,
    /// With a base: the other parser's own outcome for the base alone, run
    /// the first time a rule asks (several resolution rules do) and kept.
    pub(crate) their_base: OnceCell<Option<Outcome<'c>>>,
    /// rfc2396's host text (`rules::our_host_text`), found the first time
    /// a rule asks and kept: the host rules ask one after the other, and
    /// finding it reads the authority from its end.
    pub(crate) our_host: OnceCell<Option<&'a str>>,
}

/// A (base, reference) pair as rfc2396 sees it, worked out once per case:
/// the resolution rules ask for the base's parse and the refusal for every
/// oracle that disagrees.
#[derive(Debug)]
pub(crate) struct Resolution<'r> {
    /// The base.
    pub(crate) base: &'r str,
    /// The reference being resolved.
    pub(crate) reference: &'r str,
    /// rfc2396's parse of the base.
    pub(crate) base_parsed: Result<UriRef<'r>, ParseError>,
    /// rfc2396's refusal of the pair, if it refused.
    pub(crate) error: Option<ResolveError>,
}

impl<'r> Resolution<'r> {
    /// Parses the base and resolves the pair with RFC 2396 section 5.2.
    pub(crate) fn new(base: &'r str, reference: &'r str) -> Self {
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
    pub(crate) fn ours(&self, c: Component) -> Option<&str> {
        self.ours.components.get(c)
    }

    /// The other oracle's value of a field.
    pub(crate) fn theirs(&self, c: Component) -> Option<&str> {
        self.theirs.components.get(c)
    }

    /// A claim of those of `fields` that are still open.
    pub(crate) fn claim(&self, fields: ComponentSet) -> Diff {
        Diff::of_fields(self.open.fields.intersection(fields))
    }

    /// The open fields for which `same` holds of (ours, theirs).
    pub(crate) fn fields_where(
        &self,
        same: impl Fn(Option<&str>, Option<&str>) -> bool,
    ) -> ComponentSet {
        self.open
            .fields
            .iter()
            .filter(|&c| same(self.ours(c), self.theirs(c)))
            .fold(ComponentSet::EMPTY, ComponentSet::with)
    }

    /// `c` if it is open and `same` holds of (ours, theirs) for it: what
    /// `fields_where` gives for `c` alone, without looking at the others.
    pub(crate) fn field_where(
        &self,
        c: Component,
        same: impl Fn(Option<&str>, Option<&str>) -> bool,
    ) -> ComponentSet {
        if self.open.fields.contains(c) && same(self.ours(c), self.theirs(c)) {
            ComponentSet::EMPTY.with(c)
        } else {
            ComponentSet::EMPTY
        }
    }

    /// The scheme, from whichever side has one (compare it ignoring case).
    pub(crate) fn scheme(&self) -> Option<&str> {
        host::scheme_of(self.ours, self.theirs)
    }

    /// Does the other oracle implement the WHATWG URL Standard (url, ada)?
    pub(crate) fn whatwg(&self) -> bool {
        self.oracle.standard() == Some(Standard::Whatwg)
    }

    /// The strict parser's error, when it rejected the input.
    pub(crate) fn error(&self) -> Option<&ParseError> {
        self.parsed.as_ref().err()
    }

    /// With a base: the other parser's outcome for the base alone (whether
    /// it accepts it, and how it reads it), computed once per oracle.
    pub(crate) fn their_base(&self) -> Option<&Outcome<'_>> {
        self.their_base
            .get_or_init(|| {
                let base = self.resolved?.base;
                crate::oracle::info(self.oracle).map(|o| (o.run)(base))
            })
            .as_ref()
    }
}

/// The defects a parser showed on an input, as triage sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Defects {
    /// The first defect's class: what is left unexplained is filed under it.
    pub(crate) class: Class,
    /// The fields the parser's self-check defects corrupted (empty for a
    /// peer disagreement, which claims only what is left).
    pub(crate) fields: ComponentSet,
}

/// Explains `diff` between rfc2396 (`ours`) and `oracle` (`theirs`): one
/// finding per rule that claims part of it, then one for what is left
/// (`unexplained`, or the parser's own defect), appended to `findings` (no
/// list of its own: `check()` runs this for every oracle that disagrees).
/// What is left to a peer disagreement is not appended: that finding holds
/// it already.
// Each argument is one fact about the disagreement; a struct for them would
// only be built to be taken apart again here.
#[allow(clippy::too_many_arguments)]
pub(crate) fn triage_into(
    input: &str,
    parsed: &Result<UriRef<'_>, ParseError>,
    ours: &Outcome<'_>,
    oracle: OracleId,
    theirs: &Outcome<'_>,
    diff: Diff,
    defect: Option<Defects>,
    resolved: Option<&Resolution<'_>>,
    findings: &mut Vec<Finding>,
) {
    let mut ctx = Ctx {
        input,
        parsed,
        ours,
        oracle,
        theirs,
        resolved,
        their_base: OnceCell::new(),
        our_host: OnceCell::new(),
        open: diff,
    };
    if let Some(Defects { class, fields }) = defect {
        // What the parser's own defect touches is the defect's doing,
        // whatever spec rule might otherwise claim it: the fields it
        // corrupted, and, when rfc2396 refuses what it accepts, the
        // acceptance.
        let claimed = Diff {
            verdict: theirs.accepted() && !fields.is_empty(),
            fields,
        }
        .intersection(ctx.open);
        if !claimed.is_empty() {
            findings.push(finding(&ctx, class, claimed));
            ctx.open = ctx.open.without(claimed);
        }
    }
    for rule in rules_for(oracle) {
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

/// The rules whose scope covers `oracle`, in catalogue order. A rule's
/// scope depends on the oracle alone, so for a built-in oracle the list is
/// worked out once per process (triage runs for every parser that differs
/// from rfc2396 on every input, and most rules are scoped to a few
/// parsers); an external oracle's is filtered as it goes.
fn rules_for(oracle: OracleId) -> impl Iterator<Item = &'static rules::Rule> {
    static BUILT_IN: OnceLock<Vec<Vec<&'static rules::Rule>>> = OnceLock::new();
    let built_in = OracleId::ALL.iter().position(|id| *id == oracle).map(|at| {
        BUILT_IN
            .get_or_init(|| {
                OracleId::ALL
                    .iter()
                    .map(|id| {
                        classes::RULES
                            .iter()
                            .filter(|rule| rule.scope.covers(*id))
                            .collect()
                    })
                    .collect()
            })
            .get(at)
            .map_or(&[][..], Vec::as_slice)
    });
    let external = match built_in {
        Some(_) => &[][..],
        None => classes::RULES,
    };
    built_in.unwrap_or_default().iter().copied().chain(
        external
            .iter()
            .filter(move |rule| rule.scope.covers(oracle)),
    )
}

/// A claim of `class` on the disagreement in `ctx`, as a finding.
fn finding(ctx: &Ctx<'_, '_>, class: Class, claimed: Diff) -> Finding {
    Finding {
        class,
        basis: class.basis(),
        severity: severity::of_claim(class, claimed, ctx.ours, ctx.theirs),
        oracle: ctx.oracle,
        peer: Some(OracleId::Rfc2396),
        verdict: claimed.verdict,
        fields: claimed.fields,
        detail: None,
        decided_by: Decision::NotCompared,
        known: None,
    }
}

/// The concrete effect of a finding of triage (one that compares `theirs`
/// with rfc2396's `ours`), in one line ("rfc2396 and url see different
/// hosts (none vs \"a_b.example\")").
pub(crate) fn effect(ours: &Outcome<'_>, theirs: &Outcome<'_>, finding: &Finding) -> String {
    let claim = Diff {
        verdict: finding.verdict,
        fields: finding.fields,
    };
    effect::of_claim(finding.oracle, ours, theirs, claim)
}

/// Is `class` a reading `oracle`'s own documentation gives (a rule whose
/// scope names that shipped adapter, such as `java-empty-authority`)?
/// A parser that reads RFC 2396 as RFC 2732 amends it (its descriptor's
/// `rfc2732`) documents `ip-literal` too.
pub(crate) fn documents(class: Class, oracle: OracleId) -> bool {
    matches!(oracle, OracleId::External(_))
        && (classes::RULES.iter().any(|rule| {
            rule.class == class
                && matches!(rule.scope, rules::Scope::Only(targets)
                    if targets.iter().any(|t| matches!(t, rules::Target::External(_)) && t.covers(oracle)))
        }) || (class == Class::IpLiteral && oracle.descriptor().rfc2732.is_some()))
}

/// A shipped parser that claims a standard and answers exactly as an
/// in-process parser of that standard reads the input as that standard
/// prescribes: the spec readings that explain the in-process parser's
/// difference from rfc2396 explain its own. (Some rules need the parser's
/// own reading of the base, which is known only of in-process parsers:
/// `normalized-base`, `same-scheme-reference`.) Replaces what triage left
/// unexplained of such a parser where that peer's spec findings, of classes
/// whose scope covers it too, claim every part left; each keeps the class
/// and the part of the claim left open. `outcomes` are a case's, rfc2396's
/// first.
pub(crate) fn readings_of_same_standard_peer(
    outcomes: &[(OracleId, Outcome<'_>)],
    findings: &mut Vec<Finding>,
) {
    let Some((_, ours)) = outcomes.first() else {
        return;
    };
    let mut at = 0;
    while let Some(left) = findings.get(at) {
        let borrowed = borrowed_readings(outcomes, ours, findings, left);
        match borrowed {
            Some(borrowed) if !borrowed.is_empty() => {
                let n = borrowed.len();
                findings.splice(at..=at, borrowed);
                at += n;
            }
            _ => at += 1,
        }
    }
}

/// The findings `left` (an unexplained one) takes from an in-process peer
/// of its standard with the same outcome, or `None`.
fn borrowed_readings(
    outcomes: &[(OracleId, Outcome<'_>)],
    ours: &Outcome<'_>,
    findings: &[Finding],
    left: &Finding,
) -> Option<Vec<Finding>> {
    if left.class != Class::Unexplained || !matches!(left.oracle, OracleId::External(_)) {
        return None;
    }
    let standard = left.oracle.standard()?;
    let (_, theirs) = outcomes.iter().find(|(id, _)| *id == left.oracle)?;
    let peer = outcomes.iter().find_map(|(id, o)| {
        let in_process_peer = !matches!(id, OracleId::External(_))
            && !id.is_reference()
            && id.standard() == Some(standard);
        (in_process_peer && crate::diff::diff(o, theirs).is_empty()).then_some(*id)
    })?;
    let left_claim = Diff {
        verdict: left.verdict,
        fields: left.fields,
    };
    let borrowed: Vec<Finding> = findings
        .iter()
        .filter(|f| {
            f.oracle == peer
                && f.peer == Some(OracleId::Rfc2396)
                && f.basis == Basis::Spec
                && classes::RULES
                    .iter()
                    .any(|rule| rule.class == f.class && rule.scope.covers(left.oracle))
        })
        .filter_map(|f| {
            let claim = Diff {
                verdict: f.verdict,
                fields: f.fields,
            }
            .intersection(left_claim);
            (!claim.is_empty()).then(|| Finding {
                oracle: left.oracle,
                severity: severity::of_claim(f.class, claim, ours, theirs),
                verdict: claim.verdict,
                fields: claim.fields,
                ..f.clone()
            })
        })
        .collect();
    let covered = borrowed.iter().fold(Diff::NONE, |all, f| {
        all.union(Diff {
            verdict: f.verdict,
            fields: f.fields,
        })
    });
    (left_claim.without(covered).is_empty()).then_some(borrowed)
}

#[cfg(test)]
mod catalogue_tests {
    use super::classes::RULES;
    use super::rules::{Scope, Target};
    use super::{Basis, Class};

    #[test]
    fn every_spec_class_has_one_rule_and_unexplained_none() {
        for class in Class::ALL {
            let rules = RULES.iter().filter(|r| r.class == *class).count();
            // A variation a reference permits is found by comparing with
            // the reference (`defects::against_references`), not by a rule;
            // so are the host readings of `triage::reading`.
            let by_reference = matches!(
                class,
                Class::OptionalBaseNormalization
                    | Class::Ipv6TextForm
                    | Class::Ipv6ZoneId
                    | Class::DomainHost
                    | Class::Ipv4LeadingZeros
                    // Rewritten from a defect where the parser claims no
                    // standard for the operation (`check`), by no rule.
                    | Class::UnclaimedStandard
            );
            let expected = usize::from(class.basis() == Basis::Spec && !by_reference);
            if class.basis() != Basis::Defect {
                assert_eq!(rules, expected, "{class}: {rules} rules");
            } else {
                assert!(rules <= 1, "{class}: {rules} rules");
            }
        }
    }

    #[test]
    fn external_scopes_name_shipped_adapters() {
        for rule in RULES {
            let Scope::Only(targets) = rule.scope else {
                continue;
            };
            for target in targets {
                if let Target::External(name) = target {
                    assert!(
                        crate::oracle::external::shipped_names().contains(name),
                        "{}: scope names {name}, which is no shipped adapter",
                        rule.class
                    );
                }
            }
        }
    }
}
