//! Node's legacy `url.parse`: the inputs it throws on, as its documentation
//! says it does.

use super::AUTHORITY_PARTS;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// `url.parse` throws a `URIError` when the userinfo does not
/// percent-decode as UTF-8 ("A URIError is thrown if the auth property is
/// present but cannot be decoded", Node.js docs, url.parse), and
/// `ERR_INVALID_URL` for a host its `domainToASCII` refuses (Node.js docs,
/// errors, ERR_INVALID_URL: "passed to ... the legacy url.parse()"; an
/// `xn--` label that is no Punycode): RFC 2396 takes both (sections 3.2.2
/// and 3.2.1). Claims the verdict where the adapter's message names that
/// error and the input has such a userinfo or host.
pub(crate) fn node_refusal(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !ctx.ours.accepted() {
        return Diff::NONE;
    }
    let message = ctx.theirs.message.as_deref().unwrap_or_default();
    let Some(authority) = appendix_b_split(ctx.input).authority else {
        return Diff::NONE;
    };
    let (userinfo, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let undecodable_auth = message.starts_with("URIError")
        && userinfo.is_some_and(|u| {
            String::from_utf8(crate::triage::text::decoded(u).into_owned()).is_err()
        });
    let refused_idna =
        message.starts_with("TypeError: Invalid URL") && host.to_ascii_lowercase().contains("xn--");
    if undecodable_auth || refused_idna {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// url-parse resolves a relative path only against a base written with
/// `//` (index.js: `if (relative && location.slashes && …) url.pathname =
/// resolve(url.pathname, location.pathname)`): against any other base
/// (`p:/a/b`, `urn:x`) the reference's path is kept as written and the
/// base gives only its scheme (`q` against `p:/p:` is `p:q`; an empty
/// reference gives an empty path). url-parse claims no standard. Claims
/// the path where the base has no authority, the reference neither a
/// scheme nor an authority, and theirs is the reference's own path.
pub(crate) fn url_parse_slashless_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base = appendix_b_split(resolved.base);
    let reference = appendix_b_split(resolved.reference);
    let kept = base.authority.is_none()
        && reference.scheme.is_none()
        && reference.authority.is_none()
        && ctx.theirs(Component::Path).unwrap_or_default() == reference.path;
    if kept {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// The schemes Node's legacy `url.parse` knows always take `//` (lib/url.js,
/// `slashedProtocol`): without it, `http:a/b` keeps `a/b` as its path.
const SLASHED_PROTOCOLS: &[&str] = &["http", "https", "ftp", "gopher", "file", "ws", "wss"];

/// `url.parse` looks a scheme up in `slashedProtocol` as written, not
/// lower-cased (lib/url.js: `slashedProtocol.has(proto)`, where the
/// hostless check uses `lowerProto`), so `http:evil.example/x` has no host
/// and `HTTP:evil.example/x` the host `evil.example`, although RFC 3986
/// section 3.1 makes schemes case-insensitive. url.parse claims no
/// standard. Claims the authority's parts and the path where the scheme is
/// such a one written in another case, no `//` follows it, and their host
/// is what follows up to `/`, `?` or `#`.
pub(crate) fn node_scheme_case_host(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_some() {
        return Diff::NONE;
    }
    let split = appendix_b_split(ctx.input);
    let Some(scheme) = split.scheme else {
        return Diff::NONE;
    };
    let slashed = SLASHED_PROTOCOLS
        .iter()
        .any(|p| p.eq_ignore_ascii_case(scheme))
        && !SLASHED_PROTOCOLS.contains(&scheme);
    let Some(rest) = ctx.input.get(scheme.len() + 1..) else {
        return Diff::NONE;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    let read_as_host = slashed
        && split.authority.is_none()
        && !host.is_empty()
        && ctx
            .theirs(Component::Host)
            .is_some_and(|h| h.eq_ignore_ascii_case(host));
    if read_as_host {
        ctx.claim(AUTHORITY_PARTS.with(Component::Path))
    } else {
        Diff::NONE
    }
}
