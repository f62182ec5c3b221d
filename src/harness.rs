//! [`Harness`]: the one entry point of the command line, the saved corpus,
//! `minimize` and the tests. It holds what a run is configured with (the
//! in-process oracles of the registry, external oracles, a base, whether to
//! add notes for a reader) and checks inputs in batches, so that external
//! oracles get one round trip per batch rather than per input.
//!
//! ```
//! let mut harness = uridiff::Harness::builder().annotate(true).build();
//! let cases = harness.check_batch(&["http://a_b.example/", "http://h/"]);
//! assert_eq!(cases.len(), 2);
//! assert!(!cases[0].host_confusions.is_empty());
//! ```
//!
//! The fuzz targets call [`check`](crate::check()) (and
//! [`check_with_base`](crate::check_with_base)) directly: the same pipeline
//! with the registry's oracles only, and no allocation for a harness.

use std::time::Duration;

use crate::case::Case;
use crate::check::{Pending, check_pair, check_single};
use crate::oracle::{OracleId, Outcome};
use crate::reference::WhatwgProcess;

// The query and the external-oracle trait live in `oracle` (which
// implements the trait for the pipe-protocol oracles) so that `oracle`
// does not import `harness`, which imports it: top-level modules form a
// DAG (DESIGN.md, "Data flow"). Re-exported here, where they always were.
pub use crate::oracle::{ExternalOracles, Query};

/// How many queries a harness checks before it reads the WHATWG
/// reference's answers for them and sends the next ones (see
/// [`check_pipelined`]).
const PIPELINE_STEP: usize = 128;

/// The parsers' outcomes for one query.
fn pending_of<'a>(query: Query<'a>, own: Vec<(OracleId, Outcome<'a>)>) -> Pending<'a> {
    match query.base {
        Some(base) => check_pair(base, query.input, own),
        None => check_single(query.input, own),
    }
}

/// How many queries a harness with external oracles sends in one batch.
pub const EXTERNAL_BATCH: usize = 512;

/// Builds a [`Harness`].
#[derive(Debug, Default)]
pub struct Builder<'b> {
    base: Option<&'b str>,
    externals: Option<Box<dyn ExternalOracles + 'b>>,
    annotate: bool,
    whatwg: Whatwg<'b>,
}

impl<'b> Builder<'b> {
    /// Resolves every input given without a base ([`Harness::check_batch`])
    /// against `base`.
    #[must_use]
    pub fn base(mut self, base: Option<&'b str>) -> Self {
        self.base = base;
        self
    }

    /// Adds oracles outside the registry; their outcomes follow the
    /// registry's in every case.
    #[must_use]
    pub fn externals(mut self, externals: Box<dyn ExternalOracles + 'b>) -> Self {
        self.externals = Some(externals);
        self
    }

    /// Adds the notes only a reader needs ([`Case::annotate`]).
    #[must_use]
    pub fn annotate(mut self, annotate: bool) -> Self {
        self.annotate = annotate;
        self
    }

    /// Asks the URL Standard's reference implementation (the shipped
    /// `whatwg-url` adapter: one Node process of the harness's own, started
    /// the first time a case needs it or by [`Harness::prestart`], each
    /// batch answered within `timeout`, ended when the harness is finished
    /// or dropped) where WHATWG parsers disagree. Without it (the default,
    /// and `check()`), the WHATWG reference is missing and WHATWG peer
    /// disagreements stay undecided.
    #[must_use]
    pub fn whatwg_reference(mut self, timeout: Duration) -> Self {
        self.whatwg = Whatwg::Process(WhatwgProcess::new(timeout));
        self
    }

    /// Asks `reference` (any [`ExternalOracles`] whose single oracle answers
    /// as the URL Standard's reference would) where WHATWG parsers
    /// disagree: for tests, and for a reference run some other way.
    #[must_use]
    pub fn whatwg_reference_from(mut self, reference: Box<dyn ExternalOracles + 'b>) -> Self {
        self.whatwg = Whatwg::Own(reference);
        self
    }

    /// The harness.
    pub fn build(self) -> Harness<'b> {
        Harness {
            base: self.base,
            externals: self.externals,
            annotate: self.annotate,
            whatwg: self.whatwg,
        }
    }
}

/// A configured run: see the [module documentation](self).
#[derive(Debug, Default)]
pub struct Harness<'b> {
    base: Option<&'b str>,
    externals: Option<Box<dyn ExternalOracles + 'b>>,
    annotate: bool,
    whatwg: Whatwg<'b>,
}

/// The WHATWG reference of a harness.
#[derive(Debug, Default)]
enum Whatwg<'b> {
    /// Not asked ([`Harness::default`], `check()`).
    #[default]
    Off,
    /// The harness's own `whatwg-url` process
    /// ([`Builder::whatwg_reference`]).
    Process(WhatwgProcess),
    /// A reference of the caller's.
    Own(Box<dyn ExternalOracles + 'b>),
}

impl<'b> Harness<'b> {
    /// A builder (no base, no external oracles, no notes).
    pub fn builder() -> Builder<'b> {
        Builder::default()
    }

    /// How many queries are worth gathering before a batch: one when every
    /// oracle runs in process (each input is answered as soon as it is
    /// read), [`EXTERNAL_BATCH`] with external oracles.
    pub fn batch_size(&self) -> usize {
        if self.externals.is_some() {
            EXTERNAL_BATCH
        } else {
            1
        }
    }

    /// Checks one query.
    pub fn check_query<'a>(&mut self, query: Query<'a>) -> Case<'a>
    where
        'b: 'a,
    {
        let mut cases = self.check_queries(&[query]);
        cases
            .pop()
            .unwrap_or_else(|| check_single(query.input, Vec::new()).finish(None))
    }

    /// Checks inputs, each resolved against the harness's base if it has
    /// one, in one batch.
    pub fn check_batch<'a>(&mut self, inputs: &[&'a str]) -> Vec<Case<'a>>
    where
        'b: 'a,
    {
        let base = self.base;
        let queries: Vec<Query<'a>> = inputs.iter().map(|&input| Query { input, base }).collect();
        self.check_queries(&queries)
    }

    /// Checks queries in one batch: the external oracles answer the whole
    /// batch first, then each query goes through the pipeline.
    pub fn check_queries<'a>(&mut self, queries: &[Query<'a>]) -> Vec<Case<'a>>
    where
        'b: 'a,
    {
        let mut extra = match self.externals.as_mut() {
            Some(externals) if !queries.is_empty() => externals.run(queries),
            _ => Vec::new(),
        };
        extra.reverse();
        let mut own = move || extra.pop().unwrap_or_default();
        if let Whatwg::Process(reference) = &mut self.whatwg {
            return check_pipelined(reference, self.annotate, queries, &mut own);
        }
        let pending: Vec<Pending<'a>> = queries
            .iter()
            .map(|query| pending_of(*query, own()))
            .collect();
        // The WHATWG reference answers, in one batch, the queries whose
        // WHATWG parsers disagree (it is not asked where every parser
        // agrees).
        let asked: Vec<Query<'a>> = queries
            .iter()
            .zip(&pending)
            .filter(|(_, p)| p.needs_whatwg())
            .map(|(q, _)| *q)
            .collect();
        let answers = self.ask_whatwg(&asked);
        let mut cases = Vec::with_capacity(queries.len());
        finish_into(self.annotate, pending, answers, &mut cases);
        cases
    }

    /// The WHATWG reference's outcome for each query (missing, with why,
    /// where it cannot answer).
    fn ask_whatwg(&mut self, queries: &[Query<'_>]) -> Vec<Outcome<'static>> {
        if queries.is_empty() {
            return Vec::new();
        }
        match &mut self.whatwg {
            // Not asked, as in `check()`: no outcome, and the findings say
            // it was not asked.
            Whatwg::Off => Vec::new(),
            Whatwg::Process(reference) => reference.ask(queries),
            Whatwg::Own(reference) => reference
                .run(queries)
                .into_iter()
                .map(|mut outcomes| {
                    outcomes.pop().map_or_else(
                        || Outcome::missing("the WHATWG reference gave no answer"),
                        |(_, o)| o,
                    )
                })
                .collect(),
        }
    }

    /// Starts the harness's WHATWG reference process
    /// ([`Builder::whatwg_reference`]) in the background, for a caller that
    /// will surely need it (a report): Node's start overlaps the first
    /// inputs' checks. Nothing for a harness without one, or once started.
    pub fn prestart(&mut self) {
        if let Whatwg::Process(reference) = &mut self.whatwg {
            reference.prestart();
        }
    }

    /// Why a reference this harness asks is missing: its `whatwg-url`
    /// process could not start (no Node, one too old, no package), one line
    /// each, for a report to say. Waits for a start under way. Empty while
    /// the reference runs, before anything needed it, and for a harness
    /// built without it (whose findings say it was not asked).
    pub fn missing_references(&mut self) -> Vec<String> {
        match &mut self.whatwg {
            Whatwg::Process(reference) => reference.missing().into_iter().collect(),
            Whatwg::Off | Whatwg::Own(_) => Vec::new(),
        }
    }

    /// Ends the external oracles and the WHATWG reference; the errors
    /// their end shows.
    pub fn finish(self) -> Vec<String> {
        let Harness {
            externals, whatwg, ..
        } = self;
        let mut errors = externals.map(|e| e.finish()).unwrap_or_default();
        match whatwg {
            Whatwg::Own(reference) => errors.extend(reference.finish()),
            // Its process ends here (the group killed, its directory
            // removed); a fault it met is already in the outcomes of the
            // queries it could not answer, as before it had an owner.
            Whatwg::Process(reference) => drop(reference),
            Whatwg::Off => {}
        }
        errors
    }
}

/// [`Harness::check_queries`] with the harness's `whatwg-url` process, in
/// steps of [`PIPELINE_STEP`] queries: while Node answers one step's
/// disagreements, this thread runs the next step's oracles and makes the
/// previous step's findings (the machine's second core does the
/// reference's work).
fn check_pipelined<'a>(
    reference: &mut WhatwgProcess,
    annotate: bool,
    queries: &[Query<'a>],
    own: &mut dyn FnMut() -> Vec<(OracleId, Outcome<'static>)>,
) -> Vec<Case<'a>> {
    let mut cases = Vec::with_capacity(queries.len());
    let mut in_flight: Option<(Vec<Pending<'a>>, Vec<Query<'a>>, crate::reference::Asked)> = None;
    for step in queries.chunks(PIPELINE_STEP) {
        let pending: Vec<Pending<'a>> =
            step.iter().map(|query| pending_of(*query, own())).collect();
        let asked: Vec<Query<'a>> = step
            .iter()
            .zip(&pending)
            .filter(|(_, p)| p.needs_whatwg())
            .map(|(q, _)| *q)
            .collect();
        let previous = in_flight.take().map(|(pending, asked, sent)| {
            let answers = reference.receive(&asked, sent);
            (pending, answers)
        });
        let sent = reference.submit(&asked);
        in_flight = Some((pending, asked, sent));
        if let Some((pending, answers)) = previous {
            finish_into(annotate, pending, answers, &mut cases);
        }
    }
    if let Some((pending, asked, sent)) = in_flight {
        let answers = reference.receive(&asked, sent);
        finish_into(annotate, pending, answers, &mut cases);
    }
    cases
}

/// Makes each pending case's findings, giving the WHATWG reference's
/// answers (in order) to those that asked for one, and with `annotate` the
/// notes for a reader.
fn finish_into<'a>(
    annotate: bool,
    pending: Vec<Pending<'a>>,
    answers: Vec<Outcome<'static>>,
    cases: &mut Vec<Case<'a>>,
) {
    let mut answers = answers.into_iter();
    for p in pending {
        let whatwg = if p.needs_whatwg() {
            answers.next()
        } else {
            None
        };
        let mut case = p.finish(whatwg);
        if annotate {
            case.annotate();
        }
        cases.push(case);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Echo {
        calls: Vec<usize>,
    }

    impl ExternalOracles for Echo {
        fn run(&mut self, queries: &[Query<'_>]) -> Vec<Vec<(OracleId, Outcome<'static>)>> {
            self.calls.push(queries.len());
            let id = crate::oracle::register_external("echo").unwrap();
            queries
                .iter()
                .map(|q| vec![(id, Outcome::missing(format!("asked for {:?}", q.base)))])
                .collect()
        }
        fn finish(self: Box<Self>) -> Vec<String> {
            vec![format!("calls {:?}", self.calls)]
        }
    }

    #[test]
    fn a_batch_asks_the_external_oracles_once_and_keeps_each_answer_with_its_query() {
        let mut harness = Harness::builder()
            .base(Some("http://b/"))
            .externals(Box::new(Echo { calls: Vec::new() }))
            .build();
        assert_eq!(harness.batch_size(), EXTERNAL_BATCH);
        let cases =
            harness.check_queries(&[Query::new("http://x/"), Query::with_base("http://c/", "y")]);
        assert_eq!(cases.len(), 2);
        let id = crate::oracle::register_external("echo").unwrap();
        let echo = |case: &Case<'_>| case.outcome(id).and_then(|o| o.message.clone()).unwrap();
        assert_eq!(echo(&cases[0]), "asked for None");
        assert_eq!(echo(&cases[1]), "asked for Some(\"http://c/\")");
        assert_eq!(cases[1].base, Some("http://c/"));
        let batch = harness.check_batch(&["z"]);
        assert_eq!(
            batch[0].base,
            Some("http://b/"),
            "the harness's base applies"
        );
        assert_eq!(harness.finish(), ["calls [2, 1]"]);
    }

    #[test]
    fn a_harness_without_externals_checks_as_check_does() {
        let mut harness = Harness::default();
        assert_eq!(harness.batch_size(), 1);
        for input in ["http://a_b.example/", "http://[::1]/", "%", ""] {
            assert_eq!(harness.check_query(Query::new(input)), crate::check(input));
        }
        assert!(harness.finish().is_empty());
    }
}
