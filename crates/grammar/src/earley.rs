//! The Earley recogniser over bytes, with one byte of lookahead on
//! prediction and nullable rules handled as Aycock and Horspool describe
//! ("Practical Earley Parsing", 2002): predicting a nullable nonterminal also
//! moves the dot over it, so an empty derivation never needs a completion.
//!
//! The chart keeps every item, every non-empty completion `(rule, start,
//! end)` and, per finished set, the items waiting on each nonterminal. That
//! is the whole parse forest in shared form: [`crate::Forest`] reads every
//! derivation out of it.

use std::fmt;

use crate::byteset::ByteSet;
use crate::cfg::{Cfg, Sym};
use crate::fxhash::{IntMap, IntSet};

/// Bounds on the work and memory of one parse. Each bound that is reached is
/// an error, never a silent cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest input, in bytes (default 16 KiB; at most 2^20 - 1, the most
    /// the chart's keys address).
    pub max_input: usize,
    /// Most chart items (default 1 000 000). An item costs about 60 bytes
    /// across the chart's tables, so the default bounds a parse to roughly
    /// 60 MB; the RFC grammars use 5 to 30 items per input byte.
    pub max_items: usize,
    /// Most distinct readings one node of the forest may have (default 64).
    pub max_readings: usize,
    /// Deepest nesting of rules the reading walk follows (default 512): a
    /// tracked rule inside a repetition costs one level per repetition.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input: 16 * 1024,
            max_items: 1_000_000,
            max_readings: 64,
            max_depth: 512,
        }
    }
}

/// The most input positions the chart's item keys can address.
pub(crate) const MAX_POSITIONS: usize = (1 << 20) - 1;

/// Why an input has no reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The input is not in the language of the start rule. `index` is the
    /// first byte no reading can take (the input length when the input ends
    /// too early); `expected` is what some reading could take there, and
    /// `rules` names the grammar rules that were under way.
    Rejected {
        /// Byte offset of the first offending byte, or the input length.
        index: usize,
        /// The byte found there (`None` at the end of the input).
        found: Option<u8>,
        /// The bytes that could continue some reading at `index`.
        expected: ByteSet,
        /// Grammar rules under way at `index` (at most eight).
        rules: Vec<String>,
    },
    /// The input is longer than [`Limits::max_input`].
    TooLong {
        /// The input's length.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// The chart grew past [`Limits::max_items`].
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// A node of the forest has more than [`Limits::max_readings`] readings.
    TooManyReadings {
        /// The limit.
        limit: usize,
    },
    /// The reading walk nested deeper than [`Limits::max_depth`].
    TooDeep {
        /// The limit.
        limit: usize,
    },
}

impl ParseError {
    /// For a rejection, the byte offset of the first offending byte.
    pub fn index(&self) -> Option<usize> {
        match self {
            ParseError::Rejected { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// Is this a rejection of the input (rather than a limit reached)?
    pub fn is_rejection(&self) -> bool {
        matches!(self, ParseError::Rejected { .. })
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Rejected {
                index,
                found,
                expected,
                rules,
            } => {
                match found {
                    Some(b) if b.is_ascii_graphic() => {
                        write!(f, "byte {index} ({:?}) is not allowed here", char::from(*b))?
                    }
                    Some(b) => write!(f, "byte {index} (%x{b:02X}) is not allowed here")?,
                    None => write!(f, "the input ends too early, at {index}")?,
                }
                if expected.is_empty() {
                    f.write_str("; nothing may follow")?;
                } else {
                    write!(f, "; expected {expected}")?;
                }
                if !rules.is_empty() {
                    write!(
                        f,
                        " (in {})",
                        rules
                            .iter()
                            .map(|r| format!("`{r}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )?;
                }
                Ok(())
            }
            ParseError::TooLong { len, limit } => {
                write!(
                    f,
                    "input of {len} bytes is longer than the limit of {limit}"
                )
            }
            ParseError::TooManyItems { limit } => {
                write!(f, "the parse needs more than {limit} chart items")
            }
            ParseError::TooManyReadings { limit } => {
                write!(f, "a part of the input has more than {limit} readings")
            }
            ParseError::TooDeep { limit } => {
                write!(f, "the readings nest deeper than {limit} rules")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Item key: position (20 bits), origin (20 bits), dotted rule (24 bits).
pub(crate) fn item_key(pos: usize, dotted: u32, origin: u32) -> u64 {
    ((pos as u64) << 44) | (u64::from(origin) << 24) | u64::from(dotted)
}

/// `(end, nonterminal)` key of the completion and waiting tables.
pub(crate) fn pair_key(pos: usize, nt: u32) -> u64 {
    ((pos as u64) << 32) | u64::from(nt)
}

/// An Earley item: a dotted rule and where its production started.
pub(crate) type Item = (u32, u32);

/// The chart of one parse.
#[derive(Debug)]
pub(crate) struct Chart {
    /// Every item, by [`item_key`].
    seen: IntSet<u64>,
    /// Origins of the non-empty completions of a nonterminal ending at a
    /// position.
    completions: IntMap<u64, Vec<u32>>,
    items: usize,
}

impl Chart {
    /// Is the item in the set at `pos`?
    pub(crate) fn has(&self, pos: usize, dotted: u32, origin: u32) -> bool {
        self.seen.contains(&item_key(pos, dotted, origin))
    }

    /// Where the non-empty derivations of `nt` that end at `end` start.
    pub(crate) fn origins(&self, end: usize, nt: u32) -> &[u32] {
        self.completions
            .get(&pair_key(end, nt))
            .map_or(&[], Vec::as_slice)
    }

    /// How many items the chart holds.
    pub(crate) fn len(&self) -> usize {
        self.items
    }
}

/// Adds an item to a set unless it is there.
fn add(
    sets: &mut [Vec<Item>],
    seen: &mut IntSet<u64>,
    items: &mut usize,
    max: usize,
    pos: usize,
    item: Item,
) -> Result<(), ParseError> {
    if seen.insert(item_key(pos, item.0, item.1)) {
        *items += 1;
        if *items > max {
            return Err(ParseError::TooManyItems { limit: max });
        }
        if let Some(set) = sets.get_mut(pos) {
            set.push(item);
        }
    }
    Ok(())
}

/// Runs the recogniser. `Ok` holds the chart when the input derives from the
/// start rule.
pub(crate) fn recognise(cfg: &Cfg, input: &[u8], limits: &Limits) -> Result<Chart, ParseError> {
    let limit = limits.max_input.min(MAX_POSITIONS);
    if input.len() > limit {
        return Err(ParseError::TooLong {
            len: input.len(),
            limit,
        });
    }
    let n = input.len();
    let max = limits.max_items;
    let mut sets: Vec<Vec<Item>> = vec![Vec::new(); n + 1];
    let mut seen = IntSet::default();
    let mut completions: IntMap<u64, Vec<u32>> = IntMap::default();
    let mut completed = IntSet::default();
    let mut waiting: IntMap<u64, Vec<Item>> = IntMap::default();
    let mut items = 0usize;
    // The position + 1 at which each nonterminal was last predicted.
    let mut predicted = vec![0usize; cfg.nts.len()];

    // Set 0: the start rule's productions that can begin with the first byte.
    if let (Some(start), Some(&b)) = (cfg.nt(cfg.start), input.first()) {
        for &p in &start.prods {
            if let Some(prod) = cfg.prod(p) {
                if prod.first.contains(b) {
                    add(&mut sets, &mut seen, &mut items, max, 0, (prod.dotted, 0))?;
                }
            }
        }
    }
    let mut furthest = 0;
    for k in 0..=n {
        let next_byte = input.get(k).copied();
        let mut i = 0;
        while let Some(&(dr, origin)) = sets.get(k).and_then(|s| s.get(i)) {
            i += 1;
            let Some(d) = cfg.dotted(dr) else { continue };
            match d.next {
                Some(Sym::T(t)) => {
                    if next_byte.is_some_and(|b| cfg.terminal(t).contains(b)) {
                        add(
                            &mut sets,
                            &mut seen,
                            &mut items,
                            max,
                            k + 1,
                            (dr + 1, origin),
                        )?;
                    }
                }
                Some(Sym::N(nt)) => {
                    let Some(info) = cfg.nt(nt) else { continue };
                    if let Some(b) = next_byte {
                        let slot = predicted.get_mut(usize::try_from(nt).unwrap_or(usize::MAX));
                        if let Some(slot) = slot.filter(|s| **s != k + 1) {
                            *slot = k + 1;
                            for &p in &info.prods {
                                if let Some(prod) = cfg.prod(p) {
                                    if prod.first.contains(b) {
                                        let k32 = u32::try_from(k).unwrap_or(u32::MAX);
                                        add(
                                            &mut sets,
                                            &mut seen,
                                            &mut items,
                                            max,
                                            k,
                                            (prod.dotted, k32),
                                        )?;
                                    }
                                }
                            }
                        }
                    }
                    if info.nullable {
                        add(&mut sets, &mut seen, &mut items, max, k, (dr + 1, origin))?;
                    }
                }
                None => {
                    let origin_pos = usize::try_from(origin).unwrap_or(usize::MAX);
                    // An empty derivation is covered by `nullable`.
                    if origin_pos >= k {
                        continue;
                    }
                    let Some(lhs) = cfg.prod(d.prod).map(|p| p.lhs) else {
                        continue;
                    };
                    if !completed.insert(item_key(k, lhs, origin)) {
                        continue;
                    }
                    completions
                        .entry(pair_key(k, lhs))
                        .or_default()
                        .push(origin);
                    if let Some(parents) = waiting.get(&pair_key(origin_pos, lhs)) {
                        for &(pdr, porigin) in parents {
                            add(&mut sets, &mut seen, &mut items, max, k, (pdr + 1, porigin))?;
                        }
                    }
                }
            }
        }
        // Set k is finished: index its items by the nonterminal they wait on.
        if let Some(set) = sets.get(k) {
            if !set.is_empty() {
                furthest = k;
            }
            for &(dr, origin) in set {
                if let Some(Sym::N(nt)) = cfg.dotted(dr).and_then(|d| d.next) {
                    waiting
                        .entry(pair_key(k, nt))
                        .or_default()
                        .push((dr, origin));
                }
            }
        }
        if k < n && sets.get(k + 1).is_none_or(Vec::is_empty) {
            break;
        }
    }
    let accepted = match cfg.nt(cfg.start) {
        Some(start) if n == 0 => start.nullable,
        Some(_) => completions
            .get(&pair_key(n, cfg.start))
            .is_some_and(|o| o.contains(&0)),
        None => false,
    };
    if !accepted {
        return Err(rejection(cfg, input, &sets, furthest));
    }
    Ok(Chart {
        seen,
        completions,
        items,
    })
}

/// The error for an input the chart does not accept: the furthest position
/// any reading reached, what could have followed there, and in which rules.
fn rejection(cfg: &Cfg, input: &[u8], sets: &[Vec<Item>], furthest: usize) -> ParseError {
    let mut expected = ByteSet::EMPTY;
    let mut rules: Vec<String> = Vec::new();
    // The start rule's own first bytes count at position 0 (set 0 holds
    // only what the first byte allowed).
    if furthest == 0 {
        if let Some(start) = cfg.nt(cfg.start) {
            expected = expected.union(&start.first);
            if let Some(name) = &start.rule {
                rules.push(name.clone());
            }
        }
    }
    for &(dr, _) in sets.get(furthest).map_or(&[][..], Vec::as_slice) {
        let Some(d) = cfg.dotted(dr) else { continue };
        let Some(next) = d.next else { continue };
        expected = expected.union(&match next {
            Sym::T(t) => cfg.terminal(t),
            Sym::N(nt) => cfg.nt(nt).map_or(ByteSet::EMPTY, |x| x.first),
        });
        let lhs = cfg.prod(d.prod).map_or(0, |p| p.lhs);
        if let Some(name) = cfg.owner_name(lhs) {
            if !rules.iter().any(|r| r == name) {
                rules.push(name.to_owned());
            }
        }
    }
    // Predicted items come after the items that predicted them: the last
    // rules are the innermost.
    if rules.len() > 8 {
        rules.drain(..rules.len() - 8);
    }
    // A byte that was read at `furthest` would have made a set after it:
    // the offending byte is the one at `furthest` (or the end).
    ParseError::Rejected {
        index: furthest,
        found: input.get(furthest).copied(),
        expected,
        rules,
    }
}
