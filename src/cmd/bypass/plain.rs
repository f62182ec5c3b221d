//! `bypass`'s text output: the goal, the counts, a grid of cell numbers,
//! then each cell's input.

use std::io::Write;

use uridiff::bypass::{self, Bypass, Goal, Mark, Matrix};

use super::super::error::Failure;
use super::super::text::visible;

/// The matrix as text: a grid of cell numbers, then each cell's input.
pub(super) fn write_text(
    out: &mut impl Write,
    matrix: &Matrix,
    goal: &Goal,
    confirmed: Option<&bypass::confirm::Summary>,
) -> Result<(), Failure> {
    match goal {
        Goal::Reach { allow, target } => writeln!(
            out,
            "bypass: the validator reads host \"{}\", the fetcher \"{}\"",
            visible(allow),
            visible(target)
        )?,
        Goal::Deny { places, .. } => {
            let names: Vec<&str> = places.iter().map(|p| p.as_str()).collect();
            writeln!(
                out,
                "bypass of a denylist: the validator reads a name or a public address, the fetcher's resolver reaches {}",
                names.join(", ")
            )?;
        }
        Goal::DenyName { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => {
            writeln!(out, "bypass: the validator {}", visible(&goal.describe()))?;
        }
    }
    writeln!(
        out,
        "{} inputs checked; {} of {} validator/fetcher pairs bypassed",
        matrix.checked,
        matrix.cells_found(),
        matrix.validators.len() * matrix.fetchers.len()
    )?;
    if let bypass::Confirmation::DidNotRun(why) = &matrix.observation {
        writeln!(
            out,
            "not observed: {}; these cells are the parser model's predictions",
            visible(why)
        )?;
    }
    if let Some(summary) = confirmed
        && let Some(why) = &summary.not_confirmable
    {
        writeln!(
            out,
            "confirmed by real clients on loopback: none, confirmation did not run ({})",
            visible(why)
        )?;
    } else if let Some(summary) = confirmed {
        writeln!(
            out,
            "confirmed by real clients on loopback: {} of those pairs ({} requests{}){}{}",
            matrix.cells_confirmed(),
            summary.requests,
            if summary.budget_spent {
                ", budget spent"
            } else {
                ""
            },
            if summary.without_client.is_empty() {
                String::new()
            } else {
                format!("; no HTTP client for {}", summary.without_client.join(", "))
            },
            // Hits without the token of the request out confirm nothing;
            // a number here means something else reached the traps.
            match summary.strays {
                0 => String::new(),
                1 => "; 1 stray request at the traps ignored (without the request's token)"
                    .to_owned(),
                n => format!(
                    "; {n} stray requests at the traps ignored (without the request's token)"
                ),
            }
        )?;
    }
    writeln!(out)?;
    let listed = write_grid(out, matrix)?;
    write_list(out, matrix, &listed)
}

/// The grid of cell numbers; the cells' bypasses in their numbers' order.
fn write_grid<'m>(out: &mut impl Write, matrix: &'m Matrix) -> Result<Vec<&'m Bypass>, Failure> {
    let width = matrix
        .validators
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max("validator \\ fetcher".len());
    write!(out, "{:<width$}", "validator \\ fetcher")?;
    for f in &matrix.fetchers {
        write!(out, "  {f}")?;
    }
    writeln!(out)?;
    let (rows, listed) = matrix.grid();
    for (v, row) in matrix.validators.iter().zip(&rows) {
        write!(out, "{:<width$}", visible(v))?;
        for (f, mark) in matrix.fetchers.iter().zip(row) {
            let mark = match mark {
                Mark::Same => "=".to_owned(),
                Mark::None => "·".to_owned(),
                Mark::Bypass(n, b) if b.confirmed_by.is_some() => format!("{n}✔"),
                Mark::Bypass(n, b) => format!("{n}{}", matrix.seen(b).mark().trim_start()),
            };
            write!(out, "  {mark:^w$}", w = f.len())?;
        }
        writeln!(out)?;
    }
    Ok(listed)
}

/// Each cell's input, what the two read, and what clients did with it.
fn write_list(out: &mut impl Write, matrix: &Matrix, listed: &[&Bypass]) -> Result<(), Failure> {
    if !listed.is_empty() {
        writeln!(out)?;
    }
    for (n, b) in listed.iter().enumerate() {
        writeln!(
            out,
            "{:>3}  {} -> {}: {}",
            n + 1,
            visible(&b.validator),
            b.fetcher,
            visible(&b.input)
        )?;
        writeln!(
            out,
            "     {} reads {}, {} reads {} ({}{}); shape {}",
            visible(&b.validator),
            b.validator_host
                .as_deref()
                .map_or_else(|| "no host".to_owned(), |h| format!("\"{}\"", visible(h))),
            b.fetcher,
            if b.fetcher_host.is_empty() {
                "no host".to_owned()
            } else {
                format!("\"{}\"", visible(&b.fetcher_host))
            },
            b.fetcher_place,
            b.fetcher_address
                .as_deref()
                .map(|a| format!(" {a}"))
                .unwrap_or_default(),
            b.shape
        )?;
        if let Some(client) = &b.confirmed_by {
            writeln!(
                out,
                "     confirmed: {client}'s request arrived at the target's trap"
            )?;
        }
        if matrix.seen(b) != bypass::Seen::NotAsked {
            writeln!(
                out,
                "     {}",
                matrix.cell_words(b, |v| format!("\"{}\"", uridiff::text::visible_lines(v)))
            )?;
        }
    }
    if listed.is_empty() {
        writeln!(out, "no bypass")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(summary: &bypass::confirm::Summary) -> String {
        let goal = Goal::Reach {
            allow: "allowed.example".into(),
            target: "evil.example".into(),
        };
        let matrix = Matrix::new(&[], &[], &goal);
        let mut out = Vec::new();
        write_text(&mut out, &matrix, &goal, Some(summary)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strays_are_told_when_there_are_some() {
        let mut summary = bypass::confirm::Summary {
            requests: 4,
            ..Default::default()
        };
        assert!(!text(&summary).contains("stray"), "{}", text(&summary));
        summary.strays = 2;
        assert!(
            text(&summary).contains(
                "(4 requests); 2 stray requests at the traps ignored (without the request's token)\n"
            ),
            "{}",
            text(&summary)
        );
    }
}
