//! The class catalogue: one row per class, with everything about it in one
//! place: its stable id, what it means, its basis, its default severity, the
//! spec sections (or documentation) behind it, example inputs that must
//! produce it (`tests/it/triage.rs` checks every one), and, for a class a spec
//! rule explains, the rule's predicate and scope.
//!
//! **The order of the rows is the precedence of the rules**: triage tries
//! them in this order, and an earlier rule's claim is not open to a later
//! one. Specific explanations (a length limit, a dialect's leniency, a
//! refused character) come before general ones (a reg_name authority, a
//! case difference), and the resolution rules that look at how a pair was
//! resolved come last, once every rule about the resolved URI itself has
//! had its say. Rows without a rule (defects found by the self-checks and
//! peers, `unexplained`) may stand anywhere.
//!
//! A scope names the oracles a rule applies to: `Any`, `Oracle(Curl)`,
//! `Standard(Whatwg)`, an external oracle by its shipped adapter's name
//! (`External("java-uri")`), or several of those joined with `|`.
//!
//! The rows live in five files, one per stage of that order, and
//! `catalogue!` below gathers them in the order it names them: a row goes in
//! the file of its stage, where its precedence belongs. Within and across
//! the files the row order is the catalogue order (`Class::ALL`, `RULES`,
//! and the ordering of `Class`).
//!
//! Class ids are public: users' baselines and scripts name them. Add rows;
//! never rename an id.

use std::fmt;

use serde::Serialize;

use super::Severity::{self, High, Low, Medium};
use super::rules::{
    Rule, Scope, Target, authority, characters, curl, go, host, http, java, jetty, lenient, node,
    path, perl, php, port, python, resolution, spring, syntax,
};
use crate::oracle::{OracleId, Standard};

pub use super::basis::{Basis, ExampleOracle};

use Basis::{Defect, Spec, Unexplained as NoBasis};

#[macro_use]
mod refusals;
#[macro_use]
mod references;
#[macro_use]
mod hosts;
#[macro_use]
mod normalization;
#[macro_use]
mod defects;

catalogue! {
    [] refusal_classes reference_classes host_classes normalization_classes defect_classes
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Class {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}
