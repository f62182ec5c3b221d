//! The release build's cost per input of `check()` (and of what the
//! `differential` fuzz target runs, `fuzzing::campaign_check`) over the files
//! of a directory, one input per file: the denominator of the fuzz build's
//! cost per input in `scripts/fuzz-throughput.sh`, which times the fuzz
//! binary over the same files. Best of five passes, in nanoseconds per input.
//! `cargo run --release --example check_cost -- DIR`.
//!
//! `check_cost DIR campaign|check|oracles|as-checked PASSES` runs only that
//! function (`oracles`: the parsers alone, as the benchmark's
//! `oracles-only`; `as-checked`: with their round trips), PASSES
//! times over the inputs, and prints nothing: a loop to profile
//! (`perf record`), without the other function's samples.
//!
//! `check_cost DIR dump` prints, for every input in sorted order, the whole
//! case `campaign_check` makes of it (with `corpus/signatures.txt`, and
//! with no signature known, where every defect escalates to the full
//! check), the one `check` makes (`Debug`), and whether the campaign
//! would stop on it: compare the output of two trees (`cmp`, or a
//! digest) to show that a change to the pipeline changes no case.
//!
//! `check_cost DIR dump-pairs` does the same for the files of a `resolve`
//! corpus, each a (base, reference) pair: `campaign_check_with_base` and
//! `check_with_base`.
//!
//! `check_cost DIR ratio` times, alternating, the parsers alone (each
//! registry parser's run, back to back: the benchmark's `oracles-only`),
//! `campaign_check`, `check`, and the parser runs a check makes
//! (`as-checked`: round trips included, the benchmark's
//! `oracles-as-checked`), best of 15 passes each, and prints their costs
//! per input and the ratios: a quick reading between two criterion runs.
//!
//! DIR may also be a text file: one input per line
//! (`benches/data/urls.txt`).

use std::time::Instant;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: check_cost DIR|FILE [campaign|check PASSES | dump]");
        std::process::exit(2);
    };
    let mut inputs: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| String::from_utf8(std::fs::read(e.path()).ok()?).ok())
            .collect(),
        Err(_) => match std::fs::read_to_string(&dir) {
            Ok(text) => text.lines().map(String::from).collect(),
            Err(e) => {
                eprintln!("check_cost: {dir}: {e}");
                std::process::exit(2);
            }
        },
    };
    inputs.sort();
    if inputs.is_empty() {
        eprintln!("check_cost: {dir}: no UTF-8 input");
        std::process::exit(2);
    }
    let known = uridiff::corpus::known_defect_signatures(include_str!("../corpus/signatures.txt"));
    if std::env::args().nth(2).as_deref() == Some("dump") {
        dump(&inputs, &known);
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("ratio") {
        ratio(&inputs, &known);
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("dump-pairs") {
        dump_pairs(&dir, &known);
        return;
    }
    if let Some(only) = std::env::args().nth(2) {
        let passes: usize = std::env::args()
            .nth(3)
            .and_then(|p| p.parse().ok())
            .unwrap_or(100);
        let n: usize = match only.as_str() {
            "campaign" => (0..passes)
                .flat_map(|_| inputs.iter())
                .map(|u| uridiff::fuzzing::campaign_check(u, &known).findings.len())
                .sum(),
            "check" => (0..passes)
                .flat_map(|_| inputs.iter())
                .map(|u| uridiff::check(u).findings.len())
                .sum(),
            // The parsers alone, as the benchmark's `oracles-only` row.
            "oracles" => (0..passes)
                .flat_map(|_| inputs.iter())
                .map(|u| {
                    uridiff::oracle::registry()
                        .iter()
                        .filter(|row| !row.reference && (row.run)(u).accepted())
                        .count()
                })
                .sum(),
            // The parser runs a check makes (round trips included), as
            // the benchmark's `oracles-as-checked` row.
            "as-checked" => (0..passes)
                .flat_map(|_| inputs.iter())
                .map(|u| uridiff::oracle::parsers_as_checked(u))
                .sum(),
            other => {
                eprintln!("check_cost: {other:?}: campaign, check, oracles or as-checked");
                std::process::exit(2);
            }
        };
        std::hint::black_box(n);
        return;
    }
    let best = |f: &dyn Fn(&str) -> usize| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                let n: usize = inputs.iter().map(|u| f(std::hint::black_box(u))).sum();
                std::hint::black_box(n);
                start.elapsed().as_nanos() / inputs.len() as u128
            })
            .min()
            .unwrap_or_default()
    };
    let check = best(&|u| uridiff::check(u).findings.len());
    let campaign = best(&|u| uridiff::fuzzing::campaign_check(u, &known).findings.len());
    println!(
        "inputs {} check_ns {check} campaign_check_ns {campaign}",
        inputs.len()
    );
}

/// Every input's campaign case, whether the campaign stops on it, and its
/// full case, one input per paragraph.
fn dump(inputs: &[String], known: &std::collections::BTreeSet<uridiff::Signature>) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for input in inputs {
        let campaign = uridiff::fuzzing::campaign_check(input, known);
        let stops = campaign.has_unexplained()
            || !uridiff::fuzzing::new_defects(&campaign, known).is_empty();
        // With no signature known, every defect escalates to the full check.
        let none = std::collections::BTreeSet::new();
        let unknowing = uridiff::fuzzing::campaign_check(input, &none);
        let full = uridiff::check(input);
        if writeln!(
            out,
            "{input:?} stops={stops}\n{campaign:?}\n{unknowing:?}\n{full:?}\n"
        )
        .is_err()
        {
            std::process::exit(1);
        }
    }
}

/// [`dump`] for the (base, reference) pairs of a `resolve` corpus.
fn dump_pairs(dir: &str, known: &std::collections::BTreeSet<uridiff::Signature>) {
    use std::io::Write;
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read(e.path()).ok())
        .collect();
    files.sort();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for data in &files {
        let Some((base, reference)) = uridiff::fuzzing::decode_resolve_pair(data) else {
            continue;
        };
        let campaign = uridiff::fuzzing::campaign_check_with_base(base, reference, known);
        let stops = campaign.has_unexplained()
            || !uridiff::fuzzing::new_defects(&campaign, known).is_empty();
        let none = std::collections::BTreeSet::new();
        let unknowing = uridiff::fuzzing::campaign_check_with_base(base, reference, &none);
        let full = uridiff::check_with_base(base, reference);
        if writeln!(
            out,
            "{base:?} {reference:?} stops={stops}\n{campaign:?}\n{unknowing:?}\n{full:?}\n"
        )
        .is_err()
        {
            std::process::exit(1);
        }
    }
}

/// The parsers alone, `campaign_check` and `check`, alternating; best of 15.
fn ratio(inputs: &[String], known: &std::collections::BTreeSet<uridiff::Signature>) {
    let oracles = |u: &str| {
        uridiff::oracle::registry()
            .iter()
            .filter(|row| !row.reference && (row.run)(u).accepted())
            .count()
    };
    let campaign = |u: &str| uridiff::fuzzing::campaign_check(u, known).findings.len();
    let check = |u: &str| uridiff::check(u).findings.len();
    let as_checked = |u: &str| uridiff::oracle::parsers_as_checked(u);
    let fs: [&dyn Fn(&str) -> usize; 4] = [&oracles, &campaign, &check, &as_checked];
    let mut best = [u128::MAX; 4];
    for _ in 0..15 {
        for (f, best) in fs.iter().zip(best.iter_mut()) {
            let start = Instant::now();
            let n: usize = inputs.iter().map(|u| f(std::hint::black_box(u))).sum();
            std::hint::black_box(n);
            *best = (*best).min(start.elapsed().as_nanos() / inputs.len() as u128);
        }
    }
    let [o, c, k, a] = best;
    println!(
        "inputs {} oracles_ns {o} campaign_ns {c} check_ns {k} campaign/oracles {:.3} check/oracles {:.3} as_checked_ns {a} campaign/as_checked {:.3} check/as_checked {:.3}",
        inputs.len(),
        c as f64 / o as f64,
        k as f64 / o as f64,
        c as f64 / a as f64,
        k as f64 / a as f64
    );
}
