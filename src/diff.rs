//! Field-by-field comparison of two outcomes. Pure and symmetric.

use crate::components::{Component, ComponentSet};
use crate::oracle::Outcome;

/// How two outcomes differ; also the part of such a difference that one
/// triage rule explains (its claim), which triage takes away from what is
/// still open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Diff {
    /// One accepted the input and the other did not (rejected it, or found
    /// it out of its domain). Two refusals agree, whatever their reason.
    pub verdict: bool,
    /// Components both accepted and both report, with different values.
    /// Absent and empty differ.
    pub fields: ComponentSet,
}

impl Diff {
    /// No difference.
    pub(crate) const NONE: Diff = Diff {
        verdict: false,
        fields: ComponentSet::EMPTY,
    };

    /// The accept/reject difference alone.
    pub(crate) const VERDICT: Diff = Diff {
        verdict: true,
        fields: ComponentSet::EMPTY,
    };

    /// Differing fields alone, the verdicts agreeing.
    pub(crate) const fn of_fields(fields: ComponentSet) -> Diff {
        Diff {
            verdict: false,
            fields,
        }
    }

    /// Do the outcomes agree?
    pub fn is_empty(&self) -> bool {
        !self.verdict && self.fields.is_empty()
    }

    /// What both differences hold.
    pub(crate) const fn intersection(self, other: Diff) -> Diff {
        Diff {
            verdict: self.verdict && other.verdict,
            fields: self.fields.intersection(other.fields),
        }
    }

    /// What either difference holds.
    pub(crate) const fn union(self, other: Diff) -> Diff {
        Diff {
            verdict: self.verdict || other.verdict,
            fields: self.fields.union(other.fields),
        }
    }

    /// What is left of this difference once `other` is taken away.
    pub(crate) const fn without(self, other: Diff) -> Diff {
        Diff {
            verdict: self.verdict && !other.verdict,
            fields: self.fields.difference(other.fields),
        }
    }
}

/// The very same slice (address and length), or both absent: two slices
/// of the same input at the same place, without comparing their bytes.
pub(crate) fn same_slice(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.as_ptr() == b.as_ptr() && a.len() == b.len(),
        (None, None) => true,
        _ => false,
    }
}

/// Equal text; the same slice is settled without reading it (the common
/// case: oracles borrow the input).
fn same(a: Option<&str>, b: Option<&str>) -> bool {
    same_slice(a, b) || a == b
}

/// Compares two outcomes. `diff(a, b) == diff(b, a)` and `diff(a, a)` is empty.
pub fn diff(a: &Outcome<'_>, b: &Outcome<'_>) -> Diff {
    if a.accepted() != b.accepted() {
        return Diff {
            verdict: true,
            fields: ComponentSet::EMPTY,
        };
    }
    if !a.accepted() {
        return Diff::default();
    }
    let shared = a
        .components
        .reported()
        .intersection(b.components.reported());
    let fields = shared
        .iter()
        .filter(|&c: &Component| !same(a.components.get(c), b.components.get(c)))
        .fold(ComponentSet::EMPTY, ComponentSet::with);
    Diff {
        verdict: false,
        fields,
    }
}
