//! Root causes: one parser behaviour behind many defect signatures, and the
//! known-bug ledger that records each one's upstream status
//! (`testdata/ledger.tsv`, data, not code).
//!
//! The rule that groups them, stated once: a defect finding's root cause is
//! the first ledger row, in file order, whose parser is the finding's and
//! whose `match` holds of the case:
//!
//! - `class:CLASS`: the finding's class is CLASS (a self-check names one
//!   behaviour: `invalid-scheme` of http);
//! - `rule:NAME`: a recogniser of the input (and base) and the parser's
//!   outcome, one per behaviour ([`Rule`]): `port-not-u16` holds wherever
//!   http::Uri accepts a port that is not a u16, whatever the class the
//!   departure shows up under (`dropped-input`, a peer disagreement);
//! - `known:ID`: the finding is covered by the documented deviation ID of
//!   `testdata/known-deviations.tsv`.
//!
//! A defect no row matches is a new root cause, keyed by its signature
//! (`new:` and the signature's text), and every report lists it first, "to
//! report upstream". A test replays every row's witness against the pinned
//! parser, so an upgrade that fixes one fails loudly and the row moves to
//! `fixed in X`.

use std::sync::OnceLock;

use serde::Serialize;

use crate::datafile::json_string;
use crate::oracle::{OracleId, Outcome};
use crate::signature::Signature;
use crate::triage::{Class, Finding};

mod rule;

pub use rule::Rule;

const DATA: &str = include_str!("../testdata/ledger.tsv");
const COLUMNS: usize = 10;

/// One root cause of the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    /// Stable kebab-case id.
    pub id: String,
    /// The parser (uridiff oracle id).
    pub parser: OracleId,
    /// The library and version it was found in (the pinned one).
    pub library: String,
    /// `open`, `fixed in X`, `documented` or `new` (reported nowhere yet).
    pub status: String,
    /// The upstream issue, pull request or documentation, or `none found`.
    pub upstream: String,
    /// The section of the standard it breaks.
    pub spec: String,
    /// Which defects it explains.
    pub matcher: Match,
    /// The shortest input that shows it.
    pub witness: String,
    /// The base the witness is resolved against, if any.
    pub base: Option<String>,
    /// One line.
    pub summary: String,
}

/// How a ledger row recognises its defects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Match {
    /// The finding's class.
    Class(Class),
    /// A recogniser of the case.
    Rule(Rule),
    /// A documented deviation's id (`testdata/known-deviations.tsv`).
    Known(String),
}

fn table() -> &'static crate::datafile::Table<LedgerRow> {
    static TABLE: OnceLock<crate::datafile::Table<LedgerRow>> = OnceLock::new();
    TABLE.get_or_init(|| crate::datafile::read::<_, COLUMNS>(DATA, parse_row, |r| &r.id))
}

/// Every ledger row, in file order.
pub fn ledger() -> &'static [LedgerRow] {
    &table().rows
}

/// Why rows of the ledger were left out; empty when it is well formed.
pub fn load_errors() -> &'static [String] {
    &table().errors
}

fn parse_row(
    [
        id,
        parser,
        library,
        status,
        upstream,
        spec,
        matcher,
        witness,
        base,
        summary,
    ]: [&str; COLUMNS],
) -> Result<LedgerRow, String> {
    let parser = crate::datafile::oracle(parser)?;
    let matcher = if let Some(class) = matcher.strip_prefix("class:") {
        Match::Class(
            Class::ALL
                .iter()
                .copied()
                .find(|c| c.id() == class)
                .ok_or_else(|| format!("no class {class:?}"))?,
        )
    } else if let Some(name) = matcher.strip_prefix("rule:") {
        Match::Rule(
            Rule::ALL
                .into_iter()
                .find(|r| r.as_str() == name)
                .ok_or_else(|| format!("no rule {name:?}"))?,
        )
    } else if let Some(known) = matcher.strip_prefix("known:") {
        Match::Known(known.to_owned())
    } else {
        return Err(format!("match {matcher:?}: class:, rule: or known:"));
    };
    let status_ok = matches!(status, "open" | "documented" | "new")
        || status
            .strip_prefix("fixed in ")
            .is_some_and(|v| !v.is_empty());
    if !status_ok {
        return Err(format!(
            "status {status:?}: open, documented, new or fixed in X"
        ));
    }
    if upstream != "none found" && !upstream.starts_with("https://") {
        return Err(format!("upstream {upstream:?}: an https URL or none found"));
    }
    let base = match base {
        "-" => None,
        base => Some(json_string(base).map_err(|e| format!("base: {e}"))?),
    };
    Ok(LedgerRow {
        id: id.to_owned(),
        parser,
        library: library.to_owned(),
        status: status.to_owned(),
        upstream: upstream.to_owned(),
        spec: spec.to_owned(),
        matcher,
        witness: json_string(witness).map_err(|e| format!("witness: {e}"))?,
        base,
        summary: summary.to_owned(),
    })
}

/// A defect finding's root cause, as JSON and reports show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RootCause {
    /// The ledger row's id, or `new:` and the signature for a root cause
    /// the ledger does not know.
    pub id: String,
    /// `open`, `fixed in X`, `documented`, or `new`.
    pub status: String,
    /// The upstream link, or null.
    pub upstream: Option<String>,
}

/// What a root cause is recognised from: one input, its base, and what
/// each parser returned (a [`Case`](crate::Case) gives it:
/// `Case::evidence`). Its own type so that the ledger does not depend on
/// the case that holds it.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'c, 'a> {
    /// The input (with a base: the reference).
    pub input: &'a str,
    /// The base it was resolved against, if any.
    pub base: Option<&'a str>,
    /// Each oracle's outcome.
    pub outcomes: &'c [(OracleId, Outcome<'a>)],
}

impl<'a> Evidence<'_, 'a> {
    /// An oracle's outcome.
    pub fn outcome(&self, id: OracleId) -> Option<&Outcome<'a>> {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == id)
            .map(|(_, out)| out)
    }
}

/// The root cause of `finding` (a defect of the case `case` is the
/// evidence of): its ledger row, or a new one named after its signature.
/// `None` for a finding that is no defect, and for an undecided peer
/// disagreement no row recognises.
pub fn of(case: Evidence<'_, '_>, finding: &Finding) -> Option<RootCause> {
    if finding.basis != crate::triage::Basis::Defect {
        return None;
    }
    let row = ledger().iter().find(|row| {
        row.parser == finding.oracle
            && match &row.matcher {
                Match::Class(class) => *class == finding.class,
                Match::Rule(rule) => rule.holds(case, finding),
                Match::Known(id) => finding.known == Some(id.as_str()),
            }
    });
    // An undecided peer disagreement names its pair in registry order, not
    // the parser at fault: only a row that recognises the behaviour itself
    // gives it a root cause.
    if row.is_none() && finding.decided_by == crate::triage::Decision::Undecided {
        return None;
    }
    // A finding a documented deviation covers is that deviation: known,
    // never new (testdata/known-deviations.tsv holds its source).
    if row.is_none()
        && let Some(known) = finding.known.and_then(crate::known::by_id)
    {
        return Some(RootCause {
            id: format!("known:{}", known.id),
            status: "documented".to_owned(),
            upstream: Some(known.source.clone()),
        });
    }
    Some(match row {
        Some(row) => RootCause {
            id: row.id.clone(),
            status: row.status.clone(),
            upstream: (row.upstream != "none found").then(|| row.upstream.clone()),
        },
        None => RootCause {
            id: format!("new:{}", Signature::of(finding)),
            status: "new".to_owned(),
            upstream: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::rule::*;

    #[test]
    fn a_port_is_a_u16_or_it_is_not() {
        for a in [
            "h:80x", ":x", "g:h", "h:99999", ":w@:w", "u:n", ":h", ":r@:r", "[::1]:x",
        ] {
            assert!(port_not_u16(a), "{a}");
        }
        for a in [
            "h", "h:", "h:80", "h:65535", "u:p@h:1", "[::1]", "[::1]:8", "u:x@h",
        ] {
            assert!(!port_not_u16(a), "{a}");
        }
    }

    #[test]
    fn an_expanded_ipv6_literal_has_eight_groups_of_four_hex_digits() {
        assert!(is_expanded_ipv6(
            "[0000:0000:0000:0000:0000:0000:0000:0001]"
        ));
        assert!(is_expanded_ipv6(
            "[2001:0db8:0000:0000:0000:ff00:0042:8329]"
        ));
        for h in [
            "[::1]",
            "[0000:0000:0000:0000:0000:0000:0000:0001",
            "[0000:0000:0000:0000:0000:0000:0000:000A]",
            "[0000:0000:0000:0000:0000:0000:0000:1]",
            "[0000:0000:0000:0000:0000:0000:0000:0000:0000]",
            "h",
        ] {
            assert!(!is_expanded_ipv6(h), "{h}");
        }
    }

    #[test]
    fn empty_segments_are_those_of_a_file_urls_path() {
        for t in [
            "file:////",
            "file:\\\\//",
            "file://h//x",
            "file:/a//b",
            "FILE:////foo",
        ] {
            assert!(file_with_empty_segment(t), "{t}");
        }
        for t in [
            "file:///",
            "file://h/x",
            "file:/a/b",
            "http://h//x",
            "file://",
        ] {
            assert!(!file_with_empty_segment(t), "{t}");
        }
    }

    /// A later `..` in any spelling the URL Standard reads as one
    /// (`%2E%2E`: a campaign's `t:/t:/%2E%2E/%2E%2E/`).
    #[test]
    fn a_drive_letter_outside_file_is_followed_by_a_double_dot_segment() {
        for t in [
            "t:/c:/..",
            "t:/t:/%2E%2E/%2E%2E/",
            "a:/b|/.%2e",
            "s://h/c:/%2e.",
        ] {
            assert!(non_file_drive_letter_then_dots(t), "{t}");
        }
        for t in [
            "file:/c:/..",
            "t:/c:/.",
            "t:/../c:",
            "t:/c:/%2E",
            "t:/cc:/..",
        ] {
            assert!(!non_file_drive_letter_then_dots(t), "{t}");
        }
    }

    /// The dot segment comes first, the drive letter after it.
    #[test]
    fn a_file_drive_letter_after_a_dot_segment() {
        for t in [
            "file:/./p:",
            "fIle:/38/../e:",
            "file:///%2e/c|/x",
            "file:/a/%2E%2E/c:",
        ] {
            assert!(file_drive_letter_after_dot_segment(t), "{t}");
        }
        for t in [
            "file:/p:/.",
            "file:///c:/x",
            "http:/./p:",
            "file:/./p:x",
            "file:/x?/./p:",
        ] {
            assert!(!file_drive_letter_after_dot_segment(t), "{t}");
        }
    }

    #[test]
    fn drive_letters_are_found_in_file_urls_only() {
        for t in [
            "file://t/e:",
            "file:///C:/",
            "file:c|",
            "file:\\\\I\\\\I|",
            "FILE:/a/b:",
        ] {
            assert!(file_with_drive_letter(t), "{t}");
        }
        for t in ["http://t/e:", "file://t/ee:", "file:///", "file://h:8/"] {
            assert!(!file_with_drive_letter(t), "{t}");
        }
    }
}
