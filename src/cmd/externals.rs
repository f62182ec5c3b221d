//! `--oracle NAME` and `--oracle-cmd NAME=COMMAND`: external oracles over
//! the pipe protocol ([`uridiff::oracle::external`]), shared by `check` and
//! `report`; and the signal handler that ends them with uridiff.

use std::time::Duration;

use uridiff::oracle::external::{self, Externals, Spec};

use super::error::diagnostic;

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ExternalArgs {
    /// Add a shipped external oracle by name (its adapter is embedded in
    /// uridiff, its runtime must be installed; an unknown name is answered
    /// with the list), or `all`: every shipped adapter whose runtime is
    /// here (`uridiff oracles` lists them). Repeatable.
    #[arg(long = "oracle", value_name = "NAME")]
    oracle: Vec<String>,
    /// Add any program that speaks the pipe protocol (see GUIDE.md,
    /// "External oracles"), started with `sh -c COMMAND`, under the name
    /// NAME. Repeatable.
    #[arg(long = "oracle-cmd", value_name = "NAME=COMMAND")]
    oracle_cmd: Vec<String>,
    /// Seconds an external oracle may take to start, to answer each batch
    /// of inputs, and to exit at the end.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    oracle_timeout: u64,
}

/// The external oracles asked for, started; none when none were. A usage
/// error (a bad name or NAME=COMMAND, an unknown shipped name, a name
/// given twice) is found before any of them starts.
impl ExternalArgs {
    /// The time an external oracle (and the WHATWG reference) may take to
    /// start and to answer each batch.
    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_secs(self.oracle_timeout.max(1))
    }
}

impl ExternalArgs {
    /// These arguments, or `--oracle all` when they name no external
    /// oracle.
    pub(crate) fn or_all(&self) -> ExternalArgs {
        let mut args = self.clone();
        if args.oracle.is_empty() && args.oracle_cmd.is_empty() {
            args.oracle.push("all".to_owned());
        }
        args
    }

    /// These arguments with each of `names` (shipped adapters) added as if
    /// given with `--oracle`, unless already there.
    pub(crate) fn with_shipped(&self, names: &[String]) -> ExternalArgs {
        let mut args = self.clone();
        for name in names {
            if !args.oracle.contains(name) && !args.oracle.iter().any(|o| o == "all") {
                args.oracle.push(name.clone());
            }
        }
        args
    }
}

pub(crate) fn start_if_asked(args: &ExternalArgs) -> Result<Option<Externals>, String> {
    if args.oracle.is_empty() && args.oracle_cmd.is_empty() {
        return Ok(None);
    }
    let mut specs: Vec<Spec> = Vec::new();
    let status = external::shipped_status();
    for name in &args.oracle {
        if name == "all" {
            // Every shipped adapter whose runtime is here; the others are
            // named with what they lack.
            for s in &status {
                match &s.missing {
                    None => specs.push(Spec::Shipped(s.name.to_owned())),
                    Some(missing) => {
                        diagnostic(format_args!("--oracle all: skipping {}: {missing}", s.name))
                    }
                }
            }
            continue;
        }
        // A named adapter whose runtime is missing is refused before any
        // input is read (an unknown name is the library's to refuse).
        if let Some(missing) = status
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.missing.as_ref())
        {
            return Err(format!("--oracle {name}: {missing}"));
        }
        specs.push(Spec::Shipped(name.clone()));
    }
    // `all` beside a name it covers: each adapter once.
    let mut seen = std::collections::HashSet::new();
    specs.retain(|spec| match spec {
        Spec::Shipped(name) => seen.insert(name.clone()),
        Spec::Command { .. } => true,
    });
    for text in &args.oracle_cmd {
        specs.push(Spec::parse_command(text).map_err(|e| e.to_string())?);
    }
    let timeout = Duration::from_secs(args.oracle_timeout.max(1));
    Externals::start(&specs, timeout)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The signal that is ending uridiff, once the handler has one (0: none).
static ENDING_SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The exit status a signal asks for (128 plus its number), once one has
/// arrived. The command's own work can end first, when the handler's kill
/// makes an adapter's pipe close: its status must not hide the signal.
pub(crate) fn signal_exit_status() -> Option<u8> {
    let signal = ENDING_SIGNAL.load(std::sync::atomic::Ordering::SeqCst);
    (signal != 0)
        .then(|| u8::try_from(128 + signal).ok())
        .flatten()
}

/// Set by a command that watches [`signal_exit_status`] and ends by itself
/// on a signal (`corpus follow`: a finding is never left half-written).
static GRACEFUL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How long a graceful command has, after a signal, before the process
/// exits anyway.
const GRACE: Duration = Duration::from_secs(10);

/// From now on a signal kills the external oracles as always but leaves
/// the command [`GRACE`] to see [`signal_exit_status`] and return; the exit
/// status is still 128 plus the signal's number.
pub(crate) fn end_gracefully() {
    GRACEFUL.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// On SIGINT or SIGTERM: kill every external oracle's, client's and
/// build's process group, remove their temporary directories, and exit with
/// 128 plus the signal's number (130, 143), as a shell reports a process
/// a signal ended. The adapters run in process groups of their own, so
/// a terminal's Ctrl-C reaches uridiff only; without this they would
/// outlive it.
pub(crate) fn end_with_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("uridiff-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Recorded before the kill: the main thread may see its
                // adapters die and finish before this thread exits.
                ENDING_SIGNAL.store(signal, std::sync::atomic::Ordering::SeqCst);
                external::kill_all();
                if GRACEFUL.load(std::sync::atomic::Ordering::SeqCst) {
                    // The command ends itself (its files complete, its
                    // summary said); this is the bound on how long it may
                    // take.
                    std::thread::sleep(GRACE);
                }
                std::process::exit(128 + signal);
            }
        });
}
