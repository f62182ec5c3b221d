//! The search: which candidates get past each validator and send each
//! fetcher to the goal's target ([`bypasses`]), what each validator passes
//! whatever the fetcher reads ([`passed`]), and the runs that fill a
//! [`Matrix`] from seeds and templates.

use std::collections::BTreeSet;

use super::{
    Bypass, DEFAULT_ALLOW, DEFAULT_TARGET, Goal, Matrix, PLAIN_TEMPLATE, Read, StringCheck,
    Validator, built_in_seeds, candidates, one_sided_templates, read, reading_of, templates,
};
use crate::case::Case;
use crate::components::{Component, ComponentSet};
use crate::harness::Harness;
use crate::oracle::OracleId;

const AUTHORITY_PARTS: ComponentSet = ComponentSet::of(&[
    Component::Authority,
    Component::Userinfo,
    Component::Host,
    Component::Port,
]);

/// The class that names how `oracles` (fetcher first) come to read the
/// host differently: the first finding of one of them about the authority
/// (its userinfo, host or port), else the first about its verdict (an
/// input rfc2396 refuses: its class names why), else any finding about
/// the host; else `fallback`.
fn shape(case: &Case<'_>, oracles: &[OracleId], fallback: &'static str) -> &'static str {
    let of = |test: &dyn Fn(&crate::triage::Finding) -> bool| {
        oracles
            .iter()
            .find_map(|id| case.findings.iter().find(|f| f.oracle == *id && test(f)))
    };
    of(&|f| !f.fields.intersection(AUTHORITY_PARTS).is_empty())
        .or_else(|| of(&|f| f.verdict))
        .or_else(|| {
            case.findings
                .iter()
                .find(|f| f.fields.contains(Component::Host))
        })
        .map_or(fallback, |f| f.class.id())
}

/// The host an accepting parser reads in `case`.
fn host_of<'c>(case: &'c Case<'_>, id: OracleId) -> Option<&'c str> {
    case.outcome(id)
        .filter(|o| o.accepted())
        .and_then(|o| o.components.get(Component::Host))
}

/// Does the fetcher fetch this input: it accepts it with an `http` or
/// `https` scheme (the schemes an HTTP client sends) and a host that is
/// not empty?
fn fetched_host<'c>(case: &'c Case<'_>, fetcher: OracleId) -> Option<&'c str> {
    http_host(case, fetcher, false)
}

/// The host `id` reads in `case` when it accepts it with a host that is
/// not empty and an `http` or `https` scheme, or (`without_scheme`) no
/// scheme at all: where an HTTP client reading with `id` goes.
pub(super) fn http_host<'c>(
    case: &'c Case<'_>,
    id: OracleId,
    without_scheme: bool,
) -> Option<&'c str> {
    let outcome = case.outcome(id).filter(|o| o.accepted())?;
    let http = match outcome.components.get(Component::Scheme) {
        Some(s) => s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"),
        None => without_scheme,
    };
    outcome
        .components
        .get(Component::Host)
        .filter(|h| http && !h.is_empty())
}

/// Every bypass `case` shows for the pairs of `validators` and `fetchers`.
pub fn bypasses(
    case: &Case<'_>,
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Vec<Bypass> {
    let mut found = Vec::new();
    for &fetcher in fetchers {
        let Some(fetcher_host) = fetched_host(case, fetcher) else {
            continue;
        };
        let reached = read(fetcher_host, reading_of(fetcher));
        if !goal.reached(fetcher_host, &reached) {
            continue;
        }
        pairs_to(
            case,
            validators,
            (fetcher, fetcher_host, &reached),
            goal,
            &mut found,
        );
    }
    found
}

/// Each of `validators` that passes `case` for `goal`, paired with
/// `fetcher`, which reads `fetcher_host` (and so reaches `reached`):
/// appended to `out` as [`Bypass`]es.
fn pairs_to(
    case: &Case<'_>,
    validators: &[Validator],
    (fetcher, fetcher_host, reached): (OracleId, &str, &Read),
    goal: &Goal,
    out: &mut Vec<Bypass>,
) {
    for validator in validators {
        if validator.parser() == Some(fetcher) && !goal.pairs_one_parser() {
            continue;
        }
        let Some((validator_host, preferred)) = passing(case, validator, fetcher, goal) else {
            continue;
        };
        let fallback = match validator {
            Validator::Parser(_) => "host-confusion",
            Validator::Check(_) => "string-check",
        };
        out.push(Bypass {
            validator: validator.to_string(),
            fetcher: fetcher.as_str().to_owned(),
            input: case.input.to_owned(),
            validator_host: validator_host.map(str::to_owned),
            fetcher_host: fetcher_host.to_owned(),
            shape: shape(case, &preferred, fallback).to_owned(),
            fetcher_place: reached.place(),
            fetcher_address: reached.address().map(|a| a.to_string()),
            confirmed_by: None,
            observed: None,
        });
    }
}

/// Does `validator` pass `case` for `goal`: the host it read (none for a
/// check that reads none), and the oracles whose findings name the shape
/// (`fetcher` first)?
fn passing<'c>(
    case: &'c Case<'_>,
    validator: &Validator,
    fetcher: OracleId,
    goal: &Goal,
) -> Option<(Option<&'c str>, Vec<OracleId>)> {
    let (passes, host, preferred) = match validator {
        Validator::Parser(id) => {
            // Only an accepting validator passes anything; what it passes
            // depends on the host it read (or none).
            let accepted = case.outcome(*id).is_some_and(|o| o.accepted());
            let host = host_of(case, *id);
            (accepted && goal.passes_host(host), host, vec![fetcher, *id])
        }
        Validator::Check(check) => {
            let host = check.host(case.input);
            let passes = match goal {
                Goal::Reach { allow, .. } | Goal::ReachDomain { allow, .. } => {
                    check.passes(case.input, allow)
                }
                // A denylist, a blocklist or a hostless check reads a
                // host: the checks that read none (`prefix`, `contains`, a
                // regex) have nothing to compare, and `split-host` and
                // `suffix` raise where they find no `//` (no host: not
                // passed).
                Goal::Deny { .. } | Goal::DenyName { .. } | Goal::NoHost { .. } => {
                    host.is_some() && goal.passes_host(host)
                }
            };
            (passes, host, vec![fetcher])
        }
    };
    passes.then_some((host, preferred))
}

/// Every input of `case` a validator passes, for each fetcher, whatever
/// the fetcher's parser reads: what `--observe` sends through the
/// fetcher's clients, since a client may go where its parser does not
/// (`urllib.request` percent-decodes the host). As [`Bypass`]es whose
/// `fetcher_host` is the parser's host (empty for none) and `observed`
/// not yet set.
pub fn passed(
    case: &Case<'_>,
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Vec<Bypass> {
    let mut out = Vec::new();
    for &fetcher in fetchers {
        let fetcher_host = host_of(case, fetcher).unwrap_or_default();
        let reached = read(fetcher_host, reading_of(fetcher));
        pairs_to(
            case,
            validators,
            (fetcher, fetcher_host, &reached),
            goal,
            &mut out,
        );
    }
    out
}

/// Checks `inputs` (filled candidates) with `harness` and records every
/// bypass in `matrix`.
pub fn check_candidates(
    harness: &mut Harness<'_>,
    inputs: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
    matrix: &mut Matrix,
) {
    let step = harness.batch_size().max(1);
    for chunk in inputs.chunks(step) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        for case in harness.check_batch(&refs) {
            for bypass in bypasses(&case, validators, fetchers, goal) {
                matrix.add(bypass);
            }
            if matrix.collects_passed() {
                for candidate in passed(&case, validators, fetchers, goal) {
                    matrix.add_passed(candidate);
                }
            }
        }
        matrix.checked += chunk.len();
    }
}

/// Templates from `seeds`, each checked with `harness` ([`templates`]).
pub fn seed_templates(harness: &mut Harness<'_>, seeds: &[String]) -> BTreeSet<String> {
    seed_templates_and(harness, seeds, |_| {})
}

/// [`seed_templates`], handing each seed's case to `each` as well (for a
/// caller that also wants what the seeds show as they are).
pub fn seed_templates_and(
    harness: &mut Harness<'_>,
    seeds: &[String],
    each: impl FnMut(&Case<'_>),
) -> BTreeSet<String> {
    seed_templates_with(harness, seeds, false, each)
}

/// [`seed_templates_and`], with the one-sided templates too when
/// `one_sided` ([`one_sided_templates`]).
fn seed_templates_with(
    harness: &mut Harness<'_>,
    seeds: &[String],
    one_sided: bool,
    mut each: impl FnMut(&Case<'_>),
) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    let step = harness.batch_size().max(1);
    for chunk in seeds.chunks(step) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let cases = harness.check_batch(&refs);
        for case in &cases {
            each(case);
        }
        out.extend(templates(&cases));
        if one_sided {
            out.extend(one_sided_templates(&cases));
        }
    }
    out
}

/// The whole search: `seeds` checked for host confusions and made
/// templates, with `given` (inputs that may hold `{allow}` and
/// `{target}`, tried first) and [`PLAIN_TEMPLATE`]; every candidate
/// checked.
pub fn search(
    harness: &mut Harness<'_>,
    seeds: &[String],
    given: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Matrix {
    search_with(harness, seeds, given, validators, fetchers, goal, false)
}

/// [`search`], keeping too, when `keep_passed`, the shortest input per
/// validator, fetcher, shape and spelling of the fetcher's host
/// ([`super::spelling`]) that the validator passes whatever the
/// fetcher's parser reads ([`passed`], [`Matrix::passed`]): the inputs
/// `--observe` sends.
pub fn search_with(
    harness: &mut Harness<'_>,
    seeds: &[String],
    given: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
    keep_passed: bool,
) -> Matrix {
    let from_seeds = seed_templates_with(harness, seeds, goal.wants_one_sided(), |_| {});
    let mut ordered: Vec<&str> = given.iter().map(String::as_str).collect();
    ordered.push(PLAIN_TEMPLATE);
    ordered.extend(from_seeds.iter().map(String::as_str));
    let inputs = candidates(ordered, goal);
    let mut matrix = Matrix::new(validators, fetchers, goal);
    if keep_passed {
        matrix.keep_passed();
    }
    check_candidates(harness, &inputs, validators, fetchers, goal, &mut matrix);
    matrix
}

/// The parsers a case was checked with (not the references, not the
/// splits that do not validate), in its order.
pub fn parsers_in(case: &Case<'_>) -> Vec<OracleId> {
    case.outcomes
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| id.validates() && !id.is_reference())
        .collect()
}

/// The validators of a default run: every parser, then the four fixed
/// string checks.
pub fn default_validators(parsers: &[OracleId]) -> Vec<Validator> {
    parsers
        .iter()
        .copied()
        .map(Validator::Parser)
        .chain([
            Validator::Check(StringCheck::Prefix),
            Validator::Check(StringCheck::Contains),
            Validator::Check(StringCheck::Suffix),
            Validator::Check(StringCheck::SplitHost),
        ])
        .collect()
}

/// The matrix a report shows: [`DEFAULT_ALLOW`] against
/// [`DEFAULT_TARGET`], every parser of `harness`'s run as validator and
/// fetcher plus the string checks as validators, from the built-in seeds
/// and `more` (templates of the report's own inputs).
pub fn report_matrix(harness: &mut Harness<'_>, more: &BTreeSet<String>) -> Matrix {
    report_matrix_with(harness, more, false)
}

/// [`report_matrix`], keeping too, when `keep_passed`, the shortest input
/// per validator, fetcher, shape and spelling that a validator passes
/// ([`Matrix::keep_passed`]): what a report observing real clients sends
/// besides the model's bypasses.
pub fn report_matrix_with(
    harness: &mut Harness<'_>,
    more: &BTreeSet<String>,
    keep_passed: bool,
) -> Matrix {
    let parsers = parsers_in(&harness.check_query(crate::Query::new(PLAIN_TEMPLATE)));
    let validators = default_validators(&parsers);
    let goal = Goal::Reach {
        allow: DEFAULT_ALLOW.to_owned(),
        target: DEFAULT_TARGET.to_owned(),
    };
    let mut all = seed_templates(harness, &built_in_seeds());
    all.extend(more.iter().cloned());
    let mut ordered: Vec<&str> = vec![PLAIN_TEMPLATE];
    ordered.extend(all.iter().map(String::as_str));
    let inputs = candidates(ordered, &goal);
    let mut matrix = Matrix::new(&validators, &parsers, &goal);
    if keep_passed {
        matrix.keep_passed();
    }
    check_candidates(harness, &inputs, &validators, &parsers, &goal, &mut matrix);
    matrix
}
