//! `ada-url` (Ada, the C++ WHATWG URL parser inside Node.js) as an oracle:
//! a second implementation of the URL Standard beside `url`, so that the
//! two are peers (a disagreement between them is a defect in one).
//!
//! Ada keeps a parsed URL as its serialization (`href`) plus component
//! offsets (`ada::url_components`, documented in ada's `url_components.h`).
//! Presence is read from the offsets (a query or fragment that is present
//! but empty has a start offset and no text), text from the getters, which
//! return slices of `href`.

use std::borrow::Cow;

use super::{Outcome, borrow_at, offset_in};
use crate::components::{Component, ComponentSet, Components};

/// A base no input names: an input that parses only against a base is a
/// relative reference, out of ada's domain without one (as for `url`). A
/// non-special scheme, so that a special-scheme input (`http:foo`) is never
/// resolved against it as a same-scheme reference (URL Standard, scheme state).
const PROBE_BASE: &str = "x-uridiff-probe:/";

/// Ada keeps the authority only as its parts.
const REPORTED: ComponentSet =
    ComponentSet::ALL.difference(ComponentSet::of(&[Component::Authority]));

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let u = match ada_url::Url::parse(input, None) {
        Ok(u) => u,
        Err(_) if ada_url::Url::can_parse(input, Some(PROBE_BASE)) => {
            return Outcome::out_of_domain("a relative reference and no base URL");
        }
        Err(_) => return Outcome::reject("ada: not a valid URL"),
    };
    let href = u.href();
    let take = |part: &str| -> Cow<'_, str> {
        match offset_in(href, part) {
            Some(at) => borrow_at(input, at, part),
            None => Cow::Owned(part.to_owned()),
        }
    };
    let parts = u.components();
    let mut c = Components::new(REPORTED);
    let protocol = u.protocol();
    c.set(
        Component::Scheme,
        Some(take(protocol.strip_suffix(':').unwrap_or(protocol))),
    );
    let after_scheme = usize::try_from(parts.protocol_end).unwrap_or(usize::MAX);
    let has_authority = href
        .get(after_scheme..)
        .is_some_and(|rest| rest.starts_with("//"));
    if has_authority {
        // As for `url`: WHATWG keeps username and password apart, drops an
        // empty password's `:` and an `@` with nothing before it.
        let userinfo = match (u.username(), u.password()) {
            ("", "") => None,
            (user, "") => Some(take(user)),
            (user, password) => {
                let start = after_scheme + 2;
                let len = user.len() + 1 + password.len();
                Some(take(href.get(start..start + len).unwrap_or_default()))
            }
        };
        c.set(Component::Userinfo, userinfo);
        c.set(Component::Host, Some(take(u.hostname())));
        let port = u.port();
        c.set(Component::Port, (!port.is_empty()).then(|| take(port)));
    }
    c.set(Component::Path, Some(take(u.pathname())));
    let offset = |o: Option<u32>| o.and_then(|o| usize::try_from(o).ok());
    let (search, hash) = (offset(parts.search_start), offset(parts.hash_start));
    let query = search.and_then(|s| href.get(s + 1..hash.unwrap_or(href.len())));
    c.set(Component::Query, query.map(take));
    c.set(
        Component::Fragment,
        hash.and_then(|h| href.get(h + 1..)).map(take),
    );
    let mut outcome = Outcome::accept(c);
    if href != input {
        outcome.serialization = Some(Cow::Owned(href.to_owned()));
    }
    outcome
}

/// The URL Standard's basic URL parser with a base (`Url::parse(reference,
/// Some(base))`); ada refuses when the base is no URL.
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    if !ada_url::Url::can_parse(base, None) {
        return Err(super::Refusal::reject("ada: the base is not a valid URL"));
    }
    ada_url::Url::parse(reference, Some(base))
        .map(|u| u.href().to_owned())
        .map_err(|_| super::Refusal::reject("ada: not a valid URL against this base"))
}
