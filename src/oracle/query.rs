//! What a harness asks of oracles outside the registry: a [`Query`] (an
//! input, or a reference and its base) and the [`ExternalOracles`] that
//! answer a batch of them. Defined here, beside the pipe-protocol oracles
//! that implement the trait, and re-exported by [`harness`](crate::harness).

use std::fmt;

use super::{OracleId, Outcome};

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
