//! The `uridiff` command line. The library returns values and errors; the
//! commands (`cmd`) print them.
//!
//! Exit codes follow `diff`: 0 when all is well, 1 when the inputs show what
//! was asked about (an invalid reference, an unexplained disagreement), 2 on
//! a usage or I/O error (`cmd::error` prints errors and maps them to codes).
#![forbid(unsafe_code)]

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Differential testing of URI parsers around a strict RFC 2396 parser.
#[derive(Debug, Parser)]
#[command(name = "uridiff", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse URI references with the strict RFC 2396 parser.
    ///
    /// Inputs come from the arguments, or one per line from standard input
    /// when none are given. Put inputs that begin with '-' after '--'.
    /// Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error.
    Parse(cmd::parse::Args),
    /// Resolve REFERENCE against BASE (RFC 2396 section 5.2) and print the result.
    ///
    /// Exit status: 0 resolved, 1 the base or reference is invalid (or the
    /// pair does not resolve), 2 usage or I/O error.
    Resolve(cmd::resolve::Args),
    /// Run inputs through every oracle and show them side by side, with the findings.
    ///
    /// Exit status: 0 nothing unexplained, 1 unexplained disagreements, 2 usage or I/O error.
    Check(cmd::check::Args),
    /// Replay a corpus and write a disagreement report.
    ///
    /// Every file under the given directories is one input (libFuzzer corpus
    /// format), or with --lines every line is, with --pairs every line a
    /// BASE<TAB>REFERENCE pair, with --target NAME every file a corpus file
    /// of that fuzz target. Symbolic links that leave a directory are
    /// listed as not checked, never read. Exit status: 0 nothing
    /// unexplained, 1 unexplained disagreements, 2 usage or I/O error.
    Report(cmd::report::Args),
    /// The saved corpus: bless or check its recorded expectations, add
    /// inputs to a fuzz target's corpus directory, or follow a running
    /// campaign's corpus with the shipped adapters.
    Corpus(cmd::corpus::Args),
    /// List the oracles of this build: id, library and version, standard, domain.
    Oracles(cmd::oracles::Args),
    /// Shrink an input by delta debugging while it keeps the same set of
    /// finding signatures; print the shorter input.
    Minimize(cmd::minimize::Args),
    /// List the fuzz targets, one per line: the names of their binaries and
    /// corpus directories, or with --format tsv their corpus formats too
    /// (what the scripts read).
    Targets(cmd::targets::Args),
    /// For each root cause of an input's defects, a test in the parser's
    /// own API (Rust for the Rust crates, JavaScript and C for Ada, C for
    /// curl, each shipped adapter's own language) asserting what its
    /// standard requires, and a web-platform-tests entry for a WHATWG
    /// parser: what an upstream bug report needs.
    ///
    /// --check builds and runs the Rust and C tests (not those in the
    /// adapters' languages). Exit status: 0 reproductions printed, 1 the
    /// input shows no defect with a root cause, 2 usage or I/O error (or a
    /// test that does not build).
    Reproduce(cmd::reproduce::Args),
    /// Which validator/fetcher pairs a host confusion defeats: inputs where
    /// the validator (a parser, or a string check) reads the allowed host
    /// and the fetcher another, found by substituting the hosts of every
    /// known host confusion; a matrix of the shortest working inputs.
    ///
    /// Exit status: 0 no bypass, 1 bypasses found, 2 usage or I/O error.
    Bypass(cmd::bypass::Args),
    /// Send inputs through real HTTP clients and report where each request
    /// went: the address and port it arrived at, the name the client asked
    /// the resolver for, the Host header, the request target, or the
    /// client's error.
    ///
    /// As root, the clients run in a network namespace whose only interface
    /// is lo (nothing can leave), with a hosts file and a DNS trap mapping
    /// names to trap addresses, and resolve and connect on their own (mode
    /// namespace). Otherwise, or with --guard, each client runs behind its
    /// in-client guard, which maps names and forces the port (mode guard;
    /// the unguarded clients are not run). Exit status: 0 every client ran,
    /// 2 a client could not run (a missing runtime: the message says what
    /// installs it) or a usage or I/O error.
    Fetch(cmd::fetch::Args),
}

fn main() -> ExitCode {
    // First: `uridiff fetch` enters its namespaces while this is the only
    // thread (the signal thread comes next).
    let sandbox = cmd::fetch::prepare();
    cmd::externals::end_with_signals();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => cmd::parse::run(&args),
        Command::Resolve(args) => cmd::resolve::run(&args),
        Command::Check(args) => cmd::check::run(&args),
        Command::Report(args) => cmd::report::run(&args, sandbox),
        Command::Corpus(args) => cmd::corpus::run(&args, &sandbox),
        Command::Oracles(args) => cmd::oracles::run(&args),
        Command::Minimize(args) => cmd::minimize::run(&args),
        Command::Targets(args) => cmd::targets::run(&args),
        Command::Reproduce(args) => cmd::reproduce::run(&args),
        Command::Bypass(args) => cmd::bypass::run(&args, sandbox),
        Command::Fetch(args) => cmd::fetch::run(&args, sandbox),
    };
    // Each command's harness ended its processes (the WHATWG reference's
    // among them) when it was finished or dropped; anything still
    // registered (a straggler, or a run cut short by a signal) ends here,
    // as on a signal.
    uridiff::oracle::external::kill_all();
    if let Some(status) = cmd::externals::signal_exit_status() {
        return ExitCode::from(status);
    }
    cmd::error::exit_code(result)
}
