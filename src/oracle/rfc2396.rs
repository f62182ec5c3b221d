//! The strict RFC 2396 parser as an oracle: the reference the others are
//! compared against.

use super::{Note, Outcome};
use crate::components::{Component, ComponentSet, Components};
use crate::rfc2396::{AuthorityKind, ParseError, UriRef, parse};

/// Maps a parsed reference to components; every component is reported.
pub fn components<'a>(r: &UriRef<'a>) -> Components<'a> {
    let mut c = Components::new(ComponentSet::ALL);
    for component in Component::ALL {
        c.set(component, r.get(component));
    }
    c
}

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub fn run(input: &str) -> Outcome<'_> {
    outcome_of(&parse(input))
}

/// The outcome for a result of [`parse`], so that a caller that already
/// parsed (as `check` does, for triage) need not parse twice.
pub(crate) fn outcome_of<'a>(parsed: &Result<UriRef<'a>, ParseError>) -> Outcome<'a> {
    match parsed {
        Ok(r) => {
            let mut outcome = Outcome::accept(components(r));
            if r.authority_kind() == Some(AuthorityKind::RegName) {
                outcome.note(Note::RegNameAuthority);
            }
            if r.is_opaque() {
                outcome.note(Note::OpaquePart);
            }
            outcome
        }
        Err(e) => Outcome::reject(e.to_string()),
    }
}

/// RFC 2396 section 5.2, this crate's resolver (Appendix C is its test).
pub fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    crate::rfc2396::resolve(base, reference).map_err(super::Refusal::reject)
}
