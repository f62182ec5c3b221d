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

use std::fmt;
use std::time::Duration;

use crate::case::Case;
use crate::check::{Pending, check_pair, check_single};
use crate::oracle::{OracleId, Outcome};
use crate::reference;

/// One thing to check: an input, or a reference and the base to resolve it
/// against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query<'a> {
    /// The input (with a base: the reference).
    pub input: &'a str,
    /// The base, for a resolution.
    pub base: Option<&'a str>,
}

impl<'a> Query<'a> {
    /// A single input.
    pub fn new(input: &'a str) -> Self {
        Query { input, base: None }
    }

    /// A reference resolved against `base`.
    pub fn with_base(base: &'a str, input: &'a str) -> Self {
        Query {
            input,
            base: Some(base),
        }
    }
}

/// Oracles outside the registry (external processes over the pipe
/// protocol, or anything else that answers a batch at a time).
pub trait ExternalOracles: fmt::Debug {
    /// The outcomes of every oracle for each query, one list per query, in
    /// the order of `queries`. An oracle with no answer for a query gives a
    /// [missing](Outcome::missing) outcome, never none.
    fn run(&mut self, queries: &[Query<'_>]) -> Vec<Vec<(OracleId, Outcome<'static>)>>;

    /// Ends every oracle; every error seen, one line each.
    fn finish(self: Box<Self>) -> Vec<String>;
}

/// How many queries a harness checks before it reads the WHATWG
/// reference's answers for them and sends the next ones (see
/// `Harness::check_pipelined`).
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
    /// `whatwg-url` adapter: one Node process for the whole program,
    /// started the first time a case needs it, each batch answered within
    /// `timeout`) where WHATWG parsers disagree. Without it (the default,
    /// and `check()`), the WHATWG reference is missing and WHATWG peer
    /// disagreements stay undecided.
    #[must_use]
    pub fn whatwg_reference(mut self, timeout: Duration) -> Self {
        self.whatwg = Whatwg::Shared(timeout);
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
    /// The process-wide `whatwg-url` process
    /// ([`reference::ask_whatwg`](crate::reference)), each batch answered
    /// within the duration.
    Shared(Duration),
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
        if let Whatwg::Shared(timeout) = self.whatwg {
            return self.check_pipelined(queries, &mut own, timeout);
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
        self.finish_into(pending, answers, &mut cases);
        cases
    }

    /// [`check_queries`](Self::check_queries) with the program's
    /// `whatwg-url` process, in steps of [`PIPELINE_STEP`] queries: while
    /// Node answers one step's disagreements, this thread runs the next
    /// step's oracles and makes the previous step's findings (the machine's
    /// second core does the reference's work).
    fn check_pipelined<'a>(
        &mut self,
        queries: &[Query<'a>],
        own: &mut dyn FnMut() -> Vec<(OracleId, Outcome<'static>)>,
        timeout: Duration,
    ) -> Vec<Case<'a>>
    where
        'b: 'a,
    {
        let mut cases = Vec::with_capacity(queries.len());
        let mut in_flight: Option<(Vec<Pending<'a>>, Vec<Query<'a>>, reference::Asked)> = None;
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
                let answers = reference::whatwg_receive(&asked, sent);
                (pending, answers)
            });
            let sent = reference::whatwg_submit(&asked, timeout);
            in_flight = Some((pending, asked, sent));
            if let Some((pending, answers)) = previous {
                self.finish_into(pending, answers, &mut cases);
            }
        }
        if let Some((pending, asked, sent)) = in_flight {
            let answers = reference::whatwg_receive(&asked, sent);
            self.finish_into(pending, answers, &mut cases);
        }
        cases
    }

    /// Makes each pending case's findings, giving the WHATWG reference's
    /// answers (in order) to those that asked for one.
    fn finish_into<'a>(
        &self,
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
            if self.annotate {
                case.annotate();
            }
            cases.push(case);
        }
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
            Whatwg::Shared(timeout) => crate::reference::ask_whatwg(queries, *timeout),
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

    /// Ends the external oracles and the WHATWG reference; the errors
    /// their end shows.
    pub fn finish(self) -> Vec<String> {
        let mut errors = self.externals.map(|e| e.finish()).unwrap_or_default();
        if let Whatwg::Own(reference) = self.whatwg {
            errors.extend(reference.finish());
        }
        errors
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
