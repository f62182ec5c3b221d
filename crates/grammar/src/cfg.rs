//! Compiles a [`Grammar`] into the plain context-free form the Earley
//! parser runs: nonterminals, productions of symbols, terminals as byte sets.
//!
//! - Each grammar rule reachable from the start rule is a nonterminal;
//!   groups, options and repetitions get auxiliary nonterminals, each owned
//!   by the rule it was written in (for error messages).
//! - `*x` becomes the **left-recursive** `S = S x / ε`: Earley parses left
//!   recursion in constant work per repetition, where right recursion would
//!   pile up one open item per character (quadratic on a 4 KiB path).
//! - A rule whose language is single characters (`unreserved`, `ALPHA`,
//!   `sub-delims` ...) is folded into one terminal, and the single-character
//!   alternatives of a rule are merged into one: `pchar` becomes
//!   `[set] / pct-encoded`. A run of path characters is then one scan and one
//!   completion per byte. Rules the caller tracks are never folded: their
//!   spans are reported.

use std::collections::HashMap;

use crate::byteset::ByteSet;
use crate::syntax::{Expr, Grammar, GrammarError};

/// A symbol of a production.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Sym {
    /// A terminal: index into [`Cfg::terminals`].
    T(u32),
    /// A nonterminal: index into [`Cfg::nts`].
    N(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct Nt {
    /// The grammar rule this nonterminal is, if it is one.
    pub(crate) rule: Option<String>,
    /// The grammar rule it was written in (itself for a rule).
    pub(crate) owner: u32,
    pub(crate) tracked: bool,
    pub(crate) prods: Vec<u32>,
    pub(crate) nullable: bool,
    /// The bytes a non-empty derivation can start with.
    pub(crate) first: ByteSet,
    /// Whether a tracked rule can appear below it (or it is tracked).
    pub(crate) has_tracked: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Prod {
    pub(crate) lhs: u32,
    pub(crate) rhs: Vec<Sym>,
    /// Index of the dotted rule with the dot before the first symbol; the
    /// dotted rule with the dot after symbol `d` is `dotted + d`.
    pub(crate) dotted: u32,
    pub(crate) first: ByteSet,
}

/// A dotted rule `lhs = a . b`: a production and a dot position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dotted {
    pub(crate) prod: u32,
    /// The symbol after the dot, `None` when the production is complete.
    pub(crate) next: Option<Sym>,
}

/// The compiled grammar.
#[derive(Clone, Debug)]
pub(crate) struct Cfg {
    pub(crate) nts: Vec<Nt>,
    pub(crate) prods: Vec<Prod>,
    pub(crate) terminals: Vec<ByteSet>,
    pub(crate) dotted: Vec<Dotted>,
    pub(crate) start: u32,
}

/// The largest number of dotted rules the chart's item keys can address.
pub(crate) const MAX_DOTTED: usize = 1 << 24;

struct Builder<'g> {
    g: &'g Grammar,
    tracked: Vec<bool>,
    nts: Vec<Nt>,
    prods: Vec<(u32, Vec<Sym>)>,
    terminals: Vec<ByteSet>,
    terminal_ids: HashMap<ByteSet, u32>,
    rule_nt: HashMap<usize, u32>,
    rule_class: HashMap<usize, Option<ByteSet>>,
    pending: Vec<usize>,
}

impl Cfg {
    /// Compiles `g` from `start`, reporting the spans of the rules in
    /// `tracked`.
    pub(crate) fn compile(g: &Grammar, start: &str, tracked: &[&str]) -> Result<Cfg, GrammarError> {
        let start_rule = g.find(start).ok_or_else(|| {
            GrammarError::general(format!("start rule `{start}` is not a rule of the grammar"))
        })?;
        let mut tracked_rules = vec![false; g.rules.len()];
        for name in tracked {
            let i = g.find(name).ok_or_else(|| {
                GrammarError::general(format!(
                    "tracked rule `{name}` is not a rule of the grammar"
                ))
            })?;
            if let Some(t) = tracked_rules.get_mut(i) {
                *t = true;
            }
        }
        let mut b = Builder {
            g,
            tracked: tracked_rules,
            nts: Vec::new(),
            prods: Vec::new(),
            terminals: Vec::new(),
            terminal_ids: HashMap::new(),
            rule_nt: HashMap::new(),
            rule_class: HashMap::new(),
            pending: Vec::new(),
        };
        let start_nt = b.rule_nt(start_rule);
        while let Some(rule) = b.pending.pop() {
            b.compile_rule(rule)?;
        }
        b.finish(start_nt)
    }
}

impl Builder<'_> {
    fn rule_def(&self, rule: usize) -> Result<&crate::syntax::RuleDef, GrammarError> {
        self.g
            .rules
            .get(rule)
            .ok_or_else(|| GrammarError::general("internal: rule index out of range"))
    }

    fn is_tracked(&self, rule: usize) -> bool {
        self.tracked.get(rule).copied().unwrap_or(false)
    }

    fn new_nt(&mut self, rule: Option<String>, owner: u32, tracked: bool) -> u32 {
        let id = u32::try_from(self.nts.len()).unwrap_or(u32::MAX);
        self.nts.push(Nt {
            rule,
            owner,
            tracked,
            prods: Vec::new(),
            nullable: false,
            first: ByteSet::EMPTY,
            has_tracked: false,
        });
        id
    }

    /// The nonterminal of a grammar rule, queued for compiling on first use.
    fn rule_nt(&mut self, rule: usize) -> u32 {
        if let Some(&nt) = self.rule_nt.get(&rule) {
            return nt;
        }
        let name = self.g.rules.get(rule).map(|r| r.name.clone());
        let id = u32::try_from(self.nts.len()).unwrap_or(u32::MAX);
        let nt = self.new_nt(name, id, self.is_tracked(rule));
        self.rule_nt.insert(rule, nt);
        self.pending.push(rule);
        nt
    }

    fn terminal(&mut self, set: ByteSet) -> Sym {
        if let Some(&t) = self.terminal_ids.get(&set) {
            return Sym::T(t);
        }
        let t = u32::try_from(self.terminals.len()).unwrap_or(u32::MAX);
        self.terminals.push(set);
        self.terminal_ids.insert(set, t);
        Sym::T(t)
    }

    fn add_prod(&mut self, lhs: u32, rhs: Vec<Sym>) {
        self.prods.push((lhs, rhs));
    }

    /// The set of single characters a rule's language is, if that is all
    /// it is (and the rule is not tracked).
    fn rule_class(&mut self, rule: usize) -> Option<ByteSet> {
        if self.is_tracked(rule) {
            return None;
        }
        if let Some(c) = self.rule_class.get(&rule) {
            return *c;
        }
        // A rule that refers to itself is not a plain set: mark it as not
        // foldable while it is being looked at.
        self.rule_class.insert(rule, None);
        let expr = self.g.rules.get(rule).map(|r| r.expr.clone());
        let c = expr.and_then(|e| self.expr_class(&e));
        self.rule_class.insert(rule, c);
        c
    }

    fn expr_class(&mut self, e: &Expr) -> Option<ByteSet> {
        match e {
            Expr::Class(c) => Some(*c),
            Expr::Literal(sets) => match sets.as_slice() {
                [one] => Some(*one),
                _ => None,
            },
            Expr::Alt(alts) => {
                let mut set = ByteSet::EMPTY;
                for a in alts {
                    set = set.union(&self.expr_class(a)?);
                }
                Some(set)
            }
            Expr::Seq(items) => match items.as_slice() {
                [one] => self.expr_class(one),
                _ => None,
            },
            Expr::Repeat {
                min: 1,
                max: Some(1),
                expr,
            } => self.expr_class(expr),
            Expr::Repeat { .. } => None,
            Expr::Rule(r) => self.rule_class(*r),
        }
    }

    fn compile_rule(&mut self, rule: usize) -> Result<(), GrammarError> {
        let nt = self.rule_nt(rule);
        let expr = self.rule_def(rule)?.expr.clone();
        for rhs in self.alternatives(&expr, nt)? {
            self.add_prod(nt, rhs);
        }
        Ok(())
    }

    /// The alternatives of `e` as symbol sequences, its single-character
    /// alternatives merged into one terminal.
    fn alternatives(&mut self, e: &Expr, owner: u32) -> Result<Vec<Vec<Sym>>, GrammarError> {
        if let Some(set) = self.expr_class(e) {
            return Ok(vec![vec![self.terminal(set)]]);
        }
        let Expr::Alt(alts) = e else {
            return Ok(vec![self.sequence(e, owner)?]);
        };
        let mut merged = ByteSet::EMPTY;
        let mut out = Vec::new();
        for a in alts {
            if let Some(set) = self.expr_class(a) {
                merged = merged.union(&set);
            } else {
                out.extend(self.alternatives(a, owner)?);
            }
        }
        if !merged.is_empty() {
            let t = self.terminal(merged);
            out.insert(0, vec![t]);
        }
        Ok(out)
    }

    /// `e` as one symbol: a terminal, a rule's nonterminal, or an auxiliary
    /// nonterminal holding its alternatives.
    fn symbol(&mut self, e: &Expr, owner: u32) -> Result<Sym, GrammarError> {
        if let Some(set) = self.expr_class(e) {
            return Ok(self.terminal(set));
        }
        if let Expr::Rule(r) = e {
            return Ok(Sym::N(self.rule_nt(*r)));
        }
        let aux = self.new_nt(None, owner, false);
        for rhs in self.alternatives(e, owner)? {
            self.add_prod(aux, rhs);
        }
        Ok(Sym::N(aux))
    }

    fn sequence(&mut self, e: &Expr, owner: u32) -> Result<Vec<Sym>, GrammarError> {
        if let Some(set) = self.expr_class(e) {
            return Ok(vec![self.terminal(set)]);
        }
        Ok(match e {
            Expr::Seq(items) => {
                let mut out = Vec::new();
                for i in items {
                    out.extend(self.sequence(i, owner)?);
                }
                out
            }
            Expr::Literal(sets) => sets.iter().map(|s| self.terminal(*s)).collect(),
            Expr::Class(c) => vec![self.terminal(*c)],
            Expr::Rule(_) | Expr::Alt(_) => vec![self.symbol(e, owner)?],
            Expr::Repeat { min, max, expr } => {
                if *max == Some(0) {
                    return Ok(Vec::new());
                }
                let x = self.symbol(expr, owner)?;
                let mut out = vec![x; usize::try_from(*min).unwrap_or(0)];
                match max {
                    None => out.push(self.star(x, owner)),
                    Some(m) if m > min => out.push(self.at_most(x, m - min, owner)),
                    Some(_) => {}
                }
                out
            }
        })
    }

    /// `*x` as `S = S x / ε`; one per use, so that an error names the rule
    /// the repetition is written in.
    fn star(&mut self, x: Sym, owner: u32) -> Sym {
        let s = self.new_nt(None, owner, false);
        self.add_prod(s, Vec::new());
        self.add_prod(s, vec![Sym::N(s), x]);
        Sym::N(s)
    }

    /// Up to `k` repetitions of `x`: `O = S x / ε` with `S` up to `k - 1`.
    fn at_most(&mut self, x: Sym, k: u32, owner: u32) -> Sym {
        let mut prev: Option<Sym> = None;
        for _ in 0..k {
            let o = self.new_nt(None, owner, false);
            self.add_prod(o, Vec::new());
            let rhs = match prev {
                Some(p) => vec![p, x],
                None => vec![x],
            };
            self.add_prod(o, rhs);
            prev = Some(Sym::N(o));
        }
        prev.unwrap_or(x)
    }

    fn finish(mut self, start: u32) -> Result<Cfg, GrammarError> {
        let mut prods = Vec::with_capacity(self.prods.len());
        let mut dotted = Vec::new();
        for (i, (lhs, rhs)) in self.prods.into_iter().enumerate() {
            let id = u32::try_from(i).unwrap_or(u32::MAX);
            if let Some(nt) = self.nts.get_mut(usize::try_from(lhs).unwrap_or(usize::MAX)) {
                nt.prods.push(id);
            }
            let base = u32::try_from(dotted.len()).unwrap_or(u32::MAX);
            for dot in 0..=rhs.len() {
                dotted.push(Dotted {
                    prod: id,
                    next: rhs.get(dot).copied(),
                });
            }
            prods.push(Prod {
                lhs,
                rhs,
                dotted: base,
                first: ByteSet::EMPTY,
            });
        }
        if dotted.len() >= MAX_DOTTED {
            return Err(GrammarError::general(format!(
                "the compiled grammar has {} dotted rules; this engine addresses fewer than {MAX_DOTTED}",
                dotted.len()
            )));
        }
        // Nullable, FIRST and "has a tracked rule below", to a fixed point.
        loop {
            let mut changed = false;
            for p in &mut prods {
                let mut nullable = true;
                let mut first = ByteSet::EMPTY;
                let mut has_tracked = false;
                for s in &p.rhs {
                    match *s {
                        Sym::T(t) => {
                            if nullable {
                                first = first.union(
                                    self.terminals
                                        .get(usize::try_from(t).unwrap_or(usize::MAX))
                                        .unwrap_or(&ByteSet::EMPTY),
                                );
                            }
                            nullable = false;
                        }
                        Sym::N(m) => {
                            let Some(m) = self.nts.get(usize::try_from(m).unwrap_or(usize::MAX))
                            else {
                                continue;
                            };
                            has_tracked |= m.has_tracked;
                            if nullable {
                                first = first.union(&m.first);
                            }
                            nullable &= m.nullable;
                        }
                    }
                }
                p.first = first;
                if let Some(l) = self
                    .nts
                    .get_mut(usize::try_from(p.lhs).unwrap_or(usize::MAX))
                {
                    let merged = l.first.union(&first);
                    let ht = l.has_tracked || has_tracked || l.tracked;
                    if merged != l.first || (nullable && !l.nullable) || ht != l.has_tracked {
                        l.first = merged;
                        l.nullable |= nullable;
                        l.has_tracked = ht;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for n in &mut self.nts {
            n.has_tracked |= n.tracked;
        }
        Ok(Cfg {
            nts: self.nts,
            prods,
            terminals: self.terminals,
            dotted,
            start,
        })
    }
}

impl Cfg {
    pub(crate) fn nt(&self, i: u32) -> Option<&Nt> {
        self.nts.get(usize::try_from(i).ok()?)
    }

    pub(crate) fn prod(&self, i: u32) -> Option<&Prod> {
        self.prods.get(usize::try_from(i).ok()?)
    }

    pub(crate) fn dotted(&self, i: u32) -> Option<&Dotted> {
        self.dotted.get(usize::try_from(i).ok()?)
    }

    pub(crate) fn terminal(&self, i: u32) -> ByteSet {
        self.terminals
            .get(usize::try_from(i).unwrap_or(usize::MAX))
            .copied()
            .unwrap_or(ByteSet::EMPTY)
    }

    /// The name of the grammar rule a nonterminal belongs to.
    pub(crate) fn owner_name(&self, i: u32) -> Option<&str> {
        let owner = self.nt(i)?.owner;
        self.nt(owner)?.rule.as_deref()
    }
}
