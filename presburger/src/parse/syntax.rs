//! The syntax tree of a formula: affine expressions (before lowering), comparisons
//! and the logical connectives, with the positions errors report; and the
//! expansion of `min`/`max` by rewriting.

use super::lexer::Pos;
use crate::int::Int;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MulOp {
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Debug)]
pub(super) enum Expr {
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
pub(super) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Debug)]
pub(super) enum Formula {
    Bool(bool),
    Cmp(Expr, CmpOp, Expr, Pos),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Exists(Vec<(String, Option<Expr>, Pos)>, Box<Formula>),
}

pub(super) enum Node {
    E(Expr),
    F(Formula),
}

pub(super) fn formula_pos(f: &Formula) -> Pos {
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

pub(super) fn has_minmax(e: &Expr) -> bool {
    let mut f = None;
    find_minmax(e, &mut f);
    f.is_some()
}

pub(super) fn find_minmax(e: &Expr, found: &mut Option<(bool, Vec<Expr>)>) {
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

pub(super) fn replace_minmax(e: &Expr, with: &Expr, done: &mut bool) -> Expr {
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
