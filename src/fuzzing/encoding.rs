//! Fuzz-target inputs to and from what people and the saved corpus read:
//! `resolve` pairs as libFuzzer bytes and back, a `structured` input's
//! rendered URI, a `bypass` template with its host slots filled, and a
//! finding as a ready-to-paste saved-corpus entry.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use arbitrary::{Arbitrary, Unstructured};

use super::model::UriModel;
use crate::case::Case;
use crate::signature::Signature;
use crate::triage::Finding;

/// The saved-corpus entry for a case: a comment naming what it shows, then
/// the input as a JSON string, ready to paste into `corpus/curated.txt`.
pub fn corpus_entry(case: &Case<'_>, origin: &str) -> String {
    corpus_entry_with(case, origin, &[])
}

/// The defect findings of `case` whose signature `known` lacks: what a fuzz
/// target reports as a new defect.
///
/// The fuzz targets run `check()`, which has no WHATWG reference (a Node
/// process), so a WHATWG peer disagreement there is undecided: it names
/// the pair in registry order, where the saved corpus (blessed with the
/// reference) names the parser the reference blamed, as a peer or a
/// reference disagreement. An undecided finding is new only when neither
/// of its two parsers has such a signature with the same verdict and
/// fields.
pub fn new_defects<'c>(case: &'c Case<'_>, known: &BTreeSet<Signature>) -> Vec<&'c Finding> {
    case.defects()
        .filter(|f| !known.contains(&Signature::of(f)) && !undecided_known(f, known))
        .collect()
}

/// Is `f` undecided, with a decided signature of either parser known?
fn undecided_known(f: &Finding, known: &BTreeSet<Signature>) -> bool {
    use crate::triage::{Class, Decision};
    f.decided_by == Decision::Undecided
        && [Some(f.oracle), f.peer]
            .into_iter()
            .flatten()
            .any(|oracle| {
                [Class::PeerDisagreement, Class::ReferenceDisagreement]
                    .into_iter()
                    .any(|class| {
                        known.contains(&Signature {
                            class,
                            basis: f.basis,
                            oracle,
                            verdict: f.verdict,
                            fields: f.fields,
                        })
                    })
            })
}

/// A corpus entry that also names the new defects found.
pub fn corpus_entry_with(case: &Case<'_>, origin: &str, new_defects: &[&Finding]) -> String {
    let mut entry = format!("# {origin}:");
    for f in &case.findings {
        let _ = write!(entry, " {}/{}", f.class, f.oracle);
    }
    for f in case.unexplained() {
        let _ = write!(
            entry,
            "\n#   unexplained {}: {}",
            f.oracle,
            case.effect(f).replace('\n', "\\n")
        );
    }
    for f in new_defects {
        let _ = write!(
            entry,
            "\n#   new defect {}: {}",
            Signature::of(f),
            case.effect(f).replace('\n', "\\n")
        );
    }
    if let Some(base) = case.base {
        let base = serde_json::to_string(base).unwrap_or_default();
        let _ = write!(entry, "\n#   resolved against the base {base}");
    }
    let json = serde_json::to_string(case.input).unwrap_or_default();
    let _ = write!(entry, "\n{json}\n");
    entry
}

/// Decodes a structured-fuzzer input into its rendered URI, as the
/// `structured` target does (libfuzzer-sys decodes a target's argument with
/// `arbitrary_take_rest`).
pub fn render_structured(data: &[u8]) -> Option<String> {
    UriModel::arbitrary_take_rest(Unstructured::new(data))
        .ok()
        .map(|m| m.render())
}

/// The slot of the allowed host in a `bypass` fuzz target input.
pub const ALLOW_BYTE: char = '\u{1}';
/// The slot of the target host in a `bypass` fuzz target input.
pub const TARGET_BYTE: char = '\u{2}';

/// The hosts [`render_slots`] fills the slots with: `bypass`'s default
/// allowed and target hosts (`DEFAULT_ALLOW`, `DEFAULT_TARGET`; a test in
/// `bypass::known` keeps them equal). Written here, not read from `bypass`,
/// because the saved corpus decodes through here and `bypass` reads the
/// saved corpus: reading it from `bypass` would be an import cycle.
const SLOT_HOSTS: (&str, &str) = ("allowed.example", "evil.example");

/// A `bypass` fuzz target input with its slots filled by the default
/// allowed and target hosts, and what follows the last slot dropped: the
/// bypass is in the text around the hosts, and a tail (a path, a
/// fragment) would only add findings that name another shape.
pub fn render_slots(text: &str) -> String {
    let end = text
        .rfind([ALLOW_BYTE, TARGET_BYTE])
        .map_or(text.len(), |at| at + 1);
    text.get(..end)
        .unwrap_or(text)
        .replace(ALLOW_BYTE, SLOT_HOSTS.0)
        .replace(TARGET_BYTE, SLOT_HOSTS.1)
}

/// Decodes a `resolve` fuzzer input into its (base, reference) pair, as
/// libfuzzer-sys does for the target's `(&str, &str)` argument.
pub fn decode_resolve_pair(data: &[u8]) -> Option<(&str, &str)> {
    <(&str, &str)>::arbitrary_take_rest(Unstructured::new(data)).ok()
}

/// Encodes a (base, reference) pair as a `resolve` fuzzer input, so that
/// [`decode_resolve_pair`] gives it back; `None` if no encoding is found
/// (the pair is longer than one length byte can describe).
pub fn encode_resolve_pair(base: &str, reference: &str) -> Option<Vec<u8>> {
    // `arbitrary` reads the first string's length from the end of the data
    // and the last string from the rest; search that length byte.
    let mut data = Vec::with_capacity(base.len() + reference.len() + 1);
    data.extend_from_slice(base.as_bytes());
    data.extend_from_slice(reference.as_bytes());
    data.push(0);
    for byte in 0..=u8::MAX {
        if let Some(last) = data.last_mut() {
            *last = byte;
        }
        if decode_resolve_pair(&data) == Some((base, reference)) {
            return Some(data);
        }
    }
    None
}
