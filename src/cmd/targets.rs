//! `uridiff targets`, and the fuzz-target argument of the commands: both
//! from `uridiff::fuzzing::FuzzTarget`, the one list of targets.

use std::io::{self, Write};
use std::sync::LazyLock;

use clap::ValueEnum;
use clap::builder::PossibleValue;
use uridiff::fuzzing::FuzzTarget;

use super::error::{Failure, Status};

#[derive(Debug, clap::Args)]
pub struct Args {}

/// Prints every target's name, one per line, in the order of
/// scripts/lib.sh's `FUZZ_TARGETS` (a test holds the two to each other).
pub fn run(_args: &Args) -> Result<Status, Failure> {
    let mut out = io::stdout().lock();
    for target in FuzzTarget::ALL {
        writeln!(out, "{target}")?;
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
pub struct AddTarget(pub FuzzTarget);

static ADD_TARGETS: LazyLock<Vec<AddTarget>> = LazyLock::new(|| {
    FuzzTarget::ALL
        .into_iter()
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
