//! Resolution against a base: where RFC 2396 section 5.2 resolves a pair
//! differently from RFC 3986 section 5.2 and the URL Standard, and what a
//! parser that reads the base its own way does with it.

use std::borrow::Cow;

use super::{AUTHORITY_PARTS, Target, base_parsed, resolve_error, their_reading_of_base};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::OracleId;
use crate::rfc2396::{RefKind, ResolveError};
use crate::triage::text::{drop_above_root, has_scheme, same_octets, with_dot_segments_decoded};
use crate::triage::{Class, Ctx, Resolution};

/// `http:g` against an `http` base: RFC 2396 (section 5.2 step 3, Appendix
/// C.2) and RFC 3986 (section 5.2.2, strict) take a reference with a scheme
/// as absolute, `http:g`; the URL Standard reads a special scheme equal to
/// the base's as a relative reference (scheme state, "special relative or
/// authority state"): `http://a/b/c/g`. Claimed when the other's result is
/// on the base's host.
pub(crate) fn same_scheme_reference(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(&Resolution {
        base, reference, ..
    }) = ctx.resolved
    else {
        return Diff::NONE;
    };
    let (Some((scheme, rest)), Some((base_scheme, _))) =
        (reference.split_once(':'), base.split_once(':'))
    else {
        return Diff::NONE;
    };
    let same_scheme = has_scheme(reference) && scheme.eq_ignore_ascii_case(base_scheme);
    if !same_scheme || rest.starts_with("//") {
        return Diff::NONE;
    }
    // java.net.URL drops the scheme only against a base whose path starts
    // with `/`: its own resolution of the rest must give their result.
    if Target::External("java-url").covers(ctx.oracle) {
        return if super::java::url_same_scheme_resolution(ctx) {
            Diff {
                verdict: true,
                fields: ComponentSet::ALL,
            }
        } else {
            Diff::NONE
        };
    }
    // The base's host as rfc2396 reads it, or as the other parser does: the
    // URL Standard gives `ws:7` the host `0.0.0.7` (special authority
    // slashes state), where RFC 2396 reads an `opaque_part`.
    let base_host = base_parsed(ctx).and_then(|b| b.host());
    let their_base = their_reading_of_base(ctx);
    let their_base_host = their_base.and_then(|o| o.components.get(Component::Host));
    let on_base_host = match ctx.theirs(Component::Host) {
        Some(t) => [base_host, their_base_host]
            .into_iter()
            .flatten()
            .any(|b| b.eq_ignore_ascii_case(t)),
        // A base with no host, read as none by both, and a reference with
        // no path whose result has the base's: the reference resolved as a
        // relative one (Node's `ws:?j` against `ws:a`: `ws:a?j`).
        None => {
            let base_path = base_parsed(ctx).map(|b| b.path());
            base_host.is_none()
                && their_base_host.is_none()
                && rest.split(['?', '#']).next().is_some_and(str::is_empty)
                && base_path
                    .is_some_and(|p| !p.is_empty() && ctx.theirs(Component::Path) == Some(p))
        }
    };
    if on_base_host || !ctx.theirs.accepted() {
        Diff {
            verdict: true,
            fields: ComponentSet::ALL,
        }
    } else {
        Diff::NONE
    }
}

/// A base with a fragment: RFC 3986 wants an `absolute-URI` as base
/// (sections 4.3 and 5.1; fluent-uri's `ResolveError::BaseWithFragment`,
/// iri-string's `UriAbsoluteStr`), where RFC 2396 section 5.2 and the URL
/// Standard ignore the base's fragment.
pub(crate) fn base_fragment(ctx: &Ctx<'_, '_>) -> Diff {
    match ctx.resolved {
        Some(r) if r.base.contains('#') && !ctx.theirs.accepted() => Diff::VERDICT,
        _ => Diff::NONE,
    }
}

/// A reference with a scheme against a base RFC 2396 refuses (not absolute,
/// or no URI reference at all): this crate refuses the pair (section 5.2
/// needs an absolute base), where RFC 3986 section 5.2.2 and the URL
/// Standard take an absolute reference as it is whatever the base ("If
/// R.scheme is defined ... T = R"), and http::Uri and libcurl read it as a
/// URL of its own.
pub(crate) fn base_ignored(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(reference) = ctx.resolved.map(|r| r.reference) else {
        return Diff::NONE;
    };
    let refused_base = matches!(
        resolve_error(ctx),
        Some(ResolveError::InvalidBase(_) | ResolveError::RelativeBase)
    );
    if refused_base && has_scheme(reference) && ctx.theirs.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// The other parser refuses the base itself (what `uridiff check BASE`
/// shows and explains), so it resolves nothing against it.
pub(crate) fn base_refused(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || base_parsed(ctx).is_none() {
        return Diff::NONE;
    }
    // An adapter runs over the pipe, not here: its message says it refused
    // the base ("base: ...", the shipped adapters' convention, GUIDE.md).
    let says_so = matches!(ctx.oracle, OracleId::External(_))
        && ctx
            .theirs
            .message
            .as_deref()
            .is_some_and(|m| m.starts_with("base: "));
    let refuses_base = says_so || ctx.their_base().is_some_and(|o| !o.accepted());
    if refuses_base {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// A base with an opaque part (`mailto:a@b`, `t:x`): RFC 2396 resolves only
/// a fragment or an empty reference against it (section 5.2 steps 2 and 3;
/// this crate refuses the rest), RFC 3986 merges even with a rootless path
/// (section 5.2.3; fluent-uri refuses, its `ResolveError`), and the URL
/// Standard refuses all but a fragment-only reference against an opaque-path
/// base (basic URL parser, no scheme state).
pub(crate) fn opaque_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(reference) = ctx.resolved.map(|r| r.reference) else {
        return Diff::NONE;
    };
    let opaque = base_parsed(ctx).is_some_and(|b| b.kind() == RefKind::AbsoluteOpaque)
        || matches!(resolve_error(ctx), Some(ResolveError::OpaqueBase));
    // A WHATWG parser still takes a fragment-only reference, or one with a
    // scheme, against such a base: for it the rule holds only of the rest
    // (a test on the oracle that is part of the rule, not its scope).
    let refused_by_design =
        !ctx.whatwg() || (!reference.starts_with('#') && !has_scheme(reference));
    let refused_here = ctx.ours.accepted() != ctx.theirs.accepted();
    if opaque && refused_here && refused_by_design {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// The merged path starts with `//` and the result has no authority: RFC
/// 2396 and RFC 3986 cannot write it (it would re-parse as an authority;
/// this crate refuses, iri-string's `ensure_rfc3986_normalizable` too),
/// where the URL Standard writes `/.` before it (URL serializing).
pub(crate) fn ambiguous_resolved_path(ctx: &Ctx<'_, '_>) -> Diff {
    match resolve_error(ctx) {
        Some(ResolveError::AmbiguousPath(_)) if ctx.theirs.accepted() => Diff::VERDICT,
        _ => Diff::NONE,
    }
}

/// `?y` against `http://a/b/c/d;p?q`: RFC 2396 (Appendix C.1; section 5.2
/// step 6 merges the base path's directory with the empty path) gives
/// `http://a/b/c/?y`, RFC 3986 section 5.2.2 and the URL Standard keep the
/// base's path: `http://a/b/c/d;p?y`. Claimed when the other's path is the
/// base's.
pub(crate) fn query_only_resolution(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(reference) = ctx.resolved.map(|r| r.reference) else {
        return Diff::NONE;
    };
    if !reference.starts_with('?') {
        return Diff::NONE;
    }
    let base_path = base_parsed(ctx).map_or("", |b| b.path());
    // The base's path as written, or as the other reads it (WHATWG and
    // libcurl remove its dot segments first: see `normalized_base`).
    let their_base = their_reading_of_base(ctx);
    let their_base_path = their_base.and_then(|o| o.components.get(Component::Path));
    // RFC 3986 section 5.2.1 makes normalising the base optional: a
    // resolver that removes the base's dot segments (section 5.2.4) first
    // keeps that path (Go, yarl: `/a/./b` + `?q` gives `/a/b?q`).
    let base_normalized = grammar::rfc3986::remove_dot_segments(base_path);
    let keeps_base_path = ctx.theirs(Component::Path).is_some_and(|p| {
        [Some(base_path), their_base_path, Some(&base_normalized)]
            .into_iter()
            .flatten()
            .any(|b| p == b || same_octets(p, b))
    });
    if keeps_base_path {
        Diff::of_fields(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// The open fields whose value in rfc2396's resolution of `reference`
/// against `base` is the other's (the path also with the `..` above the
/// root dropped) where rfc2396's own result differs.
fn fields_resolved_as_theirs(ctx: &Ctx<'_, '_>, base: &str, reference: &str) -> ComponentSet {
    // A merged path that starts with `//` and has no authority is refused
    // (this crate's `AmbiguousPath`); the URL Standard writes it with `/.`
    // before it, and its path is still comparable.
    let (resolved, ambiguous_path) = match crate::rfc2396::resolve(base, reference) {
        Ok(resolved) => (resolved, None),
        Err(ResolveError::AmbiguousPath(path)) => (String::new(), Some(path)),
        Err(_) => return ComponentSet::EMPTY,
    };
    let parsed = crate::rfc2396::parse(&resolved).ok();
    let value_of = |c: Component| match (&ambiguous_path, &parsed) {
        (Some(path), _) => (c == Component::Path).then_some(path.as_str()),
        (None, Some(parsed)) => parsed.get(c),
        (None, None) => None,
    };
    ctx.open
        .fields
        .iter()
        .filter(|&c| {
            let Some(theirs) = ctx.theirs(c) else {
                return false;
            };
            let Some(value) = value_of(c) else {
                return false;
            };
            let same = |v: &str| v == theirs || same_octets(v, theirs);
            let matches = same(value) || (c == Component::Path && same(drop_above_root(value)));
            matches && ctx.ours(c).is_none_or(|ours| !same(ours))
        })
        .fold(ComponentSet::EMPTY, ComponentSet::with)
}

/// A `%2e` segment in a path being resolved (`1/%2e/..` against `h://t`):
/// the URL Standard reads `%2e` as `.` ("single-dot URL path segment") and
/// `.%2e` as `..`, so `1/%2e/..` climbs out of `1`. RFC 2396 section 5.2
/// step 6, and RFC 3986 section 5.2.4 as written, remove only a literal `.`
/// or `..`: `%2e` is a segment like any other, and `%2e/..` removes it
/// (`/1/`). The RFC 3986 implementations normalise first, as sections 2.3
/// and 6.2.2.2 allow (`%2E` is equivalent to `.`): fluent-uri 0.4
/// `classify_segment`, iri-string 0.7 (its `resolve` docs: "`%2e%2e` is
/// recognized as `..`"), and libcurl's `is_dot` (lib/urlapi.c). Claimed
/// when rfc2396, resolving with those segments written as dots, gives the
/// other's result.
pub(crate) fn encoded_dot_segment(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(&Resolution {
        base, reference, ..
    }) = ctx.resolved
    else {
        return Diff::NONE;
    };
    let (Some(base_dots), Some(reference_dots)) = (
        with_dot_segments_decoded(base),
        with_dot_segments_decoded(reference),
    ) else {
        return Diff::NONE;
    };
    if matches!(
        (&base_dots, &reference_dots),
        (Cow::Borrowed(_), Cow::Borrowed(_))
    ) {
        return Diff::NONE;
    }
    let fields = fields_resolved_as_theirs(ctx, &base_dots, &reference_dots);
    Diff::of_fields(fields.intersection(ComponentSet::of(&[Component::Path])))
}

/// The other parser resolves against the base as it reads it, normalised:
/// in the URL Standard the base is a URL record, parsed before the
/// reference, its path already shortened by its `..` and `%2e` segments
/// (path state) and its special-scheme host found; libcurl removes the
/// dot segments of the base when it is set (`dedotdotify`, lib/urlapi.c,
/// unless `CURLU_PATH_AS_IS`). RFC 2396 section 5.2 step 6 merges with the
/// base's path as written, dropping its last segment, dot segment or not
/// (`i` against `r:/f//..`: `r:/f//i`, WHATWG `r:/f/i`). yarl removes the
/// dot segments of a path under an authority as it parses the base
/// (yarl/_url.py: `if netloc and "." in path: path =
/// normalize_path(path)`), which RFC 3986 section 5.2.1 allows
/// ("Normalization of the base URI ... is optional"). Claimed for the
/// fields rfc2396's resolution against the other's reading of the base
/// gives as the other does.
pub(crate) fn normalized_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(&Resolution {
        base, reference, ..
    }) = ctx.resolved
    else {
        return Diff::NONE;
    };
    let Some(theirs) = their_reading_of_base(ctx) else {
        // A shipped adapter's reading of the base alone is not at hand
        // here (it runs over the pipe): the base as RFC 3986 section 6.2.2
        // normalises it (escaped unreserved octets decoded, dot segments
        // removed), which is what yarl's documented reading gives.
        let normalized = crate::oracle::grammar_rfc3986_resolve_normalized_base(base, reference);
        if !normalized.accepted() {
            return Diff::NONE;
        }
        let fields = ctx
            .open
            .fields
            .iter()
            .filter(|&c| c == Component::Path)
            .filter(|&c| match (normalized.components.get(c), ctx.theirs(c)) {
                (Some(n), Some(t)) => n == t || same_octets(n, t),
                _ => false,
            })
            .fold(ComponentSet::EMPTY, ComponentSet::with);
        return Diff::of_fields(fields);
    };
    // An adapter reports no serialisation of a URL parsed alone (yarl's
    // answers carry one only with a base): its reading of the base is then
    // its components, of which the path is what the merge reads.
    let serialized = theirs.serialization.as_deref();
    let their_base = serialized.unwrap_or(base);
    if serialized.is_some() && their_base == base {
        return Diff::NONE;
    }
    let mut fields = fields_resolved_as_theirs(ctx, their_base, reference);
    if let Some(Cow::Owned(reference_dots)) = with_dot_segments_decoded(reference) {
        fields = fields.union(fields_resolved_as_theirs(ctx, their_base, &reference_dots));
    }
    // Their serialization of the base may hold what RFC 2396 refuses (url
    // writes the host `%22el` as `"el`): the merge of paths does not depend
    // on the rest, so their base's path alone, under a stand-in authority,
    // still settles the path.
    if (serialized.is_none() || crate::rfc2396::parse(their_base).is_err())
        && let Some(path) = theirs
            .components
            .get(Component::Path)
            .filter(|p| p.starts_with('/'))
    {
        let stand_in = format!("x://h{path}");
        let path_only = ComponentSet::of(&[Component::Path]);
        fields = fields
            .union(fields_resolved_as_theirs(ctx, &stand_in, reference).intersection(path_only));
    }
    Diff::of_fields(fields)
}

/// The schemes `urllib.parse.urljoin` resolves a reference against
/// (CPython Lib/urllib/parse.py, `uses_relative`; yarl imports the same
/// list as `USES_RELATIVE`, and httpx's `URL.join` calls `urljoin`).
pub(crate) const USES_RELATIVE: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms",
    "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss",
];

/// Does `urllib.parse.urljoin` resolve against `base`: has it no scheme,
/// or one in `uses_relative`? (Against another it returns the reference
/// unresolved: [`join_without_relative_scheme`].)
pub(crate) fn urljoin_resolves(base: &str) -> bool {
    let scheme = base
        .split_once(':')
        .filter(|_| has_scheme(base))
        .map_or("", |(scheme, _)| scheme);
    USES_RELATIVE.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// `urllib.parse.urljoin` (and yarl's and httpx's `join`, which follow it)
/// resolves only against a base whose scheme is in `uses_relative`; against
/// any other base it returns the reference as it is ("if scheme != bscheme
/// or scheme not in uses_relative: return url"; cpython#110463, open:
/// `urljoin("s3://example.com", "relative_path")` is `relative_path`).
/// RFC 2396 and RFC 3986 section 5.2 resolve against any base. Claimed when
/// the base's scheme is not in the list and the other's result is the
/// reference read alone.
pub(crate) fn join_without_relative_scheme(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(&Resolution {
        base, reference, ..
    }) = ctx.resolved
    else {
        return Diff::NONE;
    };
    if !has_scheme(base) || urljoin_resolves(base) || !ctx.theirs.accepted() {
        return Diff::NONE;
    }
    let alone = crate::oracle::appendix_b_split(reference);
    // The reference as the parser reads it alone: yarl keeps an empty
    // authority as none (`//`: no host), writes an empty path under a host
    // as `/`, and decodes escaped unreserved octets (`%41` is `A`).
    let same = |theirs: Option<&str>, split: Option<&str>| {
        same_octets(theirs.unwrap_or_default(), split.unwrap_or_default())
    };
    let their_host = ctx.theirs(Component::Host);
    let host_alike = their_host.is_some() == alone.authority.is_some()
        || (their_host.is_none() && alone.authority == Some(""));
    let path_alike = same(ctx.theirs(Component::Path), Some(alone.path))
        || (alone.path.is_empty()
            && their_host.is_some()
            && ctx.theirs(Component::Path) == Some("/"));
    let read_alone = ctx
        .theirs(Component::Scheme)
        .unwrap_or_default()
        .eq_ignore_ascii_case(alone.scheme.unwrap_or_default())
        && host_alike
        && path_alike
        && same(ctx.theirs(Component::Query), alone.query)
        && same(ctx.theirs(Component::Fragment), alone.fragment);
    if read_alone {
        Diff::of_fields(ctx.open.fields)
    } else {
        Diff::NONE
    }
}

/// Go's `ResolveReference` gives a `*url.URL` whose `String()` writes `//`
/// after the scheme although the host is empty ("scheme://userinfo@host/path",
/// "if u.Host is empty, host/ is omitted"): the result does not carry the
/// base's `OmitHost` ("do not emit empty host (authority)"), so a base
/// without an authority resolves to a URI with an empty one. Claimed when
/// rfc2396's result has no authority and theirs an empty one, with no
/// userinfo, host or port in it.
pub(crate) fn serialized_empty_authority(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_none() || ctx.ours(Component::Authority).is_some() {
        return Diff::NONE;
    }
    let empty = ctx.theirs(Component::Authority) == Some("")
        && ctx.theirs(Component::Host).is_none_or(str::is_empty)
        && ctx.theirs(Component::Userinfo).is_none()
        && ctx.theirs(Component::Port).is_none();
    if empty {
        ctx.claim(ComponentSet::of(&[Component::Authority, Component::Host]))
    } else {
        Diff::NONE
    }
}

/// A base RFC 2396 (section 5.2) and RFC 3986 (section 5.2.1: "a base URI
/// must conform to the absolute-URI syntax rule") do not resolve against:
/// one without a scheme, or one with an opaque part. A joiner that claims
/// no standard joins anyway (`urljoin`, Go's `ResolveReference`, whose
/// doc states an absolute base as the caller's precondition, Node's
/// `url.resolve`, url-parse, Perl's `abs`): its result is its own reading,
/// not a departure. Claims the verdict.
pub(crate) fn lenient_base(ctx: &Ctx<'_, '_>) -> Diff {
    let refused_base = matches!(
        resolve_error(ctx),
        Some(ResolveError::RelativeBase | ResolveError::OpaqueBase)
    );
    if refused_base && ctx.theirs.accepted() {
        Diff {
            verdict: true,
            fields: ctx.open.fields,
        }
    } else {
        Diff::NONE
    }
}

/// A reference with an empty authority (`//`, `//?q`, `///p`, or the
/// base's scheme before it) takes its authority and path from itself (RFC
/// 3986 section 5.2.2: "if defined(R.authority) then T.authority =
/// R.authority; T.path = remove_dot_segments(R.path)"), so `//` against
/// `http://a/b` is `http:`. Go's `ResolveReference` tests `ref.Host !=
/// ""`, CPython's `urljoin` `if netloc:` and yarl's `URL.join` `if
/// (join_netloc := url._netloc)`, so an empty authority counts as none and
/// the base's authority and path are kept (`http://a/b`).
/// Claims the authority's parts, the path and the query.
pub(crate) fn empty_authority_ignored(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let reference = crate::oracle::appendix_b_split(resolved.reference);
    let base_scheme = crate::oracle::appendix_b_split(resolved.base).scheme;
    let same_scheme = match (reference.scheme, base_scheme) {
        (None, _) => true,
        (Some(r), Some(b)) => r.eq_ignore_ascii_case(b),
        (Some(_), None) => false,
    };
    if !same_scheme || reference.authority != Some("") {
        return Diff::NONE;
    }
    // A joiner that resolves only against a base of its `uses_relative`
    // list (`join-without-relative-scheme`'s scope) returns the reference
    // whole against another: nothing was ignored.
    let covers = |class: Class| {
        crate::triage::classes::RULES
            .iter()
            .any(|rule| rule.class == class && rule.scope.covers(ctx.oracle))
    };
    let base_relative =
        base_scheme.is_some_and(|b| USES_RELATIVE.iter().any(|s| s.eq_ignore_ascii_case(b)));
    if covers(Class::JoinWithoutRelativeScheme) && !base_relative {
        return Diff::NONE;
    }
    // A parser without empty values (`empty-as-absent`: yarl) reports the
    // empty ones as none: that is that class's.
    let empty_as_absent = if covers(Class::EmptyAsAbsent) {
        ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none())
    } else {
        ComponentSet::EMPTY
    };
    // Ignored, not honoured: honouring it gives no host (or an empty one,
    // `empty-host`) and the reference's own path, dot segments removed or
    // not (`dot-segments`); anything else (the base's host, the base's
    // path) is the empty authority taken for none.
    // Each part on its own: a parser that kept the empty host and lost
    // the path otherwise (Go's `///f`, `go-triple-slash-path`) ignored
    // nothing of the authority.
    let ours_path = ctx.ours(Component::Path).unwrap_or_default();
    let host_honoured = ctx.theirs(Component::Host).is_none_or(str::is_empty);
    let path_honoured = ctx
        .theirs(Component::Path)
        .is_some_and(|p| p == ours_path || p == grammar::rfc3986::remove_dot_segments(ours_path));
    if host_honoured && path_honoured {
        return Diff::NONE;
    }
    let parts = if host_honoured {
        ComponentSet::EMPTY
    } else {
        AUTHORITY_PARTS
    };
    ctx.claim(
        parts
            .union(ComponentSet::of(&[Component::Path, Component::Query]))
            .difference(empty_as_absent),
    )
}
