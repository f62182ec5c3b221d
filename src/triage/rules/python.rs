//! CPython's `urllib.parse.urljoin` and httpx's path normalisation: the
//! departures from RFC 3986 section 5.2 their trackers or sources record,
//! each checked by running the library directly (CPython 3.11.7, httpx
//! 0.28.1).

use super::base_parsed;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;
use crate::triage::text::same_octets;

/// The path `urljoin` gives for a relative-path or absolute-path reference
/// `reference` against a base path `base` (CPython Lib/urllib/parse.py,
/// `urljoin`, 3.5 to 3.14): the base's last segment is dropped, and for a
/// relative path the empty segments between the first and the last are
/// filtered out ("filter out elements that would cause redundant slashes
/// on re-joining the resolved_path") before `.` and `..` are applied. RFC
/// 3986 section 5.2.4 keeps empty segments: `/b//c` + `d` is `/b//d`,
/// urljoin's `/b/d` (python/cpython#84774, open).
pub(crate) fn urljoin_path(base: &str, reference: &str) -> String {
    let mut segments: Vec<&str> = if reference.starts_with('/') {
        reference.split('/').collect()
    } else {
        let mut base_parts: Vec<&str> = base.split('/').collect();
        if base_parts.last().is_some_and(|last| !last.is_empty()) {
            base_parts.pop();
        }
        base_parts.extend(reference.split('/'));
        let last = base_parts.len().saturating_sub(1);
        base_parts
            .iter()
            .enumerate()
            .filter(|&(i, s)| i == 0 || i == last || !s.is_empty())
            .map(|(_, s)| *s)
            .collect()
    };
    let ends_in_dot = matches!(segments.last(), Some(&".") | Some(&".."));
    let mut resolved: Vec<&str> = Vec::with_capacity(segments.len());
    for segment in segments.drain(..) {
        match segment {
            ".." => {
                resolved.pop();
            }
            "." => {}
            other => resolved.push(other),
        }
    }
    if ends_in_dot {
        resolved.push("");
    }
    let joined = resolved.join("/");
    if joined.is_empty() {
        "/".to_owned()
    } else {
        joined
    }
}

/// httpx's `normalize_path` (httpx/_urlparse.py, 0.28.1), applied to the
/// path of every URL with a scheme or an authority: `.` segments dropped,
/// `..` pops the segment before it, and the segments joined again. A
/// final `.` or `..` therefore takes the slash before it along (`/a/.` is
/// `/a`, `/a/..` and `/.` are empty), where RFC 3986 section 5.2.4, which
/// its comment cites, gives `/a/` and `/` (its docstring's own example
/// `normalize_path("/path/./to/somewhere/..") == "/path/to"` shows it).
pub(crate) fn httpx_normalize_path(path: &str) -> String {
    let components: Vec<&str> = path.split('/').collect();
    if !components.iter().any(|c| *c == "." || *c == "..") {
        return path.to_owned();
    }
    let mut output: Vec<&str> = Vec::with_capacity(components.len());
    for component in components {
        match component {
            "." => {}
            ".." => {
                if !(output.is_empty() || output == [""]) {
                    output.pop();
                }
            }
            other => output.push(other),
        }
    }
    output.join("/")
}

/// Python's `urljoin` (and httpx's `URL.join`, which calls it, then
/// normalises the base and the result with `normalize_path`) drops the
/// empty segments of a merged path (python/cpython#84774): claims the path
/// where theirs is that join of the base's path and the reference's, and
/// RFC 3986's is not. Not against a base whose scheme is outside
/// `uses_relative`: urljoin then returns the reference whole, merging
/// nothing (`join-without-relative-scheme` accounts for it).
pub(crate) fn urljoin_empty_segments(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(resolved), Some(base)) = (ctx.resolved, base_parsed(ctx)) else {
        return Diff::NONE;
    };
    if !super::resolution::urljoin_resolves(resolved.base) {
        return Diff::NONE;
    }
    let reference = appendix_b_split(resolved.reference);
    if reference.scheme.is_some() || reference.authority.is_some() || reference.path.is_empty() {
        return Diff::NONE;
    }
    let Some(theirs) = ctx.theirs(Component::Path) else {
        return Diff::NONE;
    };
    // httpx's join normalises the base and the result too; urljoin's
    // alone is the other reading (the rule's scope names whose).
    let joined = urljoin_path(base.path(), reference.path);
    let joined_by_httpx = httpx_normalize_path(&urljoin_path(
        &httpx_normalize_path(base.path()),
        reference.path,
    ));
    // RFC 3986 section 5.2.3's merge (an absolute-path reference is
    // itself), then section 5.2.4.
    let merged = if reference.path.starts_with('/') {
        reference.path.to_owned()
    } else {
        let base_parts = grammar::rfc3986::Parts {
            authority: base.authority().map(str::to_owned),
            path: base.path().to_owned(),
            ..grammar::rfc3986::Parts::default()
        };
        grammar::rfc3986::merge(&base_parts, reference.path)
    };
    let strict = grammar::rfc3986::remove_dot_segments(&merged);
    let matches = |j: &String| theirs == j.as_str() && *j != strict;
    if matches(&joined) || matches(&joined_by_httpx) {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// httpx's `urlparse` counts an authority as present only when its
/// userinfo, host or port is non-empty (`has_authority`), so a reference
/// with an empty authority and a path starting `//` (`////`: RFC 3986
/// section 4.2's network-path reference, authority "" and path `//`) is
/// refused by its RFC 3986 section 3.3 check for a path without authority
/// ("Relative URLs cannot have a path starting with '//'"). httpx 0.28.1,
/// `httpx/_urlparse.py`. Claims the verdict. With a base, `URL.join` joins
/// the reference as `str(URL(url))` writes it, without that authority (`//`
/// is "", `///x` is `/x`): claims the authority's parts, the path and the
/// query.
pub(crate) fn httpx_empty_authority_as_none(ctx: &Ctx<'_, '_>) -> Diff {
    let text = ctx.resolved.map_or(ctx.input, |r| r.reference);
    let split = appendix_b_split(text);
    let refused = !ctx.theirs.accepted()
        && ctx.theirs.in_domain()
        && ctx
            .theirs
            .message
            .as_deref()
            .is_some_and(|m| m.contains("Relative URLs cannot have a path starting with '//'"));
    if refused
        && split.scheme.is_none()
        && split.authority == Some("")
        && split.path.starts_with("//")
    {
        Diff {
            verdict: true,
            fields: ctx.open.fields,
        }
    } else if ctx.resolved.is_some() && split.scheme.is_none() && split.authority == Some("") {
        // `URL.join` joins `str(URL(url))`, which writes no empty
        // authority: `//` becomes "" (the base, whole), `///x` is `/x`,
        // whatever the base's scheme.
        ctx.claim(
            super::AUTHORITY_PARTS.union(ComponentSet::of(&[Component::Path, Component::Query])),
        )
    } else {
        Diff::NONE
    }
}

/// httpx's `normalize_path` drops the slash before a final dot segment
/// (`http://a/b/.`: path `/b`, RFC 3986 section 5.2.4: `/b/`). Claims the
/// path where theirs is `normalize_path` of the input's (or, with a base,
/// RFC 3986's resolved, or what `urljoin` returns whole) path and that
/// differs from section 5.2.4's.
pub(crate) fn httpx_dot_segment_slash(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(theirs) = ctx.theirs(Component::Path) else {
        return Diff::NONE;
    };
    let mut paths = Vec::with_capacity(2);
    match ctx.resolved {
        Some(resolved) => {
            let strict = crate::oracle::grammar_rfc3986_resolve(resolved.base, resolved.reference);
            if let Some(p) = strict.components.get(Component::Path) {
                paths.push(p.to_owned());
            }
            // What `urljoin` returns whole, which httpx then parses and
            // normalises: the base for an empty reference ("if not url:
            // return base"), a reference with a scheme it does not join.
            if resolved.reference.is_empty() {
                paths.push(appendix_b_split(resolved.base).path.to_owned());
            } else if super::super::text::has_scheme(resolved.reference)
                && joined_target(ctx).is_none()
            {
                paths.push(appendix_b_split(resolved.reference).path.to_owned());
            }
        }
        None => paths.push(appendix_b_split(ctx.input).path.to_owned()),
    }
    let slash_lost = paths.iter().any(|path| {
        let normalized = httpx_normalize_path(path);
        theirs == normalized && normalized != grammar::rfc3986::remove_dot_segments(path)
    });
    if slash_lost {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// With an empty reference, RFC 1808 (section 4, step 2: "If the
/// embedded URL is entirely empty, it inherits the entire base URL")
/// keeps the base whole, fragment included, where RFC 2396 (section 4.2)
/// and RFC 3986 (section 5.2.2, `T.fragment = R.fragment`) give none;
/// CPython's `urljoin` follows RFC 1808 there (its tests:
/// `checkJoin(RFC1808_BASE, '', 'http://a/b/c/d;p?q#f')`). Claims the
/// fragment where theirs is the base's.
pub(crate) fn empty_reference_is_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base_fragment = appendix_b_split(resolved.base).fragment;
    if resolved.reference.is_empty()
        && base_fragment.is_some()
        && ctx.theirs(Component::Fragment) == base_fragment
    {
        ctx.claim(ComponentSet::of(&[Component::Fragment]))
    } else {
        Diff::NONE
    }
}

/// `urljoin` writes its result with `urlunparse`, which leaves out an
/// empty query or fragment (`?`, `#`), so `b?#` against `http://a/` is
/// `http://a/b` (bpo-22852, python/cpython#67041; urljoin keeps them since
/// python/cpython#123273). Claims the query and fragment rfc2396 has empty
/// and theirs has not, where urljoin resolved at all (against a base
/// whose scheme is not in `uses_relative` it returns the reference as it
/// is: `join-without-relative-scheme`, which accounts for what is lost).
pub(crate) fn urljoin_empty_components(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx
        .resolved
        .is_none_or(|r| !super::resolution::urljoin_resolves(r.base))
    {
        return Diff::NONE;
    }
    let dropped = super::authority::empty_as_absent(ctx).fields;
    Diff::of_fields(
        dropped.intersection(ComponentSet::of(&[Component::Query, Component::Fragment])),
    )
}

/// What `urljoin` (and yarl's and httpx's `join`, which follow it) resolves
/// to, as RFC 3986 section 5.2.2 computes it (the grammar's `transform`),
/// when it resolves at all: only against a base whose scheme is in
/// `uses_relative` (CPython Lib/urllib/parse.py; otherwise it returns the
/// reference whole), and a reference with the base's scheme as the
/// section's non-strict parser reads it ("if ((not strict) and (R.scheme ==
/// Base.scheme)) then undefine(R.scheme)": urljoin parses the reference
/// with the base's scheme as its default and goes on as for a relative one
/// when they are the same). The second value says whether the reference's
/// scheme was so dropped. None where the reference has another scheme, or
/// where RFC 3986's grammar does not read the base or the reference.
pub(crate) fn joined_target(ctx: &Ctx<'_, '_>) -> Option<(grammar::rfc3986::Parts, bool)> {
    let resolved = ctx.resolved?;
    let base = grammar::rfc3986::parse_parts(resolved.base).ok()?;
    let base_scheme = base.scheme.as_deref()?;
    let relative = super::resolution::USES_RELATIVE
        .iter()
        .any(|s| s.eq_ignore_ascii_case(base_scheme));
    if !relative {
        return None;
    }
    let mut reference = grammar::rfc3986::parse_parts(resolved.reference).ok()?;
    let dropped = match reference.scheme.as_deref() {
        None => false,
        Some(s) if s.eq_ignore_ascii_case(base_scheme) => true,
        Some(_) => return None,
    };
    reference.scheme = None;
    Some((grammar::rfc3986::transform(&base, &reference), dropped))
}

/// The value `target` gives `c` (the authority's parts read from its
/// authority as RFC 3986 section 3.2 splits it).
fn target_value(target: &grammar::rfc3986::Parts, c: Component) -> Option<&str> {
    let authority = target.authority.as_deref();
    match c {
        Component::Scheme => target.scheme.as_deref(),
        Component::Authority => authority,
        Component::Userinfo => authority.and_then(|a| a.rsplit_once('@')).map(|(u, _)| u),
        Component::Host => authority.map(crate::triage::host::host_text),
        Component::Port => authority
            .map(|a| a.rsplit_once('@').map_or(a, |(_, h)| h))
            .and_then(|h| h.rsplit_once(':'))
            .map(|(_, p)| p)
            .filter(|p| p.bytes().all(|b| b.is_ascii_digit())),
        Component::Path => Some(target.path.as_str()),
        Component::Query => target.query.as_deref(),
        Component::Fragment => target.fragment.as_deref(),
    }
}

/// A reference with the base's scheme (`http:g` against `http://a/b/c/d`)
/// resolved as a relative one, as RFC 3986 section 5.2.2 lets a non-strict
/// parser do "for backward compatibility" (section 5.4.2: `http:g` is
/// `http:g` for strict parsers, `http://a/b/c/g` for backward
/// compatibility): `urljoin` does (CPython's Lib/test/test_urlparse.py
/// checks `urljoin(RFC3986_BASE, 'http:g')` is `http://a/b/c/g`), and so
/// do httpx's `URL.join` (which calls it) and yarl's `URL.join` (`scheme =
/// url._scheme or self._scheme`, then the relative resolution). Claims the
/// open fields whose value is the non-strict target's (a host compared
/// ignoring case, RFC 3986 section 3.2.2; escapes by their octets).
pub(crate) fn non_strict_same_scheme(ctx: &Ctx<'_, '_>) -> Diff {
    let Some((target, true)) = joined_target(ctx) else {
        return Diff::NONE;
    };
    Diff::of_fields(fields_as_target(ctx, &target))
}

/// The open fields, but the scheme (whose case is `case-normalized`'s),
/// whose value in `target` is theirs: a host compared ignoring case (RFC
/// 3986 section 3.2.2), the rest by their octets.
pub(crate) fn fields_as_target(
    ctx: &Ctx<'_, '_>,
    target: &grammar::rfc3986::Parts,
) -> ComponentSet {
    ctx.open
        .fields
        .iter()
        .filter(|&c| c != Component::Scheme)
        .filter(|&c| match (target_value(target, c), ctx.theirs(c)) {
            (Some(t), Some(theirs)) if c == Component::Host => t.eq_ignore_ascii_case(theirs),
            (Some(t), Some(theirs)) => same_octets(t, theirs),
            (None, None) => true,
            _ => false,
        })
        .fold(ComponentSet::EMPTY, ComponentSet::with)
}

/// The schemes for which CPython's `urlunsplit` writes `//` after the
/// scheme even with an empty netloc (Lib/urllib/parse.py, `uses_netloc`,
/// 3.11).
const USES_NETLOC: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp",
    "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git",
    "git+ssh", "ws", "wss",
];

/// `urljoin` writes its result with `urlunsplit`, which before CPython
/// 3.12.6 puts `//` and a `/` before a rootless path for a scheme in
/// `uses_netloc` ("if url and url[:1] != '/': url = '/' + url"), so a
/// relative path against a base without authority becomes an absolute one
/// under an empty authority: `urljoin("ftp:a", "ftp:g")` is `ftp:///g`,
/// RFC 3986 section 5.2's target `ftp:g` (python/cpython#85110, fixed by
/// python/cpython#123179). httpx's `URL.join` parses that result again
/// (its empty authority counted as none). Claims the path where theirs is
/// the target's with that `/`, and the empty authority beside it.
pub(crate) fn urlunsplit_rootless_slash(ctx: &Ctx<'_, '_>) -> Diff {
    let Some((target, _)) = joined_target(ctx) else {
        return Diff::NONE;
    };
    let netloc_scheme = target
        .scheme
        .as_deref()
        .is_some_and(|s| USES_NETLOC.iter().any(|n| n.eq_ignore_ascii_case(s)));
    if !netloc_scheme
        || target.authority.is_some()
        || target.path.is_empty()
        || target.path.starts_with('/')
    {
        return Diff::NONE;
    }
    let slashed = format!("/{}", target.path);
    if ctx.theirs(Component::Path) != Some(slashed.as_str()) {
        return Diff::NONE;
    }
    let mut fields = ComponentSet::of(&[Component::Path]);
    if ctx.theirs(Component::Authority) == Some("")
        && ctx.theirs(Component::Host).is_none_or(str::is_empty)
    {
        fields = fields.union(ComponentSet::of(&[Component::Authority, Component::Host]));
    }
    ctx.claim(fields)
}

/// `urljoin` writes a result without authority whose path starts with `//`
/// as `scheme:` and that path (CPython's `urlunsplit` before 3.12.4 wrote
/// `//` before an empty netloc only "if url[:2] != '//'"), which reads back
/// with the path's first segment as the authority: `urljoin("http:/",
/// "/.//h/p")` is `http://h/p`, where RFC 3986 section 5.2's target has no
/// authority and the path `//h/p` (section 3.3: such a path cannot follow
/// no authority; python/cpython#67693, fixed by python/cpython#113563, in
/// 3.11 by python/cpython#119025). httpx's `URL.join` parses that result
/// again. Claims the authority's parts and the path where theirs are that
/// reading's, and the verdict where the port so read is refused.
pub(crate) fn urlunsplit_double_slash(ctx: &Ctx<'_, '_>) -> Diff {
    let Some((target, _)) = joined_target(ctx) else {
        return Diff::NONE;
    };
    let Some(scheme) = target.scheme.as_deref() else {
        return Diff::NONE;
    };
    if target.authority.is_some() || !target.path.starts_with("//") {
        return Diff::NONE;
    }
    let written = format!("{scheme}:{}", target.path);
    let read = appendix_b_split(&written);
    let Some(authority) = read.authority else {
        return Diff::NONE;
    };
    if !ctx.theirs.accepted() {
        let refused = ctx.theirs.in_domain() && ctx.ours.accepted() && !authority.is_empty();
        return Diff {
            verdict: refused,
            fields: ComponentSet::EMPTY,
        };
    }
    let host = crate::triage::host::host_text(authority);
    let fields = ctx
        .open
        .fields
        .iter()
        .filter(|&c| match c {
            Component::Authority => ctx.theirs(c) == Some(authority),
            Component::Host => match ctx.theirs(c) {
                Some(theirs) => theirs.eq_ignore_ascii_case(host),
                None => authority.is_empty(),
            },
            Component::Path => ctx.theirs(c) == Some(read.path),
            _ => false,
        })
        .fold(ComponentSet::EMPTY, ComponentSet::with);
    Diff::of_fields(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPython 3.11.7's answers, run directly.
    #[test]
    fn urljoin_paths_as_cpython_gives_them() {
        assert_eq!(urljoin_path("/b//c", "d"), "/b/d");
        assert_eq!(urljoin_path("/6/.", "tpc//////"), "/6/tpc/");
        assert_eq!(urljoin_path("", "..//"), "/");
        assert_eq!(urljoin_path("/b/c", "./x/."), "/b/x/");
        assert_eq!(urljoin_path("/", "j1///h:/..//tft"), "/j1/tft");
        assert_eq!(urljoin_path("/a", "/.///.%2e"), "///.%2e");
    }

    /// httpx 0.28.1's answers, run directly.
    #[test]
    fn httpx_normalize_path_as_httpx_gives_it() {
        assert_eq!(httpx_normalize_path("/."), "");
        assert_eq!(httpx_normalize_path("/b/."), "/b");
        assert_eq!(httpx_normalize_path("/b/.."), "");
        assert_eq!(httpx_normalize_path("/b//c/./d"), "/b//c/d");
        assert_eq!(httpx_normalize_path("/path/./to/somewhere/.."), "/path/to");
        assert_eq!(httpx_normalize_path("/a.b/c"), "/a.b/c");
    }
}
