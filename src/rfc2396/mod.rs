//! A strict parser for RFC 2396 URI references, and Section 5.2 resolution.
//!
//! [`parse`] accepts exactly the `URI-reference` language of RFC 2396
//! Appendix A and reports raw components: nothing is decoded, case folded or
//! normalised, and an absent component (`None`) is kept apart from an empty
//! one (`Some("")`). It allocates nothing, never panics, and runs in linear
//! time. [`resolve`] implements Section 5.2 so that every example of
//! Appendix C holds.
//!
//! This module imports nothing else from the crate, so it could stand alone.

pub mod chars;
mod error;
mod parse;
mod resolve;

pub use error::{ErrorKind, ParseError, Rule};
pub use parse::{AuthorityKind, Component, HostKind, RefKind, UriRef, parse};
pub use resolve::{ResolveError, remove_dot_segments, resolve, resolve_parsed};
