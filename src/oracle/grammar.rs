//! The RFC grammars (crate `uridiff-grammar`) as reference oracles:
//! `rfc3986-grammar` ([`rfc3986_run`]) and `rfc2396-grammar`
//! ([`rfc2396_run`]).
//!
//! The grammars are the RFCs' Appendix A run as text by an Earley engine:
//! no parser's reading of the RFC stands between the text and the answer.
//! Where the text leaves more than one reading, the outcome says so in a
//! [`Note::GrammarAmbiguity`] and names the convention that picked one;
//! nothing is picked silently.
//!
//! Every input the grammars accept is ASCII (neither Appendix A has a
//! terminal above `%x7E`), so every span they give falls on a character
//! boundary of the input.

use std::ops::Range;

use ::grammar::ParseError;
use ::grammar::rfc2396::{self as g2396, Rfc2396, SERVER_OR_REG_NAME};
use ::grammar::rfc3986::{self as g3986, Rfc3986};

use super::{Note, Outcome};
use crate::components::{Component, ComponentSet, Components};

/// The id of a note on an ambiguous RFC 3986 outcome: the grammar crate
/// names no ambiguity of RFC 3986 (section 3.2.2 settles the only one of
/// its grammar), so one that appears is unclassified.
const RFC3986_UNCLASSIFIED: &str = "rfc3986-unclassified";

/// The id of a note on an RFC 2396 outcome ambiguous in a way the grammar
/// crate does not name (never seen: it names `server | reg_name`, and
/// section 4.3 settles the rest).
const RFC2396_UNCLASSIFIED: &str = "rfc2396-unclassified";

/// `input[range]`, or `None` for an absent component. A range off the
/// input cannot come from the grammars (they accept ASCII only); it would
/// read as absent rather than panic.
fn slice<'a>(input: &'a str, range: Option<&Range<usize>>) -> Option<&'a str> {
    range.and_then(|r| input.get(r.clone()))
}

/// Why the grammar gave no reading, as an oracle's outcome: a rejection
/// (RFC 3986 or 2396 Appendix A does not derive the input) or a limit of
/// the engine (an input over 16 KiB, say), which the oracle cannot
/// answer either way; both are refusals, the message says which.
fn refusal(e: &ParseError) -> Outcome<'static> {
    if e.is_rejection() {
        Outcome::reject(e.to_string())
    } else {
        Outcome::reject(format!("beyond the grammar engine's limits: {e}"))
    }
}

// ---------------------------------------------------------------------------
// RFC 3986
// ---------------------------------------------------------------------------

/// One reading of an input under the RFC 3986 grammar, and the id of the
/// ambiguity when the grammar gave more than one (the first is kept).
struct Read3986 {
    c: g3986::Components,
    ambiguity: Option<&'static str>,
}

/// Why an input has no RFC 3986 reading.
enum Unread {
    /// The grammar does not load (a defect of the build, not of the input).
    Grammar(String),
    /// The grammar rejects the input, or reaches a limit.
    Parse(ParseError),
}

/// Parses `input` with the RFC 3986 grammar, settled by section 3.2.2.
fn read_3986(input: &str) -> Result<Read3986, Unread> {
    let rfc = Rfc3986::get().map_err(|e| Unread::Grammar(e.to_string()))?;
    let outcome = rfc.parse(input).map_err(Unread::Parse)?;
    let ambiguity = outcome
        .is_ambiguous()
        .then(|| outcome.ambiguity().map_or(RFC3986_UNCLASSIFIED, |a| a.id));
    match outcome.components().next() {
        Some(c) => Ok(Read3986 {
            c: c.clone(),
            ambiguity,
        }),
        // An accepted input always has a reading (a settlement never
        // removes the last one); kept as a refusal rather than a panic.
        None => Err(Unread::Grammar(
            "the RFC 3986 grammar accepted the input without a reading".to_owned(),
        )),
    }
}

/// The eight components of a reading, borrowed from `input`.
fn components_3986<'a>(input: &'a str, c: &g3986::Components) -> Components<'a> {
    let mut out = Components::new(ComponentSet::ALL);
    out.set(Component::Scheme, slice(input, c.scheme.as_ref()));
    out.set(Component::Authority, slice(input, c.authority.as_ref()));
    out.set(Component::Userinfo, slice(input, c.userinfo.as_ref()));
    out.set(Component::Host, slice(input, c.host.as_ref()));
    out.set(Component::Port, slice(input, c.port.as_ref()));
    // Section 3.3: "A path is always defined for a URI, though the defined
    // path may be empty (zero length)."
    out.set(
        Component::Path,
        Some(input.get(c.path.clone()).unwrap_or_default()),
    );
    out.set(Component::Query, slice(input, c.query.as_ref()));
    out.set(Component::Fragment, slice(input, c.fragment.as_ref()));
    out
}

/// Runs RFC 3986 Appendix A (`URI-reference`) on `input`: accepted with
/// every component borrowed from the input (absent kept apart from empty),
/// or rejected with the grammar's message (the first offending byte and
/// what was expected there).
#[allow(
    dead_code,
    reason = "called through the oracle registry (`oracles!` in oracle/mod.rs), whose rows are added separately"
)]
pub(crate) fn rfc3986_run(input: &str) -> Outcome<'_> {
    match read_3986(input) {
        Ok(read) => {
            let mut outcome = Outcome::accept(components_3986(input, &read.c));
            if let Some(id) = read.ambiguity {
                outcome.note(Note::GrammarAmbiguity(id));
            }
            outcome
        }
        Err(Unread::Parse(e)) => refusal(&e),
        Err(Unread::Grammar(e)) => {
            Outcome::out_of_domain(format!("the RFC 3986 grammar does not load: {e}"))
        }
    }
}

// ---------------------------------------------------------------------------
// RFC 2396
// ---------------------------------------------------------------------------

/// The reading the oracle reports, and the ambiguity it settled by
/// convention to get it.
fn choose_2396<'o>(
    outcome: &'o ::grammar::Outcome<'_, g2396::Components>,
) -> Option<(&'o g2396::Components, Option<&'static str>)> {
    if let Some(c) = outcome.unique() {
        return Some((c, None));
    }
    let server = outcome
        .components()
        .find(|c| c.authority_kind == Some(g2396::AuthorityKind::Server));
    match (outcome.ambiguity(), server) {
        // Section 3.2 leaves `server | reg_name` open; the convention is
        // java.net.URI's ("parsed as a server-based authority if possible,
        // otherwise registry-based"), and the strict parser's.
        (Some(a), Some(c)) if a.id == SERVER_OR_REG_NAME.id => Some((c, Some(a.id))),
        (a, _) => outcome
            .components()
            .next()
            .map(|c| (c, Some(a.map_or(RFC2396_UNCLASSIFIED, |a| a.id)))),
    }
}

/// Runs RFC 2396 Appendix A (`URI-reference`) on `input`, section 4.3
/// applied, and reports it as the strict oracle does
/// (`oracle::rfc2396::outcome_of`): every component, a
/// [`Note::RegNameAuthority`] for a `reg_name` reading and a
/// [`Note::OpaquePart`] for an `opaque_part`. Where `server | reg_name`
/// stays ambiguous, the `server` reading is reported with a
/// [`Note::GrammarAmbiguity`].
#[allow(
    dead_code,
    reason = "called through the oracle registry (`oracles!` in oracle/mod.rs), whose rows are added separately"
)]
pub(crate) fn rfc2396_run(input: &str) -> Outcome<'_> {
    let rfc = match Rfc2396::get() {
        Ok(rfc) => rfc,
        Err(e) => {
            return Outcome::out_of_domain(format!("the RFC 2396 grammar does not load: {e}"));
        }
    };
    let parsed = match rfc.parse(input) {
        Ok(parsed) => parsed,
        Err(e) => return refusal(&e),
    };
    let Some((c, settled)) = choose_2396(&parsed) else {
        return Outcome::out_of_domain("the RFC 2396 grammar accepted the input without a reading");
    };
    let mut out = Components::new(ComponentSet::ALL);
    out.set(Component::Scheme, slice(input, c.scheme.as_ref()));
    out.set(Component::Authority, slice(input, c.authority.as_ref()));
    out.set(Component::Userinfo, slice(input, c.userinfo.as_ref()));
    out.set(Component::Host, slice(input, c.host.as_ref()));
    out.set(Component::Port, slice(input, c.port.as_ref()));
    // The path is never absent: an empty range where the reference has
    // none, as the strict parser reports it.
    out.set(
        Component::Path,
        Some(input.get(c.path.clone()).unwrap_or_default()),
    );
    out.set(Component::Query, slice(input, c.query.as_ref()));
    out.set(Component::Fragment, slice(input, c.fragment.as_ref()));
    let mut outcome = Outcome::accept(out);
    if c.authority_kind == Some(g2396::AuthorityKind::RegName) {
        outcome.note(Note::RegNameAuthority);
    }
    if c.form == g2396::Form::AbsoluteOpaque {
        outcome.note(Note::OpaquePart);
    }
    if let Some(id) = settled {
        outcome.note(Note::GrammarAmbiguity(id));
    }
    outcome
}

#[cfg(test)]
mod tests;
