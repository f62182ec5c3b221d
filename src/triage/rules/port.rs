//! The port: RFC 2396's `port = *digit` has no bound and may be empty;
//! others bound it, elide the default, and write it canonically.

use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::triage::Ctx;
use crate::triage::host::scheme_default_port;

/// RFC 2396 `port = *digit` has no bound (section 3.2.2); WHATWG rejects
/// ports over 65535, and `http::Uri` keeps the authority but reports no port.
pub(crate) fn port_out_of_range(ctx: &Ctx<'_, '_>) -> Diff {
    let big = ctx
        .ours(Component::Port)
        .is_some_and(|p| !p.is_empty() && p.parse::<u16>().is_err());
    if big {
        Diff {
            verdict: true,
            fields: ComponentSet::of(&[Component::Port]),
        }
    } else {
        Diff::NONE
    }
}

/// `port = *digit` allows `host:` (RFC 2396 section 3.2.2); WHATWG and
/// `http::Uri` treat it as no port.
pub(crate) fn empty_port(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    let mut claimed = f.intersection(ComponentSet::of(&[Component::Port]));
    // The authority text without the empty port's `:` (urllib3's
    // `Url.authority` for `foo.com:`): RFC 3986 section 6.2.3 has
    // normalizers omit it.
    // Hosts are case-insensitive (RFC 3986 section 3.2.2): urllib3
    // lower-cases them too.
    let authority =
        ctx.fields_where(
            |ours, theirs| match (ours.and_then(|a| a.strip_suffix(':')), theirs) {
                (Some(stripped), Some(theirs)) => stripped.eq_ignore_ascii_case(theirs),
                _ => false,
            },
        );
    if ctx.ours.components.get(Component::Port) == Some("") {
        claimed = claimed.union(authority.intersection(ComponentSet::of(&[Component::Authority])));
    }
    Diff::of_fields(claimed)
}

/// The scheme's default port written out; WHATWG elides it (URL Standard,
/// port state).
pub(crate) fn default_port(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(default) = ctx.scheme().and_then(scheme_default_port) else {
        return Diff::NONE;
    };
    let f = ctx.fields_where(|ours, theirs| {
        theirs.is_none() && ours.and_then(|p| p.parse::<u32>().ok()) == Some(u32::from(default))
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Port])))
}

/// The same port number with other digits (leading zeros), which WHATWG
/// serialises canonically.
pub(crate) fn port_normalized(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| {
        let n = |p: Option<&str>| p.and_then(|p| p.parse::<u32>().ok());
        n(ours).is_some() && n(ours) == n(theirs)
    });
    let mut fields = f.intersection(ComponentSet::of(&[Component::Port]));
    // An authority rebuilt around the number (urllib3, yarl): the same
    // authority with the port written as the parser writes it.
    if !fields.is_empty() {
        let rebuilt = match (
            ctx.ours(Component::Authority),
            ctx.ours(Component::Port),
            ctx.theirs(Component::Port),
        ) {
            (Some(authority), Some(written), Some(read)) => authority
                .strip_suffix(written)
                .map(|head| format!("{head}{read}")),
            _ => None,
        };
        if rebuilt.is_some() && rebuilt.as_deref() == ctx.theirs(Component::Authority) {
            fields = fields.with(Component::Authority);
        }
    }
    Diff::of_fields(fields)
}

/// Addressable's `#port` is "the port number actually given in the URI"
/// as an Integer (its documentation): a written `080` reads 80 and an
/// empty port none. Port 0, which it also reads as none, is not claimed:
/// 0 is a number given.
pub(crate) fn integer_port(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(""), None) => true,
        (Some(written), Some(read)) => written
            .parse::<u32>()
            .is_ok_and(|n| n != 0 && n.to_string() == read),
        _ => false,
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Port])))
}
