//! `check()` allocates at most one time per input beyond what its oracles
//! allocate when each runs once (the goal BENCHMARKS.md measures in "Every
//! oracle, and `check()` against them"), counted with
//! allocation-counter (counts, not time: deterministic on any machine).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use uridiff::oracle::registry;

fn allocations(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

/// What every registry oracle allocates running once on `input`: the
/// parsers always, the references (asked only where parsers disagree) when
/// `check()` asked them.
fn oracles_alone(input: &str) -> u64 {
    let case = uridiff::check(input);
    registry()
        .iter()
        .filter(|row| !row.reference || case.outcome(row.id).is_some())
        .map(|row| allocations(|| drop(std::hint::black_box((row.run)(input)))))
        .sum()
}

#[test]
fn check_adds_no_allocation_to_its_oracles_on_an_input_every_parser_reads_alike() {
    // Every parser accepts it as written (no serialization to reparse) and
    // agrees with rfc2396: the outcome list is inline, so check() adds none.
    let input = "http://example.com/a?b";
    let case = uridiff::check(input);
    assert!(case.findings.is_empty(), "{:?}", case.findings);
    assert!(case.outcomes.len() <= uridiff::INLINE_OUTCOMES);
    let check = allocations(|| drop(std::hint::black_box(uridiff::check(input))));
    assert_eq!(check, oracles_alone(input));
}

#[test]
fn check_adds_at_most_one_allocation_per_input_beyond_its_oracles_on_real_urls() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/urls.txt"
    ))
    .unwrap();
    // The whole real-URL set BENCHMARKS.md counts on.
    let urls: Vec<&str> = text.lines().collect();
    assert!(urls.len() > 30_000);
    let (mut check, mut alone) = (0u64, 0u64);
    for u in &urls {
        check += allocations(|| drop(std::hint::black_box(uridiff::check(u))));
        alone += oracles_alone(u);
    }
    let beyond = (check as f64 - alone as f64) / urls.len() as f64;
    assert!(
        beyond <= 1.0,
        "check() allocates {beyond:.2} times per URL beyond its oracles"
    );
}
