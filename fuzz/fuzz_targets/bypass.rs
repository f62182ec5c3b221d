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

/// The panic for a new bypass, one function per bucket: libFuzzer's fork
/// mode (what scripts/fuzz.sh runs) keeps one crash per stack
/// (`DEDUP_TOKEN`), so bypasses of different (validator, fetcher, shape)
/// triples must panic from different functions to be kept apart. The
/// bucket is a hash of the first new triple, so one triple always lands in
/// the same function.
#[inline(never)]
fn new_bypass<const BUCKET: usize>(input: &str, found: &[uridiff::bypass::Bypass]) -> ! {
    let mut message = String::from("bypass that corpus/bypasses.txt does not know:\n");
    for b in found {
        message.push_str(&format!(
            "  {} -> {} (shape {}): {} reads {:?}, {} reads {:?}\n",
            b.validator,
            b.fetcher,
            b.shape,
            b.validator,
            b.validator_host,
            b.fetcher,
            b.fetcher_host
        ));
    }
    message.push_str(&format!(
        "input {input:?}\nkeep it: uridiff corpus add bypass <this crash file>, then uridiff corpus bless"
    ));
    panic!("{message}");
}

fuzz_target!(init: sancov_wide::init_text(), |data: &[u8]| {
    // Both slots or nothing: an input without them cannot show a bypass,
    // and running it would only grow the corpus with inputs that never
    // will (the differential target covers those).
    if let Ok(text) = std::str::from_utf8(data)
        && text.contains('\u{1}')
        && text.contains('\u{2}')
    {
        let input = render_slots(text);
        let case = uridiff::check(&input);
        let found = new_bypasses(&case, known());
        if let Some(first) = found.first() {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            std::hash::Hash::hash(&(&first.validator, &first.fetcher, &first.shape), &mut hasher);
            let bucket = std::hash::Hasher::finish(&hasher) % 16;
            // One arm per bucket: each a function of its own.
            macro_rules! dispatch {
                ($($n:literal)*) => {
                    match bucket {
                        $($n => new_bypass::<$n>(&input, &found),)*
                        _ => new_bypass::<16>(&input, &found),
                    }
                };
            }
            dispatch!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        }
    }
});
