//! One view of what an oracle is, whichever kind it is: an in-process
//! parser (a row of `oracles!`), a shipped adapter (a row of the shipped
//! table) or a program a user plugged in (`--oracle-cmd`, of which nothing
//! is known but its name). Code that needs a fact about an oracle asks its
//! [`Descriptor`] ([`OracleId::descriptor`]); it never matches the oracle's
//! name.

use super::external::shipped::{self, Reproduce};
use super::external::{HostReading, Resolver, SchemeSyntax, SelfCheck};
use super::{OracleId, OracleInfo, Standard};

/// Which kind of oracle it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A parser linked into uridiff (a row of the registry, built or not).
    InProcess,
    /// An adapter shipped with uridiff (`--oracle NAME`).
    Shipped,
    /// A program the user plugged in (`--oracle-cmd NAME=COMMAND`).
    Plugged,
}

/// The inputs an oracle answers for; anything else is out of its domain
/// (an outcome of its own, never a refusal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Domain {
    /// Every string (an adapter answers every line it is given; a pair
    /// only when it [resolves](Descriptor::resolves)).
    Every,
    /// Absolute URLs: a relative reference is out of its domain.
    Absolute,
    /// HTTP request targets (origin-, absolute- and authority-form, `*`).
    RequestTarget,
}

/// How `reproduce` writes a test of an in-process parser's defect, in
/// that parser's own API and language (a shipped adapter's template is its
/// row's [`Reproduce`]). A new oracle whose API one of these already covers
/// names it in its `oracles!` row; a new API is a variant here and its
/// writer in `src/reproduce/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Template {
    /// A Rust test against the `url` crate (`Url::parse`, `join`).
    UrlCrate,
    /// A Rust test against `http::Uri`: every defect uridiff finds in it is
    /// input RFC 3986 forbids that it accepts (sections 3.1, 3.2.2, 3.2.3),
    /// so the test asserts a refusal whatever the reference's reading.
    HttpUri,
    /// A Rust test against `fluent_uri::UriRef`.
    FluentUri,
    /// A Rust test against `iri_string::types::UriReferenceStr`.
    IriString,
    /// A JavaScript test against Node's `URL` (Ada is Node's URL parser)
    /// and a C test against Ada's C API (`ada_c.h`).
    Ada,
    /// A C test against libcurl's URL API (`curl_url_set`/`curl_url_get`).
    Curl,
    /// A C test against uriparser (`uriParseSingleUriA`).
    Uriparser,
}

impl Template {
    /// Does every test it writes assert a refusal ([`Template::HttpUri`])?
    pub(crate) fn asserts_refusal(self) -> bool {
        matches!(self, Template::HttpUri)
    }
}

/// What an oracle is: the facts every part of uridiff reads about it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Descriptor {
    /// Its stable id.
    pub id: OracleId,
    /// Which kind of oracle it is.
    pub kind: Kind,
    /// The standard it claims, if any: its outcomes are judged by that
    /// standard's reference, it is a peer of that standard's other parsers,
    /// and the self-checks apply. None for a lenient splitter (PHP's
    /// `parse_url`) and for a plugged-in program.
    pub standard: Option<Standard>,
    /// The inputs it answers for.
    pub domain: Domain,
    /// Does it validate? A split that never rejects (Appendix B) does not.
    pub validates: bool,
    /// Does it resolve a reference against a base with its own algorithm?
    pub resolves: bool,
    /// The standard it is the reference of, if it is one: it decides which
    /// parser departs where they disagree, and is not judged itself.
    pub reference_for: Option<Standard>,
    /// The standard whose reference judges it where it differs from
    /// rfc2396: the one it claims where that standard has a reference
    /// (the URL Standard, RFC 3986, RFC 2396), or for a parser whose
    /// authority reading follows another's (`http::Uri` reads RFC 3986's
    /// authority) that one's; none for a split, a dialect without a
    /// reference (libcurl's), a program that claims nothing, and the
    /// strict parser (rfc2396), which its grammar holds instead (the
    /// `parse` fuzz target and a test over the saved corpus).
    pub judged_by: Option<Standard>,
    /// The ids of the HTTP clients that read a URL with its parser
    /// (`uridiff fetch`'s rows, [`crate::fetch::clients`]): where
    /// `bypass --confirm` and `--observe` send a bypass whose fetcher it
    /// is. Empty for one whose parser no client uridiff runs uses.
    pub clients: &'static [&'static str],
    /// The oracle whose implementation its own derives from (fast-uri from
    /// uri-js): one implementation when a majority decides.
    pub lineage: Option<&'static str>,
    /// How its runtime's resolver reads a host as an address.
    pub resolver: Resolver,
    /// How its parser's documentation says it writes a host where that is
    /// not the input's text, each with the passage that says so.
    pub host_readings: &'static [(HostReading, &'static str)],
    /// The self-checks it is held to although it claims no standard.
    pub held_to: &'static [SelfCheck],
    /// The standard it claims for parsing an input alone: its `standard`,
    /// or for one that claims none as a whole, what its documentation
    /// claims of its parse (`Shipped::claims`).
    pub claims_parse: Option<Standard>,
    /// The standard it claims for resolving a reference against a base,
    /// likewise (Go's `URL.ResolveReference`: RFC 3986 section 5.2).
    pub claims_resolve: Option<Standard>,
    /// The passage of its documentation that says its parse does not
    /// validate, although it claims a standard (uri-js).
    pub no_validation: Option<&'static str>,
    /// The schemes its documentation says it refuses without a host, as
    /// those schemes require, and the passage that says so.
    pub host_required: Option<(&'static [&'static str], &'static str)>,
    /// The passage of its documentation that says it reads an IPv6
    /// literal's zone ID after a bare `%` (java.net.URI's scope_ids).
    pub zone_ids: Option<&'static str>,
    /// The passage of its documentation that says it accepts C0 controls
    /// and spaces inside a component (fast-uri).
    pub interior_controls: Option<&'static str>,
    /// The passage of its documentation that says it writes what it parses
    /// as RFC 3986 section 6.2.2 normalises it (uri-js).
    pub syntax_normalized: Option<&'static str>,
    /// The passage that says it reads RFC 2396 as RFC 2732 amends it
    /// (bracketed IPv6 literals), for a parser that claims RFC 2396.
    pub rfc2732: Option<&'static str>,
    /// The scheme syntaxes its documentation says it validates URIs of
    /// those schemes by, and the passage that says so.
    pub scheme_syntax: Option<(&'static [SchemeSyntax], &'static str)>,
    /// The prefix of the adapter's note by which its parser flags an input
    /// as malformed while returning components.
    pub flag_note: Option<&'static str>,
    /// How `reproduce` writes a test of a shipped adapter's defect in its
    /// parser's own language; none for an in-process oracle, whose test
    /// `reproduce` writes in Rust or C itself, and for one it writes no
    /// test of.
    pub(crate) reproduce: Option<&'static Reproduce>,
    /// How `reproduce` writes a test of an in-process parser's defect
    /// (its `oracles!` row's `reproduce`); none for an external oracle and
    /// for an in-process one it writes no test of (the strict parser, the
    /// Appendix B split, the references).
    pub(crate) template: Option<Template>,
}

impl Descriptor {
    /// The descriptor of the built-in oracle `id` (built or not), from the
    /// facts of its `oracles!` row.
    pub(super) const fn in_process(
        id: OracleId,
        standard: Standard,
        domain: Domain,
        validates: bool,
        reference: bool,
        template: Option<Template>,
    ) -> Descriptor {
        Descriptor {
            id,
            kind: Kind::InProcess,
            standard: Some(standard),
            domain,
            validates,
            // Every in-process oracle has a `resolve` (one that has no
            // resolution answers out of its domain there).
            resolves: true,
            reference_for: if reference { Some(standard) } else { None },
            // A row that says otherwise sets it (`judged_by:` in `oracles!`).
            judged_by: Some(standard),
            clients: &[],
            lineage: None,
            // libcurl and hyper, the in-process fetchers, go through glibc.
            resolver: Resolver::Glibc,
            host_readings: &[],
            held_to: &[],
            claims_parse: Some(standard),
            claims_resolve: Some(standard),
            no_validation: None,
            host_required: None,
            zone_ids: None,
            interior_controls: None,
            syntax_normalized: None,
            rfc2732: None,
            scheme_syntax: None,
            flag_note: None,
            reproduce: None,
            template,
        }
    }

    /// The descriptor of the external oracle `id` named `name`: a shipped
    /// adapter's row, or nothing known of a plugged-in program.
    pub(super) fn external(id: OracleId, name: &str) -> Descriptor {
        let Some(row) = shipped::find(name) else {
            return Descriptor {
                id,
                kind: Kind::Plugged,
                standard: None,
                domain: Domain::Every,
                validates: true,
                // A plugged-in program says so per pair (protocol v2).
                resolves: true,
                reference_for: None,
                judged_by: None,
                clients: &[],
                lineage: None,
                resolver: Resolver::Glibc,
                host_readings: &[],
                held_to: &[],
                claims_parse: None,
                claims_resolve: None,
                no_validation: None,
                host_required: None,
                zone_ids: None,
                interior_controls: None,
                syntax_normalized: None,
                rfc2732: None,
                scheme_syntax: None,
                flag_note: None,
                reproduce: None,
                template: None,
            };
        };
        let documented = row.documented;
        Descriptor {
            id,
            kind: Kind::Shipped,
            standard: row.standard,
            domain: Domain::Every,
            validates: true,
            resolves: row.resolves,
            reference_for: if row.reference { row.standard } else { None },
            // A shipped adapter claims no standard without a reference.
            judged_by: row.standard,
            clients: row.clients,
            lineage: row.lineage,
            resolver: row.resolver,
            host_readings: row.host_readings,
            held_to: row.held_to,
            claims_parse: row
                .standard
                .or(documented.claims.parse.map(|(standard, _)| standard)),
            claims_resolve: row
                .standard
                .or(documented.claims.resolve.map(|(standard, _)| standard)),
            no_validation: documented.no_validation,
            host_required: documented.host_required,
            zone_ids: documented.zone_ids,
            interior_controls: documented.interior_controls,
            syntax_normalized: documented.syntax_normalized,
            rfc2732: documented.rfc2732,
            scheme_syntax: documented.scheme_syntax,
            flag_note: match row.flag_note {
                Some((prefix, _)) => Some(prefix),
                None => None,
            },
            reproduce: row.reproduce.as_ref(),
            template: None,
        }
    }

    /// The library behind it with its version, for a built-in oracle this
    /// build has (its registry row's); none for one it lacks and for an
    /// external oracle, whose hello line names it
    /// ([`AdapterVersion`](super::external::AdapterVersion)).
    pub fn library(&self) -> Option<&'static str> {
        self.info().map(|o| o.library)
    }

    /// Its registry row, for a built-in oracle this build has.
    pub fn info(&self) -> Option<&'static OracleInfo> {
        super::info(self.id)
    }

    /// Is it its standard's reference?
    pub fn is_reference(&self) -> bool {
        self.reference_for.is_some()
    }

    /// The standard it claims for the operation at hand: resolving a
    /// reference against a base (`with_base`), or parsing an input alone.
    pub fn claims(&self, with_base: bool) -> Option<Standard> {
        if with_base {
            self.claims_resolve
        } else {
            self.claims_parse
        }
    }
}

/// The shipped adapter that is `standard`'s reference implementation, if
/// one is (whatwg-url for the URL Standard).
pub fn shipped_reference(standard: Standard) -> Option<&'static str> {
    shipped::SHIPPED
        .iter()
        .find(|s| s.reference && s.standard == Some(standard))
        .map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{ExternalName, registry};

    fn external(name: &str) -> Descriptor {
        OracleId::External(ExternalName::new(name).unwrap()).descriptor()
    }

    /// An in-process oracle's descriptor says what its registry row says.
    #[test]
    fn a_rows_descriptor_is_its_row() {
        for o in registry() {
            let d = o.id.descriptor();
            assert_eq!(d.kind, Kind::InProcess);
            assert_eq!(d.standard, Some(o.standard), "{}", o.id);
            assert_eq!(d.domain, o.inputs, "{}", o.id);
            assert_eq!(d.validates, o.validates, "{}", o.id);
            assert_eq!(d.is_reference(), o.reference, "{}", o.id);
            assert_eq!(d.library(), Some(o.library), "{}", o.id);
        }
        assert_eq!(OracleId::Url.descriptor().domain, Domain::Absolute);
        assert_eq!(OracleId::Http.descriptor().domain, Domain::RequestTarget);
        assert!(!OracleId::AppendixB.descriptor().validates);
        // `reproduce` writes a test from the row's template, not its name.
        assert_eq!(
            OracleId::Http.descriptor().template,
            Some(Template::HttpUri)
        );
        assert_eq!(
            OracleId::Rfc3986.descriptor().template,
            Some(Template::FluentUri)
        );
        assert_eq!(OracleId::Rfc2396.descriptor().template, None);
        assert_eq!(OracleId::Rfc3986Grammar.descriptor().template, None);
        assert_eq!(
            OracleId::Rfc3986Grammar.descriptor().reference_for,
            Some(Standard::Rfc3986)
        );
    }

    /// The accessors that answer a built-in oracle's facts with a match
    /// (triage asks them per outcome) answer what its descriptor says.
    #[test]
    fn the_accessors_answer_the_descriptor() {
        let externals = ["whatwg-url", "fast-uri", "plugged-in"]
            .map(|name| OracleId::External(ExternalName::new(name).unwrap()));
        for id in OracleId::ALL.iter().copied().chain(externals) {
            let d = id.descriptor();
            assert_eq!(id.standard(), d.standard, "{id}");
            assert_eq!(id.validates(), d.validates, "{id}");
            assert_eq!(id.is_reference(), d.is_reference(), "{id}");
            if d.flag_note.is_none() {
                let accepted = crate::oracle::Outcome::accept(crate::components::Components::new(
                    crate::components::ComponentSet::EMPTY,
                ));
                assert!(!id.flagged(&accepted), "{id}");
            }
        }
    }

    /// A shipped adapter's descriptor carries its row's facts; a program
    /// the user plugged in claims nothing.
    #[test]
    fn a_shipped_adapters_descriptor_is_its_row_and_a_plugged_one_claims_nothing() {
        let fast_uri = external("fast-uri");
        assert_eq!(fast_uri.kind, Kind::Shipped);
        assert_eq!(fast_uri.standard, Some(Standard::Rfc3986));
        assert_eq!(fast_uri.lineage, Some("uri-js"));
        assert_eq!(fast_uri.flag_note, Some("error:"));
        assert_eq!(fast_uri.host_readings.len(), 2);
        assert!(fast_uri.reproduce.is_some() && fast_uri.template.is_none());
        let go = external("go-net-url");
        assert_eq!((go.standard, go.resolver), (None, Resolver::Go));
        assert_eq!(go.held_to, &[SelfCheck::IpLiteral]);
        assert!(!external("php-parse-url").resolves);
        assert_eq!(external("php-parse-url").library(), None);

        let plugged = external("my-parser");
        assert_eq!(plugged.kind, Kind::Plugged);
        assert_eq!(
            (plugged.standard, plugged.reference_for, plugged.lineage),
            (None, None, None)
        );
        assert!(plugged.validates && plugged.reproduce.is_none());
    }

    /// Which reference judges an oracle is its descriptor's fact: the
    /// strict parser, the split and libcurl's dialect are judged by none,
    /// `http::Uri` by RFC 3986's (its authority's), a shipped adapter by
    /// its standard's; and each standard that judges has a reference.
    #[test]
    fn the_reference_that_judges_an_oracle_is_its_descriptors() {
        use crate::reference::reference_for;
        for (id, judged_by) in [
            (OracleId::Rfc2396, None),
            (OracleId::AppendixB, None),
            (OracleId::Curl, None),
            (OracleId::Http, Some(Standard::Rfc3986)),
            (OracleId::Url, Some(Standard::Whatwg)),
            (OracleId::Rfc3986, Some(Standard::Rfc3986)),
            (OracleId::Rfc2396Grammar, Some(Standard::Rfc2396)),
        ] {
            assert_eq!(id.descriptor().judged_by, judged_by, "{id}");
        }
        assert_eq!(external("java-uri").judged_by, Some(Standard::Rfc2396));
        assert_eq!(external("php-parse-url").judged_by, None);
        assert_eq!(external("my-parser").judged_by, None);
        let shipped = crate::oracle::external::shipped_names()
            .into_iter()
            .map(|n| OracleId::External(ExternalName::new(n).unwrap()));
        for id in OracleId::ALL.iter().copied().chain(shipped) {
            if let Some(s) = id.descriptor().judged_by {
                assert!(reference_for(s).is_some(), "{id}: {s:?} has no reference");
            }
        }
    }

    /// An oracle's HTTP clients are its descriptor's: its row's, by the
    /// clients' ids (`fetch::clients_of` reads them).
    #[test]
    fn an_oracles_clients_are_its_rows() {
        assert_eq!(OracleId::Curl.descriptor().clients, ["libcurl", "php-curl"]);
        assert_eq!(external("urllib3").clients, ["urllib3", "requests"]);
        assert!(OracleId::Url.descriptor().clients.is_empty());
        assert!(external("whatwg-url").clients.is_empty());
        assert!(external("my-parser").clients.is_empty());
    }

    /// Each standard's reference is the oracle whose row says so; the
    /// standards without one have none.
    #[test]
    fn each_standards_reference_is_the_row_that_says_so() {
        use crate::reference::reference_for;
        assert_eq!(
            reference_for(Standard::Rfc3986),
            Some(OracleId::Rfc3986Grammar)
        );
        assert_eq!(
            reference_for(Standard::Rfc2396),
            Some(OracleId::Rfc2396Grammar)
        );
        assert_eq!(
            reference_for(Standard::Whatwg).map(|id| id.descriptor().kind),
            Some(Kind::Shipped)
        );
        for s in [
            Standard::Rfc2396AppendixB,
            Standard::HttpRequestTarget,
            Standard::Curl,
        ] {
            assert_eq!(reference_for(s), None, "{s:?}");
        }
    }

    /// whatwg-url is the URL Standard's reference because its row says so,
    /// and `reference::WHATWG_URL` names that row.
    #[test]
    fn the_whatwg_reference_is_the_row_that_says_so() {
        assert_eq!(
            shipped_reference(Standard::Whatwg),
            Some(crate::reference::WHATWG_URL)
        );
        let d = external(crate::reference::WHATWG_URL);
        assert_eq!(d.reference_for, Some(Standard::Whatwg));
        assert!(d.reproduce.is_none(), "a reference is not judged");
        assert_eq!(shipped_reference(Standard::Curl), None);
        let shipped_references = crate::oracle::external::shipped_names()
            .into_iter()
            .filter(|n| external(n).is_reference())
            .count();
        assert_eq!(shipped_references, 1, "whatwg-url alone");
    }

    /// Every built-in id and every shipped adapter has one descriptor of
    /// its kind, with its own id.
    #[test]
    fn every_oracle_has_a_descriptor_of_its_kind() {
        for &id in OracleId::ALL {
            let d = id.descriptor();
            assert_eq!((d.id, d.kind), (id, Kind::InProcess));
        }
        for name in crate::oracle::external::shipped_names() {
            let d = external(name);
            assert_eq!((d.id.as_str(), d.kind), (name, Kind::Shipped));
        }
    }
}
