//! One module per subcommand, plus the helpers they share: `error` (how a
//! command ends), `io` (inputs and atomically written files), `text` (the
//! aligned views) and `externals` (external oracles).

pub(crate) mod bypass;
pub(crate) mod check;
pub(crate) mod corpus;
pub(crate) mod error;
pub(crate) mod externals;
pub(crate) mod fetch;
pub(crate) mod follow;
pub(crate) mod io;
pub(crate) mod minimize;
pub(crate) mod oracles;
pub(crate) mod parse;
pub(crate) mod report;
pub(crate) mod reproduce;
pub(crate) mod resolve;
pub(crate) mod targets;
pub(crate) mod text;
