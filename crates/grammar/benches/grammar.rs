//! Speed of the grammar references on the inputs they will see: a typical
//! 60-byte URL, and 4 KiB of path characters (the largest input the
//! harness sends them). Each measures the whole answer: the Earley chart,
//! every reading, the RFC's settlements and the components. The medians are
//! in `target/criterion/*/new/estimates.json`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grammar::rfc2396::Rfc2396;
use grammar::rfc3986::Rfc3986;

/// 60 bytes: scheme, host, port, a path of three segments, a query, a
/// fragment.
const URL: &str = "https://www.example.com:8080/docs/v2/index.htm?q=a+b&n=1#top";

/// 4 KiB of path: segments of pchars, escapes and `;` parameters.
fn long_path() -> String {
    let mut p = String::from("http://example.com");
    while p.len() < 4096 {
        p.push_str("/seg-ment_~%41;p=1");
    }
    p.truncate(4096);
    // A path cannot end inside an escape.
    while p.ends_with('%') || p.get(p.len() - 2..).is_some_and(|t| t.starts_with('%')) {
        p.pop();
    }
    p
}

/// The first URLs of the repository's real-URL set.
fn real_urls() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data/urls.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().take(1000).map(str::to_owned).collect()
}

fn bench(c: &mut Criterion) {
    let loaded = (Rfc3986::get(), Rfc2396::get());
    assert!(loaded.0.is_ok() && loaded.1.is_ok(), "the grammars load");
    let (Ok(rfc3986), Ok(rfc2396)) = loaded else {
        return;
    };
    assert_eq!(URL.len(), 60);
    let path = long_path();
    assert!(path.len() > 4000 && path.len() <= 4096, "{}", path.len());
    assert!(rfc3986.parse(&path).is_ok() && rfc2396.parse(&path).is_ok());

    let mut g = c.benchmark_group("grammar");
    g.sample_size(30);
    g.measurement_time(Duration::from_secs(5));
    g.warm_up_time(Duration::from_secs(1));
    g.bench_function("rfc3986/url-60", |b| {
        b.iter(|| rfc3986.parse(black_box(URL)).is_ok())
    });
    g.bench_function("rfc2396/url-60", |b| {
        b.iter(|| rfc2396.parse(black_box(URL)).is_ok())
    });
    g.throughput(Throughput::Bytes(path.len() as u64));
    g.bench_function("rfc3986/path-4k", |b| {
        b.iter(|| rfc3986.parse(black_box(&path)).is_ok())
    });
    g.bench_function("rfc2396/path-4k", |b| {
        b.iter(|| rfc2396.parse(black_box(&path)).is_ok())
    });
    g.finish();

    let urls = real_urls();
    assert!(
        urls.len() == 1000,
        "benches/data/urls.txt has {} URLs",
        urls.len()
    );
    let mut g = c.benchmark_group("real-urls-1000");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(urls.len() as u64));
    g.bench_function("rfc3986", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| rfc3986.parse(black_box(u.as_str())).is_ok())
                .count()
        })
    });
    g.bench_function("rfc2396", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| rfc2396.parse(black_box(u.as_str())).is_ok())
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
