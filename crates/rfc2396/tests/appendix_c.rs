//! RFC 2396 Appendix C: every example, against the base `http://a/b/c/d;p?q`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use rfc2396::{ResolveError, resolve};

const BASE: &str = "http://a/b/c/d;p?q";

/// C.1 normal examples and C.2 abnormal examples, as the RFC prints them.
/// `#s` and the empty reference are "the current document": the base without
/// its fragment (plus `#s`).
const TABLE: &[(&str, &str)] = &[
    // C.1 Normal Examples
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    // C.2 Abnormal Examples
    ("", "http://a/b/c/d;p?q"),
    ("../../../g", "http://a/../g"),
    ("../../../../g", "http://a/../../g"),
    ("/./g", "http://a/./g"),
    ("/../g", "http://a/../g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

#[test]
fn every_appendix_c_example_resolves_as_printed() {
    let mut failures = Vec::new();
    for &(reference, expected) in TABLE {
        match resolve(BASE, reference) {
            Ok(got) if got == expected => {}
            other => failures.push(format!(
                "{reference:?}: expected {expected:?}, got {other:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn appendix_c_table_is_complete() {
    // 22 normal + 20 abnormal rows (the empty reference and http:g included).
    assert_eq!(TABLE.len(), 42);
}

#[test]
fn base_fragment_is_dropped_for_the_current_document() {
    assert_eq!(resolve("http://a/b#f", "").unwrap(), "http://a/b");
    assert_eq!(resolve("http://a/b#f", "#g").unwrap(), "http://a/b#g");
}

#[test]
fn invalid_base_or_reference_is_an_error_not_a_guess() {
    assert!(matches!(
        resolve("http://[::1]/", "g"),
        Err(ResolveError::InvalidBase(e)) if e.index() == 7
    ));
    assert!(matches!(
        resolve(BASE, "g h"),
        Err(ResolveError::InvalidReference(e)) if e.index() == 1
    ));
}
