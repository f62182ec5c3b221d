//! The protocol's lines: the hello, the requests uridiff writes and the
//! answers it reads (the module documentation of
//! [`external`](super) is the specification).

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::components::{Component, ComponentSet, Components, component_name};
use crate::oracle::{MISSING_NOTE, Note, Outcome};

/// The newest protocol version this client speaks; it speaks every
/// version from 1 up to this one.
pub const PROTOCOL_VERSION: u64 = 2;

/// The longest hello line.
pub const HELLO_LINE_LIMIT: usize = 64 << 10;

/// What the command said about itself in its hello line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hello {
    /// The protocol version it speaks (1 or 2).
    pub protocol: u64,
    /// The parser, with its version.
    pub parser: String,
    /// The standard it implements.
    pub standard: String,
    /// The runtime that runs it (v2, optional), e.g. `CPython 3.11.7`.
    pub runtime: Option<String>,
}

impl Hello {
    /// Does this protocol version carry ids and bases (version 2)?
    pub(crate) fn has_ids(&self) -> bool {
        self.protocol >= 2
    }
}

/// Reads a hello line: a JSON object with `uridiff_protocol` 1 or 2,
/// `parser` and `standard` strings, and optionally `runtime`.
pub(super) fn parse_hello(line: &[u8]) -> Result<Hello, String> {
    let value: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("not JSON: {e}"))?;
    let object = value
        .as_object()
        .ok_or_else(|| "not a JSON object".to_owned())?;
    let protocol = match object.get("uridiff_protocol") {
        None => return Err("no \"uridiff_protocol\" key".to_owned()),
        Some(v) => match v.as_u64() {
            Some(n @ 1..=PROTOCOL_VERSION) => n,
            _ => {
                return Err(format!(
                    "protocol version {v}; this uridiff speaks 1 to {PROTOCOL_VERSION}"
                ));
            }
        },
    };
    let text = |key: &str| match object.get(key) {
        Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
        Some(serde_json::Value::Null) | None => Ok(None),
        Some(_) => Err(format!("\"{key}\" is not a string")),
    };
    let required = |key: &str| text(key)?.ok_or_else(|| format!("no \"{key}\" key"));
    Ok(Hello {
        protocol,
        parser: required("parser")?,
        standard: required("standard")?,
        runtime: if protocol >= 2 {
            text("runtime")?
        } else {
            None
        },
    })
}

/// One v2 request line.
#[derive(Serialize)]
struct Request<'a> {
    id: u64,
    input: &'a str,
    base: Option<&'a str>,
}

/// Appends one request line to `buf`: under v1 the input as a JSON string,
/// under v2 `{"id", "input", "base"}`.
pub(super) fn encode_request(
    buf: &mut Vec<u8>,
    v2: bool,
    id: u64,
    input: &str,
    base: Option<&str>,
) -> serde_json::Result<()> {
    if v2 {
        serde_json::to_writer(&mut *buf, &Request { id, input, base })?;
    } else {
        serde_json::to_writer(&mut *buf, input)?;
    }
    buf.push(b'\n');
    Ok(())
}

/// One answer line, read key by key: the components by their names
/// ([`component_name`]), so the list of components lives in one place.
#[derive(Debug, Default)]
pub(super) struct Answer {
    /// `id` (v2).
    pub id: Option<u64>,
    verdict: Option<WireVerdict>,
    message: Option<String>,
    resolved: Option<String>,
    notes: Vec<String>,
    /// The components whose key is there (reported), and their values
    /// (`None`: `null`, absent).
    reported: ComponentSet,
    values: Vec<(Component, Option<String>)>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum WireVerdict {
    Accept,
    Reject,
    OutOfDomain,
}

/// A key of an answer object.
enum Key {
    Id,
    Verdict,
    Message,
    Resolved,
    Notes,
    Component(Component),
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "id" => Key::Id,
                    "verdict" => Key::Verdict,
                    "message" => Key::Message,
                    "resolved" => Key::Resolved,
                    "notes" => Key::Notes,
                    _ => Component::ALL
                        .into_iter()
                        .find(|&c| component_name(c) == key)
                        .map_or(Key::Other, Key::Component),
                })
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Answer, D::Error> {
        struct AnswerVisitor;
        impl<'de> Visitor<'de> for AnswerVisitor {
            type Value = Answer;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an answer object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Answer, A::Error> {
                let mut answer = Answer::default();
                let mut seen: u16 = 0;
                while let Some(key) = map.next_key::<Key>()? {
                    // One bit per known key: a repeated key is refused (which
                    // of the two would count is the writer's guess).
                    let (bit, name) = match &key {
                        Key::Id => (1u16 << 8, "id"),
                        Key::Verdict => (1 << 9, "verdict"),
                        Key::Message => (1 << 10, "message"),
                        Key::Resolved => (1 << 11, "resolved"),
                        Key::Notes => (1 << 12, "notes"),
                        Key::Component(c) => (1 << (*c as u16), component_name(*c)),
                        Key::Other => (0, ""),
                    };
                    if seen & bit != 0 {
                        return Err(de::Error::custom(format_args!("duplicate key \"{name}\"")));
                    }
                    seen |= bit;
                    match key {
                        Key::Id => answer.id = Some(map.next_value()?),
                        Key::Verdict => answer.verdict = Some(map.next_value()?),
                        Key::Message => answer.message = map.next_value()?,
                        Key::Resolved => answer.resolved = map.next_value()?,
                        Key::Notes => {
                            answer.notes =
                                map.next_value::<Option<Vec<String>>>()?.unwrap_or_default();
                        }
                        Key::Component(c) => {
                            let value: Option<String> = map.next_value()?;
                            answer.reported = answer.reported.with(c);
                            answer.values.push((c, value));
                        }
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(answer)
            }
        }
        d.deserialize_map(AnswerVisitor)
    }
}

/// Reads one answer line: its id (when it has one) and the outcome.
pub(super) fn parse_answer(line: &[u8]) -> Result<(Option<u64>, Outcome<'static>), String> {
    // serde would take a JSON array for a map visitor's input in some
    // formats; the protocol wants an object.
    if line.trim_ascii_start().first() != Some(&b'{') {
        return Err(match serde_json::from_slice::<IgnoredAny>(line) {
            Ok(_) => "JSON, but not an object".to_owned(),
            Err(e) => e.to_string(),
        });
    }
    let answer: Answer = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let Some(verdict) = answer.verdict else {
        return Err("no \"verdict\" key".to_owned());
    };
    let message = answer.message.unwrap_or_default();
    let mut outcome = match verdict {
        WireVerdict::Reject => Outcome::reject(message),
        WireVerdict::OutOfDomain => Outcome::out_of_domain(message),
        WireVerdict::Accept => {
            // Components are read only from an acceptance.
            let mut components = Components::new(answer.reported);
            for (c, value) in answer.values {
                components.set(c, value);
            }
            let mut outcome = Outcome::accept(components);
            // The parser's own serialization of the resolved URI (v2
            // pairs), kept where in-process oracles keep theirs.
            outcome.serialization = answer.resolved.map(Into::into);
            outcome
        }
    };
    for note in &answer.notes {
        outcome.note(adapter_note(note)?);
    }
    Ok((answer.id, outcome))
}

/// The longest note an adapter may send.
const NOTE_MAX: usize = 64;

/// An adapter's note: a short stable id (`filter-validate-url:reject`), 1
/// to [`NOTE_MAX`] printable ASCII characters, never the text that marks
/// a missing outcome (uridiff's own: an adapter cannot fake one).
fn adapter_note(note: &str) -> Result<Note, String> {
    if note.is_empty() || note.len() > NOTE_MAX || !note.bytes().all(|b| (b' '..=b'~').contains(&b))
    {
        return Err(format!(
            "the note {note:?} is not 1 to {NOTE_MAX} printable ASCII characters"
        ));
    }
    if note == MISSING_NOTE {
        return Err(format!("a note that only uridiff may set ({MISSING_NOTE})"));
    }
    Ok(Note::Adapter(note.into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Verdict;

    fn outcome(line: &[u8]) -> Outcome<'static> {
        parse_answer(line).unwrap().1
    }

    #[test]
    fn answers_map_keys_to_reported_components() {
        let o = outcome(
            br#"{"verdict": "accept", "scheme": "http", "authority": null, "query": "", "extra": 1}"#,
        );
        assert_eq!(o.verdict, Verdict::Accept);
        let reported = o.components.reported();
        assert!(reported.contains(Component::Scheme));
        assert!(reported.contains(Component::Authority));
        assert!(reported.contains(Component::Query));
        assert!(!reported.contains(Component::Host));
        assert_eq!(o.components.get(Component::Scheme), Some("http"));
        assert_eq!(o.components.get(Component::Authority), None);
        assert_eq!(o.components.get(Component::Query), Some(""));
    }

    #[test]
    fn reject_and_out_of_domain_keep_the_message() {
        let o = outcome(br#"{"verdict": "reject", "message": "bad port", "host": "h"}"#);
        assert_eq!(o.verdict, Verdict::Reject);
        assert_eq!(o.message.as_deref(), Some("bad port"));
        assert!(o.components.reported().is_empty());
        let o = outcome(br#"{"verdict": "out-of-domain", "message": null}"#);
        assert_eq!(o.verdict, Verdict::OutOfDomain);
    }

    #[test]
    fn v2_keys_id_resolved_and_notes() {
        let (id, o) = parse_answer(
            br#"{"id": 7, "verdict": "accept", "host": "h", "resolved": "http://h/", "notes": ["filter-validate-url:reject"]}"#,
        )
        .unwrap();
        assert_eq!(id, Some(7));
        assert_eq!(o.serialization.as_deref(), Some("http://h/"));
        assert_eq!(
            o.notes,
            [Note::Adapter("filter-validate-url:reject".into())]
        );
        assert!(!o.is_missing());
        assert_eq!(parse_answer(br#"{"verdict": "reject"}"#).unwrap().0, None);
    }

    #[test]
    fn bad_answers_are_refused() {
        for line in [
            &b"not json"[..],
            br#"{"verdict": "maybe"}"#,
            br#"{"scheme": "http"}"#,
            br#"{"verdict": "accept", "host": 3}"#,
            br#"["accept"]"#,
            br#"{"verdict": "accept", "host": "a", "host": "b"}"#,
            br#"{"id": -1, "verdict": "accept"}"#,
            br#"{"id": 1, "verdict": "accept", "notes": ["missing-outcome"]}"#,
            br#"{"id": 1, "verdict": "accept", "notes": ["a\nb"]}"#,
            br#"{"id": 1, "verdict": "accept", "notes": [""]}"#,
        ] {
            assert!(
                parse_answer(line).is_err(),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn hello_versions_1_and_2() {
        let v1 =
            parse_hello(br#"{"uridiff_protocol": 1, "parser": "p 1", "standard": "s"}"#).unwrap();
        assert_eq!((v1.protocol, v1.parser.as_str()), (1, "p 1"));
        assert!(!v1.has_ids());
        let v2 = parse_hello(
            br#"{"uridiff_protocol": 2, "parser": "p 2", "standard": "s", "runtime": "r 1", "x": 0}"#,
        )
        .unwrap();
        assert_eq!(v2.runtime.as_deref(), Some("r 1"));
        assert!(v2.has_ids());
        for bad in [
            &br#"{"uridiff_protocol": 3, "parser": "p", "standard": "s"}"#[..],
            br#"{"uridiff_protocol": 0, "parser": "p", "standard": "s"}"#,
            br#"{"parser": "p", "standard": "s"}"#,
            br#"{"uridiff_protocol": "1", "parser": "p", "standard": "s"}"#,
            br#"{"uridiff_protocol": 2, "standard": "s"}"#,
            b"hello",
        ] {
            assert!(
                parse_hello(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn requests_per_version() {
        let mut buf = Vec::new();
        encode_request(&mut buf, false, 1, "a\0\n\"", Some("b")).unwrap();
        encode_request(&mut buf, true, 2, "r", None).unwrap();
        encode_request(&mut buf, true, 3, "r", Some("http://b/")).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "\"a\\u0000\\n\\\"\"\n{\"id\":2,\"input\":\"r\",\"base\":null}\n{\"id\":3,\"input\":\"r\",\"base\":\"http://b/\"}\n"
        );
    }
}
