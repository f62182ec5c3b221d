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

use std::thread::JoinHandle;
use std::time::Duration;

use crate::diff::diff;
use crate::oracle::Query;
use crate::oracle::external::{External, Submitted, shipped_status};
use crate::oracle::{ExternalName, OracleId, Outcome, Standard};

/// The shipped adapter that runs the URL Standard's reference
/// implementation (its row's name: the row whose descriptor says it is
/// the reference).
pub const WHATWG_URL: &str = crate::oracle::external::shipped::WHATWG_REFERENCE;

/// How long the WHATWG reference may take to start and to answer a batch
/// where a caller sets no time of its own.
pub const WHATWG_TIMEOUT: Duration = Duration::from_secs(30);

/// Why `check()` (and a harness built without the WHATWG reference) has
/// none.
fn whatwg_not_asked() -> &'static str {
    static WHY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    WHY.get_or_init(|| {
        format!(
            "{WHATWG_URL} (the URL Standard's reference) was not asked: check() and a Harness built without whatwg_reference run in-process oracles only; `uridiff check` and `report` ask it"
        )
    })
}

/// The reference oracle of `standard`, if it has one.
pub fn reference_for(standard: Standard) -> Option<OracleId> {
    match standard {
        Standard::Whatwg => {
            // Checked once: `check()` asks this for every WHATWG parser on
            // every input.
            static WHATWG: std::sync::OnceLock<Option<OracleId>> = std::sync::OnceLock::new();
            *WHATWG.get_or_init(|| {
                crate::oracle::shipped_reference(Standard::Whatwg)
                    .and_then(|name| ExternalName::new(name).ok())
                    .map(OracleId::External)
            })
        }
        // The in-process oracle whose row says it is the standard's
        // reference (the RFC grammars); none for a standard without one.
        // The registry's references are listed once: triage asks this for
        // every parser on every input.
        _ => {
            static IN_PROCESS: std::sync::OnceLock<Vec<(Standard, OracleId)>> =
                std::sync::OnceLock::new();
            IN_PROCESS
                .get_or_init(|| {
                    crate::oracle::registry()
                        .iter()
                        .filter_map(|o| Some((o.id.descriptor().reference_for?, o.id)))
                        .collect()
                })
                .iter()
                .find(|(s, _)| *s == standard)
                .map(|(_, id)| *id)
        }
    }
}

/// The standard whose reference judges `id` ([`Descriptor::judged_by`](crate::oracle::Descriptor::judged_by)).
pub(crate) fn judged_by(id: OracleId) -> Option<Standard> {
    id.descriptor().judged_by
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
            None => rfc2396_grammar(input),
        };
        out.extend([(OracleId::Rfc2396Grammar, outcome)]);
    }
}

/// The RFC 2396 grammar's answer for `input`, or none where the grammar
/// is not RFC 2396's whole word: Appendix A has no relative reference
/// with an empty path and a query (`relativeURI = ( net_path | abs_path |
/// rel_path ) [ "?" query ]`, and `rel_path` is never empty), while the
/// RFC itself resolves one, Appendix C.1 ("?y = http://a/b/c/?y") and
/// section 5.2 step 2. A parser that accepts `?y` follows the RFC's
/// intent (java.net.URI says so: "Empty relative paths are permitted;
/// this seems to be the intent of RFC 2396 although the grammar does not
/// permit it"), so where the grammar refuses such a reference only for
/// its empty path (it accepts the same text after a `.` path), it decides
/// nothing.
///
/// Likewise RFC 2732 amends RFC 2396's `host` with `IPv6reference` (RFC
/// 2732 section 3), which Appendix A cannot have: both RFC 2396 parsers
/// here claim the amendment (java.net.URI: "as amended by RFC 2732";
/// Ruby's RFC2396_Parser adds IPv6reference to its host pattern). Where
/// the grammar refuses an input only for a valid RFC 2732 literal (it
/// accepts the same text with the literal replaced by a host name), it
/// decides nothing; whether the literal is valid is the self-check's
/// question (`invalid-ip-literal`, against RFC 2732 for these parsers).
fn rfc2396_grammar(input: &str) -> Outcome<'_> {
    let outcome = OracleId::Rfc2396Grammar.run(input);
    if outcome.accepted() {
        return outcome;
    }
    if input.starts_with('?')
        && OracleId::Rfc2396Grammar
            .run(&format!(".{input}"))
            .accepted()
    {
        return Outcome::missing(RFC2396_EMPTY_PATH_QUERY);
    }
    if let Some(literal) = rfc2732_literal(input)
        && OracleId::Rfc2396Grammar
            .run(&input.replacen(literal, "h", 1))
            .accepted()
    {
        return Outcome::missing(RFC2396_RFC2732_LITERAL);
    }
    // RFC 2732 section 3 also adds `[` and `]` to `reserved` (so to
    // `uric`: an opaque part, a query, a fragment), which Appendix A has
    // as `unwise`: where they stand only there, the grammar decides
    // nothing either.
    if rfc2732_uric_brackets(input)
        && OracleId::Rfc2396Grammar
            .run(&input.replace('[', "%5B").replace(']', "%5D"))
            .accepted()
    {
        return Outcome::missing(RFC2396_RFC2732_LITERAL);
    }
    outcome
}

/// Does `input` hold `[` or `]`, each in an opaque part, a query or a
/// fragment (where RFC 2732's `reserved`, so `uric`, allows them)?
fn rfc2732_uric_brackets(input: &str) -> bool {
    let first_bracket = input.find(['[', ']']);
    let Some(first) = first_bracket else {
        return false;
    };
    // After the first `?` or `#`: a query or a fragment.
    if input.find(['?', '#']).is_some_and(|q| q < first) {
        return true;
    }
    // An opaque part: a scheme, then no `/`.
    let scheme_end = input.find(':').filter(|&c| {
        input.get(..c).is_some_and(|s| {
            s.starts_with(|ch: char| ch.is_ascii_alphabetic()) && !s.contains(['/', '?', '#'])
        })
    });
    scheme_end.is_some_and(|c| {
        input
            .get(c + 1..)
            .is_some_and(|rest| !rest.starts_with('/'))
    })
}

/// The authority's bracketed host in `input` (after `//`, up to the next
/// `]`), when it is a valid RFC 2732 `IPv6reference`.
fn rfc2732_literal(input: &str) -> Option<&str> {
    let (_, after) = input.split_once("//")?;
    let authority = after.split(['/', '?', '#']).next()?;
    let start = authority.find('[')?;
    let end = authority.get(start..)?.find(']')? + start;
    let literal = authority.get(start..=end)?;
    // RFC 2373's IPv4 part allows leading zeros (`1*3DIGIT`), RFC 3986's
    // `dec-octet` does not: with them trimmed, the RFC 3986 grammar
    // decides the rest of the address (this module comes before triage,
    // whose `ip_literal` says the same for the self-check).
    let inner = literal.strip_prefix('[')?.strip_suffix(']')?;
    let written = match inner.rsplit_once(':') {
        Some((head, last)) if last.contains('.') => {
            let octets: Vec<&str> = last.split('.').collect();
            let valid = octets.len() == 4
                && octets.iter().all(|o| {
                    (1..=3).contains(&o.len())
                        && o.bytes().all(|b| b.is_ascii_digit())
                        && o.parse::<u8>().is_ok()
                });
            if !valid {
                return None;
            }
            let trimmed: Vec<&str> = octets
                .iter()
                .map(|o| match o.trim_start_matches('0') {
                    "" => "0",
                    t => t,
                })
                .collect();
            format!("{head}:{}", trimmed.join("."))
        }
        _ => inner.to_owned(),
    };
    OracleId::Rfc3986Grammar
        .run(&format!("//[{written}]"))
        .accepted()
        .then_some(literal)
}

/// Why the RFC 2396 reference decides nothing on `?y`.
const RFC2396_EMPTY_PATH_QUERY: &str = "rfc2396-grammar is RFC 2396 Appendix A only, which has no empty relative path before a query, while Appendix C.1 resolves one (?y): it decides nothing here";

/// Why the RFC 2396 reference decides nothing on an RFC 2732 literal.
const RFC2396_RFC2732_LITERAL: &str = "rfc2396-grammar is RFC 2396 Appendix A only, which has no IPv6reference, the host RFC 2732 adds to RFC 2396: it decides nothing here";

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
    /// The input the case parsed (the reference, with a base).
    input: &'c str,
    /// Where [`get`](Self::get)'s answer for each standard is, by
    /// [`STANDARDS`] order: worked out once per case, since triage and
    /// the arbiter ask it for every parser.
    slots: [Slot; STANDARDS.len()],
}

/// Every standard, in the order of [`References`]' slots.
const STANDARDS: [Standard; 6] = [
    Standard::Rfc2396,
    Standard::Rfc2396AppendixB,
    Standard::Whatwg,
    Standard::Rfc3986,
    Standard::HttpRequestTarget,
    Standard::Curl,
];

/// Where a standard's reference answer is in a case.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The standard has no reference.
    None,
    /// Its reference was not asked: no outcome of it in the case.
    NotAsked(OracleId),
    /// Its reference has a known bug on the input: `unfit[i]` says which.
    Unfit(OracleId, usize),
    /// Its reference's outcome is `outcomes[i]`.
    Outcome(OracleId, usize),
}

impl<'c, 'a> References<'c, 'a> {
    /// The references among a case's outcomes (they follow the parsers'),
    /// for `input` (resolved against `base`).
    pub(crate) fn new(
        outcomes: &'c [(OracleId, Outcome<'a>)],
        input: &'c str,
        base: Option<&str>,
    ) -> Self {
        let unfit: Vec<(OracleId, String)> = outcomes
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
        let slots = STANDARDS.map(|standard| slot(standard, outcomes, &unfit));
        References {
            outcomes,
            unfit,
            input,
            slots,
        }
    }

    /// The input the case parsed (with a base, the reference resolved).
    pub(crate) fn input(&self) -> &'c str {
        self.input
    }

    /// The reference of `standard` (`None` when the standard has none);
    /// missing when the case has no answer from it (for `whatwg-url` in
    /// `check()`: not asked).
    pub(crate) fn get(&self, standard: Standard) -> Option<Answer<'_, 'a>> {
        let at = STANDARDS.iter().position(|s| *s == standard)?;
        match *self.slots.get(at)? {
            Slot::None => None,
            Slot::NotAsked(id) => Some(Answer::Missing(id, whatwg_not_asked())),
            Slot::Unfit(id, i) => {
                let why = self
                    .unfit
                    .get(i)
                    .map_or("no answer", |(_, why)| why.as_str());
                Some(Answer::Missing(id, why))
            }
            Slot::Outcome(id, i) => {
                let (_, outcome) = self.outcomes.get(i)?;
                Some(if outcome.is_missing() {
                    Answer::Missing(id, outcome.message.as_deref().unwrap_or("no answer"))
                } else {
                    Answer::Outcome(id, outcome)
                })
            }
        }
    }
}

/// Where `standard`'s reference answer is among `outcomes`: its outcome,
/// unless `unfit` names a known bug of it on the input (that comes first)
/// or it was not asked.
fn slot(
    standard: Standard,
    outcomes: &[(OracleId, Outcome<'_>)],
    unfit: &[(OracleId, String)],
) -> Slot {
    let Some(id) = reference_for(standard) else {
        return Slot::None;
    };
    let Some(at) = outcomes.iter().position(|(o, _)| *o == id) else {
        return Slot::NotAsked(id);
    };
    match unfit.iter().position(|(o, _)| *o == id) {
        Some(i) => Slot::Unfit(id, i),
        None => Slot::Outcome(id, at),
    }
}

/// The `whatwg-url` process of one [`Harness`](crate::Harness) (the URL
/// Standard's reference implementation, a Node process running the shipped
/// adapter): started the first time a batch needs it, or in the background
/// by [`prestart`](Self::prestart), and ended with its owner: the
/// [`External`] it holds kills its process group and removes its directory
/// when dropped. Each harness owns its own, so that two harnesses (two
/// threads, parallel tests) never interleave their batches on one process
/// and one's end never stops the other's answers.
#[derive(Debug)]
pub(crate) struct WhatwgProcess {
    /// How long the process may take to start and to answer a batch.
    timeout: Duration,
    state: State,
}

/// Where a [`WhatwgProcess`] is in its life.
#[derive(Debug)]
enum State {
    NotStarted,
    /// Starting on a thread of its own ([`WhatwgProcess::prestart`]).
    Starting(JoinHandle<State>),
    Running(Box<External>),
    /// It could not start: why.
    Missing(String),
}

/// A batch the WHATWG reference is working on ([`WhatwgProcess::submit`]),
/// or why it cannot answer it.
#[derive(Debug)]
pub(crate) struct Asked(Result<Submitted, String>);

impl WhatwgProcess {
    /// A process not started yet, each batch to be answered within
    /// `timeout`.
    pub(crate) fn new(timeout: Duration) -> Self {
        WhatwgProcess {
            timeout,
            state: State::NotStarted,
        }
    }

    /// Starts the process in the background, for a caller that will surely
    /// need it (a report): its start (Node loading the package) overlaps
    /// the first inputs' checks.
    pub(crate) fn prestart(&mut self) {
        if !matches!(self.state, State::NotStarted) {
            return;
        }
        let timeout = self.timeout;
        let started = std::thread::Builder::new()
            .name(format!("{WHATWG_URL} start"))
            .spawn(move || start_whatwg(timeout));
        // Without a thread the first batch starts it, as without this call.
        if let Ok(thread) = started {
            self.state = State::Starting(thread);
        }
    }

    /// The state once any start under way or due has ended.
    fn started(&mut self) -> &mut State {
        self.state = match std::mem::replace(&mut self.state, State::NotStarted) {
            State::NotStarted => start_whatwg(self.timeout),
            State::Starting(thread) => thread.join().unwrap_or_else(|_| {
                State::Missing(format!(
                    "{WHATWG_URL} did not start: its start thread panicked"
                ))
            }),
            state @ (State::Running(_) | State::Missing(_)) => state,
        };
        &mut self.state
    }

    /// Sends `queries` to the process (started on first need) without
    /// waiting: the caller checks other inputs while Node works, then reads
    /// the answers with [`receive`](Self::receive), before the next submit.
    pub(crate) fn submit(&mut self, queries: &[Query<'_>]) -> Asked {
        // Nothing to ask: the process is not started for it.
        if queries.is_empty() {
            return Asked(Err(String::new()));
        }
        let submitted = match self.started() {
            State::Running(process) => {
                let pairs: Vec<(&str, Option<&str>)> =
                    queries.iter().map(|q| (q.input, q.base)).collect();
                process.submit(&pairs).map_err(|e| e.to_string())
            }
            State::Missing(why) => Err(why.clone()),
            State::NotStarted | State::Starting(_) => Err(format!("{WHATWG_URL} did not start")),
        };
        Asked(submitted)
    }

    /// The answers to the batch `asked` sent (`queries` is that batch): one
    /// outcome per query, missing with why where the reference cannot
    /// answer.
    pub(crate) fn receive(&mut self, queries: &[Query<'_>], asked: Asked) -> Vec<Outcome<'static>> {
        let missing = |why: &str| queries.iter().map(|_| Outcome::missing(why)).collect();
        let submitted = match asked.0 {
            Ok(submitted) => submitted,
            Err(why) => return missing(&why),
        };
        let State::Running(process) = &mut self.state else {
            return missing(&format!("{WHATWG_URL} stopped"));
        };
        let pairs: Vec<(&str, Option<&str>)> = queries.iter().map(|q| (q.input, q.base)).collect();
        match process.receive(&pairs, submitted) {
            Ok(answers) => answers,
            // The answers that came before the fault are the reference's
            // (their ids matched): kept; the queries after them are
            // missing, with why.
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

    /// [`submit`](Self::submit), then [`receive`](Self::receive).
    pub(crate) fn ask(&mut self, queries: &[Query<'_>]) -> Vec<Outcome<'static>> {
        let asked = self.submit(queries);
        self.receive(queries, asked)
    }

    /// Why the process is missing, once something asked for it and it
    /// could not start (waiting for a start under way); `None` while it
    /// runs or before anything asked for it.
    pub(crate) fn missing(&mut self) -> Option<String> {
        if matches!(self.state, State::Starting(_)) {
            self.started();
        }
        match &self.state {
            State::Missing(why) => Some(why.clone()),
            State::NotStarted | State::Starting(_) | State::Running(_) => None,
        }
    }
}

impl Drop for WhatwgProcess {
    /// Waits for a start under way, so that the process it starts ends
    /// here too (dropped with the state) rather than outliving its owner,
    /// or the program, with its directory left in TMPDIR.
    fn drop(&mut self) {
        if let State::Starting(thread) = std::mem::replace(&mut self.state, State::NotStarted) {
            drop(thread.join());
        }
    }
}

/// Starts the shipped `whatwg-url` adapter, or says why it cannot run.
fn start_whatwg(timeout: Duration) -> State {
    if let Some(missing) = shipped_status()
        .into_iter()
        .find(|s| s.name == WHATWG_URL)
        .and_then(|s| s.missing)
    {
        return State::Missing(format!("{WHATWG_URL} cannot run: {missing}"));
    }
    match External::shipped(WHATWG_URL, timeout) {
        Some(Ok(process)) => State::Running(Box::new(process)),
        Some(Err(e)) => State::Missing(e.to_string()),
        None => State::Missing(format!(
            "{WHATWG_URL} is not a shipped adapter of this build"
        )),
    }
}
