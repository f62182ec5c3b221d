//! Replays the saved corpus: every input through check() against the
//! recorded expectations, every input through the fuzz targets' invariants,
//! and no finding left unexplained. `BLESS=1 cargo test --features uriparser --test corpus`
//! rewrites corpus/expectations.txt for review.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use uridiff::corpus::{EXPECTATIONS, diff_text, expectations, load, load_signatures};
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
use uridiff::corpus::{SIGNATURES, audit, bless_signatures, render_signatures};
use uridiff::fuzzing::{parse_invariants, resolve_invariants};
use uridiff::oracle::OracleId;

/// The saved corpus.
fn root() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus"))
}

/// The recording holds every in-process oracle: the default build's and
/// `uriparser` (cargo feature `uriparser`, the system's library); findings
/// and host confusions depend on all of them together.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
#[test]
fn saved_corpus_shows_only_known_signatures_and_the_recorded_regression_set() {
    let corpus = load(root()).unwrap();
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    let mut set = load_signatures(root()).unwrap();
    if bless {
        set = bless_signatures(&corpus, &set);
        std::fs::write(root().join(SIGNATURES), render_signatures(&set)).unwrap();
    }
    let found = audit(&corpus, &set);
    assert!(
        found.is_clean(),
        "the saved corpus shows what corpus/signatures.txt does not record:\n{}\
         review, then run `uridiff corpus bless` or `BLESS=1 cargo test --features uriparser --test corpus`",
        found.summary()
    );
    let current = expectations(&corpus, &set);
    let path = root().join(EXPECTATIONS);
    if bless {
        std::fs::write(&path, &current).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        recorded == current,
        "regression-set outcomes changed:\n{}\n\
         review, then run `uridiff corpus bless` or `BLESS=1 cargo test --features uriparser --test corpus`",
        diff_text(&recorded, &current)
    );
}

#[test]
fn saved_corpus_holds_the_curated_and_fuzzed_inputs() {
    let corpus = load(root()).unwrap();
    assert!(corpus.inputs.len() >= 100, "{} inputs", corpus.inputs.len());
    assert!(
        corpus
            .inputs
            .values()
            .flatten()
            .any(|s| s.starts_with("curated.txt:"))
    );
    for target in uridiff::corpus::targets() {
        let n = std::fs::read_dir(root().join(target.as_str()))
            .map(|d| d.count())
            .unwrap_or(0);
        assert!(n > 0, "corpus/{target} is empty");
    }
}

#[test]
fn saved_corpus_keeps_the_parse_and_resolve_invariants() {
    let corpus = load(root()).unwrap();
    for input in corpus.inputs.keys() {
        parse_invariants(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    }
    for (base, reference) in corpus.pairs.keys() {
        resolve_invariants(base, reference)
            .unwrap_or_else(|e| panic!("{base:?} + {reference:?}: {e}"));
    }
}

/// Every case of the saved corpus (inputs and resolve pairs) whose
/// findings include an `unexplained` one for which `counts` holds.
fn unexplained_cases(counts: impl Fn(&uridiff::triage::Finding) -> bool) -> Vec<String> {
    let corpus = load(root()).unwrap();
    let entry = |case: &uridiff::Case<'_>| {
        case.unexplained()
            .any(&counts)
            .then(|| uridiff::fuzzing::corpus_entry(case, "unexplained in the saved corpus"))
    };
    let mut found: Vec<String> = corpus
        .inputs
        .keys()
        .filter_map(|input| entry(&uridiff::check(input)))
        .collect();
    found.extend(
        corpus
            .pairs
            .keys()
            .filter_map(|(base, reference)| entry(&uridiff::check_with_base(base, reference))),
    );
    found
}

#[test]
fn saved_corpus_has_no_unexplained_disagreement() {
    // With every oracle built, nothing at all; without ada (a cargo
    // feature), url's departures from the URL Standard have no WHATWG peer
    // to be a peer disagreement with, so only url's may stay unexplained.
    let whatwg_peer_built = uridiff::oracle::info(OracleId::Ada).is_some();
    let unexplained = unexplained_cases(|f| whatwg_peer_built || f.oracle != OracleId::Url);
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
}

/// A build without some oracles (`--no-default-features`, or without
/// `--features uriparser`) cannot reproduce
/// the findings recorded with all of them, but each oracle it has must
/// still give every saved input the recorded outcome.
#[cfg(not(all(feature = "ada", feature = "curl", feature = "uriparser")))]
#[test]
fn saved_corpus_outcomes_of_this_builds_oracles_match_the_recording() {
    let built: Vec<&str> = uridiff::oracle::registry()
        .iter()
        .map(|o| o.id.as_str())
        .collect();
    let keep = |text: &str| -> String {
        text.lines()
            .filter(|line| {
                let word = line.split_whitespace().next().unwrap_or_default();
                line.starts_with("input ")
                    || line.starts_with("resolve ")
                    || line.starts_with("  result ")
                    || (line.starts_with("  ") && built.contains(&word))
            })
            .map(|line| format!("{line}\n"))
            .collect()
    };
    let corpus = load(root()).unwrap();
    let set = load_signatures(root()).unwrap();
    let current = keep(&expectations(&corpus, &set));
    let recorded = keep(&std::fs::read_to_string(root().join(EXPECTATIONS)).unwrap());
    assert!(
        recorded == current,
        "outcomes of this build's oracles changed:\n{}",
        diff_text(&recorded, &current)
    );
}

/// corpus/bypasses.txt lists every (validator, fetcher, shape) bypass the
/// saved corpus shows with the default build's oracles: the baseline of
/// the `bypass` fuzz target.
#[cfg(all(feature = "ada", feature = "curl", feature = "uriparser"))]
#[test]
fn saved_corpus_shows_exactly_the_recorded_bypasses() {
    use uridiff::bypass::known::{BYPASSES, known_bypasses, parse_known, render_known};
    let corpus = load(root()).unwrap();
    let current = known_bypasses(&corpus);
    let path = root().join(BYPASSES);
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, render_known(&current)).unwrap();
        return;
    }
    let recorded = parse_known(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let missing: Vec<_> = current
        .keys()
        .filter(|k| !recorded.contains_key(*k))
        .collect();
    let gone: Vec<_> = recorded
        .keys()
        .filter(|k| !current.contains_key(*k))
        .collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "new bypasses: {missing:?}\nno longer shown: {gone:?}\n\
         review, then run `uridiff corpus bless` or `BLESS=1 cargo test --features uriparser --test corpus`"
    );
    assert_eq!(
        recorded, current,
        "the shortest inputs changed: run `uridiff corpus bless`"
    );
    // The first example is among them.
    assert!(recorded.keys().any(|(v, f, _)| v == "url" && f == "curl"));
}
