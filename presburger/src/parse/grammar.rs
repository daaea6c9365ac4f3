//! The grammar: a recursive-descent parser from tokens to syntax trees (the
//! parameters, and per part its space, dimension names and formula).

use std::collections::HashMap;
use std::sync::Arc;

use super::lexer::{is_keyword, perr, Pos, Tok, Token};
use super::limits::MAX_DEPTH;
use super::syntax::{CmpOp, Expr, Formula, MulOp, Node};
use crate::budget;
use crate::error::{Error, Result};
use crate::space::{Space, Tuple};

pub(super) struct Parser {
    pub(super) toks: Vec<Token>,
    pub(super) k: usize,
    pub(super) depth: usize,
}

/// Per-part context while reading tuples.
pub(super) struct PartCtx {
    pub(super) ndims: usize,
    pub(super) names: HashMap<String, usize>,
    pub(super) atoms: Vec<Formula>,
}

pub(super) struct Part {
    pub(super) pos: Pos,
    pub(super) space: Space,
    pub(super) dims: HashMap<String, usize>,
    pub(super) formula: Formula,
}

pub(super) struct Ast {
    /// Shared by the spaces of all parts.
    pub(super) params: Arc<[String]>,
    pub(super) parts: Vec<Part>,
}

impl Parser {
    pub(super) fn peek(&self) -> &Tok {
        &self.toks[self.k].tok
    }
    pub(super) fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.k + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    pub(super) fn pos(&self) -> Pos {
        self.toks[self.k].pos
    }
    pub(super) fn bump(&mut self) {
        if self.k + 1 < self.toks.len() {
            self.k += 1;
        }
    }
    pub(super) fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(t) if *t == s)
    }
    pub(super) fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(t) if t == s)
    }
    pub(super) fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(super) fn eat_kw(&mut self, s: &str) -> bool {
        if self.is_kw(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(super) fn err(&self, expected: impl Into<String>) -> Error {
        perr(self.pos(), expected)
    }
    pub(super) fn expect_sym(&mut self, s: &str) -> Result<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.err(format!("'{s}'")))
        }
    }
    /// Enter a nested construct: one unit of the operation budget, and the
    /// recursion guard [`MAX_DEPTH`].
    pub(super) fn enter(&mut self) -> Result<()> {
        budget::tick(1)?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("less nesting (at most {MAX_DEPTH} levels)")));
        }
        Ok(())
    }
    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }
    /// A non-keyword identifier at the current token.
    pub(super) fn name(&self) -> Option<String> {
        match self.peek() {
            Tok::Ident(s) if !is_keyword(s) => Some(s.clone()),
            _ => None,
        }
    }

    pub(super) fn parse_input(&mut self) -> Result<Ast> {
        let mut params = Vec::new();
        let mut param_atoms: Vec<Formula> = Vec::new();
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
                    params.push(n.clone());
                    self.bump();
                    // `n = e` or the range shorthand `n = a:b` (a <= n <= b)
                    if self.eat_sym("=") {
                        let var = Expr::Var(n, p);
                        param_atoms.extend(self.parse_value(var)?);
                    }
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
            let mut part = self.parse_part(&params)?;
            if !param_atoms.is_empty() {
                let mut all = param_atoms.clone();
                all.push(part.formula);
                part.formula = Formula::And(all);
            }
            parts.push(part);
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

    pub(super) fn parse_part(&mut self, params: &Arc<[String]>) -> Result<Part> {
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

    pub(super) fn parse_tuple(&mut self, params: &[String], ctx: &mut PartCtx) -> Result<Tuple> {
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

    pub(super) fn parse_entry(&mut self, params: &[String], ctx: &mut PartCtx) -> Result<String> {
        let idx = ctx.ndims;
        // `*`: an unnamed, unconstrained dimension (as isl reads it)
        if self.is_sym("*") && matches!(self.peek_at(1), Tok::Sym(",") | Tok::Sym("]")) {
            self.bump();
            ctx.ndims += 1;
            return Ok(String::new());
        }
        if let Some(n) = self.name() {
            let bound = ctx.names.contains_key(&n) || params.contains(&n);
            if matches!(self.peek_at(1), Tok::Sym("=")) {
                self.bump();
                self.bump();
                let atoms = self.parse_value(Expr::Dim(idx))?;
                ctx.ndims += 1;
                if !bound {
                    ctx.names.insert(n.clone(), idx);
                }
                ctx.atoms.extend(atoms);
                return Ok(n);
            }
            if !bound && matches!(self.peek_at(1), Tok::Sym(",") | Tok::Sym("]")) {
                self.bump();
                ctx.ndims += 1;
                ctx.names.insert(n.clone(), idx);
                return Ok(n);
            }
        }
        // an expression `e` (the dimension equals it) or an unnamed range `a:b`;
        // not after a new name (`[i : ...` is a missing `]`, not a range from `i`)
        let new_name = self
            .name()
            .is_some_and(|n| !ctx.names.contains_key(&n) && !params.contains(&n));
        let atoms = if new_name {
            let pos = self.pos();
            let e = self.parse_expr()?;
            vec![Formula::Cmp(Expr::Dim(idx), CmpOp::Eq, e, pos)]
        } else {
            self.parse_value(Expr::Dim(idx))?
        };
        ctx.ndims += 1;
        ctx.atoms.extend(atoms);
        Ok(String::new())
    }

    /// After `x =`: an expression `e` (`x = e`) or isl's range shorthand
    /// `a:b` (`a <= x <= b`; `a:` alone is `a <= x`), as the constraints on `x`.
    pub(super) fn parse_value(&mut self, x: Expr) -> Result<Vec<Formula>> {
        let pos = self.pos();
        let e = self.parse_expr()?;
        if !self.eat_sym(":") {
            return Ok(vec![Formula::Cmp(x, CmpOp::Eq, e, pos)]);
        }
        let mut atoms = vec![Formula::Cmp(x.clone(), CmpOp::Ge, e, pos)];
        // `a:` alone (before `,` or `]`) has no upper bound
        if !(self.is_sym(",") || self.is_sym("]")) {
            let upper_pos = self.pos();
            let upper = self.parse_expr()?;
            atoms.push(Formula::Cmp(x, CmpOp::Le, upper, upper_pos));
        }
        Ok(atoms)
    }

    pub(super) fn parse_expr(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.parse_add()? {
            Node::E(e) => Ok(e),
            Node::F(_) => Err(perr(pos, "an expression")),
        }
    }

    pub(super) fn parse_formula(&mut self) -> Result<Formula> {
        match self.parse_implies()? {
            Node::F(f) => Ok(f),
            Node::E(_) => Err(self.err("a comparison operator")),
        }
    }

    pub(super) fn to_formula(&self, n: Node, pos: Pos) -> Result<Formula> {
        match n {
            Node::F(f) => Ok(f),
            Node::E(_) => Err(perr(pos, "a formula (a comparison, not a bare expression)")),
        }
    }

    pub(super) fn parse_implies(&mut self) -> Result<Node> {
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

    pub(super) fn parse_or(&mut self) -> Result<Node> {
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

    pub(super) fn parse_and(&mut self) -> Result<Node> {
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

    pub(super) fn parse_not(&mut self) -> Result<Node> {
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

    pub(super) fn cmp_op(&self) -> Option<CmpOp> {
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
    pub(super) fn parse_cmp(&mut self) -> Result<Node> {
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

    pub(super) fn parse_add(&mut self) -> Result<Node> {
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

    pub(super) fn parse_mul_expr(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.parse_mul()? {
            Node::E(e) => Ok(e),
            Node::F(_) => Err(perr(pos, "an expression")),
        }
    }

    /// True if the current token can start a factor of an implicit product (`2i`, `2(i + 1)`).
    pub(super) fn starts_implicit_factor(&self) -> bool {
        match self.peek() {
            Tok::Ident(s) => {
                !is_keyword(s) || matches!(s.as_str(), "floor" | "ceil" | "min" | "max")
            }
            Tok::Sym("(") => true,
            _ => false,
        }
    }

    pub(super) fn parse_mul(&mut self) -> Result<Node> {
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

    pub(super) fn parse_unary(&mut self) -> Result<Node> {
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

    pub(super) fn parse_primary(&mut self) -> Result<Node> {
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
