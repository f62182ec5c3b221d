//! Throughput of the shipped external oracles through
//! `External::run_batch`, on one input per line of a file (default
//! `benches/data/urls.txt`), with batches of 512 and 4096.
//!
//! ```sh
//! cargo run --release --example external_throughput
//! cargo run --release --example external_throughput -- benches/data/urls.txt java-uri
//! ```
//!
//! For each adapter and batch size it starts a fresh process (start time:
//! spawn to hello line, which includes the Java source launcher compiling
//! the adapter), then runs every input twice: the first pass is what a
//! `report` run sees, the second shows the warmed-up rate (the JIT for Java).

use std::error::Error;
use std::time::{Duration, Instant};

use uridiff::oracle::Verdict;
use uridiff::oracle::external::External;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "benches/data/urls.txt".to_owned());
    let mut names: Vec<String> = args.collect();
    if names.is_empty() {
        names = uridiff::oracle::external::shipped_names()
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
    }
    let text = std::fs::read_to_string(&path)?;
    let inputs: Vec<&str> = text.lines().collect();
    println!("{} inputs from {path}", inputs.len());
    println!(
        "{:<14} {:>6} {:>9} {:>12} {:>12} {:>16} {:>9}",
        "adapter", "batch", "start", "pass 1/s", "pass 2/s", "with start/s", "accepted"
    );
    for name in &names {
        for batch in [512, 4096] {
            let t0 = Instant::now();
            let mut ext = External::shipped(name, Duration::from_secs(60))
                .ok_or_else(|| format!("{name} is not a shipped adapter"))??;
            let start = t0.elapsed();
            let (first, accepted) = pass(&mut ext, &inputs, batch)?;
            let (second, _) = pass(&mut ext, &inputs, batch)?;
            ext.finish()?;
            let rate = |d: Duration| inputs.len() as f64 / d.as_secs_f64();
            println!(
                "{:<14} {:>6} {:>7.2} s {:>12.0} {:>12.0} {:>16.0} {:>9}",
                name,
                batch,
                start.as_secs_f64(),
                rate(first),
                rate(second),
                rate(start + first),
                accepted
            );
        }
    }
    Ok(())
}

/// Runs every input once, in batches; the time taken and the acceptances.
fn pass(
    ext: &mut External,
    inputs: &[&str],
    batch: usize,
) -> Result<(Duration, usize), Box<dyn Error>> {
    let t = Instant::now();
    let mut accepted = 0;
    for chunk in inputs.chunks(batch) {
        let out = ext.run_batch(chunk)?;
        accepted += out.iter().filter(|o| o.verdict == Verdict::Accept).count();
    }
    Ok((t.elapsed(), accepted))
}
