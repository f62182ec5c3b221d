//! `iri-string` in its URI mode (`UriReferenceStr`, RFC 3986) as an oracle:
//! a second RFC 3986 implementation beside `fluent-uri`, so the two are
//! peers. It validates without normalising, so components borrow the input.

use iri_string::types::UriReferenceStr;

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub fn run(input: &str) -> Outcome<'_> {
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
