//! uriparser (the C library PHP 8.5's `Uri\Rfc3986\Uri` is built on, through
//! this workspace's `uriparser-ffi` crate) as an oracle: a third RFC 3986
//! implementation beside fluent-uri and iri-string, so the three are peers.
//! It validates without normalising, and its components are ranges of the
//! input, so they borrow it: the authority from its `//` to the end of the
//! port or host, the path as `uriToStringA` writes it (RFC 3986 section 5.3).

use std::borrow::Cow;

use uriparser_ffi::UriRef;

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let r = match UriRef::parse(input.as_bytes()) {
        Ok(r) => r,
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let mut c = Components::new(ComponentSet::ALL);
    c.set(Component::Scheme, r.scheme().map(text));
    if let Some(host) = r.host() {
        c.set(Component::Authority, r.authority().map(text));
        c.set(Component::Userinfo, r.userinfo().map(text));
        c.set(Component::Host, Some(text(host)));
        c.set(Component::Port, r.port().map(text));
    }
    c.set(
        Component::Path,
        Some(match r.path() {
            Cow::Borrowed(path) => text(path),
            Cow::Owned(path) => Cow::Owned(String::from_utf8_lossy(&path).into_owned()),
        }),
    );
    c.set(Component::Query, r.query().map(text));
    c.set(Component::Fragment, r.fragment().map(text));
    Outcome::accept(c)
}

/// A component's bytes as text. RFC 3986's grammar is ASCII and every range
/// ends at a delimiter or at the end, so each is a slice of the input on
/// character boundaries, borrowed as it is; the lossy conversion never
/// replaces anything for an accepted input.
fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// RFC 3986 section 5.2 (`uriAddBaseUriExA`, strict), recomposed with
/// `uriToStringA` (section 5.3). uriparser refuses a base without a scheme
/// (section 5.1 asks for an absolute URI) and takes a base with a fragment,
/// which section 5.2.2 never reads. The text writes an IPv6 host as eight
/// groups of four lower-case hex digits, from the address's bytes.
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let resolved = uriparser_ffi::resolve(base.as_bytes(), reference.as_bytes())
        .map_err(super::Refusal::reject)?;
    String::from_utf8(resolved)
        .map_err(|_| super::Refusal::reject("uriparser wrote a resolution that is not UTF-8"))
}
