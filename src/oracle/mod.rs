//! Oracles: parsers that give a second opinion on the same input.
//!
//! Each oracle maps its parser's result into [`Outcome`]: accepted (with
//! [`Components`] read from the rawest accessors the parser offers, and notes
//! on every normalisation or leniency observed), rejected (with the parser's
//! message), or out of its domain (an input the parser does not claim to
//! handle, such as a relative reference for `url` without a base).

#[cfg(feature = "ada")]
mod ada;
mod appendix_b;
#[cfg(feature = "curl")]
mod curl;
pub mod external;
mod http;
mod iri_string;
pub mod rfc2396;
mod rfc3986;
pub mod url;

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

use crate::components::Components;

pub use self::appendix_b::split as appendix_b_split;

/// The standard an oracle implements. Two oracles of the same standard are
/// *peers*: when they disagree, one of them breaks its own standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standard {
    /// RFC 2396 Appendix A (the strict parser).
    Rfc2396,
    /// RFC 2396 Appendix B: a split, not a validator.
    Rfc2396AppendixB,
    /// The WHATWG URL Standard.
    Whatwg,
    /// RFC 3986 (generic syntax).
    Rfc3986,
    /// HTTP request targets (RFC 9112 section 3.2), whose authority follows
    /// RFC 3986 section 3.2.
    HttpRequestTarget,
    /// libcurl's own URL dialect (RFC 3986 with documented extensions).
    Curl,
}

impl Standard {
    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Standard::Rfc2396 => "rfc2396",
            Standard::Rfc2396AppendixB => "rfc2396-appendix-b",
            Standard::Whatwg => "whatwg",
            Standard::Rfc3986 => "rfc3986",
            Standard::HttpRequestTarget => "http-request-target",
            Standard::Curl => "curl",
        }
    }
}

/// One row of the oracle registry.
#[derive(Clone, Copy, Debug)]
pub struct OracleInfo {
    /// Its stable id.
    pub id: OracleId,
    /// The standard it implements.
    pub standard: Standard,
    /// The library behind it, with its version (checked against Cargo.lock
    /// by a test).
    pub library: &'static str,
    /// What it reads the components from.
    pub reads: &'static str,
    /// The inputs it claims to handle; anything else is out of its domain.
    pub domain: &'static str,
    /// Runs it.
    pub run: for<'a> fn(&'a str) -> Outcome<'a>,
    /// Resolves a reference against a base with its own algorithm, giving
    /// the resolved text (which `run` then reads), or why it refused.
    pub resolve: fn(&str, &str) -> Result<String, Refusal>,
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
    pub fn out_of_domain(message: impl fmt::Display) -> Self {
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

macro_rules! oracles {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident = $id:literal {
            standard: $standard:ident,
            library: $library:expr,
            reads: $reads:literal,
            domain: $domain:literal,
            run: $run:expr,
            resolve: $resolve:expr,
        }
    )*) => {
        /// The oracles, by stable id. Every id exists in every build; the
        /// registry ([`registry`]) lists those this build has.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum OracleId {
            $( $(#[doc = $doc])* $variant, )*
            /// An external oracle over the pipe protocol, by its index among
            /// those registered with [`register_external`].
            External(u8),
        }

        impl OracleId {
            /// Every oracle id, in registry order (rfc2396 first), built or not.
            pub const ALL: &'static [OracleId] = &[$(OracleId::$variant,)*];

            /// The standard it implements (built or not; none for an
            /// external oracle). A match, not a registry search: triage asks
            /// for it many times per input.
            pub const fn standard(self) -> Option<Standard> {
                match self {
                    $(OracleId::$variant => Some(Standard::$standard),)*
                    OracleId::External(_) => None,
                }
            }

            /// The stable id used in reports, JSON and the saved corpus (an
            /// external oracle's is the name the user gave it).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(OracleId::$variant => $id,)*
                    OracleId::External(i) => external_name(i),
                }
            }

            /// The oracle with this id (a built-in one, or an external one
            /// registered under that name).
            pub fn from_id(id: &str) -> Option<OracleId> {
                match id {
                    $($id => Some(OracleId::$variant),)*
                    _ => external_names()
                        .iter()
                        .position(|n| *n == id)
                        .and_then(|i| u8::try_from(i).ok())
                        .map(OracleId::External),
                }
            }
        }

        /// The oracles this build has, in order: rfc2396 first, then every
        /// other in the order `check()` runs them and reports list them.
        pub const REGISTRY: &[OracleInfo] = &[$(
            $(#[cfg($cfg)])?
            OracleInfo {
                id: OracleId::$variant,
                standard: Standard::$standard,
                library: $library,
                reads: $reads,
                domain: $domain,
                run: $run,
                resolve: $resolve,
            },
        )*];
    };
}

oracles! {
    /// The strict RFC 2396 parser of this crate.
    Rfc2396 = "rfc2396" {
        standard: Rfc2396,
        library: concat!("uridiff ", env!("CARGO_PKG_VERSION")),
        reads: "raw spans of the input",
        domain: "every string; the reference the others are compared with",
        run: rfc2396::run,
        resolve: rfc2396::resolve,
    }
    /// The RFC 2396 Appendix B regular expression.
    AppendixB = "appendix-b" {
        standard: Rfc2396AppendixB,
        library: concat!("uridiff ", env!("CARGO_PKG_VERSION")),
        reads: "scheme, authority, path, query, fragment",
        domain: "splits any string, never rejects",
        run: appendix_b::run,
        resolve: appendix_b::resolve,
    }
    /// The `url` crate (WHATWG URL Standard).
    Url = "url" {
        standard: Whatwg,
        library: "url 2.5.8",
        reads: "serialization accessors; syntax violations as notes",
        domain: "absolute URLs; a relative reference is out of its domain",
        run: url::run,
        resolve: url::resolve,
    }
    /// The `http` crate (`http::Uri`, HTTP request targets).
    Http = "http" {
        standard: HttpRequestTarget,
        library: "http 1.5.0",
        reads: "raw authority text, path, query",
        domain: "HTTP request targets (origin-, absolute-, authority-form, `*`)",
        run: http::run,
        resolve: http::resolve,
    }
    /// The `fluent-uri` crate (strict RFC 3986).
    Rfc3986 = "rfc3986" {
        standard: Rfc3986,
        library: "fluent-uri 0.4.1",
        reads: "raw components",
        domain: "every URI reference",
        run: rfc3986::run,
        resolve: rfc3986::resolve,
    }
    /// The `ada-url` crate: Ada, the C++ WHATWG parser inside Node.js.
    #[cfg(feature = "ada")]
    Ada = "ada" {
        standard: Whatwg,
        library: "ada-url 4.0.0",
        reads: "component offsets into the serialization, and getters",
        domain: "absolute URLs; a relative reference is out of its domain",
        run: ada::run,
        resolve: ada::resolve,
    }
    /// libcurl's URL API (`curl_url`), curl's own dialect.
    #[cfg(feature = "curl")]
    Curl = "curl" {
        standard: Curl,
        library: "curl-sys 0.4.91+curl-8.22.0 (libcurl, vendored and static)",
        reads: "curl_url_get parts, raw (no URL decoding)",
        domain: "absolute URLs of any scheme; a relative reference is out of its domain",
        run: curl::run,
        resolve: curl::resolve,
    }
    /// The `iri-string` crate in its URI mode (RFC 3986).
    IriString = "iri-string" {
        standard: Rfc3986,
        library: "iri-string 0.7.14",
        reads: "raw components",
        domain: "every URI reference",
        run: iri_string::run,
        resolve: iri_string::resolve,
    }
}

/// Names of the external oracles of this process, in registration order.
static EXTERNAL_NAMES: std::sync::RwLock<Vec<&'static str>> = std::sync::RwLock::new(Vec::new());

fn external_names() -> Vec<&'static str> {
    EXTERNAL_NAMES
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

fn external_name(i: u8) -> &'static str {
    EXTERNAL_NAMES
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(usize::from(i))
        .copied()
        .unwrap_or("external")
}

/// Registers an external oracle's name for this process and returns its id
/// (the same id for a name registered before). The name must not be a
/// built-in id; at most 256 external oracles. A command line registers a
/// handful, so each name is kept for the life of the process.
pub fn register_external(name: &str) -> Result<OracleId, String> {
    if OracleId::ALL.iter().any(|o| o.as_str() == name) {
        return Err(format!(
            "'{name}' is a built-in oracle's id; choose another name"
        ));
    }
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    {
        return Err(format!(
            "'{name}': an oracle name is letters, digits, '-', '_' and '.'"
        ));
    }
    let mut names = EXTERNAL_NAMES
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(i) = names.iter().position(|n| *n == name) {
        return u8::try_from(i)
            .map(OracleId::External)
            .map_err(|e| e.to_string());
    }
    let index =
        u8::try_from(names.len()).map_err(|_| "too many external oracles (256)".to_owned())?;
    names.push(Box::leak(name.to_owned().into_boxed_str()));
    Ok(OracleId::External(index))
}

/// The registry row of an oracle this build has.
pub fn info(id: OracleId) -> Option<&'static OracleInfo> {
    REGISTRY.iter().find(|o| o.id == id)
}

/// The oracles this build has.
pub fn registry() -> &'static [OracleInfo] {
    REGISTRY
}

impl OracleId {
    /// Does this oracle validate? Appendix B only splits, never rejects.
    pub fn validates(self) -> bool {
        self != OracleId::AppendixB
    }

    /// Runs this oracle on `input`; an oracle this build lacks finds every
    /// input out of its domain.
    pub fn run(self, input: &str) -> Outcome<'_> {
        match info(self) {
            Some(o) => (o.run)(input),
            None => Outcome::out_of_domain(format!("{self} is not in this build")),
        }
    }
}

impl Serialize for OracleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
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

/// The note that marks a missing outcome.
const MISSING: &str = "missing-outcome";

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
    /// The parser's own serialization of what it accepted, when that differs
    /// from the input: the round-trip check reparses it with the same parser.
    pub serialization: Option<Cow<'a, str>>,
}

impl<'a> Outcome<'a> {
    /// Accepted with these components.
    pub fn accept(components: Components<'a>) -> Self {
        Outcome {
            verdict: Verdict::Accept,
            components,
            message: None,
            notes: Vec::new(),
            serialization: None,
        }
    }

    /// Rejected, with the parser's message.
    pub fn reject(message: impl Into<String>) -> Self {
        Outcome {
            verdict: Verdict::Reject,
            components: Components::default(),
            message: Some(message.into()),
            notes: Vec::new(),
            serialization: None,
        }
    }

    /// Out of the parser's domain, with the reason.
    pub fn out_of_domain(message: impl Into<String>) -> Self {
        Outcome {
            verdict: Verdict::OutOfDomain,
            components: Components::default(),
            message: Some(message.into()),
            notes: Vec::new(),
            serialization: None,
        }
    }

    /// No outcome at all: an external oracle that failed before it answered.
    /// Never diffed or triaged; shown with the reason.
    pub fn missing(message: impl Into<String>) -> Self {
        let mut outcome = Outcome::out_of_domain(message);
        outcome.notes.push(MISSING);
        outcome
    }

    /// Is this a missing outcome ([`Outcome::missing`])?
    pub fn is_missing(&self) -> bool {
        self.notes.contains(&MISSING)
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

    /// The same outcome, owning every value (to outlive the text it was
    /// read from).
    pub fn into_owned(self) -> Outcome<'static> {
        Outcome {
            verdict: self.verdict,
            components: self.components.into_owned(),
            message: self.message,
            notes: self.notes,
            serialization: self.serialization.map(|s| Cow::Owned(s.into_owned())),
        }
    }
}
