//! The spec rules: one predicate per class, grouped by what they are about,
//! and the helpers they share. Each predicate says what of the open
//! disagreement between rfc2396 and one other parser its class explains,
//! citing the spec sections behind it.
//!
//! A rule's class row (`classes/`) names the predicate and its [`Scope`];
//! the order of the rows is the precedence (earlier rules win), and the
//! kernel (`triage_into`) tries a rule only on the oracles its scope covers,
//! so a predicate tests the oracle only where that is part of its logic.

pub(crate) mod authority;
pub(crate) mod characters;
pub(crate) mod curl;
pub(crate) mod go;
pub(crate) mod host;
pub(crate) mod http;
pub(crate) mod java;
pub(crate) mod jetty;
pub(crate) mod lenient;
pub(crate) mod node;
pub(crate) mod path;
pub(crate) mod perl;
pub(crate) mod php;
pub(crate) mod port;
pub(crate) mod python;
pub(crate) mod resolution;
pub(crate) mod spring;
pub(crate) mod syntax;

use super::text::has_scheme;
use super::{Class, Ctx};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::{OracleId, Outcome, Standard};
use crate::rfc2396::{ErrorKind, Production, RefKind, ResolveError, UriRef};
use crate::triage::host::{host_text, is_file as is_file_scheme};

/// One row of the rule table, generated from the class catalogue
/// (`classes/`) in its order: the class's basis, severity and spec
/// sections are in its row too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule {
    /// The class a claim is filed under.
    pub(crate) class: Class,
    /// The oracles the rule applies to.
    pub(crate) scope: Scope,
    /// What of the open disagreement this rule explains.
    pub(crate) explain: fn(&Ctx<'_, '_>) -> Diff,
}

/// The oracles a rule applies to: those whose standard or dialect the spec
/// difference is about.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scope {
    /// Every oracle.
    Any,
    /// The oracles that claim no standard ([`OracleId::standard`] is
    /// none: a shipped adapter whose parser documents none, or a parser a
    /// user plugs in): what the rule explains is a reading no standard
    /// governs for them.
    NoStandard,
    /// The oracles any of these targets cover.
    Only(&'static [Target]),
}

/// One kind of oracle a [`Scope`] names.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    /// One oracle of the registry.
    Oracle(OracleId),
    /// The registry's oracles of one standard.
    Standard(Standard),
    /// An external oracle, by the name of the adapter shipped with uridiff
    /// (`java-uri`): a deviation its parser documents.
    External(&'static str),
}

impl Scope {
    /// Does the rule apply to `oracle`?
    pub(crate) fn covers(self, oracle: OracleId) -> bool {
        match self {
            Scope::Any => true,
            Scope::NoStandard => oracle.standard().is_none(),
            Scope::Only(targets) => targets.iter().any(|t| t.covers(oracle)),
        }
    }
}

impl Target {
    pub(super) fn covers(self, oracle: OracleId) -> bool {
        match self {
            Target::Oracle(id) => oracle == id,
            // Every parser that claims the standard, in process or shipped:
            // a reading the standard prescribes is as much upa-url's (which
            // claims the URL Standard) as url's and ada's.
            Target::Standard(standard) => oracle.standard() == Some(standard),
            // Only an external oracle's id reads its name (under a lock);
            // no built-in id can take a shipped adapter's name.
            Target::External(name) => {
                matches!(oracle, OracleId::External(_)) && oracle.as_str() == name
            }
        }
    }
}

/// Fields that belong to the authority.
pub(crate) const AUTHORITY_PARTS: ComponentSet = ComponentSet::of(&[
    Component::Authority,
    Component::Userinfo,
    Component::Host,
    Component::Port,
]);

/// The verdict, when rfc2396 rejected the input with an error for which `pick` holds.
pub(crate) fn rejected_with(
    ctx: &Ctx<'_, '_>,
    pick: impl Fn(ErrorKind, Production) -> bool,
) -> Diff {
    match ctx.error() {
        Some(e) if pick(e.kind(), e.production()) => Diff::VERDICT,
        _ => Diff::NONE,
    }
}

/// Is this the `file` scheme?
pub(crate) fn is_file(ctx: &Ctx<'_, '_>) -> bool {
    ctx.scheme().is_some_and(is_file_scheme)
}

/// Did rfc2396 read an `opaque_part`?
pub(crate) fn opaque(ctx: &Ctx<'_, '_>) -> bool {
    matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::AbsoluteOpaque)
}

/// The query, when rfc2396 read an `opaque_part`: its `?` stays in the path
/// (RFC 2396 section 3), so a query on the other side follows from reading
/// the same text as hierarchical.
pub(crate) fn opaque_query(ctx: &Ctx<'_, '_>) -> ComponentSet {
    if opaque(ctx) {
        ComponentSet::of(&[Component::Query])
    } else {
        ComponentSet::EMPTY
    }
}

/// rfc2396's authority, as the host part.
pub(crate) fn our_host_text<'a>(ctx: &Ctx<'_, 'a>) -> Option<&'a str> {
    *ctx.our_host.get_or_init(|| match ctx.parsed {
        Ok(r) => r.authority().map(host_text),
        Err(_) => None,
    })
}

/// rfc2396's parse of the base, when there is a base and it parses.
pub(crate) fn base_parsed<'c>(ctx: &Ctx<'c, '_>) -> Option<&'c UriRef<'c>> {
    ctx.resolved?.base_parsed.as_ref().ok()
}

/// rfc2396's resolution error, when it refused the pair.
pub(crate) fn resolve_error<'c>(ctx: &Ctx<'c, '_>) -> Option<&'c ResolveError> {
    ctx.resolved?.error.as_ref()
}

/// The other parser's own reading of the base, when it accepts it.
pub(crate) fn their_reading_of_base<'c>(ctx: &'c Ctx<'_, '_>) -> Option<&'c Outcome<'c>> {
    ctx.their_base().filter(|o| o.accepted())
}

/// With a base and a reference without a scheme: the base's path, when the
/// base has no authority (or an empty one). A lenient parser that finds a
/// host where RFC 2396 finds none may have found it there (`http:/h` as a
/// base).
pub(crate) fn authorityless_base_path<'c>(ctx: &Ctx<'c, '_>) -> Option<&'c str> {
    let resolved = ctx.resolved?;
    if has_scheme(resolved.reference) {
        return None;
    }
    base_parsed(ctx)
        .filter(|b| b.authority().is_none_or(str::is_empty))
        .map(|b| b.path())
}

/// The host a lenient parser reads from a path: after the leading
/// `slashes`, up to the first of `ends`, without userinfo (up to the last
/// `@`) and port (from the first `:`).
pub(crate) fn host_in_path<'p>(path: &'p str, slashes: &[char], ends: &[char]) -> &'p str {
    let first = path
        .trim_start_matches(slashes)
        .split(ends)
        .next()
        .unwrap_or_default();
    let first = first.rsplit_once('@').map_or(first, |(_, h)| h);
    first.split(':').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_covers_its_oracles_standards_and_shipped_names() {
        let whatwg_or_curl = Scope::Only(&[
            Target::Standard(Standard::Whatwg),
            Target::Oracle(OracleId::Curl),
        ]);
        for id in [OracleId::Url, OracleId::Ada, OracleId::Curl] {
            assert!(whatwg_or_curl.covers(id), "{id}");
        }
        for id in [OracleId::Http, OracleId::Rfc3986, OracleId::IriString] {
            assert!(!whatwg_or_curl.covers(id), "{id}");
        }
        assert!(Scope::Any.covers(OracleId::AppendixB));

        let java = Scope::Only(&[Target::External("java-uri")]);
        let registered = crate::oracle::register_external("java-uri");
        assert!(registered.is_ok_and(|id| java.covers(id)));
        let other = crate::oracle::register_external("python-urllib");
        assert!(other.is_ok_and(|id| !java.covers(id)));
        assert!(OracleId::ALL.iter().all(|id| !java.covers(*id)));

        // Every in-process oracle claims a standard; of the shipped
        // adapters, those whose parser documents none.
        assert!(
            OracleId::ALL
                .iter()
                .all(|id| !Scope::NoStandard.covers(*id))
        );
        for (name, claims_none) in [("php-parse-url", true), ("java-uri", false)] {
            let id = crate::oracle::register_external(name);
            assert!(
                id.is_ok_and(|id| Scope::NoStandard.covers(id) == claims_none),
                "{name}"
            );
        }
    }
}
