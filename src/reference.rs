//! The arbiter: each standard's executable reference decides which parser
//! departs from it.
//!
//! | standard | reference | where it runs |
//! |---|---|---|
//! | WHATWG URL Standard | `whatwg-url`, the standard's reference implementation (npm) | a long-lived Node process (shipped adapter) |
//! | RFC 3986 | `rfc3986-grammar`: Appendix A run by `crates/grammar`, section 5.2 transcribed | in process |
//! | RFC 2396 | `rfc2396-grammar`: Appendix A run by `crates/grammar`, section 4.3 | in process |
//!
//! A reference is not one of the parsers compared: it is asked only for an
//! input where some parser differs from rfc2396 (where every parser agrees
//! nothing needs deciding, and the fuzz loop stays fast), and its outcome
//! goes after the parsers' in the case. Two peers that disagree are decided
//! by their standard's reference (the one that departs from it is blamed);
//! a parser that departs from its reference is a `reference-disagreement`
//! defect; where the reference is missing (no Node) or sides with neither
//! peer, the finding says so (`decided_by: null`) and blames nobody.
//! Nothing is decided by majority or by registry order.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use crate::Query;
use crate::components::Component;
use crate::diff::diff;
use crate::oracle::external::{External, Submitted, shipped_status};
use crate::oracle::{ExternalName, OracleId, Outcome, Standard};

/// The shipped adapter that runs the URL Standard's reference
/// implementation.
pub const WHATWG_URL: &str = "whatwg-url";

/// How long the WHATWG reference may take to start and to answer a batch
/// where a caller sets no time of its own.
pub const WHATWG_TIMEOUT: Duration = Duration::from_secs(30);

/// Why `check()` (and a harness built without the WHATWG reference) has
/// none.
pub(crate) const WHATWG_NOT_ASKED: &str = "whatwg-url (the URL Standard's reference) was not asked: check() and a Harness built without whatwg_reference run in-process oracles only; `uridiff check` and `report` ask it";

/// The reference oracle of `standard`, if it has one.
pub fn reference_for(standard: Standard) -> Option<OracleId> {
    match standard {
        Standard::Whatwg => ExternalName::new(WHATWG_URL).ok().map(OracleId::External),
        Standard::Rfc3986 => Some(OracleId::Rfc3986Grammar),
        Standard::Rfc2396 => Some(OracleId::Rfc2396Grammar),
        Standard::Rfc2396AppendixB | Standard::HttpRequestTarget | Standard::Curl => None,
    }
}

/// The standard whose reference judges `id`: its own, or for an oracle
/// whose authority follows another's (`http::Uri` reads RFC 3986's
/// authority), that one's.
pub(crate) fn judged_by(id: OracleId) -> Option<Standard> {
    match id.standard() {
        Some(s @ (Standard::Whatwg | Standard::Rfc3986)) => Some(s),
        // The other implementations of RFC 2396 (java-uri,
        // ruby-uri-rfc2396); the strict parser (rfc2396) is held to its
        // grammar by the `parse` fuzz target and a test over the saved
        // corpus instead.
        Some(Standard::Rfc2396) if id != OracleId::Rfc2396 => Some(Standard::Rfc2396),
        _ => crate::oracle::info(id)
            .and_then(|row| row.authority_peer)
            .and_then(OracleId::standard),
    }
}

/// The standards whose references `outcomes` (rfc2396 first, then the
/// other parsers, no reference among them) need: those of the parsers
/// that take part in a disagreement, by differing from rfc2396. Where every
/// parser of a standard agrees with rfc2396 they agree with each other,
/// and their reference has nothing to decide; where all parsers agree,
/// nothing is asked (the fuzz loop stays fast).
pub(crate) fn standards_needed(outcomes: &[(OracleId, Outcome<'_>)]) -> Needed {
    let mut needed = Needed::new();
    let Some(((_, ours), others)) = outcomes.split_first() else {
        return needed;
    };
    for (id, o) in others {
        let Some(s) = judged_by(*id) else {
            continue;
        };
        if !o.is_missing() && !needed.contains(&s) && !diff(ours, o).is_empty() {
            needed.push(s);
        }
    }
    needed
}

/// The standards a case needs the references of (inline: `check()` makes
/// one per input).
pub(crate) type Needed = smallvec::SmallVec<[Standard; 3]>;

/// Appends the in-process references' outcomes for an input (or, with a
/// base, a resolution) whose parsers need `standards`.
pub(crate) fn in_process<'a>(
    standards: &[Standard],
    base: Option<&str>,
    input: &'a str,
    out: &mut impl Extend<(OracleId, Outcome<'a>)>,
) {
    if standards.contains(&Standard::Rfc3986) {
        let outcome = match base {
            Some(base) => crate::oracle::grammar_rfc3986_resolve(base, input),
            None => OracleId::Rfc3986Grammar.run(input),
        };
        out.extend([(OracleId::Rfc3986Grammar, outcome)]);
    }
    if standards.contains(&Standard::Rfc2396) {
        let outcome = match base {
            // Section 5.2 is not transcribed for RFC 2396: the strict
            // parser's resolution is the one uridiff has.
            Some(_) => Outcome::missing(RFC2396_NO_RESOLUTION),
            None => OracleId::Rfc2396Grammar.run(input),
        };
        out.extend([(OracleId::Rfc2396Grammar, outcome)]);
    }
}

/// Why the RFC 2396 reference decides no resolution.
const RFC2396_NO_RESOLUTION: &str =
    "rfc2396-grammar is RFC 2396 Appendix A only: it does not resolve, so it decides no resolution";

/// What a case knows of a standard's reference.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Answer<'c, 'a> {
    /// The reference's outcome.
    Outcome(OracleId, &'c Outcome<'a>),
    /// The reference was asked and has no answer (not installed, crashed,
    /// not run by `check()`): why.
    Missing(OracleId, &'c str),
}

/// The references' outcomes of one case, by standard.
#[derive(Clone, Debug)]
pub(crate) struct References<'c, 'a> {
    outcomes: &'c [(OracleId, Outcome<'a>)],
    /// Why a reference with a known bug on this case's input decides
    /// nothing (`testdata/known-deviations.tsv`), by reference.
    unfit: Vec<(OracleId, String)>,
}

impl<'c, 'a> References<'c, 'a> {
    /// The references among a case's outcomes (they follow the parsers'),
    /// for `input` (resolved against `base`).
    pub(crate) fn new(
        outcomes: &'c [(OracleId, Outcome<'a>)],
        input: &str,
        base: Option<&str>,
    ) -> Self {
        let unfit = outcomes
            .iter()
            .filter_map(|(id, _)| {
                crate::known::lookup(*id, input, base).map(|k| {
                    (
                        *id,
                        format!("{id} has a known bug here ({}): {}", k.source, k.summary),
                    )
                })
            })
            .collect();
        References { outcomes, unfit }
    }

    /// The reference of `standard` (`None` when the standard has none);
    /// missing when the case has no answer from it (for `whatwg-url` in
    /// `check()`: not asked).
    pub(crate) fn get(&self, standard: Standard) -> Option<Answer<'_, 'a>> {
        let id = reference_for(standard)?;
        let Some((_, outcome)) = self.outcomes.iter().find(|(o, _)| *o == id) else {
            return Some(Answer::Missing(id, WHATWG_NOT_ASKED));
        };
        if let Some((_, why)) = self.unfit.iter().find(|(o, _)| *o == id) {
            return Some(Answer::Missing(id, why));
        }
        Some(if outcome.is_missing() {
            Answer::Missing(id, outcome.message.as_deref().unwrap_or("no answer"))
        } else {
            Answer::Outcome(id, outcome)
        })
    }
}

/// What the standard permits a parser to answer besides its reference's
/// answer `r`: the class that explains `theirs`, if any. `pair` is the base
/// and reference of a resolution.
pub(crate) fn variation(
    standard: Standard,
    pair: Option<(&str, &str)>,
    r: &Outcome<'_>,
    theirs: &Outcome<'_>,
) -> Option<crate::triage::Class> {
    if case_only(r, theirs) {
        return Some(crate::triage::Class::CaseNormalized);
    }
    match (standard, pair) {
        (Standard::Rfc3986, Some((base, input))) => rfc3986_variation(base, input, r, theirs),
        (Standard::Rfc2396, _) => rfc2396_variation(r, theirs),
        _ => None,
    }
}

/// Do `r` and `theirs` differ only in the ASCII case of the scheme or the
/// host? Both are case-insensitive (RFC 3986 sections 3.1 and 3.2.2, and
/// 6.2.2.1 normalises them to lower case; RFC 2396 section 3.1 and 3.2.2),
/// so a parser that lower-cases them gives the same URI.
fn case_only(r: &Outcome<'_>, theirs: &Outcome<'_>) -> bool {
    let d = diff(r, theirs);
    !d.verdict
        && !d.fields.is_empty()
        && d.fields.iter().all(|c| {
            matches!(c, Component::Scheme | Component::Host)
                && match (r.components.get(c), theirs.components.get(c)) {
                    (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                    _ => false,
                }
        })
}

/// RFC 2396 section 3.2, `authority = server | reg_name`: where the
/// grammar reads a registry-based authority (only, or beside a `server`
/// it chose by convention), the scheme decides what the authority holds
/// (section 3.2.1: "specific to the URI scheme"); a parser that reads no
/// server there, or (with no server reading at all) refuses the authority
/// its scheme does not allow, breaks nothing the generic syntax says.
fn rfc2396_variation(r: &Outcome<'_>, theirs: &Outcome<'_>) -> Option<crate::triage::Class> {
    use crate::components::ComponentSet;
    use crate::oracle::Note;
    let reg_name_only = r.notes.contains(&Note::RegNameAuthority);
    let ambiguous = r
        .notes
        .iter()
        .any(|n| matches!(n, Note::GrammarAmbiguity(_)));
    if !reg_name_only && !ambiguous {
        return None;
    }
    let d = diff(r, theirs);
    let parts = ComponentSet::of(&[Component::Userinfo, Component::Host, Component::Port]);
    // The other reading has no userinfo, host or port: a parser that reads
    // a server the grammar does not have (`http://%41/` with host `%41`)
    // departs.
    let explained = if d.verdict {
        reg_name_only && !theirs.accepted()
    } else {
        !d.fields.is_empty()
            && d.fields.difference(parts).is_empty()
            && theirs.components.get(Component::Host).is_none()
    };
    explained.then_some(crate::triage::Class::RegNameAuthority)
}

/// With a base, RFC 3986's permitted variations: what a parser may answer
/// besides the strict algorithm's target (`reference`).
///
/// - Section 5.2.1: "Normalization of the base URI, as described in
///   Sections 6.2.2 and 6.2.3, is optional": the target resolved against
///   the normalised base (fluent-uri, for `""` against `h:/.`, gives `h:/`).
/// - Sections 4.3 and 5.1: a base is an `absolute-URI`; one with a
///   fragment may be refused rather than stripped.
/// - Section 5.2.4 with section 3.3: a target without authority whose path
///   starts with `//` cannot be written (its recomposition would read as an
///   authority); a parser that writes `/.` before it (fluent-uri and
///   iri-string both document it) keeps the same path.
fn rfc3986_variation(
    base: &str,
    input: &str,
    reference: &Outcome<'_>,
    theirs: &Outcome<'_>,
) -> Option<crate::triage::Class> {
    use crate::triage::Class;
    let dot_prefix = |r: &Outcome<'_>| {
        let (Some(path), Some(their_path)) = (
            r.components.get(Component::Path),
            theirs.components.get(Component::Path),
        ) else {
            return false;
        };
        r.accepted()
            && theirs.accepted()
            && r.components.get(Component::Authority).is_none()
            && path.starts_with("//")
            && their_path.strip_prefix("/.") == Some(path)
            && diff(r, theirs).fields.iter().all(|c| c == Component::Path)
    };
    if dot_prefix(reference) {
        return Some(Class::AmbiguousResolvedPath);
    }
    // Section 5.1: a base taken from a reference is "stripped of any
    // fragment component prior to its use as a base URI", and section 4.3
    // makes a base an `absolute-URI` (no fragment): the reference strips
    // it, a parser may refuse the base instead.
    if base.contains('#') && reference.accepted() && !theirs.accepted() {
        return Some(Class::BaseFragment);
    }
    let normalized = crate::oracle::grammar_rfc3986_resolve_normalized_base(base, input);
    if diff(&normalized, theirs).is_empty() || dot_prefix(&normalized) {
        return Some(Class::OptionalBaseNormalization);
    }
    None
}

/// The process-wide WHATWG reference.
#[derive(Debug)]
enum Whatwg {
    NotStarted,
    Running(Box<External>),
    Missing(String),
}

static WHATWG: Mutex<Whatwg> = Mutex::new(Whatwg::NotStarted);

/// A batch the WHATWG reference is working on ([`whatwg_submit`]). It
/// holds the process until its answers are read, so that two threads (two
/// harnesses, parallel tests) never interleave their batches on the one
/// process.
#[derive(Debug)]
pub(crate) struct Asked {
    state: Option<MutexGuard<'static, Whatwg>>,
    submitted: Result<Submitted, String>,
}

fn lock() -> MutexGuard<'static, Whatwg> {
    // A panic elsewhere while holding the lock leaves the state usable.
    WHATWG
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Sends `queries` to the one `whatwg-url` process of the program
/// (started on first need, each batch answered within `timeout`) without
/// waiting: the caller checks other inputs while Node works, then reads
/// the answers with [`whatwg_receive`]. One batch at a time per program:
/// another thread's submit waits until these answers are read.
pub(crate) fn whatwg_submit(queries: &[Query<'_>], timeout: Duration) -> Asked {
    if queries.is_empty() {
        return Asked {
            state: None,
            submitted: Err(String::new()),
        };
    }
    let mut state = lock();
    if matches!(*state, Whatwg::NotStarted) {
        *state = start_whatwg(timeout);
    }
    let submitted = match &mut *state {
        Whatwg::Running(process) => {
            let pairs: Vec<(&str, Option<&str>)> =
                queries.iter().map(|q| (q.input, q.base)).collect();
            process.submit(&pairs).map_err(|e| e.to_string())
        }
        Whatwg::Missing(why) => Err(why.clone()),
        Whatwg::NotStarted => Err("whatwg-url did not start".to_owned()),
    };
    Asked {
        state: Some(state),
        submitted,
    }
}

/// The answers to the batch `asked` sent (`queries` is that batch): one
/// outcome per query, missing with why where the reference cannot answer.
pub(crate) fn whatwg_receive(queries: &[Query<'_>], asked: Asked) -> Vec<Outcome<'static>> {
    let missing = |why: &str| queries.iter().map(|_| Outcome::missing(why)).collect();
    let Asked { state, submitted } = asked;
    let submitted = match submitted {
        Ok(submitted) => submitted,
        Err(why) => return missing(&why),
    };
    let Some(mut state) = state else {
        return missing("whatwg-url stopped");
    };
    let Whatwg::Running(process) = &mut *state else {
        return missing("whatwg-url stopped");
    };
    let pairs: Vec<(&str, Option<&str>)> = queries.iter().map(|q| (q.input, q.base)).collect();
    match process.receive(&pairs, submitted) {
        Ok(answers) => answers,
        // The answers that came before the fault are the reference's (their
        // ids matched): kept; the queries after them are missing, with why.
        Err(mut e) => {
            let why = e.to_string();
            let mut outcomes = e.take_answered();
            outcomes.truncate(queries.len());
            let answered = outcomes.len();
            outcomes.extend(
                queries
                    .iter()
                    .skip(answered)
                    .map(|_| Outcome::missing(&why)),
            );
            outcomes
        }
    }
}

/// Starts the program's `whatwg-url` process in the background, for a
/// caller that will surely need it (a report): its start (a Node process
/// loading the package) overlaps the first inputs' checks.
pub fn prestart_whatwg(timeout: Duration) {
    let started = std::thread::Builder::new()
        .name("whatwg-url start".to_owned())
        .spawn(move || {
            let mut state = lock();
            if matches!(*state, Whatwg::NotStarted) {
                *state = start_whatwg(timeout);
            }
        });
    // Without a thread the first batch starts it, as without this call.
    drop(started);
}

/// [`whatwg_submit`], then [`whatwg_receive`].
pub(crate) fn ask_whatwg(queries: &[Query<'_>], timeout: Duration) -> Vec<Outcome<'static>> {
    let asked = whatwg_submit(queries, timeout);
    whatwg_receive(queries, asked)
}

/// Why the WHATWG reference is missing, once something asked it and it
/// could not start; `None` while it runs or was never asked.
pub fn whatwg_missing() -> Option<String> {
    match &*lock() {
        Whatwg::Missing(why) => Some(why.clone()),
        _ => None,
    }
}

/// Ends the program's `whatwg-url` process, if one runs, and removes its
/// directory; later asks find it missing. For the end of a program: a
/// static is never dropped, so without this the process would outlive
/// uridiff and its directory stay in TMPDIR. Waits for a start in progress
/// ([`prestart_whatwg`] holds the state while Node starts), so that a start
/// racing the end cannot leave its directory behind either.
pub fn stop_whatwg() {
    let mut state = lock();
    *state = Whatwg::Missing("whatwg-url was stopped: the program is ending".to_owned());
}

/// Starts the shipped `whatwg-url` adapter, or says why it cannot run.
fn start_whatwg(timeout: Duration) -> Whatwg {
    if let Some(missing) = shipped_status()
        .into_iter()
        .find(|s| s.name == WHATWG_URL)
        .and_then(|s| s.missing)
    {
        return Whatwg::Missing(format!("whatwg-url cannot run: {missing}"));
    }
    match External::shipped(WHATWG_URL, timeout) {
        Some(Ok(process)) => Whatwg::Running(Box::new(process)),
        Some(Err(e)) => Whatwg::Missing(e.to_string()),
        None => Whatwg::Missing("whatwg-url is not a shipped adapter of this build".to_owned()),
    }
}
