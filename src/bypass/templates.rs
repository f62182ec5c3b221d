//! Host substitution: inputs where two readers see different hosts made
//! templates with `{allow}` and `{target}` slots, filled with the hosts a
//! user asks about.

use std::collections::BTreeSet;

use super::{ALLOW_SLOT, Goal, StringCheck, TARGET_SLOT};
use crate::case::Case;
use crate::components::Component;

/// The first occurrence of `needle` in `text` at or after `from`, ASCII
/// case-insensitively (hosts come back lower-cased from some parsers).
fn find_ignoring_case(text: &str, needle: &str, from: usize) -> Option<usize> {
    let (t, n) = (text.as_bytes(), needle.as_bytes());
    if n.is_empty() || n.len() > t.len() {
        return None;
    }
    (from..=t.len() - n.len()).find(|&i| {
        text.is_char_boundary(i)
            && text.is_char_boundary(i + n.len())
            && t.get(i..i + n.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(n))
    })
}

/// Where the scheme's `:` ends, when `text` starts with a scheme (RFC 3986
/// section 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
fn scheme_end(text: &str) -> Option<usize> {
    crate::triage::text::has_scheme(text)
        .then(|| text.find(':').map(|colon| colon + 1))
        .flatten()
}

/// `input` with one occurrence of `allow_host` made `{allow}` and one of
/// `target_host` made `{target}`, both after the scheme and not
/// overlapping (the longer host placed first, the shorter outside it).
/// `None` when the target host is not in the text as written.
fn substitute(input: &str, allow_host: &str, target_host: &str) -> Option<String> {
    let start = scheme_end(input).unwrap_or(0);
    // The longer host is placed first, so that a host inside the other
    // (`h` in `hh`) is found outside it.
    let (first, second) = if allow_host.len() >= target_host.len() {
        ((allow_host, ALLOW_SLOT), (target_host, TARGET_SLOT))
    } else {
        ((target_host, TARGET_SLOT), (allow_host, ALLOW_SLOT))
    };
    let mut slots: Vec<(usize, usize, &str)> = Vec::with_capacity(2);
    let first_at = find_ignoring_case(input, first.0, start);
    if let Some(at) = first_at {
        slots.push((at, at + first.0.len(), first.1));
    }
    let mut from = start;
    while let Some(at) = find_ignoring_case(input, second.0, from) {
        let end = at + second.0.len();
        let overlaps = first_at.is_some_and(|f| at < f + first.0.len() && f < end);
        if !overlaps {
            slots.push((at, end, second.1));
            break;
        }
        from = at + 1;
    }
    if !slots.iter().any(|&(_, _, slot)| slot == TARGET_SLOT) {
        return None;
    }
    slots.sort_by_key(|&(at, _, _)| at);
    let mut out = String::with_capacity(input.len() + 16);
    let mut last = 0;
    for (at, end, slot) in slots {
        out.push_str(input.get(last..at)?);
        out.push_str(slot);
        last = end;
    }
    out.push_str(input.get(last..)?);
    Some(out)
}

/// Bypass templates from cases: for every pair of accepting parsers that
/// see different hosts, the input with one host made `{allow}` and the
/// other `{target}` (both ways round), and each of those with its scheme
/// made `http` and `https` too (fetchers send those).
pub fn templates<'c, 'i: 'c>(cases: impl IntoIterator<Item = &'c Case<'i>>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for case in cases {
        if case.base.is_some()
            || case.input.contains(ALLOW_SLOT)
            || case.input.contains(TARGET_SLOT)
        {
            continue;
        }
        // Pairs of differing hosts: two parsers', and split-host's against
        // each parser's (the string check reads a host too).
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for confusion in &case.host_confusions {
            if let [Some(a), Some(b)] = &confusion.hosts {
                pairs.push((a, b));
            }
        }
        let readings: BTreeSet<&str> = [StringCheck::SplitHost, StringCheck::Prefix]
            .iter()
            .filter_map(|check| check.reading(case.input))
            .collect();
        for reading in readings {
            for (_, outcome) in &case.outcomes {
                if let Some(host) = outcome
                    .components
                    .get(Component::Host)
                    .filter(|_| outcome.accepted())
                {
                    pairs.push((reading, host));
                }
            }
        }
        for (a, b) in pairs {
            if a.is_empty() || b.is_empty() || a.eq_ignore_ascii_case(b) {
                continue;
            }
            for (allow_host, target_host) in [(a, b), (b, a)] {
                if let Some(template) = substitute(case.input, allow_host, target_host) {
                    for variant in with_fetched_schemes(&template) {
                        out.insert(variant);
                    }
                }
            }
        }
    }
    out
}

/// `template`, and with a scheme: the same with `http` and `https`.
fn with_fetched_schemes(template: &str) -> Vec<String> {
    let mut out = vec![template.to_owned()];
    if let Some(end) = scheme_end(template)
        && let Some(rest) = template.get(end..)
    {
        for scheme in ["http:", "https:"] {
            let variant = format!("{scheme}{rest}");
            if variant != template {
                out.push(variant);
            }
        }
    }
    out
}

/// The template every search tries besides those from seeds: the target
/// alone, as a fetcher would be handed it.
pub const PLAIN_TEMPLATE: &str = "http://{target}/";

/// `template` with its slots filled.
pub fn fill(template: &str, allow: &str, target: &str) -> String {
    template
        .replace(ALLOW_SLOT, allow)
        .replace(TARGET_SLOT, target)
}

/// Every input to check for `goal`: each template filled with the allowed
/// host and each target, without repeats, in order.
pub fn candidates<'t>(templates: impl IntoIterator<Item = &'t str>, goal: &Goal) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let targets = goal.targets();
    for template in templates {
        for target in &targets {
            let input = fill(template, goal.allow(), target);
            if seen.insert(input.clone()) {
                out.push(input);
            }
        }
    }
    out
}

/// The saved corpus's signature examples and curated inputs, as this
/// build was made with them (`corpus/signatures.txt`, `corpus/curated.txt`):
/// the seeds every search starts from, wherever uridiff runs. Resolution
/// examples (with a base) are left out: a bypass is one URL.
pub fn built_in_seeds() -> Vec<String> {
    let mut seeds: BTreeSet<String> = BTreeSet::new();
    if let Ok(set) = crate::corpus::parse_signatures(include_str!("../../corpus/signatures.txt")) {
        seeds.extend(
            set.into_values()
                .filter(|entry| entry.base.is_none())
                .map(|entry| entry.input),
        );
    }
    if let Ok(curated) = crate::corpus::parse_curated(include_str!("../../corpus/curated.txt")) {
        seeds.extend(curated.into_iter().map(|(_, input)| input));
    }
    seeds.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bypass::{INTERNAL_SPELLINGS, Place};

    #[test]
    fn substitution_places_both_slots_after_the_scheme() {
        assert_eq!(
            substitute("http://a\\b@c/d", "a", "c").as_deref(),
            Some("http://{allow}\\b@{target}/d")
        );
        assert_eq!(
            substitute("h://h@hh/", "hh", "h").as_deref(),
            Some("h://{target}@{allow}/"),
            "the shorter host found outside the longer one"
        );
        assert_eq!(
            substitute("http://X.example/", "x.example", "y").as_deref(),
            None,
            "the target host must be in the text"
        );
        assert_eq!(
            substitute("http://0x7f.1/", "127.0.0.1", "0x7f.1").as_deref(),
            Some("http://{target}/")
        );
    }

    #[test]
    fn templates_come_in_both_directions_and_with_fetched_schemes() {
        let case = crate::check("http://a\\b@c/d");
        let found = templates([&case]);
        assert!(found.contains("http://{allow}\\b@{target}/d"), "{found:?}");
        assert!(found.contains("http://{target}\\b@{allow}/d"), "{found:?}");
        assert!(found.contains("https://{allow}\\b@{target}/d"), "{found:?}");
    }

    #[test]
    fn fill_and_candidates_skip_repeats() {
        let goal = Goal::Reach {
            allow: "a.example".into(),
            target: "b.example".into(),
        };
        assert_eq!(
            candidates(
                ["http://{allow}@{target}/", "http://{allow}@{target}/"],
                &goal
            ),
            vec!["http://a.example@b.example/".to_owned()]
        );
        let deny = Goal::Deny {
            allow: "a.example".into(),
            places: vec![Place::Loopback],
        };
        assert_eq!(
            candidates([PLAIN_TEMPLATE], &deny).len(),
            INTERNAL_SPELLINGS.len()
        );
    }
}
