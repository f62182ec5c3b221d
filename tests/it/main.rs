//! The integration tests, as one binary (one link step for a crate that
//! links libcurl and Ada): a module per area, shared helpers in `util`.
//! Two stay binaries of their own: `tests/allocations.rs` counts
//! allocations process-wide, which tests running beside it would disturb,
//! and `tests/corpus.rs` is the saved-corpus replay whose bless command,
//! `BLESS=1 cargo test --test corpus`, the recorded expectations name.
// A test may be long: it is a scenario read top to bottom (the 100-line
// limit of issue 30 is for library and command code).
#![allow(
    clippy::too_many_lines,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod util;

mod adapter_outcomes;
mod appendix_b;
mod arbiter;
mod bypass;
mod bypass_observe;
mod cli;
mod external;
mod external_cli;
mod fetch;
// Every client, libcurl included: the build with the curl feature runs them.
#[cfg(feature = "curl")]
mod fetch_netns;
mod findings;
mod follow;
mod fuzzing;
mod grammar_reference;
mod hostile;
mod hostile_processes;
mod hostile_reproduce;
mod html_report;
mod known;
mod module_graph;
mod report_targets;
mod reproduce;
mod resolution;
mod review_loop;
mod rootcause;
mod streaming;
mod triage;
