//! `fluent-uri` (a strict RFC 3986 parser) as an oracle: the third standard
//! beside RFC 2396 and WHATWG. It validates without normalising, so its
//! components borrow the input.

use fluent_uri::UriRef;

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let r = match UriRef::parse(input) {
        Ok(r) => r,
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let mut c = Components::new(ComponentSet::ALL);
    c.set(Component::Scheme, r.scheme().map(|s| s.as_str()));
    if let Some(authority) = r.authority() {
        c.set(Component::Authority, Some(authority.as_str()));
        c.set(
            Component::Userinfo,
            authority.userinfo().map(|u| u.as_str()),
        );
        c.set(Component::Host, Some(authority.host()));
        c.set(Component::Port, authority.port().map(|p| p.as_str()));
    }
    c.set(Component::Path, Some(r.path().as_str()));
    c.set(Component::Query, r.query().map(|q| q.as_str()));
    c.set(Component::Fragment, r.fragment().map(|f| f.as_str()));
    Outcome::accept(c)
}

/// RFC 3986 section 5.2 (`UriRef::resolve_against`): fluent-uri refuses a
/// base with a fragment or a rootless base without authority for a
/// relative reference (its `ResolveError`).
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let base =
        fluent_uri::Uri::parse(base).map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    let reference = UriRef::parse(reference).map_err(super::Refusal::reject)?;
    reference
        .resolve_against(&base)
        .map(|u| u.as_str().to_owned())
        .map_err(super::Refusal::reject)
}
