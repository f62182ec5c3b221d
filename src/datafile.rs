//! The tab-separated data files under `testdata/` (known deviations, the
//! known-bug ledger): `#` comment lines, one row per line, a stable
//! kebab-case id in the first column, inputs as JSON strings. Parsed once;
//! a malformed row is left out with a line-numbered error, never a panic.

use std::collections::HashSet;

/// The rows of a data file, and the errors of the rows left out.
#[derive(Debug)]
pub(crate) struct Table<R> {
    pub(crate) rows: Vec<R>,
    pub(crate) errors: Vec<String>,
}

/// Reads `text`: each row through `parse_row` (given its fields), ids
/// unique.
pub(crate) fn read<R, const N: usize>(
    text: &str,
    parse_row: impl Fn([&str; N]) -> Result<R, String>,
    id: impl Fn(&R) -> &str,
) -> Table<R> {
    let mut table = Table {
        rows: Vec::new(),
        errors: Vec::new(),
    };
    let mut ids = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let row = <[&str; N]>::try_from(fields.as_slice())
            .map_err(|_| format!("{} columns, not {N}", fields.len()))
            .and_then(|fields| {
                check_id(fields[0])?;
                parse_row(fields)
            });
        match row {
            Ok(row) if !ids.insert(id(&row).to_owned()) => {
                table
                    .errors
                    .push(format!("line {}: id {} used twice", n + 1, id(&row)));
            }
            Ok(row) => table.rows.push(row),
            Err(why) => table.errors.push(format!("line {}: {why}", n + 1)),
        }
    }
    table
}

/// A stable id: kebab-case.
fn check_id(id: &str) -> Result<(), String> {
    let kebab = !id.is_empty()
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if kebab {
        Ok(())
    } else {
        Err(format!("id {id:?} is not kebab-case"))
    }
}

/// A JSON string literal's value (what the data files write inputs as, so
/// that control characters and TABs survive).
pub(crate) fn json_string(field: &str) -> Result<String, String> {
    serde_json::from_str::<String>(field).map_err(|e| format!("{field:?} is no JSON string: {e}"))
}

/// An oracle a data row may name: a built-in one, or a shipped adapter
/// (the WHATWG reference among them).
pub(crate) fn oracle(name: &str) -> Result<crate::oracle::OracleId, String> {
    use crate::oracle::{Kind, OracleId};
    OracleId::from_id(name)
        .filter(|id| matches!(id.descriptor().kind, Kind::InProcess | Kind::Shipped))
        .ok_or_else(|| format!("{name:?} is no built-in oracle's id nor a shipped adapter's"))
}
