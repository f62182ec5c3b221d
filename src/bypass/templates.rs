//! Host substitution: inputs where two readers see different hosts made
//! templates with `{allow}` and `{target}` slots, filled with the hosts a
//! user asks about.

use std::collections::BTreeSet;

use super::{ALLOW_SLOT, Goal, StringCheck, TARGET_SLOT};
use crate::case::Case;
use crate::components::Component;
use crate::input::{MAX_INPUT_BYTES, TooLong};

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

/// Templates with the target's slot alone: for every pair of accepting
/// parsers where one reads no host (or an empty one) and the other a host,
/// the input with that host made `{target}` (`http:///{target}/`: no host
/// to `urlsplit`, the target to libcurl), with `http` and `https` schemes
/// too. What a hostless check (`--allow-no-host`) or a blocklist
/// (`--deny-name`) is passed by; an allowlist needs both slots.
pub fn one_sided_templates<'c, 'i: 'c>(
    cases: impl IntoIterator<Item = &'c Case<'i>>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for case in cases {
        if case.base.is_some()
            || case.input.contains(ALLOW_SLOT)
            || case.input.contains(TARGET_SLOT)
        {
            continue;
        }
        for confusion in &case.host_confusions {
            let [a, b] = &confusion.hosts;
            let host = match (a.as_deref(), b.as_deref()) {
                (None | Some(""), Some(h)) | (Some(h), None | Some("")) if !h.is_empty() => h,
                _ => continue,
            };
            // An allowed host that is not in the input leaves its slot
            // out: `substitute` then places the target alone.
            if let Some(template) = substitute(case.input, "", host) {
                out.extend(with_fetched_schemes(&template));
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

/// `template` with its slots filled, in one pass: a host that holds a
/// slot's text (`--allow '{target}'`), or that ends where the template
/// goes on to make one, is never filled again.
pub fn fill(template: &str, allow: &str, target: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        if let Some(after) = from.strip_prefix(ALLOW_SLOT) {
            out.push_str(allow);
            rest = after;
        } else if let Some(after) = from.strip_prefix(TARGET_SLOT) {
            out.push_str(target);
            rest = after;
        } else {
            out.push('{');
            rest = from.get(1..).unwrap_or_default();
        }
    }
    out.push_str(rest);
    out
}

/// The length in bytes of [`fill`]`(template, allow, target)`, counted
/// without filling (a template of many slots and a long host would
/// otherwise be built just to be refused).
pub fn filled_len(template: &str, allow: &str, target: &str) -> u64 {
    // The slots cannot overlap (each is one `{`, letters, one `}`), so
    // these counts are the slots `fill` finds, and the text around them is
    // the template less their length.
    let allows = template.matches(ALLOW_SLOT).count() as u64;
    let targets = template.matches(TARGET_SLOT).count() as u64;
    let slots = allows * ALLOW_SLOT.len() as u64 + targets * TARGET_SLOT.len() as u64;
    (template.len() as u64)
        .saturating_sub(slots)
        .saturating_add(allows.saturating_mul(allow.len() as u64))
        .saturating_add(targets.saturating_mul(target.len() as u64))
}

/// Whether every input `template` makes for `goal` (each target in its
/// target slot) is within the input limit ([`MAX_INPUT_BYTES`]), and if
/// not, how long the longest would be. `--allow` 100 KB long in 9,000
/// slots would be a 900 MB input.
pub fn fits(template: &str, goal: &Goal) -> Result<(), TooLong> {
    let longest = goal
        .targets()
        .into_iter()
        .map(|target| filled_len(template, goal.allow(), &target))
        .max()
        .unwrap_or(0);
    if longest > MAX_INPUT_BYTES as u64 {
        return Err(TooLong {
            bytes: Some(longest),
            limit: MAX_INPUT_BYTES,
        });
    }
    Ok(())
}

/// Every input to check for `goal`: each template filled with the allowed
/// host and each target, without repeats, in order. A template that would
/// make an input over the input limit is left out ([`fits`]; a command
/// says which, before it searches).
pub fn candidates<'t>(templates: impl IntoIterator<Item = &'t str>, goal: &Goal) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let targets = goal.targets();
    for template in templates {
        if fits(template, goal).is_err() {
            continue;
        }
        for target in &targets {
            let input = fill(template, goal.allow(), target.as_str());
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
    fn fill_is_one_pass_and_its_length_is_known_before() {
        assert_eq!(fill("{allow}{target}", "{target}", "t"), "{target}t");
        assert_eq!(fill("{allow}get}", "{tar", "t"), "{target}");
        assert_eq!(fill("{{allow}}{x", "a", "t"), "{a}{x");
        for (template, allow, target) in [
            ("{allow}{target}", "{target}", "t"),
            ("h://{allow}{allow}@{target}/{targ", "", "évil.example"),
            ("no slot", "a", "b"),
        ] {
            assert_eq!(
                filled_len(template, allow, target),
                fill(template, allow, target).len() as u64,
                "{template}"
            );
        }
    }

    #[test]
    fn a_template_that_would_fill_past_the_input_limit_makes_no_candidate() {
        let goal = Goal::Reach {
            allow: "a".repeat(100 * 1024),
            target: "b.example".into(),
        };
        let many = "{allow}".repeat(9000);
        assert_eq!(
            fits(&many, &goal),
            Err(TooLong {
                bytes: Some(9000 * 100 * 1024),
                limit: MAX_INPUT_BYTES
            })
        );
        assert_eq!(fits("http://{allow}@{target}/", &goal), Ok(()));
        assert_eq!(
            candidates([many.as_str(), "http://{target}/"], &goal),
            vec!["http://b.example/".to_owned()]
        );
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
