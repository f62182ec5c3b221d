//! The validator-by-fetcher matrix of bypasses found.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{Aim, Bypass, Goal, Place, Validator};
use crate::oracle::OracleId;

/// The validator-by-fetcher matrix: for each pair, the bypasses found,
/// the shortest kept per shape, place and spelling of the fetcher's host
/// ([`spelling`]).
///
/// In JSON: `{"allow", "target" (null for a denylist), "deny" (the
/// places, empty for an allowlist), "goal" (`reach`, `deny`, `deny-name`,
/// `target-domain`, `allow-no-host`), "deny_name" and "target_domain"
/// (null unless that goal), "validators", "fetchers", "checked",
/// "pairs_bypassed", "confirmed", "confirmation" (`"not asked"`, `"ran"`,
/// or `"did not run: WHY"`), "cells" (the shortest bypass per pair,
/// validators then fetchers in order), "unobserved_cells" (when
/// observation ran: for each pair no client carried out, the prediction
/// shown instead, [`Matrix::unobserved`]), "bypasses" (every one kept)}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// What the bypasses achieve.
    pub goal: Goal,
    /// The validators, in the order asked.
    pub validators: Vec<String>,
    /// The fetchers, in the order asked.
    pub fetchers: Vec<String>,
    /// How many inputs were checked.
    pub checked: usize,
    /// Whether real clients confirmed the bypasses: a count of zero means
    /// something only when confirmation ran.
    pub confirmation: Confirmation,
    /// Whether real clients were observed in the network namespace
    /// (`--observe`): when it ran, only the bypasses a client was observed
    /// to carry to the target make cells.
    pub observation: Confirmation,
    found: BTreeMap<Key, Bypass>,
    passed: Option<BTreeMap<Key, Bypass>>,
}

/// What a kept bypass is the shortest of: validator, fetcher, shape,
/// place (none for [`Matrix::passed`]'s, which keeps inputs whatever the
/// parser reads) and the spelling of the fetcher's host.
type Key = (String, String, String, Option<Place>, String);

fn key(bypass: &Bypass, place: Option<Place>) -> Key {
    (
        bypass.validator.clone(),
        bypass.fetcher.clone(),
        bypass.shape.clone(),
        place,
        spelling(&bypass.fetcher_host),
    )
}

/// The form a host is spelled in, so that spellings a client may treat
/// differently are each kept, where the shortest would otherwise stand
/// for all: aiohttp refuses `127.1` (all digits, not a dotted quad) and
/// dials `0x7f.1`, which the model reads alike (loopback, one shape).
/// Each dot-separated label becomes `d` (decimal digits), `o` (digits
/// with a leading 0: octal to `inet_aton`) or `x` (`0x` and hex digits);
/// a host with any other label is `name`; a bracketed one `[v6]`, or
/// `[v4]` with a dotted IPv4 tail; the empty host `""`.
pub fn spelling(host: &str) -> String {
    if host.is_empty() {
        return String::new();
    }
    if host.starts_with('[') {
        return if host.contains('.') { "[v4]" } else { "[v6]" }.to_owned();
    }
    let mut labels = Vec::new();
    for label in host.split('.') {
        let hex = label
            .strip_prefix("0x")
            .or_else(|| label.strip_prefix("0X"))
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        let form = if hex.is_some() {
            "x"
        } else if !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) {
            if label.len() > 1 && label.starts_with('0') {
                "o"
            } else {
                "d"
            }
        } else {
            return "name".to_owned();
        };
        labels.push(form);
    }
    labels.join(".")
}

impl Serialize for Matrix {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Matrix", 16)?;
        st.serialize_field("allow", self.goal.allow())?;
        let (target, deny): (Option<&str>, &[Place]) = match &self.goal {
            Goal::Reach { target, .. }
            | Goal::NoHost {
                aim: Aim::Host(target),
                ..
            } => (Some(target), &[]),
            Goal::Deny { places, .. } => (None, places),
            Goal::DenyName { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => (None, &[]),
        };
        st.serialize_field("target", &target)?;
        st.serialize_field("deny", deny)?;
        st.serialize_field("goal", self.goal.kind())?;
        st.serialize_field(
            "deny_name",
            &match &self.goal {
                Goal::DenyName { name, .. } => Some(name),
                _ => None,
            },
        )?;
        st.serialize_field(
            "target_domain",
            &match &self.goal {
                Goal::ReachDomain { domain, .. }
                | Goal::NoHost {
                    aim: Aim::Domain(domain),
                    ..
                } => Some(domain),
                _ => None,
            },
        )?;
        st.serialize_field("validators", &self.validators)?;
        st.serialize_field("fetchers", &self.fetchers)?;
        st.serialize_field("checked", &self.checked)?;
        st.serialize_field("pairs_bypassed", &self.cells_found())?;
        st.serialize_field("confirmed", &self.cells_confirmed())?;
        st.serialize_field("confirmation", &self.confirmation.to_string())?;
        st.serialize_field("observation", &self.observation.to_string())?;
        st.serialize_field("cells", &self.cells())?;
        st.serialize_field("unobserved_cells", &self.unobserved_cells())?;
        st.serialize_field("bypasses", &self.found.values().collect::<Vec<_>>())?;
        st.end()
    }
}

/// Whether a matrix's bypasses were sent through real clients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Confirmation {
    /// No confirmation was asked for (`--confirm` not given).
    #[default]
    NotAsked,
    /// The traps stood and the clients were tried (some may have failed:
    /// their errors are the run's).
    Ran,
    /// Confirmation was asked for and could not run: why (traps that did
    /// not start or cannot be reached, a goal outside loopback).
    DidNotRun(String),
}

impl std::fmt::Display for Confirmation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Confirmation::NotAsked => f.write_str("not asked"),
            Confirmation::Ran => f.write_str("ran"),
            Confirmation::DidNotRun(why) => write!(f, "did not run: {why}"),
        }
    }
}

/// One cell of the matrix as a person reads it ([`Matrix::grid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark<'m> {
    /// The validator and the fetcher are one parser.
    Same,
    /// No bypass.
    None,
    /// A bypass: its number in the list below the grid (from 1), and it.
    Bypass(usize, &'m Bypass),
}

impl Matrix {
    /// The grid, validators by fetchers, each bypass cell numbered in
    /// reading order; and the cells' bypasses in that order (the list a
    /// grid's numbers point into). When observation ran, a pair that no
    /// client carried out shows its prediction ([`Matrix::unobserved`]):
    /// [`Matrix::seen`] tells the two apart.
    pub fn grid(&self) -> (Vec<Vec<Mark<'_>>>, Vec<&Bypass>) {
        let mut listed = Vec::new();
        let rows = self
            .validators
            .iter()
            .map(|v| {
                self.fetchers
                    .iter()
                    .map(|f| {
                        if v == f && !self.goal.pairs_one_parser() {
                            Mark::Same
                        } else if let Some(b) = self.cell(v, f).or_else(|| self.unobserved(v, f)) {
                            listed.push(b);
                            Mark::Bypass(listed.len(), b)
                        } else {
                            Mark::None
                        }
                    })
                    .collect()
            })
            .collect();
        (rows, listed)
    }

    /// An empty matrix for these validators and fetchers.
    pub fn new(validators: &[Validator], fetchers: &[OracleId], goal: &Goal) -> Matrix {
        Matrix {
            goal: goal.clone(),
            validators: validators.iter().map(ToString::to_string).collect(),
            fetchers: fetchers.iter().map(|f| f.as_str().to_owned()).collect(),
            checked: 0,
            confirmation: Confirmation::NotAsked,
            observation: Confirmation::NotAsked,
            found: BTreeMap::new(),
            passed: None,
        }
    }

    /// The shortest bypass of each pair that has one, validators then
    /// fetchers in order.
    pub fn cells(&self) -> Vec<&Bypass> {
        self.validators
            .iter()
            .flat_map(|v| self.fetchers.iter().filter_map(move |f| self.cell(v, f)))
            .collect()
    }

    /// Does `bypass` make its cell: always, unless observation ran and no
    /// client was observed reaching the target with it.
    pub fn counts(&self, bypass: &Bypass) -> bool {
        self.observation != Confirmation::Ran || bypass.observed.as_ref().is_some_and(|o| o.reached)
    }

    /// Keep the inputs validators pass whatever the fetcher reads
    /// ([`super::passed`]), the shortest per validator, fetcher, shape and
    /// spelling of the fetcher's host.
    pub fn keep_passed(&mut self) {
        self.passed.get_or_insert_with(BTreeMap::new);
    }

    /// Are they kept?
    pub fn collects_passed(&self) -> bool {
        self.passed.is_some()
    }

    /// Keeps `candidate` if it is the shortest of its validator, fetcher,
    /// shape and spelling.
    pub fn add_passed(&mut self, candidate: Bypass) {
        let Some(passed) = &mut self.passed else {
            return;
        };
        let key = key(&candidate, None);
        match passed.get(&key) {
            Some(kept) if kept.order_key() <= candidate.order_key() => {}
            _ => {
                passed.insert(key, candidate);
            }
        }
    }

    /// The inputs kept by [`Matrix::keep_passed`].
    pub fn passed(&self) -> impl Iterator<Item = &Bypass> {
        self.passed.iter().flat_map(|p| p.values())
    }

    /// Records an observed candidate the model did not predict: it is a
    /// bypass of its own when a client reached the target with it.
    pub fn add_observed(&mut self, candidate: Bypass) {
        let key = key(&candidate, Some(candidate.fetcher_place));
        self.found.entry(key).or_insert(candidate);
    }

    /// How many pairs have a bypass a client confirmed.
    pub fn cells_confirmed(&self) -> usize {
        self.found
            .values()
            .filter(|b| b.confirmed_by.is_some())
            .map(|b| (&b.validator, &b.fetcher))
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// Every bypass kept, to mark the confirmed ones.
    pub fn all_mut(&mut self) -> impl Iterator<Item = &mut Bypass> {
        self.found.values_mut()
    }

    /// Keeps `bypass` if it is the shortest of its pair, shape, place and
    /// spelling.
    pub fn add(&mut self, bypass: Bypass) {
        let key = key(&bypass, Some(bypass.fetcher_place));
        match self.found.get(&key) {
            Some(kept) if kept.order_key() <= bypass.order_key() => {}
            _ => {
                self.found.insert(key, bypass);
            }
        }
    }

    /// Every bypass kept (the shortest per pair, shape, place and
    /// spelling), by pair.
    pub fn all(&self) -> impl Iterator<Item = &Bypass> {
        self.found.values()
    }

    /// The bypass a pair's cell shows: a confirmed one first, then the
    /// shortest.
    pub fn cell(&self, validator: &str, fetcher: &str) -> Option<&Bypass> {
        self.found
            .values()
            .filter(|b| b.validator == validator && b.fetcher == fetcher && self.counts(b))
            // A bypass the model explains first, where clients were observed.
            .min_by_key(|b| {
                (
                    b.confirmed_by.is_none(),
                    b.observed.as_ref().is_some_and(|o| !o.predicted),
                    b.order_key(),
                )
            })
    }

    /// How many pairs have a bypass.
    pub fn cells_found(&self) -> usize {
        self.found
            .values()
            .filter(|b| self.counts(b))
            .map(|b| (&b.validator, &b.fetcher))
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// Is nothing found?
    pub fn is_empty(&self) -> bool {
        !self.found.values().any(|b| self.counts(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_keeps_the_shortest_input_per_cell() {
        let goal = Goal::Reach {
            allow: "a".into(),
            target: "b".into(),
        };
        let mut m = Matrix::new(
            &[Validator::Parser(OracleId::Url)],
            &[OracleId::Http],
            &goal,
        );
        let b = |input: &str| Bypass {
            validator: "url".into(),
            fetcher: "http".into(),
            input: input.into(),
            validator_host: Some("a".into()),
            fetcher_host: "b".into(),
            shape: "backslash".into(),
            fetcher_place: Place::Name,
            fetcher_address: None,
            confirmed_by: None,
            observed: None,
        };
        m.add(b("http://long-one/"));
        m.add(b("http://short/"));
        m.add(b("http://longest-of-all/"));
        assert_eq!(
            m.cell("url", "http").map(|b| b.input.as_str()),
            Some("http://short/")
        );
        assert_eq!(m.cells_found(), 1);
        assert!(m.cell("http", "url").is_none());
    }

    #[test]
    fn each_spelling_of_a_host_keeps_its_own_shortest_input() {
        for (host, form) in [
            ("127.1", "d.d"),
            ("0x7f.1", "x.d"),
            ("0177.0.0.1", "o.d.d.d"),
            ("2130706433", "d"),
            ("0", "d"),
            ("0X7F000001", "x"),
            ("127.0.0.1", "d.d.d.d"),
            ("[::1]", "[v6]"),
            ("[::ffff:127.0.0.1]", "[v4]"),
            ("localhost", "name"),
            ("127.0.0.1.evil.example", "name"),
            ("1..2", "name"),
            ("", ""),
        ] {
            assert_eq!(spelling(host), form, "{host}");
        }
        let goal = Goal::Deny {
            allow: "a".into(),
            places: vec![Place::Loopback],
        };
        let mut m = Matrix::new(&[Validator::Parser(OracleId::Url)], &[OracleId::Url], &goal);
        m.keep_passed();
        let b = |host: &str| Bypass {
            validator: "url".into(),
            fetcher: "url".into(),
            input: format!("http://{host}"),
            validator_host: Some(host.into()),
            fetcher_host: host.into(),
            shape: "reg-name-authority".into(),
            fetcher_place: Place::Loopback,
            fetcher_address: Some("127.0.0.1".into()),
            confirmed_by: None,
            observed: None,
        };
        for host in ["0x7f.1", "127.1", "0xff.1", "1.1", "0x7f.0.0.1"] {
            m.add(b(host));
            m.add_passed(b(host));
        }
        let kept: Vec<&str> = m.all().map(|b| b.input.as_str()).collect();
        assert_eq!(kept, ["http://1.1", "http://0x7f.1", "http://0x7f.0.0.1"]);
        let passed: Vec<&str> = m.passed().map(|b| b.input.as_str()).collect();
        assert_eq!(passed, kept);
        // The cell is still the pair's shortest.
        assert_eq!(
            m.cell("url", "url").map(|b| b.input.as_str()),
            Some("http://1.1")
        );
    }
}
