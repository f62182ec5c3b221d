//! The saved corpus and its recorded expectations.
//!
//! Layout (under `corpus/`):
//!
//! - `<target>/`: libFuzzer inputs, one per file named by its SHA-1, for
//!   every fuzz target whose row in [`FuzzTarget`] says the saved corpus
//!   replays it (each decoded in its target's format: a reference, a
//!   `(base, reference)` pair, a rendered [`UriModel`]; see [`read`]);
//! - `curated.txt`: commented cases, one JSON string per line, each with a
//!   `#` comment saying why it exists and where it came from;
//! - `signatures.txt`: generated; every finding signature the corpus shows
//!   (`class/basis/oracle/fields`), each with one minimal input that shows
//!   it (delta-debugged when first seen, kept while it still shows it);
//! - `expectations.txt`: generated; the **regression set** (the curated
//!   inputs and the signature inputs) with each oracle's verdict and
//!   components, the findings and the host confusions.
//!
//! The coverage corpus (`<target>/`, grown by libFuzzer, thousands of
//! inputs) is guarded by invariants only: no crash, nothing unexplained, no
//! signature `signatures.txt` does not know. So after a campaign `cargo
//! test` stays green, or fails with a line per new signature; `uridiff
//! corpus bless` (or `BLESS=1 cargo test --test corpus`) then adds one
//! minimal input per new signature, and the diff to review is a few lines
//! per signature.
//!
//! [`UriModel`]: crate::fuzzing::UriModel

pub mod read;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use self::read::{Decoded, decode};

use crate::case::Case;
use crate::components::component_name;
use crate::fuzzing::FuzzTarget;
use crate::harness::{Harness, Query};
use crate::rfc2396;
use crate::signature::Signature;

/// The fuzz targets whose corpus directories the saved corpus replays
/// through `check` ([`FuzzTarget::in_saved_corpus`]).
pub fn targets() -> impl Iterator<Item = FuzzTarget> {
    FuzzTarget::ALL
        .iter()
        .copied()
        .filter(|t| t.in_saved_corpus())
}
/// The curated file, relative to the corpus root.
pub(crate) const CURATED: &str = "curated.txt";
/// The signature set, relative to the corpus root.
pub const SIGNATURES: &str = "signatures.txt";
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
    for target in targets() {
        for file in files_in(&root.join(target.as_str()))? {
            let bytes = fs::read(&file)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
            let name = file
                .file_name()
                .map(|n| format!("{target}/{}", n.to_string_lossy()))
                .unwrap_or_default();
            match decode(target.format(), bytes) {
                Some(Decoded {
                    input,
                    base: Some(base),
                }) => corpus.pairs.entry((base, input)).or_default().push(name),
                Some(Decoded { input, base: None }) => {
                    corpus.inputs.entry(input).or_default().push(name);
                }
                None => corpus.undecodable.push(name),
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

/// One input that shows a signature: a reference, and its base when the
/// signature comes from resolving.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// The input (with a base: the reference).
    pub input: String,
    /// The base, for a resolution signature.
    pub base: Option<String>,
}

impl Entry {
    /// The entry through `harness` (the saved corpus's: the registry's
    /// oracles and the WHATWG reference, as [`audit`] builds it).
    pub fn check<'e, 'b: 'e>(&'e self, harness: &mut Harness<'b>) -> Case<'e> {
        harness.check_query(Query {
            input: &self.input,
            base: self.base.as_deref(),
        })
    }

    /// The signatures this entry shows today, checked by `harness`.
    pub fn signatures(&self, harness: &mut Harness<'_>) -> BTreeSet<Signature> {
        crate::minimize::signatures_with(harness, &self.input, self.base.as_deref())
    }

    fn len(&self) -> usize {
        self.input.len() + self.base.as_ref().map_or(0, String::len)
    }
}

/// Every known signature with the one input the regression set keeps for it.
pub(crate) type SignatureSet = BTreeMap<Signature, Entry>;

/// Parses `signatures.txt`: `#` comments and lines
/// `SIGNATURE<TAB>"input"` or `SIGNATURE<TAB>"input"<TAB>"base"` (JSON
/// strings).
pub(crate) fn parse_signatures(text: &str) -> Result<SignatureSet, CuratedError> {
    let mut set = SignatureSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| CuratedError {
            line: n + 1,
            message,
        };
        let mut fields = line.split('\t');
        let (Some(signature), Some(input)) = (fields.next(), fields.next()) else {
            return Err(bad("write SIGNATURE<TAB>\"input\"[<TAB>\"base\"]".into()));
        };
        let signature: Signature = signature.parse().map_err(|e| bad(format!("{e}")))?;
        let input: String = serde_json::from_str(input)
            .map_err(|e| bad(format!("input: not a JSON string ({e})")))?;
        let base = match fields.next() {
            Some(b) => Some(
                serde_json::from_str(b)
                    .map_err(|e| bad(format!("base: not a JSON string ({e})")))?,
            ),
            None => None,
        };
        set.insert(signature, Entry { input, base });
    }
    Ok(set)
}

/// `signatures.txt` for a set: sorted, one line per signature.
pub fn render_signatures(set: &SignatureSet) -> String {
    let mut out = String::from(
        "# Generated by `uridiff corpus bless`: every finding signature the saved corpus shows\n\
         # (class/basis/oracle/fields), with one minimal input that shows it (and its base, for a\n\
         # resolution). The fuzz targets read it as the baseline of known defects; `cargo test`\n\
         # fails on a signature not listed here. Review the diff before committing.\n",
    );
    for (signature, entry) in set {
        let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let _ = write!(out, "{signature}\t{}", json(&entry.input));
        if let Some(base) = &entry.base {
            let _ = write!(out, "\t{}", json(base));
        }
        out.push('\n');
    }
    out
}

/// Where the saved corpus stands against a signature set.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    /// Signatures the corpus shows that the set lacks, each with its
    /// shortest input and that input's source.
    pub new: BTreeMap<Signature, (Entry, String)>,
    /// Signatures whose recorded input no longer shows them.
    pub stale: Vec<Signature>,
    /// Inputs with an `unexplained` finding, each with its source.
    pub unexplained: Vec<(Entry, String)>,
}

impl Audit {
    /// Nothing new, nothing stale, nothing unexplained?
    pub fn is_clean(&self) -> bool {
        self.new.is_empty() && self.stale.is_empty() && self.unexplained.is_empty()
    }

    /// A line per problem, for a test failure or the CLI.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (signature, (entry, source)) in &self.new {
            let _ = writeln!(
                out,
                "new signature {signature}: {} ({source})",
                shown_entry(entry)
            );
        }
        for signature in &self.stale {
            let _ = writeln!(
                out,
                "stale signature {signature}: its input no longer shows it"
            );
        }
        for (entry, source) in &self.unexplained {
            let _ = writeln!(out, "unexplained: {} ({source})", shown_entry(entry));
        }
        out
    }
}

fn shown_entry(entry: &Entry) -> String {
    match &entry.base {
        Some(base) => format!("{} against {}", shown(&entry.input), shown(base)),
        None => shown(&entry.input),
    }
}

/// Every entry of the corpus (curated and coverage inputs, resolve pairs)
/// with its first source.
fn entries(corpus: &Corpus) -> Vec<(Entry, String)> {
    let inputs = corpus.inputs.iter().map(|(input, sources)| {
        (
            Entry {
                input: input.clone(),
                base: None,
            },
            sources.first().cloned().unwrap_or_default(),
        )
    });
    let pairs = corpus.pairs.iter().map(|((base, reference), sources)| {
        (
            Entry {
                input: reference.clone(),
                base: Some(base.clone()),
            },
            sources.first().cloned().unwrap_or_default(),
        )
    });
    inputs.chain(pairs).collect()
}

/// The harness the saved corpus is checked with: the registry's oracles
/// and the WHATWG reference. One per audit, bless or expectations, so that
/// one `whatwg-url` process serves every entry.
fn corpus_harness() -> Harness<'static> {
    Harness::builder()
        .whatwg_reference(crate::reference::WHATWG_TIMEOUT)
        .build()
}

/// Checks every corpus entry against `set`.
pub fn audit(corpus: &Corpus, set: &SignatureSet) -> Audit {
    audit_with(&mut corpus_harness(), corpus, set)
}

/// [`audit`] with `harness`.
fn audit_with(harness: &mut Harness<'_>, corpus: &Corpus, set: &SignatureSet) -> Audit {
    let mut audit = Audit::default();
    for (entry, source) in entries(corpus) {
        let case = entry.check(harness);
        if case.has_unexplained() {
            audit.unexplained.push((entry.clone(), source.clone()));
        }
        for signature in crate::minimize::signatures(&case) {
            if set.contains_key(&signature) {
                continue;
            }
            let shorter = audit
                .new
                .get(&signature)
                .is_none_or(|(e, _)| (entry.len(), &entry) < (e.len(), e));
            if shorter {
                audit.new.insert(signature, (entry.clone(), source.clone()));
            }
        }
    }
    for (signature, entry) in set {
        if !entry.signatures(harness).contains(signature) {
            audit.stale.push(*signature);
        }
    }
    audit
}

/// The signature set after a bless: entries that still show their
/// signature are kept (no churn); a new or stale signature gets the
/// shortest corpus input that shows it, delta-debugged down while it keeps
/// showing that signature.
pub fn bless_signatures(corpus: &Corpus, old: &SignatureSet) -> SignatureSet {
    let mut harness = corpus_harness();
    let mut set: SignatureSet = old
        .iter()
        .filter(|(signature, entry)| entry.signatures(&mut harness).contains(*signature))
        .map(|(s, e)| (*s, e.clone()))
        .collect();
    for (signature, (entry, _)) in audit_with(&mut harness, corpus, &set).new {
        let mut shows = |input: &str, base: Option<&str>| {
            crate::minimize::signatures_with(&mut harness, input, base).contains(&signature)
        };
        let minimal = match entry.base.as_deref() {
            // A pair: the base is shrunk too (it is as much the fuzzer's
            // output as the reference).
            Some(base) => {
                let (input, base) =
                    crate::minimize::ddmin_pair(&entry.input, base, |i, b| shows(i, Some(b)));
                Entry {
                    input,
                    base: Some(base),
                }
            }
            None => Entry {
                input: crate::minimize::ddmin(&entry.input, |i| shows(i, None)),
                base: None,
            },
        };
        set.insert(signature, minimal);
    }
    set
}

/// The expectations text of the regression set: the curated inputs and the
/// signature inputs, each with every oracle's outcome, the findings and
/// the host confusions; deterministic, sorted.
pub fn expectations(corpus: &Corpus, set: &SignatureSet) -> String {
    let mut out = String::from(
        "# Generated by `uridiff corpus bless` (or BLESS=1 cargo test --test corpus): review the\n\
         # diff before committing. The regression set (corpus/curated.txt and one input per\n\
         # signature of corpus/signatures.txt), each input with each oracle's verdict and\n\
         # components (- absent), the findings as class/basis/oracle/fields/severity\n\
         # (class/basis/oracle/fields is the signature) and the parsers that see different hosts.\n",
    );
    let mut regression: BTreeSet<Entry> = corpus
        .inputs
        .iter()
        .filter(|(_, sources)| sources.iter().any(|s| s.starts_with(CURATED)))
        .map(|(input, _)| Entry {
            input: input.clone(),
            base: None,
        })
        .collect();
    regression.extend(set.values().cloned());
    let mut harness = corpus_harness();
    for entry in &regression {
        match &entry.base {
            None => {
                let _ = write!(out, "\ninput {}\n", shown(&entry.input));
                write_case(&mut out, &entry.check(&mut harness));
            }
            Some(base) => {
                let result = match rfc2396::resolve(base, &entry.input) {
                    Ok(r) => shown(&r),
                    Err(e) => format!("error: {e}"),
                };
                let _ = write!(
                    out,
                    "\nresolve {} {}\n  result      {result}\n",
                    shown(base),
                    shown(&entry.input)
                );
                write_case(&mut out, &entry.check(&mut harness));
            }
        }
    }
    out
}

/// Loads `signatures.txt` under `root` (empty when there is none).
pub fn load_signatures(root: &Path) -> io::Result<SignatureSet> {
    let path = root.join(SIGNATURES);
    match fs::read_to_string(&path) {
        Ok(text) => parse_signatures(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}:{}: {}", path.display(), e.line, e.message),
            )
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(SignatureSet::new()),
        Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
    }
}

/// Is `root` a saved corpus (a curated file or a target directory)? A bless
/// anywhere else would write an empty corpus's files.
pub fn is_corpus(root: &Path) -> bool {
    root.join(CURATED).is_file() || targets().any(|t| root.join(t.as_str()).is_dir())
}

/// The defect signatures (`class/defect/oracle/fields`) `signatures.txt`
/// knows: the baseline a fuzz target holds a new defect against. A line
/// that does not parse is no known defect (`cargo test` refuses the file).
pub fn known_defect_signatures(signatures: &str) -> BTreeSet<Signature> {
    signatures
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split('\t').next())
        .filter_map(|signature| signature.parse::<Signature>().ok())
        .filter(Signature::is_defect)
        .collect()
}

/// One case's block: each oracle's verdict and components, the findings,
/// the host confusions.
fn write_case(out: &mut String, case: &Case<'_>) {
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
        .map(|f| format!("{}/{}", Signature::of(f), f.severity))
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
    fn signature_files_round_trip_and_name_the_known_defects() {
        let mut set = SignatureSet::new();
        set.insert(
            "dropped-input/defect/http/authority,host,port"
                .parse()
                .unwrap(),
            Entry {
                input: "http://h:80x/".into(),
                base: None,
            },
        );
        set.insert(
            "backslash/spec/url/verdict".parse().unwrap(),
            Entry {
                input: "/\\evil.com".into(),
                base: Some("https://example.com/".into()),
            },
        );
        let text = render_signatures(&set);
        assert_eq!(parse_signatures(&text).unwrap(), set);
        assert_eq!(
            known_defect_signatures(&text)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["dropped-input/defect/http/authority,host,port"]
        );
        assert!(parse_signatures("x\tnot json\n").is_err());
    }

    #[test]
    fn long_values_are_shown_by_length_and_hash() {
        let long = "a".repeat(200);
        let s = shown(&long);
        assert!(s.starts_with("<200 bytes sha1:"), "{s}");
        assert_eq!(shown("x\"y"), "\"x\\\"y\"");
    }
}
