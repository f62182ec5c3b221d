//! CPython's `urllib.parse.urljoin` and httpx's path normalisation: the
//! departures from RFC 3986 section 5.2 their trackers or sources record,
//! each checked by running the library directly (CPython 3.11.7, httpx
//! 0.28.1).

use super::base_parsed;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

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
/// RFC 3986's is not.
pub(crate) fn urljoin_empty_segments(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(resolved), Some(base)) = (ctx.resolved, base_parsed(ctx)) else {
        return Diff::NONE;
    };
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
/// `httpx/_urlparse.py`. Claims the verdict.
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
    } else {
        Diff::NONE
    }
}

/// httpx's `normalize_path` drops the slash before a final dot segment
/// (`http://a/b/.`: path `/b`, RFC 3986 section 5.2.4: `/b/`). Claims the
/// path where theirs is `normalize_path` of the input's (or, with a base,
/// RFC 3986's resolved) path and that differs from section 5.2.4's.
pub(crate) fn httpx_dot_segment_slash(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(theirs) = ctx.theirs(Component::Path) else {
        return Diff::NONE;
    };
    let path = match ctx.resolved {
        Some(resolved) => {
            let strict = crate::oracle::grammar_rfc3986_resolve(resolved.base, resolved.reference);
            match strict.components.get(Component::Path) {
                Some(p) => p.to_owned(),
                None => return Diff::NONE,
            }
        }
        None => appendix_b_split(ctx.input).path.to_owned(),
    };
    let normalized = httpx_normalize_path(&path);
    if theirs == normalized && normalized != grammar::rfc3986::remove_dot_segments(&path) {
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
/// and theirs has not.
pub(crate) fn urljoin_empty_components(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_none() {
        return Diff::NONE;
    }
    let dropped = super::authority::empty_as_absent(ctx).fields;
    Diff::of_fields(
        dropped.intersection(ComponentSet::of(&[Component::Query, Component::Fragment])),
    )
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
