//! The generic engine: notations, readings, ambiguity, errors and limits,
//! on small grammars written for each property.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use grammar::{ByteSet, Grammar, Limits, ParseError};

fn spans(g: &Grammar, start: &str, tracked: &[&str], input: &str) -> Vec<String> {
    let p = g.parser(start, tracked).unwrap();
    p.readings(input.as_bytes())
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn abnf_repetition_forms_match_their_counts() {
    let g = Grammar::abnf(
        "exact = 3\"a\"\nrange = 2*3\"a\"\natleast = 2*\"a\"\natmost = *2\"a\"\nany = *\"a\"\nopt = [\"a\"]\nnone = 0\"a\"\n",
    )
    .unwrap();
    let accepts = |rule: &str, n: usize| {
        g.parser(rule, &[])
            .unwrap()
            .parse("a".repeat(n).as_bytes())
            .is_ok()
    };
    type Count = fn(usize) -> bool;
    let table: [(&str, Count); 7] = [
        ("exact", |n| n == 3),
        ("range", |n| (2..=3).contains(&n)),
        ("atleast", |n| n >= 2),
        ("atmost", |n| n <= 2),
        ("any", |_| true),
        ("opt", |n| n <= 1),
        ("none", |n| n == 0),
    ];
    for (rule, ok) in table {
        for n in 0..10 {
            assert_eq!(accepts(rule, n), ok(n), "{rule} on {n}");
        }
    }
}

#[test]
fn abnf_literals_are_case_insensitive_and_numeric_values_are_not() {
    let g = Grammar::abnf("a = \"Ab\" %x63 %s\"D\" %i\"e\" %x66-67\n").unwrap();
    let p = g.parser("a", &[]).unwrap();
    for ok in ["abcDef", "ABcDEg", "aBcDEf"] {
        assert!(p.parse(ok.as_bytes()).is_ok(), "{ok}");
    }
    for bad in ["abCDef", "abcdef", "abcDeh"] {
        assert!(p.parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn core_rules_are_those_of_rfc_5234_appendix_b() {
    let g = Grammar::abnf("x = ALPHA DIGIT HEXDIG SP HTAB VCHAR DQUOTE CRLF\n").unwrap();
    let p = g.parser("x", &[]).unwrap();
    assert!(p.parse(b"z9f \t~\"\r\n").is_ok());
    assert!(p.parse(b"Z0A \t!\"\r\n").is_ok());
    // HEXDIG's letters are case-insensitive literals (RFC 5234 section 2.3).
    assert!(p.parse(b"a1F \t!\"\r\n").is_ok());
    assert!(p.parse(b"a1g \t!\"\r\n").is_err());
    assert!(g.is_core_rule("HEXDIG") && g.is_core_rule("DIGIT"));
}

#[test]
fn every_reading_of_an_ambiguous_grammar_is_listed() {
    // "xxx" is x|xx or xx|x.
    let g = Grammar::abnf("s = a a\na = \"x\" / \"xx\"\n").unwrap();
    assert_eq!(
        spans(&g, "s", &["a"], "xxx"),
        ["a@0..1 a@1..3", "a@0..2 a@2..3"]
    );
    // Derivations that differ only below the tracked rules are one reading.
    assert_eq!(spans(&g, "s", &["s"], "xxx"), ["s@0..3"]);
    // Catalan growth is bounded by the limit, as an error.
    let g = Grammar::abnf("e = e e / \"x\"\n").unwrap();
    let p = g.parser("e", &["e"]).unwrap().with_limits(Limits {
        max_readings: 10,
        ..Limits::default()
    });
    assert_eq!(p.readings(b"xxx").unwrap().len(), 2);
    assert_eq!(
        p.readings(b"xxxxxx").unwrap_err(),
        ParseError::TooManyReadings { limit: 10 }
    );
}

#[test]
fn an_empty_match_is_a_present_empty_node() {
    let g = Grammar::abnf("u = [ \"?\" q ] [ \"#\" f ]\nq = *\"a\"\nf = *\"a\"\n").unwrap();
    assert_eq!(spans(&g, "u", &["q", "f"], "?#"), ["q@1..1 f@2..2"]);
    assert_eq!(spans(&g, "u", &["q", "f"], "#"), ["f@1..1"]);
    assert_eq!(spans(&g, "u", &["q", "f"], ""), [""]);
    // The empty input of a nullable start rule.
    let p = g.parser("q", &["q"]).unwrap();
    assert_eq!(p.readings(b"").unwrap()[0].get("q"), Some(0..0));
}

#[test]
fn left_right_and_cyclic_recursion_all_parse() {
    let g = Grammar::abnf("l = l \"a\" / \"a\"\nr = \"a\" r / \"a\"\nc = c / \"a\"\n").unwrap();
    for rule in ["l", "r"] {
        let p = g.parser(rule, &[rule]).unwrap();
        let readings = p.readings("a".repeat(50).as_bytes()).unwrap();
        assert_eq!(readings.len(), 1);
        assert_eq!(readings[0].all(rule).count(), 50, "{rule}");
    }
    // `c = c` is a cycle: the reading is still found, once.
    let p = g.parser("c", &["c"]).unwrap();
    assert_eq!(p.readings(b"a").unwrap().len(), 1);
}

#[test]
fn a_rejection_names_the_first_offending_byte_and_what_was_expected() {
    let g = Grammar::abnf("s = 1*DIGIT \".\" 1*DIGIT\n").unwrap();
    let p = g.parser("s", &[]).unwrap();
    match p.parse(b"12x3").unwrap_err() {
        ParseError::Rejected {
            index,
            found,
            expected,
            rules,
        } => {
            assert_eq!(index, 2);
            assert_eq!(found, Some(b'x'));
            assert_eq!(
                expected,
                ByteSet::range(b'0', b'9').union(&ByteSet::single(b'.'))
            );
            assert_eq!(rules, ["s"]);
        }
        other => panic!("{other:?}"),
    }
    let e = p.parse(b"12.").unwrap_err();
    assert_eq!(e.index(), Some(3));
    assert_eq!(
        e.to_string(),
        "the input ends too early, at 3; expected \"0\"-\"9\" (in `s`)"
    );
    let e = p.parse(b"").unwrap_err();
    assert_eq!(e.index(), Some(0));
    let e = p.parse(b"x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte 0 ('x') is not allowed here; expected \"0\"-\"9\" (in `s`)"
    );
}

#[test]
fn limits_are_errors_not_cuts() {
    let g = Grammar::abnf("s = *\"a\"\n").unwrap();
    let small = Limits {
        max_input: 8,
        ..Limits::default()
    };
    let p = g.parser("s", &[]).unwrap().with_limits(small);
    assert!(p.parse(b"aaaaaaaa").is_ok());
    assert_eq!(
        p.parse(b"aaaaaaaaa").unwrap_err(),
        ParseError::TooLong { len: 9, limit: 8 }
    );
    let p = g.parser("s", &[]).unwrap().with_limits(Limits {
        max_items: 20,
        ..Limits::default()
    });
    assert_eq!(
        p.parse("a".repeat(100).as_bytes()).unwrap_err(),
        ParseError::TooManyItems { limit: 20 }
    );
    // A tracked rule under a repetition nests one level per repetition.
    let g = Grammar::abnf("s = *t\nt = \"a\"\n").unwrap();
    let p = g.parser("s", &["t"]).unwrap().with_limits(Limits {
        max_depth: 20,
        ..Limits::default()
    });
    assert_eq!(p.readings(b"aaa").unwrap()[0].all("t").count(), 3);
    assert_eq!(
        p.readings("a".repeat(40).as_bytes()).unwrap_err(),
        ParseError::TooDeep { limit: 20 }
    );
}

#[test]
fn start_and_tracked_rules_must_exist() {
    let g = Grammar::abnf("s = \"a\"\n").unwrap();
    assert!(
        g.parser("t", &[])
            .unwrap_err()
            .to_string()
            .contains("start rule `t`")
    );
    assert!(
        g.parser("s", &["u"])
            .unwrap_err()
            .to_string()
            .contains("tracked rule `u`")
    );
}

#[test]
fn bnf_range_shorthand_and_the_spelled_out_rules_are_one_language() {
    let spelled = Grammar::bnf(
        r#"lowalpha = "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" |
           "j" | "k" | "l" | "m" | "n" | "o" | "p" | "q" | "r" |
           "s" | "t" | "u" | "v" | "w" | "x" | "y" | "z"
upalpha  = "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I" |
           "J" | "K" | "L" | "M" | "N" | "O" | "P" | "Q" | "R" |
           "S" | "T" | "U" | "V" | "W" | "X" | "Y" | "Z"
digit    = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" |
           "8" | "9"
"#,
    )
    .unwrap();
    let short = Grammar::bnf(
        r#"lowalpha = "a" .. "z"        upalpha = "A" .. "Z"        digit = "0" .. "9""#,
    )
    .unwrap();
    for rule in ["lowalpha", "upalpha", "digit"] {
        let a = spelled.parser(rule, &[]).unwrap();
        let b = short.parser(rule, &[]).unwrap();
        for byte in 0..=255u8 {
            assert_eq!(
                a.parse(&[byte]).is_ok(),
                b.parse(&[byte]).is_ok(),
                "{rule} {byte}"
            );
        }
    }
}

#[test]
fn inputs_are_bytes_and_non_ascii_is_refused_by_an_ascii_grammar() {
    let g = Grammar::abnf("s = *VCHAR\n").unwrap();
    let p = g.parser("s", &[]).unwrap();
    assert_eq!(p.parse("ab\u{e9}".as_bytes()).unwrap_err().index(), Some(2));
    assert!(
        Grammar::abnf("s = %x80-FF\n")
            .unwrap()
            .parser("s", &[])
            .unwrap()
            .parse(&[0xC3])
            .is_ok()
    );
}
