//! The RFC grammars (crate `uridiff-grammar`) as reference oracles:
//! `rfc3986-grammar` ([`rfc3986_run`]) and `rfc2396-grammar`
//! ([`rfc2396_run`]), and RFC 3986 section 5.2 resolution on the grammar's
//! components ([`rfc3986_resolve`], [`rfc3986_resolve_normalized_base`]).
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

use std::borrow::Cow;
use std::ops::Range;

use ::grammar::ParseError;
use ::grammar::rfc2396::{self as g2396, Rfc2396, SERVER_OR_REG_NAME};
use ::grammar::rfc3986::{self as g3986, Parts, Rfc3986, remove_dot_segments, transform};

use super::{Note, Outcome, Refusal};
use crate::components::{Component, ComponentSet, Components};

mod linear;

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
pub(crate) fn rfc3986_run(input: &str) -> Outcome<'_> {
    // Where the reading takes no choice, the same components without the
    // engine (its tests compare the two).
    if Rfc3986::get().is_ok()
        && let Some(components) = linear::read(input)
    {
        return Outcome::accept(components);
    }
    rfc3986_engine(input)
}

/// [`rfc3986_run`] by the Earley engine alone.
fn rfc3986_engine(input: &str) -> Outcome<'_> {
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

// ---------------------------------------------------------------------------
// RFC 3986 section 5.2
// ---------------------------------------------------------------------------

/// The target of a resolution: section 5.2.2's T, with the authority's
/// userinfo, host and port as the grammar read them in whichever input
/// supplied the authority.
struct Target {
    parts: Parts,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<String>,
    /// Ambiguities of the base's or the reference's reading (never seen).
    ambiguities: Vec<&'static str>,
}

/// Which input of a resolution, for messages.
#[derive(Clone, Copy)]
enum Role {
    Base,
    Reference,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Base => "the base",
            Role::Reference => "the reference",
        }
    }
}

/// `input` read for a resolution, or the refusal naming which input failed.
fn read_for(role: Role, input: &str) -> Result<Read3986, Refusal> {
    read_3986(input).map_err(|e| match e {
        Unread::Grammar(e) => {
            Refusal::out_of_domain(format!("the RFC 3986 grammar does not load: {e}"))
        }
        Unread::Parse(e) if e.is_rejection() => {
            Refusal::reject(format!("{} is not a URI-reference: {e}", role.name()))
        }
        Unread::Parse(e) => Refusal::reject(format!(
            "{} is beyond the grammar engine's limits: {e}",
            role.name()
        )),
    })
}

/// Section 2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Section 6.2.2.2, "Percent-Encoding Normalization": "URI normalizers
/// should [...] decode any percent-encoded octet that corresponds to an
/// unreserved character". Anything else is kept as written (the hex case
/// of the other triplets, section 6.2.2.1, is not part of this step).
fn decode_unreserved(input: &str) -> Cow<'_, str> {
    if !input.contains('%') {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(i) = rest.find('%') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let triplet = rest.get(i..);
        let decoded = triplet
            .and_then(|t| t.as_bytes().get(1..3))
            .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            .filter(|&b| is_unreserved(b));
        let skip = match decoded {
            Some(b) => {
                out.push(char::from(b));
                3
            }
            None => {
                out.push('%');
                1
            }
        };
        rest = rest.get(i + skip..).unwrap_or_default();
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Sections 5.2.1 and 5.2.2 on the grammar's readings, in the strict form;
/// with `normalize_base`, the base is first normalised as section 6.2.2.2
/// (unreserved characters decoded) and 6.2.2.3 (dot-segments removed from
/// its path) describe, which section 5.2.1 permits ("Normalization of the
/// base URI, as described in Sections 6.2.2 and 6.2.3, is optional").
fn target(base: &str, reference: &str, normalize_base: bool) -> Result<Target, Refusal> {
    // 5.2.1: the base "parsed into the five main components described in
    // Section 3. Note that only the scheme component is required to be
    // present in a base URI".
    let read = read_for(Role::Base, base)?;
    if read.c.scheme.is_none() {
        return Err(Refusal::reject(
            "the base has no scheme, so it is not a URI (RFC 3986 section 5.2.1)",
        ));
    }
    // The base is checked as written first: decoding could make valid what
    // is not (`%41` in a scheme is no URI; `A` is).
    let (base_text, base_read) = if normalize_base {
        let decoded = decode_unreserved(base);
        // Decoding gives unreserved characters where the grammar allowed
        // `pct-encoded`, and every such rule allows `unreserved` too: the
        // components stay where they were, only shorter.
        let read = match &decoded {
            Cow::Borrowed(_) => read,
            Cow::Owned(text) => read_for(Role::Base, text)?,
        };
        (decoded, read)
    } else {
        (Cow::Borrowed(base), read)
    };
    let mut base_parts = Parts::from_components(&base_text, &base_read.c);
    if normalize_base {
        // 6.2.2.3: "URI normalizers should remove dot-segments by applying
        // the remove_dot_segments algorithm to the path". The base is kept
        // as components, never recomposed: a path such as `//a` left by it
        // would recompose (section 5.3) into an authority.
        base_parts.path = remove_dot_segments(&base_parts.path);
    }
    let r = read_for(Role::Reference, reference)?;
    let r_parts = Parts::from_components(reference, &r.c);
    // 5.2.2, strict: a scheme in the reference is never dropped.
    let parts = transform(&base_parts, &r_parts);
    // 5.2.2 gives T.authority = R.authority when R has a scheme or an
    // authority, and Base.authority otherwise: the subcomponents come from
    // the same input's reading.
    let (text, c): (&str, &g3986::Components) =
        if r_parts.scheme.is_some() || r_parts.authority.is_some() {
            (reference, &r.c)
        } else {
            (&base_text, &base_read.c)
        };
    let owned = |range: Option<&Range<usize>>| slice(text, range).map(str::to_owned);
    Ok(Target {
        userinfo: owned(c.userinfo.as_ref()),
        host: owned(c.host.as_ref()),
        port: owned(c.port.as_ref()),
        parts,
        ambiguities: [base_read.ambiguity, r.ambiguity]
            .into_iter()
            .flatten()
            .collect(),
    })
}

impl Target {
    /// T's components, owned, with a note per ambiguity met.
    fn outcome(self) -> Outcome<'static> {
        let mut c = Components::new(ComponentSet::ALL);
        c.set(Component::Scheme, self.parts.scheme);
        c.set(Component::Authority, self.parts.authority);
        c.set(Component::Userinfo, self.userinfo);
        c.set(Component::Host, self.host);
        c.set(Component::Port, self.port);
        c.set(Component::Path, Some(self.parts.path));
        c.set(Component::Query, self.parts.query);
        c.set(Component::Fragment, self.parts.fragment);
        let mut outcome = Outcome::accept(c);
        for id in self.ambiguities {
            outcome.note(Note::GrammarAmbiguity(id));
        }
        outcome
    }
}

/// Section 5.2.2's T for `reference` against `base` (strict form, base
/// not normalised), as the five components of section 3, not recomposed.
/// An ambiguous reading of either input (never seen for RFC 3986) is taken
/// as its first reading; [`rfc3986_resolve`] notes it.
#[cfg(test)]
pub(crate) fn rfc3986_transform_parts(base: &str, reference: &str) -> Result<Parts, String> {
    target(base, reference, false)
        .map(|t| t.parts)
        .map_err(|r| r.message)
}

/// Resolves `reference` against `base` as RFC 3986 sections 5.2.1 to 5.2.4
/// describe, strictly and without normalising the base, and gives T's
/// components directly: the section 5.3 recomposition is not re-parsed
/// (T with no authority and the path `//` recomposes to a text that reads
/// as an authority). Refused when the base is not a URI (the grammar
/// rejects it or it has no scheme) or the reference is not a
/// `URI-reference`; the message names which.
pub(crate) fn rfc3986_resolve(base: &str, reference: &str) -> Outcome<'static> {
    match target(base, reference, false) {
        Ok(t) => t.outcome(),
        Err(r) => r.outcome(),
    }
}

/// [`rfc3986_resolve`] against the base normalised first as section 6.2.2
/// describes for the syntax: percent-encoded unreserved characters decoded
/// (6.2.2.2: `%2E` is `.`), then dot-segments removed from its path
/// (6.2.2.3). Section 5.2.1 makes that normalisation optional; a resolver
/// that does it gives this answer.
pub(crate) fn rfc3986_resolve_normalized_base(base: &str, reference: &str) -> Outcome<'static> {
    match target(base, reference, true) {
        Ok(t) => t.outcome(),
        Err(r) => r.outcome(),
    }
}

/// The registry row's resolution: RFC 3986 section 5.2 recomposed as
/// section 5.3 writes it (`uridiff resolve`, `parse`). The arbiter reads
/// T's components instead ([`rfc3986_resolve`]).
pub(crate) fn rfc3986_resolve_text(base: &str, reference: &str) -> Result<String, Refusal> {
    grammar::rfc3986::resolve(base, reference).map_err(Refusal::reject)
}

/// RFC 2396's grammar has no resolution here (section 5.2 is the strict
/// parser's own, `rfc2396`); a pair is out of this reference's domain.
pub(crate) fn rfc2396_resolve_text(_: &str, _: &str) -> Result<String, Refusal> {
    Err(Refusal::out_of_domain(
        "rfc2396-grammar is RFC 2396 Appendix A only: it does not resolve",
    ))
}

#[cfg(test)]
mod tests;
