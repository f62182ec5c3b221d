//! The order of the shipped adapters, read from their rows' positions at
//! compile time (`Shipped::position`): the rows live in one file per
//! runtime family, and the order every output lists them in is their own.

use super::{Shipped, go, jvm, node, perl, php, python, ruby};

/// The rows of the runtime family files, each row saying its own
/// `position`: a new adapter is a row in its family's file, and a new
/// family a line here.
const FAMILIES: &[&[Shipped]] = &[
    python::ROWS,
    jvm::ROWS,
    node::ROWS,
    go::ROWS,
    php::ROWS,
    ruby::ROWS,
    perl::ROWS,
];

/// How many shipped adapters there are.
const COUNT: usize = count(FAMILIES);

// The build fails here unless the rows' positions are 1 to COUNT, each
// taken by one row.
const _: () = assert!(
    each_position_once(FAMILIES, COUNT),
    "the shipped rows' positions are not 1 to their number, each once"
);

/// The shipped adapters, in the order of their rows' positions (the order
/// `uridiff oracles` lists them, `--oracle all` starts them and every
/// output gives their outcomes in).
pub(crate) const SHIPPED: &[Shipped] = &in_order::<COUNT>(FAMILIES);

/// How many rows `families` hold.
const fn count(families: &[&[Shipped]]) -> usize {
    match families {
        [first, rest @ ..] => first.len() + count(rest),
        [] => 0,
    }
}

/// How many rows of `families` are at `position`.
const fn taken(families: &[&[Shipped]], position: usize) -> usize {
    const fn in_rows(rows: &[Shipped], position: usize) -> usize {
        match rows {
            [row, rest @ ..] => (row.position == position) as usize + in_rows(rest, position),
            [] => 0,
        }
    }
    match families {
        [first, rest @ ..] => in_rows(first, position) + taken(rest, position),
        [] => 0,
    }
}

/// Is each position from 1 to `count` taken by exactly one row of
/// `families`? With `count` rows, then every row has its own position.
const fn each_position_once(families: &[&[Shipped]], count: usize) -> bool {
    let mut position = 1;
    while position <= count {
        if taken(families, position) != 1 {
            return false;
        }
        position += 1;
    }
    true
}

/// The row of `families` at `position`, if one is.
const fn at(families: &'static [&'static [Shipped]], position: usize) -> Option<&'static Shipped> {
    const fn in_rows(rows: &'static [Shipped], position: usize) -> Option<&'static Shipped> {
        match rows {
            [row, rest @ ..] => {
                if row.position == position {
                    Some(row)
                } else {
                    in_rows(rest, position)
                }
            }
            [] => None,
        }
    }
    match families {
        [first, rest @ ..] => match in_rows(first, position) {
            Some(row) => Some(row),
            None => at(rest, position),
        },
        [] => None,
    }
}

/// The `N` rows of `families` in the order of their positions (checked by
/// [`each_position_once`]).
const fn in_order<const N: usize>(families: &'static [&'static [Shipped]]) -> [Shipped; N] {
    const NONE: Shipped = Shipped::new("", &[], &[], &[], "");
    let mut rows = [NONE; N];
    let mut rest: &mut [Shipped] = &mut rows;
    let mut position = 1;
    // `{ rest }` moves the slice into the pattern, so that `rest` can take
    // its tail.
    while let [slot, tail @ ..] = { rest } {
        if let Some(row) = at(families, position) {
            *slot = *row;
        }
        rest = tail;
        position += 1;
    }
    rows
}
