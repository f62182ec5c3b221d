//! The Markdown report's Bypasses section: the validator-by-fetcher
//! matrix.

use std::io::{self, Write};

use super::{code, code_line};
use crate::bypass::{Bypass, Confirmation, Goal, Mark, Matrix};

/// A validator's or fetcher's name in a table: an oracle id or a fixed
/// check as it is, anything else (a user's `regex:` pattern) as a code
/// span, so no character of it acts as Markdown.
fn name_cell(name: &str) -> String {
    if is_plain_name(name) {
        name.to_owned()
    } else {
        code(name)
    }
}

/// As [`name_cell`], outside a table.
fn name_line(name: &str) -> String {
    if is_plain_name(name) {
        name.to_owned()
    } else {
        code_line(name)
    }
}

fn is_plain_name(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// How many bypasses real clients confirmed, in words that say whether
/// confirmation ran: "0 confirmed" only when it did.
fn confirmed_words(matrix: &Matrix, how: &str) -> String {
    if matrix.observation == Confirmation::Ran {
        return crate::bypass::Seen::legend().to_owned();
    }
    if let Confirmation::DidNotRun(why) = &matrix.observation {
        return format!(
            "none observed: observation did not run ({}), so these are the parser model's predictions",
            code_line(why)
        );
    }
    match &matrix.confirmation {
        Confirmation::Ran => format!("{} confirmed{how}", matrix.cells_confirmed()),
        Confirmation::NotAsked => {
            // Say that the cells are predictions: a client may rewrite
            // the URL before it dials, or fail (`bypass` observes by
            // default as root; `report` when asked).
            "none observed or confirmed: these are the parser model's predictions (without `--model`, as root, every candidate goes through the real clients in a network namespace; `--confirm` sends these through real clients on loopback)".to_owned()
        }
        Confirmation::DidNotRun(why) => {
            format!(
                "none confirmed: confirmation did not run ({})",
                code_line(why)
            )
        }
    }
}

/// The bypass matrix: what the goal is, a grid of cell numbers (the
/// picture), then each cell's input.
pub fn bypass_section(out: &mut impl Write, matrix: &Matrix) -> io::Result<()> {
    writeln!(out, "## Bypasses\n")?;
    goal(out, matrix)?;
    let (rows, listed) = matrix.grid();
    grid(out, matrix, &rows)?;
    list(out, matrix, &listed)?;
    writeln!(out)
}

/// The paragraph that says what the matrix looks for, and how many pairs
/// it found bypassed.
fn goal(out: &mut impl Write, matrix: &Matrix) -> io::Result<()> {
    match &matrix.goal {
        Goal::Reach { allow, target } => writeln!(
            out,
            "A validator that reads the host {} and a fetcher that reads {}: the inputs that \
             get past the one and send the other elsewhere, by host substitution over every host \
             confusion known ({} inputs checked). **{} of {} validator/fetcher pairs bypassed, \
             {}.** Rows validate, columns fetch; \
             a number is a bypass listed below, `·` none, `=` the same parser. \
             `uridiff bypass --validator V --fetcher F --json` lists every shape.\n",
            code_line(allow),
            code_line(target),
            matrix.checked,
            matrix.cells_found(),
            matrix.validators.len() * matrix.fetchers.len(),
            confirmed_words(matrix, " by a real client on loopback"),
        )?,
        Goal::Deny { places, .. } => {
            let names: Vec<&str> = places.iter().map(|p| p.as_str()).collect();
            writeln!(
                out,
                "A denylist: the validator reads a name or a public address, the fetcher's \
                 resolver reaches {} ({} inputs checked). **{} of {} pairs bypassed, {}.**\n",
                names.join(", "),
                matrix.checked,
                matrix.cells_found(),
                matrix.validators.len() * matrix.fetchers.len(),
                confirmed_words(matrix, ""),
            )?;
        }
        Goal::DenyName { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => {
            use crate::bypass::Aim;
            let what = match &matrix.goal {
                Goal::DenyName { name, .. } => format!(
                    "reads a host that is not {n} (a name blocklist), the fetcher reaches {n}",
                    n = code_line(name)
                ),
                Goal::ReachDomain { allow, domain }
                | Goal::NoHost {
                    aim: Aim::Domain(domain),
                    allow,
                } => format!(
                    "reads {}, the fetcher a name under {}",
                    if matches!(matrix.goal, Goal::NoHost { .. }) {
                        "no host (a relative, same-site URL to it)".to_owned()
                    } else {
                        format!("the host {}", code_line(allow))
                    },
                    code_line(domain)
                ),
                Goal::NoHost {
                    aim: Aim::Host(target),
                    ..
                } => format!(
                    "reads no host (a relative, same-site URL to it), the fetcher {}",
                    code_line(target)
                ),
                Goal::Reach { .. } | Goal::Deny { .. } => String::new(),
            };
            writeln!(
                out,
                "The validator {} ({} inputs checked). **{} of {} pairs bypassed, {}.** Rows \
                 validate, columns fetch; a number is a bypass listed below, `·` none.\n",
                what,
                matrix.checked,
                matrix.cells_found(),
                matrix.validators.len() * matrix.fetchers.len(),
                confirmed_words(matrix, ""),
            )?;
        }
    }
    Ok(())
}

/// The grid: rows validate, columns fetch.
fn grid(out: &mut impl Write, matrix: &Matrix, rows: &[Vec<Mark<'_>>]) -> io::Result<()> {
    write!(out, "| validator \\ fetcher |")?;
    for f in &matrix.fetchers {
        write!(out, " {f} |")?;
    }
    write!(out, "\n|---|")?;
    for _ in &matrix.fetchers {
        write!(out, ":---:|")?;
    }
    writeln!(out)?;
    for (v, row) in matrix.validators.iter().zip(rows) {
        write!(out, "| {} |", name_cell(v))?;
        for mark in row {
            let mark = match mark {
                Mark::Same => "=".to_owned(),
                Mark::None => "·".to_owned(),
                Mark::Bypass(n, b) if b.confirmed_by.is_some() => format!("**{n}** ✔"),
                Mark::Bypass(n, b) => format!("{n}{}", matrix.seen(b).mark()),
            };
            write!(out, " {mark} |")?;
        }
        writeln!(out)?;
    }
    writeln!(out)
}

/// Each bypass of the grid by its number: the input, what each side reads.
fn list(out: &mut impl Write, matrix: &Matrix, listed: &[&Bypass]) -> io::Result<()> {
    for (n, b) in listed.iter().enumerate() {
        writeln!(
            out,
            "{}. {} → {}: {} ({} reads {}, {} reads {}, {}{}; shape `{}`){}{}",
            n + 1,
            name_line(&b.validator),
            b.fetcher,
            code_line(&b.input),
            name_line(&b.validator),
            b.validator_host
                .as_deref()
                .map_or_else(|| "no host".to_owned(), code_line),
            b.fetcher,
            code_line(&b.fetcher_host),
            b.fetcher_place,
            b.fetcher_address
                .as_deref()
                .map(|a| format!(" {a}"))
                .unwrap_or_default(),
            b.shape,
            b.confirmed_by
                .as_deref()
                .map(|c| format!(", confirmed by {c}"))
                .unwrap_or_default(),
            crate::bypass::Seen::sentence(matrix.cell_words(b, code_line)),
        )?;
    }
    if listed.is_empty() {
        writeln!(out, "No bypass.")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_s_regex_validator_stays_one_table_cell_and_one_code_span() {
        use crate::bypass::{Goal, Matrix, Validator};
        let goal = Goal::Reach {
            allow: "a".into(),
            target: "b".into(),
        };
        let v = Validator::parse("regex:x|`*y*`").unwrap();
        let m = Matrix::new(&[v], &[crate::oracle::OracleId::Url], &goal);
        let mut out = Vec::new();
        bypass_section(&mut out, &m).unwrap();
        let text = String::from_utf8(out).unwrap();
        let row = text
            .lines()
            .find(|l| l.contains("regex:"))
            .expect("the validator's row");
        // Three cell borders: name, the one fetcher; the pattern's own `|`
        // is escaped.
        assert_eq!(row.matches(" |").count(), 2, "{row}");
        assert!(row.contains("x\\|"), "{row}");
        assert!(row.starts_with("| `` regex:"), "{row}");
    }

    #[test]
    fn crafted_bypass_inputs_are_shown_escaped_in_one_code_span() {
        use crate::bypass::{Bypass, Goal, Matrix, Place, Validator};
        let goal = Goal::Reach {
            allow: "a".into(),
            target: "b".into(),
        };
        let mut m = Matrix::new(
            &[Validator::Parser(crate::oracle::OracleId::Url)],
            &[crate::oracle::OracleId::Http],
            &goal,
        );
        let input = "http://a\u{202e}`|`\n## injected@b/";
        m.add(Bypass {
            validator: "url".into(),
            fetcher: "http".into(),
            input: input.into(),
            validator_host: Some("a\u{200b}".into()),
            fetcher_host: "b".into(),
            shape: "backslash".into(),
            fetcher_place: Place::Name,
            fetcher_address: None,
            confirmed_by: None,
            observed: None,
        });
        let mut out = Vec::new();
        bypass_section(&mut out, &m).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            !text.contains('\u{202e}') && !text.contains('\u{200b}'),
            "{text}"
        );
        assert!(
            text.contains("\\u{202e}") && text.contains("\\u{200b}"),
            "{text}"
        );
        assert!(
            !text.contains("\n## injected"),
            "no line of its own: {text}"
        );
    }
}
