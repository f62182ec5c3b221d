//! A strict parser for RFC 2396 URI references, and Section 5.2 resolution.
//!
//! [`parse`](fn@parse) accepts exactly the `URI-reference` language of RFC 2396
//! Appendix A and reports raw components: nothing is decoded, case folded or
//! normalised, and an absent component (`None`) is kept apart from an empty
//! one (`Some("")`). It allocates nothing, never panics, and runs in linear
//! time. [`resolve`](fn@resolve) implements Section 5.2 so that every example of
//! Appendix C holds.
//!
//! ```
//! let r = rfc2396::parse("http://user@example.com:8080/a;p?q#f").unwrap();
//! assert_eq!(r.host(), Some("example.com"));
//! assert_eq!(r.port(), Some("8080"));
//! assert_eq!(rfc2396::resolve("http://a/b/c/d;p?q", "../g").unwrap(), "http://a/b/g");
//! ```
//!
//! The crate has no dependencies and no `unsafe` code.
//!
//! # Module map
//!
//! - [`chars`]: the character classes of Appendix A, one table per rule,
//!   each built from smaller sets the way the grammar builds the rule.
//! - `parse`: one function per production of Appendix A; [`parse`](fn@parse),
//!   [`UriRef`] and the kinds it reports ([`RefKind`], [`AuthorityKind`],
//!   [`HostKind`], [`Component`]).
//! - `error`: [`ParseError`], with its [`ErrorKind`] and [`Production`], in
//!   the RFC's own terms.
//! - `resolve`: Section 5.2, [`resolve`](fn@resolve) and [`remove_dot_segments`].
//! - `scan` and `host_class`: speed code, kept apart from the productions.
//!   `scan` reads the input eight bytes at a time (runs of a character
//!   class, the `http`/`https` scheme); `host_class` reads a `host` as
//!   `hostname` or `IPv4address` the same way. Each says why it exists, and
//!   its tests check it against the plain reading of the grammar.
//!
//! # Grammar decisions
//!
//! Appendix A is the law for [`parse`](fn@parse). Consequences worth knowing:
//!
//! - `http://[::1]/` is invalid: IPv6 literals came later (RFC 2732), and
//!   `[` and `]` are `unwise` (Section 2.4.3).
//! - An empty port is valid: `http://h:/` has port `""` (`port = *digit`).
//!   Ports and IPv4 groups have no numeric bound: `999.1.1.1` is an
//!   `IPv4address`, and `http://h:99999/` has port `99999`.
//! - `ftp://@h/` has userinfo `""`; `ftp://h/` has none.
//! - An authority that is not a `server` but matches `reg_name`
//!   (`a_b.example`, `1.2.3.4.5`, `127.1`, `a@b@c`, `h:+80`) is a
//!   `reg_name` with no host, userinfo or port (Section 3.2).
//! - An empty authority (`http:///p`, `//`) is a valid, empty `server`.
//! - `http:` (an empty `opaque_part`) and a relative reference that is only
//!   a query (`?y`, since `rel_segment` needs a character) are invalid.
//! - `?` inside an `opaque_part` belongs to the path: `mailto:a?b` has no
//!   query.
//!
//! For [`resolve`](fn@resolve), the Appendix C table is the law, including `?y`, `#s`,
//! the empty reference and `../../../g`; its documentation lists the choices
//! Section 5.2 leaves open.
#![forbid(unsafe_code)]

pub mod chars;
mod error;
mod host_class;
mod parse;
mod resolve;
mod scan;

pub use error::{ErrorKind, ParseError, Production};
pub use parse::{AuthorityKind, Component, HostKind, RefKind, UriRef, parse};
pub use resolve::{ResolveError, remove_dot_segments, resolve, resolve_parsed};
