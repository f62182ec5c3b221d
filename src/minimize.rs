//! Delta debugging: shrink an input while it keeps the same findings.
//!
//! The classic `ddmin` of Zeller and Hildebrandt ("Simplifying and
//! Isolating Failure-Inducing Input", 2002) over the input's characters:
//! remove ever smaller chunks while the predicate still holds, in the manner
//! of diff_fuzz's minimiser. The predicate here is "the same set of
//! signatures" ([`signatures`]), so a minimised input shows exactly the
//! findings the original showed, no fewer and no new ones.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::case::Case;
use crate::harness::{Harness, Query};
use crate::signature::Signature;

/// The signatures (`class/basis/oracle/fields`) of a case's findings.
pub fn signatures(case: &Case<'_>) -> BTreeSet<Signature> {
    case.findings.iter().map(Signature::of).collect()
}

/// The signatures `input` (against `base`) shows, checked by `harness`.
pub fn signatures_with(
    harness: &mut Harness<'_>,
    input: &str,
    base: Option<&str>,
) -> BTreeSet<Signature> {
    signatures(&harness.check_query(Query { input, base }))
}

/// The signatures `input` (against `base`) shows, with the WHATWG
/// reference. It starts a `whatwg-url` process for this one input: for
/// more, a [`Minimizer`] (or [`signatures_with`] and a harness) keeps one.
pub fn signatures_of(input: &str, base: Option<&str>) -> BTreeSet<Signature> {
    Minimizer::new().signatures_of(input, base)
}

/// The harness of a minimisation: every candidate is checked by it, so one
/// `whatwg-url` process (the WHATWG reference, which most candidates of a
/// disagreement need) serves them all, and ends with the minimiser.
#[derive(Debug)]
pub struct Minimizer {
    harness: Harness<'static>,
}

impl Default for Minimizer {
    fn default() -> Self {
        Minimizer::new()
    }
}

impl Minimizer {
    /// The registry's oracles and the WHATWG reference (its process started
    /// when a candidate first needs it), each batch answered within
    /// [`WHATWG_TIMEOUT`](crate::reference::WHATWG_TIMEOUT).
    pub fn new() -> Self {
        Minimizer {
            harness: Harness::builder()
                .whatwg_reference(crate::reference::WHATWG_TIMEOUT)
                .build(),
        }
    }

    /// The signatures `input` (against `base`) shows.
    pub fn signatures_of(&mut self, input: &str, base: Option<&str>) -> BTreeSet<Signature> {
        signatures_with(&mut self.harness, input, base)
    }

    /// The shortest input found that shows exactly the signatures `input`
    /// shows (against `base`, when given).
    pub fn minimize(&mut self, input: &str, base: Option<&str>) -> String {
        self.minimize_until(input, base, None).text
    }

    /// A pair shrunk, the base too: the shortest reference, then the
    /// shortest base, that show exactly the signatures the pair shows.
    pub fn minimize_pair(&mut self, input: &str, base: &str) -> (String, String) {
        let (input, base) = self.minimize_pair_until(input, base, None);
        (input.text, base.text)
    }

    /// [`minimize`](Self::minimize) within `limit`: the best input found
    /// by then.
    pub fn minimize_within(
        &mut self,
        input: &str,
        base: Option<&str>,
        limit: Duration,
    ) -> Minimized {
        self.minimize_until(input, base, Instant::now().checked_add(limit))
    }

    /// [`minimize_pair`](Self::minimize_pair) within `limit` (the
    /// reference first, the base in what is left): the best pair found by
    /// then, complete only if both searches ran to their end.
    pub fn minimize_pair_within(
        &mut self,
        input: &str,
        base: &str,
        limit: Duration,
    ) -> (Minimized, Minimized) {
        self.minimize_pair_until(input, base, Instant::now().checked_add(limit))
    }

    fn minimize_until(
        &mut self,
        input: &str,
        base: Option<&str>,
        deadline: Option<Instant>,
    ) -> Minimized {
        let wanted = self.signatures_of(input, base);
        ddmin_until(input, deadline, |candidate| {
            self.signatures_of(candidate, base) == wanted
        })
    }

    fn minimize_pair_until(
        &mut self,
        input: &str,
        base: &str,
        deadline: Option<Instant>,
    ) -> (Minimized, Minimized) {
        let wanted = self.signatures_of(input, Some(base));
        let input = ddmin_until(input, deadline, |candidate| {
            self.signatures_of(candidate, Some(base)) == wanted
        });
        let base = ddmin_until(base, deadline, |candidate| {
            self.signatures_of(&input.text, Some(candidate)) == wanted
        });
        (input, base)
    }

    /// Ends the harness (and its WHATWG reference); the errors its end
    /// shows ([`Harness::finish`]).
    pub fn finish(self) -> Vec<String> {
        self.harness.finish()
    }
}

/// The most predicate calls one minimisation makes: enough for inputs of a
/// few kilobytes, bounded for pathological ones.
const MAX_TESTS: usize = 20_000;

/// How long one minimisation may take by default: a check of an input near
/// 64 KiB costs milliseconds (the grammar references, http's length limit
/// keeping every candidate long), so the test count alone bounds nothing a
/// person would wait for.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// A minimised input, and whether the search ran to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Minimized {
    /// The shortest input found that keeps the property (the input itself
    /// when nothing smaller does).
    pub text: String,
    /// `false` when the time limit or the test budget stopped the search:
    /// `text` keeps the property but a shorter input may exist.
    pub complete: bool,
}

/// `ddmin` over the characters of `input`: the shortest input found for
/// which `keeps` holds (`input` itself when nothing smaller does).
pub(crate) fn ddmin(input: &str, keeps: impl FnMut(&str) -> bool) -> String {
    ddmin_until(input, None, keeps).text
}

/// [`ddmin`] that stops at `deadline` (checked before each test), with
/// the best input found by then.
pub(crate) fn ddmin_until(
    input: &str,
    deadline: Option<Instant>,
    mut keeps: impl FnMut(&str) -> bool,
) -> Minimized {
    let mut chars: Vec<char> = input.chars().collect();
    let mut tests = 0;
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut stopped = false;
    let mut may_test = |tests: usize| {
        stopped = stopped || tests >= MAX_TESTS || out_of_time();
        !stopped
    };
    let mut n = 2usize;
    while chars.len() >= 2 && may_test(tests) {
        let chunk = chars.len().div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        while start < chars.len() && may_test(tests) {
            let end = (start + chunk).min(chars.len());
            // The complement of one chunk.
            let candidate: String = chars
                .get(..start)
                .into_iter()
                .flatten()
                .chain(chars.get(end..).into_iter().flatten())
                .collect();
            tests += 1;
            if keeps(&candidate) {
                chars = candidate.chars().collect();
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
            start = end;
        }
        if !reduced {
            if n >= chars.len() {
                break;
            }
            n = (n * 2).min(chars.len());
        }
    }
    // A last pass over single characters catches what chunking missed.
    let mut i = 0;
    while i < chars.len() && may_test(tests) {
        let mut candidate = chars.clone();
        candidate.remove(i);
        let text: String = candidate.iter().collect();
        tests += 1;
        if keeps(&text) {
            chars = candidate;
        } else {
            i += 1;
        }
    }
    Minimized {
        text: chars.into_iter().collect(),
        complete: !stopped,
    }
}

/// The shortest input found that shows exactly the signatures `input`
/// shows (against `base`, when given): [`Minimizer::minimize`] with a
/// minimiser of its own.
pub fn minimize(input: &str, base: Option<&str>) -> String {
    Minimizer::new().minimize(input, base)
}

/// A (reference, base) pair shrunk while `keeps` holds of it: the
/// reference first, then the base against the shrunk reference. Bases from
/// the fuzzer are as long as references; a reviewer wants both short.
pub(crate) fn ddmin_pair(
    input: &str,
    base: &str,
    mut keeps: impl FnMut(&str, &str) -> bool,
) -> (String, String) {
    let input = ddmin(input, |candidate| keeps(candidate, base));
    let base = ddmin(base, |candidate| keeps(&input, candidate));
    (input, base)
}

/// The shortest reference, then the shortest base, that show exactly the
/// signatures the pair shows: [`Minimizer::minimize_pair`] with a
/// minimiser of its own.
pub fn minimize_pair(input: &str, base: &str) -> (String, String) {
    Minimizer::new().minimize_pair(input, base)
}

/// [`minimize`] within `limit`: the best input found by then
/// ([`Minimizer::minimize_within`] with a minimiser of its own).
pub fn minimize_within(input: &str, base: Option<&str>, limit: Duration) -> Minimized {
    Minimizer::new().minimize_within(input, base, limit)
}

/// [`minimize_pair`] within `limit`: [`Minimizer::minimize_pair_within`]
/// with a minimiser of its own.
pub fn minimize_pair_within(input: &str, base: &str, limit: Duration) -> (Minimized, Minimized) {
    Minimizer::new().minimize_pair_within(input, base, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deadline already past stops the search before its first test: the
    /// input comes back whole, marked incomplete; without one the same
    /// search completes.
    #[test]
    fn a_passed_deadline_returns_the_input_marked_incomplete() {
        let mut calls = 0;
        let past = Some(Instant::now());
        let out = ddmin_until("xxaxx", past, |s| {
            calls += 1;
            s.contains('a')
        });
        assert_eq!(out.text, "xxaxx");
        assert!(!out.complete);
        assert_eq!(calls, 0);
        let out = ddmin_until("xxaxx", None, |s| s.contains('a'));
        assert_eq!(
            out,
            Minimized {
                text: "a".to_owned(),
                complete: true
            }
        );
    }

    #[test]
    fn ddmin_finds_the_smallest_input_that_keeps_the_property() {
        let found = ddmin("aaaXbbbYccc", |s| s.contains('X') && s.contains('Y'));
        assert_eq!(found, "XY");
        assert_eq!(ddmin("abc", |_| false), "abc");
        assert_eq!(ddmin("", |_| true), "");
    }

    #[test]
    fn minimized_inputs_show_the_same_signatures() {
        let input = "http://user@a_b.example:80/path/to/x?q=1#frag";
        let small = minimize(input, None);
        assert!(small.len() < input.len(), "{small}");
        assert_eq!(signatures_of(&small, None), signatures_of(input, None));
    }

    #[test]
    fn a_minimized_pair_has_a_shorter_base_and_the_same_signatures() {
        let (reference, base) = ("1/%2e/..//x", "httj://t/aaaa/bbbb?q#f");
        let (small, small_base) = minimize_pair(reference, base);
        assert!(small_base.len() < base.len(), "{small_base}");
        assert!(small.len() <= reference.len(), "{small}");
        assert_eq!(
            signatures_of(&small, Some(&small_base)),
            signatures_of(reference, Some(base))
        );
    }
}
