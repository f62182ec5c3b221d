//! `uridiff targets`, and the fuzz-target argument of the commands: both
//! from `uridiff::fuzzing::FuzzTarget`, the one list of targets.

use std::io::{self, Write};
use std::sync::LazyLock;

use clap::ValueEnum;
use clap::builder::PossibleValue;
use uridiff::fuzzing::{CorpusFormat, FuzzTarget};

use super::error::{Failure, Status};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// `names`: one target name per line. `tsv`: a header line, then one
    /// line per target with TAB-separated columns `target` (the name of its
    /// fuzz binary and corpus directory), `format` (what one corpus file
    /// holds: `reference`, `resolve-pair`, `structured` or `curl-text`) and
    /// `report` (how `uridiff report` reads those files: `file`, one input
    /// per file, the default, so several such targets share a report;
    /// `target`, with `--target NAME`). Columns may be added at the end,
    /// never renamed.
    #[arg(long, value_enum, default_value_t = ListFormat::Names)]
    format: ListFormat,
}

/// What `uridiff targets` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ListFormat {
    /// One name per line.
    Names,
    /// A header, then name, corpus format and report mode per line.
    Tsv,
}

/// The TSV header; the scripts find columns by these names.
const TSV_HEADER: &str = "target\tformat\treport";

/// How `uridiff report` reads a corpus file of this format: `file` (one
/// input per file, its default, so corpora of several such targets share a
/// report), or `target` (`--target NAME` decodes the target's own format:
/// a resolve pair is `arbitrary`'s encoding, a structured file a model,
/// libcurl's text may hold a NUL between a base and a reference).
const fn report_mode(format: CorpusFormat) -> &'static str {
    match format {
        CorpusFormat::Reference => "file",
        CorpusFormat::ResolvePair
        | CorpusFormat::Structured
        | CorpusFormat::CurlText
        | CorpusFormat::BypassTemplate => "target",
    }
}

/// Prints every target in the order of `FuzzTarget::ALL`: its name alone,
/// or its TSV row. The scripts read the TSV form (scripts/lib.sh).
pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    let mut out = io::stdout().lock();
    if args.format == ListFormat::Tsv {
        writeln!(out, "{TSV_HEADER}")?;
    }
    for target in FuzzTarget::ALL {
        match args.format {
            ListFormat::Names => writeln!(out, "{target}")?,
            ListFormat::Tsv => {
                let format = target.format();
                writeln!(out, "{target}\t{format}\t{}", report_mode(format))?;
            }
        }
    }
    out.flush()?;
    Ok(Status::Clean)
}

/// A fuzz target whose corpus `corpus add` can write from command-line
/// arguments: each argument as it is, or (for targets that hold pairs)
/// each BASE REFERENCE pair encoded. Not `structured`, whose files are
/// models no string can be turned back into. A wrapper because clap's
/// trait cannot be implemented for the library's enum here, and the
/// library does not depend on clap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AddTarget(pub FuzzTarget);

static ADD_TARGETS: LazyLock<Vec<AddTarget>> = LazyLock::new(|| {
    FuzzTarget::ALL
        .iter()
        .copied()
        .filter(|t| !t.holds_models())
        .map(AddTarget)
        .collect()
});

impl ValueEnum for AddTarget {
    fn value_variants<'a>() -> &'a [Self] {
        &ADD_TARGETS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.as_str()))
    }
}
