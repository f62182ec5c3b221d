//! `rfc2396::parse` allocates nothing (the crate's promise: every component
//! is a span of the input), on valid and invalid input of every kind, short
//! and long.
//!
//! Counting uses the `allocation-counter` dev-dependency, whose global
//! allocator wraps `std::alloc::System` and counts per thread (so tests
//! running in parallel threads cannot disturb the count). A hand-written
//! `unsafe impl GlobalAlloc` cannot live here: Cargo.toml's
//! `[lints.rust] unsafe_code = "forbid"` applies to test targets too, and a
//! command-line `forbid` cannot be lifted with `#![allow(unsafe_code)]`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::hint::black_box;

use rfc2396::{Component, parse};

/// Inputs, with whether each is valid. Built before counting starts.
fn inputs() -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = [
        // every RefKind
        ("http://u:p@h.example.com:8080/a/b;p?q=1&r#frag", true),
        ("http://1.2.3.4/", true),
        ("mailto:a@b?x", true),
        ("//h/p", true),
        ("//", true),
        ("/a/b?q", true),
        ("g;x?y#s", true),
        ("", true),
        ("#f", true),
        ("foo://a_b.example/", true),
        ("http://a@b@c/", true),
        ("http://h:/", true),
        ("ftp://@host.com/", true),
        ("http://h/%41%aF", true),
        // every error kind
        ("http://h/\u{1}", false),
        ("http://h/a b", false),
        ("http://h/<", false),
        ("http://h/#a#b", false),
        ("http://[::1]/", false),
        ("http://h/é", false),
        ("日本", false),
        ("http://h/%zz", false),
        ("http://h/%", false),
        ("http:", false),
        ("?y", false),
        ("1:x", false),
    ]
    .iter()
    .map(|&(s, ok)| (s.to_string(), ok))
    .collect();
    let n = 50_000;
    // Long inputs in every component.
    v.push((format!("http://{}.com/", "a".repeat(n)), true));
    v.push((format!("http://{}/", "a_".repeat(n)), true));
    v.push((
        format!("http://{}@h:{}/", "u:".repeat(n), "9".repeat(n)),
        true,
    ));
    v.push((format!("http://h{}", "/seg;p".repeat(n)), true));
    v.push((format!("http://h/?{}", "%41&".repeat(n)), true));
    v.push((format!("http://h/#{}", "/?:@".repeat(n)), true));
    v.push((format!("urn:{}", "x:y?".repeat(n)), true));
    v.push((format!("{}/x", "rel;".repeat(n)), true));
    v.push((format!("http://{}.1.1.1/", "9".repeat(n)), true));
    // Long inputs that fail at the very end.
    v.push((format!("http://h/{} ", "a".repeat(n)), false));
    v.push((format!("http://h/{}%4", "a".repeat(n)), false));
    v.push((format!("{}:", "a1".repeat(n)), false));
    v.push((format!("http://{}[", "a".repeat(n)), false));
    v
}

#[test]
fn parse_allocates_nothing_on_any_input() {
    // The counter does move when this thread allocates: otherwise a zero
    // below would prove nothing.
    let boxed = allocation_counter::measure(|| {
        black_box(Box::new(black_box(7_u64)));
    });
    assert_eq!(boxed.count_total, 1, "a Box is one allocation");
    let grown = allocation_counter::measure(|| {
        let mut s = String::new();
        for _ in 0..100 {
            s.push('x');
        }
        black_box(s);
    });
    assert!(
        grown.count_total >= 2,
        "String growth reallocates: {grown:?}"
    );

    let inputs = inputs();
    // Room for every result, so recording them does not allocate.
    let mut results: Vec<(bool, usize)> = Vec::with_capacity(inputs.len());
    let info = allocation_counter::measure(|| {
        for (input, _) in &inputs {
            let outcome = match parse(black_box(input)) {
                Ok(r) => {
                    // Touch every accessor: they must not allocate either.
                    let mut total = r.path().len() + usize::from(r.kind().is_absolute());
                    for c in Component::ALL {
                        total += r.get(c).map_or(0, str::len);
                        total += r.span(c).map_or(0, |s| s.end);
                    }
                    total += r.authority_kind().map_or(0, |k| k as usize);
                    total += r.host_kind().map_or(0, |k| k as usize);
                    (true, black_box(total))
                }
                Err(e) => (false, black_box(e.index() + e.kind().id().len())),
            };
            results.push(outcome);
        }
    });
    assert_eq!(results.len(), inputs.len());
    assert_eq!(
        info.count_total,
        0,
        "parse allocated {} times ({} bytes) over {} inputs",
        info.count_total,
        info.bytes_total,
        inputs.len()
    );
    // The inputs exercised what they were meant to.
    for ((input, want), (got, _)) in inputs.iter().zip(&results) {
        let shown: String = input.chars().take(40).collect();
        assert_eq!(*got, *want, "validity of {shown:?}…");
    }
}
