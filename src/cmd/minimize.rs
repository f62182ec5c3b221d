//! `uridiff minimize`: delta debugging down to a shorter input with the same
//! set of finding signatures.

use std::io::Write;
use std::path::PathBuf;

use super::error::{Failure, Status};
use super::io::{Output, read_file, stdout};
use super::text::visible;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Print `{"input", "minimized", "signatures"}` instead of the input.
    #[arg(long)]
    json: bool,
    /// Read the input from this file, byte for byte (NULs and a trailing
    /// newline included).
    #[arg(long, value_name = "PATH", conflicts_with = "input")]
    file: Option<PathBuf>,
    /// Minimize the reference while it keeps the same signatures resolved
    /// against BASE.
    #[arg(long, value_name = "BASE")]
    base: Option<String>,
    /// With --base: shrink the base too (after the reference), and print it.
    #[arg(long, requires = "base")]
    shrink_base: bool,
    /// Also write the minimized input to this file, byte for byte (no
    /// newline added): what scripts save.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Stop searching after this many seconds and print the shortest input
    /// found by then (it keeps the signatures; a note on standard error,
    /// and `"complete": false` in JSON, say it may not be the shortest).
    #[arg(long, value_name = "SECONDS", default_value_t = uridiff::minimize::DEFAULT_TIME_LIMIT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    time_limit: u64,
    /// The input (put it after `--` when it starts with '-').
    #[arg(required_unless_present = "file")]
    input: Option<String>,
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    // Every output is checked before the work: a run is not lost to an
    // --out that cannot be written, or that is the input file.
    let inputs: Vec<PathBuf> = args.file.iter().cloned().collect();
    let output = args
        .out
        .as_deref()
        .map(|path| Output::prepare(path, &inputs))
        .transpose()?;
    let input = match (&args.file, &args.input) {
        (Some(path), _) => read_file(path)?
            .map_err(|why| Failure::Usage(format!("the input file {}: {why}", path.display())))?,
        (None, Some(input)) => input.clone(),
        // clap requires one of the two.
        (None, None) => return Err(Failure::Usage("give an INPUT or --file PATH".to_owned())),
    };
    let limit = std::time::Duration::from_secs(args.time_limit);
    // One minimiser for the run: its WHATWG reference process serves every
    // candidate and the final signatures, and ends with it.
    let mut minimizer = uridiff::minimize::Minimizer::new();
    let (minimized, minimized_base, complete) = match args.base.as_deref() {
        Some(base) if args.shrink_base => {
            let (input, base) = minimizer.minimize_pair_within(&input, base, limit);
            let complete = input.complete && base.complete;
            (input.text, Some(base.text), complete)
        }
        base => {
            let found = minimizer.minimize_within(&input, base, limit);
            (found.text, base.map(str::to_owned), found.complete)
        }
    };
    if !complete {
        super::error::diagnostic(format_args!(
            "stopped after {} s (--time-limit) with the shortest input found by then: it shows the same signatures, a shorter one may exist",
            args.time_limit
        ));
    }
    let base = minimized_base.as_deref();
    let signatures = minimizer.signatures_of(&minimized, base);
    // The result is printed first, so that it survives a failed write.
    let mut out = stdout();
    if args.json {
        let mut value = serde_json::json!({
            "input": input,
            "minimized": minimized,
            "signatures": signatures,
            "complete": complete,
        });
        if args.shrink_base
            && let (Some(object), Some(base)) = (value.as_object_mut(), base)
        {
            object.insert("minimized_base".to_owned(), base.into());
        }
        writeln!(out, "{value}")?;
    } else {
        writeln!(out, "{}", visible(&minimized))?;
        if args.shrink_base
            && let Some(base) = base
        {
            writeln!(out, "  base: {}", visible(base))?;
        }
        for s in &signatures {
            writeln!(out, "  {s}")?;
        }
    }
    out.flush()?;
    if let Some(output) = output {
        output.write(|w| w.write_all(minimized.as_bytes()))?;
    }
    Ok(Status::Clean)
}
