//! The JDK's `java.net.URL` and `java.net.URI`: what each does with a
//! reference, from the steps its Java SE 17 documentation gives, and where
//! those steps depart from RFC 2396 (which both claim). Each answer was
//! checked with OpenJDK 17.0.15 (Debian's) directly: `new URL(new
//! URL(base), spec)` and `new URI(base).resolve(new URI(spec))`.

use super::AUTHORITY_PARTS;
use super::path::collapse_slashes;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::rfc2396::remove_dot_segments;
use crate::triage::Ctx;

/// `java.net.URL` reads a file part that starts with four slashes
/// (`file:////server/share`, a Windows UNC name) as a path with no
/// authority: `URLStreamHandler.parseURL` skips its authority step when
/// `isUNCName` (the text after the scheme starts `////`). RFC 2396's
/// `net_path` reads `////x` as an empty authority and the path `//x`
/// (section 3: `"//" authority [ abs_path ]`, a server may be empty,
/// section 3.2.2), so the URL text is the same and only its split differs:
/// authority none where RFC 2396 has "", and the path with the two slashes
/// of that authority. A reference `////x` so has no authority of its own
/// and keeps the base's: `http://a/b` + `////x` is `http://a////x`, where
/// RFC 2396 section 5.2 step 4 gives `http:////x` (no host). Claims the
/// authority and the path where theirs is that reading of ours, in a parse
/// or in a resolution whose base has the four slashes, and the authority's
/// parts and the path where a reference that has them resolved on the
/// base's authority.
pub(crate) fn java_url_unc_path(ctx: &Ctx<'_, '_>) -> Diff {
    let split_otherwise = ctx.ours(Component::Authority) == Some("")
        && ctx.theirs(Component::Authority).is_none()
        && matches!(
            (ctx.ours(Component::Path), ctx.theirs(Component::Path)),
            (Some(ours), Some(theirs))
                if theirs.strip_prefix("//") == Some(ours) && theirs.starts_with("////")
        );
    // A reference `////x` keeps the base's authority: an absolute path on
    // the base's host (`http://a/b` + `////x`: `http://a////x`).
    let on_base_authority = their_url_resolution(ctx).is_some_and(|r| {
        r.step == PathStep::UncPath
            && ctx.theirs(Component::Authority) == r.authority.as_deref()
            && ctx.theirs(Component::Path) == Some(r.path.as_str())
    });
    if split_otherwise {
        ctx.claim(ComponentSet::of(&[Component::Authority, Component::Path]))
    } else if on_base_authority {
        ctx.claim(AUTHORITY_PARTS.union(ComponentSet::of(&[Component::Path])))
    } else {
        Diff::NONE
    }
}

/// What `new URL(context, spec)` makes of a reference without a scheme of
/// its own (or with the context's scheme, which the constructor drops when
/// the context's path starts with `/`: its javadoc, "Otherwise the scheme
/// component is inherited from the context URL", and RFC 2396 section 5.2
/// step 3's allowance), following `URL(URL, String)` and the generic
/// `URLStreamHandler.parseURL` (OpenJDK 17), which the http, https, ftp and
/// file handlers use: the authority, the path, and which of its steps made
/// the path.
#[derive(Debug, PartialEq, Eq)]
struct UrlResolution {
    /// The authority after the reference's, if it has one (`//a`), or the
    /// context's.
    authority: Option<String>,
    /// The path.
    path: String,
    /// The path before `parseURL`'s dot-segment removal (the same as
    /// `path` where none ran).
    merged: String,
    /// How the path was made.
    step: PathStep,
}

/// Which step of `parseURL` gave the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathStep {
    /// The reference's own absolute path, or the context's path kept by a
    /// reference without a path (empty, `#f`), as RFC 2396 keeps it.
    AsRfc2396,
    /// The reference starts with `////` (a UNC name): no authority step, so
    /// the context's authority is kept, and the whole text is the path.
    UncPath,
    /// The reference has an empty authority (`//`, `//?q`) and no path:
    /// the authority is "" but the context's path is kept (`parseURL`
    /// clears the path only for a non-empty authority).
    EmptyAuthorityKeptPath,
    /// A query-only reference (`?q`): the context's path up to its last
    /// `/`, with no dot segment removed.
    QueryOnlyDirectory,
    /// A relative path against an empty context path: `/` (when there is
    /// an authority) and the reference's path, with no dot segment removed.
    EmptyContextPath,
    /// A relative path merged with the context's directory, then
    /// `parseURL`'s own dot-segment removal.
    Merged,
}

/// The scheme `new URL` finds at the start of `spec`: the text before the
/// first `:` that comes before any `/`, when it is a valid protocol name
/// (`URL.isValidProtocol`: a letter, then letters, digits, `.`, `+`, `-`).
fn url_scheme(spec: &str) -> Option<&str> {
    let end = spec.find([':', '/'])?;
    let name = spec.get(..end)?;
    let valid = spec.as_bytes().get(end) == Some(&b':')
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'));
    valid.then_some(name)
}

/// `new URL(context, spec)` for `spec` against a context whose scheme is
/// `base_scheme`, whose authority and path (as `java.net.URL` read them)
/// are `context_authority` and `context_path`; none where `spec` is
/// absolute for the constructor, or has what this model leaves out
/// (leading or trailing characters up to U+0020, which it trims, a `url:`
/// prefix, a fragment only).
fn url_resolve(
    base_scheme: &str,
    context_authority: Option<&str>,
    context_path: &str,
    spec: &str,
) -> Option<UrlResolution> {
    let trimmed = spec.bytes().next().is_some_and(|b| b <= b' ')
        || spec.bytes().last().is_some_and(|b| b <= b' ');
    if trimmed
        || spec
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("url:"))
    {
        return None;
    }
    let rest = match url_scheme(spec) {
        Some(scheme)
            if scheme.eq_ignore_ascii_case(base_scheme) && context_path.starts_with('/') =>
        {
            spec.get(scheme.len() + 1..)?
        }
        Some(_) => return None,
        None => spec,
    };
    // The fragment, then the query, are cut off first.
    let rest = rest.split('#').next().unwrap_or_default();
    let query_only = rest.starts_with('?');
    let mut text = rest.split('?').next().unwrap_or_default();
    let mut authority = context_authority.map(str::to_owned);
    let mut path = context_path.to_owned();
    let mut step = PathStep::AsRfc2396;
    let unc = text.starts_with("////");
    if let Some(after) = text.strip_prefix("//").filter(|_| !unc) {
        let end = after.find('/').unwrap_or(after.len());
        let (reference_authority, tail) = after.split_at(end);
        if reference_authority.is_empty() {
            if tail.is_empty() {
                step = PathStep::EmptyAuthorityKeptPath;
            }
        } else {
            path.clear();
        }
        authority = Some(reference_authority.to_owned());
        text = tail;
    }
    if text.starts_with('/') {
        let step = if unc {
            PathStep::UncPath
        } else {
            PathStep::AsRfc2396
        };
        return Some(UrlResolution::kept(authority, text.to_owned(), step));
    }
    if !text.is_empty() {
        if path.is_empty() {
            let slash = if authority.is_some() { "/" } else { "" };
            let path = format!("{slash}{text}");
            return Some(UrlResolution::kept(
                authority,
                path,
                PathStep::EmptyContextPath,
            ));
        }
        let merged = match path.rfind('/') {
            Some(i) => format!("{}{text}", &path[..=i]),
            None if authority.is_some() => format!("/{text}"),
            None => text.to_owned(),
        };
        return Some(UrlResolution {
            authority,
            path: url_canonical(merged.clone()),
            merged,
            step: PathStep::Merged,
        });
    }
    if query_only {
        let directory = path.rfind('/').map_or("", |i| &path[..i]);
        let path = format!("{directory}/");
        return Some(UrlResolution::kept(
            authority,
            path,
            PathStep::QueryOnlyDirectory,
        ));
    }
    Some(UrlResolution::kept(authority, path, step))
}

impl UrlResolution {
    /// A path no dot-segment removal ran on.
    fn kept(authority: Option<String>, path: String, step: PathStep) -> Self {
        UrlResolution {
            authority,
            merged: path.clone(),
            path,
            step,
        }
    }
}

/// `parseURL`'s dot-segment removal of a merged path: every `/./` goes,
/// then each `/../` with the segment before it, unless the path starts
/// with `/../` at that segment (a `..` before it in the middle is a
/// segment like any other, so `/../../../../` gives `/../../`), then a
/// trailing `/..` with its segment while one is left, a leading `./`,
/// and the `.` of a trailing `/.`.
fn url_canonical(mut path: String) -> String {
    while let Some(i) = path.find("/./") {
        path.replace_range(i..i + 2, "");
    }
    let mut i = 0;
    while let Some(found) = path.get(i..).and_then(|p| p.find("/../")) {
        let at = i + found;
        let previous = path.get(..at).and_then(|p| p.rfind('/'));
        match previous {
            Some(limit)
                if at > 0
                    && path
                        .get(limit..)
                        .and_then(|p| p.find("/../"))
                        .map(|f| f + limit)
                        != Some(0) =>
            {
                path.replace_range(limit..at + 3, "");
                i = 0;
            }
            _ => i = at + 3,
        }
    }
    while path.ends_with("/..") {
        let at = path.find("/..").unwrap_or_default();
        match path.get(..at).and_then(|p| p.rfind('/')) {
            Some(limit) => path.truncate(limit + 1),
            None => break,
        }
    }
    if path.starts_with("./") && path.len() > 2 {
        path.replace_range(..2, "");
    }
    if path.ends_with("/.") {
        path.pop();
    }
    path
}

/// The schemes whose JDK handler parses with the generic
/// `URLStreamHandler.parseURL` (the file handler only turns the platform's
/// separator into `/` first); jar, jrt and mailto parse otherwise.
const GENERIC_HANDLERS: &[&str] = &["http", "https", "ftp", "file"];

/// `java.net.URL`'s resolution of the pair in `ctx`, from its reading of
/// the base (`new URL(base)`: the same steps with an empty context), when
/// it accepted the pair.
fn their_url_resolution(ctx: &Ctx<'_, '_>) -> Option<UrlResolution> {
    let resolved = ctx.resolved?;
    if !ctx.theirs.accepted() {
        return None;
    }
    let scheme = url_scheme(resolved.base)?;
    if !GENERIC_HANDLERS
        .iter()
        .any(|h| h.eq_ignore_ascii_case(scheme))
    {
        return None;
    }
    let base = url_resolve(scheme, None, "", resolved.base.get(scheme.len() + 1..)?)?;
    url_resolve(
        scheme,
        base.authority.as_deref(),
        &base.path,
        resolved.reference,
    )
}

/// Does `java.net.URL`'s resolution of a reference with the base's scheme
/// (`HTTP:x` against `http:/a/b`), which its constructor reads as a
/// relative one against a base whose path starts with `/` (`URL(URL,
/// String)`: "Otherwise the scheme component is inherited from the context
/// URL"; RFC 2396 section 5.2 step 3 allows it), give their authority and
/// path, with RFC 2396's dot-segment removal? Then the reference is what
/// `same-scheme-reference` says; where `parseURL`'s own steps made the
/// path, [`java_url_dot_segments`] or [`java_url_empty_authority_keeps_path`]
/// has the difference.
pub(crate) fn url_same_scheme_resolution(ctx: &Ctx<'_, '_>) -> bool {
    let Some(resolved) = ctx.resolved else {
        return false;
    };
    let same_scheme = matches!(
        (url_scheme(resolved.reference), url_scheme(resolved.base)),
        (Some(r), Some(b)) if r.eq_ignore_ascii_case(b)
    );
    same_scheme
        && their_url_resolution(ctx).is_some_and(|r| {
            (r.step == PathStep::AsRfc2396
                || (r.step != PathStep::UncPath
                    && r.step != PathStep::EmptyAuthorityKeptPath
                    && r.path == remove_dot_segments(&r.merged)))
                && ctx.theirs(Component::Path) == Some(r.path.as_str())
                && ctx.theirs(Component::Authority) == r.authority.as_deref()
        })
}

/// `java.net.URL` resolves a reference with an empty authority and no path
/// (`//`, `//?q`) to the empty authority and the base's path:
/// `URLStreamHandler.parseURL` clears the context's path only after a
/// non-empty authority ("If the authority is defined then the path is
/// defined by the spec only; See RFC 2396 Section 5.2.4", tested with
/// `!authority.isEmpty()`). RFC 2396 section 5.2 step 4 takes the
/// reference's authority and path (""): `https:/a` + `//` is `https://`,
/// not `https:/a` with an empty authority. Claims the path where theirs is
/// that.
pub(crate) fn java_url_empty_authority_keeps_path(ctx: &Ctx<'_, '_>) -> Diff {
    match their_url_resolution(ctx) {
        Some(r)
            if r.step == PathStep::EmptyAuthorityKeptPath
                && ctx.theirs(Component::Path) == Some(r.path.as_str()) =>
        {
            ctx.claim(ComponentSet::of(&[Component::Path]))
        }
        _ => Diff::NONE,
    }
}

/// `java.net.URL` removes dot segments only from a relative path it
/// appends to a non-empty context path, and with its own loop:
/// `URLStreamHandler.parseURL` runs its removal only when `isRelPath`, so a
/// query-only reference (`?q`: the context's directory) and a relative
/// path against an empty path (`http://` + `./a`: `/./a`) keep theirs, and
/// its `/../` loop lets a `..` take out a `..` before it that does not
/// start the path (`/../.././` + `../../` gives `/../../`). RFC 2396
/// section 5.2 step 6 (c to f) removes `.` and `<segment>/..` for a
/// `segment` other than `..` from every merged path, the query-only one
/// included (Appendix C.1: `?y` against `http://a/b/c/d;p?q` is
/// `http://a/b/c/?y`). Claims the path where theirs is what those steps
/// give.
pub(crate) fn java_url_dot_segments(ctx: &Ctx<'_, '_>) -> Diff {
    match their_url_resolution(ctx) {
        Some(r)
            if matches!(
                r.step,
                PathStep::QueryOnlyDirectory | PathStep::EmptyContextPath | PathStep::Merged
            ) && ctx.theirs(Component::Path) == Some(r.path.as_str())
                && ctx.ours(Component::Path) == Some(remove_dot_segments(&r.merged).as_str()) =>
        {
            ctx.claim(ComponentSet::of(&[Component::Path]))
        }
        _ => Diff::NONE,
    }
}

/// java.net.URI permits an empty authority only "as long as it is
/// followed by a non-empty path, a query component, or a fragment
/// component" (its class javadoc, Java SE 17, among its deviations from
/// RFC 2396): `ftp://` alone is refused ("Expected authority at index
/// 6"), where RFC 2396 section 3.2.2 lets a server be empty. Holds where
/// theirs refused the input (or, with a base, the reference) for that
/// reason and the text is a scheme or nothing before `//`.
pub(crate) fn uri_empty_authority_refused(ctx: &Ctx<'_, '_>) -> bool {
    let text = ctx.resolved.map_or(ctx.input, |r| r.reference);
    let split = appendix_b_split(text);
    !ctx.theirs.accepted()
        && ctx.theirs.in_domain()
        && ctx.ours.accepted()
        && ctx
            .theirs
            .message
            .as_deref()
            .is_some_and(|m| m.starts_with("Expected authority at index"))
        && split.authority == Some("")
        && split.path.is_empty()
        && split.query.is_none()
        && split.fragment.is_none()
}

/// java.net.URI leaves an empty authority undefined (its javadoc: "If the
/// authority component is empty then the user-information, host, and port
/// components are undefined"), so `URI.resolve` takes a reference with an
/// empty authority (`//#f`, `///p`) as one without: `#f` keeps the base
/// (the javadoc's fragment-only case), `/p` and `////p` the base's
/// authority (an absolute path is taken as it is: `//p`). The fields where
/// theirs is RFC 2396's resolution of the reference without its `//`.
pub(crate) fn uri_empty_authority_resolved(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let Some(rest) = resolved.reference.strip_prefix("//") else {
        return Diff::NONE;
    };
    // An empty authority (what follows `//` ends it at once), followed by
    // something.
    if !ctx.theirs.accepted() || !rest.starts_with(['/', '?', '#']) {
        return Diff::NONE;
    }
    let target = if rest.starts_with("//") {
        // `////p`: the absolute path `//p` on the base's authority, which
        // RFC 2396 can write only after one.
        match crate::rfc2396::parse(resolved.base) {
            Ok(base) => match (base.scheme(), base.authority()) {
                (Some(scheme), Some(authority)) => format!("{scheme}://{authority}{rest}"),
                _ => return Diff::NONE,
            },
            Err(_) => return Diff::NONE,
        }
    } else {
        match crate::rfc2396::resolve(resolved.base, rest) {
            Ok(target) => target,
            Err(_) => return Diff::NONE,
        }
    };
    let without = crate::oracle::rfc2396::run(&target);
    // The base's authority text, where theirs has it: how the parser splits
    // it into userinfo, host and port is its reading of the base alone.
    let same_authority = without.components.get(Component::Authority).is_some()
        && without.components.get(Component::Authority) == ctx.theirs(Component::Authority);
    Diff::of_fields(ctx.open.fields.iter().fold(ComponentSet::EMPTY, |set, c| {
        let split = same_authority && AUTHORITY_PARTS.contains(c);
        if split || without.components.get(c) == ctx.theirs(c) {
            set.union(ComponentSet::of(&[c]))
        } else {
            set
        }
    }))
}

/// `URI.resolve` normalises the merged path "as if by invoking the
/// normalize method", and java.net.URI's `normalize` also drops empty
/// segments (`a//b` is `a/b`), which Java SE 17's javadoc of `normalize`
/// does not list (JDK-8382928 documents it later); RFC 2396 section 5.2
/// step 6 keeps them (`ftp:/a//b/c` + `d` is `ftp:/a//b/d`). Claims the
/// path where theirs is ours with every run of `/` written as one; for an
/// empty reference, which `resolve` merges like any other
/// (`java-uri-empty-reference-merged`), ours up to its last `/` so written
/// (`ctp://ba//c` + `""` is `ctp://ba/`).
pub(crate) fn java_uri_empty_segments_collapsed(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let collapsed = matches!(
        (ctx.ours(Component::Path), ctx.theirs(Component::Path)),
        (Some(ours), Some(theirs)) if {
            let merged = if resolved.reference.is_empty() {
                ours.rfind('/').and_then(|at| ours.get(..=at)).unwrap_or(ours)
            } else {
                ours
            };
            merged.contains("//") && collapse_slashes(merged) == theirs
        }
    );
    if collapsed {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// `URI.resolve` returns the given URI itself when this URI (the base) is
/// opaque: its javadoc, "If the given URI is already absolute, or if this
/// URI is opaque, then the given URI is returned" (`mailto:x` + `y` is `y`,
/// `urn:a:b` + `#f` is `#f`), where RFC 2396 section 5.2 resolves against
/// any absolute base. Claims every field where the base has a scheme and
/// no `/` after it, the reference has no scheme, and theirs is the
/// reference as written.
pub(crate) fn java_uri_opaque_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base = appendix_b_split(resolved.base);
    let reference = appendix_b_split(resolved.reference);
    let opaque_base =
        base.scheme.is_some() && base.authority.is_none() && !base.path.starts_with('/');
    let as_written = reference.scheme.is_none()
        && ctx.theirs(Component::Scheme).is_none()
        && ctx.theirs(Component::Authority) == reference.authority
        && ctx.theirs(Component::Path) == Some(reference.path)
        && ctx.theirs(Component::Query) == reference.query
        && ctx.theirs(Component::Fragment) == reference.fragment;
    if opaque_base && as_written {
        Diff {
            verdict: true,
            fields: ctx.open.fields,
        }
    } else {
        Diff::NONE
    }
}

/// `URI.resolve` merges an empty reference's path with the base's like any
/// other relative path: its javadoc resolves the given path "by
/// concatenating all but the last segment of this URI's path, if any, with
/// the given URI's path" and takes the base as it is only for a
/// fragment-only reference, so `""` against `http://h/a/b` is
/// `http://h/a/`, where RFC 2396 section 5.2 step 2 makes an empty
/// reference the current document (`http://h/a/b`). Claims the path where
/// the reference is empty and theirs is ours up to its last `/`, and the
/// query where ours has one and theirs none.
pub(crate) fn java_uri_empty_reference_merged(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let merged = resolved.reference.is_empty()
        && matches!(
            (ctx.ours(Component::Path), ctx.theirs(Component::Path)),
            (Some(ours), Some(theirs))
                if ours.rfind('/').is_some_and(|at| ours.get(..=at) == Some(theirs))
        );
    if !merged {
        return Diff::NONE;
    }
    // The new URI's query is the given URI's (the javadoc's step 3, "the
    // given URI's ... query"), none for `""`: the base's is not kept.
    let query = ctx.ours(Component::Query).is_some() && ctx.theirs(Component::Query).is_none();
    if query {
        ctx.claim(ComponentSet::of(&[Component::Path, Component::Query]))
    } else {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    }
}

/// java.net.URI parses an IPv4 address "rigorously, as specified by RFC
/// 2732: Each element of a dotted-quad address must contain no more than
/// three decimal digits" (its javadoc, deviations from RFC 2396), where RFC
/// 2396 Appendix A's `IPv4address` takes `1*digit` in each: `1241.2.41.2`
/// is an IPv4 address to RFC 2396 and, its last label no `toplabel`, a
/// registry-based authority with no host to java.net.URI. Claims the host
/// where ours is four dot-separated runs of digits, one of them longer
/// than three, and theirs is none.
pub(crate) fn java_uri_rfc2732_ipv4(ctx: &Ctx<'_, '_>) -> Diff {
    let rfc2396_only = ctx.ours(Component::Host).is_some_and(|h| {
        let labels: Vec<&str> = h.split('.').collect();
        labels.len() == 4
            && labels
                .iter()
                .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
            && labels.iter().any(|l| l.len() > 3)
    });
    if rfc2396_only && ctx.theirs(Component::Host).is_none() {
        ctx.claim(ComponentSet::of(&[Component::Host]))
    } else {
        Diff::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(
        base_scheme: &str,
        authority: Option<&str>,
        base_path: &str,
        spec: &str,
    ) -> (String, PathStep) {
        let r = url_resolve(base_scheme, authority, base_path, spec).unwrap();
        (r.path, r.step)
    }

    /// Each answer checked with OpenJDK 17.0.15: `new URL(new URL(base),
    /// spec).getPath()`.
    #[test]
    fn java_url_resolves_as_its_parse_url_does() {
        use PathStep::*;
        // http://s6/+5.t/../4/.))javztpt + ?+h
        assert_eq!(
            path("http", Some("s6"), "/+5.t/../4/.))javztpt", "?+h"),
            ("/+5.t/../4/".into(), QueryOnlyDirectory)
        );
        // http:// + ./a
        assert_eq!(
            path("http", Some(""), "", ".///.%2e"),
            ("/.///.%2e".into(), EmptyContextPath)
        );
        // http:/../.././g + ../../
        assert_eq!(
            path("http", None, "/../.././g", "../../"),
            ("/../../".into(), Merged)
        );
        assert_eq!(
            path("http", Some("a"), "/b/c/d;p", "../g"),
            ("/b/g".into(), Merged)
        );
        assert_eq!(
            path("http", Some("a"), "/b/c/d;p", "./"),
            ("/b/c/".into(), Merged)
        );
        assert_eq!(
            path("http", Some("a"), "/b/c/d;p", "g/.."),
            ("/b/c/".into(), Merged)
        );
        // https:/999Btj: + //
        assert_eq!(
            url_resolve("https", None, "/999Btj:", "//"),
            Some(UrlResolution::kept(
                Some(String::new()),
                "/999Btj:".into(),
                EmptyAuthorityKeptPath
            ))
        );
        assert_eq!(path("http", Some("a"), "/b", "//h"), ("".into(), AsRfc2396));
        // The base's scheme is dropped against a path that starts with `/`.
        assert_eq!(
            path("ftp", Some("s"), "/j:/x", "FTP:/1t"),
            ("/1t".into(), AsRfc2396)
        );
        assert_eq!(
            path("http", None, "/a/b:/c", "HTTP:p/&q?#"),
            ("/a/b:/p/&q".into(), Merged)
        );
        assert_eq!(url_resolve("http", None, "g", "http:x"), None);
        assert_eq!(url_resolve("http", None, "/g", "ftp:x"), None);
    }
}
