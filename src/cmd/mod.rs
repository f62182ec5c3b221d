//! One module per subcommand, plus the helpers they share: `error` (how a
//! command ends), `io` (inputs and atomically written files), `text` (the
//! aligned views) and `externals` (external oracles).

pub mod check;
pub mod corpus;
pub mod error;
pub mod externals;
pub mod io;
pub mod minimize;
pub mod oracles;
pub mod parse;
pub mod report;
pub mod resolve;
pub mod targets;
pub mod text;
