//! Allocations per call on the real-URL data set: `rfc2396::parse` (zero by
//! design), the other parsers, and `check()`. Counted, not timed.

use uridiff::rfc2396;

fn per_url(urls: &[String], f: impl Fn(&str)) -> f64 {
    let info = allocation_counter::measure(|| {
        for u in urls {
            f(u);
        }
    });
    info.count_total as f64 / urls.len().max(1) as f64
}

fn main() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/urls.txt"
    ))
    .unwrap_or_default();
    let urls: Vec<String> = text.lines().map(str::to_owned).collect();
    println!("allocations per URL over {} URLs", urls.len());
    println!(
        "rfc2396::parse {:.2}",
        per_url(&urls, |u| {
            let _ = std::hint::black_box(rfc2396::parse(u));
        })
    );
    println!(
        "fluent_uri::UriRef::parse {:.2}",
        per_url(&urls, |u| {
            let _ = std::hint::black_box(fluent_uri::UriRef::parse(u));
        })
    );
    println!(
        "http::Uri::try_from {:.2}",
        per_url(&urls, |u| drop(http::Uri::try_from(u)))
    );
    println!(
        "url::Url::parse {:.2}",
        per_url(&urls, |u| drop(url::Url::parse(u)))
    );
    let mut all = 0.0;
    for row in uridiff::oracle::registry() {
        let n = per_url(&urls, |u| drop(std::hint::black_box((row.run)(u))));
        all += n;
        println!("oracle {} {n:.2}", row.id);
    }
    println!("every oracle, back to back {all:.2}");
    let check = per_url(&urls, |u| drop(uridiff::check(u)));
    println!("uridiff::check {check:.2}");
    println!("check beyond its oracles {:.2}", check - all);
}
