//! The strict RFC 2396 parser against RFC 2396 Appendix A run as text
//! (`uridiff::fuzzing::rfc2396_grammar_agrees`, part of the `parse` fuzz
//! target's invariants): the same language, the strict reading among the
//! grammar's, on the saved corpus, on generated URI-ish strings, and at
//! the engine's limits.

use proptest::prelude::*;
use uridiff::corpus::load;
use uridiff::fuzzing::rfc2396_grammar_agrees;

use crate::util::root;

#[test]
fn strict_parser_and_rfc2396_grammar_agree_on_the_saved_corpus() {
    let corpus = load(&root().join("corpus")).unwrap();
    let mut inputs: Vec<&str> = corpus.inputs.keys().map(String::as_str).collect();
    for (base, reference) in corpus.pairs.keys() {
        inputs.push(base);
        inputs.push(reference);
    }
    assert!(inputs.len() > 1000, "{} inputs", inputs.len());
    let broken: Vec<String> = inputs
        .iter()
        .filter_map(|input| {
            rfc2396_grammar_agrees(input)
                .err()
                .map(|e| format!("{input:?}: {e}"))
        })
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn inputs_beyond_the_grammar_limits_are_not_compared() {
    // 16 KiB is the engine's default longest input: the strict parser
    // accepts this one and the grammar has no answer, which is no
    // disagreement.
    let long = format!("http://a/{}", "b".repeat(20_000));
    assert!(uridiff::rfc2396::parse(&long).is_ok());
    assert_eq!(rfc2396_grammar_agrees(&long), Ok(()));
    assert_eq!(uridiff::fuzzing::parse_invariants(&long), Ok(()));
}

/// URI-ish strings: each part drawn from the characters that decide
/// RFC 2396's productions (delimiters, `server` against `reg_name`
/// characters, escapes good and bad, excluded characters).
fn uri_ish() -> impl Strategy<Value = String> {
    let part = |chars: &'static str, max: usize| {
        proptest::collection::vec(
            proptest::sample::select(chars.chars().collect::<Vec<_>>()),
            0..max,
        )
        .prop_map(|v| v.into_iter().collect::<String>())
    };
    (
        proptest::option::of(part("aZ9+-.:", 5)),
        proptest::option::of(part("aZ09.-_@:;&=+$,%4[]", 14)),
        part("aZ0/;:@&=+$,.-!~*'()%2E?# ", 14),
        proptest::option::of(part("a/?:@%#[", 6)),
        proptest::option::of(part("a/?#%", 4)),
    )
        .prop_map(|(scheme, authority, path, query, fragment)| {
            let mut s = String::new();
            if let Some(x) = scheme {
                s.push_str(&x);
                s.push(':');
            }
            if let Some(x) = authority {
                s.push_str("//");
                s.push_str(&x);
            }
            s.push_str(&path);
            if let Some(x) = query {
                s.push('?');
                s.push_str(&x);
            }
            if let Some(x) = fragment {
                s.push('#');
                s.push_str(&x);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn prop_strict_parser_and_rfc2396_grammar_agree_on_uri_ish_strings(
        input in prop_oneof![uri_ish(), "[ -~]{0,24}", "[a1./:@?#%;]{0,16}"],
    ) {
        if let Err(e) = rfc2396_grammar_agrees(&input) {
            prop_assert!(false, "{:?}: {}", input, e);
        }
    }
}
