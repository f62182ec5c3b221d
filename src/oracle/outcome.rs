//! What an oracle made of one input: [`Outcome`], its [`Verdict`], the
//! [`Note`]s on what it normalised, and a [`Refusal`] to resolve.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::components::{Components, component_name};

/// What an oracle made of an input, in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Parsed.
    Accept,
    /// Refused as invalid.
    Reject,
    /// Not the kind of input this parser handles.
    OutOfDomain,
}

impl Verdict {
    /// The stable id used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::Reject => "reject",
            Verdict::OutOfDomain => "out-of-domain",
        }
    }
}

/// A normalisation or leniency an oracle showed on an input. Shown in
/// `notes` (JSON: its text); no rule reads them, they are for the reader.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// rfc2396 read the authority as a `reg_name` (RFC 2396 section 3.2).
    RegNameAuthority,
    /// rfc2396 read an `opaque_part` (RFC 2396 section 3).
    OpaquePart,
    /// url's URL has an opaque path ("cannot be a base").
    OpaquePath,
    /// The parser's serialization differs from the input.
    SerializationDiffers,
    /// http::Uri dropped the fragment (RFC 9112 section 3.2 has none).
    FragmentDropped,
    /// http::Uri read the input as an authority-form request target.
    AuthorityForm,
    /// One of url's syntax violations, in rust-url's own words.
    UrlSyntaxViolation(url::SyntaxViolation),
    /// A note an external adapter sent (protocol v2 `notes`).
    Adapter(Box<str>),
    /// An RFC grammar oracle settled an ambiguity of its grammar that the
    /// RFC's text leaves open, by a stated convention; the id names the
    /// ambiguity (`rfc2396-3.2-server-or-reg_name`: the `server` reading,
    /// as java.net.URI and the strict parser take it). Shown as
    /// `grammar-ambiguity:<id>`.
    GrammarAmbiguity(&'static str),
}

/// The text of [`Note::GrammarAmbiguity`] for each id an oracle can give,
/// built from one list of literals so that the text is `&'static` (as
/// [`Note::as_str`] promises) and always `grammar-ambiguity:` + the id.
macro_rules! grammar_ambiguity_text {
    ($id:expr; $($known:literal),* $(,)?) => {
        match $id {
            $($known => concat!("grammar-ambiguity:", $known),)*
            // An id outside the list: the kind of note still shows.
            _ => "grammar-ambiguity",
        }
    };
}

/// `grammar-ambiguity:<id>` for the ids the grammar oracles give
/// (`oracle/grammar.rs`; its tests check each against this list).
fn grammar_ambiguity_text(id: &str) -> &'static str {
    grammar_ambiguity_text!(id;
        // RFC 2396 section 3.2, `authority = server | reg_name`.
        "rfc2396-3.2-server-or-reg_name",
        // More than one reading that no rule of the grammar crate names
        // (never seen; the oracles then take the first reading).
        "rfc2396-unclassified",
        "rfc3986-unclassified",
    )
}

impl Note {
    /// The text shown and written to JSON.
    pub fn as_str(&self) -> &str {
        match self {
            Note::RegNameAuthority => "reg-name-authority",
            Note::OpaquePart => "opaque-part",
            Note::OpaquePath => "opaque-path",
            Note::SerializationDiffers => "serialization-differs",
            Note::FragmentDropped => "fragment-dropped",
            Note::AuthorityForm => "authority-form",
            Note::UrlSyntaxViolation(v) => v.description(),
            Note::Adapter(text) => text,
            Note::GrammarAmbiguity(id) => grammar_ambiguity_text(id),
        }
    }
}

// rust-url's `SyntaxViolation` has no `Hash`; a note's text identifies it.
impl std::hash::Hash for Note {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The note text a missing outcome shows in JSON and tables (a public
/// contract: scripts look for it).
pub const MISSING_NOTE: &str = "missing-outcome";

/// An oracle's opinion of one input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome<'a> {
    /// Accepted, rejected or out of domain.
    pub verdict: Verdict,
    /// The components, when accepted; empty otherwise.
    pub components: Components<'a>,
    /// The parser's own message, when rejected or out of domain.
    pub message: Option<String>,
    /// Normalisations and leniencies observed.
    pub notes: Vec<Note>,
    /// The parser's own serialization of what it accepted, when that differs
    /// from the input: the round-trip check reparses it with the same parser.
    pub serialization: Option<Cow<'a, str>>,
    /// No outcome at all: an external oracle failed before it answered (its
    /// verdict is then out-of-domain and `message` says why). Never diffed
    /// or triaged.
    pub missing: bool,
}

impl<'a> Outcome<'a> {
    fn with_verdict(verdict: Verdict, components: Components<'a>, message: Option<String>) -> Self {
        Outcome {
            verdict,
            components,
            message,
            notes: Vec::new(),
            serialization: None,
            missing: false,
        }
    }

    /// Accepted with these components.
    pub fn accept(components: Components<'a>) -> Self {
        Outcome::with_verdict(Verdict::Accept, components, None)
    }

    /// Rejected, with the parser's message.
    pub fn reject(message: impl Into<String>) -> Self {
        Outcome::with_verdict(Verdict::Reject, Components::default(), Some(message.into()))
    }

    /// Out of the parser's domain, with the reason.
    pub(crate) fn out_of_domain(message: impl Into<String>) -> Self {
        Outcome::with_verdict(
            Verdict::OutOfDomain,
            Components::default(),
            Some(message.into()),
        )
    }

    /// No outcome at all: an external oracle that failed before it answered.
    /// Never diffed or triaged; shown with the reason.
    pub fn missing(message: impl Into<String>) -> Self {
        Outcome {
            missing: true,
            ..Outcome::out_of_domain(message)
        }
    }

    /// Is this a missing outcome ([`Outcome::missing`])?
    pub fn is_missing(&self) -> bool {
        self.missing
    }

    /// Adds a note unless it is there already.
    pub fn note(&mut self, note: Note) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Did the oracle answer for this input, accepting or rejecting it?
    /// Neither an answer out of its domain (its descriptor's
    /// [`Domain`](super::Domain)) nor a missing one is a claim about the
    /// input: the arbiter compares neither with a peer or a reference.
    pub(crate) fn in_domain(&self) -> bool {
        self.verdict != Verdict::OutOfDomain
    }

    /// Is this an acceptance?
    pub fn accepted(&self) -> bool {
        self.verdict == Verdict::Accept
    }

    /// The same outcome, owning every value (to outlive the text it was
    /// read from).
    pub fn into_owned(self) -> Outcome<'static> {
        Outcome {
            verdict: self.verdict,
            components: self.components.into_owned(),
            message: self.message,
            notes: self.notes,
            serialization: self.serialization.map(|s| Cow::Owned(s.into_owned())),
            missing: self.missing,
        }
    }
}

/// `{"verdict", components by name, "message", "notes"}`: a missing outcome
/// lists [`MISSING_NOTE`] first among its notes.
impl Serialize for Outcome<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("verdict", &self.verdict)?;
        for (c, value) in self.components.iter() {
            m.serialize_entry(component_name(c), &value)?;
        }
        if let Some(message) = &self.message {
            m.serialize_entry("message", message)?;
        }
        if self.missing || !self.notes.is_empty() {
            let missing = self.missing.then_some(MISSING_NOTE);
            let notes: Vec<&str> = missing
                .into_iter()
                .chain(self.notes.iter().map(Note::as_str))
                .collect();
            m.serialize_entry("notes", &notes)?;
        }
        m.end()
    }
}

/// Why an oracle gave no resolved URI: it rejects the base or the
/// reference, or resolution is outside what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// [`Verdict::Reject`] or [`Verdict::OutOfDomain`].
    pub verdict: Verdict,
    /// The parser's own message.
    pub message: String,
}

impl Refusal {
    /// A rejection with this message.
    pub fn reject(message: impl fmt::Display) -> Self {
        Refusal {
            verdict: Verdict::Reject,
            message: message.to_string(),
        }
    }

    /// Out of the oracle's domain, with the reason.
    pub(crate) fn out_of_domain(message: impl fmt::Display) -> Self {
        Refusal {
            verdict: Verdict::OutOfDomain,
            message: message.to_string(),
        }
    }

    /// As an outcome.
    pub fn outcome(self) -> Outcome<'static> {
        match self.verdict {
            Verdict::OutOfDomain => Outcome::out_of_domain(self.message),
            _ => Outcome::reject(self.message),
        }
    }
}
