//! Inputs built around two host slots (U+0001 the allowed host's, U+0002
//! the target's), filled with allowed.example and evil.example and checked
//! with every in-process oracle: a (validator, fetcher, shape) bypass that
//! `corpus/bypasses.txt` does not list panics with the saved-corpus entry,
//! so a campaign hunts bypasses directly.
#![no_main]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use uridiff::bypass::known::{Triple, new_bypasses, parse_known, render_slots};

/// The triples `corpus/bypasses.txt` records, read at build time.
fn known() -> &'static BTreeSet<Triple> {
    static KNOWN: OnceLock<BTreeSet<Triple>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        parse_known(include_str!("../../corpus/bypasses.txt"))
            .map(|known| known.into_keys().collect())
            .unwrap_or_default()
    })
}

#[inline(never)]
fn new_bypass(input: &str, found: &[uridiff::bypass::Bypass]) -> ! {
    let mut message = String::from("bypass that corpus/bypasses.txt does not know:\n");
    for b in found {
        message.push_str(&format!(
            "  {} -> {} (shape {}): {} reads {:?}, {} reads {:?}\n",
            b.validator, b.fetcher, b.shape, b.validator, b.validator_host, b.fetcher, b.fetcher_host
        ));
    }
    message.push_str(&format!(
        "input {input:?}\nkeep it: uridiff corpus add bypass <this crash file>, then uridiff corpus bless"
    ));
    panic!("{message}");
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let input = render_slots(text);
        let case = uridiff::check(&input);
        let found = new_bypasses(&case, known());
        if !found.is_empty() {
            new_bypass(&input, &found);
        }
    }
});
