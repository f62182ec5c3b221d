//! A finding's [`Basis`], and the oracle a catalogue example names
//! ([`ExampleOracle`]): the small types the class catalogue's rows are
//! written in.

use std::fmt;

use serde::Serialize;

use crate::oracle::OracleId;

/// Why a finding exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// A by-design difference between standards, citing the sections.
    Spec,
    /// A parser breaks its own standard: it accepts what its standard
    /// forbids, drops or invents input, changes its answer when it reparses
    /// its own output, or disagrees with a peer of the same standard. A bug.
    Defect,
    /// No rule explains the finding: it may be either.
    Unexplained,
}

impl Basis {
    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Spec => "spec",
            Basis::Defect => "defect",
            Basis::Unexplained => "unexplained",
        }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The parser a catalogue example names: an oracle of the registry, or an
/// external oracle by the name of its shipped adapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExampleOracle {
    /// An oracle of the registry (which this build may lack).
    Oracle(OracleId),
    /// An external oracle run with the adapter shipped under this name
    /// (`uridiff check --oracle NAME`).
    External(&'static str),
}

/// Who decided a defect found by comparing parsers (a peer disagreement, a
/// departure from a reference): the arbiter's verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    /// Not a comparison between parsers (a self-check, a spec difference):
    /// the standard's text or the class decides, and JSON has no
    /// `decided_by` key.
    #[default]
    NotCompared,
    /// The standard's reference (its oracle id): the blamed parser departs
    /// from it and the other does not.
    Reference(OracleId),
    /// The reference is missing or known to be wrong on this input, and a
    /// strict majority of the standard's independent implementations
    /// that answered sides against the blamed parser: these (the first
    /// [`Voters::MAX`] of them, registry order). JSON `decided_by` is
    /// then the array of their ids.
    Majority(Voters),
    /// Nothing settles which parser departs: the reference is missing or
    /// sides with neither, and no majority does. JSON `decided_by: null`.
    Undecided,
}

/// The implementations whose majority decided a peer disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Voters([Option<OracleId>; Voters::MAX]);

impl Voters {
    /// How many are named.
    pub const MAX: usize = 4;

    /// The first [`Voters::MAX`] of `ids`.
    pub fn new(ids: impl IntoIterator<Item = OracleId>) -> Voters {
        let mut out = [None; Voters::MAX];
        for (slot, id) in out.iter_mut().zip(ids) {
            *slot = Some(id);
        }
        Voters(out)
    }

    /// The ids, in order.
    pub fn iter(&self) -> impl Iterator<Item = OracleId> + '_ {
        self.0.iter().flatten().copied()
    }
}

/// `decided_by` as JSON writes it: an oracle id (the reference), an array
/// of ids (a majority of implementations) or null (undecided).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The reference.
    Reference(OracleId),
    /// A majority of the standard's implementations.
    Majority(Vec<OracleId>),
    /// Nothing.
    Undecided,
}

impl Serialize for DecidedBy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            DecidedBy::Reference(id) => id.serialize(s),
            DecidedBy::Majority(ids) => ids.serialize(s),
            DecidedBy::Undecided => s.serialize_none(),
        }
    }
}

impl Decision {
    /// `decided_by` as JSON writes it: `None` when the key is left out.
    pub fn as_json(self) -> Option<DecidedBy> {
        match self {
            Decision::NotCompared => None,
            Decision::Reference(id) => Some(DecidedBy::Reference(id)),
            Decision::Majority(voters) => Some(DecidedBy::Majority(voters.iter().collect())),
            Decision::Undecided => Some(DecidedBy::Undecided),
        }
    }
}
