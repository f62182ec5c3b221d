//! Grammar text: the two notations the RFCs use, read into one model.
//!
//! - **ABNF** as RFC 5234 defines it (RFC 3986 section 1.3): `/` between
//!   alternatives, `*`, `m*n` and `n` repetition, `[ ]`, `( )`,
//!   case-insensitive `"literals"` (section 2.3), `%x41-5A` ranges and
//!   `%x0D.0A` sequences (section 2.4), `%s"..."` / `%i"..."` (RFC 7405), `;`
//!   comments, `=/` incremental alternatives (section 3.3), rules starting in
//!   column 0 and continued on indented lines (section 4), rule names compared
//!   case-insensitively (section 2.1). The core rules of Appendix B.1 (`ALPHA`,
//!   `DIGIT`, `HEXDIG` ...) are supplied when the grammar uses one without
//!   defining it.
//! - **BNF** as RFC 2396 section 1.6 describes it: `|` between alternatives,
//!   `*` and `n*` (and `n*m`) repetition, `[ ]`, `( )`, case-sensitive
//!   `"literals"` (Appendix A spells out both cases where it means both), `;`
//!   comments (RFC 822 section 2.8, whose notation section 1.6 names), a rule
//!   continued on the following lines, several rules on one line, and the
//!   range shorthand `"a" .. "z"` between one-character literals.
//!
//! Prose values (`<...>`) cannot be run: one is accepted only when its text
//! names a rule the grammar defines (RFC 3986 writes `path-empty = 0<pchar>`),
//! and read as that rule. In the BNF notation `<">` is the double-quote
//! character, as in RFC 822 and RFC 2396 section 2.4.3.

use std::collections::HashMap;
use std::fmt;

use crate::byteset::ByteSet;

/// The largest repetition bound the reader accepts (`1000*1000x`): each
/// repetition is compiled into grammar rules, so the bound is a size limit.
pub const MAX_REPEAT: u32 = 1000;

/// An error in grammar text, or in how a grammar is used: the line (when
/// there is one) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarError {
    line: Option<usize>,
    message: String,
}

impl GrammarError {
    pub(crate) fn at(line: usize, message: impl Into<String>) -> Self {
        GrammarError {
            line: Some(line),
            message: message.into(),
        }
    }

    pub(crate) fn general(message: impl Into<String>) -> Self {
        GrammarError {
            line: None,
            message: message.into(),
        }
    }

    /// The 1-based line of the grammar text, when the error has one.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// What went wrong and what was expected.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for GrammarError {}

/// Which notation a grammar text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// RFC 5234 ABNF (RFC 3986).
    Abnf,
    /// RFC 2396 section 1.6 BNF.
    Bnf,
}

/// A grammar expression, with rule references resolved to rule indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    /// `a / b` (ABNF), `a | b` (BNF).
    Alt(Vec<Expr>),
    /// `a b`.
    Seq(Vec<Expr>),
    /// `m*n element`; `max` is `None` for no upper bound.
    Repeat {
        min: u32,
        max: Option<u32>,
        expr: Box<Expr>,
    },
    /// A quoted string or `%x0D.0A`: one set per character (both cases of a
    /// letter where the literal is case-insensitive).
    Literal(Vec<ByteSet>),
    /// One character from a set: `%x41-5A`, `"a" .. "z"`.
    Class(ByteSet),
    /// A rule, by index into [`Grammar::rules`].
    Rule(usize),
}

/// One rule of a grammar.
#[derive(Clone, Debug)]
pub(crate) struct RuleDef {
    pub(crate) name: String,
    pub(crate) expr: Expr,
    /// Where it is defined (1-based); in the core rules' text for a core rule.
    pub(crate) line: usize,
    /// Supplied by the engine (RFC 5234 Appendix B.1), not by the text.
    pub(crate) core: bool,
}

/// A grammar read from text: its rules, every reference resolved.
///
/// ```
/// let g = grammar::Grammar::abnf("greeting = \"hi\" 1*SP name\nname = 1*ALPHA\n").unwrap();
/// let p = g.parser("greeting", &["name"]).unwrap();
/// let readings = p.readings(b"HI  Bob").unwrap();
/// assert_eq!(readings[0].get("name"), Some(4..7));
/// ```
#[derive(Clone, Debug)]
pub struct Grammar {
    pub(crate) rules: Vec<RuleDef>,
    index: HashMap<String, usize>,
    notation: Notation,
}

/// RFC 5234 Appendix B.1, "Core Rules", as that appendix writes them.
const CORE_RULES: &str = r#"ALPHA          =  %x41-5A / %x61-7A   ; A-Z / a-z
BIT            =  "0" / "1"
CHAR           =  %x01-7F
CR             =  %x0D
CRLF           =  CR LF
CTL            =  %x00-1F / %x7F
DIGIT          =  %x30-39
DQUOTE         =  %x22
HEXDIG         =  DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
HTAB           =  %x09
LF             =  %x0A
LWSP           =  *(WSP / CRLF WSP)
OCTET          =  %x00-FF
SP             =  %x20
VCHAR          =  %x21-7E
WSP            =  SP / HTAB
"#;

impl Grammar {
    /// Reads RFC 5234 ABNF. Core rules the text uses without defining are
    /// supplied as RFC 5234 Appendix B.1 defines them.
    pub fn abnf(text: &str) -> Result<Grammar, GrammarError> {
        let mut raw = read(text, Notation::Abnf)?;
        let core = read(CORE_RULES, Notation::Abnf)?;
        // Add the core rules the grammar needs, and the ones they need.
        loop {
            let wanted: Vec<String> = raw
                .undefined()
                .into_iter()
                .filter(|name| core.find(name).is_some())
                .collect();
            if wanted.is_empty() {
                break;
            }
            for name in wanted {
                if let Some(rule) = core.find(&name) {
                    let mut rule = rule.clone();
                    rule.core = true;
                    raw.push(rule);
                }
            }
        }
        raw.resolve()
    }

    /// Reads the BNF notation of RFC 2396 section 1.6. No rules are
    /// supplied: RFC 2396 Appendix A defines its own `alpha`, `digit` ...
    pub fn bnf(text: &str) -> Result<Grammar, GrammarError> {
        read(text, Notation::Bnf)?.resolve()
    }

    /// The notation the grammar was read from.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The names of the rules, in the order they are defined (core rules
    /// the engine supplied last).
    pub fn rule_names(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.name.as_str())
    }

    /// Is `name` a rule of the grammar (case-insensitively in ABNF)?
    pub fn has_rule(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// Was the rule supplied by the engine as an RFC 5234 core rule?
    pub fn is_core_rule(&self, name: &str) -> bool {
        self.find(name)
            .and_then(|i| self.rules.get(i))
            .is_some_and(|r| r.core)
    }

    /// The line of the grammar text where `name` is defined (in RFC 5234
    /// Appendix B.1's text for a core rule the engine supplied).
    pub fn rule_line(&self, name: &str) -> Option<usize> {
        self.find(name)
            .and_then(|i| self.rules.get(i))
            .map(|r| r.line)
    }

    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.index.get(&key(self.notation, name)).copied()
    }
}

/// How a rule name is compared: case-insensitively in ABNF (RFC 5234
/// section 2.1), exactly in BNF.
fn key(notation: Notation, name: &str) -> String {
    match notation {
        Notation::Abnf => name.to_ascii_lowercase(),
        Notation::Bnf => name.to_owned(),
    }
}

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Name(String),
    /// `=`
    Defined,
    /// `=/` (ABNF)
    DefinedAlt,
    /// `/` (ABNF) or `|` (BNF)
    Alt,
    Open,
    Close,
    OptOpen,
    OptClose,
    Repeat {
        min: u32,
        max: Option<u32>,
    },
    Literal(Vec<ByteSet>),
    Class(ByteSet),
    Prose(String),
    /// `..` (BNF)
    Range,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Name(n) => write!(f, "rule name `{n}`"),
            Tok::Defined => f.write_str("`=`"),
            Tok::DefinedAlt => f.write_str("`=/`"),
            Tok::Alt => f.write_str("an alternative separator"),
            Tok::Open => f.write_str("`(`"),
            Tok::Close => f.write_str("`)`"),
            Tok::OptOpen => f.write_str("`[`"),
            Tok::OptClose => f.write_str("`]`"),
            Tok::Repeat { .. } => f.write_str("a repetition prefix"),
            Tok::Literal(_) => f.write_str("a literal"),
            Tok::Class(_) => f.write_str("a character range"),
            Tok::Prose(p) => write!(f, "prose <{p}>"),
            Tok::Range => f.write_str("`..`"),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
    /// 1-based column of the token's first character.
    col: usize,
}

struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    notation: Notation,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn err(&self, message: impl Into<String>) -> GrammarError {
        GrammarError::at(
            self.line,
            format!(
                "column {}: {}",
                self.pos - self.line_start + 1,
                message.into()
            ),
        )
    }

    fn tokens(mut self) -> Result<Vec<Token>, GrammarError> {
        let mut out = Vec::new();
        while let Some(b) = self.peek() {
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                // Form feeds separate the pages of RFC text.
                b' ' | b'\t' | b'\r' | 0x0C => self.pos += 1,
                b';' => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                _ => {
                    let (line, col) = (self.line, self.pos - self.line_start + 1);
                    let tok = self.token(b)?;
                    out.push(Token { tok, line, col });
                }
            }
        }
        Ok(out)
    }

    fn token(&mut self, b: u8) -> Result<Tok, GrammarError> {
        let abnf = self.notation == Notation::Abnf;
        match b {
            b'=' => {
                self.pos += 1;
                if abnf && self.peek() == Some(b'/') {
                    self.pos += 1;
                    return Ok(Tok::DefinedAlt);
                }
                Ok(Tok::Defined)
            }
            b'/' if abnf => {
                self.pos += 1;
                Ok(Tok::Alt)
            }
            b'|' if !abnf => {
                self.pos += 1;
                Ok(Tok::Alt)
            }
            b'.' if !abnf && self.peek_at(1) == Some(b'.') => {
                self.pos += 2;
                Ok(Tok::Range)
            }
            b'(' | b')' | b'[' | b']' => {
                self.pos += 1;
                Ok(match b {
                    b'(' => Tok::Open,
                    b')' => Tok::Close,
                    b'[' => Tok::OptOpen,
                    _ => Tok::OptClose,
                })
            }
            b'"' => self.literal(!abnf),
            b'%' if abnf => self.numeric(),
            b'<' => self.prose(),
            b'0'..=b'9' | b'*' => self.repeat(),
            _ if b.is_ascii_alphabetic() => Ok(self.name()),
            _ => Err(self.err(format!(
                "unexpected character {:?}; expected a rule name, `=`, an operator, a literal or a comment",
                char::from(b)
            ))),
        }
    }

    fn name(&mut self) -> Tok {
        let start = self.pos;
        let bnf = self.notation == Notation::Bnf;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'-' || (bnf && c == b'_'))
        {
            self.pos += 1;
        }
        let name = self.bytes.get(start..self.pos).unwrap_or_default();
        Tok::Name(String::from_utf8_lossy(name).into_owned())
    }

    /// `"..."`: printable US-ASCII but `"` (RFC 5234 `char-val`).
    fn literal(&mut self, case_sensitive: bool) -> Result<Tok, GrammarError> {
        self.pos += 1;
        let mut sets = Vec::new();
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Tok::Literal(sets));
                }
                Some(c @ 0x20..=0x7E) => {
                    let set = ByteSet::single(c);
                    sets.push(if case_sensitive {
                        set
                    } else {
                        set.with_ascii_case()
                    });
                    self.pos += 1;
                }
                _ => {
                    return Err(self.err("expected the closing `\"` of a literal on the same line"));
                }
            }
        }
    }

    /// `%x41`, `%x41-5A`, `%x0D.0A`, `%d`, `%b`, and RFC 7405's `%s"..."` /
    /// `%i"..."`.
    fn numeric(&mut self) -> Result<Tok, GrammarError> {
        self.pos += 1;
        let radix = match self.peek().map(|c| c.to_ascii_lowercase()) {
            Some(b'x') => 16,
            Some(b'd') => 10,
            Some(b'b') => 2,
            Some(b's') if self.peek_at(1) == Some(b'"') => {
                self.pos += 1;
                return self.literal(true);
            }
            Some(b'i') if self.peek_at(1) == Some(b'"') => {
                self.pos += 1;
                return self.literal(false);
            }
            _ => return Err(self.err("expected `x`, `d` or `b` after `%`")),
        };
        self.pos += 1;
        let first = self.number(radix)?;
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                let last = self.number(radix)?;
                if last < first {
                    return Err(self.err("a range's end is below its start"));
                }
                Ok(Tok::Class(ByteSet::range(first, last)))
            }
            Some(b'.') => {
                let mut sets = vec![ByteSet::single(first)];
                while self.peek() == Some(b'.') {
                    self.pos += 1;
                    sets.push(ByteSet::single(self.number(radix)?));
                }
                Ok(Tok::Literal(sets))
            }
            _ => Ok(Tok::Class(ByteSet::single(first))),
        }
    }

    /// Digits of `radix` making one byte value.
    fn number(&mut self, radix: u32) -> Result<u8, GrammarError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| char::from(c).to_digit(radix)) {
            value = value.saturating_mul(radix).saturating_add(d);
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err(format!("expected a base-{radix} number")));
        }
        // The engine reads bytes: a value past 0xFF is a character it cannot match.
        u8::try_from(value)
            .map_err(|_| self.err("a character value above %xFF; the engine matches bytes"))
    }

    fn prose(&mut self) -> Result<Tok, GrammarError> {
        self.pos += 1;
        let start = self.pos;
        while self.peek().is_some_and(|c| c != b'>' && c != b'\n') {
            self.pos += 1;
        }
        if self.peek() != Some(b'>') {
            return Err(self.err("expected the closing `>` of a prose value on the same line"));
        }
        let text = String::from_utf8_lossy(self.bytes.get(start..self.pos).unwrap_or_default())
            .into_owned();
        self.pos += 1;
        // RFC 822 writes the double-quote character as <">.
        if self.notation == Notation::Bnf && text == "\"" {
            return Ok(Tok::Literal(vec![ByteSet::single(b'"')]));
        }
        Ok(Tok::Prose(text))
    }

    /// `n`, `*`, `n*`, `*m`, `n*m` (RFC 5234 section 3.6 and 3.7; RFC 2396
    /// section 1.6 `<n>*`).
    fn repeat(&mut self) -> Result<Tok, GrammarError> {
        let min = self.digits()?;
        if self.peek() == Some(b'*') {
            self.pos += 1;
            let max = self.digits()?;
            let min = min.unwrap_or(0);
            if max.is_some_and(|m| m < min) {
                return Err(self.err("a repetition's maximum is below its minimum"));
            }
            return Ok(Tok::Repeat { min, max });
        }
        match min {
            Some(n) => Ok(Tok::Repeat {
                min: n,
                max: Some(n),
            }),
            None => Err(self.err("expected a repetition count")),
        }
    }

    fn digits(&mut self) -> Result<Option<u32>, GrammarError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        if value > MAX_REPEAT {
            return Err(self.err(format!(
                "a repetition bound above {MAX_REPEAT}, the most this engine compiles"
            )));
        }
        Ok(Some(value))
    }
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

/// An expression before rule names are resolved.
#[derive(Clone, Debug)]
enum RawExpr {
    Alt(Vec<RawExpr>),
    Seq(Vec<RawExpr>),
    Repeat {
        min: u32,
        max: Option<u32>,
        expr: Box<RawExpr>,
    },
    Literal(Vec<ByteSet>),
    Class(ByteSet),
    Ref {
        name: String,
        line: usize,
    },
    Prose {
        text: String,
        line: usize,
    },
}

#[derive(Clone, Debug)]
struct RawRule {
    name: String,
    expr: RawExpr,
    line: usize,
    core: bool,
}

struct RawGrammar {
    rules: Vec<RawRule>,
    notation: Notation,
}

impl RawGrammar {
    fn find(&self, name: &str) -> Option<&RawRule> {
        let k = key(self.notation, name);
        self.rules.iter().find(|r| key(self.notation, &r.name) == k)
    }

    fn push(&mut self, rule: RawRule) {
        self.rules.push(rule);
    }

    /// Names used (by reference) but not defined, each once.
    fn undefined(&self) -> Vec<String> {
        fn walk(e: &RawExpr, out: &mut Vec<String>) {
            match e {
                RawExpr::Alt(v) | RawExpr::Seq(v) => v.iter().for_each(|e| walk(e, out)),
                RawExpr::Repeat { expr, .. } => walk(expr, out),
                RawExpr::Ref { name, .. } => out.push(name.clone()),
                RawExpr::Literal(_) | RawExpr::Class(_) | RawExpr::Prose { .. } => {}
            }
        }
        let mut used = Vec::new();
        for r in &self.rules {
            walk(&r.expr, &mut used);
        }
        let mut out: Vec<String> = Vec::new();
        for name in used {
            let k = key(self.notation, &name);
            if self.find(&name).is_none() && !out.iter().any(|o| key(self.notation, o) == k) {
                out.push(name);
            }
        }
        out
    }

    /// Resolves every rule name; an undefined rule, or prose that names no
    /// rule, is an error at the line that uses it.
    fn resolve(self) -> Result<Grammar, GrammarError> {
        let notation = self.notation;
        let mut index = HashMap::new();
        for (i, r) in self.rules.iter().enumerate() {
            index.insert(key(notation, &r.name), i);
        }
        let lookup = |name: &str, line: usize, in_rule: &str, prose: bool| {
            index.get(&key(notation, name)).copied().ok_or_else(|| {
                if prose {
                    GrammarError::at(
                        line,
                        format!(
                            "prose value <{name}> in rule `{in_rule}` cannot be run; expected it to name a rule of the grammar"
                        ),
                    )
                } else {
                    GrammarError::at(
                        line,
                        format!("rule `{name}` is used in `{in_rule}` but not defined"),
                    )
                }
            })
        };
        fn conv(e: RawExpr, in_rule: &str, lookup: &Lookup<'_>) -> Result<Expr, GrammarError> {
            Ok(match e {
                RawExpr::Alt(v) => Expr::Alt(
                    v.into_iter()
                        .map(|e| conv(e, in_rule, lookup))
                        .collect::<Result<_, _>>()?,
                ),
                RawExpr::Seq(v) => Expr::Seq(
                    v.into_iter()
                        .map(|e| conv(e, in_rule, lookup))
                        .collect::<Result<_, _>>()?,
                ),
                RawExpr::Repeat { min, max, expr } => Expr::Repeat {
                    min,
                    max,
                    expr: Box::new(conv(*expr, in_rule, lookup)?),
                },
                RawExpr::Literal(s) => Expr::Literal(s),
                RawExpr::Class(c) => Expr::Class(c),
                RawExpr::Ref { name, line } => Expr::Rule(lookup(&name, line, in_rule, false)?),
                RawExpr::Prose { text, line } => {
                    Expr::Rule(lookup(text.trim(), line, in_rule, true)?)
                }
            })
        }
        let mut rules = Vec::with_capacity(self.rules.len());
        for r in self.rules {
            let expr = conv(r.expr, &r.name, &lookup)?;
            rules.push(RuleDef {
                name: r.name,
                expr,
                line: r.line,
                core: r.core,
            });
        }
        Ok(Grammar {
            rules,
            index,
            notation,
        })
    }
}

/// Finds a rule by name: `(name, line of use, rule using it, is prose)`.
type Lookup<'a> = dyn Fn(&str, usize, &str, bool) -> Result<usize, GrammarError> + 'a;

/// Reads grammar text into rules, names unresolved.
fn read(text: &str, notation: Notation) -> Result<RawGrammar, GrammarError> {
    let tokens = Lexer {
        bytes: text.as_bytes(),
        pos: 0,
        line: 1,
        line_start: 0,
        notation,
    }
    .tokens()?;
    let mut grammar = RawGrammar {
        rules: Vec::new(),
        notation,
    };
    for (head, body) in split_rules(&tokens, notation)? {
        let (name, line, incremental) = head;
        let expr = RuleParser {
            toks: body,
            pos: 0,
            rule: &name,
            line,
        }
        .rule_body()?;
        let k = key(notation, &name);
        let existing = grammar
            .rules
            .iter_mut()
            .find(|r| key(notation, &r.name) == k);
        match (existing, incremental) {
            (Some(r), true) => {
                // RFC 5234 section 3.3: `=/` adds alternatives to a rule.
                let old = std::mem::replace(&mut r.expr, RawExpr::Alt(Vec::new()));
                let mut alts = match old {
                    RawExpr::Alt(v) => v,
                    other => vec![other],
                };
                match expr {
                    RawExpr::Alt(v) => alts.extend(v),
                    other => alts.push(other),
                }
                r.expr = RawExpr::Alt(alts);
            }
            (None, true) => {
                return Err(GrammarError::at(
                    line,
                    format!("`{name} =/` adds to a rule that is not defined above; expected `=`"),
                ));
            }
            (Some(r), false) => {
                return Err(GrammarError::at(
                    line,
                    format!(
                        "rule `{name}` is already defined on line {}; expected `=/` to add alternatives",
                        r.line
                    ),
                ));
            }
            (None, false) => grammar.rules.push(RawRule {
                name,
                expr,
                line,
                core: false,
            }),
        }
    }
    if grammar.rules.is_empty() {
        return Err(GrammarError::general("the grammar text defines no rule"));
    }
    Ok(grammar)
}

type RuleHead = (String, usize, bool);

/// Splits the tokens into rules: each is its head (name, line, `=/`) and
/// the tokens of its right-hand side.
///
/// ABNF (RFC 5234 section 4): a rule starts in column 0; a line that starts
/// with white space continues the rule above. BNF (RFC 2396): a rule starts
/// wherever a rule name is followed by `=` (an `=` is otherwise always
/// quoted), so several rules may share a line.
fn split_rules(
    tokens: &[Token],
    notation: Notation,
) -> Result<Vec<(RuleHead, &[Token])>, GrammarError> {
    let starts_rule = |i: usize| -> Result<Option<RuleHead>, GrammarError> {
        let Some(t) = tokens.get(i) else {
            return Ok(None);
        };
        let next = tokens.get(i + 1).map(|t| &t.tok);
        let is_def = matches!(next, Some(Tok::Defined | Tok::DefinedAlt));
        match (&t.tok, notation) {
            (Tok::Name(name), Notation::Abnf) if t.col == 1 => {
                if is_def {
                    Ok(Some((name.clone(), t.line, next == Some(&Tok::DefinedAlt))))
                } else {
                    Err(GrammarError::at(
                        t.line,
                        format!("expected `=` or `=/` after the rule name `{name}`"),
                    ))
                }
            }
            (tok, Notation::Abnf) if t.col == 1 => Err(GrammarError::at(
                t.line,
                format!(
                    "expected a rule name at the start of the line, found {tok}; a rule continues on lines that start with white space"
                ),
            )),
            (Tok::Name(name), Notation::Bnf) if is_def => Ok(Some((name.clone(), t.line, false))),
            _ => Ok(None),
        }
    };
    let mut rules = Vec::new();
    let mut current: Option<(RuleHead, usize)> = None;
    let mut i = 0;
    while i < tokens.len() {
        if let Some(head) = starts_rule(i)? {
            if let Some((h, body_start)) = current.take() {
                rules.push((h, tokens.get(body_start..i).unwrap_or_default()));
            }
            current = Some((head, i + 2));
            i += 2;
            continue;
        }
        if current.is_none() {
            let t = tokens.get(i).map_or(1, |t| t.line);
            return Err(GrammarError::at(t, "expected a rule name followed by `=`"));
        }
        i += 1;
    }
    if let Some((h, body_start)) = current {
        rules.push((h, tokens.get(body_start..).unwrap_or_default()));
    }
    Ok(rules)
}

/// Recursive descent over one rule's right-hand side:
///
/// ```text
/// alternation   = concatenation *( ALT concatenation )
/// concatenation = 1*repetition
/// repetition    = [ repeat ] element
/// element       = name / "(" alternation ")" / "[" alternation "]"
///               / literal [ ".." literal ] / class / prose
/// ```
struct RuleParser<'t> {
    toks: &'t [Token],
    pos: usize,
    rule: &'t str,
    line: usize,
}

impl RuleParser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn line(&self) -> usize {
        self.peek()
            .or_else(|| self.toks.last())
            .map_or(self.line, |t| t.line)
    }

    fn expected(&self, what: &str) -> GrammarError {
        let found = match self.peek() {
            Some(t) => t.tok.to_string(),
            None => "the end of the rule".to_owned(),
        };
        GrammarError::at(
            self.line(),
            format!("in rule `{}`: expected {what}, found {found}", self.rule),
        )
    }

    fn rule_body(mut self) -> Result<RawExpr, GrammarError> {
        if self.peek().is_none() {
            return Err(self.expected("the rule's definition after `=`"));
        }
        let e = self.alternation()?;
        if self.peek().is_some() {
            return Err(self.expected("an alternative separator or the next rule"));
        }
        Ok(e)
    }

    fn alternation(&mut self) -> Result<RawExpr, GrammarError> {
        let mut alts = vec![self.concatenation()?];
        while self.peek().is_some_and(|t| t.tok == Tok::Alt) {
            self.pos += 1;
            alts.push(self.concatenation()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(RawExpr::Seq(Vec::new()))
        } else {
            RawExpr::Alt(alts)
        })
    }

    fn concatenation(&mut self) -> Result<RawExpr, GrammarError> {
        let mut items = Vec::new();
        while let Some(t) = self.peek() {
            if matches!(t.tok, Tok::Alt | Tok::Close | Tok::OptClose) {
                break;
            }
            items.push(self.repetition()?);
        }
        match items.len() {
            0 => Err(self.expected("an element (a rule name, literal, group or option)")),
            1 => Ok(items.pop().unwrap_or(RawExpr::Seq(Vec::new()))),
            _ => Ok(RawExpr::Seq(items)),
        }
    }

    fn repetition(&mut self) -> Result<RawExpr, GrammarError> {
        if let Some(Token {
            tok: Tok::Repeat { min, max },
            ..
        }) = self.peek()
        {
            let (min, max) = (*min, *max);
            self.pos += 1;
            let e = self.element()?;
            return Ok(RawExpr::Repeat {
                min,
                max,
                expr: Box::new(e),
            });
        }
        self.element()
    }

    fn element(&mut self) -> Result<RawExpr, GrammarError> {
        let Some(t) = self.peek().cloned() else {
            return Err(self.expected("an element"));
        };
        self.pos += 1;
        match t.tok {
            Tok::Name(name) => Ok(RawExpr::Ref { name, line: t.line }),
            Tok::Open | Tok::OptOpen => {
                let close = if t.tok == Tok::Open {
                    Tok::Close
                } else {
                    Tok::OptClose
                };
                let inner = self.alternation()?;
                if self.peek().map(|t| &t.tok) != Some(&close) {
                    return Err(self.expected(if close == Tok::Close { "`)`" } else { "`]`" }));
                }
                self.pos += 1;
                Ok(if close == Tok::Close {
                    inner
                } else {
                    RawExpr::Repeat {
                        min: 0,
                        max: Some(1),
                        expr: Box::new(inner),
                    }
                })
            }
            Tok::Literal(sets) => {
                if self.peek().is_some_and(|t| t.tok == Tok::Range) {
                    self.pos += 1;
                    let hi = match self.peek().map(|t| &t.tok) {
                        Some(Tok::Literal(hi)) => hi.clone(),
                        _ => return Err(self.expected("a one-character literal after `..`")),
                    };
                    self.pos += 1;
                    let one = |s: &[ByteSet]| match s {
                        [c] => c.iter().next(),
                        _ => None,
                    };
                    return match (one(&sets), one(&hi)) {
                        (Some(lo), Some(hi)) if lo <= hi => {
                            Ok(RawExpr::Class(ByteSet::range(lo, hi)))
                        }
                        _ => Err(GrammarError::at(
                            t.line,
                            format!(
                                "in rule `{}`: expected one-character literals on both sides of `..`, the first not above the second",
                                self.rule
                            ),
                        )),
                    };
                }
                Ok(RawExpr::Literal(sets))
            }
            Tok::Class(c) => Ok(RawExpr::Class(c)),
            Tok::Prose(text) => Ok(RawExpr::Prose { text, line: t.line }),
            _ => {
                self.pos -= 1;
                Err(self.expected("an element (a rule name, literal, group or option)"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, notation: Notation) -> GrammarError {
        let r = match notation {
            Notation::Abnf => Grammar::abnf(text),
            Notation::Bnf => Grammar::bnf(text),
        };
        r.unwrap_err()
    }

    #[test]
    fn abnf_core_rules_are_supplied_only_when_used() {
        let g = Grammar::abnf("a = HEXDIG\n").unwrap();
        assert!(g.has_rule("HEXDIG") && g.has_rule("digit") && g.is_core_rule("DIGIT"));
        assert!(!g.has_rule("ALPHA"));
        // A grammar may define a core rule's name itself.
        let g = Grammar::abnf("a = DIGIT\nDIGIT = \"x\"\n").unwrap();
        assert!(!g.is_core_rule("DIGIT"));
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        let e = err("a = b\n", Notation::Abnf);
        assert_eq!(
            e.to_string(),
            "line 1: rule `b` is used in `a` but not defined"
        );
        let e = err("a = \"x\"\n\nb = ( \"y\"\n", Notation::Abnf);
        assert_eq!(e.line(), Some(3));
        assert!(e.message().contains("expected `)`"), "{e}");
        let e = err("a = \"x\" /\n", Notation::Abnf);
        assert!(e.message().contains("expected an element"), "{e}");
        let e = err("a \"x\"\n", Notation::Abnf);
        assert!(e.message().contains("expected `=` or `=/`"), "{e}");
        let e = err("a = <some prose>\n", Notation::Abnf);
        assert!(e.message().contains("prose value <some prose>"), "{e}");
        let e = err("a = \"x\"\na = \"y\"\n", Notation::Abnf);
        assert!(e.message().contains("already defined on line 1"), "{e}");
        let e = err("x = \"a\" .. \"bc\"\n", Notation::Bnf);
        assert!(e.message().contains("one-character literals"), "{e}");
        let e = err("x = \"a\" / \"b\"\n", Notation::Bnf);
        assert!(e.message().contains("unexpected character '/'"), "{e}");
        let e = err("  = \"a\"\n", Notation::Bnf);
        assert!(e.message().contains("expected a rule name"), "{e}");
        let e = err("a = 2*1\"x\"\n", Notation::Abnf);
        assert!(e.message().contains("maximum is below its minimum"), "{e}");
        let e = err("a = 5000\"x\"\n", Notation::Abnf);
        assert!(e.message().contains("above 1000"), "{e}");
    }

    #[test]
    fn incremental_alternatives_extend_a_rule() {
        let g = Grammar::abnf("a = \"x\"\na =/ \"y\"\n").unwrap();
        assert!(matches!(&g.rules[0].expr, Expr::Alt(v) if v.len() == 2));
        let e = err("a =/ \"y\"\n", Notation::Abnf);
        assert!(e.message().contains("not defined above"), "{e}");
    }

    #[test]
    fn abnf_names_are_case_insensitive_and_bnf_names_are_not() {
        assert!(Grammar::abnf("a = B\nb = \"x\"\n").is_ok());
        assert!(Grammar::bnf("a = B\nb = \"x\"\n").is_err());
    }

    #[test]
    fn bnf_reads_several_rules_on_one_line() {
        let g = Grammar::bnf(
            r#"lowalpha = "a" .. "z"        upalpha = "A" .. "Z"        digit = "0" .. "9""#,
        )
        .unwrap();
        assert_eq!(
            g.rule_names().collect::<Vec<_>>(),
            ["lowalpha", "upalpha", "digit"]
        );
        assert_eq!(g.rules[2].expr, Expr::Class(ByteSet::range(b'0', b'9')));
    }

    #[test]
    fn literals_follow_each_notation() {
        let a = Grammar::abnf("a = \"aB\"\n").unwrap();
        let b = Grammar::bnf("a = \"aB\"\n").unwrap();
        assert_eq!(
            a.rules[0].expr,
            Expr::Literal(vec![
                ByteSet::single(b'a').with_ascii_case(),
                ByteSet::single(b'b').with_ascii_case(),
            ])
        );
        assert_eq!(
            b.rules[0].expr,
            Expr::Literal(vec![ByteSet::single(b'a'), ByteSet::single(b'B')])
        );
        let s = Grammar::abnf("a = %s\"aB\" %x0D.0A %d65-70\n").unwrap();
        assert_eq!(
            s.rules[0].expr,
            Expr::Seq(vec![
                Expr::Literal(vec![ByteSet::single(b'a'), ByteSet::single(b'B')]),
                Expr::Literal(vec![ByteSet::single(0x0D), ByteSet::single(0x0A)]),
                Expr::Class(ByteSet::range(65, 70)),
            ])
        );
        let q = Grammar::bnf("a = <\">\n").unwrap();
        assert_eq!(q.rules[0].expr, Expr::Literal(vec![ByteSet::single(b'"')]));
    }
}
