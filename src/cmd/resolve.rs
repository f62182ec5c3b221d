//! `uridiff resolve BASE REFERENCE`: RFC 2396 section 5.2.

use std::io::{self, Write};

use uridiff::rfc2396;

use crate::Status;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The base URI: an absolute RFC 2396 URI.
    base: String,
    /// The reference to resolve against it.
    reference: String,
}

pub fn run(args: &Args) -> io::Result<Status> {
    match rfc2396::resolve(&args.base, &args.reference) {
        Ok(resolved) => {
            let mut out = io::stdout().lock();
            writeln!(out, "{resolved}")?;
            out.flush()?;
            Ok(Status::Clean)
        }
        Err(e) => {
            eprintln!(
                "uridiff: cannot resolve {:?} against {:?}: {e}",
                args.reference, args.base
            );
            Ok(Status::Error)
        }
    }
}
