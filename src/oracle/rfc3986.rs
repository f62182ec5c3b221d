//! `fluent-uri` (a strict RFC 3986 parser) as an oracle: the third standard
//! beside RFC 2396 and WHATWG. It validates without normalising, so its
//! components borrow the input.

use fluent_uri::UriRef;

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub fn run(input: &str) -> Outcome<'_> {
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
