//! The RFC grammars (crate `uridiff-grammar`) as reference oracles:
//! `rfc3986-grammar` and `rfc2396-grammar`. (Being written.)
