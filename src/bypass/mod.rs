//! Bypasses: which input gets past a validator that checks a URL's host
//! with one parser (or a string check) and sends a fetcher that reads it
//! with another to a different place.
//!
//! A service that validates with `url` and fetches with libcurl is
//! bypassed by `http://allowed.example\@evil.example/`: `url` reads the
//! host `allowed.example` (a `\` ends the authority of a special URL), and
//! libcurl `evil.example` (its userinfo runs to the `@`). Bypasses are found
//! by **host substitution** over what uridiff already knows: every input
//! where two parsers see different hosts becomes a template, the two hosts
//! replaced by `{allow}` and `{target}` ([`templates`]), filled with the
//! hosts the user asks about ([`candidates`]) and checked again; a cell of
//! the validator-by-fetcher [`Matrix`] holds the shortest input that works.
//! A confusion class found by fuzzing tomorrow becomes a bypass shape with
//! no code.
//!
//! Two goals ([`Goal`]): reach a named target (`--allow`, `--target`), or
//! get past a denylist of internal places ([`Place`]), where the validator
//! reads a name or a public address and the fetcher's resolver an internal
//! one (`http://0x7f.1/`: a name to `http::Uri`, 127.0.0.1 to glibc).

mod checks;
pub mod confirm;
pub mod known;
mod matrix;
mod place;
mod seen;
mod templates;

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::case::Case;
use crate::components::{Component, ComponentSet};
use crate::harness::Harness;
use crate::oracle::OracleId;

pub use self::checks::StringCheck;
pub use self::matrix::{Confirmation, Mark, Matrix, spelling};
pub use self::place::{Place, Read, Reading, inet_aton, place_of, read};
pub use self::seen::Seen;
pub use self::templates::{
    PLAIN_TEMPLATE, built_in_seeds, candidates, fill, filled_len, fits, one_sided_templates,
    templates,
};

/// The host a validator accepts when none is named (reports' bypass
/// section; RFC 6761 reserves `.example`).
pub const DEFAULT_ALLOW: &str = "allowed.example";
/// The host an attacker aims at when none is named.
pub const DEFAULT_TARGET: &str = "evil.example";
/// The longest `--allow` or `--target` host, in bytes. A DNS name is at
/// most 253 characters (RFC 1035 section 2.3.4: 255 octets on the wire);
/// written percent-encoded (RFC 3986 section 3.2.2) each of its bytes takes
/// three, 759; an IPv6 literal with a zone is shorter. 1024 leaves room for
/// those spellings, and keeps a template's slots from multiplying a host
/// into a huge input.
pub const MAX_HOST_BYTES: usize = 1024;
/// The slot of the allowed host in a template.
pub const ALLOW_SLOT: &str = "{allow}";
/// The slot of the target host in a template.
pub const TARGET_SLOT: &str = "{target}";

/// The spellings of internal places a denylist bypass tries in the target
/// slot: loopback, metadata, private, unspecified and link-local addresses
/// in the forms validators and resolvers read differently (glibc
/// `inet_aton` number forms, IPv6 and IPv4-mapped literals, the names that
/// resolve inside).
pub const INTERNAL_SPELLINGS: &[&str] = &[
    "127.0.0.1",
    "0x7f.1",
    "0x7f000001",
    "017700000001",
    "2130706433",
    "127.1",
    "0177.0.0.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "localhost",
    "169.254.169.254",
    "0xa9.0xfe.0xa9.0xfe",
    "2852039166",
    "[fd00:ec2::254]",
    "metadata.google.internal",
    "10.0.0.1",
    "0xa.1",
    "192.168.0.1",
    "0.0.0.0",
    "0",
    "[::]",
    "169.254.0.1",
    "[fe80::1]",
];

/// Who validates: a parser (its host), or a string check on the text.
#[derive(Clone, Debug)]
pub enum Validator {
    /// A parser: the service reads its host and compares.
    Parser(OracleId),
    /// A check on the input's text.
    Check(StringCheck),
}

impl Validator {
    /// The validator `name` stands for: a string check (`prefix`,
    /// `contains`, `suffix`, `split-host`, `regex:PATTERN`) or an oracle id.
    ///
    /// # Errors
    /// A regular expression that does not compile, or a name that is no
    /// oracle id.
    pub fn parse(name: &str) -> Result<Validator, String> {
        if let Some(check) = StringCheck::parse(name)? {
            return Ok(Validator::Check(check));
        }
        OracleId::from_id(name)
            .map(Validator::Parser)
            .ok_or_else(|| format!("--validator {name}: neither a string check nor an oracle"))
    }

    /// The parser, for a parser validator.
    pub fn parser(&self) -> Option<OracleId> {
        match self {
            Validator::Parser(id) => Some(*id),
            Validator::Check(_) => None,
        }
    }
}

impl fmt::Display for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Validator::Parser(id) => f.write_str(id.as_str()),
            Validator::Check(check) => check.fmt(f),
        }
    }
}

/// What a bypass achieves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The validator sees `allow`, the fetcher `target` (an allowlist
    /// bypass).
    Reach {
        /// The host the validator accepts.
        allow: String,
        /// Where the request should go instead.
        target: String,
    },
    /// The validator sees a name or a public address, the fetcher's
    /// resolver reaches one of `places` (a denylist bypass). `allow` fills
    /// the allowed slot of a template.
    Deny {
        /// The host in the allowed slot.
        allow: String,
        /// The places the denylist keeps a fetcher from.
        places: Vec<Place>,
    },
    /// A name blocklist (`--deny-name`): the validator's host is not
    /// `name` (ASCII case-insensitively, as `host.lower() != name` compares
    /// text), yet the fetcher reaches `name` (`%65vil.example`,
    /// `evil.example.`). `allow` fills the allowed slot of a template.
    DenyName {
        /// The host in the allowed slot.
        allow: String,
        /// The name the blocklist holds.
        name: String,
    },
    /// An allowlist of a domain the attacker holds (`--target-domain`):
    /// the validator sees `allow`, the fetcher any name under `domain`
    /// (`http://allowed.example.evil.example/` past a `prefix` check).
    ReachDomain {
        /// The host the validator accepts.
        allow: String,
        /// The attacker's domain: it and every name under it.
        domain: String,
    },
    /// A validator that treats an input with no host as a relative,
    /// same-site one (`--allow-no-host`: `urlsplit(u).hostname is None`)
    /// accepts it, and the fetcher reaches `aim`. `allow` fills the
    /// allowed slot of a template.
    NoHost {
        /// The host in the allowed slot.
        allow: String,
        /// Where the request should go instead.
        aim: Aim,
    },
}

/// Where a fetcher should go: one host, or any name under a domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aim {
    /// This host (a name, or an address compared as one).
    Host(String),
    /// This domain or any name under it.
    Domain(String),
}

impl Aim {
    /// Does a fetcher that reads `reached` (its host as its resolver reads
    /// it) get there?
    fn hit(&self, reached: &Read) -> bool {
        match self {
            Aim::Host(target) => *reached == read(target, Reading::Literal),
            Aim::Domain(domain) => match reached {
                Read::Name(name) => under_domain(name, domain),
                Read::Address(_) => false,
            },
        }
    }

    /// The spellings that go into the target slot: the host, or for a
    /// domain the domain itself and the allowed host made a name under it
    /// (`allowed.example.evil.example`: a prefix check reads the allowed
    /// host at its start).
    fn targets(&self, allow: &str) -> Vec<String> {
        match self {
            Aim::Host(target) => vec![target.clone()],
            Aim::Domain(domain) => vec![domain.clone(), format!("{allow}.{domain}")],
        }
    }
}

/// Is `name` `domain` or a name under it, ASCII case-insensitively, one
/// trailing dot ignored on either (a resolver reads `a.` as `a`)?
pub fn under_domain(name: &str, domain: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    let domain = domain.strip_suffix('.').unwrap_or(domain);
    if domain.is_empty() {
        return false;
    }
    name.eq_ignore_ascii_case(domain)
        || name.len() > domain.len()
            && name
                .get(name.len() - domain.len()..)
                .is_some_and(|tail| tail.eq_ignore_ascii_case(domain))
            && name
                .as_bytes()
                .get(name.len() - domain.len() - 1)
                .is_some_and(|&b| b == b'.')
}

/// The spellings of `name` a name blocklist misses and a fetcher may
/// still resolve to it: the name, with a trailing dot (a resolver drops
/// it), its first byte and every byte percent-encoded (WHATWG parsers and
/// `urllib.request` decode the host), a dot encoded, its first letter
/// full-width (IDNA maps it back), in brackets (a client that strips them).
pub fn name_spellings(name: &str) -> Vec<String> {
    let mut out = vec![name.to_owned(), format!("{name}.")];
    let encoded: String = name.bytes().map(|b| format!("%{b:02x}")).collect();
    if let Some(first) = name.bytes().next() {
        out.push(format!("%{first:02x}{}", name.get(1..).unwrap_or_default()));
    }
    out.push(encoded);
    if let Some(dot) = name.find('.') {
        out.push(format!(
            "{}%2e{}",
            name.get(..dot).unwrap_or_default(),
            name.get(dot + 1..).unwrap_or_default()
        ));
    }
    if let Some(first) = name.chars().next().filter(char::is_ascii_alphanumeric) {
        // U+FF01..U+FF5E are U+0021..U+007E full-width; IDNA (UTS 46)
        // maps them back.
        if let Some(wide) = char::from_u32(first as u32 - 0x21 + 0xFF01) {
            out.push(format!("{wide}{}", name.get(1..).unwrap_or_default()));
        }
    }
    out.push(format!("[{name}]"));
    out.dedup();
    out
}

impl Goal {
    /// The host in a template's allowed slot.
    pub fn allow(&self) -> &str {
        match self {
            Goal::Reach { allow, .. }
            | Goal::Deny { allow, .. }
            | Goal::DenyName { allow, .. }
            | Goal::ReachDomain { allow, .. }
            | Goal::NoHost { allow, .. } => allow,
        }
    }

    /// The hosts that go into the target slot.
    pub fn targets(&self) -> Vec<String> {
        match self {
            Goal::Reach { target, .. } => vec![target.clone()],
            Goal::Deny { .. } => INTERNAL_SPELLINGS.iter().map(|s| (*s).to_owned()).collect(),
            Goal::DenyName { name, .. } => name_spellings(name),
            Goal::ReachDomain { allow, domain } => Aim::Domain(domain.clone()).targets(allow),
            Goal::NoHost { allow, aim } => aim.targets(allow),
        }
    }

    /// Does one parser as validator and fetcher make a cell? Not for an
    /// allowlist: one parser reads one host. A denylist, a name blocklist
    /// and a hostless check compare the validator's text with where the
    /// fetcher's client goes (`urlsplit(u).hostname` is `127.1`, a name,
    /// and `urllib.request` dials 127.0.0.1).
    pub fn pairs_one_parser(&self) -> bool {
        !matches!(self, Goal::Reach { .. } | Goal::ReachDomain { .. })
    }

    /// Do the templates with the target's slot alone help (an input where
    /// one parser reads no host and another the target)?
    fn wants_one_sided(&self) -> bool {
        matches!(self, Goal::NoHost { .. } | Goal::DenyName { .. })
    }

    /// Does a fetcher whose client reads `reached` (from its host
    /// `fetcher_host`) achieve the goal?
    fn reached(&self, fetcher_host: &str, reached: &Read) -> bool {
        match self {
            Goal::Reach { target, .. } => *reached == read(target, Reading::Literal),
            Goal::Deny { places, .. } => places.contains(&reached.place()),
            Goal::DenyName { name, .. } => same_name(fetcher_host, name),
            Goal::ReachDomain { domain, .. } => Aim::Domain(domain.clone()).hit(reached),
            Goal::NoHost { aim, .. } => aim.hit(reached),
        }
    }

    /// Does a validator that accepted the input and read `host` (none:
    /// it read no host) pass it?
    fn passes_host(&self, host: Option<&str>) -> bool {
        match self {
            Goal::Reach { allow, .. } | Goal::ReachDomain { allow, .. } => {
                host.is_some_and(|h| names_allowed(h, allow))
            }
            Goal::Deny { .. } => {
                host.is_some_and(|h| !read(h, Reading::Literal).place().is_internal())
            }
            // `host.lower() != name`: no host is not the name either.
            Goal::DenyName { name, .. } => host.is_none_or(|h| !h.eq_ignore_ascii_case(name)),
            Goal::NoHost { .. } => host.is_none_or(str::is_empty),
        }
    }

    /// The goal's name in JSON (`"goal"`): `reach`, `deny`, `deny-name`,
    /// `target-domain` or `allow-no-host`.
    pub fn kind(&self) -> &'static str {
        match self {
            Goal::Reach { .. } => "reach",
            Goal::Deny { .. } => "deny",
            Goal::DenyName { .. } => "deny-name",
            Goal::ReachDomain { .. } => "target-domain",
            Goal::NoHost { .. } => "allow-no-host",
        }
    }

    /// The goal in words, after "the validator": what it reads, and where
    /// the fetcher goes.
    pub fn describe(&self) -> String {
        match self {
            Goal::Reach { allow, target } => {
                format!("reads host \"{allow}\", the fetcher \"{target}\"")
            }
            Goal::Deny { places, .. } => {
                let names: Vec<&str> = places.iter().map(|p| p.as_str()).collect();
                format!(
                    "reads a name or a public address, the fetcher's resolver reaches {}",
                    names.join(", ")
                )
            }
            Goal::DenyName { name, .. } => format!(
                "reads a host that is not \"{name}\" (its blocklist), the fetcher reaches \"{name}\""
            ),
            Goal::ReachDomain { allow, domain } => {
                format!("reads host \"{allow}\", the fetcher a name under \"{domain}\"")
            }
            Goal::NoHost {
                aim: Aim::Host(target),
                ..
            } => {
                format!("reads no host (a relative, same-site URL to it), the fetcher \"{target}\"")
            }
            Goal::NoHost {
                aim: Aim::Domain(domain),
                ..
            } => format!(
                "reads no host (a relative, same-site URL to it), the fetcher a name under \"{domain}\""
            ),
        }
    }
}

/// Does a resolver read `host` as `name`: ASCII case-insensitively, one
/// trailing dot ignored?
fn same_name(host: &str, name: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let name = name.strip_suffix('.').unwrap_or(name);
    !name.is_empty() && host.eq_ignore_ascii_case(name)
}

/// One input that gets past `validator` and sends `fetcher` elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bypass {
    /// The validator (an oracle id or a string check).
    pub validator: String,
    /// The fetcher (an oracle id).
    pub fetcher: String,
    /// The input.
    pub input: String,
    /// The host the validator read (none for a string check that reads no
    /// host: `prefix`, `contains`, a regex).
    pub validator_host: Option<String>,
    /// The host the fetcher read.
    pub fetcher_host: String,
    /// The confusion class it came from: the class of the fetcher's (else
    /// the validator's) finding about the authority in this input.
    pub shape: String,
    /// Where the fetcher's host points, read by its resolver.
    pub fetcher_place: Place,
    /// The address the fetcher's resolver reads, when the host is one.
    pub fetcher_address: Option<String>,
    /// The HTTP client that confirmed it (`--confirm`): its request for
    /// this input arrived at the target's trap on loopback.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<String>,
    /// What real clients did with it (`--observe`): absent when nothing
    /// was observed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<Observed>,
}

/// What the clients of a fetcher's parser did with a bypass's input, in
/// the network namespace (`bypass --observe`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Observed {
    /// Did a client reach the goal's target (its trap address, or a name
    /// under the target domain asked of the resolver or sent as `Host`)?
    pub reached: bool,
    /// Did the parser model predict it (the fetcher's parser reads a host
    /// its resolver takes to the target)? A cell reached but not predicted
    /// is one the client's rewriting made.
    pub predicted: bool,
    /// The client that reached the target; else the first one tried.
    pub client: String,
    /// The address its request arrived at.
    pub address: Option<String>,
    /// The name it asked the resolver for.
    pub resolved_name: Option<String>,
    /// Its `Host` header.
    pub host_header: Option<String>,
    /// Its error, when it reached nothing.
    pub error: Option<String>,
}

impl Bypass {
    /// The order bypasses are chosen in. Shortest first; of equal length, the one with fewer capitals (the
    /// lower-case spelling a person writes), then by text.
    pub(crate) fn order_key(&self) -> (usize, usize, &str) {
        (
            self.input.chars().count(),
            self.input.bytes().filter(u8::is_ascii_uppercase).count(),
            &self.input,
        )
    }
}

/// How a fetcher's client turns the host into an address: Go's and Java's
/// resolvers their own way, every other (libcurl, Python, Node, PHP, Ruby,
/// hyper) through glibc's `getaddrinfo`.
pub fn reading_of(fetcher: OracleId) -> Reading {
    use crate::oracle::external::Resolver;
    match crate::oracle::external::shipped_resolver(fetcher.as_str()) {
        Resolver::Glibc => Reading::Glibc,
        Resolver::Go => Reading::Go,
        Resolver::Java => Reading::Java,
    }
}

/// Does the validator's host name `allow` (ASCII case-insensitively, or as
/// the same IP address written alike)?
fn names_allowed(host: &str, allow: &str) -> bool {
    host.eq_ignore_ascii_case(allow)
        || matches!(
            (read(host, Reading::Literal), read(allow, Reading::Literal)),
            (Read::Address(a), Read::Address(b)) if a == b
        )
}

const AUTHORITY_PARTS: ComponentSet = ComponentSet::of(&[
    Component::Authority,
    Component::Userinfo,
    Component::Host,
    Component::Port,
]);

/// The class that names how `oracles` (fetcher first) come to read the
/// host differently: the first finding of one of them about the authority
/// (its userinfo, host or port), else the first about its verdict (an
/// input rfc2396 refuses: its class names why), else any finding about
/// the host; else `fallback`.
fn shape(case: &Case<'_>, oracles: &[OracleId], fallback: &'static str) -> &'static str {
    let of = |test: &dyn Fn(&crate::triage::Finding) -> bool| {
        oracles
            .iter()
            .find_map(|id| case.findings.iter().find(|f| f.oracle == *id && test(f)))
    };
    of(&|f| !f.fields.intersection(AUTHORITY_PARTS).is_empty())
        .or_else(|| of(&|f| f.verdict))
        .or_else(|| {
            case.findings
                .iter()
                .find(|f| f.fields.contains(Component::Host))
        })
        .map_or(fallback, |f| f.class.id())
}

/// The host an accepting parser reads in `case`.
fn host_of<'c>(case: &'c Case<'_>, id: OracleId) -> Option<&'c str> {
    case.outcome(id)
        .filter(|o| o.accepted())
        .and_then(|o| o.components.get(Component::Host))
}

/// Does the fetcher fetch this input: it accepts it with an `http` or
/// `https` scheme (the schemes an HTTP client sends) and a host that is
/// not empty?
fn fetched_host<'c>(case: &'c Case<'_>, fetcher: OracleId) -> Option<&'c str> {
    let outcome = case.outcome(fetcher).filter(|o| o.accepted())?;
    let scheme = outcome.components.get(Component::Scheme)?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    outcome
        .components
        .get(Component::Host)
        .filter(|h| !h.is_empty())
}

/// Every bypass `case` shows for the pairs of `validators` and `fetchers`.
pub fn bypasses(
    case: &Case<'_>,
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Vec<Bypass> {
    let mut found = Vec::new();
    for &fetcher in fetchers {
        let Some(fetcher_host) = fetched_host(case, fetcher) else {
            continue;
        };
        let reached = read(fetcher_host, reading_of(fetcher));
        let place = reached.place();
        if !goal.reached(fetcher_host, &reached) {
            continue;
        }
        for validator in validators {
            if validator.parser() == Some(fetcher) && !goal.pairs_one_parser() {
                continue;
            }
            let Some((validator_host, preferred)) = passing(case, validator, fetcher, goal) else {
                continue;
            };
            let fallback = match validator {
                Validator::Parser(_) => "host-confusion",
                Validator::Check(_) => "string-check",
            };
            found.push(Bypass {
                validator: validator.to_string(),
                fetcher: fetcher.as_str().to_owned(),
                input: case.input.to_owned(),
                validator_host: validator_host.map(str::to_owned),
                fetcher_host: fetcher_host.to_owned(),
                shape: shape(case, &preferred, fallback).to_owned(),
                fetcher_place: place,
                fetcher_address: reached.address().map(|a| a.to_string()),
                confirmed_by: None,
                observed: None,
            });
        }
    }
    found
}

/// Does `validator` pass `case` for `goal`: the host it read (none for a
/// check that reads none), and the oracles whose findings name the shape
/// (`fetcher` first)?
fn passing<'c>(
    case: &'c Case<'_>,
    validator: &Validator,
    fetcher: OracleId,
    goal: &Goal,
) -> Option<(Option<&'c str>, Vec<OracleId>)> {
    let (passes, host, preferred) = match validator {
        Validator::Parser(id) => {
            // Only an accepting validator passes anything; what it passes
            // depends on the host it read (or none).
            let accepted = case.outcome(*id).is_some_and(|o| o.accepted());
            let host = host_of(case, *id);
            (accepted && goal.passes_host(host), host, vec![fetcher, *id])
        }
        Validator::Check(check) => {
            let host = check.host(case.input);
            let passes = match goal {
                Goal::Reach { allow, .. } | Goal::ReachDomain { allow, .. } => {
                    check.passes(case.input, allow)
                }
                // A denylist, a blocklist or a hostless check reads a
                // host: the checks that read none (`prefix`, `contains`, a
                // regex) have nothing to compare, and `split-host` and
                // `suffix` raise where they find no `//` (no host: not
                // passed).
                Goal::Deny { .. } | Goal::DenyName { .. } | Goal::NoHost { .. } => {
                    host.is_some() && goal.passes_host(host)
                }
            };
            (passes, host, vec![fetcher])
        }
    };
    passes.then_some((host, preferred))
}

/// Every input of `case` a validator passes, for each fetcher, whatever
/// the fetcher's parser reads: what `--observe` sends through the
/// fetcher's clients, since a client may go where its parser does not
/// (`urllib.request` percent-decodes the host). As [`Bypass`]es whose
/// `fetcher_host` is the parser's host (empty for none) and `observed`
/// not yet set.
pub fn passed(
    case: &Case<'_>,
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Vec<Bypass> {
    let mut out = Vec::new();
    for &fetcher in fetchers {
        let fetcher_host = host_of(case, fetcher).unwrap_or_default();
        let reached = read(fetcher_host, reading_of(fetcher));
        for validator in validators {
            if validator.parser() == Some(fetcher) && !goal.pairs_one_parser() {
                continue;
            }
            let Some((validator_host, preferred)) = passing(case, validator, fetcher, goal) else {
                continue;
            };
            let fallback = match validator {
                Validator::Parser(_) => "host-confusion",
                Validator::Check(_) => "string-check",
            };
            out.push(Bypass {
                validator: validator.to_string(),
                fetcher: fetcher.as_str().to_owned(),
                input: case.input.to_owned(),
                validator_host: validator_host.map(str::to_owned),
                fetcher_host: fetcher_host.to_owned(),
                shape: shape(case, &preferred, fallback).to_owned(),
                fetcher_place: reached.place(),
                fetcher_address: reached.address().map(|a| a.to_string()),
                confirmed_by: None,
                observed: None,
            });
        }
    }
    out
}

/// Checks `inputs` (filled candidates) with `harness` and records every
/// bypass in `matrix`.
pub fn check_candidates(
    harness: &mut Harness<'_>,
    inputs: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
    matrix: &mut Matrix,
) {
    let step = harness.batch_size().max(1);
    for chunk in inputs.chunks(step) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        for case in harness.check_batch(&refs) {
            for bypass in bypasses(&case, validators, fetchers, goal) {
                matrix.add(bypass);
            }
            if matrix.collects_passed() {
                for candidate in passed(&case, validators, fetchers, goal) {
                    matrix.add_passed(candidate);
                }
            }
        }
        matrix.checked += chunk.len();
    }
}

/// Templates from `seeds`, each checked with `harness` ([`templates`]).
pub fn seed_templates(harness: &mut Harness<'_>, seeds: &[String]) -> BTreeSet<String> {
    seed_templates_and(harness, seeds, |_| {})
}

/// [`seed_templates`], handing each seed's case to `each` as well (for a
/// caller that also wants what the seeds show as they are).
pub fn seed_templates_and(
    harness: &mut Harness<'_>,
    seeds: &[String],
    each: impl FnMut(&Case<'_>),
) -> BTreeSet<String> {
    seed_templates_with(harness, seeds, false, each)
}

/// [`seed_templates_and`], with the one-sided templates too when
/// `one_sided` ([`one_sided_templates`]).
fn seed_templates_with(
    harness: &mut Harness<'_>,
    seeds: &[String],
    one_sided: bool,
    mut each: impl FnMut(&Case<'_>),
) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    let step = harness.batch_size().max(1);
    for chunk in seeds.chunks(step) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let cases = harness.check_batch(&refs);
        for case in &cases {
            each(case);
        }
        out.extend(templates(&cases));
        if one_sided {
            out.extend(one_sided_templates(&cases));
        }
    }
    out
}

/// The whole search: `seeds` checked for host confusions and made
/// templates, with `given` (inputs that may hold `{allow}` and
/// `{target}`, tried first) and [`PLAIN_TEMPLATE`]; every candidate
/// checked.
pub fn search(
    harness: &mut Harness<'_>,
    seeds: &[String],
    given: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
) -> Matrix {
    search_with(harness, seeds, given, validators, fetchers, goal, false)
}

/// [`search`], keeping too, when `keep_passed`, the shortest input per
/// validator, fetcher, shape and spelling of the fetcher's host
/// ([`spelling`]) that the validator passes whatever the
/// fetcher's parser reads ([`passed`], [`Matrix::passed`]): the inputs
/// `--observe` sends.
pub fn search_with(
    harness: &mut Harness<'_>,
    seeds: &[String],
    given: &[String],
    validators: &[Validator],
    fetchers: &[OracleId],
    goal: &Goal,
    keep_passed: bool,
) -> Matrix {
    let from_seeds = seed_templates_with(harness, seeds, goal.wants_one_sided(), |_| {});
    let mut ordered: Vec<&str> = given.iter().map(String::as_str).collect();
    ordered.push(PLAIN_TEMPLATE);
    ordered.extend(from_seeds.iter().map(String::as_str));
    let inputs = candidates(ordered, goal);
    let mut matrix = Matrix::new(validators, fetchers, goal);
    if keep_passed {
        matrix.keep_passed();
    }
    check_candidates(harness, &inputs, validators, fetchers, goal, &mut matrix);
    matrix
}

/// The parsers a case was checked with (not the references, not the
/// splits that do not validate), in its order.
pub fn parsers_in(case: &Case<'_>) -> Vec<OracleId> {
    case.outcomes
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| id.validates() && !id.is_reference())
        .collect()
}

/// The validators of a default run: every parser, then the four fixed
/// string checks.
pub fn default_validators(parsers: &[OracleId]) -> Vec<Validator> {
    parsers
        .iter()
        .copied()
        .map(Validator::Parser)
        .chain([
            Validator::Check(StringCheck::Prefix),
            Validator::Check(StringCheck::Contains),
            Validator::Check(StringCheck::Suffix),
            Validator::Check(StringCheck::SplitHost),
        ])
        .collect()
}

/// The matrix a report shows: [`DEFAULT_ALLOW`] against
/// [`DEFAULT_TARGET`], every parser of `harness`'s run as validator and
/// fetcher plus the string checks as validators, from the built-in seeds
/// and `more` (templates of the report's own inputs).
pub fn report_matrix(harness: &mut Harness<'_>, more: &BTreeSet<String>) -> Matrix {
    let parsers = parsers_in(&harness.check_query(crate::Query::new(PLAIN_TEMPLATE)));
    let validators = default_validators(&parsers);
    let goal = Goal::Reach {
        allow: DEFAULT_ALLOW.to_owned(),
        target: DEFAULT_TARGET.to_owned(),
    };
    let mut all = seed_templates(harness, &built_in_seeds());
    all.extend(more.iter().cloned());
    let mut ordered: Vec<&str> = vec![PLAIN_TEMPLATE];
    ordered.extend(all.iter().map(String::as_str));
    let inputs = candidates(ordered, &goal);
    let mut matrix = Matrix::new(&validators, &parsers, &goal);
    check_candidates(harness, &inputs, &validators, &parsers, &goal, &mut matrix);
    matrix
}

#[cfg(test)]
mod goal_tests {
    use super::*;

    #[test]
    fn a_name_under_a_domain_is_at_a_dot_boundary() {
        assert!(under_domain("evil.example", "evil.example"));
        assert!(under_domain("A.Evil.Example.", "evil.example"));
        assert!(!under_domain("notevil.example", "evil.example"));
        assert!(!under_domain("evil.example.com", "evil.example"));
        assert!(!under_domain("x", ""));
    }

    #[test]
    fn blocklist_spellings_are_other_texts_for_the_same_name() {
        let spellings = name_spellings("evil.example");
        for s in [
            "evil.example",
            "evil.example.",
            "%65vil.example",
            "evil%2eexample",
            "ｅvil.example",
            "[evil.example]",
        ] {
            assert!(spellings.iter().any(|x| x == s), "{s}: {spellings:?}");
        }
    }

    #[test]
    fn each_goal_passes_what_its_check_passes() {
        let no_host = Goal::NoHost {
            allow: "a".into(),
            aim: Aim::Host("evil.example".into()),
        };
        assert!(no_host.passes_host(None) && no_host.passes_host(Some("")));
        assert!(!no_host.passes_host(Some("evil.example")));
        let name = Goal::DenyName {
            allow: "a".into(),
            name: "evil.example".into(),
        };
        assert!(!name.passes_host(Some("EVIL.example")));
        assert!(name.passes_host(Some("%65vil.example")) && name.passes_host(None));
        assert!(name.reached("Evil.Example.", &read("Evil.Example.", Reading::Glibc)));
        let domain = Goal::ReachDomain {
            allow: "allowed.example".into(),
            domain: "evil.example".into(),
        };
        assert!(
            domain
                .targets()
                .contains(&"allowed.example.evil.example".to_owned())
        );
        assert!(!domain.pairs_one_parser());
        assert!(name.pairs_one_parser() && no_host.pairs_one_parser());
    }
}
