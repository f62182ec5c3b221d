//! `iri-string` in its URI mode (`UriReferenceStr`, RFC 3986) as an oracle:
//! a second RFC 3986 implementation beside `fluent-uri`, so the two are
//! peers. It validates without normalising, so components borrow the input.

use iri_string::types::UriReferenceStr;

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let r = match UriReferenceStr::new(input) {
        Ok(r) => r,
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let mut c = Components::new(ComponentSet::ALL);
    c.set(Component::Scheme, r.scheme_str());
    if let Some(authority) = r.authority_components() {
        c.set(Component::Authority, r.authority_str());
        c.set(Component::Userinfo, authority.userinfo());
        c.set(Component::Host, Some(authority.host()));
        c.set(Component::Port, authority.port());
    }
    c.set(Component::Path, Some(r.path_str()));
    c.set(Component::Query, r.query_str());
    c.set(Component::Fragment, r.fragment_str());
    Outcome::accept(c)
}

/// RFC 3986 section 5.2 (`resolve_against`). The base must be an
/// `absolute-URI` (section 4.3: no fragment). A result whose path starts
/// with `//` and has no authority, which RFC 3986's recomposition cannot
/// write, comes back as iri-string writes it, with `/.` before the path
/// (its `Normalized` display; `ensure_rfc3986_normalizable` would refuse
/// it, but that is a check a caller opts into, not the resolution itself,
/// and fluent-uri writes the same `/.`).
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let base = iri_string::types::UriAbsoluteStr::new(base)
        .map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    let reference = UriReferenceStr::new(reference).map_err(super::Refusal::reject)?;
    Ok(reference.resolve_against(base).to_string())
}
