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
mod templates;

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::case::Case;
use crate::components::{Component, ComponentSet};
use crate::harness::Harness;
use crate::oracle::OracleId;

pub use self::checks::StringCheck;
pub use self::matrix::{Confirmation, Mark, Matrix};
pub use self::place::{Place, Read, Reading, inet_aton, place_of, read};
pub use self::templates::{
    PLAIN_TEMPLATE, built_in_seeds, candidates, fill, filled_len, fits, templates,
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
}

impl Goal {
    /// The host in a template's allowed slot.
    pub fn allow(&self) -> &str {
        match self {
            Goal::Reach { allow, .. } | Goal::Deny { allow, .. } => allow,
        }
    }

    /// The hosts that go into the target slot.
    pub fn targets(&self) -> Vec<&str> {
        match self {
            Goal::Reach { target, .. } => vec![target.as_str()],
            Goal::Deny { .. } => INTERNAL_SPELLINGS.to_vec(),
        }
    }
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
        let hit = match goal {
            Goal::Reach { target, .. } => reached == read(target, Reading::Literal),
            Goal::Deny { places, .. } => places.contains(&place),
        };
        if !hit {
            continue;
        }
        for validator in validators {
            if validator.parser() == Some(fetcher) {
                continue;
            }
            let (passes, validator_host, preferred) = match validator {
                Validator::Parser(id) => {
                    let host = host_of(case, *id);
                    let passes = host.is_some_and(|h| match goal {
                        Goal::Reach { allow, .. } => names_allowed(h, allow),
                        Goal::Deny { .. } => !read(h, Reading::Literal).place().is_internal(),
                    });
                    (passes, host, vec![fetcher, *id])
                }
                Validator::Check(check) => {
                    let host = check.host(case.input);
                    let passes = match goal {
                        Goal::Reach { allow, .. } => check.passes(case.input, allow),
                        // A denylist check reads a host: the checks that
                        // read none have nothing to deny.
                        Goal::Deny { .. } => {
                            host.is_some_and(|h| !read(h, Reading::Literal).place().is_internal())
                        }
                    };
                    (passes, host, vec![fetcher])
                }
            };
            if !passes {
                continue;
            }
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
            });
        }
    }
    found
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
    let from_seeds = seed_templates(harness, seeds);
    let mut ordered: Vec<&str> = given.iter().map(String::as_str).collect();
    ordered.push(PLAIN_TEMPLATE);
    ordered.extend(from_seeds.iter().map(String::as_str));
    let inputs = candidates(ordered, goal);
    let mut matrix = Matrix::new(validators, fetchers, goal);
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
