//! Could a campaign memoise its check by the shape of a disagreement?
//! (BENCHMARKS.md, "Campaign throughput, issue 34 part 1, third round".)
//!
//! For the inputs of a directory (one per file) or of a text file (one per
//! line), groups what the `differential` fuzz target checks
//! (`fuzzing::campaign_check`) by a key computed from the parsers' outcomes
//! alone, without triage: for each parser, whether it accepted and how it
//! differs from rfc2396 (verdict and fields), and with `rich`, also whether
//! it wrote a serialization of its own, how many notes it made, and how it
//! differs from every other parser. A key that determined the findings would
//! let a campaign triage only the first input of each key. Prints how many
//! keys hold inputs with different signature sets, and how many of the
//! signatures the inputs show would be seen if only the first input (in
//! sorted order) of each key were triaged.
//!
//! `cargo run --release --features uriparser --example shape_key -- DIR|FILE [rich]`

use std::collections::{BTreeMap, BTreeSet};

fn main() {
    let Some(from) = std::env::args().nth(1) else {
        eprintln!("usage: shape_key DIR|FILE [rich]");
        std::process::exit(2);
    };
    let rich = std::env::args().nth(2).as_deref() == Some("rich");
    let mut inputs: Vec<String> = match std::fs::read_dir(&from) {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| String::from_utf8(std::fs::read(e.path()).ok()?).ok())
            .collect(),
        Err(_) => match std::fs::read_to_string(&from) {
            Ok(text) => text.lines().map(String::from).collect(),
            Err(e) => {
                eprintln!("shape_key: {from}: {e}");
                std::process::exit(2);
            }
        },
    };
    inputs.sort();
    let known = uridiff::corpus::known_defect_signatures(include_str!("../corpus/signatures.txt"));
    let mut by_key: BTreeMap<String, (usize, BTreeSet<Vec<String>>)> = BTreeMap::new();
    let mut first_seen = BTreeSet::new();
    let mut all = BTreeSet::new();
    for input in &inputs {
        let case = uridiff::fuzzing::campaign_check(input, &known);
        let Some(ours) = case.outcome(uridiff::oracle::OracleId::Rfc2396) else {
            continue;
        };
        let mut key = String::new();
        for (id, outcome) in case.outcomes.iter() {
            let d = uridiff::diff::diff(ours, outcome);
            key.push_str(&format!(
                "{id}:{}:{}:{:?}",
                outcome.accepted(),
                d.verdict,
                d.fields
            ));
            if rich {
                key.push_str(&format!(
                    ":{}:{}",
                    outcome.serialization.is_some(),
                    outcome.notes.len()
                ));
                for (_, peer) in case.outcomes.iter() {
                    let p = uridiff::diff::diff(outcome, peer);
                    key.push_str(&format!("/{}{:?}", p.verdict, p.fields));
                }
            }
            key.push(';');
        }
        let signatures: Vec<String> = case
            .findings
            .iter()
            .map(|f| uridiff::Signature::of(f).to_string())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        all.extend(signatures.iter().cloned());
        let entry = by_key.entry(key).or_default();
        if entry.0 == 0 {
            first_seen.extend(signatures.iter().cloned());
        }
        entry.0 += 1;
        entry.1.insert(signatures);
    }
    let mixed: Vec<_> = by_key.values().filter(|(_, sets)| sets.len() > 1).collect();
    println!(
        "inputs {} keys {} keys-with-different-signatures {} (holding {} inputs) signatures {} seen-triaging-the-first-of-each-key {}",
        inputs.len(),
        by_key.len(),
        mixed.len(),
        mixed.iter().map(|(n, _)| n).sum::<usize>(),
        all.len(),
        first_seen.len()
    );
}
