//! The pipeline behind every check: each oracle's outcome, self-checks and
//! round trips, triage against rfc2396, peers, host confusions.
//! [`check`] is the fuzz targets' one line; [`Harness`](crate::Harness)
//! drives the same pipeline with external oracles, a base and notes.

mod documented;

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::case::{Case, HostConfusion, OutcomeList};
use crate::components::{Component, ComponentSet};
use crate::diff::diff;
use crate::oracle::{self, OracleId, Outcome, Standard, registry};
use crate::reference;
use crate::reference::References;
use crate::rfc2396;
use crate::triage::host::{hosts_differ, same_address};
use crate::triage::{Defects, Finding, Resolution, arbiter, defects, triage_into};

/// Runs `input` through every oracle of the registry: self-checks and
/// round trips on each, rfc2396 against each other parser (triage), peers
/// against each other and against their standard's reference where they
/// disagree, and host confusions between accepting parsers. The fuzz
/// targets' one line; [`Harness`](crate::Harness) adds external oracles,
/// the WHATWG reference (`whatwg-url`, over the pipe), a base and notes for
/// a reader.
pub fn check(input: &str) -> Case<'_> {
    // Made in place and returned as it is (see `check_into`).
    let mut case = empty_case(input, None);
    check_into(&mut case, Depth::Full);
    case
}

/// A case whose parsers have answered, before the references are asked
/// and the findings made.
#[derive(Debug)]
pub(crate) struct Pending<'a> {
    case: Case<'a>,
    answers: Answers<'a>,
}

/// What a case's parsers gave besides their outcomes, which the findings
/// need: kept apart from the [`Case`] so that a check that makes its case
/// in place ([`check_into`]) never moves it.
#[derive(Debug)]
struct Answers<'a> {
    /// Without a base: rfc2396's parse of the input, made for its outcome
    /// and kept for triage (one parse per input, not two).
    parsed: Option<Result<rfc2396::UriRef<'a>, rfc2396::ParseError>>,
    /// With a base: the text triage reads as rfc2396's side.
    text: Option<String>,
    /// References that came with the outcomes (an external `whatwg-url`
    /// given with `--oracle`): they go after the parsers.
    references: Vec<(OracleId, Outcome<'a>)>,
    /// The standards whose references the disagreement needs (none when
    /// every parser agrees with rfc2396).
    needed: reference::Needed,
}

/// A case for `input` (the reference, with a base), with no outcome yet:
/// the parsers' go straight into it ([`check_into`]; the list is inline,
/// so a filled case moved from one place to another copies every outcome
/// again).
pub(crate) fn empty_case<'a>(input: &'a str, base: Option<&'a str>) -> Case<'a> {
    Case {
        input,
        base,
        resolved: None,
        outcomes: OutcomeList::new(),
        findings: Vec::new(),
        host_confusions: Vec::new(),
    }
}

impl<'a> Answers<'a> {
    /// Nothing answered yet.
    fn new() -> Self {
        Answers {
            parsed: None,
            text: None,
            references: Vec::new(),
            needed: reference::Needed::new(),
        }
    }

    /// Adds `extra` (external oracles' outcomes: references after the
    /// parsers) and works out which standards' references `case` needs;
    /// at [`Depth::Quick`], which asks no in-process reference, only when
    /// an external one came with the outcomes (the standards needed decide
    /// nothing else).
    fn add_extra(
        &mut self,
        case: &mut Case<'a>,
        extra: Vec<(OracleId, Outcome<'a>)>,
        depth: Depth,
    ) {
        for (id, outcome) in extra {
            if id.is_reference() {
                self.references.push((id, outcome));
            } else {
                case.outcomes.push((id, outcome));
            }
        }
        if depth == Depth::Full || !self.references.is_empty() {
            self.needed = reference::standards_needed(&case.outcomes);
        }
    }

    /// Does deciding the case need the WHATWG reference, which it does not
    /// have yet?
    fn needs_whatwg(&self) -> bool {
        self.needed.contains(&Standard::Whatwg)
            && !self
                .references
                .iter()
                .any(|(id, _)| Some(*id) == reference::reference_for(Standard::Whatwg))
    }
}

impl<'a> Pending<'a> {
    /// Does deciding this case need the WHATWG reference, which it does not
    /// have yet?
    pub(crate) fn needs_whatwg(&self) -> bool {
        self.answers.needs_whatwg()
    }

    /// Asks the in-process references, adds `whatwg` (the WHATWG
    /// reference's outcome, when the caller asked it; missing otherwise),
    /// and makes the findings.
    pub(crate) fn finish(self, whatwg: Option<Outcome<'static>>) -> Case<'a> {
        let Pending { mut case, answers } = self;
        settle(&mut case, answers, whatwg, Depth::Full);
        case
    }
}

/// Asks the in-process references (at [`Depth::Full`]), adds `whatwg` (the
/// WHATWG reference's outcome, when the caller asked it; missing
/// otherwise), and makes the findings of `case`, as deep as `depth` says.
fn settle<'a>(
    case: &mut Case<'a>,
    mut answers: Answers<'a>,
    whatwg: Option<Outcome<'static>>,
    depth: Depth,
) {
    let needs_whatwg = answers.needs_whatwg();
    if !answers.needed.is_empty() {
        if depth == Depth::Full {
            reference::in_process(&answers.needed, case.base, case.input, &mut case.outcomes);
        }
        case.outcomes
            .extend(std::mem::take(&mut answers.references));
        // `check()` does not ask the WHATWG reference: no outcome (the
        // findings say it was not asked), and no allocation for one.
        if needs_whatwg
            && let (Some(id), Some(outcome)) = (reference::reference_for(Standard::Whatwg), whatwg)
        {
            case.outcomes.push((id, outcome));
        }
    }
    match (case.base, answers.text.take()) {
        (Some(base), Some(text)) => {
            let parsed = rfc2396::parse(&text);
            let resolution = Resolution::new(base, case.input);
            analyse(case, &text, &parsed, Some(&resolution), depth);
            case.resolved = Some(text);
        }
        _ => {
            let input = case.input;
            let parsed = answers
                .parsed
                .take()
                .unwrap_or_else(|| rfc2396::parse(input));
            analyse(case, input, &parsed, None, depth);
        }
    }
}

/// How much of the pipeline a check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// All of it: the in-process references (the RFC grammars,
    /// `rfc3986-grammar` and `rfc2396-grammar`) where the parsers need
    /// them, host confusions, known deviations marked. `check()`.
    Full,
    /// What a campaign runs on every input
    /// ([`crate::fuzzing::campaign_check`]), which acts only on the
    /// findings' signatures and runs the full check wherever they make a
    /// finding: no grammars (an Earley engine, dearer than all the parsers
    /// together; the peers' disagreements stay undecided); no round trips
    /// (a second parse of each parser's own serialization, url's and ada's
    /// on about two fifths of a campaign's inputs, libcurl's and http's on
    /// one in six: an eighth of a campaign's instructions), decided where
    /// the campaign's inputs are replayed in full as a grammar's defects
    /// are, and so no serialization from libcurl (`oracle::quick_run`); no
    /// host confusions and no known-deviation marks (neither is part of a
    /// signature).
    Quick,
}

/// [`check`] at [`Depth::Quick`], or at `depth`, into `case` (made by
/// [`empty_case`], or by [`clear`] after a check of the same input). A
/// campaign runs this on every input and returns the case it made
/// (`fuzzing::campaign_check`): made in place, where the caller returns it,
/// the case is never moved, where returning one from a function that built
/// it was a copy of all of it per input (it holds every outcome inline, a
/// few kilobytes).
pub(crate) fn check_into(case: &mut Case<'_>, depth: Depth) {
    let answers = match case.base {
        Some(base) => pair_into(case, base, Vec::new(), depth),
        None => single_into(case, Vec::new(), depth),
    };
    settle(case, answers, None, depth);
}

/// [`check`] at [`Depth::Quick`].
#[cfg(test)]
pub(crate) fn check_quick(input: &str) -> Case<'_> {
    let mut case = empty_case(input, None);
    check_into(&mut case, Depth::Quick);
    case
}

/// Takes back what a check put in `case` (its outcomes, findings, host
/// confusions and resolved text), so that [`check_into`] can check its
/// input again: the case is then as [`empty_case`] makes it, but for the
/// capacity of its lists, which no output shows.
pub(crate) fn clear(case: &mut Case<'_>) {
    case.resolved = None;
    case.outcomes.clear();
    case.findings.clear();
    case.host_confusions.clear();
}

/// The parsers' outcomes for one input: the registry's, then `extra`
/// (external oracles, over the pipe protocol).
pub(crate) fn check_single<'a>(input: &'a str, extra: Vec<(OracleId, Outcome<'a>)>) -> Pending<'a> {
    let mut case = empty_case(input, None);
    let answers = single_into(&mut case, extra, Depth::Full);
    Pending { case, answers }
}

/// The registry's outcomes for `case`'s input, then `extra`, pushed
/// straight into it (each outcome from the call that makes it, so that it
/// is copied once, into the list).
fn single_into<'a>(
    case: &mut Case<'a>,
    extra: Vec<(OracleId, Outcome<'a>)>,
    depth: Depth,
) -> Answers<'a> {
    let input = case.input;
    let parsed = rfc2396::parse(input);
    let mut answers = Answers::new();
    for row in registry().iter().filter(|row| !row.reference) {
        if row.id == OracleId::Rfc2396 {
            case.outcomes
                .push((row.id, oracle::rfc2396::outcome_of(&parsed)));
        } else {
            // The quick check reads no serialization (`oracle::quick_run`).
            let run = match depth {
                Depth::Full => row.run,
                Depth::Quick => oracle::quick_run(row),
            };
            case.outcomes.push((row.id, run(input)));
        }
    }
    answers.parsed = Some(parsed);
    answers.add_extra(case, extra, depth);
    answers
}

/// Resolves `reference` against `base` with every oracle's own algorithm
/// (RFC 2396 section 5.2, RFC 3986 section 5.2, the URL Standard, libcurl;
/// `http::Uri` follows an origin-form reference on the base's host) and
/// checks the resolved URIs as [`check`] checks one input: defects,
/// differences from rfc2396's result, peers and references, and host
/// confusions between the hosts each parser would send the request to.
pub fn check_with_base<'a>(base: &'a str, reference: &'a str) -> Case<'a> {
    let mut case = empty_case(reference, Some(base));
    check_into(&mut case, Depth::Full);
    case
}

/// The parsers' outcomes for a resolution: the registry's, then `extra`
/// (external oracles) for the pair.
pub(crate) fn check_pair<'a>(
    base: &'a str,
    reference: &'a str,
    extra: Vec<(OracleId, Outcome<'a>)>,
) -> Pending<'a> {
    let mut case = empty_case(reference, Some(base));
    let answers = pair_into(&mut case, base, extra, Depth::Full);
    Pending { case, answers }
}

/// The registry's outcomes for the resolution of `case`'s input (the
/// reference) against `base` (its base), then `extra`, pushed into it.
fn pair_into<'a>(
    case: &mut Case<'a>,
    base: &'a str,
    extra: Vec<(OracleId, Outcome<'a>)>,
    depth: Depth,
) -> Answers<'a> {
    let reference = case.input;
    let mut answers = Answers::new();
    let mut resolved = None;
    for row in registry().iter().filter(|row| !row.reference) {
        let outcome = match (row.resolve)(base, reference) {
            Ok(text) => {
                let outcome = (row.run)(&text).into_owned();
                if row.id == OracleId::Rfc2396 {
                    resolved = Some(text);
                }
                outcome
            }
            Err(refusal) => refusal.outcome(),
        };
        case.outcomes.push((row.id, outcome));
    }
    // Triage reads rfc2396's resolved URI, or, when it refused, the text it
    // refused (the base, else the reference), so that rules keyed on its
    // error see the right one.
    let text = resolved.unwrap_or_else(|| {
        if rfc2396::parse(base).is_err() {
            base.to_owned()
        } else {
            reference.to_owned()
        }
    });
    answers.text = Some(text);
    answers.add_extra(case, extra, depth);
    answers
}

/// Self-checks, triage against rfc2396, peers and (at [`Depth::Full`])
/// host confusions over the outcomes of `case`; `text` and `parsed` are
/// rfc2396's side.
fn analyse(
    case: &mut Case<'_>,
    text: &str,
    parsed: &Result<rfc2396::UriRef<'_>, rfc2396::ParseError>,
    resolution: Option<&Resolution<'_>>,
    depth: Depth,
) {
    // The parsers first, then the references asked (none where every
    // parser agrees).
    let split = case
        .outcomes
        .iter()
        .position(|(id, _)| id.is_reference())
        .unwrap_or(case.outcomes.len());
    let (parsers, references) = case.outcomes.split_at_mut(split);
    let references = References::new(references, case.input, case.base);
    let Some(((_, reference), others)) = parsers.split_first_mut() else {
        return;
    };
    // Peers and references first: a defect they find explains what no spec
    // rule explains of the parser it blames.
    let mut peer_findings = Vec::new();
    let pair = case.base.map(|base| (base, case.input));
    // A parser that flagged the input as malformed while returning its
    // components (fast-uri's `error`: its README says malformed input "is
    // reported through the parsed component's `error` field" and that
    // `resolve()` rejects it) has refused what its standard's reference
    // refuses too: there it is judged as refusing, and accepting what the
    // standard forbids is no claim against it. Where the reference accepts
    // the input, the flag is a scheme's own rule (uri-js's and fast-uri's
    // mailto handlers flag `mailto:x`, valid RFC 3986, which RFC 6068's
    // addr-spec refuses) and its components are judged as they are. Its
    // components take part in the host confusions below either way: they
    // are what a caller that ignores the flag reads (CVE-2026-16221).
    // Outcomes are copied only on the rare input an adapter flags.
    let refused = |id: OracleId| {
        id.standard().and_then(|s| references.get(s)).is_none_or(
            |answer| !matches!(answer, reference::Answer::Outcome(_, r) if r.accepted()),
        )
    };
    let judged_as_refusal = |id: OracleId, o: &Outcome<'_>| id.flagged(o) && refused(id);
    let judged: Option<Vec<(OracleId, Outcome<'_>)>> = others
        .iter()
        .any(|(id, o)| judged_as_refusal(*id, o))
        .then(|| {
            others
                .iter()
                .map(|(id, o)| (*id, as_judged(*id, o, judged_as_refusal(*id, o))))
                .collect()
        });
    let judged_outcomes: &[(OracleId, Outcome<'_>)] = judged.as_deref().unwrap_or(others);
    arbiter::peers(
        judged_outcomes,
        (OracleId::Rfc2396, reference),
        &references,
        pair,
        &mut peer_findings,
    );
    arbiter::against_references(judged_outcomes, &references, pair, &mut peer_findings);
    let written = Written {
        text,
        parsed,
        bracketed: text.contains('['),
        empty_host: OnceCell::new(),
        round_trips: depth == Depth::Full,
    };
    for (id, outcome) in others.iter() {
        if outcome.is_missing() {
            continue;
        }
        let flagged_refusal;
        let outcome = if judged_as_refusal(*id, outcome) {
            flagged_refusal = as_judged(*id, outcome, true);
            &flagged_refusal
        } else {
            outcome
        };
        judge(
            *id,
            outcome,
            reference,
            &written,
            resolution,
            &peer_findings,
            &mut case.findings,
        );
    }
    crate::triage::readings_of_same_standard_peer(&case.outcomes, &mut case.findings);
    case.findings.extend(peer_findings);
    documented::drop_documented_departures(case);
    documented::unclaimed_standards(case);
    documented::documented_leniency(case);
    if depth == Depth::Full {
        mark_known(case);
        host_confusions(case);
    }
}

/// The text every parser of a case is judged on (the input, or rfc2396's
/// resolution of it), as rfc2396 parsed it, and what the checks of each
/// parser look up in it once per case rather than once per parser.
struct Written<'t, 'p> {
    text: &'t str,
    parsed: &'p Result<rfc2396::UriRef<'p>, rfc2396::ParseError>,
    /// Whether `text` holds a `[` at all: the rewritten-literal check asks
    /// it of every accepting parser, and most inputs have none.
    bracketed: bool,
    /// The authority whose host is empty after an `@`, if any
    /// (`defects::empty_host_after_at`): asked for each WHATWG parser that
    /// accepts an input with an `@`.
    empty_host: OnceCell<Option<Cow<'t, str>>>,
    /// Whether each parser's round trip is checked: at [`Depth::Full`]
    /// only (see [`Depth::Quick`]).
    round_trips: bool,
}

/// One parser's outcome against rfc2396's (`ours`, of `written`): its
/// self-checks, then their diff triaged, knowing the defect found in it
/// (its own, else one a peer or reference found).
fn judge(
    id: OracleId,
    outcome: &Outcome<'_>,
    ours: &Outcome<'_>,
    written: &Written<'_, '_>,
    resolution: Option<&Resolution<'_>>,
    peer_findings: &[Finding],
    findings: &mut Vec<Finding>,
) {
    let text = written.text;
    let first_defect = findings.len();
    if !same_authority_slices(ours, outcome) {
        defects::self_checks(id, outcome, text, findings);
    }
    if written.round_trips {
        defects::round_trip(id, outcome, findings);
    }
    if resolution.is_none() {
        defects::standard_failures(id, outcome, text, &written.empty_host, findings);
        // It finds nothing in a text without a `[` (its own first test).
        if written.bracketed {
            defects::rewritten_ip_literal(id, outcome, text, findings);
        }
    }
    let own = findings.get(first_defect..).unwrap_or_default();
    let defect = match own.first() {
        Some(first) => Some(Defects {
            class: first.class,
            fields: own
                .iter()
                .fold(ComponentSet::EMPTY, |set, f| set.union(f.fields)),
        }),
        None => peer_findings
            .iter()
            .find(|f| f.oracle == id || f.peer == Some(id))
            .map(|f| Defects {
                class: f.class,
                fields: ComponentSet::EMPTY,
            }),
    };
    let mut d = diff(ours, outcome);
    if !id.validates() {
        // Appendix B splits any string: its "acceptance" of what rfc2396
        // rejects is no disagreement, only its split of a valid input is.
        d.verdict = false;
    }
    if !d.is_empty() {
        triage_into(
            text,
            written.parsed,
            ours,
            id,
            outcome,
            d,
            defect,
            resolution,
            findings,
        );
    }
}

/// `outcome` as its standard judges it: where `refusal` (`id`'s parser
/// flagged an input its standard's reference refuses), a refusal with the
/// flag as its message; else the outcome itself.
fn as_judged<'a>(id: OracleId, outcome: &Outcome<'a>, refusal: bool) -> Outcome<'a> {
    if !refusal {
        return outcome.clone();
    }
    let flag = outcome
        .notes
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    Outcome::reject(format!(
        "{id} flags the input ({flag}) and still returns its components"
    ))
}

/// Marks each defect a parser's documented deviation covers
/// (`testdata/known-deviations.tsv`).
fn mark_known(case: &mut Case<'_>) {
    for finding in &mut case.findings {
        if finding.basis == crate::triage::Basis::Defect {
            finding.known = crate::known::lookup_finding(
                finding.oracle,
                case.input,
                case.base,
                finding.verdict,
                finding.fields,
            )
            .map(|k| k.id.as_str());
        }
    }
}

/// Does `outcome` report the very authority slices rfc2396 accepted (the
/// same bytes of the input, compared by address)? Then RFC 2396's grammar
/// vouches for what the self-checks would look at: its `server` is
/// `[ userinfo "@" ] hostport` by construction (section 3.2.2), and its
/// hosts hold no brackets. Most parsers borrow their components from the
/// input, so this settles most inputs without reading them.
fn same_authority_slices(reference: &Outcome<'_>, outcome: &Outcome<'_>) -> bool {
    let same_slice = |c: Component| {
        crate::diff::same_slice(reference.components.get(c), outcome.components.get(c))
    };
    reference.accepted()
        && same_slice(Component::Host)
        && (!outcome.components.reported().contains(Component::Authority)
            || [Component::Authority, Component::Userinfo, Component::Port]
                .into_iter()
                .all(same_slice))
}

/// Every pair of accepting, validating parsers that report hosts and see
/// different ones.
fn host_confusions(case: &mut Case<'_>) {
    // References decide; they are not parsers a service runs.
    let with_host = |(id, o): &(OracleId, Outcome<'_>)| {
        id.validates()
            && !id.is_reference()
            && o.accepted()
            && o.components.reported().contains(Component::Host)
    };
    let scheme = case
        .outcome(OracleId::Rfc2396)
        .and_then(|o| o.components.get(Component::Scheme))
        .or_else(|| {
            case.outcomes
                .iter()
                .find_map(|(_, o)| o.components.get(Component::Scheme))
        });
    // Most inputs give every parser the same host bytes: one pass settles
    // that before the pairs (this runs on every input).
    let mut hosts = case
        .outcomes
        .iter()
        .filter(|o| with_host(o))
        .map(|(_, o)| o.components.get(Component::Host));
    if let Some(first) = hosts.next()
        && hosts.all(|h| h == first)
    {
        case.host_confusions = Vec::new();
        return;
    }
    // Pairs in registry order, without collecting.
    let mut found = Vec::new();
    for (i, a) in case
        .outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| with_host(o))
    {
        for b in case.outcomes.iter().skip(i + 1).filter(|o| with_host(o)) {
            let (ha, hb) = (
                a.1.components.get(Component::Host),
                b.1.components.get(Component::Host),
            );
            if hosts_differ(ha, hb, scheme) {
                found.push(HostConfusion {
                    oracles: [a.0, b.0],
                    hosts: [ha.map(str::to_owned), hb.map(str::to_owned)],
                    same_address: match (ha, hb) {
                        (Some(x), Some(y)) => same_address(x, y),
                        _ => false,
                    },
                });
            }
        }
    }
    case.host_confusions = found;
}
