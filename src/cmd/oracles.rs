//! `uridiff oracles`: the registry, one line per oracle this build has.

use std::io::{self, Write};

use uridiff::oracle::external::shipped_status;
use uridiff::oracle::{Standard, registry};
use uridiff::reference::WHATWG_URL;

use super::error::{Failure, Status};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per oracle instead of the table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
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
                "kind": "in-process",
                "reference": o.reference,
                "reference_for": o.reference.then_some(o.standard),
            });
            writeln!(out, "{row}")?;
        }
        for s in shipped_status() {
            let row = serde_json::json!({
                "id": s.name,
                "kind": "shipped-adapter",
                "standard": uridiff::oracle::external::shipped_standard(s.name),
                "resolves": s.resolves,
                "present": s.missing.is_none(),
                "missing": s.missing.as_ref().map(|m| m.what.clone()),
                // null too when no install command mends it (a bad cache root).
                "install": s.missing.as_ref().map(|m| m.install).filter(|i| !i.is_empty()),
                "reference": s.name == WHATWG_URL,
                "reference_for": (s.name == WHATWG_URL).then_some(Standard::Whatwg),
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
        writeln!(
            out,
            "\nreferences (asked only where the parsers disagree; they decide which one departs):"
        )?;
        let whatwg = shipped_status()
            .into_iter()
            .find(|s| s.name == WHATWG_URL)
            .and_then(|s| s.missing)
            .map_or_else(|| "ready".to_owned(), |m| format!("missing: {m}"));
        writeln!(
            out,
            "whatwg   {WHATWG_URL} (shipped adapter, the URL Standard's reference implementation): {whatwg}"
        )?;
        for o in registry().iter().filter(|o| o.reference) {
            writeln!(out, "{:<8} {} (in process)", o.standard.as_str(), o.id)?;
        }
        writeln!(
            out,
            "\nshipped adapters (--oracle NAME, or --oracle all for every one that is ready):"
        )?;
        let statuses = shipped_status();
        let w = statuses.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in statuses {
            let resolves = if s.resolves { "resolves" } else { "parses" };
            match &s.missing {
                None => writeln!(out, "{:<w$}  {resolves:<8}  ready", s.name)?,
                Some(m) => writeln!(out, "{:<w$}  {resolves:<8}  missing: {m}", s.name)?,
            }
        }
    }
    out.flush()?;
    Ok(Status::Clean)
}
