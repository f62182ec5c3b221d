//! [`Externals`]: the external oracles of one run, started together, fed
//! the same batches, finished together. A fault never loses what was
//! computed: the failing oracle's trusted answers are kept, its other
//! outcomes are missing, now and for every later batch, and the error is
//! kept for the end.

use std::time::Duration;

use super::client::{External, Query, Starting};
use super::error::{ExternalError, UsageError};
use super::shipped::{self, Shipped};
use super::version::{AdapterVersion, adapter_version};
use crate::oracle::{OracleId, Outcome, register_external};

/// The longest oracle name (reports align them in columns).
pub(crate) const NAME_MAX: usize = 30;

/// One external oracle to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A shipped adapter, by name.
    Shipped(String),
    /// Any command that speaks the protocol, run with `sh -c`.
    Command {
        /// The oracle's name.
        name: String,
        /// The shell command line.
        command: String,
    },
}

impl Spec {
    /// Reads `NAME=COMMAND`.
    pub fn parse_command(text: &str) -> Result<Spec, UsageError> {
        let Some((name, command)) = text.split_once('=') else {
            return Err(UsageError::new(
                text,
                format!("--oracle-cmd '{text}': write NAME=COMMAND"),
            ));
        };
        if command.trim().is_empty() {
            return Err(UsageError::new(
                name,
                format!("--oracle-cmd '{text}': the command is empty"),
            ));
        }
        Ok(Spec::Command {
            name: name.to_owned(),
            command: command.to_owned(),
        })
    }

    /// The oracle's name.
    pub fn name(&self) -> &str {
        match self {
            Spec::Shipped(name) | Spec::Command { name, .. } => name,
        }
    }
}

/// Checks an external oracle's name: 1 to [`NAME_MAX`] bytes of ASCII
/// letters, digits, `.`, `_` and `-`, and not a built-in oracle's id.
pub(crate) fn validate_name(name: &str) -> Result<(), UsageError> {
    let fail = |why: String| Err(UsageError::new(name, why));
    if name.is_empty() {
        return fail("an external oracle's name is empty".to_owned());
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "._-".contains(*c)))
    {
        return fail(format!(
            "{name:?}: an oracle name is ASCII letters, digits, '.', '_' and '-' (not {bad:?})"
        ));
    }
    if name.len() > NAME_MAX {
        return fail(format!(
            "'{name}': an oracle name is at most {NAME_MAX} bytes ({} here)",
            name.len()
        ));
    }
    if OracleId::ALL.iter().any(|o| o.as_str() == name) {
        return fail(format!(
            "'{name}' is a built-in oracle's id; choose another name"
        ));
    }
    Ok(())
}

/// How a checked spec starts.
enum Launch<'a> {
    Shipped(&'static Shipped),
    Command { name: &'a str, command: &'a str },
}

/// The external oracles of one run.
#[derive(Debug)]
pub struct Externals {
    /// Each oracle's id and its process (none once it has failed).
    oracles: Vec<(OracleId, Option<External>)>,
    /// What went wrong so far.
    errors: Vec<ExternalError>,
}

impl Externals {
    /// Checks every spec (names, shipped adapters), then starts every
    /// oracle, reading their hello lines once all are started. A usage
    /// error is returned before any process starts; an oracle that fails
    /// to start is kept with its error, and its outcomes will be missing.
    /// `timeout` is the time each may take to start and to answer each
    /// batch.
    pub fn start(specs: &[Spec], timeout: Duration) -> Result<Externals, UsageError> {
        let mut launches = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let name = spec.name();
            validate_name(name)?;
            launches.push(match spec {
                Spec::Shipped(name) => Launch::Shipped(shipped::find(name).ok_or_else(|| {
                    UsageError::new(
                        name,
                        format!(
                            "unknown oracle '{name}': the shipped ones are {} (use --oracle-cmd NAME=COMMAND for your own)",
                            shipped::shipped_names().join(", ")
                        ),
                    )
                })?),
                Spec::Command { name, command } => Launch::Command { name, command },
            });
            if specs.iter().take(i).any(|s| s.name() == name) {
                return Err(UsageError::new(
                    name,
                    format!("the external oracle '{name}' is given twice"),
                ));
            }
        }
        let ids = specs
            .iter()
            .map(|spec| register_external(spec.name()).map_err(|e| UsageError::new(spec.name(), e)))
            .collect::<Result<Vec<OracleId>, UsageError>>()?;
        // Every process first, then every hello line.
        let starting: Vec<Result<Starting, ExternalError>> = launches
            .into_iter()
            .map(|launch| match launch {
                Launch::Shipped(row) => External::launch_shipped(row, timeout),
                Launch::Command { name, command } => External::launch(name, command, timeout),
            })
            .collect();
        let mut errors = Vec::new();
        let oracles = ids
            .into_iter()
            .zip(starting)
            .map(|(id, starting)| match starting.and_then(Starting::hello) {
                Ok(process) => (id, Some(process)),
                Err(e) => {
                    errors.push(e);
                    (id, None)
                }
            })
            .collect();
        Ok(Externals { oracles, errors })
    }

    /// The oracles' ids, in the order their outcomes come.
    pub fn ids(&self) -> Vec<OracleId> {
        self.oracles.iter().map(|(id, _)| *id).collect()
    }

    /// The versions behind each shipped adapter's answers
    /// ([`AdapterVersion`]), in the order of [`ids`](Self::ids); none for an
    /// oracle that is not a shipped adapter or did not start.
    pub fn versions(&self) -> Vec<(OracleId, Option<AdapterVersion>)> {
        self.oracles
            .iter()
            .map(|(id, process)| {
                let version = process
                    .as_ref()
                    .and_then(|p| adapter_version(p.name(), p.hello()));
                (*id, version)
            })
            .collect()
    }

    /// The outcomes of every external oracle for a batch of queries, one
    /// list per query, in order. A failing oracle's trusted answers are
    /// kept; the rest of its outcomes are missing, now and for every later
    /// batch.
    pub fn run(&mut self, queries: &[Query<'_>]) -> Vec<Vec<(OracleId, Outcome<'static>)>> {
        let mut per_query: Vec<Vec<(OracleId, Outcome<'static>)>> = queries
            .iter()
            .map(|_| Vec::with_capacity(self.oracles.len()))
            .collect();
        for (id, slot) in &mut self.oracles {
            let answers = match slot.as_mut().map(|p| p.run_queries(queries)) {
                Some(Ok(answers)) => answers,
                Some(Err(mut e)) => {
                    *slot = None;
                    let kept = e.take_answered();
                    self.errors.push(e);
                    kept
                }
                None => Vec::new(),
            };
            let mut answers = answers.into_iter();
            for outcomes in &mut per_query {
                let outcome = answers.next().unwrap_or_else(|| {
                    Outcome::missing(format!("{id} gave no answer (see the error above)"))
                });
                outcomes.push((*id, outcome));
            }
        }
        per_query
    }

    /// The errors so far.
    pub fn errors(&self) -> &[ExternalError] {
        &self.errors
    }

    /// Ends every oracle (see [`External::finish`]) and returns every
    /// error of the run, in the order they happened.
    pub fn finish(self) -> Vec<ExternalError> {
        let mut errors = self.errors;
        for (_, process) in self.oracles {
            if let Some(process) = process
                && let Err(e) = process.finish()
            {
                errors.push(e);
            }
        }
        errors
    }
}

/// A run's external oracles as the [`Harness`](crate::Harness) drives them.
impl crate::oracle::ExternalOracles for Externals {
    fn run(
        &mut self,
        queries: &[crate::oracle::Query<'_>],
    ) -> Vec<Vec<(OracleId, Outcome<'static>)>> {
        let queries: Vec<Query<'_>> = queries.iter().map(|q| (q.input, q.base)).collect();
        Externals::run(self, &queries)
    }

    fn finish(self: Box<Self>) -> Vec<String> {
        Externals::finish(*self)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
}
