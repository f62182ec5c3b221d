//! Parser speed on the real-URL data set (benches/data/urls.txt), all in one
//! run so the ratios compare like with like: the strict RFC 2396 parser
//! against fluent-uri, http::Uri and url (and uriparser, with the cargo
//! feature `uriparser`), a byte-table floor, every oracle
//! of the registry as check() runs it, and check(). Scaling with input length
//! is the parser crate's own bench (`cargo bench -p rfc2396 --bench parse`). `scripts/bench.sh` runs this and writes the
//! medians and ratios into BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use uridiff::rfc2396;
use uridiff::rfc2396::chars::URI_REFERENCE;

fn urls() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/urls.txt"
    ))
    .unwrap_or_default();
    text.lines().map(str::to_owned).collect()
}

/// The floor: one pass that only checks each byte against a 256-entry table
/// of RFC 2396 characters. No parser that looks at every byte can beat it.
fn byte_table_floor(input: &str) -> bool {
    input.bytes().all(|b| URI_REFERENCE.contains(b))
}

fn parsers(c: &mut Criterion) {
    let urls = urls();
    assert!(
        urls.len() >= 30_000,
        "benches/data/urls.txt has {} URLs",
        urls.len()
    );
    let bytes: usize = urls.iter().map(String::len).sum();
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
    g.bench_function("rfc2396", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| rfc2396::parse(black_box(u)).is_ok())
                .count()
        })
    });
    g.bench_function("fluent-uri", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| fluent_uri::UriRef::parse(black_box(u.as_str())).is_ok())
                .count()
        })
    });
    // uriparser (C, the system's library; cargo feature `uriparser`):
    // parse and read every component's range, freeing the library's
    // structures, as the oracle does before it maps the components.
    #[cfg(feature = "uriparser")]
    g.bench_function("uriparser", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| uriparser_ffi::UriRef::parse(black_box(u.as_bytes())).is_ok())
                .count()
        })
    });
    g.bench_function("http", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| http::Uri::try_from(black_box(u.as_str())).is_ok())
                .count()
        })
    });
    g.bench_function("url", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| url::Url::parse(black_box(u)).is_ok())
                .count()
        })
    });
    // Every oracle of the registry as check() runs it (parse and map to
    // components), one row each, then the parsers back to back with nothing
    // else: what check() costs beyond that is diff, self-checks, triage,
    // arbitration where parsers disagree, and host confusions. BENCHMARKS.md
    // compares check() with it.
    for row in uridiff::oracle::registry() {
        g.bench_function(format!("oracle-{}", row.id), |b| {
            b.iter(|| {
                urls.iter()
                    .filter(|u| (row.run)(black_box(u.as_str())).accepted())
                    .count()
            })
        });
    }
    g.bench_function("oracles-only", |b| b.iter(|| oracles_only(&urls)));
    g.bench_function("oracles-as-checked", |b| {
        b.iter(|| oracles_as_checked(&urls))
    });
    g.bench_function("check", |b| {
        b.iter(|| {
            urls.iter()
                .map(|u| uridiff::check(black_box(u)).findings.len())
                .sum::<usize>()
        })
    });
    g.bench_function("campaign-check", |b| {
        let known = known();
        b.iter(|| {
            urls.iter()
                .map(|u| {
                    uridiff::fuzzing::campaign_check(black_box(u), &known)
                        .findings
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
    eprintln!("data set: {} URLs, {bytes} bytes", urls.len());
}

/// The parsers check() runs on every input, back to back, with nothing
/// else; the references (asked only where parsers disagree) are
/// arbitration, which BENCHMARKS.md measures apart.
fn oracles_only(inputs: &[String]) -> usize {
    inputs
        .iter()
        .map(|u| {
            let u = black_box(u.as_str());
            uridiff::oracle::registry()
                .iter()
                .filter(|row| !row.reference && (row.run)(u).accepted())
                .count()
        })
        .sum()
}

/// The parser runs a check makes, back to back, with nothing else: each
/// parser on the input, and again on its own serialization where its round
/// trip asks (`uridiff::oracle::parsers_as_checked`).
fn oracles_as_checked(inputs: &[String]) -> usize {
    inputs
        .iter()
        .map(|u| uridiff::oracle::parsers_as_checked(black_box(u.as_str())))
        .sum()
}

/// The defect signatures a campaign knows (corpus/signatures.txt).
fn known() -> std::collections::BTreeSet<uridiff::Signature> {
    uridiff::corpus::known_defect_signatures(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus/signatures.txt"
        ))
        .unwrap_or_default(),
    )
}

/// The saved `differential` corpus: what a campaign's inputs look like
/// (nearly every one makes the parsers disagree, so check() asks the
/// references on nearly every one, where real URLs reach them one time in
/// seven). Rows as in `urls`: the parsers back to back, check(), and what
/// the fuzz target runs (`campaign_check`: check() without the RFC
/// grammars, the full check where that would be a finding).
fn corpus(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/differential");
    let mut inputs: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| String::from_utf8(std::fs::read(e.path()).ok()?).ok())
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 500,
        "corpus/differential has {} inputs",
        inputs.len()
    );
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.sample_size(30);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("oracles-only", |b| b.iter(|| oracles_only(&inputs)));
    g.bench_function("oracles-as-checked", |b| {
        b.iter(|| oracles_as_checked(&inputs))
    });
    g.bench_function("check", |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|u| uridiff::check(black_box(u)).findings.len())
                .sum::<usize>()
        })
    });
    let known = known();
    g.bench_function("campaign-check", |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|u| {
                    uridiff::fuzzing::campaign_check(black_box(u), &known)
                        .findings
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
    eprintln!("corpus/differential: {} inputs", inputs.len());
}

criterion_group!(benches, parsers, corpus);
criterion_main!(benches);
