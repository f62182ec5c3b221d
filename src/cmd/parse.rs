//! `uridiff parse`: the strict RFC 2396 parser on each input.

use std::io::{self, Write};

use serde::Serialize;
use uridiff::rfc2396::{self, AuthorityKind, HostKind, ParseError, RefKind, UriRef};

use super::error::{Failure, Status, diagnostic};
use super::io::{stdin_lines, stdout};
use super::text::{column_of, component, visible};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per input per line instead of the aligned view.
    #[arg(long)]
    json: bool,
    /// URI references to parse; read one per line from standard input when none are given.
    inputs: Vec<String>,
}

/// The JSON shape of one parsed input; field order is the output order.
#[derive(Debug, Serialize)]
struct Record<'a> {
    input: &'a str,
    valid: bool,
    kind: Option<&'static str>,
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    authority_kind: Option<&'static str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    host_kind: Option<&'static str>,
    port: Option<&'a str>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
    error: Option<ErrorRecord>,
}

#[derive(Debug, Serialize)]
struct ErrorRecord {
    index: usize,
    kind: &'static str,
    message: String,
}

fn kind_name(kind: RefKind) -> Option<&'static str> {
    if kind.is_absolute() {
        Some("absolute")
    } else if kind.is_relative() {
        Some("relative")
    } else {
        None
    }
}

fn authority_kind_name(kind: AuthorityKind) -> &'static str {
    match kind {
        AuthorityKind::Server => "server",
        AuthorityKind::RegName => "reg_name",
    }
}

fn host_kind_name(kind: HostKind) -> &'static str {
    match kind {
        HostKind::Hostname => "hostname",
        HostKind::Ipv4 => "ipv4",
    }
}

fn record<'a>(input: &'a str, parsed: &Result<UriRef<'a>, ParseError>) -> Record<'a> {
    match parsed {
        Ok(r) => Record {
            input,
            valid: true,
            kind: kind_name(r.kind()),
            scheme: r.scheme(),
            authority: r.authority(),
            authority_kind: r.authority_kind().map(authority_kind_name),
            userinfo: r.userinfo(),
            host: r.host(),
            host_kind: r.host_kind().map(host_kind_name),
            port: r.port(),
            path: Some(r.path()),
            query: r.query(),
            fragment: r.fragment(),
            error: None,
        },
        Err(e) => Record {
            input,
            valid: false,
            kind: None,
            scheme: None,
            authority: None,
            authority_kind: None,
            userinfo: None,
            host: None,
            host_kind: None,
            port: None,
            path: None,
            query: None,
            fragment: None,
            error: Some(ErrorRecord {
                index: e.index(),
                kind: e.kind().id(),
                message: e.to_string(),
            }),
        },
    }
}

fn kind_detail(kind: RefKind) -> &'static str {
    match kind {
        RefKind::AbsoluteHierarchical => "absolute (hier_part)",
        RefKind::AbsoluteOpaque => "absolute (opaque_part)",
        RefKind::NetPath => "relative (net_path)",
        RefKind::AbsPath => "relative (abs_path)",
        RefKind::RelPath => "relative (rel_path)",
        RefKind::Empty => "none (empty reference)",
    }
}

fn write_view(
    out: &mut impl Write,
    input: &str,
    parsed: &Result<UriRef<'_>, ParseError>,
) -> io::Result<()> {
    writeln!(out, "\"{}\"", visible(input))?;
    match parsed {
        Ok(r) => {
            let with_kind = |value: Option<&str>, kind: Option<&str>| match kind {
                Some(k) => format!("{} ({k})", component(value)),
                None => component(value),
            };
            writeln!(out, "  valid      yes")?;
            writeln!(out, "  kind       {}", kind_detail(r.kind()))?;
            writeln!(out, "  scheme     {}", component(r.scheme()))?;
            let ak = r.authority_kind().map(authority_kind_name);
            writeln!(out, "  authority  {}", with_kind(r.authority(), ak))?;
            writeln!(out, "  userinfo   {}", component(r.userinfo()))?;
            let hk = r.host_kind().map(host_kind_name);
            writeln!(out, "  host       {}", with_kind(r.host(), hk))?;
            writeln!(out, "  port       {}", component(r.port()))?;
            writeln!(out, "  path       {}", component(Some(r.path())))?;
            writeln!(out, "  query      {}", component(r.query()))?;
            writeln!(out, "  fragment   {}", component(r.fragment()))?;
        }
        Err(e) => {
            // The caret sits under the offending character; +1 for the quote.
            writeln!(
                out,
                "{:>width$}",
                "^",
                width = column_of(input, e.index()) + 2
            )?;
            writeln!(out, "  valid      no")?;
            writeln!(out, "  error      {}", visible(&e.to_string()))?;
        }
    }
    Ok(())
}

/// A line's number and its text, or why it is no input.
type Line = (usize, Result<String, String>);

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    // Arguments, or standard input answered line by line as it arrives.
    let from_args = !args.inputs.is_empty();
    let inputs: Box<dyn Iterator<Item = io::Result<Line>>> = if from_args {
        Box::new(
            args.inputs
                .clone()
                .into_iter()
                .enumerate()
                .map(|(i, input)| Ok((i + 1, Ok(input)))),
        )
    } else {
        Box::new(stdin_lines())
    };
    let mut out = io::BufWriter::new(stdout());
    let mut status = Status::Clean;
    let mut shown = 0usize;
    for next in inputs {
        let (line, input) = next?;
        let input = match input {
            Ok(input) => input,
            Err(reason) => {
                // One record per line, always: a program reading the JSON
                // lines keeps count (the object `check --json` writes).
                if args.json {
                    let value = serde_json::json!({"line": line, "error": reason});
                    writeln!(out, "{value}")?;
                }
                out.flush()?;
                diagnostic(format_args!("standard input line {line}: {reason}"));
                status = Status::Error;
                continue;
            }
        };
        let parsed = rfc2396::parse(&input);
        if parsed.is_err() {
            status = status.max(Status::Found);
        }
        if args.json {
            serde_json::to_writer(&mut out, &record(&input, &parsed))?;
            writeln!(out)?;
        } else {
            if shown > 0 {
                writeln!(out)?;
            }
            write_view(&mut out, &input, &parsed)?;
        }
        shown += 1;
        if !from_args {
            out.flush()?;
        }
    }
    out.flush()?;
    if shown == 0 && status == Status::Clean {
        super::io::nothing_checked(0);
        return Ok(Status::Error);
    }
    Ok(status)
}
