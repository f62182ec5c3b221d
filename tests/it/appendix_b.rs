//! The Appendix B oracle is the RFC's regular expression: the hand-written
//! split must agree with the `regex` crate running the expression itself.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use regex::Regex;
use uridiff::oracle::appendix_b_split;

/// RFC 2396 Appendix B, with `(?s)` so that `.` is any character (the
/// expression's intent: the fragment is the rest of the string).
const APPENDIX_B: &str = r"(?s)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?";

fn agree(re: &Regex, input: &str) -> Result<(), TestCaseError> {
    let caps = re.captures(input).unwrap();
    let s = appendix_b_split(input);
    prop_assert_eq!(
        s.scheme,
        caps.get(2).map(|m| m.as_str()),
        "scheme of {:?}",
        input
    );
    prop_assert_eq!(
        s.authority,
        caps.get(4).map(|m| m.as_str()),
        "authority of {:?}",
        input
    );
    prop_assert_eq!(
        s.path,
        caps.get(5).map_or("", |m| m.as_str()),
        "path of {:?}",
        input
    );
    prop_assert_eq!(
        s.query,
        caps.get(7).map(|m| m.as_str()),
        "query of {:?}",
        input
    );
    prop_assert_eq!(
        s.fragment,
        caps.get(9).map(|m| m.as_str()),
        "fragment of {:?}",
        input
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn split_equals_the_appendix_b_regex_on_delimiter_heavy_strings(input in "[a:/?#@.\\n é]{0,24}") {
        agree(&Regex::new(APPENDIX_B).unwrap(), &input)?;
    }

    #[test]
    fn split_equals_the_appendix_b_regex_on_any_string(input in any::<String>()) {
        agree(&Regex::new(APPENDIX_B).unwrap(), &input)?;
    }
}

#[test]
fn split_equals_the_appendix_b_regex_on_the_real_url_set() {
    let re = Regex::new(APPENDIX_B).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/urls.txt"
    ))
    .unwrap();
    for line in text.lines() {
        agree(&re, line).unwrap();
    }
}
