//! `uridiff oracles`: the registry, one line per oracle this build has.

use std::io::{self, Write};

use std::collections::HashMap;
use std::time::Duration;

use uridiff::oracle::external::{AdapterVersion, Externals, Spec, shipped_status};
use uridiff::oracle::{Descriptor, OracleId, Standard, registry, shipped_reference};

use super::error::{Failure, Status};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per oracle instead of the table.
    #[arg(long)]
    json: bool,
    /// Do not start the ready shipped adapters to read the versions their
    /// hello lines report (the table then says only "ready").
    #[arg(long)]
    no_versions: bool,
}

/// How long the adapters may take to start and say their hello (Java's
/// source launcher compiles its adapter, Go builds its on first use).
const HELLO_TIMEOUT: Duration = Duration::from_secs(120);

/// The version each ready shipped adapter reports: they are started
/// together, their hello lines read, and ended. One that fails to start
/// has none (its error is not this command's: `check --oracle` says it).
fn adapter_versions() -> HashMap<String, AdapterVersion> {
    let specs: Vec<Spec> = shipped_status()
        .into_iter()
        .filter(|s| s.missing.is_none())
        .map(|s| Spec::Shipped(s.name.to_owned()))
        .collect();
    let Ok(externals) = Externals::start(&specs, HELLO_TIMEOUT) else {
        return HashMap::new();
    };
    externals
        .versions()
        .into_iter()
        .filter_map(|(id, v)| v.map(|v| (id.as_str().to_owned(), v)))
        .collect()
}

/// A version as the table shows it: the parser, its runtime, the Debian
/// packages it comes from.
fn version_text(v: &AdapterVersion) -> String {
    let mut text = v.parser.clone();
    if let Some(runtime) = &v.runtime {
        text.push_str("; ");
        text.push_str(runtime);
    }
    if let Some(package) = &v.package {
        text.push_str(" (Debian ");
        text.push_str(package);
        text.push(')');
    }
    text
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    let versions = if args.no_versions {
        HashMap::new()
    } else {
        adapter_versions()
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        write_json(&mut out, &versions)?;
    } else {
        write_table(&mut out, &versions, args.no_versions)?;
    }
    out.flush()?;
    Ok(Status::Clean)
}

/// One JSON object per oracle: the registry's, then the shipped adapters'.
fn write_json(out: &mut impl Write, versions: &HashMap<String, AdapterVersion>) -> io::Result<()> {
    for o in registry() {
        let d = o.id.descriptor();
        let row = serde_json::json!({
            "id": o.id,
            "standard": d.standard,
            "library": o.library,
            "reads": o.reads,
            "domain": o.domain,
            "kind": "in-process",
            "reference": d.is_reference(),
            "reference_for": d.reference_for,
        });
        writeln!(out, "{row}")?;
    }
    for s in shipped_status() {
        let d = shipped_descriptor(s.name);
        let row = serde_json::json!({
            "id": s.name,
            "kind": "shipped-adapter",
            "standard": d.and_then(|d| d.standard),
            "resolves": s.resolves,
            "present": s.missing.is_none(),
            "missing": s.missing.as_ref().map(|m| m.what.clone()),
            // null too when no install command mends it (a bad cache root).
            "install": s.missing.as_ref().map(|m| m.install).filter(|i| !i.is_empty()),
            "reference": d.is_some_and(|d| d.is_reference()),
            "reference_for": d.and_then(|d| d.reference_for),
            "version": versions.get(s.name).map(|v| serde_json::json!({
                "parser": v.parser,
                "runtime": v.runtime,
                "package": v.package,
            })),
        });
        writeln!(out, "{row}")?;
    }
    Ok(())
}

/// The table: the registry, the references, the shipped adapters and
/// whether each is ready.
fn write_table(
    out: &mut impl Write,
    versions: &HashMap<String, AdapterVersion>,
    no_versions: bool,
) -> io::Result<()> {
    let width =
        |f: fn(&uridiff::oracle::OracleInfo) -> usize| registry().iter().map(f).max().unwrap_or(0);
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
    if let Some(whatwg_url) = shipped_reference(Standard::Whatwg) {
        let whatwg = shipped_status()
            .into_iter()
            .find(|s| s.name == whatwg_url)
            .and_then(|s| s.missing)
            .map_or_else(|| "ready".to_owned(), |m| format!("missing: {m}"));
        writeln!(
            out,
            "whatwg   {whatwg_url} (shipped adapter, the URL Standard's reference implementation): {whatwg}"
        )?;
    }
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
            None => match versions.get(s.name) {
                Some(v) => writeln!(
                    out,
                    "{:<w$}  {resolves:<8}  ready: {}",
                    s.name,
                    version_text(v)
                )?,
                None if no_versions => writeln!(out, "{:<w$}  {resolves:<8}  ready", s.name)?,
                None => writeln!(
                    out,
                    "{:<w$}  {resolves:<8}  ready (no version: it did not start)",
                    s.name
                )?,
            },
            Some(m) => writeln!(out, "{:<w$}  {resolves:<8}  missing: {m}", s.name)?,
        }
    }
    Ok(())
}

/// The descriptor of the shipped adapter `name`.
fn shipped_descriptor(name: &str) -> Option<Descriptor> {
    OracleId::from_id(name).map(OracleId::descriptor)
}
