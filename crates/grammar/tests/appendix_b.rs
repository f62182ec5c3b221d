//! RFC 3986 Appendix B: for every URI-reference the grammar accepts, the
//! Appendix B regular expression
//! `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?` splits it into
//! the same scheme, authority, path, query and fragment. The RFC states the
//! two agree ("the 'first-match-wins' algorithm is identical to the 'greedy'
//! disambiguation method used by POSIX regular expressions"); the split is
//! written out here by hand, one group at a time.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::ops::Range;

use grammar::rfc3986::Rfc3986;
use proptest::prelude::*;

/// Groups 2, 4, 5, 7 and 9 of the Appendix B expression.
struct Split {
    scheme: Option<Range<usize>>,
    authority: Option<Range<usize>>,
    path: Range<usize>,
    query: Option<Range<usize>>,
    fragment: Option<Range<usize>>,
}

fn appendix_b(s: &str) -> Split {
    let b = s.as_bytes();
    let upto = |from: usize, stops: &[u8]| {
        b[from..]
            .iter()
            .position(|c| stops.contains(c))
            .map_or(b.len(), |i| from + i)
    };
    // (([^:/?#]+):)?
    let first = upto(0, b":/?#");
    let (scheme, mut i) = if first > 0 && b.get(first) == Some(&b':') {
        (Some(0..first), first + 1)
    } else {
        (None, 0)
    };
    // (//([^/?#]*))?
    let authority = if b[i..].starts_with(b"//") {
        let end = upto(i + 2, b"/?#");
        let a = i + 2..end;
        i = end;
        Some(a)
    } else {
        None
    };
    // ([^?#]*)
    let end = upto(i, b"?#");
    let path = i..end;
    i = end;
    // (\?([^#]*))?
    let query = if b.get(i) == Some(&b'?') {
        let end = upto(i + 1, b"#");
        let q = i + 1..end;
        i = end;
        Some(q)
    } else {
        None
    };
    // (#(.*))?
    let fragment = (b.get(i) == Some(&b'#')).then(|| i + 1..b.len());
    Split {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn agrees(input: &str) -> Result<bool, String> {
    let rfc = Rfc3986::get().unwrap();
    let Ok(outcome) = rfc.parse(input) else {
        return Ok(false);
    };
    let c = outcome
        .unique()
        .ok_or_else(|| format!("{input:?}: ambiguous"))?;
    let s = appendix_b(input);
    let got = (&c.scheme, &c.authority, &c.path, &c.query, &c.fragment);
    let want = (&s.scheme, &s.authority, &s.path, &s.query, &s.fragment);
    if got == want {
        Ok(true)
    } else {
        Err(format!("{input:?}: grammar {got:?}, Appendix B {want:?}"))
    }
}

#[test]
fn appendix_b_example_and_rfc_examples() {
    for input in [
        "http://www.ics.uci.edu/pub/ietf/uri/#Related",
        "foo://example.com:8042/over/there?name=ferret#nose",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "",
        "//",
        "?",
        "#",
        "a:",
        "a:b:c",
        "./a:b",
    ] {
        assert_eq!(agrees(input), Ok(true), "{input}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_accepted_reference_splits_as_appendix_b_splits_it(
        input in prop_oneof![
            "[a-z0-9:/?#@.\\[\\]%]{0,20}",
            "([a-z][a-z0-9+.-]{0,3}:)?(//[a-z0-9:@.\\[\\]%-]{0,12})?[a-z0-9/:@.%;=]{0,12}(\\?[a-z/?:#]{0,5})?(#[a-z/?#]{0,5})?",
        ],
    ) {
        if let Err(e) = agrees(&input) {
            prop_assert!(false, "{}", e);
        }
    }
}
