//! The saved corpus and its recorded expectations.
//!
//! Layout (under `corpus/`):
//!
//! - `<target>/`: libFuzzer inputs, one per file named by its SHA-1, for the
//!   targets `parse`, `differential`, `structured` (a rendered [`UriModel`])
//!   and `resolve` (a `(base, reference)` pair);
//! - `curated.txt`: commented cases, one JSON string per line, each with a
//!   `#` comment saying why it exists and where it came from;
//! - `expectations.txt`: generated; per input each oracle's verdict and
//!   components and the findings, per resolve pair its result. `cargo test`
//!   fails when anything changes; `uridiff corpus bless` (or `BLESS=1 cargo
//!   test`) rewrites it for review.
//!
//! [`UriModel`]: crate::fuzzing::UriModel

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::check::check;
use crate::components::component_name;
use crate::fuzzing::{decode_resolve_pair, render_structured};
use crate::rfc2396;

/// The fuzz targets whose corpus holds one URI reference per file.
pub const STRING_TARGETS: &[&str] = &["parse", "differential"];
/// Every fuzz target with a corpus directory.
pub const TARGETS: &[&str] = &[
    "parse",
    "resolve",
    "differential",
    "structured",
    "resolve-differential",
];
/// The curated file, relative to the corpus root.
pub const CURATED: &str = "curated.txt";
/// The expectations file, relative to the corpus root.
pub const EXPECTATIONS: &str = "expectations.txt";

/// A value longer than this is recorded by length and SHA-1.
const LONGEST_SHOWN: usize = 160;

/// Everything the saved corpus holds, decoded.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// URI references, each with the sources that hold it.
    pub inputs: BTreeMap<String, Vec<String>>,
    /// Resolve pairs, each with the sources that hold it.
    pub pairs: BTreeMap<(String, String), Vec<String>>,
    /// Files that decode to no input (not UTF-8, or too short for the
    /// structured model): replayed for crashes by the fuzz targets only.
    pub undecodable: Vec<String>,
}

/// An error in the curated file, with its line.
#[derive(Debug)]
pub struct CuratedError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses `curated.txt`: `#` comments, blank lines, and JSON string lines.
/// Every input must follow a comment (why it exists).
pub fn parse_curated(text: &str) -> Result<Vec<(usize, String)>, CuratedError> {
    let mut out = Vec::new();
    let mut commented = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            commented = false;
            continue;
        }
        if trimmed.starts_with('#') {
            commented = true;
            continue;
        }
        let input: String = serde_json::from_str(trimmed).map_err(|e| CuratedError {
            line: n + 1,
            message: format!("not a JSON string ({e}); write inputs as \"...\""),
        })?;
        if !commented {
            return Err(CuratedError {
                line: n + 1,
                message: "an input without a comment: say why it exists and where it came from"
                    .into(),
            });
        }
        out.push((n + 1, input));
    }
    Ok(out)
}

fn files_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    match fs::read_dir(dir) {
        Ok(entries) => {
            for e in entries {
                let e = e?;
                if e.file_type()?.is_file() && !e.file_name().to_string_lossy().starts_with('.') {
                    files.push(e.path());
                }
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    files.sort();
    Ok(files)
}

/// Loads the corpus under `root`.
pub fn load(root: &Path) -> io::Result<Corpus> {
    let mut corpus = Corpus::default();
    let curated_path = root.join(CURATED);
    match fs::read_to_string(&curated_path) {
        Ok(text) => {
            let entries = parse_curated(&text).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}:{}: {}", curated_path.display(), e.line, e.message),
                )
            })?;
            for (line, input) in entries {
                corpus
                    .inputs
                    .entry(input)
                    .or_default()
                    .push(format!("{CURATED}:{line}"));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: {e}", curated_path.display()),
            ));
        }
    }
    for target in TARGETS {
        for file in files_in(&root.join(target))? {
            let bytes = fs::read(&file)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
            let name = file
                .file_name()
                .map(|n| format!("{target}/{}", n.to_string_lossy()))
                .unwrap_or_default();
            match *target {
                "resolve" | "resolve-differential" => match decode_resolve_pair(&bytes) {
                    Some((b, r)) => corpus
                        .pairs
                        .entry((b.to_owned(), r.to_owned()))
                        .or_default()
                        .push(name),
                    None => corpus.undecodable.push(name),
                },
                "structured" => match render_structured(&bytes) {
                    Some(input) => corpus.inputs.entry(input).or_default().push(name),
                    None => corpus.undecodable.push(name),
                },
                _ => match String::from_utf8(bytes) {
                    Ok(input) => corpus.inputs.entry(input).or_default().push(name),
                    Err(_) => corpus.undecodable.push(name),
                },
            }
        }
    }
    Ok(corpus)
}

/// A value as the expectations file shows it: JSON-quoted, or by length and
/// SHA-1 when long.
fn shown(value: &str) -> String {
    if value.len() > LONGEST_SHOWN {
        let head: String = value.chars().take(40).collect();
        format!(
            "<{} bytes sha1:{} {}…>",
            value.len(),
            sha1_smol::Sha1::from(value).digest(),
            serde_json::to_string(&head).unwrap_or_default()
        )
    } else {
        serde_json::to_string(value).unwrap_or_default()
    }
}

/// The expectations text for a corpus: deterministic, one block per input
/// sorted by input, then one per resolve pair.
pub fn expectations(corpus: &Corpus) -> String {
    let mut out = String::from(
        "# Generated by `uridiff corpus bless` (or BLESS=1 cargo test): review the diff before\n\
         # committing. Per input: each oracle's verdict and components (- absent), then the\n\
         # findings as class/basis/oracle/fields/severity (class/basis/oracle/fields is the\n\
         # signature), then the pairs of parsers that see different hosts. Per resolve pair:\n\
         # the RFC 2396 section 5.2 result.\n",
    );
    for input in corpus.inputs.keys() {
        let _ = write!(out, "\ninput {}\n", shown(input));
        write_case(&mut out, &check(input));
    }
    for (base, reference) in corpus.pairs.keys() {
        let result = match rfc2396::resolve(base, reference) {
            Ok(r) => shown(&r),
            Err(e) => format!("error: {e}"),
        };
        let _ = write!(
            out,
            "\nresolve {} {}\n  result      {result}\n",
            shown(base),
            shown(reference)
        );
        write_case(&mut out, &crate::check::check_with_base(base, reference));
    }
    out
}

/// The defect signatures (`class/defect/oracle/fields`) the recorded
/// expectations know: the baseline a fuzz target holds a new defect against.
pub fn known_defect_signatures(expectations: &str) -> BTreeSet<String> {
    expectations
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("findings "))
        .flat_map(str::split_whitespace)
        .filter_map(|token| {
            // class/basis/oracle/fields/severity
            let (signature, _severity) = token.rsplit_once('/')?;
            let basis = signature.split('/').nth(1)?;
            (basis == "defect").then(|| signature.to_owned())
        })
        .collect()
}

/// One case's block: each oracle's verdict and components, the findings,
/// the host confusions.
fn write_case(out: &mut String, case: &crate::Case<'_>) {
    for (id, outcome) in &case.outcomes {
        let _ = write!(out, "  {:<11} {}", id.as_str(), outcome.verdict.as_str());
        for (c, value) in outcome.components.iter() {
            let v = value.map_or_else(|| "-".to_owned(), shown);
            let _ = write!(out, " {}={v}", component_name(c));
        }
        out.push('\n');
    }
    let findings: Vec<String> = case
        .findings
        .iter()
        .map(|f| format!("{}/{}", f.signature(), f.severity))
        .collect();
    let _ = writeln!(
        out,
        "  findings    {}",
        if findings.is_empty() {
            "none".to_owned()
        } else {
            findings.join(" ")
        }
    );
    if !case.host_confusions.is_empty() {
        let pairs: Vec<String> = case
            .host_confusions
            .iter()
            .map(|h| format!("{}/{}", h.oracles[0], h.oracles[1]))
            .collect();
        let _ = writeln!(out, "  hosts       {}", pairs.join(" "));
    }
}

/// A readable unified diff from the recorded expectations to the current ones.
pub fn diff_text(recorded: &str, current: &str) -> String {
    similar::TextDiff::from_lines(recorded, current)
        .unified_diff()
        .context_radius(3)
        .header("recorded (corpus/expectations.txt)", "current")
        .to_string()
}

/// The SHA-1 file name libFuzzer gives an input.
pub fn file_name(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes).digest().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curated_inputs_need_a_comment_and_json_quoting() {
        let ok = parse_curated("# why\n\"a\"\n\"b\"\n\n# other\n\" x\\t\"\n").unwrap();
        assert_eq!(
            ok,
            vec![(2, "a".into()), (3, "b".into()), (6, " x\t".into())]
        );
        assert_eq!(parse_curated("\"a\"\n").unwrap_err().line, 1);
        assert_eq!(parse_curated("# c\nhttp://x\n").unwrap_err().line, 2);
    }

    #[test]
    fn known_defect_signatures_are_the_recorded_defect_findings_without_severity() {
        let text = "input \"x\"\n  findings    dropped-input/defect/http/authority,host,port/high \
                    ip-literal/spec/url/verdict/medium peer-disagreement/defect/url/host/high\n";
        let known = known_defect_signatures(text);
        assert_eq!(
            known.into_iter().collect::<Vec<_>>(),
            [
                "dropped-input/defect/http/authority,host,port",
                "peer-disagreement/defect/url/host"
            ]
        );
    }

    #[test]
    fn long_values_are_shown_by_length_and_hash() {
        let long = "a".repeat(200);
        let s = shown(&long);
        assert!(s.starts_with("<200 bytes sha1:"), "{s}");
        assert_eq!(shown("x\"y"), "\"x\\\"y\"");
    }
}
