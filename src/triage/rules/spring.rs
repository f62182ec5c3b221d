//! Spring Web's `UriComponentsBuilder.fromUriString` (4.3, Debian's
//! libspring-web-java 4.3.30): a splitting regular expression whose parts
//! the builder then keeps its own way. Spring claims no standard, so each
//! is its reading; each answer checked through `fromUriString(...).build()`
//! directly.

use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// The query `UriComponents.getQuery()` gives back for `query`: the builder
/// keeps no query text but parameters, found with `QUERY_PARAM_PATTERN`
/// `([^&=]+)(=?)([^&]+)?` (`UriComponentsBuilder.query`) in a
/// `LinkedMultiValueMap` (the values of one name together, in the order
/// the names first came), and `HierarchicalUriComponents.getQuery` writes
/// them as `name` or `name=value`, joined by `&`; none when no parameter
/// was found. `a&&b` gives `a&b`, `=c` gives `c`, `a=1&b&a=2` gives
/// `a=1&a=2&b`, `=` none.
fn spring_query(query: &str) -> Option<String> {
    let mut params: Vec<(&str, Vec<Option<&str>>)> = Vec::new();
    let mut rest = query;
    while !rest.is_empty() {
        // A match starts at a character the name may hold.
        let Some(start) = rest.find(|c| c != '&' && c != '=') else {
            break;
        };
        rest = &rest[start..];
        let name_end = rest.find(['&', '=']).unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = &rest[name_end..];
        let eq = rest.starts_with('=');
        if eq {
            rest = &rest[1..];
        }
        let value_end = rest.find('&').unwrap_or(rest.len());
        let value = match &rest[..value_end] {
            "" if eq => Some(""),
            "" => None,
            value => Some(value),
        };
        rest = &rest[value_end..];
        match params.iter_mut().find(|(n, _)| *n == name) {
            Some((_, values)) => values.push(value),
            None => params.push((name, vec![value])),
        }
    }
    let written: Vec<String> = params
        .iter()
        .flat_map(|(name, values)| {
            values.iter().map(move |value| match value {
                Some(value) => format!("{name}={value}"),
                None => (*name).to_owned(),
            })
        })
        .collect();
    (!written.is_empty()).then(|| written.join("&"))
}

/// Spring gives the query back rebuilt from the parameters it found
/// ([`spring_query`]): `?a&&b` is `a&b`, `?=x` is `x`. Claims the query
/// where theirs is ours so rebuilt.
pub(crate) fn spring_query_rebuilt(ctx: &Ctx<'_, '_>) -> Diff {
    match ctx.ours(Component::Query) {
        Some(ours) if spring_query(ours).as_deref() == ctx.theirs(Component::Query) => {
            ctx.claim(ComponentSet::of(&[Component::Query]))
        }
        _ => Diff::NONE,
    }
}

/// For an opaque URI (a scheme not followed by `:/`), `fromUriString`
/// keeps all after the scheme's `:` as the scheme-specific part and cuts
/// the fragment off it only when the fragment has a length
/// (`StringUtils.hasLength(fragment)`): an empty one leaves its `#` in the
/// part (`file:s/a#` has the part `s/a#`), where RFC 2396's `opaque_part`
/// ends before the `#`. Claims the path where theirs is the input's text
/// after the scheme, ours with the `#`.
pub(crate) fn spring_opaque_empty_fragment(ctx: &Ctx<'_, '_>) -> Diff {
    let split = appendix_b_split(ctx.input);
    let after_scheme = split
        .scheme
        .and_then(|s| ctx.input.get(s.len() + 1..))
        .filter(|rest| !rest.starts_with('/'));
    let kept = match (after_scheme, ctx.ours(Component::Path)) {
        (Some(rest), Some(ours)) => {
            ctx.resolved.is_none()
                && ctx.ours(Component::Fragment) == Some("")
                && rest.strip_suffix('#') == Some(ours)
                && ctx.theirs(Component::Path) == Some(rest)
        }
        _ => false,
    };
    if kept {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::spring_query;

    /// Each checked with Spring Web 4.3.30:
    /// `UriComponentsBuilder.fromUriString("http://h/?" + q).build().getQuery()`.
    #[test]
    fn spring_rebuilds_its_query_from_parameters() {
        for (query, rebuilt) in [
            ("a&&b", Some("a&b")),
            ("=Fi'", Some("Fi'")),
            ("a=1&b=2&a=3", Some("a=1&a=3&b=2")),
            ("a==b&=c&d=", Some("a==b&c&d=")),
            ("=", None),
            ("", None),
            ("x", Some("x")),
        ] {
            assert_eq!(spring_query(query).as_deref(), rebuilt, "{query}");
        }
    }
}
