//! Oracles: parsers that give a second opinion on the same input.
//!
//! Each oracle maps its parser's result into [`Outcome`]: accepted (with
//! [`Components`](crate::components::Components) read from the rawest accessors the parser offers, and notes
//! on every normalisation or leniency observed), rejected (with the parser's
//! message), or out of its domain (an input the parser does not claim to
//! handle, such as a relative reference for `url` without a base).

#[cfg(feature = "ada")]
mod ada;
mod appendix_b;
#[cfg(feature = "curl")]
mod curl;
mod descriptor;
pub mod external;
mod grammar;
mod http;
mod iri_string;
mod name;
mod outcome;
mod query;
pub mod rfc2396;
mod rfc3986;
#[cfg(feature = "uriparser")]
mod uriparser;
pub mod url;

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

pub(crate) use self::descriptor::Template;
pub use self::descriptor::{Descriptor, Domain, Kind, shipped_reference};
pub use self::name::ExternalName;
pub use self::outcome::{MISSING_NOTE, Note, Outcome, Refusal, Verdict};
pub use self::query::{ExternalOracles, Query};

pub use self::appendix_b::split as appendix_b_split;
pub(crate) use self::grammar::{
    rfc3986_resolve as grammar_rfc3986_resolve,
    rfc3986_resolve_normalized_base as grammar_rfc3986_resolve_normalized_base,
};

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
    /// The inputs it claims to handle, as a reader is told; anything else
    /// is out of its domain.
    pub domain: &'static str,
    /// The same, as data ([`Descriptor::domain`]).
    pub inputs: Domain,
    /// Runs it.
    pub run: for<'a> fn(&'a str) -> Outcome<'a>,
    /// Resolves a reference against a base with its own algorithm, giving
    /// the resolved text (which `run` then reads), or why it refused.
    pub resolve: fn(&str, &str) -> Result<String, Refusal>,
    /// Does it validate? A split that never rejects (Appendix B) does not:
    /// its "acceptance" of what rfc2396 rejects is no disagreement, and its
    /// host takes no part in host confusions.
    pub validates: bool,
    /// Notes only a reader needs, too costly for every fuzz input (a second
    /// parse): added by [`Case::annotate`](crate::Case::annotate) to an
    /// outcome that differs from rfc2396's.
    pub annotate: Option<fn(&str) -> Vec<Note>>,
    /// The oracle whose reading of the authority this one's follows: where
    /// both read the same authority text, their userinfo, host and port
    /// must agree (a peer disagreement otherwise).
    pub authority_peer: Option<OracleId>,
    /// Is it its standard's reference (the RFC grammars)? A reference is
    /// not one of the parsers compared: `check()` asks it only where they
    /// disagree, and it decides which of them departs from the standard.
    pub reference: bool,
}

/// `Some(f)` for a row that names `f`, `None` for one that names nothing.
macro_rules! some_or_none {
    () => {
        None
    };
    ($f:expr) => {
        Some($f)
    };
}

/// `Domain::D` for a row that names `inputs: D`, `Domain::Every` for one
/// that names none.
macro_rules! inputs_or_every {
    () => {
        Domain::Every
    };
    ($d:ident) => {
        Domain::$d
    };
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
            $(inputs: $inputs:ident,)?
            run: $run:expr,
            resolve: $resolve:expr,
            $(validates: $validates:literal,)?
            $(annotate: $annotate:expr,)?
            $(authority_peer: $authority_peer:ident,)?
            $(judged_by: $judged_by:expr,)?
            $(reference: $reference:literal,)?
            $(reproduce: $template:ident,)?
            $(clients: [$($client:literal),* $(,)?],)?
        }
    )*) => {
        /// The oracles, by stable id. Every id exists in every build; the
        /// registry ([`registry`]) lists those this build has.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum OracleId {
            $( $(#[doc = $doc])* $variant, )*
            /// An external oracle over the pipe protocol, by the name the
            /// user gave it.
            External(ExternalName),
        }

        impl OracleId {
            /// Every oracle id, in registry order (rfc2396 first), built or not.
            pub const ALL: &'static [OracleId] = &[$(OracleId::$variant,)*];

            /// The standard it implements (built or not; for an external
            /// oracle, a shipped adapter's documented standard, else none).
            /// A match, not a registry search: triage asks for it many
            /// times per input.
            pub fn standard(self) -> Option<Standard> {
                // A built-in oracle's straight from its row, as its
                // descriptor has it, without building the descriptor.
                match self {
                    $(OracleId::$variant => Some(Standard::$standard),)*
                    OracleId::External(_) => self.descriptor().standard,
                }
            }

            /// What this oracle is ([`Descriptor`]): for a built-in one
            /// (built or not) its row's facts, for an external one its
            /// shipped adapter's row, or nothing known of a plugged-in
            /// program. A match for a built-in one: triage asks per
            /// finding.
            pub fn descriptor(self) -> Descriptor {
                match self {
                    $(OracleId::$variant => Descriptor {
                        $(judged_by: $judged_by,)?
                        $(clients: &[$($client),*],)?
                        ..Descriptor::in_process(
                            self,
                            Standard::$standard,
                            inputs_or_every!($($inputs)?),
                            true $(&& $validates)?,
                            false $(|| $reference)?,
                            some_or_none!($(Template::$template)?),
                        )
                    },)*
                    OracleId::External(name) => Descriptor::external(self, name.as_str()),
                }
            }

            /// The stable id used in reports, JSON and the saved corpus (an
            /// external oracle's is the name the user gave it).
            pub fn as_str(&self) -> &str {
                match self {
                    $(OracleId::$variant => $id,)*
                    OracleId::External(name) => name.as_str(),
                }
            }

            /// The oracle with this id: a built-in one, or an external one
            /// by its name (any valid [`ExternalName`]).
            pub fn from_id(id: &str) -> Option<OracleId> {
                match id {
                    $($id => Some(OracleId::$variant),)*
                    _ => ExternalName::new(id).ok().map(OracleId::External),
                }
            }

            /// Does this oracle validate ([`OracleInfo::validates`])?
            /// External oracles do. A match: `check()` asks per outcome.
            pub fn validates(self) -> bool {
                match self {
                    $(OracleId::$variant => true $(&& $validates)?,)*
                    OracleId::External(_) => self.descriptor().validates,
                }
            }

            /// Is this oracle its standard's reference ([`OracleInfo::reference`];
            /// of the external ones, the shipped `whatwg-url`, the URL
            /// Standard's reference implementation)?
            pub fn is_reference(self) -> bool {
                match self {
                    $(OracleId::$variant => false $(|| $reference)?,)*
                    OracleId::External(_) => self.descriptor().is_reference(),
                }
            }

            /// The implementation it is (or descends from), for counting
            /// independent implementations: its own id, or for a shipped
            /// adapter whose library derives from another's, that one's
            /// (`Shipped::lineage`).
            pub(crate) fn lineage(&self) -> &str {
                self.descriptor().lineage.unwrap_or(self.as_str())
            }

            /// Is this oracle held to the self-check `check` (its own
            /// answer checked against RFC 3986's rule)? One that claims a
            /// standard is; a shipped adapter that claims none only where
            /// its row says so (`Shipped::held_to`).
            pub(crate) fn held_to(self, check: external::SelfCheck) -> bool {
                let d = self.descriptor();
                // A parser whose documentation says it does not validate
                // (uri-js) is not held to what it would refuse.
                (d.standard.is_some() && d.no_validation.is_none()) || d.held_to.contains(&check)
            }

            /// How its parser's documentation says it writes a host
            /// (`Shipped::host_readings`, with the passage that says so):
            /// none for a built-in oracle, whose components are the
            /// input's text or its standard's own serialization.
            pub(crate) fn host_readings(
                &self,
            ) -> &'static [(external::HostReading, &'static str)] {
                self.descriptor().host_readings
            }

            /// Did its parser flag this outcome's input as malformed while
            /// returning components (`Shipped::flag_note`: fast-uri's
            /// `error`)? Never for a built-in oracle, whose refusal is a
            /// refusal.
            pub(crate) fn flagged(&self, outcome: &Outcome<'_>) -> bool {
                // A built-in oracle's descriptor has no flag note.
                matches!(self, OracleId::External(_))
                    && outcome.accepted()
                    && self.descriptor().flag_note.is_some_and(|prefix| {
                        outcome.notes.iter().any(
                            |n| matches!(n, Note::Adapter(text) if text.starts_with(prefix)),
                        )
                    })
            }

            /// Is this a built-in oracle's id?
            pub fn is_builtin_id(id: &str) -> bool {
                matches!(id, $($id)|*)
            }
        }

        /// The oracles this build has, in order: rfc2396 first, then every
        /// other in the order `check()` runs them and reports list them.
        pub(crate) const REGISTRY: &[OracleInfo] = &[$(
            $(#[cfg($cfg)])?
            OracleInfo {
                id: OracleId::$variant,
                standard: Standard::$standard,
                library: $library,
                reads: $reads,
                domain: $domain,
                inputs: inputs_or_every!($($inputs)?),
                run: $run,
                resolve: $resolve,
                validates: true $(&& $validates)?,
                annotate: some_or_none!($($annotate)?),
                authority_peer: some_or_none!($(OracleId::$authority_peer)?),
                reference: false $(|| $reference)?,
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
        // Held to its grammar by the `parse` fuzz target and a test over
        // the saved corpus, not by the RFC 2396 reference.
        judged_by: None,
    }
    /// The RFC 2396 Appendix B regular expression.
    AppendixB = "appendix-b" {
        standard: Rfc2396AppendixB,
        library: concat!("uridiff ", env!("CARGO_PKG_VERSION")),
        reads: "scheme, authority, path, query, fragment",
        domain: "splits any string, never rejects",
        run: appendix_b::run,
        resolve: appendix_b::resolve,
        validates: false,
        // A split, which no reference judges.
        judged_by: None,
    }
    /// The `url` crate (WHATWG URL Standard).
    Url = "url" {
        standard: Whatwg,
        library: "url 2.5.8",
        reads: "serialization accessors; syntax violations as notes",
        domain: "absolute URLs; a relative reference is out of its domain",
        inputs: Absolute,
        run: url::run,
        resolve: url::resolve,
        annotate: url::notes,
        reproduce: UrlCrate,
    }
    /// The `http` crate (`http::Uri`, HTTP request targets).
    Http = "http" {
        standard: HttpRequestTarget,
        library: "http 1.5.0",
        reads: "raw authority text, path, query",
        domain: "HTTP request targets (origin-, absolute-, authority-form, `*`)",
        inputs: RequestTarget,
        run: http::run,
        resolve: http::resolve,
        authority_peer: Rfc3986,
        // Its authority is RFC 3986's (section 3.2), whose reference
        // judges it.
        judged_by: Some(Standard::Rfc3986),
        reproduce: HttpUri,
    }
    /// The `fluent-uri` crate (strict RFC 3986).
    Rfc3986 = "rfc3986" {
        standard: Rfc3986,
        library: "fluent-uri 0.4.1",
        reads: "raw components",
        domain: "every URI reference",
        run: rfc3986::run,
        resolve: rfc3986::resolve,
        reproduce: FluentUri,
    }
    /// The `ada-url` crate: Ada, the C++ WHATWG parser inside Node.js.
    #[cfg(feature = "ada")]
    Ada = "ada" {
        standard: Whatwg,
        library: "ada-url 4.0.0",
        reads: "component offsets into the serialization, and getters",
        domain: "absolute URLs; a relative reference is out of its domain",
        inputs: Absolute,
        run: ada::run,
        resolve: ada::resolve,
        reproduce: Ada,
        // Node's URL is its bundled Ada: `http.get(new URL(input))`, and
        // undici's `fetch`, which parses with Node's URL.
        clients: ["node-http-new-url", "node-fetch"],
    }
    /// libcurl's URL API (`curl_url`), curl's own dialect.
    #[cfg(feature = "curl")]
    Curl = "curl" {
        standard: Curl,
        library: "curl-sys 0.4.91+curl-8.22.0 (libcurl, vendored and static)",
        reads: "curl_url_get parts, raw (no URL decoding)",
        domain: "absolute URLs of any scheme; a relative reference is out of its domain",
        inputs: Absolute,
        run: curl::run,
        resolve: curl::resolve,
        // libcurl's own dialect, which no reference judges.
        judged_by: None,
        reproduce: Curl,
        // The easy API in process, and PHP's curl extension (Debian's
        // libcurl).
        clients: ["libcurl", "php-curl"],
    }
    /// The `iri-string` crate in its URI mode (RFC 3986).
    IriString = "iri-string" {
        standard: Rfc3986,
        library: "iri-string 0.7.14",
        reads: "raw components",
        domain: "every URI reference",
        run: iri_string::run,
        resolve: iri_string::resolve,
        reproduce: IriString,
    }
    /// uriparser, the C RFC 3986 library (PHP 8.5's `Uri\Rfc3986\Uri`).
    #[cfg(feature = "uriparser")]
    Uriparser = "uriparser" {
        standard: Rfc3986,
        library: uriparser_ffi::LIBRARY,
        reads: "component ranges of the input; the path as uriToStringA writes it",
        domain: "every URI reference",
        run: uriparser::run,
        resolve: uriparser::resolve,
        reproduce: Uriparser,
    }
    /// RFC 3986 Appendix A run by the grammar engine (`crates/grammar`),
    /// with section 5.2 transcribed: the reference for RFC 3986.
    Rfc3986Grammar = "rfc3986-grammar" {
        standard: Rfc3986,
        library: "uridiff-grammar 0.1.0 (RFC 3986 Appendix A, section 5.2)",
        reads: "component spans of the grammar's reading",
        domain: "every string; asked only where the parsers disagree",
        run: grammar::rfc3986_run,
        resolve: grammar::rfc3986_resolve_text,
        reference: true,
    }
    /// RFC 2396 Appendix A run by the grammar engine, with section 4.3's
    /// greedy authority: the reference for RFC 2396.
    Rfc2396Grammar = "rfc2396-grammar" {
        standard: Rfc2396,
        library: "uridiff-grammar 0.1.0 (RFC 2396 Appendix A)",
        reads: "component spans of the grammar's reading",
        domain: "every string; asked only where the parsers disagree; no resolution",
        run: grammar::rfc2396_run,
        resolve: grammar::rfc2396_resolve_text,
        reference: true,
    }
}

/// The id of an external oracle named `name` (checked as
/// [`ExternalName::new`] checks it).
pub fn register_external(name: &str) -> Result<OracleId, String> {
    ExternalName::new(name).map(OracleId::External)
}

/// The registry row of an oracle this build has.
pub fn info(id: OracleId) -> Option<&'static OracleInfo> {
    REGISTRY.iter().find(|o| o.id == id)
}

/// The oracles this build has.
pub fn registry() -> &'static [OracleInfo] {
    REGISTRY
}

/// The text `id`'s round trip parses again: its own serialization of an
/// input it accepted, where that differs from the input (an outcome holds
/// one only then), for a parser that claims a standard (keeping its own
/// answer is what the URL Standard's serializer and RFC 3986 section 5.3
/// ask). The defect check `triage::defects::round_trip` and
/// [`parsers_as_checked`] both ask it here, so that the benchmark's count of
/// parser runs cannot drift from the check's.
pub fn round_trip_text<'o>(id: OracleId, outcome: &'o Outcome<'_>) -> Option<&'o str> {
    outcome
        .serialization
        .as_deref()
        .filter(|_| outcome.accepted() && id.standard().is_some())
}

/// How `id`'s round trip parses [`round_trip_text`] again: its registry
/// row's `run`, or for libcurl the same parse without reading back its
/// serialization of the URL, which the round trip never looks at
/// (`curl::reparse` says why that changes nothing else). The defect check
/// and [`parsers_as_checked`] both ask it here.
pub(crate) fn reparse(row: &OracleInfo) -> for<'a> fn(&'a str) -> Outcome<'a> {
    match row.id {
        #[cfg(feature = "curl")]
        OracleId::Curl => curl::reparse,
        _ => row.run,
    }
}

/// How the quick check (`check::Depth::Quick`, what a campaign runs on
/// every input) runs `row` on an input: as [`reparse`] does. The quick
/// check makes no round trip, and the round trip is all that reads a
/// parser's serialization of a single input (`triage::defects::round_trip`;
/// the resolution rules read it of a resolved pair, which the quick check
/// runs as `check()` does), so libcurl's, a `curl_maprintf` that appends a
/// byte at a time, is not asked for: about 8 % of what the fuzz build of
/// `differential` spends per real URL (BENCHMARKS.md, ninth round).
pub(crate) fn quick_run(row: &OracleInfo) -> for<'a> fn(&'a str) -> Outcome<'a> {
    reparse(row)
}

/// The parser runs `check()` makes of one input and nothing else: each
/// registry parser (references aside) on `input`, and again on the text of
/// its round trip ([`round_trip_text`]), as the round-trip check parses it
/// (for libcurl, without reading back its serialization of the URL).
/// Returns how many accepted the input. For benchmarks: BENCHMARKS.md's
/// `oracles-as-checked` rows, the parsers a check runs, as against
/// `oracles-only`, each parser once.
pub fn parsers_as_checked(input: &str) -> usize {
    let mut accepted = 0;
    for row in REGISTRY.iter().filter(|row| !row.reference) {
        let outcome = (row.run)(input);
        if let Some(again) = round_trip_text(row.id, &outcome) {
            std::hint::black_box(reparse(row)(again).accepted());
        }
        accepted += usize::from(outcome.accepted());
    }
    accepted
}

impl OracleId {
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
pub(crate) fn borrow_at<'a>(input: &'a str, at: usize, text: &str) -> Cow<'a, str> {
    match input.get(at..at.saturating_add(text.len())) {
        Some(slice) if slice == text => Cow::Borrowed(slice),
        _ => Cow::Owned(text.to_owned()),
    }
}

/// Where `part` starts inside `whole`, when it is a slice of it.
pub(crate) fn offset_in(whole: &str, part: &str) -> Option<usize> {
    // Comparing addresses as integers is safe: nothing is dereferenced.
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start + part.len() <= whole.len()).then_some(start)
}
