//! uridiff: a differential testing harness for URI parsers.
//!
//! # Module map
//!
//! The data flow, in order: input (and base) → [`oracle`] registry → one
//! [`oracle::Outcome`] per parser → the defect checks of [`triage`](mod@triage)
//! (self-checks, round trips, peers) → [`diff`] against rfc2396 → [`triage`](mod@triage) (classes with a
//! basis and a severity) → host confusions → a [`Case`], built by a
//! [`Harness`] (the command line, the saved corpus, `minimize`: external
//! oracles, a base, notes for a reader), or by [`check()`](fn@check) /
//! [`check_with_base`], the fuzz targets' one line through the same pipeline.
//!
//! - [`rfc2396`]: the strict RFC 2396 parser ([`rfc2396::parse`]) and
//!   Section 5.2 reference resolution ([`rfc2396::resolve`]), the workspace
//!   crate `crates/rfc2396` re-exported.
//! - [`components`]: the oracle-neutral model of a parsed reference.
//! - [`oracle`]: the registry (one row per oracle), each oracle's adapter,
//!   and [`oracle::external`], the pipe protocol for parsers in other
//!   languages.
//! - [`diff`]: field-by-field comparison of two outcomes.
//! - [`triage`]: the class catalogue ([`triage::Class`], one row each), the
//!   spec rules, the defect checks, IP literals.
//! - [`known`]: parsers' documented departures from their own standard
//!   (`testdata/known-deviations.tsv`), to tell a known defect from a new one.
//! - [`harness`]: [`Harness`], its builder, [`Query`], and the
//!   [`ExternalOracles`] it drives; [`check()`](fn@check) and
//!   [`check_with_base`] run the same pipeline (self-checks, triage, peers,
//!   host confusions) on the registry alone.
//! - [`case`]: [`Case`], its host confusions and its JSON shape.
//! - [`signature`]: [`Signature`], a finding's identity.
//! - [`report`]: the report model by signature, rendered as Markdown, JSON
//!   Lines and HTML.
//! - [`corpus`]: the saved corpus: coverage inputs, the signature set and
//!   the regression set's recorded expectations.
//! - [`minimize`]: delta debugging that keeps an input's signatures.
//! - [`reproduce`]: per root cause of a case's defects, a test in the
//!   parser's own API and a web-platform-tests entry, for an upstream report.
//! - [`fuzzing`]: the fuzz targets' invariants, the `arbitrary` URI model and
//!   input encodings.
//! - [`fetch`]: trap servers on loopback addresses and real HTTP clients
//!   that can only reach them, for confirming a bypass.
//! - [`text`]: showing inputs to people (hidden characters escaped, shell
//!   quoting, reproduce commands).
//! - [`input`]: reading lines and files as inputs, with a byte limit.
//!
//! # Glossary
//!
//! - *absent* vs *empty*: a component that does not occur (`None`) and one
//!   that occurs with no characters (`Some("")`), such as the userinfo of
//!   `ftp://@host/` (empty) and of `ftp://host/` (absent).
//! - *reg_name*: an authority that is not a `server` (RFC 2396 section 3.2);
//!   it has no host, userinfo or port.
#![forbid(unsafe_code)]

pub mod bypass;
pub mod case;
mod check;
pub mod components;
pub mod corpus;
mod datafile;
pub mod diff;
pub mod fetch;
pub mod fuzzing;
pub mod harness;
pub mod input;
pub mod known;
pub mod minimize;
pub mod oracle;
pub mod reference;
pub mod report;
pub mod reproduce;
pub mod rootcause;
pub use rfc2396;
pub mod signature;
pub mod text;
pub mod triage;

pub use case::{Case, HostConfusion, INLINE_OUTCOMES, OutcomeList};
pub use check::{check, check_with_base};
pub use harness::{ExternalOracles, Harness, Query};
pub use signature::Signature;

// The nouns, at the root.
pub use components::{Component, ComponentSet, Components};
pub use oracle::{Note, OracleId, Outcome, Verdict};
pub use triage::{Basis, Class, Finding, Severity};
