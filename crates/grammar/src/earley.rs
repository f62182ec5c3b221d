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
use crate::fxhash::IntSet;

/// Bounds on the work and memory of one parse. Each bound that is reached is
/// an error, never a silent cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest input, in bytes (default 16 KiB; at most 2^20 - 1, the most
    /// the chart's keys address).
    pub max_input: usize,
    /// Most chart items (default 1 000 000). An item costs at most about 30
    /// bytes across the chart's tables (8 as an item, 12 more while it
    /// waits on a rule, 8 more as a completion, amortised growth aside), so
    /// the default bounds a parse to roughly 30 MB; the RFC grammars make
    /// 10 to 35 items per input byte.
    pub max_items: usize,
    /// Most distinct readings one node of the forest may have (default 64).
    pub max_readings: usize,
    /// Deepest nesting the reading walk follows (default 512). Each rule
    /// with a tracked rule below it costs a level or two; a tracked rule
    /// inside a repetition costs about three levels per repetition, so such
    /// a grammar reaches the limit on long inputs. The RFC grammars, with
    /// the rules this crate tracks, nest at most 24 (RFC 3986) and 34
    /// (RFC 2396) levels deep, whatever the input's length.
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
        /// Grammar rules under way at `index`, innermost first (at most
        /// eight).
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

/// An Earley item: a dotted rule and where its production started.
pub(crate) type Item = (u32, u32);

/// The chart of one parse, in flat tables with one segment per input
/// position (`start[pos]..start[pos + 1]`). A segment holds a few dozen
/// entries at most for the RFC grammars, so lookups scan it.
#[derive(Debug)]
pub(crate) struct Chart {
    /// Every item, per position.
    items: Vec<Item>,
    item_start: Vec<usize>,
    /// Every non-empty completion `(nonterminal, origin)`, per end.
    done: Vec<(u32, u32)>,
    done_start: Vec<usize>,
}

/// The segment of a flat table for one position.
fn segment<'a, T>(table: &'a [T], start: &[usize], pos: usize) -> &'a [T] {
    match (start.get(pos), start.get(pos + 1)) {
        (Some(&a), Some(&b)) => table.get(a..b).unwrap_or_default(),
        _ => &[],
    }
}

impl Chart {
    /// Is the item in the set at `pos`?
    pub(crate) fn has(&self, pos: usize, dotted: u32, origin: u32) -> bool {
        segment(&self.items, &self.item_start, pos).contains(&(dotted, origin))
    }

    /// Where the non-empty derivations of `nt` that end at `end` start.
    pub(crate) fn origins(&self, end: usize, nt: u32) -> impl Iterator<Item = u32> + '_ {
        segment(&self.done, &self.done_start, end)
            .iter()
            .filter(move |&&(x, _)| x == nt)
            .map(|&(_, origin)| origin)
    }

    /// How many items the chart holds.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }
}

/// A duplicate check of `u64` keys: a scan while they are few, a hash once
/// they are many.
#[derive(Default)]
struct Keys {
    few: Vec<u64>,
    many: IntSet<u64>,
}

/// From how many keys on [`Keys`] hashes them.
const HASH_FROM: usize = 32;

impl Keys {
    /// Adds `k`; `false` when it was there.
    fn insert(&mut self, k: u64) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(k);
        }
        if self.few.contains(&k) {
            return false;
        }
        self.few.push(k);
        if self.few.len() == HASH_FROM {
            self.many.extend(self.few.drain(..));
        }
        true
    }

    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }
}

fn item_key(dotted: u32, origin: u32) -> u64 {
    (u64::from(dotted) << 32) | u64::from(origin)
}

/// The set being built at one position, with its duplicate check: per
/// dotted rule, a stamp holding the first origin seen at this position (an
/// item is nearly always alone with its dotted rule in a set), and the rare
/// further origins in [`Keys`]. Stamps carry the position + 1, so moving to
/// the next position forgets them without clearing.
struct Set {
    pos: usize,
    items: Vec<Item>,
    stamps: Vec<(usize, u32)>,
    more: Keys,
}

impl Set {
    fn new(pos: usize, dotted: usize) -> Self {
        Set {
            pos,
            items: Vec::new(),
            stamps: vec![(0, 0); dotted],
            more: Keys::default(),
        }
    }

    /// Empties the set for position `pos`.
    fn reset(&mut self, pos: usize) {
        self.pos = pos;
        self.items.clear();
        self.more.clear();
    }

    /// Adds the item unless it is there.
    fn add(&mut self, budget: &mut Budget, item: Item) -> Result<(), ParseError> {
        let Some(stamp) = self
            .stamps
            .get_mut(usize::try_from(item.0).unwrap_or(usize::MAX))
        else {
            return Ok(());
        };
        let fresh = if stamp.0 != self.pos + 1 {
            *stamp = (self.pos + 1, item.1);
            true
        } else {
            stamp.1 != item.1 && self.more.insert(item_key(item.0, item.1))
        };
        if fresh {
            budget.take()?;
            self.items.push(item);
        }
        Ok(())
    }
}

/// The item counter and its limit.
struct Budget {
    count: usize,
    max: usize,
}

impl Budget {
    fn take(&mut self) -> Result<(), ParseError> {
        self.count += 1;
        if self.count > self.max {
            return Err(ParseError::TooManyItems { limit: self.max });
        }
        Ok(())
    }
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
    let mut chart = Chart {
        // The RFC grammars make 10 to 30 items per byte.
        items: Vec::with_capacity(24 * (n + 1)),
        item_start: vec![0],
        done: Vec::new(),
        done_start: vec![0],
    };
    // Items of finished sets waiting on a nonterminal: (nonterminal, dotted
    // rule, origin), per position, sorted by nonterminal.
    let mut waiting: Vec<(u32, u32, u32)> = Vec::with_capacity(8 * (n + 1));
    let mut waiting_start: Vec<usize> = vec![0];
    let mut cur = Set::new(0, cfg.dotted.len());
    let mut next = Set::new(1, cfg.dotted.len());
    let mut done_here: Vec<(u32, u32)> = Vec::new();
    // Per nonterminal, the position + 1 and origin of its first completion
    // there; further origins in `done_more`.
    let mut done_stamps: Vec<(usize, u32)> = vec![(0, 0); cfg.nts.len()];
    let mut done_more = Keys::default();
    let mut budget = Budget { count: 0, max };
    // The position + 1 at which each nonterminal was last predicted.
    let mut predicted = vec![0usize; cfg.nts.len()];

    // Set 0: the start rule's productions that can begin with the first byte.
    if let (Some(start), Some(&b)) = (cfg.nt(cfg.start), input.first()) {
        for &p in &start.prods {
            if let Some(prod) = cfg.prod(p)
                && prod.first.contains(b)
            {
                cur.add(&mut budget, (prod.dotted, 0))?;
            }
        }
    }
    let mut furthest = 0;
    let mut furthest_set: Vec<Item> = Vec::new();
    for k in 0..=n {
        let next_byte = input.get(k).copied();
        let k32 = u32::try_from(k).unwrap_or(u32::MAX);
        let mut i = 0;
        while let Some(&(dr, origin)) = cur.items.get(i) {
            i += 1;
            let Some(d) = cfg.dotted(dr) else { continue };
            match d.next {
                Some(Sym::T(t)) => {
                    if next_byte.is_some_and(|b| cfg.terminal(t).contains(b)) {
                        next.add(&mut budget, (dr + 1, origin))?;
                    }
                }
                Some(Sym::N(nt)) => {
                    let Some(info) = cfg.nt(nt) else { continue };
                    if let Some(b) = next_byte {
                        let slot = predicted.get_mut(usize::try_from(nt).unwrap_or(usize::MAX));
                        if let Some(slot) = slot.filter(|s| **s != k + 1) {
                            *slot = k + 1;
                            for &p in &info.prods {
                                if let Some(prod) = cfg.prod(p)
                                    && prod.first.contains(b)
                                {
                                    cur.add(&mut budget, (prod.dotted, k32))?;
                                }
                            }
                        }
                    }
                    if info.nullable {
                        cur.add(&mut budget, (dr + 1, origin))?;
                    }
                }
                None => {
                    // An empty derivation is covered by `nullable`.
                    if origin >= k32 {
                        continue;
                    }
                    let Some(lhs) = cfg.prod(d.prod).map(|p| p.lhs) else {
                        continue;
                    };
                    let Some(stamp) =
                        done_stamps.get_mut(usize::try_from(lhs).unwrap_or(usize::MAX))
                    else {
                        continue;
                    };
                    let fresh = if stamp.0 != k + 1 {
                        *stamp = (k + 1, origin);
                        true
                    } else {
                        stamp.1 != origin && done_more.insert(item_key(lhs, origin))
                    };
                    if !fresh {
                        continue;
                    }
                    done_here.push((lhs, origin));
                    let origin_pos = usize::try_from(origin).unwrap_or(usize::MAX);
                    for &(x, pdr, porigin) in segment(&waiting, &waiting_start, origin_pos) {
                        if x == lhs {
                            cur.add(&mut budget, (pdr + 1, porigin))?;
                        }
                    }
                }
            }
        }
        // Set k is finished: index the items waiting on a nonterminal, and
        // keep the set and its completions for the reading walk.
        for &(dr, origin) in &cur.items {
            if let Some(Sym::N(nt)) = cfg.dotted(dr).and_then(|d| d.next) {
                waiting.push((nt, dr, origin));
            }
        }
        waiting_start.push(waiting.len());
        // Set k + 1 gets its items only from scanning in set k: when it has
        // none, set k is as far as any reading goes. Its items in the order
        // they were made name the rules under way, innermost last.
        if next.items.is_empty() {
            furthest = k;
            furthest_set.clone_from(&cur.items);
        }
        chart.items.extend_from_slice(&cur.items);
        chart.item_start.push(chart.items.len());
        chart.done.append(&mut done_here);
        done_more.clear();
        chart.done_start.push(chart.done.len());
        std::mem::swap(&mut cur, &mut next);
        next.reset(k + 2);
        if k < n && cur.items.is_empty() {
            break;
        }
    }
    let accepted = match cfg.nt(cfg.start) {
        Some(start) if n == 0 => start.nullable,
        Some(_) => chart.origins(n, cfg.start).any(|o| o == 0),
        None => false,
    };
    if !accepted {
        return Err(rejection(cfg, input, &furthest_set, furthest));
    }
    Ok(chart)
}

/// The error for an input the chart does not accept: the furthest position
/// any reading reached, what could have followed there, and in which rules.
fn rejection(cfg: &Cfg, input: &[u8], set: &[Item], furthest: usize) -> ParseError {
    let mut expected = ByteSet::EMPTY;
    // Rules under way, innermost first: an inner rule started at or after
    // the rules around it, and was predicted after them.
    let mut under_way: Vec<(u32, usize, &str)> = Vec::new();
    for (i, &(dr, origin)) in set.iter().enumerate() {
        let Some(d) = cfg.dotted(dr) else { continue };
        let Some(next) = d.next else { continue };
        expected = expected.union(&match next {
            Sym::T(t) => cfg.terminal(t),
            Sym::N(nt) => cfg.nt(nt).map_or(ByteSet::EMPTY, |x| x.first),
        });
        let lhs = cfg.prod(d.prod).map_or(0, |p| p.lhs);
        if let Some(name) = cfg.owner_name(lhs) {
            under_way.push((origin, i, name));
        }
    }
    // At position 0 the start rule's own first bytes count too (set 0
    // holds only what the first byte allowed).
    if furthest == 0
        && let Some(start) = cfg.nt(cfg.start)
    {
        expected = expected.union(&start.first);
        if let Some(name) = start.rule.as_deref() {
            under_way.push((0, 0, name));
        }
    }
    under_way.sort_by_key(|&(origin, i, _)| std::cmp::Reverse((origin, i)));
    let mut rules: Vec<String> = Vec::new();
    for (_, _, name) in under_way {
        if rules.len() == 8 {
            break;
        }
        if !rules.iter().any(|r| r == name) {
            rules.push(name.to_owned());
        }
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
