//! Decoding corpus files into inputs: one input per file in any fuzz
//! target's format (a reference, a `resolve` pair, a `structured` model,
//! libcurl's text, a bypass template). The saved corpus and `uridiff
//! report` (`report::read`) read through here.

use crate::fuzzing::{CorpusFormat, decode_resolve_pair, render_slots, render_structured};

/// What one corpus file decodes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The input (with a base: the reference).
    pub input: String,
    /// The base, for a pair.
    pub base: Option<String>,
}

/// Decodes one corpus file of a target with this format; `None` when it
/// holds no input (not UTF-8, or too short for the structured model).
pub fn decode(format: CorpusFormat, bytes: Vec<u8>) -> Option<Decoded> {
    let single = |input: String| Decoded { input, base: None };
    match format {
        CorpusFormat::Reference => String::from_utf8(bytes).ok().map(single),
        CorpusFormat::ResolvePair => decode_resolve_pair(&bytes).map(|(base, reference)| Decoded {
            input: reference.to_owned(),
            base: Some(base.to_owned()),
        }),
        CorpusFormat::Structured => render_structured(&bytes).map(single),
        CorpusFormat::BypassTemplate => String::from_utf8(bytes)
            .ok()
            .map(|text| single(render_slots(&text))),
        // The curl_url target reads a base and a reference split at the
        // first NUL, else one URL.
        CorpusFormat::CurlText => {
            let text = String::from_utf8(bytes).ok()?;
            Some(match text.split_once('\0') {
                Some((base, reference)) => Decoded {
                    input: reference.to_owned(),
                    base: Some(base.to_owned()),
                },
                None => single(text),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::encode_resolve_pair;

    #[test]
    fn each_corpus_format_decodes_to_its_input_and_base() {
        assert_eq!(
            decode(CorpusFormat::Reference, b"http://h/".to_vec()),
            Some(Decoded {
                input: "http://h/".into(),
                base: None
            })
        );
        assert_eq!(decode(CorpusFormat::Reference, vec![0xff]), None);
        let pair = encode_resolve_pair("http://a/b", "../g").unwrap();
        assert_eq!(
            decode(CorpusFormat::ResolvePair, pair),
            Some(Decoded {
                input: "../g".into(),
                base: Some("http://a/b".into())
            })
        );
        assert_eq!(
            decode(CorpusFormat::CurlText, b"http://a/\0g".to_vec()),
            Some(Decoded {
                input: "g".into(),
                base: Some("http://a/".into())
            })
        );
        assert_eq!(
            decode(CorpusFormat::CurlText, b"http://a/".to_vec()).map(|d| d.base),
            Some(None)
        );
    }
}
