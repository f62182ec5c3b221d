//! Node's legacy `url.parse`: the inputs it throws on, as its documentation
//! says it does.

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
