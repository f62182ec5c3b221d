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
    // The parsers check() runs on every input; the references (the RFC
    // grammars) only where parsers disagree, so they are listed apart.
    let mut all = 0.0;
    for row in uridiff::oracle::registry() {
        let n = per_url(&urls, |u| drop(std::hint::black_box((row.run)(u))));
        if row.reference {
            println!("reference {} {n:.2}", row.id);
        } else {
            all += n;
            println!("oracle {} {n:.2}", row.id);
        }
    }
    println!("every parser, back to back {all:.2}");
    let check = per_url(&urls, |u| drop(uridiff::check(u)));
    println!("uridiff::check {check:.2}");
    println!("check beyond its oracles {:.2}", check - all);
    campaign("real URLs", &urls, all);
    // A campaign's inputs: the saved differential corpus, where nearly
    // every input makes the parsers disagree.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/differential");
    let mut corpus: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| String::from_utf8(std::fs::read(e.path()).ok()?).ok())
        .collect();
    corpus.sort();
    let oracles: f64 = uridiff::oracle::registry()
        .iter()
        .filter(|row| !row.reference)
        .map(|row| per_url(&corpus, |u| drop(std::hint::black_box((row.run)(u)))))
        .sum();
    println!(
        "saved differential corpus ({} inputs): every parser, back to back {oracles:.2}",
        corpus.len()
    );
    campaign("the saved differential corpus", &corpus, oracles);
}

/// What the fuzz targets run on every input (`campaign_check`), with the
/// signatures a campaign knows; AddressSanitizer's allocator makes each of
/// these dearer in the fuzz build than in this one.
fn campaign(name: &str, inputs: &[String], oracles: f64) {
    let known = uridiff::corpus::known_defect_signatures(include_str!("../corpus/signatures.txt"));
    let as_checked = per_url(inputs, |u| {
        std::hint::black_box(uridiff::oracle::parsers_as_checked(u));
    });
    println!("{name}: every parser, with its round trip {as_checked:.2}");
    let n = per_url(inputs, |u| {
        drop(uridiff::fuzzing::campaign_check(u, &known))
    });
    println!("{name}: uridiff::fuzzing::campaign_check {n:.2}");
    println!(
        "{name}: campaign_check beyond its oracles {:.2}",
        n - oracles
    );
    println!(
        "{name}: campaign_check beyond its oracles and round trips {:.2}",
        n - as_checked
    );
}
