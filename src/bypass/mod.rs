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
mod place;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use crate::case::Case;
use crate::components::{Component, ComponentSet};
use crate::harness::Harness;
use crate::oracle::OracleId;

pub use self::checks::StringCheck;
pub use self::place::{Place, Read, Reading, inet_aton, place_of, read};

/// The host a validator accepts when none is named (reports' bypass
/// section; RFC 6761 reserves `.example`).
pub const DEFAULT_ALLOW: &str = "allowed.example";
/// The host an attacker aims at when none is named.
pub const DEFAULT_TARGET: &str = "evil.example";
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
    /// Shortest first; of equal length, the one with fewer capitals (the
    /// lower-case spelling a person writes), then by text.
    fn order_key(&self) -> (usize, usize, &str) {
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
    match fetcher.as_str() {
        "go-net-url" => Reading::Go,
        "java-uri" => Reading::Java,
        _ => Reading::Glibc,
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

/// The first occurrence of `needle` in `text` at or after `from`, ASCII
/// case-insensitively (hosts come back lower-cased from some parsers).
fn find_ignoring_case(text: &str, needle: &str, from: usize) -> Option<usize> {
    let (t, n) = (text.as_bytes(), needle.as_bytes());
    if n.is_empty() || n.len() > t.len() {
        return None;
    }
    (from..=t.len() - n.len()).find(|&i| {
        text.is_char_boundary(i)
            && text.is_char_boundary(i + n.len())
            && t.get(i..i + n.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(n))
    })
}

/// Where the scheme's `:` ends, when `text` starts with a scheme (RFC 3986
/// section 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
fn scheme_end(text: &str) -> Option<usize> {
    let colon = text.find(':')?;
    let scheme = text.get(..colon)?;
    let mut chars = scheme.chars();
    (chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(colon + 1)
}

/// `input` with one occurrence of `allow_host` made `{allow}` and one of
/// `target_host` made `{target}`, both after the scheme and not
/// overlapping (the longer host placed first, the shorter outside it).
/// `None` when the target host is not in the text as written.
fn substitute(input: &str, allow_host: &str, target_host: &str) -> Option<String> {
    let start = scheme_end(input).unwrap_or(0);
    // The longer host is placed first, so that a host inside the other
    // (`h` in `hh`) is found outside it.
    let (first, second) = if allow_host.len() >= target_host.len() {
        ((allow_host, ALLOW_SLOT), (target_host, TARGET_SLOT))
    } else {
        ((target_host, TARGET_SLOT), (allow_host, ALLOW_SLOT))
    };
    let mut slots: Vec<(usize, usize, &str)> = Vec::with_capacity(2);
    let first_at = find_ignoring_case(input, first.0, start);
    if let Some(at) = first_at {
        slots.push((at, at + first.0.len(), first.1));
    }
    let mut from = start;
    while let Some(at) = find_ignoring_case(input, second.0, from) {
        let end = at + second.0.len();
        let overlaps = first_at.is_some_and(|f| at < f + first.0.len() && f < end);
        if !overlaps {
            slots.push((at, end, second.1));
            break;
        }
        from = at + 1;
    }
    if !slots.iter().any(|&(_, _, slot)| slot == TARGET_SLOT) {
        return None;
    }
    slots.sort_by_key(|&(at, _, _)| at);
    let mut out = String::with_capacity(input.len() + 16);
    let mut last = 0;
    for (at, end, slot) in slots {
        out.push_str(input.get(last..at)?);
        out.push_str(slot);
        last = end;
    }
    out.push_str(input.get(last..)?);
    Some(out)
}

/// Bypass templates from cases: for every pair of accepting parsers that
/// see different hosts, the input with one host made `{allow}` and the
/// other `{target}` (both ways round), and each of those with its scheme
/// made `http` and `https` too (fetchers send those).
pub fn templates<'c, 'i: 'c>(cases: impl IntoIterator<Item = &'c Case<'i>>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for case in cases {
        if case.base.is_some()
            || case.input.contains(ALLOW_SLOT)
            || case.input.contains(TARGET_SLOT)
        {
            continue;
        }
        // Pairs of differing hosts: two parsers', and split-host's against
        // each parser's (the string check reads a host too).
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for confusion in &case.host_confusions {
            if let [Some(a), Some(b)] = &confusion.hosts {
                pairs.push((a, b));
            }
        }
        let readings: BTreeSet<&str> = [StringCheck::SplitHost, StringCheck::Prefix]
            .iter()
            .filter_map(|check| check.reading(case.input))
            .collect();
        for reading in readings {
            for (_, outcome) in &case.outcomes {
                if let Some(host) = outcome
                    .components
                    .get(Component::Host)
                    .filter(|_| outcome.accepted())
                {
                    pairs.push((reading, host));
                }
            }
        }
        for (a, b) in pairs {
            if a.is_empty() || b.is_empty() || a.eq_ignore_ascii_case(b) {
                continue;
            }
            for (allow_host, target_host) in [(a, b), (b, a)] {
                if let Some(template) = substitute(case.input, allow_host, target_host) {
                    for variant in with_fetched_schemes(&template) {
                        out.insert(variant);
                    }
                }
            }
        }
    }
    out
}

/// `template`, and with a scheme: the same with `http` and `https`.
fn with_fetched_schemes(template: &str) -> Vec<String> {
    let mut out = vec![template.to_owned()];
    if let Some(end) = scheme_end(template)
        && let Some(rest) = template.get(end..)
    {
        for scheme in ["http:", "https:"] {
            let variant = format!("{scheme}{rest}");
            if variant != template {
                out.push(variant);
            }
        }
    }
    out
}

/// The template every search tries besides those from seeds: the target
/// alone, as a fetcher would be handed it.
pub const PLAIN_TEMPLATE: &str = "http://{target}/";

/// `template` with its slots filled.
pub fn fill(template: &str, allow: &str, target: &str) -> String {
    template
        .replace(ALLOW_SLOT, allow)
        .replace(TARGET_SLOT, target)
}

/// Every input to check for `goal`: each template filled with the allowed
/// host and each target, without repeats, in order.
pub fn candidates<'t>(templates: impl IntoIterator<Item = &'t str>, goal: &Goal) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let targets = goal.targets();
    for template in templates {
        for target in &targets {
            let input = fill(template, goal.allow(), target);
            if seen.insert(input.clone()) {
                out.push(input);
            }
        }
    }
    out
}

/// The validator-by-fetcher matrix: for each pair, the bypasses found,
/// the shortest kept per shape and place.
///
/// In JSON: `{"allow", "target" (null for a denylist), "deny" (the
/// places, empty for an allowlist), "validators", "fetchers", "checked",
/// "pairs_bypassed", "confirmed", "cells" (the shortest bypass per pair,
/// validators then fetchers in order), "bypasses" (every one kept)}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// What the bypasses achieve.
    pub goal: Goal,
    /// The validators, in the order asked.
    pub validators: Vec<String>,
    /// The fetchers, in the order asked.
    pub fetchers: Vec<String>,
    /// How many inputs were checked.
    pub checked: usize,
    found: BTreeMap<(String, String, String, Place), Bypass>,
}

impl Serialize for Matrix {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Matrix", 10)?;
        st.serialize_field("allow", self.goal.allow())?;
        match &self.goal {
            Goal::Reach { target, .. } => {
                st.serialize_field("target", &Some(target))?;
                st.serialize_field("deny", &[] as &[Place])?;
            }
            Goal::Deny { places, .. } => {
                st.serialize_field("target", &None::<&str>)?;
                st.serialize_field("deny", places)?;
            }
        }
        st.serialize_field("validators", &self.validators)?;
        st.serialize_field("fetchers", &self.fetchers)?;
        st.serialize_field("checked", &self.checked)?;
        st.serialize_field("pairs_bypassed", &self.cells_found())?;
        st.serialize_field("confirmed", &self.cells_confirmed())?;
        st.serialize_field("cells", &self.cells())?;
        st.serialize_field("bypasses", &self.found.values().collect::<Vec<_>>())?;
        st.end()
    }
}

impl Matrix {
    /// An empty matrix for these validators and fetchers.
    pub fn new(validators: &[Validator], fetchers: &[OracleId], goal: &Goal) -> Matrix {
        Matrix {
            goal: goal.clone(),
            validators: validators.iter().map(ToString::to_string).collect(),
            fetchers: fetchers.iter().map(|f| f.as_str().to_owned()).collect(),
            checked: 0,
            found: BTreeMap::new(),
        }
    }

    /// The shortest bypass of each pair that has one, validators then
    /// fetchers in order.
    pub fn cells(&self) -> Vec<&Bypass> {
        self.validators
            .iter()
            .flat_map(|v| self.fetchers.iter().filter_map(move |f| self.cell(v, f)))
            .collect()
    }

    /// How many pairs have a bypass a client confirmed.
    pub fn cells_confirmed(&self) -> usize {
        self.found
            .values()
            .filter(|b| b.confirmed_by.is_some())
            .map(|b| (&b.validator, &b.fetcher))
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// Every bypass kept, to mark the confirmed ones.
    pub fn all_mut(&mut self) -> impl Iterator<Item = &mut Bypass> {
        self.found.values_mut()
    }

    /// Keeps `bypass` if it is the shortest of its pair, shape and place.
    pub fn add(&mut self, bypass: Bypass) {
        let key = (
            bypass.validator.clone(),
            bypass.fetcher.clone(),
            bypass.shape.clone(),
            bypass.fetcher_place,
        );
        match self.found.get(&key) {
            Some(kept) if kept.order_key() <= bypass.order_key() => {}
            _ => {
                self.found.insert(key, bypass);
            }
        }
    }

    /// Every bypass kept (the shortest per pair, shape and place), by pair.
    pub fn all(&self) -> impl Iterator<Item = &Bypass> {
        self.found.values()
    }

    /// The bypass a pair's cell shows: a confirmed one first, then the
    /// shortest.
    pub fn cell(&self, validator: &str, fetcher: &str) -> Option<&Bypass> {
        self.found
            .values()
            .filter(|b| b.validator == validator && b.fetcher == fetcher)
            .min_by_key(|b| (b.confirmed_by.is_none(), b.order_key()))
    }

    /// How many pairs have a bypass.
    pub fn cells_found(&self) -> usize {
        self.found
            .keys()
            .map(|(v, f, _, _)| (v, f))
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// Is nothing found?
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }
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
    let mut out: BTreeSet<String> = BTreeSet::new();
    let step = harness.batch_size().max(1);
    for chunk in seeds.chunks(step) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let cases = harness.check_batch(&refs);
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

/// The saved corpus's signature examples and curated inputs, as this
/// build was made with them (`corpus/signatures.txt`, `corpus/curated.txt`):
/// the seeds every search starts from, wherever uridiff runs. Resolution
/// examples (with a base) are left out: a bypass is one URL.
pub fn built_in_seeds() -> Vec<String> {
    let mut seeds: BTreeSet<String> = BTreeSet::new();
    if let Ok(set) = crate::corpus::parse_signatures(include_str!("../../corpus/signatures.txt")) {
        seeds.extend(
            set.into_values()
                .filter(|entry| entry.base.is_none())
                .map(|entry| entry.input),
        );
    }
    if let Ok(curated) = crate::corpus::parse_curated(include_str!("../../corpus/curated.txt")) {
        seeds.extend(curated.into_iter().map(|(_, input)| input));
    }
    seeds.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_places_both_slots_after_the_scheme() {
        assert_eq!(
            substitute("http://a\\b@c/d", "a", "c").as_deref(),
            Some("http://{allow}\\b@{target}/d")
        );
        assert_eq!(
            substitute("h://h@hh/", "hh", "h").as_deref(),
            Some("h://{target}@{allow}/"),
            "the shorter host found outside the longer one"
        );
        assert_eq!(
            substitute("http://X.example/", "x.example", "y").as_deref(),
            None,
            "the target host must be in the text"
        );
        assert_eq!(
            substitute("http://0x7f.1/", "127.0.0.1", "0x7f.1").as_deref(),
            Some("http://{target}/")
        );
    }

    #[test]
    fn templates_come_in_both_directions_and_with_fetched_schemes() {
        let case = crate::check("http://a\\b@c/d");
        let found = templates([&case]);
        assert!(found.contains("http://{allow}\\b@{target}/d"), "{found:?}");
        assert!(found.contains("http://{target}\\b@{allow}/d"), "{found:?}");
        assert!(found.contains("https://{allow}\\b@{target}/d"), "{found:?}");
    }

    #[test]
    fn fill_and_candidates_skip_repeats() {
        let goal = Goal::Reach {
            allow: "a.example".into(),
            target: "b.example".into(),
        };
        assert_eq!(
            candidates(
                ["http://{allow}@{target}/", "http://{allow}@{target}/"],
                &goal
            ),
            vec!["http://a.example@b.example/".to_owned()]
        );
        let deny = Goal::Deny {
            allow: "a.example".into(),
            places: vec![Place::Loopback],
        };
        assert_eq!(
            candidates([PLAIN_TEMPLATE], &deny).len(),
            INTERNAL_SPELLINGS.len()
        );
    }

    #[test]
    fn matrix_keeps_the_shortest_input_per_cell() {
        let goal = Goal::Reach {
            allow: "a".into(),
            target: "b".into(),
        };
        let mut m = Matrix::new(
            &[Validator::Parser(OracleId::Url)],
            &[OracleId::Http],
            &goal,
        );
        let b = |input: &str| Bypass {
            validator: "url".into(),
            fetcher: "http".into(),
            input: input.into(),
            validator_host: Some("a".into()),
            fetcher_host: "b".into(),
            shape: "backslash".into(),
            fetcher_place: Place::Name,
            fetcher_address: None,
            confirmed_by: None,
        };
        m.add(b("http://long-one/"));
        m.add(b("http://short/"));
        m.add(b("http://longest-of-all/"));
        assert_eq!(
            m.cell("url", "http").map(|b| b.input.as_str()),
            Some("http://short/")
        );
        assert_eq!(m.cells_found(), 1);
        assert!(m.cell("http", "url").is_none());
    }
}
