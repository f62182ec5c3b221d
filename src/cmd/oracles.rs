//! `uridiff oracles`: the registry, one line per oracle this build has.

use std::io::{self, Write};

use uridiff::oracle::registry;

use super::error::{Failure, Status};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// One JSON object per oracle instead of the table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<Status, Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        for o in registry() {
            let row = serde_json::json!({
                "id": o.id,
                "standard": o.standard,
                "library": o.library,
                "reads": o.reads,
                "domain": o.domain,
            });
            writeln!(out, "{row}")?;
        }
    } else {
        let width = |f: fn(&uridiff::oracle::OracleInfo) -> usize| {
            registry().iter().map(f).max().unwrap_or(0)
        };
        let (w_id, w_lib, w_std) = (
            width(|o| o.id.as_str().len()),
            width(|o| o.library.len()),
            width(|o| o.standard.as_str().len()),
        );
        writeln!(
            out,
            "{:<w_id$}  {:<w_lib$}  {:<w_std$}  domain",
            "id", "library", "standard"
        )?;
        for o in registry() {
            writeln!(
                out,
                "{:<w_id$}  {:<w_lib$}  {:<w_std$}  {}",
                o.id.as_str(),
                o.library,
                o.standard.as_str(),
                o.domain
            )?;
        }
    }
    out.flush()?;
    Ok(Status::Clean)
}
