//! The contracted program: local arrays rewritten through their modular
//! allocation, run by the reference interpreter.
//!
//! Each local array `double X[e0][e1]...;` with allocation σ (basis `B`,
//! folds) gets one dimension per coordinate `r · x` of `B x` that is not
//! dropped: its extent is the modulus, or, kept whole, the span
//! `Σ |r_k| (e_k − 1) + 1`; every reference `X[s0][s1]` becomes
//! `X[(r · s + o) % b]...` where the offset `o = Σ_{r_k < 0} |r_k| (e_k − 1)`
//! makes the coordinate non-negative (the subscripts of a valid run lie in
//! the extent), so C's `%` is the modulo; the offset is the same for every
//! cell, so two cells share storage iff σ maps them together. The
//! allocation is computed under the parallel order, whose conflicts contain
//! the sequential ones, so it is valid for the interpreter's sequential run.
//! Array parameters are never rewritten (all their cells are live out).

use std::collections::HashMap;

use scop::ast::{BinOp, Expr, ExprKind, Function, Stmt, StmtKind};
use scop::model::ArrayOrigin;

use crate::contract::{Allocation, Fold};
use crate::error::{Error, Result};

/// The kernel `src` with its local arrays contracted, and the allocations
/// applied (non-identity ones only).
pub fn contract_kernel(src: &str) -> Result<(Function, Vec<Allocation>)> {
    let mut f = scop::parse_kernel(src)?;
    let analysis = crate::analyze(src, false)?;
    let model = &analysis.model;
    let mut applied = Vec::new();
    for r in &analysis.arrays {
        let local = model
            .arrays()
            .iter()
            .any(|a| a.name == r.name && a.kind == ArrayOrigin::LocalArray);
        if local && !r.allocation.is_identity() {
            applied.push(r.allocation.clone());
        }
    }
    apply_allocations(&mut f, &applied);
    Ok((f, applied))
}

/// Rewrites the arrays of `allocs` (declarations and references) of `f`
/// through them (any allocation: a test can apply a wrong one).
pub fn apply_allocations(f: &mut Function, allocs: &[Allocation]) {
    let folds: HashMap<String, &Allocation> =
        allocs.iter().map(|a| (a.name().to_string(), a)).collect();
    let mut dims = HashMap::new();
    for s in &mut f.body {
        rewrite_in(s, &folds, &mut dims);
    }
}

type Folds<'a> = HashMap<String, &'a Allocation>;

fn int(v: i64, e: &Expr) -> Expr {
    Expr {
        kind: ExprKind::Int(v),
        pos: e.pos,
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let pos = a.pos;
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        pos,
    }
}

/// `Σ row_k · e_k` (`None` for a zero row).
fn combine(row: &[i64], es: &[Expr]) -> Option<Expr> {
    let mut acc: Option<Expr> = None;
    for (c, e) in row.iter().zip(es) {
        if *c == 0 {
            continue;
        }
        let term = if c.abs() == 1 {
            e.clone()
        } else {
            bin(BinOp::Mul, int(c.abs(), e), e.clone())
        };
        acc = Some(match (acc, *c > 0) {
            (None, true) => term,
            (None, false) => bin(BinOp::Sub, int(0, e), term),
            (Some(a), true) => bin(BinOp::Add, a, term),
            (Some(a), false) => bin(BinOp::Sub, a, term),
        });
    }
    acc
}

/// `Σ_{row_k < 0} |row_k| · (dim_k − 1)`: added to a coordinate with
/// negative coefficients, it makes the coordinate non-negative.
fn offset(row: &[i64], dims: &[Expr]) -> Option<Expr> {
    let neg: Vec<i64> = row.iter().map(|c| if *c < 0 { -c } else { 0 }).collect();
    let ones: Vec<Expr> = dims
        .iter()
        .map(|d| bin(BinOp::Sub, d.clone(), int(1, d)))
        .collect();
    combine(&neg, &ones)
}

/// The new subscripts of a reference, given the old ones and the declared
/// extents.
fn fold_subscripts(subs: &mut Vec<Expr>, a: &Allocation, dims: &[Expr]) {
    let old = std::mem::take(subs);
    for (row, f) in a.basis().iter().zip(a.folds()) {
        let Some(e) = combine(row, &old) else {
            continue;
        };
        let e = match offset(row, dims) {
            Some(o) => bin(BinOp::Add, e, o),
            None => e,
        };
        match f {
            Fold::Drop => {}
            Fold::Keep => subs.push(e),
            Fold::Mod(b) => {
                let m = int(*b, &e);
                subs.push(bin(BinOp::Mod, e, m));
            }
        }
    }
}

/// The new extents.
fn fold_dims(dims: &[Expr], a: &Allocation) -> Vec<Expr> {
    let mut out = Vec::new();
    for (row, f) in a.basis().iter().zip(a.folds()) {
        match f {
            Fold::Drop => {}
            Fold::Mod(b) => out.push(int(*b, &dims[0])),
            Fold::Keep => {
                let abs: Vec<i64> = row.iter().map(|c| c.abs()).collect();
                let ones: Vec<Expr> = dims
                    .iter()
                    .map(|d| bin(BinOp::Sub, d.clone(), int(1, d)))
                    .collect();
                let span = combine(&abs, &ones).unwrap_or_else(|| int(0, &dims[0]));
                out.push(bin(BinOp::Add, span, int(1, &dims[0])));
            }
        }
    }
    out
}

fn rewrite_expr(e: &mut Expr, folds: &Folds, dims: &HashMap<String, Vec<Expr>>) {
    match &mut e.kind {
        ExprKind::Index(name, subs) => {
            for s in subs.iter_mut() {
                rewrite_expr(s, folds, dims);
            }
            if let (Some(a), Some(d)) = (folds.get(name.as_str()), dims.get(name.as_str())) {
                fold_subscripts(subs, a, d);
            }
        }
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => rewrite_expr(a, folds, dims),
        ExprKind::Binary(_, a, b) => {
            rewrite_expr(a, folds, dims);
            rewrite_expr(b, folds, dims);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(|a| rewrite_expr(a, folds, dims)),
        ExprKind::Int(_) | ExprKind::Float(..) | ExprKind::Var(_) => {}
    }
}

/// Rewrites `s`; `dims` collects the original extents of the declared
/// local arrays (declarations precede their uses).
fn rewrite_in(s: &mut Stmt, folds: &Folds, dims: &mut HashMap<String, Vec<Expr>>) {
    match &mut s.kind {
        StmtKind::ArrayDecl { name, dims: ds } => {
            if let Some(a) = folds.get(name.as_str()) {
                dims.insert(name.clone(), ds.clone());
                *ds = fold_dims(ds, a);
            }
        }
        StmtKind::Decl { init, .. } => {
            if let Some(e) = init {
                rewrite_expr(e, folds, dims);
            }
        }
        StmtKind::Assign { lhs, rhs, .. } => {
            rewrite_expr(lhs, folds, dims);
            rewrite_expr(rhs, folds, dims);
        }
        StmtKind::For { body, .. } => rewrite_in(body, folds, dims),
        StmtKind::If { then_s, else_s, .. } => {
            rewrite_in(then_s, folds, dims);
            if let Some(e) = else_s {
                rewrite_in(e, folds, dims);
            }
        }
        StmtKind::Block(b) => b.iter_mut().for_each(|s| rewrite_in(s, folds, dims)),
        // an unknown function's call has no array accesses we model
        StmtKind::Call { .. } => {}
        StmtKind::Empty => {}
    }
}

/// Runs the contracted kernel like `poly interp` (`NAME=VALUE` arguments)
/// and returns the same `NAME CHECKSUM` lines, one per array parameter.
pub fn interp_contracted(src: &str, assignments: &[String]) -> Result<String> {
    let (f, _) = contract_kernel(src)?;
    interp_function(&f, assignments)
}

/// Runs a (rewritten) kernel like `poly interp` (the front end's
/// [`scop::commands::interp_function`]).
pub fn interp_function(f: &Function, assignments: &[String]) -> Result<String> {
    // the front end's own errors (bad `NAME=VALUE` arguments included), so
    // that `poly interp --contract` reports them as `poly interp` does
    scop::commands::interp_function(f, assignments).map_err(Error::Front)
}
