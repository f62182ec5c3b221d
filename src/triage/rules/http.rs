//! `http::Uri` reads HTTP request targets (RFC 9112 section 3.2), not URI
//! references: authority-form, origin-form, absolute-form with an
//! authority, no fragment, and its own bounds.

use super::base_parsed;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::rfc2396::{RefKind, UriRef};
use crate::triage::Ctx;

/// `http::Uri` accepts the authority-form request target of RFC 9112
/// section 3.2.3 (`host:port`, used by CONNECT), so `mailto:a@b`,
/// `localhost:8080` and even `g` become an authority where RFC 2396 sees a
/// scheme and an `opaque_part` (section 3), or a `rel_path` (section 5).
pub(crate) fn authority_form(ctx: &Ctx<'_, '_>) -> Diff {
    let Ok(r) = ctx.parsed else {
        return Diff::NONE;
    };
    if ctx.theirs.accepted() {
        // Justified only when the whole input is the authority, as
        // authority-form prescribes (`uri-host ":" port`, nothing else).
        let read_as_authority = ctx.theirs(Component::Scheme).is_none()
            && ctx.theirs(Component::Authority) == Some(ctx.input);
        if read_as_authority && r.authority().is_none() {
            return Diff::of_fields(ComponentSet::ALL);
        }
        Diff::NONE
    } else if r.kind() == RefKind::AbsoluteOpaque {
        // Rejected as an authority-form target that is not a valid authority.
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `http::Uri` refuses an authority in which more than eight `:` come
/// before the host (http 1.5 `validate_authority_bytes`, `MAX_COLONS`: a
/// bound meant for IPv6 literals that also counts userinfo colons, resetting
/// only at `@` and `]`). RFC 2396 `userinfo` takes any number (section 3.2.2).
pub(crate) fn authority_colons(ctx: &Ctx<'_, '_>) -> Diff {
    const HTTP_MAX_COLONS: usize = 8;
    let Some(authority) = ctx.ours(Component::Authority) else {
        return Diff::NONE;
    };
    let mut run = 0;
    let mut too_many = false;
    for b in authority.bytes() {
        match b {
            b':' => {
                run += 1;
                too_many |= run > HTTP_MAX_COLONS;
            }
            b'@' | b']' => run = 0,
            _ => {}
        }
    }
    if too_many && !ctx.theirs.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `//g` is a network-path reference (RFC 2396 section 5: `net_path`) with
/// host `g`; `http::Uri` reads it as an origin-form path (RFC 9112 section
/// 3.2.1: `absolute-path`), so the same text names another server for one
/// and a local path for the other: the shape of open redirects.
///
/// With a base, a client holding `http::Uri` follows such a reference as an
/// origin-form path on the base's host, where every resolver goes to the
/// host the reference names (RFC 2396 and RFC 3986 section 5.2.2).
pub(crate) fn network_path_reference(ctx: &Ctx<'_, '_>) -> Diff {
    if let Some(reference) = ctx.resolved.map(|r| r.reference) {
        let path = reference.split(['?', '#']).next();
        let followed_as_path = reference.starts_with("//")
            && ctx.theirs.accepted()
            && ctx.theirs(Component::Path) == path;
        return if followed_as_path {
            Diff {
                verdict: true,
                fields: ComponentSet::ALL,
            }
        } else {
            Diff::NONE
        };
    }
    let net_path = matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::NetPath);
    // Origin-form: the text up to `?` is their path, whole.
    let origin_form = ctx.theirs(Component::Authority).is_none()
        && ctx.theirs(Component::Path) == ctx.input.split(['?', '#']).next();
    if net_path && origin_form {
        Diff {
            verdict: true,
            fields: ComponentSet::ALL,
        }
    } else {
        Diff::NONE
    }
}

/// `http::Uri` takes a scheme only in absolute-form, which needs an
/// authority (RFC 9112 section 3.2.2: `absolute-URI` with `//`); RFC 2396
/// allows `scheme:/path` and an empty authority (section 3).
///
/// With a base, the same holds of the base a client would hold.
pub(crate) fn missing_authority(ctx: &Ctx<'_, '_>) -> Diff {
    let without_authority = |r: &UriRef<'_>| {
        r.kind() == RefKind::AbsoluteHierarchical && r.authority().is_none_or(str::is_empty)
    };
    let base_without_authority = base_parsed(ctx).is_some_and(without_authority);
    let hier_without_authority =
        base_without_authority || matches!(ctx.parsed, Ok(r) if without_authority(r));
    if hier_without_authority && !ctx.theirs.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `http::Uri` keeps no fragment (RFC 9112 section 3.2: request targets
/// have none).
pub(crate) fn fragment_dropped(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs(Component::Fragment).is_none() {
        Diff::of_fields(ComponentSet::of(&[Component::Fragment]))
    } else {
        Diff::NONE
    }
}
