//! Oracles: parsers that give a second opinion on the same input.
//!
//! Each oracle maps its parser's result into [`Outcome`]: accepted (with
//! [`Components`] read from the rawest accessors the parser offers, and notes
//! on every normalisation or leniency observed), rejected (with the parser's
//! message), or out of its domain (an input the parser does not claim to
//! handle, such as a relative reference for `url` without a base).

mod appendix_b;
mod http;
pub mod rfc2396;
mod rfc3986;
pub mod url;

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

use crate::components::Components;

pub use self::appendix_b::{AppendixB, split as appendix_b_split};
pub use self::http::Http;
pub use self::rfc2396::Rfc2396;
pub use self::rfc3986::Rfc3986;
pub use self::url::Url;

/// The oracles, by stable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum OracleId {
    /// The strict RFC 2396 parser of this crate.
    #[serde(rename = "rfc2396")]
    Rfc2396,
    /// The RFC 2396 Appendix B regular expression.
    #[serde(rename = "appendix-b")]
    AppendixB,
    /// The `url` crate (WHATWG URL Standard).
    #[serde(rename = "url")]
    Url,
    /// The `http` crate (`http::Uri`, HTTP request targets).
    #[serde(rename = "http")]
    Http,
    /// The `fluent-uri` crate (strict RFC 3986).
    #[serde(rename = "rfc3986")]
    Rfc3986,
}

impl OracleId {
    /// Every oracle, the reference (rfc2396) first.
    pub const ALL: [OracleId; 5] = [
        OracleId::Rfc2396,
        OracleId::AppendixB,
        OracleId::Url,
        OracleId::Http,
        OracleId::Rfc3986,
    ];

    /// The stable id used in reports, JSON and the saved corpus.
    pub fn as_str(self) -> &'static str {
        match self {
            OracleId::Rfc2396 => "rfc2396",
            OracleId::AppendixB => "appendix-b",
            OracleId::Url => "url",
            OracleId::Http => "http",
            OracleId::Rfc3986 => "rfc3986",
        }
    }

    /// Does this oracle validate? Appendix B only splits, never rejects.
    pub fn validates(self) -> bool {
        self != OracleId::AppendixB
    }

    /// Runs this oracle on `input`.
    pub fn run(self, input: &str) -> Outcome<'_> {
        match self {
            OracleId::Rfc2396 => Rfc2396.run(input),
            OracleId::AppendixB => AppendixB.run(input),
            OracleId::Url => Url.run(input),
            OracleId::Http => Http.run(input),
            OracleId::Rfc3986 => Rfc3986.run(input),
        }
    }
}

impl fmt::Display for OracleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `text` as a slice of `input` when it stands at byte `at` there, else a
/// copy. The oracles that own their parse (`url`, `http`) usually hand back
/// verbatim pieces of the input at known places; only equal content matters
/// to the diff, so borrowing saves an allocation without changing anything.
pub fn borrow_at<'a>(input: &'a str, at: usize, text: &str) -> Cow<'a, str> {
    match input.get(at..at.saturating_add(text.len())) {
        Some(slice) if slice == text => Cow::Borrowed(slice),
        _ => Cow::Owned(text.to_owned()),
    }
}

/// Where `part` starts inside `whole`, when it is a slice of it.
pub fn offset_in(whole: &str, part: &str) -> Option<usize> {
    // Comparing addresses as integers is safe: nothing is dereferenced.
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start + part.len() <= whole.len()).then_some(start)
}

/// A parser under comparison.
pub trait Oracle {
    /// Its stable id.
    fn id(&self) -> OracleId;
    /// Its opinion of `input`.
    fn run<'a>(&self, input: &'a str) -> Outcome<'a>;
}

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

/// An oracle's opinion of one input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome<'a> {
    /// Accepted, rejected or out of domain.
    pub verdict: Verdict,
    /// The components, when accepted; empty otherwise.
    pub components: Components<'a>,
    /// The parser's own message, when rejected or out of domain.
    pub message: Option<String>,
    /// Normalisations and leniencies observed, as stable ids.
    pub notes: Vec<&'static str>,
}

impl<'a> Outcome<'a> {
    /// Accepted with these components.
    pub fn accept(components: Components<'a>) -> Self {
        Outcome {
            verdict: Verdict::Accept,
            components,
            message: None,
            notes: Vec::new(),
        }
    }

    /// Rejected, with the parser's message.
    pub fn reject(message: impl Into<String>) -> Self {
        Outcome {
            verdict: Verdict::Reject,
            components: Components::default(),
            message: Some(message.into()),
            notes: Vec::new(),
        }
    }

    /// Out of the parser's domain, with the reason.
    pub fn out_of_domain(message: impl Into<String>) -> Self {
        Outcome {
            verdict: Verdict::OutOfDomain,
            components: Components::default(),
            message: Some(message.into()),
            notes: Vec::new(),
        }
    }

    /// Adds a note unless it is there already.
    pub fn note(&mut self, id: &'static str) {
        if !self.notes.contains(&id) {
            self.notes.push(id);
        }
    }

    /// Is this an acceptance?
    pub fn accepted(&self) -> bool {
        self.verdict == Verdict::Accept
    }
}
