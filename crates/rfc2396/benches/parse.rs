//! Speed of `parse` and `resolve` on the real-URL data set of the repository
//! (`benches/data/urls.txt` at its root), with a byte-table floor measured in
//! the same run: the machine is shared, so only ratios within one run are
//! worth quoting. The comparison with other parsers is the uridiff package's
//! `benches/parsers.rs`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rfc2396::chars::URI_REFERENCE;

/// The Appendix C base.
const BASE: &str = "http://a/b/c/d;p?q";

fn urls() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data/urls.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().map(str::to_owned).collect()
}

/// The floor: one pass that only checks each byte against a 256-entry table
/// of RFC 2396 characters. No parser that looks at every byte can beat it.
fn byte_table_floor(input: &str) -> bool {
    input.bytes().all(|b| URI_REFERENCE.contains(b))
}

fn real_urls(c: &mut Criterion) {
    let urls = urls();
    assert!(
        urls.len() >= 30_000,
        "benches/data/urls.txt has {} URLs",
        urls.len()
    );
    let mut g = c.benchmark_group("urls");
    g.throughput(Throughput::Elements(urls.len() as u64));
    g.sample_size(30);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("byte-table-floor", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| byte_table_floor(black_box(u)))
                .count()
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| rfc2396::parse(black_box(u)).is_ok())
                .count()
        })
    });
    // Each URL as a reference against the Appendix C base: a parse of each,
    // and building the result for the valid ones.
    g.bench_function("resolve", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| rfc2396::resolve(BASE, black_box(u)).is_ok())
                .count()
        })
    });
    g.finish();
}

/// A valid reference of about `len` bytes: a long path of ordinary segments.
fn valid_input(len: usize) -> String {
    let mut s = String::from("http://user@example.com:8080/");
    while s.len() < len {
        s.push_str("segment;p=1/");
    }
    s.push_str("?q=1#f");
    s
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(5));
    for len in [1 << 10, 64 << 10, 1 << 20] {
        let input = valid_input(len);
        assert!(rfc2396::parse(&input).is_ok());
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("parse", len), &input, |b, i| {
            b.iter(|| rfc2396::parse(black_box(i)).is_ok())
        });
    }
    g.finish();
}

criterion_group!(benches, real_urls, scaling);
criterion_main!(benches);
