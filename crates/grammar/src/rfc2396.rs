//! RFC 2396 Appendix A as an executable reference.
//!
//! The grammar is [`GRAMMAR`], copied from the RFC's Appendix A
//! ([`APPENDIX_A`]) and read in the RFC's own BNF notation. [`Rfc2396::parse`]
//! gives every reading of a `URI-reference`, its [`Components`], and:
//!
//! - **settled by the text**: section 4.3's greedy rule, [`AUTHORITY_WINS`]:
//!   a `//` that can start a `net_path` is an authority, never the start of
//!   an `abs_path` whose first segment is empty (`//a/b`, `http:///p`);
//! - **not settled**: `authority = server | reg_name` ([`SERVER_OR_REG_NAME`]).
//!   Every non-empty `server` is also a `reg_name`, and no sentence of the
//!   RFC prefers one: the outcome keeps both readings and is ambiguous. A
//!   strict parser that reads `server` wherever it can (as the workspace's
//!   `rfc2396` crate does) makes a choice the grammar does not.

use std::ops::Range;
use std::sync::OnceLock;

use crate::disambiguation::{Ambiguity, Beaten, Outcome, Settlement};
use crate::earley::ParseError;
use crate::forest::{Parser, Reading};
use crate::syntax::{Grammar, GrammarError};

/// The grammar text: RFC 2396 Appendix A in the RFC's BNF notation.
pub const GRAMMAR: &str = include_str!("../grammars/rfc2396.bnf");

/// RFC 2396 Appendix A, verbatim, as the grammar was copied from.
pub const APPENDIX_A: &str = include_str!("../grammars/rfc2396-appendix-a.txt");

/// The start rule.
pub const START: &str = "URI-reference";

/// The rules whose spans the readings report.
pub const TRACKED: &[&str] = &[
    "absoluteURI",
    "relativeURI",
    "scheme",
    "opaque_part",
    "net_path",
    "authority",
    "server",
    "reg_name",
    "userinfo",
    "host",
    "hostname",
    "IPv4address",
    "port",
    "abs_path",
    "rel_path",
    "query",
    "fragment",
];

/// RFC 2396 section 4.3: after `//`, the authority wins over a path.
pub static AUTHORITY_WINS: Settlement = Settlement {
    id: "rfc2396-4.3-authority-wins",
    rfc: "RFC 2396",
    section: "4.3",
    text: "Although the BNF defines what is allowed in each component, it is \
           ambiguous in terms of differentiating between an authority component \
           and a path component that begins with two slash characters.  The \
           greedy algorithm is used for disambiguation: the left-most matching \
           rule soaks up as much of the URI reference string as it is capable \
           of matching.  In other words, the authority component wins.",
};

/// RFC 2396 section 3.2: `authority = server | reg_name`, not settled.
pub static SERVER_OR_REG_NAME: Ambiguity = Ambiguity {
    id: "rfc2396-3.2-server-or-reg_name",
    rfc: "RFC 2396",
    section: "3.2",
    note: "`authority = server | reg_name`: every non-empty `server` is also a \
           `reg_name` (reg_name's characters include all of server's), so the \
           readings differ in whether userinfo, host and port exist. No sentence \
           prefers one: section 3.2.1 leaves a registry-based authority's \
           structure \"specific to the URI scheme\", section 3.2.2 gives the server \
           syntax to \"URL schemes that involve the direct use of an IP-based \
           protocol to a specified server on the Internet\", and section 4.3's \
           greedy rule decides between authority and path only. The scheme \
           decides; the generic grammar cannot.",
};

/// Which alternative of `URI-reference` the reading took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `absoluteURI` with a `hier_part`.
    AbsoluteHierarchical,
    /// `absoluteURI` with an `opaque_part`.
    AbsoluteOpaque,
    /// `relativeURI` starting with `net_path`.
    NetPath,
    /// `relativeURI` starting with `abs_path`.
    AbsPath,
    /// `relativeURI` starting with `rel_path`.
    RelPath,
    /// Neither: the empty reference, or a fragment alone.
    Empty,
}

/// Which alternative of `authority` the reading took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuthorityKind {
    /// `server` (possibly empty).
    Server,
    /// `reg_name`.
    RegName,
}

/// Which alternative of `host` the reading took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `hostname`.
    Hostname,
    /// `IPv4address`.
    Ipv4,
}

/// The components of one reading, as byte ranges of the input. `None` is
/// absent; an empty range is present and empty (`ftp://@h/` has an empty
/// userinfo, `ftp://h/` none).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Components {
    /// The alternative of `URI-reference`.
    pub form: Form,
    /// `scheme`, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// `authority`, without the `//`.
    pub authority: Option<Range<usize>>,
    /// `server` or `reg_name`, with the authority.
    pub authority_kind: Option<AuthorityKind>,
    /// `userinfo`, without its `@` (server only).
    pub userinfo: Option<Range<usize>>,
    /// `host` (server only).
    pub host: Option<Range<usize>>,
    /// `hostname` or `IPv4address`, with the host.
    pub host_kind: Option<HostKind>,
    /// `port`, without its `:` (server only).
    pub port: Option<Range<usize>>,
    /// The path: `abs_path`, `rel_path` or `opaque_part`; an empty range
    /// (after the authority, or at 0) when the reference has none.
    pub path: Range<usize>,
    /// `query`, without its `?`.
    pub query: Option<Range<usize>>,
    /// `fragment`, without its `#`.
    pub fragment: Option<Range<usize>>,
}

impl Components {
    /// The components of a reading of [`START`].
    pub fn of(reading: &Reading<'_>) -> Components {
        let authority = reading.get("authority");
        let same = |rule: &str, span: &Option<Range<usize>>| {
            span.as_ref()
                .is_some_and(|s| reading.all(rule).any(|r| r == *s))
        };
        let authority_kind = authority.as_ref().map(|_| {
            if same("server", &authority) {
                AuthorityKind::Server
            } else {
                AuthorityKind::RegName
            }
        });
        let host = reading.get("host");
        let host_kind = host.as_ref().map(|_| {
            if same("IPv4address", &host) {
                HostKind::Ipv4
            } else {
                HostKind::Hostname
            }
        });
        let scheme = reading.get("scheme");
        let form = if scheme.is_some() {
            if reading.has("opaque_part") {
                Form::AbsoluteOpaque
            } else {
                Form::AbsoluteHierarchical
            }
        } else if reading.has("net_path") {
            Form::NetPath
        } else if reading.has("rel_path") {
            Form::RelPath
        } else if reading.has("abs_path") {
            Form::AbsPath
        } else {
            Form::Empty
        };
        // `rel_path = rel_segment [ abs_path ]` holds an abs_path: the path
        // is the outermost of the three.
        let path = reading
            .get("opaque_part")
            .or_else(|| reading.get("rel_path"))
            .or_else(|| reading.get("abs_path"))
            .unwrap_or_else(|| {
                let at = authority.as_ref().map_or(0, |a| a.end);
                at..at
            });
        Components {
            form,
            scheme,
            authority,
            authority_kind,
            userinfo: reading.get("userinfo"),
            host,
            host_kind,
            port: reading.get("port"),
            path,
            query: reading.get("query"),
            fragment: reading.get("fragment"),
        }
    }
}

/// Section 4.3: a reading with an `abs_path` where another reading has a
/// `net_path` (both start at the same `//`) loses.
fn path_after_double_slash(r: &Reading<'_>, all: &[Reading<'_>]) -> bool {
    r.all("abs_path").any(|p| {
        all.iter()
            .any(|o| o.all("net_path").any(|n| n.start == p.start))
    })
}

/// The RFC 2396 grammar, compiled.
#[derive(Clone, Debug)]
pub struct Rfc2396 {
    parser: Parser,
}

impl Rfc2396 {
    /// Reads and compiles [`GRAMMAR`].
    pub fn load() -> Result<Rfc2396, GrammarError> {
        Ok(Rfc2396 {
            parser: Grammar::bnf(GRAMMAR)?.parser(START, TRACKED)?,
        })
    }

    /// The grammar compiled once for the process.
    pub fn get() -> Result<&'static Rfc2396, &'static GrammarError> {
        static ONCE: OnceLock<Result<Rfc2396, GrammarError>> = OnceLock::new();
        ONCE.get_or_init(Rfc2396::load).as_ref()
    }

    /// The compiled grammar, for other start rules' callers and limits.
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// Parses `input` as a `URI-reference`: every reading, settled by
    /// section 4.3, the server/reg_name ambiguity kept.
    pub fn parse(&self, input: impl AsRef<[u8]>) -> Result<Outcome<'_, Components>, ParseError> {
        let readings = self.parser.readings(input.as_ref())?;
        let settlements: [(&'static Settlement, Beaten); 1] =
            [(&AUTHORITY_WINS, path_after_double_slash)];
        Ok(Outcome::build(
            readings,
            &settlements,
            Components::of,
            |cs| {
                let kinds: Vec<_> = cs.iter().map(|c| c.authority_kind).collect();
                let server_and_reg_name = kinds.contains(&Some(AuthorityKind::Server))
                    && kinds.contains(&Some(AuthorityKind::RegName));
                server_and_reg_name.then_some(&SERVER_OR_REG_NAME)
            },
        ))
    }
}
