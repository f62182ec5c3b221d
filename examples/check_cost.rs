//! The release build's cost per input of `check()` (and of what the
//! `differential` fuzz target runs, `fuzzing::campaign_check`) over the files
//! of a directory, one input per file: the denominator of the fuzz build's
//! cost per input in `scripts/fuzz-throughput.sh`, which times the fuzz
//! binary over the same files. Best of five passes, in nanoseconds per input.
//! `cargo run --release --example check_cost -- DIR`.
//!
//! `check_cost DIR campaign|check PASSES` runs only that function, PASSES
//! times over the inputs, and prints nothing: a loop to profile
//! (`perf record`), without the other function's samples.

use std::time::Instant;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: check_cost DIR");
        std::process::exit(2);
    };
    let inputs: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| String::from_utf8(std::fs::read(e.path()).ok()?).ok())
            .collect(),
        Err(e) => {
            eprintln!("check_cost: {dir}: {e}");
            std::process::exit(2);
        }
    };
    if inputs.is_empty() {
        eprintln!("check_cost: {dir}: no UTF-8 input");
        std::process::exit(2);
    }
    let known = uridiff::corpus::known_defect_signatures(include_str!("../corpus/signatures.txt"));
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
            other => {
                eprintln!("check_cost: {other:?}: campaign or check");
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
