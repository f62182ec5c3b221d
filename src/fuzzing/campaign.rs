//! What a campaign's differential targets check on every input.
//!
//! The RFC grammars that decide RFC 3986 and RFC 2396 peer disagreements
//! (`rfc3986-grammar`, `rfc2396-grammar`) are Appendix A run by an Earley
//! engine: on a campaign's inputs, nearly all of which make the parsers
//! disagree, they cost about half of `check()`, and their own loops'
//! coverage counters make inputs look new to libFuzzer because the
//! engine's chart grew, not because a parser did anything new. So a
//! campaign checks each input without them, and checks again with them
//! only when that quick verdict would be a finding (an unexplained
//! difference or a defect signature the baseline lacks): a finding is
//! always the full `check()`'s. The quick check makes no round trip
//! either: parsing each parser's own serialization again is an eighth of
//! what a campaign spends per input (BENCHMARKS.md, ninth round), and a
//! round trip that changes something is rare on a campaign's inputs (two
//! of the saved corpus's 805 have one the baseline knows). What the quick
//! check cannot see, a defect only a grammar shows (every peer agreeing
//! against the RFC text) or only a round trip shows, is decided where the
//! campaign's inputs are replayed in full: `uridiff report` over the new
//! corpus (`scripts/fuzz.sh`), and `cargo test` over the saved one.

use std::collections::BTreeSet;

use super::new_defects;
use crate::case::Case;
use crate::oracle::OracleId;
use crate::signature::Signature;
use crate::triage::Basis;

/// Would a campaign report `case`: does it hold an unexplained finding or a
/// defect signature `known` lacks?
pub(crate) fn is_finding(case: &Case<'_>, known: &BTreeSet<Signature>) -> bool {
    case.has_unexplained() || !new_defects(case, known).is_empty()
}

/// The case a campaign acts on for `input`: `check()` without the RFC
/// grammars, or, when that would be a finding, `check()` itself. A campaign
/// acts only on the findings' signatures, so the quick case also leaves out
/// what no signature holds: its host confusions are empty and its defects
/// carry no known-deviation mark (a finding's case, the full check's, has
/// both).
pub fn campaign_check<'a>(input: &'a str, known: &BTreeSet<Signature>) -> Case<'a> {
    let mut case = crate::check::empty_case(input, None);
    campaign_check_into(&mut case, known);
    case
}

/// [`campaign_check`] of a reference resolved against `base`.
pub fn campaign_check_with_base<'a>(
    base: &'a str,
    reference: &'a str,
    known: &BTreeSet<Signature>,
) -> Case<'a> {
    let mut case = crate::check::empty_case(reference, Some(base));
    campaign_check_into(&mut case, known);
    case
}

/// The campaign's check of `case`'s input (and base), made in `case`:
/// one case, made where the caller returns it, and checked again in place
/// when the quick check would be a finding (a case is a few kilobytes
/// inline, and this runs on every input of a campaign).
fn campaign_check_into(case: &mut Case<'_>, known: &BTreeSet<Signature>) {
    use crate::check::{Depth, check_into, clear};
    check_into(case, Depth::Quick);
    if is_finding(case, known) {
        clear(case);
        check_into(case, Depth::Full);
    }
}

/// The signatures a follower of a campaign (`uridiff corpus follow`) holds
/// `case` to: its unexplained findings and defects that are about an
/// external oracle or compare a parser with one. These are the kinds of
/// finding a fuzz target stops on, for the parsers no fuzz target runs (a
/// spec difference is a documented reading, never a finding by itself).
/// A reference that runs over the pipe (whatwg-url) is no such parser: a
/// fuzz target's own parser it decides against is the fuzz target's.
pub fn external_signatures(case: &Case<'_>) -> BTreeSet<Signature> {
    let external = |id: OracleId| matches!(id, OracleId::External(_)) && !id.is_reference();
    case.findings
        .iter()
        .filter(|f| matches!(f.basis, Basis::Defect | Basis::Unexplained))
        .filter(|f| external(f.oracle) || f.peer.is_some_and(external))
        .map(Signature::of)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A follower saves what involves a parser no fuzz target runs: a
    /// defect about an in-process parser that a pipe reference (whatwg-url)
    /// decides or disputes is not one; one whose peer is a shipped adapter
    /// is.
    #[test]
    fn a_pipe_reference_is_no_external_oracle_for_the_follower() {
        use crate::oracle::ExternalName;
        let mut case = crate::check("g:h");
        let Some(own) = case.defects().next().cloned() else {
            panic!("http's `g:h` defect: {:?}", case.findings);
        };
        let name = |n: &str| match ExternalName::new(n) {
            Ok(name) => OracleId::External(name),
            Err(e) => panic!("{n}: {e:?}"),
        };
        case.findings = vec![crate::triage::Finding {
            peer: Some(name("whatwg-url")),
            ..own.clone()
        }];
        assert!(external_signatures(&case).is_empty());
        case.findings = vec![crate::triage::Finding {
            peer: Some(name("java-url")),
            ..own
        }];
        assert_eq!(external_signatures(&case).len(), 1);
    }

    fn grammars(case: &Case<'_>) -> usize {
        case.outcomes
            .iter()
            .filter(|(id, _)| matches!(id, OracleId::Rfc3986Grammar | OracleId::Rfc2396Grammar))
            .count()
    }

    /// The quick check leaves out only what no signature holds: where the
    /// full check asks no grammar, both make the same findings, and the
    /// quick case has no host confusions and no known-deviation marks.
    #[test]
    fn the_quick_check_leaves_out_only_what_no_signature_holds() {
        let signatures = |case: &Case<'_>| -> Vec<Signature> {
            case.findings.iter().map(Signature::of).collect()
        };
        let mut confused = 0;
        for input in [
            "http://0x7f.1/",
            "http://a.example/p?q#f",
            "https://user@[::1]:8080/",
            "http://h\\@evil.example/",
            "g:h",
        ] {
            let full = crate::check(input);
            let quick = crate::check::check_quick(input);
            assert!(quick.host_confusions.is_empty(), "{input}");
            assert!(quick.findings.iter().all(|f| f.known.is_none()), "{input}");
            confused += usize::from(!full.host_confusions.is_empty());
            if grammars(&full) == 0 && !round_trips(&full) {
                assert_eq!(signatures(&quick), signatures(&full), "{input}");
            }
        }
        assert!(confused > 0, "no input with a host confusion");
    }

    fn round_trips(case: &Case<'_>) -> bool {
        use crate::triage::Class;
        case.findings.iter().any(|f| f.class == Class::RoundTrip)
    }

    /// The quick check parses no parser's serialization again: a round-trip
    /// defect is the full check's, which the replay of a campaign's corpus
    /// runs. url reads `file://y\r:`, a CR, then `@` with host `y` and path
    /// `/r:/@`, and its serialization `file://y/r:/@` with an empty host
    /// (the round-trip signatures of corpus/signatures.txt).
    #[test]
    fn the_quick_check_makes_no_round_trip() {
        let input = "file://y\\r:\r@";
        assert!(round_trips(&crate::check(input)), "{input:?}");
        assert!(!round_trips(&crate::check::check_quick(input)), "{input:?}");
        // Known as it is, the campaign does not stop on it. With nothing
        // known, it stops where the quick check finds another defect (one
        // of a parser only some builds have): its case is then the full
        // one, round trip included, and otherwise the quick one, without.
        let known =
            crate::corpus::known_defect_signatures(include_str!("../../corpus/signatures.txt"));
        assert!(!is_finding(&campaign_check(input, &known), &known));
        let none = BTreeSet::new();
        let escalates = is_finding(&crate::check::check_quick(input), &none);
        assert_eq!(
            round_trips(&campaign_check(input, &none)),
            escalates,
            "{input:?}"
        );
    }

    /// Nor does the quick check ask libcurl for its serialization, which
    /// only the round trip reads: the same findings without it.
    #[cfg(feature = "curl")]
    #[test]
    fn the_quick_check_reads_no_serialization_of_libcurl() {
        let serialization = |case: &Case<'_>| {
            case.outcomes
                .iter()
                .find(|(id, _)| *id == OracleId::Curl)
                .map(|(_, o)| o.serialization.as_deref().map(String::from))
        };
        let input = "HTTP://a.example/b/../c";
        let full = crate::check(input);
        let quick = crate::check::check_quick(input);
        assert_eq!(
            serialization(&full),
            Some(Some("http://a.example/c".to_owned()))
        );
        assert_eq!(serialization(&quick), Some(None));
        assert_eq!(quick.findings, full.findings);
    }

    /// The quick check asks no grammar; a finding is the full check's.
    #[test]
    fn the_quick_check_asks_no_grammar_and_a_finding_is_the_full_check() {
        let known =
            crate::corpus::known_defect_signatures(include_str!("../../corpus/signatures.txt"));
        let none = BTreeSet::new();
        // `%2E` against `t:/`: fluent-uri and iri-string agree with each
        // other and depart from the RFC 3986 grammar (they read `%2E` as a
        // dot segment). The full check, which the replay of the campaign's
        // corpus runs, blames both.
        let full = crate::check_with_base("t:/", "%2E");
        assert!(grammars(&full) > 0);
        assert!(
            full.defects()
                .any(|f| f.decided_by
                    == crate::triage::Decision::Reference(OracleId::Rfc3986Grammar)),
            "{:?}",
            full.findings
        );
        let quick = campaign_check_with_base("t:/", "%2E", &none);
        if crate::oracle::info(OracleId::Uriparser).is_none() {
            // With those two as the only RFC 3986 parsers it is a defect
            // only the grammar shows: the quick check cannot see it (the
            // trade this module makes), no finding, no grammar asked.
            assert!(!is_finding(&quick, &none));
            assert_eq!(grammars(&quick), 0);
        } else {
            // uriparser keeps `%2E` as RFC 3986 section 5.2.4 does, so the
            // peers disagree where the quick check looks: it escalates to
            // the full check, whose grammar decides.
            assert!(grammars(&quick) > 0);
            assert_eq!(quick.findings, full.findings);
        }
        // A defect the quick check sees (http drops the authority it read
        // in `g:h`) is a finding when unknown: the case is the full check's.
        let single = crate::check("g:h");
        assert!(single.defects().next().is_some());
        assert_eq!(campaign_check("g:h", &none).findings, single.findings);
        let quick = campaign_check("http://[::1]/", &known);
        assert!(grammars(&crate::check("http://[::1]/")) > 0);
        assert_eq!(grammars(&quick), 0);
    }
}
