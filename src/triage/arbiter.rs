//! The arbiter: comparisons between parsers. Two parsers of one standard
//! (peers) must agree, and each must agree with its standard's
//! reference; where they do not, the reference decides which departs
//! (`decided_by` its id), or where it cannot (missing, or known to be
//! wrong on the input) a strict majority of the standard's independent
//! implementations does (`decided_by` their ids); otherwise nobody is
//! blamed (`decided_by: null`).

use crate::components::{Component, ComponentSet};
use crate::diff::{Diff, diff};
use crate::oracle::{OracleId, Outcome, Standard};
use crate::reference::{Answer, References};

use super::defects::defect;
use super::equivalence::equivalent_fields;
use super::host::scheme_of;
use super::{Class, Decision, Finding, Voters, effect, severity};

/// Peer disagreements among `outcomes` (every parser but rfc2396):
/// parsers of one standard (WHATWG: url and ada; RFC 3986: rfc3986 and
/// iri-string) that disagree, and http::Uri against RFC 3986 on how the
/// same authority text splits. The standard's reference decides which one
/// departs. `strict` is the strict RFC 2396 parser's outcome (rfc2396,
/// which `outcomes` leaves out): where the RFC 2396 reference cannot
/// decide (it does not resolve), it is one more independent
/// implementation of RFC 2396 in the majority, so that two RFC 2396
/// parsers that disagree are not left undecided when a third sides with
/// one of them.
pub(crate) fn peers(
    outcomes: &[(OracleId, Outcome<'_>)],
    strict: (OracleId, &Outcome<'_>),
    references: &References<'_, '_>,
    pair: Option<(&str, &str)>,
    out: &mut Vec<Finding>,
) {
    // The strict parser votes only on resolutions, which rfc2396-grammar
    // does not decide; on a parse it is Appendix A as the grammar is, and
    // where the grammar decides nothing (RFC 2732's additions, `?y`) its
    // vote would be the grammar's again.
    let strict = pair.is_some().then_some(strict);
    // Two oracles of one standard are peers (the registry's `standard`).
    for (i, (a, oa)) in outcomes.iter().enumerate() {
        let Some(standard) = a.standard() else {
            continue;
        };
        for (b, ob) in outcomes.iter().skip(i + 1) {
            if b.standard() == Some(standard) {
                peer_pair(
                    references.get(standard),
                    (outcomes, strict),
                    (Some(standard), pair, references.input()),
                    (*a, oa),
                    (*b, ob),
                    ComponentSet::ALL,
                    out,
                );
            }
        }
    }
    // An oracle whose authority follows another's reading (the registry's
    // `authority_peer`: http::Uri's `Authority` is "the authority component
    // of a URI", RFC 3986 section 3.2): where the two read the same
    // authority text, they must split it the same way.
    let find = |id: OracleId| outcomes.iter().find(|(o, _)| *o == id).map(|(_, o)| o);
    for row in crate::oracle::registry() {
        let Some(peer) = row.authority_peer else {
            continue;
        };
        if let (Some(this), Some(that)) = (find(row.id), find(peer))
            && this.accepted()
            && that.accepted()
            && this.components.get(Component::Authority).is_some()
            && this.components.get(Component::Authority)
                == that.components.get(Component::Authority)
        {
            let parts = ComponentSet::of(&[Component::Userinfo, Component::Host, Component::Port]);
            peer_pair(
                peer.standard().and_then(|s| references.get(s)),
                (&[], None),
                (peer.standard(), None, references.input()),
                (peer, that),
                (row.id, this),
                parts,
                out,
            );
        }
    }
}

/// The implementations of a standard that vote where its reference
/// cannot decide: the parsers' outcomes, and the strict RFC 2396 parser's
/// where it votes ([`peers`]).
type Implementations<'o, 'a> = (
    &'o [(OracleId, Outcome<'a>)],
    Option<(OracleId, &'o Outcome<'a>)>,
);

/// Where `o` departs from `reference` on what `d` disputes.
fn departs(reference: &Outcome<'_>, o: &Outcome<'_>, d: Diff) -> bool {
    let r = diff(reference, o);
    (d.verdict && r.verdict) || !r.fields.intersection(d.fields).is_empty()
}

/// One pair of peers over the fields in `scope`. The peer that departs
/// from the standard's reference where the other agrees with it is
/// blamed (`decided_by` the reference). Where both depart, each one's
/// departure is its own `reference-disagreement` (see
/// [`against_references`]); where the reference is missing or sides with
/// neither, the finding blames nobody: it names the pair in registry
/// order and says that nothing settles it (`decided_by: null`).
#[allow(clippy::too_many_arguments)]
fn peer_pair(
    reference: Option<Answer<'_, '_>>,
    implementations: Implementations<'_, '_>,
    (standard, pair, input): (Option<Standard>, Option<(&str, &str)>, &str),
    (a, oa): (OracleId, &Outcome<'_>),
    (b, ob): (OracleId, &Outcome<'_>),
    scope: ComponentSet,
    out: &mut Vec<Finding>,
) {
    // An answer out of an oracle's domain (its descriptor's `domain`: a
    // relative reference for an absolute-URL parser) claims nothing about
    // the input, so it departs from no peer.
    if !oa.in_domain() || !ob.in_domain() {
        return;
    }
    // The texts the two read (the input, and a pair's base), without an
    // allocation: this runs for every pair of peers on every input.
    let with_base;
    let texts: &[&str] = match pair {
        Some((base, _)) => {
            with_base = [input, base];
            &with_base
        }
        None => std::slice::from_ref(&input),
    };
    let mut d = disputed(oa, ob, scope, standard, texts);
    if d.verdict && (documented_verdict(a, oa, ob, input) || documented_verdict(b, ob, oa, input)) {
        d.verdict = false;
    }
    // RFC 3986 section 5.2.1's optional base normalisation explains the
    // fields where one follows it, whatever else the two dispute.
    if let (Some(Standard::Rfc3986), Some(pair), Some(Answer::Outcome(_, r))) =
        (standard, pair, reference)
    {
        let explained = super::variation::base_normalization_fields(pair, r, (oa, ob), d.fields);
        d.fields = d.fields.difference(explained);
    }
    // A host one of the two writes as its documentation says it reads the
    // reference's (uri-js's "IPv4 normalization": `127.57.5.07` is
    // `127.57.5.7`) is that reading, whatever else the two dispute.
    if let (true, Some(Answer::Outcome(_, r))) = (d.fields.contains(Component::Host), reference) {
        let read = |id: OracleId, o: &Outcome<'_>| match (
            r.components.get(Component::Host),
            o.components.get(Component::Host),
        ) {
            // Another text form of an IPv6 literal is the peers' question
            // (`equivalent_fields`: only RFC 5952's is one URI).
            (Some(written), Some(host)) if written != host => matches!(
                super::reading::host_reading(id, scheme_of(o, r), written, host),
                Some(class) if class != Class::Ipv6TextForm
            ),
            _ => false,
        };
        if read(a, oa) || read(b, ob) {
            d.fields = d.fields.difference(ComponentSet::of(&[Component::Host]));
        }
    }
    if d.is_empty() {
        return;
    }
    let Some((blame_a, decision, undecided_why)) =
        decide(reference, implementations, standard, (a, oa), (b, ob), d)
    else {
        return;
    };
    let ((blamed, theirs), (peer, peers)) = if blame_a {
        ((a, oa), (b, ob))
    } else {
        ((b, ob), (a, oa))
    };
    // A departure the standard permits (RFC 3986 section 5.2.1's optional
    // base normalisation, the `/.` a path needs; RFC 2396's registry-based
    // authority, which the scheme decides): `against_references` files it
    // as `spec`, and nobody is blamed.
    if let (Some(standard), Some(Answer::Outcome(_, r))) = (standard, reference)
        && super::variation::variation(standard, (pair, input), (blamed, theirs), r).is_some()
    {
        return;
    }
    let scheme = scheme_of(theirs, peers);
    let mut finding = defect(
        Class::PeerDisagreement,
        severity::of_departure(
            Class::PeerDisagreement,
            d.fields,
            &peers.components,
            &theirs.components,
            scheme,
        ),
        blamed,
        Some(peer),
        d.fields,
        effect::peer(
            (blamed, theirs),
            (peer, peers),
            d,
            decision,
            undecided_why.as_deref(),
        ),
    );
    finding.verdict = d.verdict;
    finding.decided_by = decision;
    out.push(finding);
}

/// A peer disagreement of which `documented` fields are the blamed
/// parser's own documented reading (a spec finding of its own explains
/// them already): it keeps only the other fields, its severity and effect
/// recomputed for what is left (`theirs` and `peers` are the two parsers'
/// outcomes). Ruby's `ftp:///path` keeps its lost empty host; its path is
/// `ftp-relative-path`.
pub(crate) fn narrow(
    finding: &mut Finding,
    documented: ComponentSet,
    theirs: &Outcome<'_>,
    peers: &Outcome<'_>,
) {
    let (Some(peer), false) = (finding.peer, finding.verdict) else {
        return;
    };
    let fields = finding.fields.difference(documented);
    if fields == finding.fields || fields.is_empty() {
        return;
    }
    let d = Diff {
        verdict: false,
        fields,
    };
    finding.fields = fields;
    finding.severity = severity::of_departure(
        finding.class,
        fields,
        &peers.components,
        &theirs.components,
        scheme_of(theirs, peers),
    );
    finding.detail = Some(effect::peer(
        (finding.oracle, theirs),
        (peer, peers),
        d,
        finding.decided_by,
        None,
    ));
}

/// What `oa` and `ob` dispute within `scope`: their difference, less an
/// empty port against none and, under RFC 3986 or RFC 2396, the fields the
/// two write as one URI two ways.
fn disputed(
    oa: &Outcome<'_>,
    ob: &Outcome<'_>,
    scope: ComponentSet,
    standard: Option<Standard>,
    texts: &[&str],
) -> Diff {
    let mut d = diff(oa, ob);
    d.fields = d.fields.intersection(scope);
    if scope.contains(Component::Port)
        && d.fields.contains(Component::Port)
        && [oa, ob]
            .iter()
            .all(|o| o.components.get(Component::Port).is_none_or(str::is_empty))
    {
        // An empty port and none are equivalent (RFC 3986 section 6.2.3);
        // http::Uri reports none for `host:`.
        d.fields = d.fields.difference(ComponentSet::of(&[Component::Port]));
    }
    if let Some(standard @ (Standard::Rfc3986 | Standard::Rfc2396)) = standard {
        d.fields = d
            .fields
            .difference(equivalent_fields(oa, ob, d.fields, standard, Some(texts)));
    }
    d
}

/// Who of a pair of peers is blamed for `d` (`true`: `a`), what decided
/// it, and why nothing did where nothing did; `None` where the pair files
/// no finding (each departs from the reference on its own, which
/// `against_references` files).
fn decide(
    reference: Option<Answer<'_, '_>>,
    implementations: Implementations<'_, '_>,
    standard: Option<Standard>,
    (a, oa): (OracleId, &Outcome<'_>),
    (b, ob): (OracleId, &Outcome<'_>),
    d: Diff,
) -> Option<(bool, Decision, Option<String>)> {
    Some(match reference {
        // The reference refuses an input both accept: each departs from it
        // on the verdict (`against_references` files both), and how the two
        // repaired what the standard has no reading of decides nothing.
        Some(Answer::Outcome(_, r)) if !r.accepted() && oa.accepted() && ob.accepted() => {
            return None;
        }
        Some(Answer::Outcome(id, r)) => match (departs(r, oa, d), departs(r, ob, d)) {
            (true, false) => (true, Decision::Reference(id), None),
            (false, true) => (false, Decision::Reference(id), None),
            // Each departs on its own: `against_references` files both.
            (true, true) => return None,
            (false, false) => (
                true,
                Decision::Undecided,
                Some(format!(
                    "the reference {id} reports none of the disputed fields"
                )),
            ),
        },
        Some(Answer::Missing(id, why)) => {
            let why = format!("the reference {id} is missing: {why}");
            match majority(implementations, standard, (a, oa), (b, ob), d) {
                Some((blame_a, voters)) => (blame_a, Decision::Majority(voters), Some(why)),
                None => (true, Decision::Undecided, Some(why)),
            }
        }
        None => {
            let why = "their standard has no reference here".to_owned();
            match majority(implementations, standard, (a, oa), (b, ob), d) {
                Some((blame_a, voters)) => (blame_a, Decision::Majority(voters), Some(why)),
                None => (true, Decision::Undecided, Some(why)),
            }
        }
    })
}

/// Is `id`'s verdict on the input, `theirs`, where `other` answered the
/// other way, what `id`'s own documentation says it does, so that it
/// departs from nothing it claims? It refuses a URI of a scheme whose
/// specification requires a host, which `other` reads with none or an
/// empty one, and its documentation says it validates that scheme so
/// (Addressable refuses `http:`: RFC 9110 section 4.2.1, "A recipient that
/// processes such a URI reference MUST reject it as invalid"): the refusal
/// follows the scheme (`scheme-host-required`); RFC 3986 section 3.1
/// leaves a scheme's syntax to its specification. (A parser documented as
/// not validating keeps its verdict findings here, so that what they
/// explain of its disagreement with rfc2396 stays explained; `check`
/// files them as its leniency afterwards.) Likewise a refusal of what a
/// scheme's own syntax refuses, where its documentation says it validates
/// that scheme by it (Ruby's URI::MailTo, RFC 6068: `mailto:x` has no
/// `addr-spec`): `scheme-syntax-refused`.
///
/// Or it accepts an IPv6 literal with a zone ID after a bare `%`, which
/// `other` refuses, and its documentation says it reads such zone IDs
/// (java.net.URI's scope_ids): that literal is its documented reading.
///
/// Or it accepts an input (`input`, the text the case parsed) that RFC
/// 3986 refuses only for C0 controls or spaces inside it, and its
/// documentation says such interior data stays valid (fast-uri); with,
/// for a parser that documents RFC 3987 (`iri-characters`), characters
/// beyond ASCII, which it maps to their UTF-8 escapes.
pub(crate) fn documented_verdict(
    id: OracleId,
    theirs: &Outcome<'_>,
    other: &Outcome<'_>,
    input: &str,
) -> bool {
    if theirs.accepted() && !other.accepted() && id.descriptor().interior_controls.is_some() {
        let interior = input.trim_matches(|c: char| c <= ' ');
        if interior.len() == input.len() && input.contains(|c: char| c <= ' ') {
            // A parser that documents RFC 3987 too (`iri-characters`'
            // scope) maps an IRI's characters beyond ASCII (`ucschar`, RFC
            // 3987 section 2.2) to their UTF-8 escapes (section 3.1): they
            // are encoded as well, so
            // that the two documented readings explain one input together.
            let iri = super::classes::RULES
                .iter()
                .any(|rule| rule.class == Class::IriCharacters && rule.scope.covers(id));
            let encoded: String = input
                .chars()
                .map(|c| {
                    if c <= ' ' {
                        format!("%{:02X}", u32::from(c))
                    } else if iri && super::rules::characters::is_ucschar(c) {
                        let mut utf8 = [0; 4];
                        c.encode_utf8(&mut utf8)
                            .bytes()
                            .map(|b| format!("%{b:02X}"))
                            .collect()
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            if OracleId::Rfc3986Grammar.run(&encoded).accepted() {
                return true;
            }
        }
    }
    if theirs.accepted() && !other.accepted() {
        return id.descriptor().zone_ids.is_some()
            && theirs.components.get(Component::Host).is_some_and(|h| {
                !super::ip_literal::is_ip_literal_of(id.standard(), h)
                    && super::ip_literal::is_documented_literal(id, h)
            });
    }
    !theirs.accepted()
        && other.accepted()
        && (requires_host(id, other)
            || super::scheme_syntax::refused_by_scheme(id, other)
            || refused_by_scheme_as_written(id, other, input))
}

/// [`refused_by_scheme`](super::scheme_syntax::refused_by_scheme) where
/// `other` does not report the path the scheme's syntax is read from
/// (fast-uri's and uri-js's mailto handlers: RFC 6068's `to` and headers
/// instead): the input's own split (RFC 3986 Appendix B), when its scheme
/// is the one `other` reports.
fn refused_by_scheme_as_written(id: OracleId, other: &Outcome<'_>, input: &str) -> bool {
    let c = &other.components;
    if c.get(Component::Path).is_some() {
        return false;
    }
    let written = OracleId::AppendixB.run(input);
    let same_scheme = match (
        c.get(Component::Scheme),
        written.components.get(Component::Scheme),
    ) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    };
    same_scheme && super::scheme_syntax::refused_by_scheme(id, &written)
}

/// Does `id` document refusing a URI of `accepted`'s scheme without a
/// host, and has `accepted` none or an empty one?
pub(crate) fn requires_host(id: OracleId, accepted: &Outcome<'_>) -> bool {
    let Some((schemes, _)) = id.descriptor().host_required else {
        return false;
    };
    let c = &accepted.components;
    c.get(Component::Scheme)
        .is_some_and(|s| schemes.iter().any(|x| x.eq_ignore_ascii_case(s)))
        && c.get(Component::Host).is_none_or(str::is_empty)
}

/// Where the reference cannot decide a disagreement between peers `a` and
/// `b` of `standard` (it is missing, or known to be wrong on this input):
/// the majority of the standard's independent implementations that
/// answered (every outcome of that standard but its reference's, one vote
/// per [`lineage`](OracleId::lineage)), if a strict majority of them
/// agrees with one of the two on what `d` disputes. Returns whether `a` is
/// blamed and who outvoted it. Two implementations are no majority: with
/// only the pair, nothing is decided, as before.
fn majority(
    (implementations, strict): Implementations<'_, '_>,
    standard: Option<Standard>,
    (a, oa): (OracleId, &Outcome<'_>),
    (b, ob): (OracleId, &Outcome<'_>),
    d: Diff,
) -> Option<(bool, Voters)> {
    let standard = standard?;
    let mut lineages: Vec<&str> = Vec::new();
    let (mut with_a, mut with_b) = (Vec::new(), Vec::new());
    let mut votes = 0usize;
    let all = implementations
        .iter()
        .map(|(id, o)| (id, o))
        .chain(strict.iter().map(|(id, o)| (id, *o)));
    for (id, o) in all {
        if id.standard() != Some(standard) || id.is_reference() || !o.in_domain() {
            continue;
        }
        // One vote per lineage (fast-uri descends from uri-js): a shared
        // ancestor's behaviour is one opinion, not two.
        let lineage = id.lineage();
        if lineages.contains(&lineage) {
            continue;
        }
        lineages.push(lineage);
        votes += 1;
        let sides_a = *id == a || !departs(oa, o, d);
        let sides_b = *id == b || !departs(ob, o, d);
        match (sides_a, sides_b) {
            (true, false) => with_a.push(*id),
            (false, true) => with_b.push(*id),
            _ => {}
        }
    }
    let strict = |n: usize| n * 2 > votes && votes >= 3;
    let voters = |side: &[OracleId], blamed: OracleId| {
        Voters::new(side.iter().copied().filter(|id| *id != blamed))
    };
    if strict(with_b.len()) {
        Some((true, voters(&with_b, a)))
    } else if strict(with_a.len()) {
        Some((false, voters(&with_a, b)))
    } else {
        None
    }
}

/// Each parser against its standard's reference, where the case asked it:
/// a departure that no permitted variation explains is a
/// `reference-disagreement` defect (`decided_by` the reference), unless a
/// peer disagreement already blames the parser for it. With a base
/// (`pair`), RFC 3986's permitted variations are `spec` findings instead
/// ([`variation`](super::variation::variation)).
pub(crate) fn against_references(
    outcomes: &[(OracleId, Outcome<'_>)],
    references: &References<'_, '_>,
    pair: Option<(&str, &str)>,
    out: &mut Vec<Finding>,
) {
    for (id, theirs) in outcomes {
        let Some(standard) = id.standard() else {
            continue;
        };
        let Some(Answer::Outcome(reference_id, r)) = references.get(standard) else {
            continue;
        };
        // Out of its domain, a parser claims nothing the reference could
        // contradict.
        if !theirs.in_domain()
            || out
                .iter()
                .any(|f| f.oracle == *id && matches!(f.decided_by, Decision::Reference(_)))
        {
            continue;
        }
        let mut d = diff(r, theirs);
        if matches!(standard, Standard::Rfc3986 | Standard::Rfc2396) {
            d.fields = d
                .fields
                .difference(equivalent_fields(r, theirs, d.fields, standard, None));
        }
        if d.verdict && documented_verdict(*id, theirs, r, references.input()) {
            d.verdict = false;
        }
        if d.is_empty() {
            continue;
        }
        let variation =
            super::variation::variation(standard, (pair, references.input()), (*id, theirs), r);
        let spec = |class: Class, verdict: bool, fields: ComponentSet| Finding {
            class,
            basis: class.basis(),
            severity: class.default_severity(),
            oracle: *id,
            peer: Some(reference_id),
            verdict,
            fields,
            detail: Some(effect::reference_variation(*id, reference_id, class)),
            decided_by: Decision::Reference(reference_id),
            known: None,
        };
        // No one variation explains every field: each that explains some
        // of them is filed for those, and only the rest is a departure.
        if variation.is_none() && !d.verdict {
            for (class, fields) in
                super::variation::partial_variations(standard, pair, (*id, theirs), r, d.fields)
            {
                out.push(spec(class, false, fields));
                d.fields = d.fields.difference(fields);
            }
            if d.is_empty() {
                continue;
            }
        }
        let scheme = scheme_of(r, theirs);
        let finding = match variation {
            Some(class) => spec(class, d.verdict, d.fields),
            None => {
                let mut finding = defect(
                    Class::ReferenceDisagreement,
                    severity::of_departure(
                        Class::ReferenceDisagreement,
                        d.fields,
                        &r.components,
                        &theirs.components,
                        scheme,
                    ),
                    *id,
                    Some(reference_id),
                    d.fields,
                    effect::reference((*id, theirs), (reference_id, r), d),
                );
                finding.verdict = d.verdict;
                finding.decided_by = Decision::Reference(reference_id);
                finding
            }
        };
        out.push(finding);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::triage::equivalence::tests::outcome;

    /// Three implementations of RFC 3986 (two in process, Ruby's URI):
    /// where the reference cannot decide, the two that agree outvote the
    /// third; two alone decide nothing.
    #[test]
    fn a_strict_majority_of_three_implementations_decides() {
        let ruby = crate::oracle::register_external("ruby-uri").unwrap();
        let a = outcome("a");
        let b = outcome("b");
        let all = [
            (OracleId::Rfc3986, a.clone()),
            (OracleId::IriString, a.clone()),
            (ruby, b.clone()),
        ];
        let d = diff(&a, &b);
        let (blame_a, voters) = majority(
            (&all, None),
            Some(Standard::Rfc3986),
            (OracleId::Rfc3986, &a),
            (ruby, &b),
            d,
        )
        .unwrap();
        assert!(!blame_a, "ruby-uri is outvoted");
        assert_eq!(
            voters.iter().collect::<Vec<_>>(),
            [OracleId::Rfc3986, OracleId::IriString]
        );
        // The same pair the other way round blames the same parser.
        let (blame_a, _) = majority(
            (&all, None),
            Some(Standard::Rfc3986),
            (ruby, &b),
            (OracleId::IriString, &a),
            d,
        )
        .unwrap();
        assert!(blame_a);
        // Two implementations are no majority.
        let two = [(OracleId::Rfc3986, a.clone()), (ruby, b.clone())];
        assert!(
            majority(
                (&two, None),
                Some(Standard::Rfc3986),
                (OracleId::Rfc3986, &a),
                (ruby, &b),
                d
            )
            .is_none()
        );
        // A third that sides with neither leaves a tie.
        let c = outcome("c");
        let split = [
            (OracleId::Rfc3986, a.clone()),
            (OracleId::IriString, c),
            (ruby, b.clone()),
        ];
        assert!(
            majority(
                (&split, None),
                Some(Standard::Rfc3986),
                (OracleId::Rfc3986, &a),
                (ruby, &b),
                d
            )
            .is_none()
        );
    }
}
