//! `--oracle NAME` and `--oracle-cmd NAME=COMMAND`: external oracles over
//! the pipe protocol (`uridiff::oracle::external`), shared by `check` and
//! `report`. A fault never loses what was computed: the failing oracle's
//! remaining outcomes are marked missing, the error is kept, and the
//! command exits 2 after writing its output.

use std::time::Duration;

use uridiff::oracle::external::External;
use uridiff::oracle::{OracleId, Outcome, register_external};
use uridiff::{ExternalOracles, Query};

#[derive(Debug, Clone, clap::Args)]
pub struct ExternalArgs {
    /// Add a shipped external oracle: python-urllib (CPython's
    /// urllib.parse.urlsplit) or java-uri (java.net.URI). Repeatable.
    #[arg(long = "oracle", value_name = "NAME")]
    oracle: Vec<String>,
    /// Add any program that speaks the pipe protocol (see README), started
    /// with `sh -c COMMAND`, under the name NAME. Repeatable.
    #[arg(long = "oracle-cmd", value_name = "NAME=COMMAND")]
    oracle_cmd: Vec<String>,
    /// Seconds an external oracle may take to start, and to answer each
    /// batch of inputs.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    oracle_timeout: u64,
}

impl ExternalArgs {
    /// Were any external oracles asked for?
    pub fn any(&self) -> bool {
        !self.oracle.is_empty() || !self.oracle_cmd.is_empty()
    }
}

/// The external oracles of one run.
#[derive(Debug)]
pub struct Externals {
    /// Each oracle's id and its process (none once it has failed).
    oracles: Vec<(OracleId, Option<External>)>,
    /// What went wrong, one line each.
    pub errors: Vec<String>,
}

impl Externals {
    /// Starts every oracle asked for. A usage error (a bad NAME=COMMAND, an
    /// unknown shipped name, a name taken) is returned; an oracle that fails
    /// to start is kept with its error, and its outcomes will be missing.
    pub fn start(args: &ExternalArgs) -> Result<Externals, String> {
        let timeout = Duration::from_secs(args.oracle_timeout.max(1));
        let mut oracles = Vec::new();
        let mut errors = Vec::new();
        let mut started = |name: &str, spawned: Result<External, String>| -> Result<(), String> {
            let id = register_external(name)?;
            if oracles.iter().any(|(o, _)| *o == id) {
                return Err(format!("the external oracle '{name}' is given twice"));
            }
            match spawned {
                Ok(process) => oracles.push((id, Some(process))),
                Err(e) => {
                    errors.push(e);
                    oracles.push((id, None));
                }
            }
            Ok(())
        };
        for name in &args.oracle {
            let Some(spawned) = External::shipped(name, timeout) else {
                return Err(format!(
                    "unknown oracle '{name}': the shipped ones are {} (use --oracle-cmd NAME=COMMAND for your own)",
                    External::shipped_names().join(", ")
                ));
            };
            started(name, spawned.map_err(|e| e.to_string()))?;
        }
        for spec in &args.oracle_cmd {
            let Some((name, command)) = spec.split_once('=') else {
                return Err(format!("--oracle-cmd '{spec}': write NAME=COMMAND"));
            };
            if command.trim().is_empty() {
                return Err(format!("--oracle-cmd '{spec}': the command is empty"));
            }
            started(
                name,
                External::spawn(name, command, timeout).map_err(|e| e.to_string()),
            )?;
        }
        Ok(Externals { oracles, errors })
    }

    /// The external oracles asked for, started; none when none were.
    pub fn start_if_asked(args: &ExternalArgs) -> Result<Option<Externals>, String> {
        if args.any() {
            Externals::start(args).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The outcomes of every external oracle for a batch of inputs, one list
    /// per input. A failing oracle's answers so far are kept; the rest of
    /// its outcomes are missing, now and for every later batch.
    fn run_inputs(&mut self, inputs: &[&str]) -> Vec<Vec<(OracleId, Outcome<'static>)>> {
        let mut per_input: Vec<Vec<(OracleId, Outcome<'static>)>> =
            inputs.iter().map(|_| Vec::new()).collect();
        for (id, slot) in &mut self.oracles {
            let answers = match slot.as_mut().map(|p| p.run_batch(inputs)) {
                Some(Ok(answers)) => answers,
                Some(Err(e)) => {
                    self.errors.push(e.to_string());
                    *slot = None;
                    e.into_answered()
                }
                None => Vec::new(),
            };
            let mut answers = answers.into_iter();
            for outcomes in &mut per_input {
                let outcome = answers.next().unwrap_or_else(|| {
                    Outcome::missing(format!("{id} gave no answer (see the error above)"))
                });
                outcomes.push((*id, outcome));
            }
        }
        per_input
    }
}

impl ExternalOracles for Externals {
    fn run(&mut self, queries: &[Query<'_>]) -> Vec<Vec<(OracleId, Outcome<'static>)>> {
        // Protocol v1 sends no base: a pair's outcomes are missing.
        let inputs: Vec<&str> = queries.iter().map(|q| q.input).collect();
        let mut per_input = self.run_inputs(&inputs);
        for (query, outcomes) in queries.iter().zip(&mut per_input) {
            if query.base.is_some() {
                for (_, outcome) in outcomes.iter_mut() {
                    *outcome = Outcome::missing("the pipe protocol (v1) has no base URL");
                }
            }
        }
        per_input
    }

    /// Ends every oracle, keeping any error its end shows.
    fn finish(self: Box<Self>) -> Vec<String> {
        let mut errors = self.errors;
        for (_, process) in self.oracles {
            if let Some(process) = process
                && let Err(e) = process.finish()
            {
                errors.push(e.to_string());
            }
        }
        errors
    }
}
