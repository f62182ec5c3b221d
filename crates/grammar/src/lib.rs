//! The RFC grammars as executable references.
//!
//! uridiff compares URI parsers; to say which one breaks RFC 3986 or
//! RFC 2396 it needs a reference that is none of them. This crate is that
//! reference: the RFCs' own grammars, kept as text
//! ([`rfc3986::GRAMMAR`], [`rfc2396::GRAMMAR`], copied from their Appendix A),
//! run by a small generic engine.
//!
//! ```
//! use grammar::rfc3986::Rfc3986;
//!
//! let rfc = Rfc3986::get().unwrap();
//! let outcome = rfc.parse("foo://example.com:8042/over/there?name=ferret#nose").unwrap();
//! let c = outcome.unique().unwrap();
//! assert_eq!(c.host, Some(6..17));
//! assert_eq!(c.port, Some(18..22));
//! assert_eq!(c.query, Some(34..45));
//! ```
//!
//! # The engine
//!
//! - [`Grammar`] reads grammar text in RFC 5234 ABNF ([`Grammar::abnf`]) or
//!   in RFC 2396's BNF ([`Grammar::bnf`]); an undefined rule is an error at
//!   load time, and every error names its line and what was expected.
//! - [`Grammar::parser`] compiles it from a start rule into a [`Parser`],
//!   naming the rules whose spans matter ("tracked" rules).
//! - [`Parser::parse`] runs an Earley parser over the input's bytes and
//!   returns a [`Forest`] (the shared chart of every derivation), or a
//!   [`ParseError`] with the first offending byte and what was expected
//!   there. Work and memory are bounded by [`Limits`].
//! - [`Forest::readings`] lists every [`Reading`]: the tracked rules' spans
//!   of one derivation. More than one reading is an ambiguity of the grammar.
//!
//! # Limits
//!
//! Each parse runs under [`Limits`]; reaching one is an error
//! ([`ParseError::TooLong`], [`ParseError::TooManyItems`],
//! [`ParseError::TooManyReadings`], [`ParseError::TooDeep`]), never a partial
//! answer. The defaults: inputs up to 16 KiB, at most 1 000 000 chart items
//! (about 30 MB), 64 readings per node of the forest, 512 levels of nesting.
//! The RFC grammars make 10 to 35 items per input byte, so the item limit is
//! far above what a 16 KiB input needs; a grammar with repetitions
//! `m*n` compiles each bound into rules, so bounds above [`MAX_REPEAT`] are
//! refused when the grammar is read.
//!
//! # The RFCs
//!
//! [`rfc3986`] and [`rfc2396`] load their grammar, build components
//! (absent kept apart from empty) from each reading, apply the
//! disambiguation their RFC states in prose, citing the sentence, and report
//! what the text leaves ambiguous instead of picking a reading.
//! [`rfc3986::resolve`] transcribes RFC 3986 section 5.2 on components from
//! the grammar.
//!
//! # Module map
//!
//! - `syntax`: the two notations, read into one model ([`Grammar`],
//!   [`GrammarError`], [`Notation`]).
//! - `cfg`: compiling a grammar to plain productions (repetitions as left
//!   recursion, single-character rules folded into byte sets).
//! - `earley`: the recogniser and its chart ([`Limits`], [`ParseError`]).
//! - `forest`: [`Parser`], [`Forest`], [`Reading`], [`Node`].
//! - `disambiguation`: [`Outcome`], the readings an RFC's text leaves, with
//!   the [`Settlement`]s (cited sentences) that removed the others and the
//!   known [`Ambiguity`] that remains.
//! - `fxhash`: a small integer hasher for the chart's and walk's tables.
//! - [`rfc3986`], [`rfc2396`]: the two grammars, their components and
//!   disambiguation; [`rfc3986::resolve`].
//! - [`ByteSet`]: the terminals.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod byteset;
mod cfg;
mod disambiguation;
mod earley;
mod forest;
mod fxhash;
pub mod rfc2396;
pub mod rfc3986;
mod syntax;

pub use byteset::ByteSet;
pub use disambiguation::{Ambiguity, Outcome, Settlement};
pub use earley::{Limits, ParseError};
pub use forest::{Forest, Node, Parser, Reading};
pub use syntax::{Grammar, GrammarError, MAX_REPEAT, Notation};
