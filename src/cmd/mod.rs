//! One module per subcommand, plus the helpers they share.

pub mod check;
pub mod corpus;
pub mod externals;
pub mod input;
pub mod minimize;
pub mod oracles;
pub mod parse;
pub mod report;
pub mod resolve;
pub mod text;
