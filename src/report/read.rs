//! The report driver: reads corpus files (whole, in a fuzz target's
//! format, or line by line) into items and feeds a [`Builder`] in chunks.
//! Decoding a file is the corpus's (`corpus::decode`); running the report
//! pipeline over what is read is here, beside the pipeline, so that the
//! corpus does not import the report.

use std::fs;
use std::io::{self, BufReader};
use std::path::PathBuf;

use super::{Builder, Item};
use crate::corpus::decode;
use crate::fuzzing::CorpusFormat;
use crate::harness::Harness;
use crate::input::{Lines, MAX_INPUT_BYTES, read_limited};

/// How many inputs are read before they are checked together (and sent to
/// the external oracles as batches).
const CHUNK: usize = 4096;

/// How to read the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One input per file, in a fuzz target's corpus format.
    PerFile(CorpusFormat),
    /// One input per line.
    Lines,
    /// One `BASE<TAB>REFERENCE` pair per line (split at the first TAB).
    Pairs,
}

/// What reading found wrong, beside the inputs themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Named paths (or lines) that could not be read or used.
    pub failed: usize,
    /// Inputs over the size limit.
    pub too_large: usize,
}

/// Reads every file (whole, or line by line) and feeds `builder` in chunks,
/// so that memory holds one chunk of inputs, not the corpus. `base` is the
/// base of every input that has none of its own; `warn` hears each file that
/// could not be read (it is also listed as not checked).
pub fn read_into(
    files: &[PathBuf],
    layout: &Layout,
    base: Option<&str>,
    builder: &mut Builder<'_>,
    harness: &mut Harness<'_>,
    progress: &mut dyn FnMut(),
    warn: &mut dyn FnMut(String),
) -> io::Result<Reading> {
    let mut reading = Reading::default();
    let mut chunk: Vec<Item> = Vec::new();
    let mut flush = |chunk: &mut Vec<Item>, builder: &mut Builder<'_>| -> io::Result<()> {
        builder.add(std::mem::take(chunk), harness, progress)
    };
    let base = base.map(str::to_owned);
    for file in files {
        let name = file.display().to_string();
        let reader = match fs::File::open(file) {
            Ok(f) => BufReader::new(f),
            Err(e) => {
                warn(format!("cannot read {name}: {e}"));
                builder.not_checked(name, format!("unreadable: {e}"));
                reading.failed += 1;
                continue;
            }
        };
        match layout {
            Layout::PerFile(format) => {
                let bytes = match read_limited(reader, MAX_INPUT_BYTES) {
                    Ok(Ok(bytes)) => bytes,
                    Ok(Err(too_long)) => {
                        builder.not_checked(name, too_long.to_string());
                        reading.too_large += 1;
                        continue;
                    }
                    Err(e) => {
                        warn(format!("cannot read {name}: {e}"));
                        builder.not_checked(name, format!("unreadable: {e}"));
                        reading.failed += 1;
                        continue;
                    }
                };
                match per_file_item(*format, bytes, &name, base.as_ref()) {
                    Ok(item) => chunk.push(item),
                    Err(why) => builder.not_checked(name, why),
                }
            }
            Layout::Lines | Layout::Pairs => {
                // Bounded: an over-long line streams past without being held.
                for line in Lines::new(reader, MAX_INPUT_BYTES) {
                    let line = match line {
                        Ok(line) => line,
                        Err(e) => {
                            warn(format!("cannot read {name}: {e}"));
                            builder.not_checked(name.clone(), format!("unreadable: {e}"));
                            reading.failed += 1;
                            break;
                        }
                    };
                    let source = format!("{name}:{}", line.number);
                    let line = match line.bytes {
                        Ok(bytes) => bytes,
                        Err(too_long) => {
                            builder.not_checked(source, too_long.to_string());
                            reading.too_large += 1;
                            continue;
                        }
                    };
                    if *layout == Layout::Pairs {
                        match pair_item(&line, source) {
                            Ok(item) => chunk.push(item),
                            Err((source, why)) => {
                                builder.not_checked(source, why);
                                reading.failed += 1;
                            }
                        }
                    } else {
                        chunk.push(Item {
                            source,
                            bytes: line,
                            base: base.clone(),
                        });
                    }
                    if chunk.len() >= CHUNK {
                        flush(&mut chunk, builder)?;
                    }
                }
            }
        }
        if chunk.len() >= CHUNK {
            flush(&mut chunk, builder)?;
        }
    }
    flush(&mut chunk, builder)?;
    Ok(reading)
}

/// One file of a fuzz target's corpus as an item, or why it holds none.
fn per_file_item(
    format: CorpusFormat,
    bytes: Vec<u8>,
    name: &str,
    base: Option<&String>,
) -> Result<Item, String> {
    // A reference file stays bytes: one that is not UTF-8 is counted as
    // such by the report, as a libFuzzer corpus holds raw bytes. So does a
    // bypass template that is not UTF-8 (one that is has its slots filled).
    let raw_template =
        format == CorpusFormat::BypassTemplate && std::str::from_utf8(&bytes).is_err();
    if format == CorpusFormat::Reference || raw_template {
        return Ok(Item {
            source: name.to_owned(),
            bytes,
            base: base.cloned(),
        });
    }
    let decoded = decode(format, bytes).ok_or_else(|| match format {
        CorpusFormat::Structured => "does not decode as a structured input".to_owned(),
        CorpusFormat::ResolvePair => "does not decode as a resolve pair".to_owned(),
        _ => "not UTF-8".to_owned(),
    })?;
    Ok(Item {
        source: name.to_owned(),
        bytes: decoded.input.into_bytes(),
        base: decoded.base.or_else(|| base.cloned()),
    })
}

/// A `BASE<TAB>REFERENCE` line as an item, or the source and why not.
fn pair_item(line: &[u8], source: String) -> Result<Item, (String, String)> {
    let Some(tab) = line.iter().position(|&b| b == b'\t') else {
        return Err((source, "no TAB between base and reference".into()));
    };
    let base = line.get(..tab).map(|b| String::from_utf8(b.to_vec()));
    let reference = line.get(tab + 1..).unwrap_or_default().to_vec();
    match base {
        Some(Ok(base)) => Ok(Item {
            source,
            bytes: reference,
            base: Some(base),
        }),
        _ => Err((source, "the base is not UTF-8".into())),
    }
}
