//! Reading corpus files into checkable items: one input per file in any fuzz
//! target's format (a reference, a `resolve` pair, a `structured` model,
//! libcurl's text), or one input (or `BASE<TAB>REFERENCE` pair) per line.
//! `uridiff report` and the saved corpus read through here.

use std::fs;
use std::io::{self, BufReader};
use std::path::PathBuf;

use crate::fuzzing::{CorpusFormat, decode_resolve_pair, render_structured};
use crate::harness::Harness;
use crate::input::{Lines, MAX_INPUT_BYTES, read_limited};
use crate::report::{Builder, Item};

/// What one corpus file decodes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The input (with a base: the reference).
    pub input: String,
    /// The base, for a pair.
    pub base: Option<String>,
}

/// Decodes one corpus file of a target with this format; `None` when it
/// holds no input (not UTF-8, or too short for the structured model).
pub fn decode(format: CorpusFormat, bytes: Vec<u8>) -> Option<Decoded> {
    let single = |input: String| Decoded { input, base: None };
    match format {
        CorpusFormat::Reference => String::from_utf8(bytes).ok().map(single),
        CorpusFormat::ResolvePair => decode_resolve_pair(&bytes).map(|(base, reference)| Decoded {
            input: reference.to_owned(),
            base: Some(base.to_owned()),
        }),
        CorpusFormat::Structured => render_structured(&bytes).map(single),
        CorpusFormat::BypassTemplate => String::from_utf8(bytes)
            .ok()
            .map(|text| single(crate::bypass::known::render_slots(&text))),
        // The curl_url target reads a base and a reference split at the
        // first NUL, else one URL.
        CorpusFormat::CurlText => {
            let text = String::from_utf8(bytes).ok()?;
            Some(match text.split_once('\0') {
                Some((base, reference)) => Decoded {
                    input: reference.to_owned(),
                    base: Some(base.to_owned()),
                },
                None => single(text),
            })
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::encode_resolve_pair;

    #[test]
    fn each_corpus_format_decodes_to_its_input_and_base() {
        assert_eq!(
            decode(CorpusFormat::Reference, b"http://h/".to_vec()),
            Some(Decoded {
                input: "http://h/".into(),
                base: None
            })
        );
        assert_eq!(decode(CorpusFormat::Reference, vec![0xff]), None);
        let pair = encode_resolve_pair("http://a/b", "../g").unwrap();
        assert_eq!(
            decode(CorpusFormat::ResolvePair, pair),
            Some(Decoded {
                input: "../g".into(),
                base: Some("http://a/b".into())
            })
        );
        assert_eq!(
            decode(CorpusFormat::CurlText, b"http://a/\0g".to_vec()),
            Some(Decoded {
                input: "g".into(),
                base: Some("http://a/".into())
            })
        );
        assert_eq!(
            decode(CorpusFormat::CurlText, b"http://a/".to_vec()).map(|d| d.base),
            Some(None)
        );
    }
}
