//! libcurl's URL parser (the `curl_url` API, through this workspace's
//! `curl-url` crate over `curl-sys`'s vendored, static libcurl) as an
//! oracle: what curl itself would fetch. Set with
//! `CURLU_NON_SUPPORT_SCHEME`, so schemes this build of curl does not
//! speak are parsed all the same (libcurl's `curl_url_set` documentation).
//!
//! curl speaks its own dialect: RFC 3986 with documented extensions (its
//! URL syntax page, "URL syntax and their use in curl"), which the triage
//! classes for curl cite. Parts are read raw (no `CURLU_URLDECODE`), the
//! port only when written, an empty query or fragment as present
//! (`CURLU_GET_EMPTY`). curl keeps no raw authority, and reports an IPv6
//! zone ID apart from the host; it is put back as RFC 6874 writes it.

use std::borrow::Cow;

use curl_url::{Flags, Url};

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// curl keeps the authority only as its parts.
const REPORTED: ComponentSet =
    ComponentSet::ALL.difference(ComponentSet::of(&[Component::Authority]));

/// Does `input` start with an RFC 3986 scheme and `:` (section 3.1)? curl
/// takes only absolute URLs here (no `CURLU_GUESS_SCHEME`): anything else is
/// out of its domain, not rejected.
fn has_scheme(input: &str) -> bool {
    let Some((scheme, _)) = input.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The parts of a URL libcurl accepted that this oracle reads. The
/// authority's parts only where there is a host (they are read under it
/// below), the zone ID only for a bracketed host: each `curl_url_get` is a
/// fresh string from libcurl, and an input without a host is common in a
/// campaign. Apart from running out of memory, those reads fail only by
/// reporting the part missing (`CURLUE_NO_*`, lib/urlapi.c), which is what
/// skipping them gives.
fn parts(u: &Url) -> Result<curl_url::Parts, curl_url::Error> {
    use curl_url::Part;
    let get = |part| u.get(part, Flags::GET_EMPTY);
    let mut parts = curl_url::Parts {
        url: get(Part::Url)?,
        scheme: get(Part::Scheme)?,
        host: get(Part::Host)?,
        ..curl_url::Parts::default()
    };
    if let Some(host) = &parts.host {
        if host.ends_with(']') {
            parts.zoneid = get(Part::ZoneId)?;
        }
        parts.user = get(Part::User)?;
        parts.password = get(Part::Password)?;
        parts.options = get(Part::Options)?;
        parts.port = get(Part::Port)?;
    }
    parts.path = get(Part::Path)?;
    parts.query = get(Part::Query)?;
    parts.fragment = get(Part::Fragment)?;
    Ok(parts)
}

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let parsed = Url::new().and_then(|mut u| {
        u.set_url(input, Flags::NON_SUPPORT_SCHEME)?;
        parts(&u)
    });
    let parts = match parsed {
        Ok(parts) => parts,
        Err(e) if e.is_nul() => {
            return Outcome::out_of_domain("libcurl takes C strings: the input holds a NUL");
        }
        Err(e) if !has_scheme(input) => {
            return Outcome::out_of_domain(format!("a relative reference and no base URL ({e})"));
        }
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let curl_url::Parts {
        url,
        scheme,
        user,
        password,
        options,
        host,
        zoneid,
        port,
        path,
        query,
        fragment,
    } = parts;
    let mut c = Components::new(REPORTED);
    c.set(Component::Scheme, scheme);
    if let Some(host) = host {
        // As libcurl's URL API writes the userinfo back (curl_url_get
        // with CURLUPART_URL, lib/urlapi.c): user, then `:` and the
        // password, then `;` and the login options (IMAP, POP3, SMTP).
        let mut userinfo = user;
        if let Some(password) = &password {
            let u = userinfo.get_or_insert_with(String::new);
            u.push(':');
            u.push_str(password);
        }
        if let Some(options) = &options {
            let u = userinfo.get_or_insert_with(String::new);
            u.push(';');
            u.push_str(options);
        }
        c.set(Component::Userinfo, userinfo);
        let host = match (&zoneid, host.strip_suffix(']')) {
            (Some(zone), Some(address)) => format!("{address}%25{zone}]"),
            _ => host,
        };
        c.set(Component::Host, Some(host));
        c.set(Component::Port, port);
    }
    c.set(Component::Path, path);
    c.set(Component::Query, query);
    c.set(Component::Fragment, fragment);
    let mut outcome = Outcome::accept(c);
    if let Some(url) = url
        && url != input
    {
        outcome.serialization = Some(Cow::Owned(url));
    }
    outcome
}

/// libcurl's own resolution: the reference set on a handle that holds the
/// base (`curl_url_set` with `CURLUPART_URL` on a handle with a URL, the
/// way curl follows a redirect).
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let mut url = Url::new().map_err(super::Refusal::reject)?;
    url.set_url(base, Flags::NON_SUPPORT_SCHEME)
        .map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    url.set_url(reference, Flags::NON_SUPPORT_SCHEME)
        .map_err(super::Refusal::reject)?;
    match url.get(curl_url::Part::Url, Flags::GET_EMPTY) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(super::Refusal::reject("libcurl gave no URL")),
        Err(e) => Err(super::Refusal::reject(e)),
    }
}
