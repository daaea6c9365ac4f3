//! Reading isl notation: [`FromStr`] for [`BasicMap`], [`Map`] and [`UnionMap`].
//!
//! The accepted language is the one isl prints plus what people usually type:
//!
//! - parameters `[n, m] -> { ... }`; every parameter used in a formula must be
//!   declared (names of tuple dimensions are of course allowed);
//! - a union of parts separated by `;`: sets `S[i, j] : formula`, relations
//!   `A[i] -> B[j] : formula`, nested tuples `[S[i] -> R[]] -> A[i]`,
//!   parameter sets `: formula`, and the empty union `{ }`;
//! - tuple entries that are new names (`i`, `i'`), fixed or defined values
//!   (`i = 0`, `j = 2i + 1`) or expressions (`i + 1`, `2i`, `0`, or a name that
//!   is already bound such as the second `i` of `{ [i] -> [i] }`), which
//!   introduce an unnamed dimension equal to the expression;
//! - formulas with `and`/`&&`/`/\`, `or`/`||`/`\/`, `not`/`!`, `implies`,
//!   `true`, `false`, `exists e : ...`, `exists (e0 = floor((i)/2), e1 : ...)`,
//!   and comparison chains `0 <= i < n` with `=`, `==`, `!=`, `<`, `<=`, `>`, `>=`;
//! - affine expressions with integer literals of any size, `2i`, `2*i`, `-i`,
//!   `floor(e)`, `ceil(e)`, `e mod d`, `e % d`, division by a constant
//!   (`floor((i + 1)/2)`; a rational comparison such as `i/2 >= 1` is scaled),
//!   `min(...)`, `max(...)` (expanded into a disjunction);
//! - comments from `#` to the end of a line.
//!
//! A formula is brought into disjunctive normal form: negations are pushed to
//! the atoms, each `floor`/`mod` becomes an integer division of the basic map
//! being built, `exists` variables become existential locals. A negated
//! formula containing `exists` is built separately and complemented.
//!
//! Errors are [`Error::Parse`] with the 1-based line and column of the
//! offending token; no input panics.
//!
//! ```
//! use presburger::{Map, UnionMap, Error};
//! let m: Map = "[n] -> { [i] -> [j] : 0 <= i < n and j = 2i + 1 }".parse().unwrap();
//! assert_eq!(m.space().n_in(), 1);
//! let u: UnionMap = "{ S[i] : 0 <= i < 10; T[i, j] : i = j }".parse().unwrap();
//! assert_eq!(u.maps().len(), 2);
//! let e = "{ [i] : i < m }".parse::<Map>().unwrap_err();
//! assert!(matches!(e, Error::Parse { line: 1, col: 13, .. }));
//! ```

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use crate::basic::{BasicMap, Div};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{Space, Tuple};
use crate::union::UnionMap;

/// Maximal number of disjuncts of a formula in disjunctive normal form.
pub const MAX_DISJUNCTS: usize = 4096;
/// Maximal nesting depth (parentheses, function calls, tuples, quantifiers).
pub const MAX_DEPTH: usize = 100;
const MAX_WORK: usize = 2_000_000;

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "implies", "exists", "floor", "ceil", "mod", "min", "max", "true", "false",
];

/// True if `s` is a keyword of the notation (it cannot name a variable).
pub(crate) fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// True if `s` can be printed as a variable name and read back.
pub(crate) fn is_valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    let rest: &str = &s[1..];
    let body = rest.trim_end_matches('\'');
    body.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !is_keyword(s)
}

// ---------------------------------------------------------------------------
// Lexer

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: usize,
    col: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(Int),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    pos: Pos,
}

const SYMBOLS: &[&str] = &[
    "->", "<=", ">=", "==", "!=", "&&", "||", "/\\", "\\/", "[", "]", "{", "}", "(", ")", ",", ";",
    ":", "=", "<", ">", "+", "-", "*", "/", "%", "!",
];

fn perr(pos: Pos, expected: impl Into<String>) -> Error {
    Error::Parse {
        line: pos.line,
        col: pos.col,
        expected: expected.into(),
    }
}

fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 1usize);
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let pos = Pos { line, col };
        if c == '\n' {
            line += 1;
            col = 1;
            k += 1;
            continue;
        }
        if c.is_whitespace() {
            col += 1;
            k += 1;
            continue;
        }
        if c == '#' {
            while k < chars.len() && chars[k] != '\n' {
                k += 1;
                col += 1;
            }
            continue;
        }
        if c.is_ascii_digit() {
            let start = k;
            while k < chars.len() && chars[k].is_ascii_digit() {
                k += 1;
            }
            let s: String = chars[start..k].iter().collect();
            col += k - start;
            let v = s.parse::<Int>().map_err(|_| perr(pos, "an integer"))?;
            out.push(Token {
                tok: Tok::Num(v),
                pos,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = k;
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '_') {
                k += 1;
            }
            while k < chars.len() && chars[k] == '\'' {
                k += 1;
            }
            let s: String = chars[start..k].iter().collect();
            col += k - start;
            out.push(Token {
                tok: Tok::Ident(s),
                pos,
            });
            continue;
        }
        let mut found = None;
        for s in SYMBOLS {
            let n = s.chars().count();
            if k + n <= chars.len() && chars[k..k + n].iter().copied().eq(s.chars()) {
                found = Some(*s);
                break;
            }
        }
        match found {
            Some(s) => {
                let n = s.chars().count();
                k += n;
                col += n;
                out.push(Token {
                    tok: Tok::Sym(s),
                    pos,
                });
            }
            None => return Err(perr(pos, format!("a token (unexpected character {c:?})"))),
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        pos: Pos { line, col },
    });
    Ok(out)
}

// ---------------------------------------------------------------------------
// Syntax trees

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MulOp {
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Debug)]
enum Expr {
    Num(Int),
    Var(String, Pos),
    /// Dimension `k` (0-based over the domain and range dimensions).
    Dim(usize),
    Sum(Vec<(bool, Expr)>),
    Neg(Box<Expr>),
    Term(Box<Expr>, Vec<(MulOp, Expr, Pos)>),
    Floor(Box<Expr>),
    Ceil(Box<Expr>),
    MinMax(bool, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Debug)]
enum Formula {
    Bool(bool),
    Cmp(Expr, CmpOp, Expr, Pos),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Exists(Vec<(String, Option<Expr>, Pos)>, Box<Formula>),
}

enum Node {
    E(Expr),
    F(Formula),
}

// ---------------------------------------------------------------------------
// Parser

struct Parser {
    toks: Vec<Token>,
    k: usize,
    depth: usize,
}

/// Per-part context while reading tuples.
struct PartCtx {
    ndims: usize,
    names: HashMap<String, usize>,
    atoms: Vec<Formula>,
}

struct Part {
    pos: Pos,
    space: Space,
    dims: HashMap<String, usize>,
    formula: Formula,
}

struct Ast {
    /// Shared by the spaces of all parts.
    params: Arc<[String]>,
    parts: Vec<Part>,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.k].tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.k + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    fn pos(&self) -> Pos {
        self.toks[self.k].pos
    }
    fn bump(&mut self) {
        if self.k + 1 < self.toks.len() {
            self.k += 1;
        }
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(t) if *t == s)
    }
    fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(t) if t == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn eat_kw(&mut self, s: &str) -> bool {
        if self.is_kw(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn err(&self, expected: impl Into<String>) -> Error {
        perr(self.pos(), expected)
    }
    fn expect_sym(&mut self, s: &str) -> Result<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.err(format!("'{s}'")))
        }
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("less nesting (at most {MAX_DEPTH} levels)")));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }
    /// A non-keyword identifier at the current token.
    fn name(&self) -> Option<String> {
        match self.peek() {
            Tok::Ident(s) if !is_keyword(s) => Some(s.clone()),
            _ => None,
        }
    }

    fn parse_input(&mut self) -> Result<Ast> {
        let mut params = Vec::new();
        if self.is_sym("[") {
            self.bump();
            if !self.is_sym("]") {
                loop {
                    let p = self.pos();
                    let n = self.name().ok_or_else(|| self.err("a parameter name"))?;
                    if params.contains(&n) {
                        return Err(perr(
                            p,
                            format!("a new parameter name ('{n}' is declared twice)"),
                        ));
                    }
                    params.push(n);
                    self.bump();
                    if !self.eat_sym(",") {
                        break;
                    }
                }
            }
            self.expect_sym("]")?;
            self.expect_sym("->")?;
        }
        let params: Arc<[String]> = params.into();
        self.expect_sym("{")?;
        let mut parts = Vec::new();
        loop {
            if self.is_sym("}") {
                break;
            }
            parts.push(self.parse_part(&params)?);
            if self.eat_sym(";") {
                continue;
            }
            if !self.is_sym("}") {
                return Err(self.err("';' or '}'"));
            }
        }
        self.expect_sym("}")?;
        if !matches!(self.peek(), Tok::Eof) {
            return Err(self.err("end of input"));
        }
        Ok(Ast { params, parts })
    }

    fn parse_part(&mut self, params: &Arc<[String]>) -> Result<Part> {
        let pos = self.pos();
        let mut ctx = PartCtx {
            ndims: 0,
            names: HashMap::new(),
            atoms: Vec::new(),
        };
        let space = if self.is_sym(":") {
            Space::params_only(params.clone())
        } else {
            let t1 = self.parse_tuple(params, &mut ctx)?;
            if self.eat_sym("->") {
                let t2 = self.parse_tuple(params, &mut ctx)?;
                Space::map(params.clone(), t1, t2)
            } else {
                Space::set(params.clone(), t1)
            }
        };
        let mut formula = Formula::Bool(true);
        if self.eat_sym(":") && !(self.is_sym("}") || self.is_sym(";")) {
            formula = self.parse_formula()?;
        }
        let mut atoms = std::mem::take(&mut ctx.atoms);
        if !atoms.is_empty() {
            atoms.push(formula);
            formula = Formula::And(atoms);
        }
        Ok(Part {
            pos,
            space,
            dims: ctx.names,
            formula,
        })
    }

    fn parse_tuple(&mut self, params: &[String], ctx: &mut PartCtx) -> Result<Tuple> {
        self.enter()?;
        let mut tname = None;
        if let Some(n) = self.name() {
            if matches!(self.peek_at(1), Tok::Sym("[")) {
                tname = Some(n);
                self.bump();
            }
        }
        if !self.is_sym("[") {
            return Err(self.err("a tuple '[...]'"));
        }
        self.bump();
        let nested =
            self.is_sym("[") || (self.name().is_some() && matches!(self.peek_at(1), Tok::Sym("[")));
        let t = if nested {
            let a = self.parse_tuple(params, ctx)?;
            self.expect_sym("->")?;
            let b = self.parse_tuple(params, ctx)?;
            self.expect_sym("]")?;
            Tuple::nested(tname, a, b)
        } else {
            let mut dims = Vec::new();
            if !self.is_sym("]") {
                loop {
                    dims.push(self.parse_entry(params, ctx)?);
                    if !self.eat_sym(",") {
                        break;
                    }
                }
            }
            if !self.is_sym("]") {
                return Err(self.err("',' or ']' in a tuple"));
            }
            self.bump();
            Tuple::flat(tname, dims)
        };
        self.leave();
        Ok(t)
    }

    fn parse_entry(&mut self, params: &[String], ctx: &mut PartCtx) -> Result<String> {
        let idx = ctx.ndims;
        let pos = self.pos();
        if let Some(n) = self.name() {
            let bound = ctx.names.contains_key(&n) || params.contains(&n);
            if matches!(self.peek_at(1), Tok::Sym("=")) {
                self.bump();
                self.bump();
                let e = self.parse_expr()?;
                ctx.ndims += 1;
                if !bound {
                    ctx.names.insert(n.clone(), idx);
                }
                ctx.atoms
                    .push(Formula::Cmp(Expr::Dim(idx), CmpOp::Eq, e, pos));
                return Ok(n);
            }
            if !bound && matches!(self.peek_at(1), Tok::Sym(",") | Tok::Sym("]")) {
                self.bump();
                ctx.ndims += 1;
                ctx.names.insert(n.clone(), idx);
                return Ok(n);
            }
        }
        let e = self.parse_expr()?;
        ctx.ndims += 1;
        ctx.atoms
            .push(Formula::Cmp(Expr::Dim(idx), CmpOp::Eq, e, pos));
        Ok(String::new())
    }

    fn parse_expr(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.parse_add()? {
            Node::E(e) => Ok(e),
            Node::F(_) => Err(perr(pos, "an expression")),
        }
    }

    fn parse_formula(&mut self) -> Result<Formula> {
        match self.parse_implies()? {
            Node::F(f) => Ok(f),
            Node::E(_) => Err(self.err("a comparison operator")),
        }
    }

    fn to_formula(&self, n: Node, pos: Pos) -> Result<Formula> {
        match n {
            Node::F(f) => Ok(f),
            Node::E(_) => Err(perr(pos, "a formula (a comparison, not a bare expression)")),
        }
    }

    fn parse_implies(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_or()?;
        if !self.is_kw("implies") {
            return Ok(first);
        }
        let mut items = vec![self.to_formula(first, pos)?];
        while self.eat_kw("implies") {
            let p = self.pos();
            let n = self.parse_or()?;
            items.push(self.to_formula(n, p)?);
            self.enter()?;
        }
        let n = items.len() - 1;
        self.depth -= n;
        let mut f = items.pop().unwrap_or(Formula::Bool(true));
        while let Some(a) = items.pop() {
            f = Formula::Implies(Box::new(a), Box::new(f));
        }
        Ok(Node::F(f))
    }

    fn parse_or(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_and()?;
        if !(self.is_kw("or") || self.is_sym("||") || self.is_sym("\\/")) {
            return Ok(first);
        }
        let mut items = vec![self.to_formula(first, pos)?];
        while self.eat_kw("or") || self.eat_sym("||") || self.eat_sym("\\/") {
            let p = self.pos();
            let n = self.parse_and()?;
            items.push(self.to_formula(n, p)?);
        }
        Ok(Node::F(Formula::Or(items)))
    }

    fn parse_and(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_not()?;
        if !(self.is_kw("and") || self.is_sym("&&") || self.is_sym("/\\")) {
            return Ok(first);
        }
        let mut items = vec![self.to_formula(first, pos)?];
        while self.eat_kw("and") || self.eat_sym("&&") || self.eat_sym("/\\") {
            let p = self.pos();
            let n = self.parse_not()?;
            items.push(self.to_formula(n, p)?);
        }
        Ok(Node::F(Formula::And(items)))
    }

    fn parse_not(&mut self) -> Result<Node> {
        let mut count = 0usize;
        while self.eat_kw("not") || self.eat_sym("!") {
            count += 1;
        }
        let pos = self.pos();
        let n = self.parse_cmp()?;
        if count == 0 {
            return Ok(n);
        }
        let f = self.to_formula(n, pos)?;
        Ok(Node::F(if count % 2 == 1 {
            Formula::Not(Box::new(f))
        } else {
            f
        }))
    }

    fn cmp_op(&self) -> Option<CmpOp> {
        match self.peek() {
            Tok::Sym("<") => Some(CmpOp::Lt),
            Tok::Sym("<=") => Some(CmpOp::Le),
            Tok::Sym(">") => Some(CmpOp::Gt),
            Tok::Sym(">=") => Some(CmpOp::Ge),
            Tok::Sym("=") | Tok::Sym("==") => Some(CmpOp::Eq),
            Tok::Sym("!=") => Some(CmpOp::Ne),
            _ => None,
        }
    }

    /// A comparison chain; each operand may be a list (`0 <= i, j < n` means
    /// every element of a list compares with every element of its neighbours).
    fn parse_cmp(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_add()?;
        if self.cmp_op().is_none() && !self.is_sym(",") {
            return Ok(first);
        }
        let first = match first {
            Node::E(e) => e,
            Node::F(_) => return Err(perr(pos, "an expression before a comparison")),
        };
        let mut prev = vec![first];
        while self.eat_sym(",") {
            prev.push(self.parse_expr()?);
        }
        if self.cmp_op().is_none() {
            return Err(self.err("a comparison operator after a list of expressions"));
        }
        let mut atoms = Vec::new();
        while let Some(op) = self.cmp_op() {
            let opos = self.pos();
            self.bump();
            let mut rhs = vec![self.parse_expr()?];
            while self.eat_sym(",") {
                rhs.push(self.parse_expr()?);
            }
            if atoms.len() + prev.len() * rhs.len() > 10_000 {
                return Err(perr(opos, "shorter lists in a comparison"));
            }
            for a in &prev {
                for b in &rhs {
                    atoms.push(Formula::Cmp(a.clone(), op, b.clone(), opos));
                }
            }
            prev = rhs;
        }
        Ok(Node::F(if atoms.len() == 1 {
            atoms.pop().unwrap_or(Formula::Bool(true))
        } else {
            Formula::And(atoms)
        }))
    }

    fn parse_add(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_mul()?;
        if !(self.is_sym("+") || self.is_sym("-")) {
            return Ok(first);
        }
        let first = match first {
            Node::E(e) => e,
            Node::F(_) => return Err(perr(pos, "an expression")),
        };
        let mut items = vec![(false, first)];
        loop {
            let neg = if self.eat_sym("+") {
                false
            } else if self.eat_sym("-") {
                true
            } else {
                break;
            };
            let e = self.parse_mul_expr()?;
            items.push((neg, e));
        }
        Ok(Node::E(Expr::Sum(items)))
    }

    fn parse_mul_expr(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.parse_mul()? {
            Node::E(e) => Ok(e),
            Node::F(_) => Err(perr(pos, "an expression")),
        }
    }

    /// True if the current token can start a factor of an implicit product (`2i`, `2(i + 1)`).
    fn starts_implicit_factor(&self) -> bool {
        match self.peek() {
            Tok::Ident(s) => {
                !is_keyword(s) || matches!(s.as_str(), "floor" | "ceil" | "min" | "max")
            }
            Tok::Sym("(") => true,
            _ => false,
        }
    }

    fn parse_mul(&mut self) -> Result<Node> {
        let pos = self.pos();
        let first = self.parse_unary()?;
        let mut rest = Vec::new();
        loop {
            // an implicit product follows a bare integer literal: `2i`, `-3(i + 1)`
            let last_is_num = self.k > 0 && matches!(self.toks[self.k - 1].tok, Tok::Num(_));
            let opos = self.pos();
            let op = if self.eat_sym("*") {
                MulOp::Mul
            } else if self.eat_sym("/") {
                MulOp::Div
            } else if self.eat_sym("%") || self.eat_kw("mod") {
                MulOp::Mod
            } else if last_is_num && self.starts_implicit_factor() {
                MulOp::Mul
            } else {
                break;
            };
            let p = self.pos();
            let e = match self.parse_unary()? {
                Node::E(e) => e,
                Node::F(_) => return Err(perr(p, "an expression")),
            };
            rest.push((op, e, opos));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        let first = match first {
            Node::E(e) => e,
            Node::F(_) => return Err(perr(pos, "an expression")),
        };
        Ok(Node::E(Expr::Term(Box::new(first), rest)))
    }

    fn parse_unary(&mut self) -> Result<Node> {
        let mut neg = false;
        let mut any = false;
        loop {
            if self.eat_sym("-") {
                neg = !neg;
                any = true;
            } else if self.eat_sym("+") {
                any = true;
            } else {
                break;
            }
        }
        let pos = self.pos();
        let n = self.parse_primary()?;
        if !any {
            return Ok(n);
        }
        match n {
            Node::E(e) => Ok(Node::E(if neg { Expr::Neg(Box::new(e)) } else { e })),
            Node::F(_) => Err(perr(pos, "an expression after a sign")),
        }
    }

    fn parse_primary(&mut self) -> Result<Node> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Num(v) => {
                self.bump();
                Ok(Node::E(Expr::Num(v)))
            }
            Tok::Sym("(") => {
                self.bump();
                self.enter()?;
                let n = self.parse_implies()?;
                self.expect_sym(")")?;
                self.leave();
                Ok(n)
            }
            Tok::Ident(s) => match s.as_str() {
                "true" => {
                    self.bump();
                    Ok(Node::F(Formula::Bool(true)))
                }
                "false" => {
                    self.bump();
                    Ok(Node::F(Formula::Bool(false)))
                }
                "floor" | "ceil" => {
                    self.bump();
                    self.enter()?;
                    self.expect_sym("(")?;
                    let e = self.parse_expr()?;
                    self.expect_sym(")")?;
                    self.leave();
                    Ok(Node::E(if s == "floor" {
                        Expr::Floor(Box::new(e))
                    } else {
                        Expr::Ceil(Box::new(e))
                    }))
                }
                "min" | "max" => {
                    self.bump();
                    self.enter()?;
                    self.expect_sym("(")?;
                    let mut args = vec![self.parse_expr()?];
                    while self.eat_sym(",") {
                        args.push(self.parse_expr()?);
                    }
                    self.expect_sym(")")?;
                    self.leave();
                    Ok(Node::E(Expr::MinMax(s == "min", args)))
                }
                "exists" => {
                    self.bump();
                    self.enter()?;
                    let paren = self.eat_sym("(");
                    let mut vars = Vec::new();
                    loop {
                        let p = self.pos();
                        let n = self
                            .name()
                            .ok_or_else(|| self.err("a variable name after 'exists'"))?;
                        self.bump();
                        let def = if self.eat_sym("=") {
                            Some(self.parse_expr()?)
                        } else {
                            None
                        };
                        vars.push((n, def, p));
                        if !self.eat_sym(",") {
                            break;
                        }
                    }
                    self.expect_sym(":")?;
                    let body = if paren && self.is_sym(")") {
                        Formula::Bool(true)
                    } else {
                        self.parse_formula()?
                    };
                    if paren {
                        self.expect_sym(")")?;
                    }
                    self.leave();
                    Ok(Node::F(Formula::Exists(vars, Box::new(body))))
                }
                _ if is_keyword(&s) => Err(perr(
                    pos,
                    format!("an expression or formula (found keyword '{s}')"),
                )),
                _ => {
                    self.bump();
                    Ok(Node::E(Expr::Var(s, pos)))
                }
            },
            Tok::Eof => Err(perr(pos, "an expression or formula (found end of input)")),
            Tok::Sym(s) => Err(perr(pos, format!("an expression or formula (found '{s}')"))),
        }
    }
}

// ---------------------------------------------------------------------------
// Affine expressions over the columns of a basic map under construction

/// `c · (1, x, l) / den` with `den > 0`; `c` may be shorter than the row (zero padded).
#[derive(Clone, Debug)]
struct Lin {
    c: Vec<Int>,
    den: Int,
}

impl Lin {
    fn constant(v: Int) -> Lin {
        Lin {
            c: vec![v],
            den: Int::ONE,
        }
    }
    fn unit(col: usize) -> Lin {
        let mut c = vec![Int::ZERO; col + 1];
        c[col] = Int::ONE;
        Lin { c, den: Int::ONE }
    }
    fn as_const(&self) -> Option<(Int, Int)> {
        if self.c.iter().skip(1).all(Int::is_zero) {
            Some((
                self.c.first().cloned().unwrap_or(Int::ZERO),
                self.den.clone(),
            ))
        } else {
            None
        }
    }
    fn scale(&self, num: &Int, den: &Int) -> Lin {
        // (c/d) * (num/den), den != 0
        let mut c: Vec<Int> = self.c.iter().map(|v| v * num).collect();
        let mut d = &self.den * den;
        if d.is_neg() {
            d = -&d;
            for v in c.iter_mut() {
                *v = -&*v;
            }
        }
        Lin { c, den: d }.reduced()
    }
    fn neg(&self) -> Lin {
        Lin {
            c: self.c.iter().map(|v| -v).collect(),
            den: self.den.clone(),
        }
    }
    fn add(&self, o: &Lin) -> Lin {
        let l = self.den.lcm(&o.den);
        let fa = l.div_exact(&self.den);
        let fb = l.div_exact(&o.den);
        let n = self.c.len().max(o.c.len());
        let mut c = vec![Int::ZERO; n];
        for (k, v) in self.c.iter().enumerate() {
            c[k] = v * &fa;
        }
        for (k, v) in o.c.iter().enumerate() {
            c[k] = &c[k] + &(v * &fb);
        }
        Lin { c, den: l }.reduced()
    }
    fn reduced(mut self) -> Lin {
        if self.den.is_one() {
            return self;
        }
        let mut g = self.den.clone();
        for v in &self.c {
            if g.is_one() {
                break;
            }
            if !v.is_zero() {
                g = g.gcd(v);
            }
        }
        if !g.is_one() && !g.is_zero() {
            for v in self.c.iter_mut() {
                *v = v.div_exact(&g);
            }
            self.den = self.den.div_exact(&g);
        }
        self
    }
    fn padded(&self, n: usize) -> Vec<Int> {
        let mut r = self.c.clone();
        r.resize(n, Int::ZERO);
        r
    }
}

#[derive(Clone)]
struct State {
    b: BasicMap,
    locals: Vec<(String, Lin)>,
}

struct Builder<'a> {
    params: &'a [String],
    dims: &'a HashMap<String, usize>,
    np: usize,
    work: usize,
}

fn add_floor(b: &mut BasicMap, e: &Lin) -> Lin {
    if e.den.is_one() {
        return e.clone();
    }
    let n = b.row_len();
    let num = e.padded(n);
    let off = b.off_div();
    for (k, d) in b.divs().iter().enumerate() {
        if let Some(d) = d {
            if d.den == e.den && d.num[..n] == num[..] {
                return Lin::unit(off + k);
            }
        }
    }
    let col = b.add_div(num, e.den.clone());
    Lin::unit(col)
}

impl<'a> Builder<'a> {
    fn tick(&mut self, pos: Pos) -> Result<()> {
        self.work += 1;
        if self.work > MAX_WORK {
            return Err(perr(
                pos,
                "a smaller formula (construction work limit exceeded)",
            ));
        }
        Ok(())
    }

    fn lookup(&self, st: &State, name: &str, pos: Pos) -> Result<Lin> {
        if let Some((_, l)) = st.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(l.clone());
        }
        if let Some(&k) = self.dims.get(name) {
            return Ok(Lin::unit(1 + self.np + k));
        }
        if let Some(k) = self.params.iter().position(|p| p == name) {
            return Ok(Lin::unit(1 + k));
        }
        Err(perr(
            pos,
            format!("a declared parameter or variable (unknown identifier '{name}')"),
        ))
    }

    fn eval(&mut self, st: &mut State, e: &Expr) -> Result<Lin> {
        Ok(match e {
            Expr::Num(v) => Lin::constant(v.clone()),
            Expr::Var(n, p) => self.lookup(st, n, *p)?,
            Expr::Dim(k) => Lin::unit(1 + self.np + k),
            Expr::Sum(items) => {
                let mut acc = Lin::constant(Int::ZERO);
                for (neg, x) in items {
                    let v = self.eval(st, x)?;
                    acc = acc.add(&if *neg { v.neg() } else { v });
                }
                acc
            }
            Expr::Neg(x) => self.eval(st, x)?.neg(),
            Expr::Term(first, rest) => {
                let mut acc = self.eval(st, first)?;
                for (op, x, p) in rest {
                    let v = self.eval(st, x)?;
                    acc = match op {
                        MulOp::Mul => {
                            if let Some((n, d)) = v.as_const() {
                                acc.scale(&n, &d)
                            } else if let Some((n, d)) = acc.as_const() {
                                v.scale(&n, &d)
                            } else {
                                return Err(perr(*p, "an affine expression (product of two non-constant expressions)"));
                            }
                        }
                        MulOp::Div => match v.as_const() {
                            Some((n, d)) if !n.is_zero() => acc.scale(&d, &n),
                            Some(_) => {
                                return Err(perr(*p, "a non-zero divisor (division by zero)"))
                            }
                            None => return Err(perr(*p, "a constant divisor")),
                        },
                        MulOp::Mod => match v.as_const() {
                            Some((n, d)) if d.is_one() && n.is_pos() => {
                                let q = add_floor(&mut st.b, &acc.scale(&Int::ONE, &n));
                                acc.add(&q.scale(&-&n, &Int::ONE))
                            }
                            _ => return Err(perr(*p, "a positive integer constant modulus")),
                        },
                    };
                }
                acc
            }
            Expr::Floor(x) => {
                let v = self.eval(st, x)?;
                add_floor(&mut st.b, &v)
            }
            Expr::Ceil(x) => {
                let v = self.eval(st, x)?;
                add_floor(&mut st.b, &v.neg()).neg()
            }
            Expr::MinMax(..) => {
                // expanded before evaluation; reaching here is an internal inconsistency
                return Err(Error::Invalid("min/max outside a constraint".into()));
            }
        })
    }

    fn check_states(&self, n: usize, pos: Pos) -> Result<()> {
        if n > MAX_DISJUNCTS {
            return Err(perr(pos, format!("a smaller formula (more than {MAX_DISJUNCTS} disjuncts in disjunctive normal form)")));
        }
        Ok(())
    }

    fn process(&mut self, f: &Formula, pos_pol: bool, states: Vec<State>) -> Result<Vec<State>> {
        if states.is_empty() {
            return Ok(states);
        }
        match f {
            Formula::Bool(v) => Ok(if *v == pos_pol { states } else { Vec::new() }),
            Formula::Not(g) => self.process(g, !pos_pol, states),
            Formula::And(items) | Formula::Or(items) => {
                let conj = matches!(f, Formula::And(_)) == pos_pol;
                if conj {
                    let mut st = states;
                    for g in items {
                        st = self.process(g, pos_pol, st)?;
                        if st.is_empty() {
                            break;
                        }
                    }
                    Ok(st)
                } else {
                    let mut out = Vec::new();
                    for g in items {
                        let r = self.process(g, pos_pol, states.clone())?;
                        out.extend(r);
                        self.check_states(out.len(), formula_pos(g))?;
                    }
                    Ok(out)
                }
            }
            Formula::Implies(a, b) => {
                if pos_pol {
                    let mut out = self.process(a, false, states.clone())?;
                    out.extend(self.process(b, true, states)?);
                    self.check_states(out.len(), formula_pos(b))?;
                    Ok(out)
                } else {
                    let st = self.process(a, true, states)?;
                    self.process(b, false, st)
                }
            }
            Formula::Cmp(a, op, b, p) => {
                let mut out = Vec::new();
                for s in states {
                    out.extend(self.atom(a, *op, b, *p, pos_pol, s)?);
                    self.check_states(out.len(), *p)?;
                }
                Ok(out)
            }
            Formula::Exists(vars, body) => {
                if pos_pol {
                    let mut st = states;
                    for (name, def, p) in vars {
                        let mut next = Vec::new();
                        for mut s in st {
                            self.tick(*p)?;
                            match def {
                                None => {
                                    let col = s.b.add_existential();
                                    s.locals.push((name.clone(), Lin::unit(col)));
                                    next.push(s);
                                }
                                Some(d) if !has_minmax(d) => {
                                    let v = self.eval(&mut s, d)?;
                                    if v.den.is_one() {
                                        s.locals.push((name.clone(), v));
                                    } else {
                                        let col = s.b.add_existential();
                                        let mut row = v.padded(s.b.row_len());
                                        row[col] = -&v.den;
                                        s.b.add_eq(row);
                                        s.locals.push((name.clone(), Lin::unit(col)));
                                    }
                                    next.push(s);
                                }
                                Some(d) => {
                                    let col = s.b.add_existential();
                                    s.locals.push((name.clone(), Lin::unit(col)));
                                    let eq = Formula::Cmp(
                                        Expr::Var(name.clone(), *p),
                                        CmpOp::Eq,
                                        d.clone(),
                                        *p,
                                    );
                                    next.extend(self.process(&eq, true, vec![s])?);
                                }
                            }
                        }
                        st = next;
                    }
                    let mut st = self.process(body, true, st)?;
                    for s in st.iter_mut() {
                        let n = s.locals.len().saturating_sub(vars.len());
                        s.locals.truncate(n);
                    }
                    Ok(st)
                } else {
                    let mut out = Vec::new();
                    for s in states {
                        out.extend(self.negated_exists(f, s)?);
                        self.check_states(out.len(), formula_pos(f))?;
                    }
                    Ok(out)
                }
            }
        }
    }

    /// `s and not f` for `f` an `exists` formula: build `f` in a space where
    /// the current locals are dimensions, complement it, and embed the result.
    fn negated_exists(&mut self, f: &Formula, s: State) -> Result<Vec<State>> {
        let sp = s.b.space();
        let nd = sp.n_in() + sp.n_out() + s.b.n_div();
        let ext = Space::set(sp.params.clone(), Tuple::anonymous(nd));
        let sub = State {
            b: BasicMap::universe(ext.clone()),
            locals: s.locals.clone(),
        };
        let built = self.process(f, true, vec![sub])?;
        let mut m = Map::empty(ext);
        for t in built {
            m.add_basic(t.b)?;
        }
        let c = m.complement()?;
        let mut out = Vec::new();
        for cb in c.basic_maps() {
            let mut b = s.b.clone();
            let base = b.n_div();
            for _ in 0..cb.n_div() {
                b.add_existential();
            }
            for (k, d) in cb.divs().iter().enumerate() {
                if let Some(d) = d {
                    b.divs[base + k] = Some(Div {
                        num: d.num.clone(),
                        den: d.den.clone(),
                    });
                }
            }
            for r in cb.eqs() {
                b.add_eq(r.clone());
            }
            for r in cb.ineqs() {
                b.add_ineq(r.clone());
            }
            out.push(State {
                b,
                locals: s.locals.clone(),
            });
        }
        Ok(out)
    }

    fn atom(
        &mut self,
        a: &Expr,
        op: CmpOp,
        b: &Expr,
        p: Pos,
        pol: bool,
        mut s: State,
    ) -> Result<Vec<State>> {
        self.tick(p)?;
        // expand the first min/max, if any
        let mut found = None;
        find_minmax(a, &mut found);
        if found.is_none() {
            find_minmax(b, &mut found);
        }
        if let Some((is_min, args)) = found {
            let mut out = Vec::new();
            for j in 0..args.len() {
                let mut conds = Vec::new();
                for l in 0..args.len() {
                    if l == j {
                        continue;
                    }
                    let cop = match (is_min, l < j) {
                        (true, true) => CmpOp::Lt,
                        (true, false) => CmpOp::Le,
                        (false, true) => CmpOp::Gt,
                        (false, false) => CmpOp::Ge,
                    };
                    conds.push(Formula::Cmp(args[j].clone(), cop, args[l].clone(), p));
                }
                let mut done = false;
                let a2 = replace_minmax(a, &args[j], &mut done);
                let b2 = replace_minmax(b, &args[j], &mut done);
                let st = self.process(&Formula::And(conds), true, vec![s.clone()])?;
                let mut st2 = Vec::new();
                for t in st {
                    st2.extend(self.atom(&a2, op, &b2, p, pol, t)?);
                    self.check_states(st2.len(), p)?;
                }
                out.extend(st2);
                self.check_states(out.len(), p)?;
            }
            return Ok(out);
        }
        let va = self.eval(&mut s, a)?;
        let vb = self.eval(&mut s, b)?;
        let d = va.add(&vb.neg());
        let n = s.b.row_len();
        let r = d.padded(n);
        let neg_r = |r: &Vec<Int>| -> Vec<Int> { r.iter().map(|v| -v).collect() };
        let minus_one = |mut r: Vec<Int>| -> Vec<Int> {
            r[0] = &r[0] - &Int::ONE;
            r
        };
        // normalize to: Ge(row) (row >= 0), Eq(row), Ne(row)
        enum A {
            Ge(Vec<Int>),
            Eq(Vec<Int>),
            Ne(Vec<Int>),
        }
        let at = match op {
            CmpOp::Ge => A::Ge(r),
            CmpOp::Gt => A::Ge(minus_one(r)),
            CmpOp::Le => A::Ge(neg_r(&r)),
            CmpOp::Lt => A::Ge(minus_one(neg_r(&r))),
            CmpOp::Eq => A::Eq(r),
            CmpOp::Ne => A::Ne(r),
        };
        let at = if pol {
            at
        } else {
            match at {
                A::Ge(r) => A::Ge(minus_one(neg_r(&r))),
                A::Eq(r) => A::Ne(r),
                A::Ne(r) => A::Eq(r),
            }
        };
        let mut out = Vec::new();
        match at {
            A::Ge(r) => {
                if !trivially_false(&r, false) {
                    s.b.add_ineq(r);
                    out.push(s);
                }
            }
            A::Eq(r) => {
                if !trivially_false(&r, true) {
                    s.b.add_eq(r);
                    out.push(s);
                }
            }
            A::Ne(r) => {
                let up = minus_one(r.clone());
                let down = minus_one(neg_r(&r));
                if !trivially_false(&up, false) {
                    let mut t = s.clone();
                    t.b.add_ineq(up);
                    out.push(t);
                }
                if !trivially_false(&down, false) {
                    s.b.add_ineq(down);
                    out.push(s);
                }
            }
        }
        Ok(out)
    }
}

fn trivially_false(r: &[Int], eq: bool) -> bool {
    if r[1..].iter().any(|v| !v.is_zero()) {
        return false;
    }
    if eq {
        !r[0].is_zero()
    } else {
        r[0].is_neg()
    }
}

fn formula_pos(f: &Formula) -> Pos {
    match f {
        Formula::Cmp(_, _, _, p) => *p,
        Formula::And(v) | Formula::Or(v) => v
            .first()
            .map(formula_pos)
            .unwrap_or(Pos { line: 1, col: 1 }),
        Formula::Not(g) => formula_pos(g),
        Formula::Implies(a, _) => formula_pos(a),
        Formula::Exists(v, b) => v.first().map(|x| x.2).unwrap_or_else(|| formula_pos(b)),
        Formula::Bool(_) => Pos { line: 1, col: 1 },
    }
}

fn has_minmax(e: &Expr) -> bool {
    let mut f = None;
    find_minmax(e, &mut f);
    f.is_some()
}

fn find_minmax(e: &Expr, found: &mut Option<(bool, Vec<Expr>)>) {
    if found.is_some() {
        return;
    }
    match e {
        Expr::Num(_) | Expr::Var(..) | Expr::Dim(_) => {}
        Expr::Sum(items) => items.iter().for_each(|(_, x)| find_minmax(x, found)),
        Expr::Neg(x) | Expr::Floor(x) | Expr::Ceil(x) => find_minmax(x, found),
        Expr::Term(a, rest) => {
            find_minmax(a, found);
            rest.iter().for_each(|(_, x, _)| find_minmax(x, found));
        }
        Expr::MinMax(m, args) => *found = Some((*m, args.clone())),
    }
}

fn replace_minmax(e: &Expr, with: &Expr, done: &mut bool) -> Expr {
    if *done {
        return e.clone();
    }
    match e {
        Expr::Num(_) | Expr::Var(..) | Expr::Dim(_) => e.clone(),
        Expr::Sum(items) => Expr::Sum(
            items
                .iter()
                .map(|(n, x)| (*n, replace_minmax(x, with, done)))
                .collect(),
        ),
        Expr::Neg(x) => Expr::Neg(Box::new(replace_minmax(x, with, done))),
        Expr::Floor(x) => Expr::Floor(Box::new(replace_minmax(x, with, done))),
        Expr::Ceil(x) => Expr::Ceil(Box::new(replace_minmax(x, with, done))),
        Expr::Term(a, rest) => {
            let a2 = replace_minmax(a, with, done);
            let r2 = rest
                .iter()
                .map(|(o, x, p)| (*o, replace_minmax(x, with, done), *p))
                .collect();
            Expr::Term(Box::new(a2), r2)
        }
        Expr::MinMax(..) => {
            *done = true;
            with.clone()
        }
    }
}

// ---------------------------------------------------------------------------
// Entry points

struct Parsed {
    params: Arc<[String]>,
    maps: Vec<(Pos, Map)>,
}

fn parse_text(src: &str, drop_refuted: bool) -> Result<Parsed> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        k: 0,
        depth: 0,
    };
    let ast = p.parse_input()?;
    let mut maps = Vec::new();
    let mut work = 0;
    for part in &ast.parts {
        let mut bld = Builder {
            params: &ast.params,
            dims: &part.dims,
            np: ast.params.len(),
            work,
        };
        let init = State {
            b: BasicMap::universe(part.space.clone()),
            locals: Vec::new(),
        };
        let states = bld.process(&part.formula, true, vec![init])?;
        work = bld.work;
        // parts of the same space are merged here (not by `union`, which copies)
        let k = match maps
            .iter()
            .position(|(_, m): &(Pos, Map)| m.space().tuples_match(&part.space))
        {
            Some(k) => k,
            None => {
                maps.push((part.pos, Map::empty(part.space.clone())));
                maps.len() - 1
            }
        };
        for s in states {
            // a disjunct that is empty for a shallow reason (an equality
            // against an order constraint, say) is left out of a map, as
            // isl's parser leaves out what its simplification finds empty (a
            // basic map is kept as written)
            if !(drop_refuted && crate::refute::refute(&s.b)) {
                maps[k].1.add_basic(s.b)?;
            }
        }
    }
    Ok(Parsed {
        params: ast.params,
        maps,
    })
}

/// Parse a union of sets or relations (the same as `s.parse::<UnionMap>()`).
///
/// ```
/// let u = presburger::parse::parse_union_map("[n] -> { A[i] : 0 <= i < n; B[] }").unwrap();
/// assert_eq!(u.maps().len(), 2);
/// assert_eq!(u.params(), &["n".to_string()]);
/// ```
pub fn parse_union_map(s: &str) -> Result<UnionMap> {
    let p = parse_text(s, true)?;
    let mut u = UnionMap::empty(p.params);
    for (_, m) in p.maps {
        u.add_map(m)?;
    }
    Ok(u)
}

/// Parse a set or relation living in a single space (the same as `s.parse::<Map>()`).
///
/// Several parts in the same space are united; parts in different spaces are
/// an error. The empty union `{ }` gives the empty parameter set.
///
/// ```
/// let m = presburger::parse::parse_map("{ [i] : i >= 0; [i] : i <= -5 }").unwrap();
/// assert_eq!(m.basic_maps().len(), 2);
/// assert!(presburger::parse::parse_map("{ [i]; [i, j] }").is_err());
/// ```
pub fn parse_map(s: &str) -> Result<Map> {
    parse_map_with(s, true)
}

/// [`parse_map`], leaving out the disjuncts that `refute` proves empty
/// only if `drop_refuted`.
fn parse_map_with(s: &str, drop_refuted: bool) -> Result<Map> {
    let p = parse_text(s, drop_refuted)?;
    let mut it = p.maps.into_iter();
    let Some((_, m)) = it.next() else {
        return Ok(Map::empty(Space::params_only(p.params)));
    };
    if let Some((pos, _)) = it.next() {
        return Err(perr(
            pos,
            "a part in the same space as the first one (use a union map for several spaces)",
        ));
    }
    Ok(m)
}

/// Parse a single conjunction (the same as `s.parse::<BasicMap>()`).
///
/// The text may be any formula whose disjunctive normal form has at most one
/// non-empty disjunct; `false` gives the empty basic map.
///
/// ```
/// let b = presburger::parse::parse_basic_map("{ [i, j] : 0 <= i <= j and j mod 2 = 0 }").unwrap();
/// assert_eq!(b.n_div(), 1);
/// ```
pub fn parse_basic_map(s: &str) -> Result<BasicMap> {
    let m = parse_map_with(s, false)?;
    match m.basic_maps().len() {
        0 => Ok(BasicMap::empty(m.space().clone())),
        1 => Ok(m.basic_maps()[0].clone()),
        _ => Err(perr(
            Pos { line: 1, col: 1 },
            "a single conjunction (the text describes a union of several basic maps)",
        )),
    }
}

impl FromStr for UnionMap {
    type Err = Error;
    /// See [`parse_union_map`].
    fn from_str(s: &str) -> Result<UnionMap> {
        parse_union_map(s)
    }
}

impl FromStr for Map {
    type Err = Error;
    /// See [`parse_map`].
    fn from_str(s: &str) -> Result<Map> {
        parse_map(s)
    }
}

impl FromStr for BasicMap {
    type Err = Error;
    /// See [`parse_basic_map`].
    fn from_str(s: &str) -> Result<BasicMap> {
        parse_basic_map(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_at(s: &str) -> (usize, usize) {
        match s.parse::<UnionMap>() {
            Err(Error::Parse { line, col, .. }) => (line, col),
            other => panic!("expected a parse error for {s:?}, got {other:?}"),
        }
    }

    #[test]
    fn basic_shapes() {
        let m: Map = "[n] -> { [i] -> [j] : 0 <= i < n and j = i + 1 }"
            .parse()
            .unwrap();
        assert_eq!(m.space().n_in(), 1);
        assert_eq!(m.basic_maps().len(), 1);
        assert_eq!(m.basic_maps()[0].ineqs().len(), 2);
        assert_eq!(m.basic_maps()[0].eqs().len(), 1);
        let u: UnionMap = "{ }".parse().unwrap();
        assert!(u.maps().is_empty());
        let p: Map = "[n] -> { : n > 0 }".parse().unwrap();
        assert_eq!(p.space().n_out(), 0);
        let w: Map = "{ [S[i] -> R[]] -> A[i] }".parse().unwrap();
        assert!(w.space().domain.as_ref().unwrap().is_nested());
        let r: Map = "{ [i] -> [i] }".parse().unwrap();
        assert_eq!(r.basic_maps()[0].eqs().len(), 1);
        let f: Map = "{ [i] : exists (e0 = floor((i)/2), e1 : i = 2e0 + e1 and 0 <= e1 <= 0) }"
            .parse()
            .unwrap();
        assert_eq!(f.basic_maps()[0].n_div(), 2);
        let mm: Map = "{ [i] : i <= min(5, 10 - 2i) }".parse().unwrap();
        assert_eq!(mm.basic_maps().len(), 2);
        // a disjunct refuted at once is left out: 2i <= 10 and 10 - i < 5
        let mm: Map = "{ [i] : i <= min(5, 10 - i) }".parse().unwrap();
        assert_eq!(mm.basic_maps().len(), 1);
    }

    #[test]
    fn errors() {
        assert_eq!(err_at("{ [i] : i >= }"), (1, 14));
        assert_eq!(err_at("[n] -> { [i] : i < m }"), (1, 20));
        assert_eq!(err_at("{ [i] : floor(i/0) >= 0 }"), (1, 16));
        assert_eq!(err_at("{ [i, j] : i*j >= 0 }"), (1, 13));
        assert_eq!(err_at("{ [i] } x"), (1, 9));
        assert_eq!(err_at("{ [i] \n : i >= 0"), (2, 10));
    }
}
