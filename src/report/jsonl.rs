//! The JSON Lines report: a `summary` object first, then one object per
//! distinct input, in the order read: the object `check --json` prints for
//! it (the same finding objects) with its `source`; then one object per
//! input not checked. Inputs are streamed to a spool while they are
//! checked, so memory does not grow with the corpus.

use std::io::{self, BufRead, Write};

use serde::Serialize;

use super::{Group, PairCount, Report, Totals};
use crate::case::Case;

/// Writes one input's line: `check --json`'s object with its `source`.
pub(crate) fn write_case(out: &mut dyn Write, source: &str, case: &Case<'_>) -> io::Result<()> {
    let mut value = serde_json::to_value(case)?;
    if let Some(object) = value.as_object_mut() {
        object.insert("source".to_owned(), source.into());
    }
    serde_json::to_writer(&mut *out, &value)?;
    writeln!(out)
}

/// Writes the report: the summary line, the spooled input lines, then the
/// inputs not checked.
pub fn write(report: &Report, spool: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Summary<'r> {
        summary: &'r Totals,
        signatures: &'r [Group],
        host_confusion_pairs: &'r [PairCount],
        not_checked: usize,
        external_errors: &'r [String],
        missing_references: &'r [String],
        root_causes: Vec<super::RootCauseGroup<'r>>,
        bypass: Option<&'r crate::bypass::Matrix>,
    }
    serde_json::to_writer(
        &mut *out,
        &Summary {
            summary: &report.totals,
            signatures: &report.groups,
            host_confusion_pairs: &report.pairs,
            not_checked: report.not_checked.len(),
            external_errors: &report.external_errors,
            missing_references: &report.missing_references,
            root_causes: report.root_causes(),
            bypass: report.bypass.as_ref(),
        },
    )?;
    writeln!(out)?;
    io::copy(spool, out)?;
    for s in &report.non_utf8 {
        serde_json::to_writer(
            &mut *out,
            &serde_json::json!({"source": s, "error": "not UTF-8"}),
        )?;
        writeln!(out)?;
    }
    for (s, why) in &report.not_checked {
        serde_json::to_writer(&mut *out, &serde_json::json!({"source": s, "error": why}))?;
        writeln!(out)?;
    }
    Ok(())
}
