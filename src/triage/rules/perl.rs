//! Readings of Perl's URI module (5.17) that its own source gives, each run
//! directly with `perl -MURI`.

use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// URI::ftp's `path` is its `path_query` (URI/ftp.pm: `sub path {
/// shift->path_query(@_) }  # XXX`): an ftp URI's path as `->path` gives it
/// carries `?` and the query (`ftp://h?x`: path `?x`, query `x`), where RFC
/// 2396 section 3 ends the path at `?`. Claims the path where the scheme is
/// ftp and theirs is ours, `?` and our query.
pub(crate) fn perl_uri_ftp_path_query(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.scheme().is_some_and(|s| s.eq_ignore_ascii_case("ftp")) {
        return Diff::NONE;
    }
    let (Some(path), Some(query), Some(theirs)) = (
        ctx.ours(Component::Path),
        ctx.ours(Component::Query),
        ctx.theirs(Component::Path),
    ) else {
        return Diff::NONE;
    };
    let with_query = theirs
        .strip_prefix(path)
        .and_then(|rest| rest.strip_prefix('?'))
        .is_some_and(|rest| rest == query);
    if with_query {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// URI::_generic's `abs` resolves a reference with an empty path as a
/// clone of the base with the reference's query and fragment set only
/// where the reference has them (URI/_generic.pm, `if (!length($path))`:
/// `$abs->fragment($fragment) if defined $fragment`): `?` against
/// `http://a/b#f` is `http://a/b?#f`, where RFC 2396 section 5.2 step 7
/// and RFC 3986 section 5.2.2 take the fragment from the reference alone.
/// perldoc URI claims RFC 2396 for its objects, not for `new_abs`. Claims
/// the fragment where the reference has an empty path, a query and no
/// fragment,
/// ours has none, and theirs is the base's.
pub(crate) fn perl_uri_base_fragment_kept(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let reference = appendix_b_split(resolved.reference);
    let base = appendix_b_split(resolved.base);
    let kept = reference.scheme.is_none()
        && reference.authority.is_none()
        && reference.path.is_empty()
        // `""` is the current document (RFC 2396 section 4.2), which
        // `empty-reference-is-base` explains.
        && reference.query.is_some()
        && reference.fragment.is_none()
        && ctx.ours(Component::Fragment).is_none()
        && base.fragment.is_some()
        && ctx.theirs(Component::Fragment) == base.fragment;
    if kept {
        ctx.claim(ComponentSet::of(&[Component::Fragment]))
    } else {
        Diff::NONE
    }
}
