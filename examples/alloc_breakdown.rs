//! Where `check()`'s allocations beyond its oracles' `run` go, on the
//! real-URL set: the round-trip reparses (the oracles' own parsers run
//! again), and what remains (the harness). url's syntax-violation notes are
//! not in `check()` (the commands add them with `Case::annotate`); their
//! cost is shown for the inputs where url differs from rfc2396.
//! `cargo run --release --example alloc_breakdown`.

use uridiff::oracle::registry;

fn count(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

fn main() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/urls.txt"
    ))
    .unwrap_or_default();
    let urls: Vec<&str> = text.lines().collect();
    let n = urls.len() as f64;
    let (mut check, mut runs, mut reparses, mut notes) = (0u64, 0u64, 0u64, 0u64);
    for u in &urls {
        check += count(|| drop(std::hint::black_box(uridiff::check(u))));
        for row in registry() {
            let outcome = (row.run)(u);
            runs += count(|| drop(std::hint::black_box((row.run)(u))));
            if let Some(s) = outcome.serialization.as_deref() {
                let s = s.to_owned();
                reparses += count(|| drop(std::hint::black_box((row.run)(&s))));
            }
        }
        let case = uridiff::check(u);
        let url_differs = case.findings.iter().any(|f| {
            f.oracle == uridiff::oracle::OracleId::Url
                && f.peer == Some(uridiff::oracle::OracleId::Rfc2396)
        });
        if url_differs {
            let mut case = uridiff::check(u);
            notes += count(|| case.annotate());
        }
    }
    let per = |x: u64| x as f64 / n;
    println!("allocations per URL over {} URLs", urls.len());
    println!("check                          {:.2}", per(check));
    println!("oracles' run                   {:.2}", per(runs));
    println!("round-trip reparses            {:.2}", per(reparses));
    println!(
        "the harness itself             {:.2}",
        per(check) - per(runs) - per(reparses)
    );
    println!("Case::annotate (not in check)  {:.2}", per(notes));
}
