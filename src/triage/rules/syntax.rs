//! The shape of a reference: what RFC 2396's grammar cannot derive (an
//! empty opaque part, a query-only reference, a scheme that is not one),
//! what it reads differently (a relative reference, `?` in an opaque
//! part), and the lengths other parsers bound.

use super::{AUTHORITY_PARTS, opaque, rejected_with};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::oracle::{OracleId, Verdict};
use crate::rfc2396::ErrorKind;
use crate::triage::text::{has_scheme, same_octets};
use crate::triage::{Class, Ctx};

/// urllib3's `parse_url` takes a scheme only of letters, digits, `+` and
/// `-` (its `SCHEME_RE`), so `opc.tcp://h:1` has no scheme there and the
/// text before `://` becomes the host; RFC 3986 section 3.1 has `.` in
/// `scheme`, and urllib3 documents `parse_url` as "RFC 3986 and RFC 6874
/// compliant" (urllib3#2897, open). Every field that differs is that
/// misreading's doing, but a path it only normalised.
pub(crate) fn dotted_scheme(ctx: &Ctx<'_, '_>) -> Diff {
    let dotted = ctx.ours(Component::Scheme).is_some_and(|s| s.contains('.'));
    // A pair is out of urllib3's domain (no resolution function): that
    // says nothing about its scheme. A refusal is the same misreading's
    // doing: `F.X3:aaR` is host `F.X3` with the port `aaR` to urllib3
    // ("is not a valid host or port").
    if !dotted
        || ctx.resolved.is_some()
        || !ctx.theirs.in_domain()
        || ctx.theirs(Component::Scheme).is_some()
    {
        return Diff::NONE;
    }
    // A path it reads as rfc2396 does, but for the dot segments it removes
    // and the escapes it upper-cases (`hx.tr:/.//@ab`: `//@ab`), is its
    // documented normalisation (`dot-segments`), not the misreading.
    let same_path = matches!(
        (ctx.ours(Component::Path), ctx.theirs(Component::Path)),
        (Some(ours), Some(theirs)) if ours != theirs && super::path::urllib3_path(ours, theirs)
    );
    let fields = if same_path {
        ComponentSet::ALL.difference(ComponentSet::of(&[Component::Path]))
    } else {
        ComponentSet::ALL
    };
    Diff {
        verdict: true,
        fields,
    }
}

/// `http::Uri` refuses request targets over 65 534 bytes (its `MAX_LEN`)
/// and schemes over 64 bytes (`MAX_SCHEME_LEN`); libcurl refuses input over
/// 8 000 000 bytes (`CURL_MAX_INPUT_LENGTH`) and schemes over 40 bytes
/// (`MAX_SCHEME_LEN`, lib/urlapi.c); RFC 2396 sets no limits.
pub(crate) fn length_limit(ctx: &Ctx<'_, '_>) -> Diff {
    // The limits differ by parser: part of the rule, not only its scope.
    let (max_len, max_scheme_len) = match ctx.oracle {
        OracleId::Http => (u16::MAX as usize - 1, 64),
        OracleId::Curl => (8_000_000, 40),
        _ => return Diff::NONE,
    };
    // With a base, libcurl reads a reference whose "scheme" is too long
    // for it as a relative reference, and resolves it against the base.
    if let Some(reference) = ctx.resolved.map(|r| r.reference)
        && ctx.oracle == OracleId::Curl
        && ctx.theirs.accepted()
        && has_scheme(reference)
        && reference
            .split(':')
            .next()
            .is_some_and(|s| s.len() > max_scheme_len)
    {
        return Diff {
            verdict: false,
            fields: ComponentSet::ALL,
        };
    }
    let too_long = ctx.input.len() > max_len
        || ctx
            .ours(Component::Scheme)
            .is_some_and(|s| s.len() > max_scheme_len);
    if too_long && !ctx.theirs.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `opaque_part = uric_no_slash *uric` cannot be empty (RFC 2396 section 3);
/// RFC 3986 section 3 (`path-empty`) and WHATWG allow `about:`.
pub(crate) fn empty_opaque_part(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| k == ErrorKind::EmptyOpaquePart)
}

/// `rel_segment = 1*(...)` makes `?y` underivable (RFC 2396 Appendix A),
/// though Appendix C resolves it; RFC 3986 section 4.2 allows it.
pub(crate) fn query_only_reference(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| k == ErrorKind::MissingRelSegment)
}

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )` (RFC 2396 section
/// 3.1): text before `:` that is not a scheme leaves a relative path whose
/// first segment may not hold `:` (section 5). Also covers a parser that
/// takes such text as a scheme where rfc2396 read a relative path: then
/// the scheme, and the path that rfc2396 read from the same text, differ
/// because of it (claimed only when rfc2396's path starts with their
/// scheme and `:`).
pub(crate) fn scheme_syntax(ctx: &Ctx<'_, '_>) -> Diff {
    let rejected = rejected_with(ctx, |k, _| k == ErrorKind::ColonInRelSegment);
    if !rejected.is_empty() {
        return rejected;
    }
    let (None, Some(theirs)) = (ctx.ours(Component::Scheme), ctx.theirs(Component::Scheme)) else {
        return Diff::NONE;
    };
    let read_as_path = ctx.ours(Component::Path).is_some_and(|p| {
        p.get(..theirs.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(theirs))
            && p.as_bytes().get(theirs.len()) == Some(&b':')
    });
    if !read_as_path {
        return Diff::of_fields(ComponentSet::of(&[Component::Scheme]));
    }
    // The rest of rfc2396's path is what the other split into its parts.
    Diff::of_fields(
        ComponentSet::ALL.difference(ComponentSet::of(&[Component::Query, Component::Fragment])),
    )
}

/// A relative reference (RFC 2396 section 5) is out of the domain of a
/// parser without a base (`url`), and only origin-form (`/path`) is an HTTP
/// request target.
///
/// With a base, the same holds of the reference: `http::Uri` follows only
/// origin-form (`/path`) and absolute-form references.
pub(crate) fn relative_reference(ctx: &Ctx<'_, '_>) -> Diff {
    // Applies to every parser without a base, and with one only to
    // http::Uri (the others resolve relative references): the test on the
    // oracle is part of the rule, not its scope.
    let relative = match ctx.resolved {
        Some(r) => {
            !r.reference.starts_with('/')
                && !has_scheme(r.reference)
                && ctx.oracle == OracleId::Http
        }
        None => matches!(ctx.parsed, Ok(r) if !r.kind().is_absolute()),
    };
    let refused = ctx.theirs.verdict == Verdict::OutOfDomain
        || (ctx.oracle == OracleId::Http && ctx.theirs.verdict == Verdict::Reject);
    if relative && refused {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// An oracle that finds the input out of its domain declined to read it
/// (its descriptor's domain: a pair, for a parser without a resolution
/// function): claims the verdict, since nothing it read can depart from
/// anything. Stands after every rule that names a reason.
pub(crate) fn out_of_domain(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.verdict == Verdict::OutOfDomain {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `java.net.URL` has a stream handler for a few schemes only and refuses
/// the others ("unknown protocol"), which its adapter answers as out of its
/// domain: claims the verdict of an absolute URI (with a base, the base
/// names the scheme) that it finds out of its domain.
pub(crate) fn url_scheme_without_handler(ctx: &Ctx<'_, '_>) -> Diff {
    let text = ctx.resolved.map_or(ctx.input, |r| r.base);
    if ctx.theirs.verdict == Verdict::OutOfDomain && has_scheme(text) {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// `?` in an `opaque_part` is part of it: the grammar gives an opaque URI no
/// query (RFC 2396 section 3); RFC 3986, WHATWG and Appendix B split it off.
pub(crate) fn opaque_part_query(ctx: &Ctx<'_, '_>) -> Diff {
    let opaque = opaque(ctx);
    // A parser that has no empty query (`empty-as-absent`: yarl) reports
    // the empty query after a final `?` as none.
    let no_empty_value = || {
        crate::triage::classes::RULES
            .iter()
            .any(|rule| rule.class == Class::EmptyAsAbsent && rule.scope.covers(ctx.oracle))
    };
    let query = match ctx.theirs(Component::Query) {
        Some(query) => Some(query),
        None if no_empty_value() => Some(""),
        None => None,
    };
    // Likewise an empty path reported as none (Node's `pathname: null` for
    // `gmi:?g`).
    let path = match ctx.theirs(Component::Path) {
        Some(path) => Some(path),
        None if no_empty_value() => Some(""),
        None => None,
    };
    let (Some(ours), Some(path), Some(query)) = (ctx.ours(Component::Path), path, query) else {
        return Diff::NONE;
    };
    let Some((p, q)) = ours.split_once('?').filter(|_| opaque) else {
        return Diff::NONE;
    };
    if !same_octets(q, query) {
        return Diff::NONE;
    }
    if same_octets(p, path) {
        return Diff::of_fields(ComponentSet::of(&[Component::Path, Component::Query]));
    }
    // The path read further, by a normaliser that removes its dot
    // segments (`dot-segments`, RFC 3986 section 6.2.2.3), or a path an
    // earlier rule explained already: the query is still split off here.
    let removed = grammar::rfc3986::remove_dot_segments(p);
    let path_explained =
        !ctx.open.fields.contains(Component::Path) || (removed != p && same_octets(&removed, path));
    if path_explained {
        Diff::of_fields(ComponentSet::of(&[Component::Query]))
    } else {
        Diff::NONE
    }
}

/// Perl's URI: for a scheme without the generic syntax (`mailto:`) `path`
/// returns the opaque part, `?` and all ("the same value as $uri->opaque
/// unless the URI supports the generic syntax", perldoc URI), while the
/// generic `query`, which the mailto class has too, returns what follows
/// the first `?`: both hold the query. Its mailto class reads the text
/// after `mailto:` as its opaque part even where it starts with `//` (RFC
/// 2396's `net_path`: `mailto://a@b?x` has the path `//a@b?x`), so there
/// the path is claimed too.
pub(crate) fn opaque_path_and_query(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_none()
        && let Some(path) = ctx.theirs(Component::Path)
        && path.starts_with("//")
        && ctx.theirs(Component::Authority).is_none()
        && let Some((_, after_scheme)) = ctx.input.split_once(':')
        && appendix_b_split(ctx.input).scheme.is_some()
        && after_scheme.split('#').next() == Some(path)
    {
        return ctx.claim(ComponentSet::of(&[Component::Path, Component::Query]));
    }
    let (Some(ours), Some(path), Some(query)) = (
        ctx.ours(Component::Path),
        ctx.theirs(Component::Path),
        ctx.theirs(Component::Query),
    ) else {
        return Diff::NONE;
    };
    let after_mark = ours
        .split_once('?')
        .is_some_and(|(_, q)| same_octets(q, query));
    if opaque(ctx) && same_octets(ours, path) && after_mark {
        ctx.claim(ComponentSet::of(&[Component::Query]))
    } else {
        Diff::NONE
    }
}

/// `java.net.URL`'s handler for `mailto:` (JDK 17,
/// `sun.net.www.protocol.mailto.Handler.parseURL`) takes the whole text
/// after `mailto:` as the URL's file, `//` and all, with no authority:
/// `getPath()` is that text up to `?`, `getQuery()` the rest (`mailto://a@b?x`:
/// path `//a@b`, query `x`), where RFC 2396 reads `//a@b` as a
/// `net_path`. It also drops the fragment `java.net.URL` split off before
/// calling it (`setURL(u, protocol, "", -1, file, null)`: the ref is null;
/// `mailto:a@b#f` has `getRef()` null, run with JDK 17). Claims the
/// authority's parts, the path, the query, and the fragment where theirs
/// has none.
pub(crate) fn java_mailto_handler(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_some() {
        return Diff::NONE;
    }
    let split = appendix_b_split(ctx.input);
    let Some(scheme) = split.scheme else {
        return Diff::NONE;
    };
    let Some((_, after_scheme)) = ctx.input.split_once(':') else {
        return Diff::NONE;
    };
    let file = after_scheme.split('#').next().unwrap_or_default();
    let path = file.split('?').next().unwrap_or_default();
    let read_whole = scheme.eq_ignore_ascii_case("mailto")
        && ctx.theirs(Component::Authority).is_none()
        && ctx.theirs(Component::Path) == Some(path);
    if read_whole {
        let fragment = if split.fragment.is_some() && ctx.theirs(Component::Fragment).is_none() {
            ComponentSet::of(&[Component::Fragment])
        } else {
            ComponentSet::EMPTY
        };
        ctx.claim(
            AUTHORITY_PARTS
                .union(ComponentSet::of(&[Component::Path, Component::Query]))
                .union(fragment),
        )
    } else {
        Diff::NONE
    }
}
