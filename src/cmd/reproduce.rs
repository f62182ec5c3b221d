//! `uridiff reproduce`: for each root cause of an input's defects, a test
//! in the parser's own API for an upstream bug report.

use std::io::Write;
use std::path::PathBuf;

use uridiff::reproduce::literal::json_shown;
use uridiff::reproduce::{Reproduction, check, check_target_dir};
use uridiff::{Harness, Query};

use super::error::{Failure, Status, diagnostic};
use super::io::{read_file, stdout};
use super::text::visible;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per root cause per line: {"root_cause", "parser",
    /// "version", "status", "upstream", "spec", "tests": [{"language",
    /// "code"}], "wpt"}.
    #[arg(long)]
    json: bool,
    /// Build and run each Rust test against the pinned crate, and each C
    /// test against the pinned curl-sys's vendored libcurl (cargo,
    /// offline, in a temporary project; the build is cached under the
    /// uridiff cache root's reproduce-target) and say whether it still
    /// fails: `still_fails` in JSON. JavaScript (Ada) tests are not run
    /// (Node's URL is an Ada other than the pinned one) and get no
    /// `still_fails`.
    #[arg(long)]
    check: bool,
    /// Resolve INPUT as a reference against BASE.
    #[arg(long, value_name = "BASE")]
    base: Option<String>,
    /// Read the input from this file, byte for byte (NULs and a trailing
    /// newline included).
    #[arg(long, value_name = "PATH", conflicts_with = "input")]
    file: Option<PathBuf>,
    /// External oracles (`--oracle NAME`, `--oracle all`, `--oracle-cmd`),
    /// as `check` takes them: a shipped adapter's defects get a test in its
    /// own language. `--oracle-timeout` is also the WHATWG reference's.
    #[command(flatten)]
    externals: super::externals::ExternalArgs,
    /// The input (put it after `--` when it starts with '-').
    #[arg(required_unless_present = "file")]
    input: Option<String>,
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    let input = match (&args.file, &args.input) {
        (Some(path), _) => read_file(path)?
            .map_err(|why| Failure::Usage(format!("the input file {}: {why}", path.display())))?,
        (None, Some(input)) => input.clone(),
        // clap requires one of the two.
        (None, None) => return Err(Failure::Usage("give an INPUT or --file PATH".to_owned())),
    };
    let externals = super::externals::start_if_asked(&args.externals).map_err(Failure::Usage)?;
    let mut builder = Harness::builder().whatwg_reference(args.externals.timeout());
    if let Some(externals) = externals {
        builder = builder.externals(Box::new(externals));
    }
    let mut harness = builder.build();
    let query = match args.base.as_deref() {
        Some(base) => Query::with_base(base, &input),
        None => Query::new(&input),
    };
    let case = harness.check_query(query);
    // Without its reference a WHATWG parser's test has no expected value:
    // said, as check says it, but not fatal (other parsers' tests stand).
    for (id, outcome) in case.outcomes.iter().filter(|(id, _)| id.is_reference()) {
        if outcome.is_missing() {
            diagnostic(format!(
                "reference {id} missing: {}",
                outcome.message.as_deref().unwrap_or("no answer")
            ));
        }
    }
    let reproductions = uridiff::reproduce::reproduce(&case);
    let mut status = if reproductions.is_empty() {
        Status::Found
    } else {
        Status::Clean
    };
    let target_dir = if args.check {
        Some(check_target_dir().map_err(|e| Failure::Usage(format!("--check: {e}")))?)
    } else {
        None
    };
    let mut out = stdout();
    for r in &reproductions {
        // Per test: Some(still fails) when checked.
        let mut checked: Vec<Option<bool>> = Vec::new();
        for test in &r.tests {
            checked.push(match &target_dir {
                Some(dir) if matches!(test.language, "rust" | "c") => match check(test, dir) {
                    Ok(still_fails) => Some(still_fails),
                    Err(e) => {
                        diagnostic(format!("{}: {e}", r.root_cause));
                        status = Status::Error;
                        None
                    }
                },
                _ => None,
            });
        }
        if args.json {
            writeln!(out, "{}", json(r, &checked)?)?;
        } else {
            write_text(&mut out, r, &checked)?;
        }
    }
    if reproductions.is_empty() && !args.json {
        writeln!(
            out,
            "no defect with a root cause in \"{}\"",
            visible(&input)
        )?;
    }
    out.flush()?;
    for error in harness.finish() {
        diagnostic(error);
        status = Status::Error;
    }
    Ok(status)
}

/// The reproduction's JSON, with `still_fails` on each checked test.
fn json(r: &Reproduction, checked: &[Option<bool>]) -> Result<serde_json::Value, Failure> {
    let mut value = serde_json::to_value(r)?;
    if let Some(tests) = value.get_mut("tests").and_then(|t| t.as_array_mut()) {
        for (test, still_fails) in tests.iter_mut().zip(checked) {
            if let (Some(object), Some(still_fails)) = (test.as_object_mut(), still_fails) {
                object.insert("still_fails".to_owned(), (*still_fails).into());
            }
        }
    }
    Ok(value)
}

fn write_text(
    out: &mut impl Write,
    r: &Reproduction,
    checked: &[Option<bool>],
) -> Result<(), Failure> {
    writeln!(out, "root cause {} ({})", r.root_cause, r.status)?;
    writeln!(out, "  parser:   {} ({})", r.parser, r.version)?;
    writeln!(
        out,
        "  upstream: {}",
        r.upstream.as_deref().unwrap_or("none")
    )?;
    writeln!(out, "  spec:     {}", r.spec)?;
    if r.tests.is_empty() {
        writeln!(
            out,
            "  no test: the standard's expected outcome is unknown here"
        )?;
    }
    for (test, still_fails) in r.tests.iter().zip(checked) {
        let verdict = match still_fails {
            Some(true) => " (checked: still fails)",
            Some(false) => " (checked: passes, the defect is gone)",
            None => "",
        };
        writeln!(out, "  test, {}{verdict}:", test.language)?;
        for line in test.code.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    if let Some(wpt) = &r.wpt {
        writeln!(out, "  web-platform-tests urltestdata.json entry:")?;
        // The same JSON with hidden characters as `\u` escapes: a person
        // reads this line (`--json` keeps the value as it is).
        writeln!(out, "    {}", json_shown(wpt))?;
    }
    writeln!(out)?;
    Ok(())
}
