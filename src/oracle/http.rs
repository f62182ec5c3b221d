//! The `http` crate (`http::Uri`) as an oracle.
//!
//! `http::Uri` parses HTTP request targets (RFC 9112 section 3.2): origin-form
//! (`/path?q`), absolute-form, authority-form (`host:port`) and `*`. It drops
//! a fragment, so a `#` in the input is noted as `fragment-dropped`.
//! Components are read from the raw authority text, not from `port_u16()`.

use super::{Note, Outcome, borrow_at};
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let uri = match http::Uri::try_from(input) {
        Ok(uri) => uri,
        Err(e) => return Outcome::reject(e.to_string()),
    };
    // http::Uri keeps its pieces verbatim (but for a lower-cased
    // scheme and a `/` for an empty path), in input order: each is
    // borrowed from the input at the place it stands there.
    let mut c = Components::new(ComponentSet::ALL);
    let mut at = 0;
    if let Some(scheme) = uri.scheme_str() {
        c.set(Component::Scheme, Some(borrow_at(input, 0, scheme)));
        at = scheme.len() + "://".len();
    }
    if let Some(authority) = uri.authority() {
        let text = authority.as_str();
        let userinfo = text.rsplit_once('@').map(|(u, _)| u);
        let host = authority.host();
        let host_at = at + userinfo.map_or(0, |u| u.len() + 1);
        c.set(
            Component::Userinfo,
            userinfo.map(|u| borrow_at(input, at, u)),
        );
        c.set(Component::Host, Some(borrow_at(input, host_at, host)));
        let port = authority.port();
        let port_at = at + text.len() - port.as_ref().map_or(0, |p| p.as_str().len());
        c.set(
            Component::Port,
            port.map(|p| borrow_at(input, port_at, p.as_str())),
        );
        c.set(Component::Authority, Some(borrow_at(input, at, text)));
        at += text.len();
    }
    let path = uri.path();
    c.set(Component::Path, Some(borrow_at(input, at, path)));
    at += path.len();
    c.set(
        Component::Query,
        uri.query().map(|q| borrow_at(input, at + 1, q)),
    );
    let mut outcome = Outcome::accept(c);
    if input.contains('#') {
        outcome.note(Note::FragmentDropped);
    }
    if uri.scheme().is_none() && uri.authority().is_some() {
        outcome.note(Note::AuthorityForm);
    }
    // `Display` writes the pieces above in order: the scheme lower-cased,
    // `/` for an empty path, no fragment. Where every piece was borrowed
    // from the input and there is no fragment, it is the input itself;
    // otherwise the round-trip check reparses it.
    let verbatim = !input.contains('#') && outcome.components.all_borrowed();
    if !verbatim {
        let serialization = uri.to_string();
        if serialization != input {
            outcome.serialization = Some(serialization.into());
        }
    }
    outcome
}

/// `http::Uri` has no resolution; a client that holds a base follows an
/// origin-form reference (path and query only, RFC 9112 section 3.2.1) on
/// the base's scheme and authority, and takes an absolute-form one as it
/// is. Other forms are no redirect target it can follow.
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let uri = http::Uri::try_from(reference).map_err(super::Refusal::reject)?;
    if uri.scheme().is_some() {
        return Ok(uri.to_string());
    }
    if uri.authority().is_some() || !uri.path().starts_with('/') {
        return Err(super::Refusal::out_of_domain(
            "an authority-form or asterisk-form target is no reference to resolve",
        ));
    }
    let base =
        http::Uri::try_from(base).map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    let (Some(scheme), Some(authority)) = (base.scheme_str(), base.authority()) else {
        return Err(super::Refusal::reject("base: not an absolute-form target"));
    };
    let mut out = format!("{scheme}://{authority}{}", uri.path());
    if let Some(query) = uri.query() {
        out.push('?');
        out.push_str(query);
    }
    Ok(out)
}
