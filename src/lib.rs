//! uridiff: a differential testing harness for URI parsers.
//!
//! # Module map
//!
//! - [`rfc2396`]: the strict RFC 2396 parser ([`rfc2396::parse`]) and
//!   Section 5.2 reference resolution ([`rfc2396::resolve`]).
//!
//! # Glossary
//!
//! - *absent* vs *empty*: a component that does not occur (`None`) and one
//!   that occurs with no characters (`Some("")`), such as the userinfo of
//!   `ftp://@host/` (empty) and of `ftp://host/` (absent).
//! - *reg_name*: an authority that is not a `server` (RFC 2396 section 3.2);
//!   it has no host, userinfo or port.
#![forbid(unsafe_code)]

pub mod check;
pub mod components;
pub mod corpus;
pub mod diff;
pub mod fuzzing;
pub mod minimize;
pub mod oracle;
pub mod report;
pub use rfc2396;
pub mod text;
pub mod triage;

pub use check::{Case, check, check_with, check_with_base, check_with_base_and};
