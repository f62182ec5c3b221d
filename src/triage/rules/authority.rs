//! The authority: what RFC 2396 reads as a `reg_name` or an empty part,
//! and where the URL Standard finds a host of its own (special schemes
//! without `//`, `file` URLs).

use super::{
    AUTHORITY_PARTS, authorityless_base_path, host_in_path, is_file, opaque, opaque_query,
    our_host_text,
};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::rfc2396::AuthorityKind;
use crate::triage::Ctx;
use crate::triage::host::{is_special, same_address};
use crate::triage::text::{begins_with_drive_letter, decoded_lower, same_octets};

/// WHATWG file URLs (URL Standard, file host state): `localhost` becomes
/// the empty host, a Windows drive letter (`c:`) moves into the path,
/// credentials and ports are refused, and empty leading segments collapse.
/// RFC 2396 has no rules of its own for `file` (RFC 1738 section 3.10).
///
/// Each field is claimed only when the other's value is what those rules
/// give: no credentials or port, an empty host for `localhost`, for none,
/// or where a drive letter stood, a path that starts with `/` and ends with
/// rfc2396's (or holds the drive letter).
pub(crate) fn file_scheme(ctx: &Ctx<'_, '_>) -> Diff {
    if !is_file(ctx) {
        return Diff::NONE;
    }
    if !ctx.theirs.accepted() {
        return Diff::VERDICT;
    }
    let ours_host = ctx.ours(Component::Host).or_else(|| our_host_text(ctx));
    let ours_authority = ctx.ours(Component::Authority).unwrap_or_default();
    let mut fields = ComponentSet::EMPTY;
    let theirs_path = ctx.theirs(Component::Path).unwrap_or_default();
    let drive_moved = ours_host.is_some_and(begins_with_drive_letter)
        || theirs_path
            .strip_prefix('/')
            .is_some_and(begins_with_drive_letter);
    if ctx.theirs(Component::Host) == Some("")
        && (ours_host.is_none_or(|h| h.is_empty() || h.eq_ignore_ascii_case("localhost"))
            || begins_with_drive_letter(ours_authority))
    {
        fields = fields.with(Component::Host).with(Component::Authority);
    }
    for c in [Component::Userinfo, Component::Port] {
        if ctx.theirs(c).is_none() {
            fields = fields.with(c);
        }
    }
    let ours_path = ctx.ours(Component::Path).unwrap_or_default();
    let tail = ours_path.trim_start_matches('/');
    if theirs_path.starts_with('/')
        && (drive_moved || theirs_path.trim_start_matches('/').ends_with(tail) || opaque(ctx))
    {
        fields = fields.with(Component::Path);
    }
    Diff::of_fields(fields.union(opaque_query(ctx)))
}

/// WHATWG special schemes always have a host: `http:evil.com/`,
/// `http:/evil.com/` and `http:///evil.com/` all reach `evil.com`, where RFC
/// 2396 sees an `opaque_part`, an `abs_path`, or an empty authority
/// (section 3). A special URL with no host at all is rejected.
pub(crate) fn special_scheme_slashes(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.scheme().is_some_and(is_special) {
        return Diff::NONE;
    }
    let Ok(r) = ctx.parsed else {
        return Diff::NONE;
    };
    let no_authority = r.authority().is_none_or(str::is_empty);
    if !no_authority {
        return Diff::NONE;
    }
    if !ctx.theirs.accepted() {
        return Diff::VERDICT;
    }
    // Justified when the host they found is text rfc2396 read as its path
    // (or opaque part): the slashes, not the characters, differ. With a
    // base, WHATWG may have found its host in the base's path (`http:/h`
    // against `x`), or in the resolved path when the reference brought the
    // slashes (`///h` against `ws:/6`: relative slash state, then special
    // authority ignore slashes state); both are candidates.
    let candidates = [
        authorityless_base_path(ctx),
        Some(ctx.ours(Component::Path).unwrap_or_default()),
    ];
    let found_in_path = candidates
        .into_iter()
        .flatten()
        .any(|ours_path| host_found_in_path(ctx, ours_path));
    if !found_in_path {
        return Diff::NONE;
    }
    Diff::of_fields(
        AUTHORITY_PARTS
            .with(Component::Path)
            .union(opaque_query(ctx)),
    )
}

/// Is the host they found text of `ours_path`, as WHATWG reads a host
/// from it: after the leading slashes, before the next delimiter, without
/// userinfo and port?
fn host_found_in_path(ctx: &Ctx<'_, '_>, ours_path: &str) -> bool {
    ctx.theirs(Component::Host).is_some_and(|h| {
        let h = h.to_ascii_lowercase();
        contains_ignoring_ascii_case(ours_path, &h)
            || decoded_lower(ours_path).contains(&h)
            || h.contains("xn--")
            || {
                // Read by WHATWG's IPv4 parser (`0.0.0.7` from `07`), or
                // mapped by IDNA (non-ASCII or `xn--`). Cut out only here:
                // most hosts were found above.
                let written = host_in_path(ours_path, &['/', '\\'], &['/', '\\', '?', '#']);
                same_address(written, &h)
                    || !written.is_ascii()
                    || !decoded_lower(written).is_ascii()
            }
    })
}

/// Does `haystack`, lowercased (ASCII), hold `needle` (lowercase)? The same
/// as `haystack.to_ascii_lowercase().contains(needle)`, without the copy.
fn contains_ignoring_ascii_case(haystack: &str, needle: &str) -> bool {
    let n = needle.as_bytes();
    n.is_empty()
        || haystack
            .as_bytes()
            .windows(n.len())
            .any(|w| w.eq_ignore_ascii_case(n))
}

/// `authority = server | reg_name` (RFC 2396 section 3.2): what is not a
/// `server` is a naming authority with no host, userinfo or port; RFC 3986
/// and WHATWG find a host in it (`a_b.example`, `a@b@c`).
pub(crate) fn reg_name_authority(ctx: &Ctx<'_, '_>) -> Diff {
    match ctx.parsed {
        Ok(r) if r.authority_kind() == Some(AuthorityKind::RegName) => Diff {
            verdict: true,
            fields: AUTHORITY_PARTS,
        },
        _ => Diff::NONE,
    }
}

/// java.net.URI's host of one label that starts with a digit (`dvd://1`,
/// `http://1a/`): its getHost() javadoc asks an alpha first only of "the
/// rightmost label of a domain name consisting of two or more labels";
/// RFC 2396's `toplabel` starts with an alpha (section 3.2.2), so RFC 2396
/// reads the authority as a `reg_name`. A label is alphanumerics and `-`,
/// neither first nor last (the same javadoc). Applies to the shipped
/// `java-uri` external oracle (its scope).
pub(crate) fn java_single_label_host(ctx: &Ctx<'_, '_>) -> Diff {
    let single_label = ctx
        .theirs(Component::Host)
        .is_some_and(is_java_single_label);
    if !single_label {
        return Diff::NONE;
    }
    reg_name_authority(ctx)
}

/// One domain label that starts with a digit, with the optional trailing
/// `.` of RFC 2396's `hostname` (`1`, `1a`, `1.`): a host java.net.URI's
/// javadoc permits.
pub(crate) fn is_java_single_label(host: &str) -> bool {
    let label = host.strip_suffix('.').unwrap_or(host);
    label.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && !label.ends_with('-')
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// java.net.URI takes `file:///p` although RFC 2396's grammar does not
/// derive an empty authority, and then leaves the authority (with its
/// user-information, host and port) undefined: its javadoc, "an empty
/// authority component is permitted as long as it is followed by a
/// non-empty path, a query component, or a fragment component". Applies to
/// the shipped `java-uri` external oracle (its scope).
///
/// The same sentence makes it refuse an empty authority followed by
/// nothing (`ftp://`: "Expected authority"), and with a base,
/// `URI.resolve` then reads a reference with an empty authority as one
/// without (`//#f` as `#f`, `///p` as `/p`): see
/// [`super::java::uri_empty_authority_refused`] and
/// [`super::java::uri_empty_authority_resolved`].
pub(crate) fn java_empty_authority(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    let undefined = f.intersection(ComponentSet::of(&[Component::Authority]));
    let resolved = super::java::uri_empty_authority_resolved(ctx);
    Diff {
        verdict: super::java::uri_empty_authority_refused(ctx),
        fields: undefined.union(resolved.fields),
    }
}

/// `ftp://@host/` has an empty userinfo (RFC 2396 section 3.2.2; RFC 1738
/// section 3.1 tells it apart from none); WHATWG drops the `@`.
pub(crate) fn empty_userinfo(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Userinfo])))
}

/// `user:@host`: an empty password (RFC 1738 section 3.1); WHATWG drops the `:`.
pub(crate) fn empty_password(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| {
        ours.and_then(|o| o.strip_suffix(':'))
            .is_some_and(|o| match theirs {
                // WHATWG also percent-encodes userinfo characters (`;`, `=`).
                Some(t) => same_octets(o, t),
                None => o.is_empty(),
            })
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Userinfo])))
}

/// A component RFC 2396 has present and empty that the parser's API
/// reports as absent (it has no empty value for it).
pub(crate) fn empty_as_absent(ctx: &Ctx<'_, '_>) -> Diff {
    Diff::of_fields(ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none()))
}

/// urllib3's `authority` and yarl's `raw_authority` are not text of the
/// input but rebuilt from the parser's own parts (`userinfo@host:port`,
/// each as the parser keeps it: a lower-cased host, a port as a number,
/// an encoded password): the authority differs exactly where those parts
/// do, and those are judged field by field. Claims the authority when it
/// is their parts joined.
pub(crate) fn authority_rebuilt(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(authority), Some(host)) = (
        ctx.theirs(Component::Authority),
        ctx.theirs(Component::Host),
    ) else {
        return Diff::NONE;
    };
    let mut joined = String::new();
    if let Some(userinfo) = ctx.theirs(Component::Userinfo) {
        joined.push_str(userinfo);
        joined.push('@');
    }
    joined.push_str(host);
    if let Some(port) = ctx.theirs(Component::Port) {
        joined.push(':');
        joined.push_str(port);
    }
    if joined == authority {
        Diff::of_fields(
            ctx.open
                .fields
                .intersection(ComponentSet::of(&[Component::Authority])),
        )
    } else {
        Diff::NONE
    }
}

/// urllib3's `parse_url` puts `//` before an input that does not start
/// with a scheme (`[a-zA-Z][a-zA-Z0-9+-]*:`) or `/` (its `_SCHEME_RE`), so
/// that `google.com:80` reads host `google.com`, port 80 (its docstring's
/// example): what RFC 2396 reads as a relative path is an authority to
/// it. Claimed when their host (as urllib3 documents writing it: the
/// descriptor's host readings) and path are those of `//` and the input,
/// or when urllib3 refuses that host for a percent-encoded control
/// character, as it documents (urllib3#5095: "rejecting ... percent-encoded
/// control characters in HTTP(S) hosts").
pub(crate) fn schemeless_authority(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_some() || ctx.input.starts_with('/') || urllib3_scheme(ctx.input) {
        return Diff::NONE;
    }
    let prefixed = format!("//{}", ctx.input);
    let split = crate::oracle::appendix_b_split(&prefixed);
    let Some(authority) = split.authority else {
        return Diff::NONE;
    };
    let written = crate::triage::host::host_text(authority);
    if control_in_host_refused(ctx, written) {
        return Diff {
            verdict: true,
            fields: ctx.open.fields,
        };
    }
    let same_host = ctx.theirs(Component::Host).is_some_and(|h| {
        h.eq_ignore_ascii_case(written)
            || crate::triage::reading::host_reading(ctx.oracle, None, written, h).is_some()
    });
    let theirs_path = ctx.theirs(Component::Path).unwrap_or_default();
    // urllib3 normalises the path it reads (no scheme is one of its
    // normalisable ones): dot segments removed, escapes' hex in upper case.
    if same_host
        && (same_octets(theirs_path, split.path)
            || super::path::urllib3_path(split.path, theirs_path))
    {
        Diff::of_fields(
            ctx.open
                .fields
                .intersection(AUTHORITY_PARTS.with(Component::Path)),
        )
    } else {
        Diff::NONE
    }
}

/// Did the parser refuse, with the message urllib3's `_decode_percent_encoding`
/// gives, a host `written` that holds a percent-encoded C0 control or DEL?
fn control_in_host_refused(ctx: &Ctx<'_, '_>, written: &str) -> bool {
    let control = written.as_bytes().windows(3).any(|w| {
        matches!(w, [b'%', b'0' | b'1', d] if d.is_ascii_hexdigit())
            || w.eq_ignore_ascii_case(b"%7f")
    });
    control
        && !ctx.theirs.accepted()
        && ctx.theirs.in_domain()
        && ctx
            .theirs
            .message
            .as_deref()
            .is_some_and(|m| m.contains("invalid percent-encoded control character"))
}

/// Does `input` start the way urllib3's `_SCHEME_RE` wants a scheme to?
fn urllib3_scheme(input: &str) -> bool {
    let Some((scheme, _)) = input.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-')
}
