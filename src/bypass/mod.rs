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
mod departure;
pub mod known;
mod matrix;
mod place;
mod search;
mod seen;
mod templates;

use std::fmt;

use serde::Serialize;

use crate::oracle::OracleId;

pub use self::checks::StringCheck;
pub use self::departure::{
    Departure, DepartureKind, Goes, Prediction, departure, parser_of, worth_sending,
};
pub use self::matrix::{Confirmation, Mark, Matrix, spelling};
pub use self::place::{Place, Read, Reading, inet_aton, place_of, read};
pub use self::search::{
    bypasses, check_candidates, default_validators, parsers_in, passed, report_matrix,
    report_matrix_with, search, search_with, seed_templates, seed_templates_and,
};
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
    match fetcher.descriptor().resolver {
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
