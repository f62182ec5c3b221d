//! Readings, after the disambiguation an RFC states in prose.
//!
//! A grammar may give an input several readings. Where the RFC's text says
//! which one holds, that sentence removes the others, and the outcome records
//! it ([`Settlement`]); where the text says nothing, every remaining reading
//! is kept and the outcome is ambiguous: no reading is picked silently.

use std::fmt;

use crate::forest::Reading;

/// A sentence of an RFC that settles an ambiguity of its grammar.
#[derive(Debug, PartialEq, Eq)]
pub struct Settlement {
    /// A stable identifier (`rfc2396-4.3-authority-wins` ...).
    pub id: &'static str,
    /// The RFC (`RFC 2396`).
    pub rfc: &'static str,
    /// Its section (`4.3`).
    pub section: &'static str,
    /// The sentence, verbatim.
    pub text: &'static str,
}

/// A known ambiguity of a grammar that the RFC's text does not settle.
#[derive(Debug, PartialEq, Eq)]
pub struct Ambiguity {
    /// A stable identifier (`rfc2396-3.2-server-or-reg_name` ...).
    pub id: &'static str,
    /// The RFC.
    pub rfc: &'static str,
    /// The section whose grammar is ambiguous.
    pub section: &'static str,
    /// What the readings differ in, and why the text does not settle it.
    pub note: &'static str,
}

impl fmt::Display for Settlement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} section {}: \"{}\"",
            self.rfc, self.section, self.text
        )
    }
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} section {}: {}", self.rfc, self.section, self.note)
    }
}

/// A rule of the text: does it remove `reading`, given all readings still
/// in play?
pub(crate) type Beaten = fn(&Reading<'_>, &[Reading<'_>]) -> bool;

/// The readings of an input under one RFC: all of them, and the ones its
/// text leaves, each with its components `C`.
#[derive(Clone, Debug)]
pub struct Outcome<'p, C> {
    readings: Vec<Reading<'p>>,
    kept: Vec<(Reading<'p>, C)>,
    settled_by: Vec<&'static Settlement>,
    ambiguity: Option<&'static Ambiguity>,
}

impl<'p, C: PartialEq> Outcome<'p, C> {
    /// Applies each settlement in turn (one that would remove every reading
    /// removes none), then keeps one reading per distinct components.
    pub(crate) fn build(
        readings: Vec<Reading<'p>>,
        settlements: &[(&'static Settlement, Beaten)],
        components: impl Fn(&Reading<'p>) -> C,
        classify: impl Fn(&[&C]) -> Option<&'static Ambiguity>,
    ) -> Self {
        let mut alive = readings.clone();
        let mut settled_by = Vec::new();
        for &(settlement, beaten) in settlements {
            let next: Vec<Reading<'p>> = alive
                .iter()
                .filter(|r| !beaten(r, &alive))
                .cloned()
                .collect();
            if !next.is_empty() && next.len() < alive.len() {
                settled_by.push(settlement);
                alive = next;
            }
        }
        let mut kept: Vec<(Reading<'p>, C)> = Vec::new();
        for r in alive {
            let c = components(&r);
            if !kept.iter().any(|(_, k)| *k == c) {
                kept.push((r, c));
            }
        }
        let ambiguity = if kept.len() > 1 {
            classify(&kept.iter().map(|(_, c)| c).collect::<Vec<&C>>())
        } else {
            None
        };
        Outcome {
            readings,
            kept,
            settled_by,
            ambiguity,
        }
    }
}

impl<'p, C> Outcome<'p, C> {
    /// Every reading the grammar gives, before any settlement.
    pub fn readings(&self) -> &[Reading<'p>] {
        &self.readings
    }

    /// The readings the text leaves, one per distinct components.
    pub fn kept(&self) -> impl Iterator<Item = (&Reading<'p>, &C)> {
        self.kept.iter().map(|(r, c)| (r, c))
    }

    /// The components of each reading the text leaves.
    pub fn components(&self) -> impl Iterator<Item = &C> {
        self.kept.iter().map(|(_, c)| c)
    }

    /// The components, when exactly one reading is left.
    pub fn unique(&self) -> Option<&C> {
        match self.kept.as_slice() {
            [(_, c)] => Some(c),
            _ => None,
        }
    }

    /// Does the text leave more than one reading, with different components?
    pub fn is_ambiguous(&self) -> bool {
        self.kept.len() > 1
    }

    /// The sentences that removed readings, in the order applied.
    pub fn settled_by(&self) -> &[&'static Settlement] {
        &self.settled_by
    }

    /// For an ambiguous outcome, the known ambiguity it is (`None` for one
    /// no rule of the crate names, and for an unambiguous outcome).
    pub fn ambiguity(&self) -> Option<&'static Ambiguity> {
        self.ambiguity
    }
}
