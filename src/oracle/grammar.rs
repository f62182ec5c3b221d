//! The RFC grammars (crate `uridiff-grammar`) as reference oracles:
//! `rfc3986-grammar` and `rfc2396-grammar`. (Temporary: being written.)

use super::{Outcome, Refusal};
use crate::components::{Component, ComponentSet, Components};

/// RFC 3986's grammar on `input`.
pub(crate) fn rfc3986_run(input: &str) -> Outcome<'_> {
    let Ok(rfc) = grammar::rfc3986::Rfc3986::get() else {
        return Outcome::out_of_domain("the RFC 3986 grammar did not load");
    };
    let parsed = match rfc.parse(input) {
        Ok(p) => p,
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let Some(r) = parsed.unique() else {
        return Outcome::reject("ambiguous");
    };
    let text = |s: &Option<std::ops::Range<usize>>| s.clone().and_then(|s| input.get(s));
    let mut c = Components::new(ComponentSet::ALL);
    c.set(Component::Scheme, text(&r.scheme));
    c.set(Component::Authority, text(&r.authority));
    c.set(Component::Userinfo, text(&r.userinfo));
    c.set(Component::Host, text(&r.host));
    c.set(Component::Port, text(&r.port));
    c.set(Component::Path, input.get(r.path.clone()));
    c.set(Component::Query, text(&r.query));
    c.set(Component::Fragment, text(&r.fragment));
    Outcome::accept(c)
}

/// RFC 3986 section 5.2, recomposed.
pub(crate) fn rfc3986_resolve_text(base: &str, reference: &str) -> Result<String, Refusal> {
    grammar::rfc3986::resolve(base, reference).map_err(Refusal::reject)
}

/// RFC 3986 section 5.2: T's components.
pub(crate) fn rfc3986_resolve(base: &str, reference: &str) -> Outcome<'static> {
    match rfc3986_resolve_text(base, reference) {
        Ok(t) => rfc3986_run(&t).into_owned(),
        Err(r) => r.outcome(),
    }
}

/// RFC 2396's grammar on `input`.
pub(crate) fn rfc2396_run(input: &str) -> Outcome<'_> {
    super::rfc2396::run(input)
}

/// No resolution.
pub(crate) fn rfc2396_resolve_text(_: &str, _: &str) -> Result<String, Refusal> {
    Err(Refusal::out_of_domain("rfc2396-grammar has no resolution"))
}

/// RFC 3986 section 5.2 against the base normalised (temporary).
pub(crate) fn rfc3986_resolve_normalized_base(base: &str, reference: &str) -> Outcome<'static> {
    rfc3986_resolve(base, reference)
}
