//! What the fuzz targets check, in the library so that `cargo test` replays
//! the saved corpus through exactly the same code.
//!
//! - [`parse_invariants`]: the strict parser never panics; an accepted input
//!   recomposes to itself with ordered in-bounds spans and agrees with the
//!   Appendix B split; a rejection points inside the input
//!   ([`strict_parser_invariants`], the `parse` target); and
//!   [`rfc2396_grammar_agrees`] (the `rfc2396-grammar` target): the RFC 2396
//!   grammar, run as text, accepts the same inputs with the strict parser's
//!   reading among its own.
//! - [`resolve_invariants`]: resolution of a valid reference against a valid
//!   absolute base yields an absolute URI, or a documented error.
//! - [`UriModel`]: an `arbitrary`-derived model of a URI with controlled
//!   mutations, rendered to a string for `check`.
//! - [`render_structured`], [`decode_resolve_pair`], [`encode_resolve_pair`],
//!   [`render_slots`]: corpus files to inputs and back.
//! - [`corpus_entry`]: a ready-to-paste saved-corpus entry for a case.
//! - [`campaign_check`]: what the differential targets check on every
//!   input: `check()` without the RFC grammars and the round trips, the
//!   full check where that would be a finding; [`external_signatures`]: what a follower of a
//!   campaign (`uridiff corpus follow`) holds an external oracle's answers to.
//! - [`FuzzTarget`]: the targets, and what their corpus files hold.

mod campaign;
mod encoding;
mod invariants;
mod model;
mod targets;

pub use campaign::{campaign_check, campaign_check_with_base, external_signatures};
pub use encoding::{
    ALLOW_BYTE, TARGET_BYTE, corpus_entry, corpus_entry_with, decode_resolve_pair,
    encode_resolve_pair, new_defects, render_slots, render_structured,
};
pub use invariants::{
    parse_invariants, resolve_invariants, rfc2396_grammar_agrees, strict_parser_invariants,
};
pub use model::{
    AuthorityModel, HostModel, Ipv4NumberForm, Label, Padding, Piece, PortModel, SchemeModel,
    SegmentKind, SegmentModel, Slash, Text, UriModel,
};
pub use targets::{CorpusFormat, FuzzTarget, UnknownTarget};
