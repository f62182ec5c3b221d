//! `uridiff resolve BASE REFERENCE`: RFC 2396 section 5.2.

use std::io::Write;

use uridiff::rfc2396;

use super::error::{Failure, Status, diagnostic};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The base URI: an absolute RFC 2396 URI.
    base: String,
    /// The reference to resolve against it.
    reference: String,
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    match rfc2396::resolve(&args.base, &args.reference) {
        Ok(resolved) => {
            let mut out = super::io::stdout();
            writeln!(out, "{resolved}")?;
            out.flush()?;
            Ok(Status::Clean)
        }
        // An invalid base or reference answers what was asked, as an
        // invalid input does for `parse`: exit 1, not a usage error. The
        // reason goes to standard error, so that standard output holds
        // results only; `diagnostic` shows the inputs' hidden characters
        // escaped.
        Err(e) => {
            diagnostic(format_args!(
                "cannot resolve \"{}\" against \"{}\": {e}",
                args.reference, args.base
            ));
            Ok(Status::Found)
        }
    }
}
