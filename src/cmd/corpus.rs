//! `uridiff corpus`: the saved corpus's recorded expectations.

use std::io;
use std::path::PathBuf;

use uridiff::corpus::{EXPECTATIONS, diff_text, expectations, load};

use crate::Status;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Rewrite corpus/expectations.txt from the current outcomes (review the diff!).
    Bless(Root),
    /// Compare the current outcomes with corpus/expectations.txt; exit 1 and
    /// show a diff when they differ.
    Check(Root),
    /// Add inputs to a target's corpus directory, named by SHA-1 as libFuzzer
    /// names them (for `resolve`, give BASE REFERENCE pairs).
    Add(Add),
}

#[derive(Debug, clap::Args)]
struct Add {
    #[command(flatten)]
    root: Root,
    /// The fuzz target whose corpus gets the inputs.
    #[arg(long, default_value = "differential", value_parser = ["parse", "differential", "resolve"])]
    target: String,
    /// Inputs (for resolve: base, reference, base, reference, ...).
    #[arg(required = true)]
    inputs: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct Root {
    /// The saved corpus directory.
    #[arg(long, default_value = "corpus")]
    root: PathBuf,
}

pub fn run(args: &Args) -> io::Result<Status> {
    match &args.action {
        Action::Bless(r) => {
            let corpus = load(&r.root)?;
            let text = expectations(&corpus);
            let path = r.root.join(EXPECTATIONS);
            let old = std::fs::read_to_string(&path).unwrap_or_default();
            super::report::write_atomically(&path, |w| io::Write::write_all(w, text.as_bytes()))?;
            let changed = similar::TextDiff::from_lines(&old, &text)
                .ops()
                .iter()
                .filter(|op| op.tag() != similar::DiffTag::Equal)
                .count();
            println!(
                "wrote {}: {} inputs, {} resolve pairs, {} undecodable files; {changed} changed hunks",
                path.display(),
                corpus.inputs.len(),
                corpus.pairs.len(),
                corpus.undecodable.len()
            );
            Ok(Status::Clean)
        }
        Action::Add(a) => {
            let dir = a.root.root.join(&a.target);
            std::fs::create_dir_all(&dir)?;
            let files: Vec<Vec<u8>> = if a.target == "resolve" {
                if a.inputs.len() % 2 != 0 {
                    eprintln!("uridiff: resolve inputs come in BASE REFERENCE pairs");
                    return Ok(Status::Error);
                }
                let mut files = Vec::new();
                for pair in a.inputs.chunks(2) {
                    let [base, reference] = pair else { continue };
                    match uridiff::fuzzing::encode_resolve_pair(base, reference) {
                        Some(bytes) => files.push(bytes),
                        None => {
                            eprintln!(
                                "uridiff: cannot encode the pair {base:?} {reference:?} (too long)"
                            );
                            return Ok(Status::Error);
                        }
                    }
                }
                files
            } else {
                a.inputs.iter().map(|i| i.as_bytes().to_vec()).collect()
            };
            for bytes in files {
                let path = dir.join(uridiff::corpus::file_name(&bytes));
                std::fs::write(&path, &bytes)?;
                println!("{}", path.display());
            }
            Ok(Status::Clean)
        }
        Action::Check(r) => {
            let corpus = load(&r.root)?;
            let text = expectations(&corpus);
            let path = r.root.join(EXPECTATIONS);
            let recorded = std::fs::read_to_string(&path).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
            })?;
            if recorded == text {
                println!(
                    "{}: all {} inputs and {} resolve pairs as recorded",
                    path.display(),
                    corpus.inputs.len(),
                    corpus.pairs.len()
                );
                Ok(Status::Clean)
            } else {
                print!("{}", diff_text(&recorded, &text));
                eprintln!(
                    "uridiff: outcomes differ from {}; run `uridiff corpus bless` after review",
                    path.display()
                );
                Ok(Status::Found)
            }
        }
    }
}
