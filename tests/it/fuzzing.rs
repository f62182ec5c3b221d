//! The pieces the fuzz targets are made of: the structured model reaches
//! deep valid references, the resolve-pair encoding round-trips, and a
//! finding's corpus entry can be pasted into corpus/curated.txt as it is.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use uridiff::corpus::parse_curated;
use uridiff::fuzzing::{corpus_entry, decode_resolve_pair, encode_resolve_pair, render_structured};
use uridiff::rfc2396::{self, Component};

/// A fixed stream of pseudo-random buffers (xorshift), so the test is
/// deterministic.
fn buffers(n: usize) -> Vec<Vec<u8>> {
    let mut state: u64 = 0x2396_2396_2396_2396;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let len = 16 + (next() % 240) as usize;
            (0..len).map(|_| next() as u8).collect()
        })
        .collect()
}

#[test]
fn structured_model_renders_mostly_valid_and_deep_references() {
    let rendered: Vec<String> = buffers(2000)
        .iter()
        .filter_map(|b| render_structured(b))
        .collect();
    assert_eq!(rendered.len(), 2000, "every buffer decodes");
    let valid: Vec<_> = rendered
        .iter()
        .filter_map(|s| rfc2396::parse(s).ok())
        .collect();
    let deep = valid
        .iter()
        .filter(|r| r.scheme().is_some() && r.host().is_some() && r.path().len() > 1)
        .count();
    assert!(
        valid.len() * 100 >= rendered.len() * 40,
        "only {} of {} valid ({deep} deep)",
        valid.len(),
        rendered.len()
    );
    assert!(
        deep * 100 >= rendered.len() * 3,
        "only {deep} of {} are deep",
        rendered.len()
    );
    // Byte mutation of the same buffers, read as URIs, is almost never valid.
    let raw_valid = buffers(2000)
        .iter()
        .filter_map(|b| std::str::from_utf8(b).ok())
        .filter(|s| rfc2396::parse(s).is_ok_and(|r| r.get(Component::Host).is_some()))
        .count();
    assert!(
        raw_valid < deep,
        "raw bytes gave {raw_valid} hosted references, the model {deep}"
    );
}

#[test]
fn structured_model_renders_each_mutation_somewhere() {
    let rendered: Vec<String> = buffers(4000)
        .iter()
        .filter_map(|b| render_structured(b))
        .collect();
    let has = |f: &dyn Fn(&str) -> bool| rendered.iter().any(|s| f(s));
    assert!(has(&|s| s.contains('[')), "bracketed hosts");
    assert!(has(&|s| s.contains("//@")), "empty userinfo");
    assert!(has(&|s| s.contains('\\')), "backslashes");
    assert!(has(&|s| s.contains('\t') || s.contains(' ')), "whitespace");
    assert!(
        has(&|s| s.contains("/../") || s.ends_with("/..")),
        "dot segments"
    );
    assert!(has(&|s| !s.is_ascii()), "non-ASCII");
    assert!(has(&|s| s.contains("%z")), "bad escapes");
    assert!(has(&|s| s.contains("0x")), "IPv4 number forms");
}

/// The structured model's decoding is pinned. A corpus/structured/ file is
/// a libFuzzer input that means a URI only through this decoding: a changed
/// weight, length cap or order of reads would silently turn every saved input
/// into another URI (and what the saved corpus covers with it). The digest
/// is over the renders of the same pseudo-random buffers as above; change it
/// only together with a new structured corpus.
#[test]
fn structured_model_decoding_is_pinned() {
    let mut renders = String::new();
    for b in buffers(2000) {
        renders.push_str(&format!("{:?}\n", render_structured(&b)));
    }
    assert_eq!(
        sha1_smol::Sha1::from(&renders).digest().to_string(),
        "e812372c6cc64424ab4ee5be2ff73f96d4c0e858"
    );
}

proptest! {
    #[test]
    fn resolve_pair_encoding_round_trips(base in "[ -~]{0,60}", reference in "[ -~é]{0,60}") {
        let bytes = encode_resolve_pair(&base, &reference).unwrap();
        prop_assert_eq!(decode_resolve_pair(&bytes), Some((base.as_str(), reference.as_str())));
    }
}

#[test]
fn corpus_entry_pastes_into_curated_txt_as_the_same_input() {
    for input in ["http://a_b.example/", " x\t\"y\"\n", "http://h/é"] {
        let case = uridiff::check(input);
        let entry = corpus_entry(&case, "found by a test");
        assert!(entry.starts_with("# found by a test:"), "{entry}");
        let parsed = parse_curated(&entry).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].1, input);
    }
}

/// The `name = "..."` / `version = "..."` pairs of a Cargo.lock.
fn locked_versions(lock: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut versions = std::collections::BTreeMap::<String, Vec<String>>::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_owned());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            versions
                .entry(n)
                .or_default()
                .push(v.trim_matches('"').to_owned());
        }
    }
    versions
}

/// The fuzz crate has its own workspace and lock file. The saved corpus's
/// expectations are recorded by `cargo test` but replayed by the fuzz
/// binaries too, and structured inputs are decoded by `arbitrary`: both
/// builds must use the same oracle and decoder versions, or the fuzzers
/// and the tests would check different things.
#[test]
fn fuzz_lock_file_pins_the_same_oracles_and_decoder_as_the_main_one() {
    let root = env!("CARGO_MANIFEST_DIR");
    let main = locked_versions(&std::fs::read_to_string(format!("{root}/Cargo.lock")).unwrap());
    let fuzz =
        locked_versions(&std::fs::read_to_string(format!("{root}/fuzz/Cargo.lock")).unwrap());
    for krate in [
        "url",
        "http",
        "fluent-uri",
        "arbitrary",
        "idna",
        "percent-encoding",
        "iri-string",
        "ada-url",
        "curl-sys",
        "uriparser-ffi",
    ] {
        let (m, f) = (main.get(krate), fuzz.get(krate));
        assert!(m.is_some(), "{krate} is not in Cargo.lock");
        assert_eq!(m, f, "{krate}: Cargo.lock and fuzz/Cargo.lock differ");
    }
}

#[cfg(feature = "ada")]
#[test]
fn an_undecided_peer_disagreement_is_new_only_when_neither_peer_has_its_decided_signature() {
    use std::collections::BTreeSet;
    use uridiff::Signature;
    use uridiff::triage::{Class, Decision};
    // check() (the fuzz targets' pipeline) has no WHATWG reference: the
    // disagreement between url and ada names them in registry order.
    let case = uridiff::check("http://10.0.0.xn--pokxncvks");
    let peer = case
        .findings
        .iter()
        .find(|f| f.class == Class::PeerDisagreement)
        .unwrap();
    assert_eq!(peer.decided_by, Decision::Undecided);
    assert_eq!(peer.oracle.as_str(), "url");
    // The saved corpus, blessed with the reference, blames ada.
    let decided: BTreeSet<Signature> =
        ["peer-disagreement/defect/ada/verdict".parse().unwrap()].into();
    assert!(
        uridiff::fuzzing::new_defects(&case, &decided)
            .iter()
            .all(|f| f.class != Class::PeerDisagreement)
    );
    let other: BTreeSet<Signature> = ["peer-disagreement/defect/ada/host".parse().unwrap()].into();
    assert!(
        uridiff::fuzzing::new_defects(&case, &other)
            .iter()
            .any(|f| f.class == Class::PeerDisagreement)
    );
}
