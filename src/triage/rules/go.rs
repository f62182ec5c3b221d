//! Go's `net/url` (`url.Parse`, `URL.ResolveReference`): the departures
//! from RFC 3986 that Go's own tracker records, each checked with Go 1.19.8
//! (Debian's `golang-1.19-go`) directly.

use super::base_parsed;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// With a base that has an opaque part (`urn:a`, RFC 2396 section 3's
/// `opaque_part`, RFC 3986's `path-rootless`) and a reference without a
/// scheme, an authority or a path (empty, `#f`, `?q`), RFC 3986 section
/// 5.2.2 keeps the base's path (`T.path = Base.path`); Go 1.19's
/// `ResolveReference` keeps `url.Opaque` empty and resolves the base's
/// (empty) `Path` instead, so the opaque part is lost (`urn:a` + `#f` gives
/// `urn:#f`). golang/go#66084, fixed in Go 1.23 (CL 572915). Claims the
/// path (and a query RFC 2396 reads in the opaque part).
pub(crate) fn opaque_base_dropped(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(resolved), Some(base)) = (ctx.resolved, base_parsed(ctx)) else {
        return Diff::NONE;
    };
    let reference = appendix_b_split(resolved.reference);
    let without_path =
        reference.scheme.is_none() && reference.authority.is_none() && reference.path.is_empty();
    // Go's `Opaque` is RFC 3986's rootless path, before any `?`: `file:?h`
    // is opaque to RFC 2396 but has an empty path to Go and RFC 3986.
    let rootless = appendix_b_split(resolved.base).path;
    let opaque_to_go = !rootless.is_empty() && !rootless.starts_with('/');
    if !base.is_opaque()
        || !opaque_to_go
        || !without_path
        || !ctx.theirs(Component::Path).is_none_or(str::is_empty)
    {
        return Diff::NONE;
    }
    ctx.claim(ComponentSet::of(&[Component::Path, Component::Query]))
}

/// `///x` without a scheme is a network-path reference with an empty
/// authority (RFC 3986 section 4.2: "A relative reference that begins with
/// two slash characters is termed a network-path reference"); Go's
/// `url.Parse` reads it as the path `///x` ("rest starts with ///" and no
/// scheme: not an authority). golang/go#46277, open. Where Go found no
/// authority and its path starts with `///` too, claims the authority,
/// host and path, each only where Go's differs from RFC 3986's (against a
/// base, `ResolveReference` writes the empty authority back: `///f`
/// against `ws:/6` has host `""`, as RFC 3986's, and path `///f`, where
/// RFC 3986's is `/f`).
pub(crate) fn triple_slash_path(ctx: &Ctx<'_, '_>) -> Diff {
    let text = ctx.resolved.map_or(ctx.input, |r| r.reference);
    let split = appendix_b_split(text);
    let read_as_path = split.scheme.is_none()
        && text.starts_with("///")
        && ctx.theirs(Component::Authority).is_none_or(str::is_empty)
        && ctx.theirs(Component::Host).is_none_or(str::is_empty)
        && ctx
            .theirs(Component::Path)
            .is_some_and(|p| p.starts_with("///"));
    if !read_as_path {
        return Diff::NONE;
    }
    let strict = match ctx.resolved {
        Some(r) => crate::oracle::grammar_rfc3986_resolve(r.base, r.reference),
        None => crate::oracle::OracleId::Rfc3986Grammar.run(ctx.input),
    };
    let departs = [Component::Authority, Component::Host, Component::Path]
        .into_iter()
        .filter(|c| ctx.theirs(*c) != strict.components.get(*c))
        .collect::<Vec<_>>();
    ctx.claim(ComponentSet::of(&departs))
}

/// Where RFC 3986's resolution (section 5.2.4, `remove_dot_segments`)
/// leaves a path that starts with `//` (`/..//x` gives `//x`), Go's
/// `resolvePath` drops one of the two slashes ("We wrote an initial '/',
/// but we don't want two": `h:/a` + `/..//x` gives `h:///x`, path `/x`).
/// golang/go#80282, open. Claims the path where Go's is RFC 3986's without
/// its first slash.
pub(crate) fn leading_slashes_collapsed(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let strict = crate::oracle::grammar_rfc3986_resolve(resolved.base, resolved.reference);
    let Some(path) = strict.components.get(Component::Path) else {
        return Diff::NONE;
    };
    let collapsed = path.starts_with("//") && ctx.theirs(Component::Path) == path.get(1..);
    if collapsed {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// Go's `URL` has no way to say "present but empty" for a fragment (no
/// `ForceFragment`: golang/go#29603), so `ResolveReference` (Go 1.19.8)
/// loses what RFC 3986 section 5.3 keeps apart from an undefined
/// component: a reference's empty fragment (`//0/#` gives no fragment,
/// and `#` keeps the base's: `http://a/b#g` + `#` is `http://a/b#g`), the
/// base's empty query (it copies `RawQuery` but not `ForceQuery`:
/// `http://a/b?` + `` is `http://a/b`), and an empty authority with an
/// empty path, which `String()` does not write (`http://a/b` + `s://` is
/// `s:`). Claims each of those fields where RFC 3986's result has it empty
/// and Go's has it absent (or, for the fragment, the base's).
pub(crate) fn empty_component_lost(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let strict = crate::oracle::grammar_rfc3986_resolve(resolved.base, resolved.reference);
    let empty_in_strict = |c: Component| strict.components.get(c) == Some("");
    let base_fragment = appendix_b_split(resolved.base).fragment;
    let mut lost = ComponentSet::EMPTY;
    if empty_in_strict(Component::Query) && ctx.theirs(Component::Query).is_none() {
        lost = lost.with(Component::Query);
    }
    let fragment = ctx.theirs(Component::Fragment);
    if empty_in_strict(Component::Fragment)
        && (fragment.is_none() || (base_fragment.is_some() && fragment == base_fragment))
    {
        lost = lost.with(Component::Fragment);
    }
    if empty_in_strict(Component::Authority)
        && empty_in_strict(Component::Host)
        && ctx.theirs(Component::Authority).is_none()
    {
        lost = lost.with(Component::Authority).with(Component::Host);
    }
    ctx.claim(lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::Components;
    use crate::oracle::{OracleId, Outcome};
    use crate::triage::{Ctx, Resolution};

    /// An accepted outcome of these components.
    fn outcome(fields: &[(Component, &'static str)]) -> Outcome<'static> {
        let mut c = Components::new(ComponentSet::ALL);
        for (component, value) in fields {
            c.set(*component, Some(*value));
        }
        Outcome::accept(c)
    }

    /// The claim of `rule` on the pair, with Go's outcome `theirs`
    /// (everything open).
    fn claim(
        rule: fn(&Ctx<'_, '_>) -> Diff,
        (base, reference): (&'static str, &'static str),
        ours: &Outcome<'static>,
        theirs: &Outcome<'static>,
    ) -> Diff {
        let resolution = Resolution::new(base, reference);
        let parsed = crate::rfc2396::parse(base);
        let ctx = Ctx {
            input: base,
            parsed: &parsed,
            ours,
            oracle: OracleId::Url,
            theirs,
            open: Diff {
                verdict: true,
                fields: ComponentSet::ALL,
            },
            resolved: Some(&resolution),
            their_base: std::cell::OnceCell::new(),
            our_host: std::cell::OnceCell::new(),
        };
        rule(&ctx)
    }

    /// Go 1.19.8: `urn:a` + `#f` gives `urn:#f` (golang/go#66084).
    #[test]
    fn an_opaque_base_lost_on_a_reference_without_path() {
        let ours = outcome(&[(Component::Scheme, "urn"), (Component::Path, "a")]);
        let go = outcome(&[(Component::Scheme, "urn"), (Component::Path, "")]);
        let d = claim(opaque_base_dropped, ("urn:a", "#f"), &ours, &go);
        assert!(d.fields.contains(Component::Path));
        let d = claim(opaque_base_dropped, ("urn:a", "b"), &ours, &go);
        assert!(d.is_empty(), "a reference with a path is not this");
        let d = claim(opaque_base_dropped, ("urn:a", ""), &ours, &ours);
        assert!(d.is_empty(), "the opaque part kept is not this");
        // Go 1.19.8: `file:?h` + `` gives path "" and query "h", RFC 3986's
        // answer too (the base's path is empty).
        let d = claim(opaque_base_dropped, ("file:?h", ""), &ours, &go);
        assert!(
            d.is_empty(),
            "an empty rootless path is no opaque part to Go"
        );
    }

    /// Go 1.19.8: `ws:/6` + `///f` gives path `///f` (golang/go#46277).
    #[test]
    fn triple_slash_read_as_a_path() {
        let ours = outcome(&[
            (Component::Scheme, "ws"),
            (Component::Authority, ""),
            (Component::Path, "/f"),
        ]);
        let go = outcome(&[(Component::Scheme, "ws"), (Component::Path, "///f")]);
        let d = claim(triple_slash_path, ("ws:/6", "///f"), &ours, &go);
        assert!(d.fields.contains(Component::Path) && d.fields.contains(Component::Authority));
        let d = claim(triple_slash_path, ("ws:/6", "//h/f"), &ours, &go);
        assert!(d.is_empty());
    }

    /// Go 1.19.8: `h:/wss` + `/..//tftp` gives path `/tftp` (golang/go#80282).
    #[test]
    fn a_leading_double_slash_collapsed() {
        let ours = outcome(&[(Component::Scheme, "h"), (Component::Path, "/..//tftp")]);
        let go = outcome(&[(Component::Scheme, "h"), (Component::Path, "/tftp")]);
        let d = claim(
            leading_slashes_collapsed,
            ("h:/wss", "/..//tftp"),
            &ours,
            &go,
        );
        assert!(d.fields.contains(Component::Path));
        let strict = outcome(&[(Component::Scheme, "h"), (Component::Path, "//tftp")]);
        let d = claim(
            leading_slashes_collapsed,
            ("h:/wss", "/..//tftp"),
            &ours,
            &strict,
        );
        assert!(d.is_empty());
    }

    /// Go 1.19.8, each run directly: `http://a/b?` + `` is `http://a/b`,
    /// `http://a/b#g` + `#` is `http://a/b#g`, `http://a/b` + `s://` is `s:`.
    #[test]
    fn empty_components_lost_in_a_resolution() {
        let go = outcome(&[(Component::Scheme, "http"), (Component::Path, "/b")]);
        let ours = go.clone();
        let d = claim(empty_component_lost, ("http://a/b?", ""), &ours, &go);
        assert!(d.fields.contains(Component::Query), "{d:?}");
        let kept = outcome(&[(Component::Query, "")]);
        let d = claim(empty_component_lost, ("http://a/b?", ""), &ours, &kept);
        assert!(d.is_empty(), "an empty query kept is not this");
        let base_fragment = outcome(&[(Component::Fragment, "g")]);
        let d = claim(
            empty_component_lost,
            ("http://a/b#g", "#"),
            &ours,
            &base_fragment,
        );
        assert!(d.fields.contains(Component::Fragment), "{d:?}");
        let other = outcome(&[(Component::Fragment, "h")]);
        let d = claim(empty_component_lost, ("http://a/b#g", "#"), &ours, &other);
        assert!(d.is_empty(), "a fragment from elsewhere is not this");
        let scheme_only = outcome(&[(Component::Scheme, "s"), (Component::Path, "")]);
        let d = claim(
            empty_component_lost,
            ("http://a/b", "s://"),
            &ours,
            &scheme_only,
        );
        assert!(
            d.fields.contains(Component::Authority) && d.fields.contains(Component::Host),
            "{d:?}"
        );
        let d = claim(
            empty_component_lost,
            ("http://a/b", "s://h"),
            &ours,
            &scheme_only,
        );
        assert!(d.is_empty(), "a host lost is not an empty authority lost");
    }
}
