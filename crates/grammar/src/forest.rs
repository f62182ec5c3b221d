//! The parser a grammar compiles to, and the readings of an input.
//!
//! A [`Parser`] is a grammar compiled from a start rule, with the rules whose
//! spans the caller wants ("tracked" rules). [`Parser::parse`] builds the
//! chart; [`Forest::readings`] walks every derivation in it and keeps, for
//! each, only the tracked rules' nodes: a [`Reading`]. Derivations that
//! differ only below the tracked rules give the same reading, so the
//! readings are exactly the ways the input's tracked spans can be read.
//!
//! The walk is memoised per `(rule, start, end)`, and a nonterminal below
//! which no tracked rule can appear is not walked at all (its completion in
//! the chart is enough), so long runs of path characters cost nothing here.
//!
//! A grammar with a cycle of rules over one span (`a = b`, `b = a / "x"`)
//! has infinitely many derivations of that span; the walk does not go round
//! such a cycle, so it reports the readings of the derivations that do not
//! repeat a rule over the same span. Neither RFC grammar has such a cycle.

use std::cmp::Reverse;
use std::fmt;
use std::ops::Range;
use std::rc::Rc;

use crate::cfg::{Cfg, Sym};
use crate::earley::{self, Chart, Limits, ParseError};
use crate::fxhash::IntMap;
use crate::syntax::{Grammar, GrammarError};

/// A grammar compiled for parsing from one start rule.
///
/// A `Parser` is immutable and `Sync`: build it once, parse from any thread.
#[derive(Clone, Debug)]
pub struct Parser {
    cfg: Cfg,
    start: String,
    limits: Limits,
}

impl Grammar {
    /// Compiles the grammar for parsing from `start`, reporting the spans of
    /// the rules named in `tracked`. Both must be rules of the grammar.
    pub fn parser(&self, start: &str, tracked: &[&str]) -> Result<Parser, GrammarError> {
        Ok(Parser {
            cfg: Cfg::compile(self, start, tracked)?,
            start: start.to_owned(),
            limits: Limits::default(),
        })
    }
}

impl Parser {
    /// The same parser with other limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits each parse runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The start rule.
    pub fn start(&self) -> &str {
        &self.start
    }

    /// The tracked rules that can appear in a reading.
    pub fn tracked(&self) -> impl Iterator<Item = &str> {
        self.cfg
            .nts
            .iter()
            .filter(|n| n.tracked)
            .filter_map(|n| n.rule.as_deref())
    }

    /// Parses `input` from the start rule: the forest of its readings, or
    /// why there is none.
    pub fn parse(&self, input: &[u8]) -> Result<Forest<'_>, ParseError> {
        let chart = earley::recognise(&self.cfg, input, &self.limits)?;
        Ok(Forest {
            parser: self,
            input: input.into(),
            chart,
        })
    }

    /// Every reading of `input`: `parse` then [`Forest::readings`].
    pub fn readings(&self, input: &[u8]) -> Result<Vec<Reading<'_>>, ParseError> {
        self.parse(input)?.readings()
    }
}

/// The parse forest of an accepted input: the chart, shared by every
/// derivation, from which [`Forest::readings`] reads them.
#[derive(Debug)]
pub struct Forest<'p> {
    parser: &'p Parser,
    input: Box<[u8]>,
    chart: Chart,
}

/// One node of a reading: a tracked rule and the bytes it matched.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node<'p> {
    /// Byte offset where the rule's match starts.
    pub start: usize,
    /// Byte offset where it ends (exclusive).
    pub end: usize,
    /// The rule's name as the grammar spells it.
    pub rule: &'p str,
}

impl Node<'_> {
    /// The node's span.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// One reading of an input: the tracked rules' nodes of one derivation,
/// ordered by start, then longest first, then by rule name (nodes of one
/// span are not ordered by nesting). An empty node (`start == end`) is a
/// rule that matched the empty string: present, not absent.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reading<'p> {
    nodes: Vec<Node<'p>>,
}

impl<'p> Reading<'p> {
    /// Every node, in order.
    pub fn nodes(&self) -> &[Node<'p>] {
        &self.nodes
    }

    /// The span of the first node of `rule`, or `None` when the rule does
    /// not appear in this reading.
    pub fn get(&self, rule: &str) -> Option<Range<usize>> {
        self.all(rule).next()
    }

    /// The spans of every node of `rule`, in order.
    pub fn all<'a>(&'a self, rule: &'a str) -> impl Iterator<Item = Range<usize>> + 'a {
        self.nodes
            .iter()
            .filter(move |n| n.rule == rule)
            .map(Node::span)
    }

    /// Does `rule` appear in this reading?
    pub fn has(&self, rule: &str) -> bool {
        self.nodes.iter().any(|n| n.rule == rule)
    }
}

impl fmt::Display for Reading<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .nodes
            .iter()
            .map(|n| format!("{}@{}..{}", n.rule, n.start, n.end))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

/// A reading while it is built: `(nonterminal, start, end)` of each tracked
/// node, sorted by start, then longest first, then nonterminal.
type Proj = Vec<(u32, u32, u32)>;
type Projs = Rc<Vec<Proj>>;

impl<'p> Forest<'p> {
    /// The input.
    pub fn input(&self) -> &[u8] {
        &self.input
    }

    /// How many chart items the parse built (a measure of its work).
    pub fn chart_items(&self) -> usize {
        self.chart.len()
    }

    /// Every reading of the input, in a stable order. One reading means the
    /// tracked spans are unambiguous; several are the ambiguity itself.
    pub fn readings(&self) -> Result<Vec<Reading<'p>>, ParseError> {
        let cfg = &self.parser.cfg;
        let limits = self.parser.limits;
        let mut walk = Walk {
            forest: self,
            cfg,
            limits,
            memo_nt: IntMap::default(),
            memo_seq: IntMap::default(),
            memo_empty: IntMap::default(),
        };
        let n = u32::try_from(self.input.len()).unwrap_or(u32::MAX);
        let projs = if n == 0 {
            walk.empty(cfg.start, 0)?
        } else {
            walk.nt(cfg.start, 0, n, 0)?
        };
        let mut out: Vec<Reading<'p>> = projs
            .iter()
            .map(|proj| Reading {
                nodes: proj
                    .iter()
                    .filter_map(|&(nt, start, end)| {
                        let rule = self.parser.cfg.nt(nt)?.rule.as_deref()?;
                        Some(Node {
                            start: usize::try_from(start).ok()?,
                            end: usize::try_from(end).ok()?,
                            rule,
                        })
                    })
                    .collect(),
            })
            .collect();
        for r in &mut out {
            r.nodes.sort_by(|a, b| {
                (a.start, Reverse(a.end), a.rule).cmp(&(b.start, Reverse(b.end), b.rule))
            });
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

struct Walk<'f, 'p> {
    forest: &'f Forest<'p>,
    cfg: &'f Cfg,
    limits: Limits,
    memo_nt: IntMap<(u32, u32, u32), Projs>,
    memo_seq: IntMap<(u32, u32, u32), Projs>,
    /// Per nonterminal, the sets of tracked nonterminals of its empty
    /// derivations (the same at every position).
    memo_empty: IntMap<u32, Rc<Vec<Vec<u32>>>>,
}

fn one_empty() -> Projs {
    Rc::new(vec![Vec::new()])
}

impl Walk<'_, '_> {
    fn deeper(&self, depth: usize) -> Result<usize, ParseError> {
        if depth >= self.limits.max_depth {
            return Err(ParseError::TooDeep {
                limit: self.limits.max_depth,
            });
        }
        Ok(depth + 1)
    }

    /// Every pairing of a reading from `a` with one from `b`.
    fn product(&self, a: &[Proj], b: &[Proj]) -> Result<Vec<Proj>, ParseError> {
        let mut out = Vec::with_capacity(a.len() * b.len());
        for x in a {
            for y in b {
                let mut m = Vec::with_capacity(x.len() + y.len());
                m.extend_from_slice(x);
                m.extend_from_slice(y);
                m.sort_by_key(|&(nt, s, e)| (s, Reverse(e), nt));
                m.dedup();
                out.push(m);
            }
        }
        self.settle(out)
    }

    fn settle(&self, mut v: Vec<Proj>) -> Result<Vec<Proj>, ParseError> {
        v.sort();
        v.dedup();
        if v.len() > self.limits.max_readings {
            return Err(ParseError::TooManyReadings {
                limit: self.limits.max_readings,
            });
        }
        Ok(v)
    }

    /// The tracked nonterminals of each empty derivation of `nt`.
    fn empty_sets(&mut self, nt: u32) -> Result<Rc<Vec<Vec<u32>>>, ParseError> {
        if let Some(m) = self.memo_empty.get(&nt) {
            return Ok(Rc::clone(m));
        }
        let Some(info) = self.cfg.nt(nt) else {
            return Ok(Rc::new(Vec::new()));
        };
        if !info.nullable {
            return Ok(Rc::new(Vec::new()));
        }
        if !info.has_tracked {
            return Ok(Rc::new(vec![Vec::new()]));
        }
        // A cycle of empty derivations adds nothing: while `nt` is being
        // looked at, it has none.
        self.memo_empty.insert(nt, Rc::new(Vec::new()));
        let mut all: Vec<Vec<u32>> = Vec::new();
        for &p in &info.prods {
            let Some(prod) = self.cfg.prod(p) else {
                continue;
            };
            let mut acc: Vec<Vec<u32>> = vec![Vec::new()];
            for s in &prod.rhs {
                let Sym::N(x) = *s else {
                    acc.clear();
                    break;
                };
                let sets = self.empty_sets(x)?;
                let mut next = Vec::new();
                for a in &acc {
                    for b in sets.iter() {
                        let mut m = a.clone();
                        m.extend_from_slice(b);
                        next.push(m);
                    }
                }
                acc = next;
                if acc.is_empty() {
                    break;
                }
            }
            all.extend(acc);
        }
        if info.tracked {
            for a in &mut all {
                a.push(nt);
            }
        }
        for a in &mut all {
            a.sort_unstable();
            a.dedup();
        }
        all.sort();
        all.dedup();
        if all.len() > self.limits.max_readings {
            return Err(ParseError::TooManyReadings {
                limit: self.limits.max_readings,
            });
        }
        let rc = Rc::new(all);
        self.memo_empty.insert(nt, Rc::clone(&rc));
        Ok(rc)
    }

    /// The readings of an empty derivation of `nt` at position `at`.
    fn empty(&mut self, nt: u32, at: u32) -> Result<Projs, ParseError> {
        let sets = self.empty_sets(nt)?;
        let v: Vec<Proj> = sets
            .iter()
            .map(|s| {
                let mut p: Proj = s.iter().map(|&x| (x, at, at)).collect();
                p.sort_by_key(|&(x, s, e)| (s, Reverse(e), x));
                p
            })
            .collect();
        Ok(Rc::new(self.settle(v)?))
    }

    /// The readings of `nt` deriving the non-empty span `i..j`, which the
    /// chart holds as a completion.
    fn nt(&mut self, nt: u32, i: u32, j: u32, depth: usize) -> Result<Projs, ParseError> {
        let Some(info) = self.cfg.nt(nt) else {
            return Ok(Rc::new(Vec::new()));
        };
        if !info.has_tracked {
            return Ok(one_empty());
        }
        if let Some(m) = self.memo_nt.get(&(nt, i, j)) {
            return Ok(Rc::clone(m));
        }
        let depth = self.deeper(depth)?;
        // A cycle of rules over one span (`c = c / "a"`) adds no reading
        // the way round does not: while `nt` is being walked it has none.
        self.memo_nt.insert((nt, i, j), Rc::new(Vec::new()));
        let ju = usize::try_from(j).unwrap_or(usize::MAX);
        let mut all = Vec::new();
        for &p in &info.prods {
            let Some(prod) = self.cfg.prod(p) else {
                continue;
            };
            let len = u32::try_from(prod.rhs.len()).unwrap_or(u32::MAX);
            if len == 0 || !self.forest.chart.has(ju, prod.dotted + len, i) {
                continue;
            }
            let r = self.seq(p, len, i, j, depth)?;
            all.extend(r.iter().cloned());
        }
        if info.tracked {
            for a in &mut all {
                a.push((nt, i, j));
                a.sort_by_key(|&(x, s, e)| (s, Reverse(e), x));
            }
        }
        let rc = Rc::new(self.settle(all)?);
        self.memo_nt.insert((nt, i, j), Rc::clone(&rc));
        Ok(rc)
    }

    /// The readings of the first `d` symbols of production `p` deriving
    /// `i..j` (with `i < j`, or `d == 0`).
    fn seq(&mut self, p: u32, d: u32, i: u32, j: u32, depth: usize) -> Result<Projs, ParseError> {
        if d == 0 {
            return Ok(if i == j {
                one_empty()
            } else {
                Rc::new(Vec::new())
            });
        }
        let Some(prod) = self.cfg.prod(p) else {
            return Ok(Rc::new(Vec::new()));
        };
        let dotted = prod.dotted + d;
        if let Some(m) = self.memo_seq.get(&(dotted, i, j)) {
            return Ok(Rc::clone(m));
        }
        let du = usize::try_from(d).unwrap_or(0);
        // The callers have found this prefix in the chart: when no tracked
        // rule can appear in it, its one reading has no nodes.
        let opaque = |s: &Sym| match *s {
            Sym::T(_) => true,
            Sym::N(x) => self.cfg.nt(x).is_some_and(|n| !n.has_tracked),
        };
        if prod.rhs.get(..du).is_some_and(|r| r.iter().all(opaque)) {
            return Ok(one_empty());
        }
        let depth = self.deeper(depth)?;
        let prefix = prod.rhs.get(..du - 1).unwrap_or_default().to_vec();
        let Some(&last) = prod.rhs.get(du - 1) else {
            return Ok(Rc::new(Vec::new()));
        };
        // Where the last symbol can start.
        let mut splits: Vec<u32> = Vec::new();
        match last {
            Sym::T(t) => {
                let b = j
                    .checked_sub(1)
                    .and_then(|k| self.forest.input.get(usize::try_from(k).ok()?).copied());
                if j > i && b.is_some_and(|b| self.cfg.terminal(t).contains(b)) {
                    splits.push(j - 1);
                }
            }
            Sym::N(x) => {
                let ju = usize::try_from(j).unwrap_or(usize::MAX);
                splits.extend(self.forest.chart.origins(ju, x).filter(|&k| k >= i));
                if self.cfg.nt(x).is_some_and(|n| n.nullable) {
                    splits.push(j);
                }
            }
        }
        let prefix_nullable = prefix
            .iter()
            .all(|s| matches!(*s, Sym::N(x) if self.cfg.nt(x).is_some_and(|n| n.nullable)));
        let mut all = Vec::new();
        for k in splits {
            let ku = usize::try_from(k).unwrap_or(usize::MAX);
            let before = if k == i {
                if !prefix_nullable {
                    continue;
                }
                // Every symbol before the last derives the empty string at i.
                let mut acc = one_empty();
                for s in &prefix {
                    let Sym::N(x) = *s else { continue };
                    let e = self.empty(x, i)?;
                    acc = Rc::new(self.product(&acc, &e)?);
                }
                acc
            } else if self.forest.chart.has(ku, prod.dotted + d - 1, i) {
                self.seq(p, d - 1, i, k, depth)?
            } else {
                continue;
            };
            if before.is_empty() {
                continue;
            }
            let here = match last {
                Sym::T(_) => one_empty(),
                Sym::N(x) if k == j => self.empty(x, j)?,
                Sym::N(x) => self.nt(x, k, j, depth)?,
            };
            all.extend(self.product(&before, &here)?);
        }
        let rc = Rc::new(self.settle(all)?);
        self.memo_seq.insert((dotted, i, j), Rc::clone(&rc));
        Ok(rc)
    }
}
