//! The contracted program: local arrays rewritten through their modular
//! allocation, run by the reference interpreter.
//!
//! Each local array `double X[e0][e1]...;` with allocation σ becomes
//! `double X[b0][e1]...;` (a folded dimension's extent is its modulus, a
//! dropped dimension disappears) and every reference `X[s0][s1]` becomes
//! `X[s0 % b0][s1]`: the subscripts of a valid run lie in the array's
//! extent, so they are non-negative and C's `%` is the modulo. The
//! allocation is computed under the parallel order, whose conflicts contain
//! the sequential ones, so it is valid for the interpreter's sequential run.
//! Array parameters are never rewritten (all their cells are live out).

use std::collections::HashMap;

use scop::ast::{BinOp, Expr, ExprKind, Function, ParamKind, Stmt, StmtKind};
use scop::model::ArrayOrigin;

use crate::contract::{Allocation, Fold};
use crate::error::{Error, Result};

/// The kernel `src` with its local arrays contracted, and the allocations
/// applied (non-identity ones only).
pub fn contract_kernel(src: &str) -> Result<(Function, Vec<Allocation>)> {
    let mut f = scop::parse_kernel(src)?;
    let analysis = crate::analyze(src, false)?;
    let model = &analysis.model;
    let mut folds = HashMap::new();
    let mut applied = Vec::new();
    for r in &analysis.arrays {
        let local = model
            .arrays()
            .iter()
            .any(|a| a.name == r.name && a.kind == ArrayOrigin::LocalArray);
        if local && !r.allocation.is_identity() {
            folds.insert(r.name.clone(), r.allocation.folds().to_vec());
            applied.push(r.allocation.clone());
        }
    }
    let folds: Vec<(String, Vec<Fold>)> = folds.into_iter().collect();
    apply_folds(&mut f, &folds);
    Ok((f, applied))
}

/// Rewrites the arrays named in `folds` (declarations and references) of
/// `f` through the given folds (any folds: a test can apply a wrong one).
pub fn apply_folds(f: &mut Function, folds: &[(String, Vec<Fold>)]) {
    let folds: HashMap<String, Vec<Fold>> = folds.iter().cloned().collect();
    for s in &mut f.body {
        rewrite_stmt(s, &folds);
    }
}

fn int(v: i64, e: &Expr) -> Expr {
    Expr {
        kind: ExprKind::Int(v),
        pos: e.pos,
    }
}

fn fold_subscripts(subs: &mut Vec<Expr>, folds: &[Fold]) {
    let old = std::mem::take(subs);
    for (e, f) in old.into_iter().zip(folds) {
        match f {
            Fold::Drop => {}
            Fold::Keep => subs.push(e),
            Fold::Mod(b) => {
                let m = int(*b, &e);
                let pos = e.pos;
                subs.push(Expr {
                    kind: ExprKind::Binary(BinOp::Mod, Box::new(e), Box::new(m)),
                    pos,
                });
            }
        }
    }
}

fn rewrite_expr(e: &mut Expr, folds: &HashMap<String, Vec<Fold>>) {
    match &mut e.kind {
        ExprKind::Index(name, subs) => {
            for s in subs.iter_mut() {
                rewrite_expr(s, folds);
            }
            if let Some(f) = folds.get(name.as_str()) {
                fold_subscripts(subs, f);
            }
        }
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => rewrite_expr(a, folds),
        ExprKind::Binary(_, a, b) => {
            rewrite_expr(a, folds);
            rewrite_expr(b, folds);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(|a| rewrite_expr(a, folds)),
        ExprKind::Int(_) | ExprKind::Float(..) | ExprKind::Var(_) => {}
    }
}

fn rewrite_stmt(s: &mut Stmt, folds: &HashMap<String, Vec<Fold>>) {
    match &mut s.kind {
        StmtKind::ArrayDecl { name, dims } => {
            if let Some(f) = folds.get(name.as_str()) {
                let old = std::mem::take(dims);
                for (e, fold) in old.into_iter().zip(f) {
                    match fold {
                        Fold::Drop => {}
                        Fold::Keep => dims.push(e),
                        Fold::Mod(b) => dims.push(int(*b, &e)),
                    }
                }
            }
        }
        StmtKind::Decl { init, .. } => {
            if let Some(e) = init {
                rewrite_expr(e, folds);
            }
        }
        StmtKind::Assign { lhs, rhs, .. } => {
            rewrite_expr(lhs, folds);
            rewrite_expr(rhs, folds);
        }
        StmtKind::For { body, .. } => rewrite_stmt(body, folds),
        StmtKind::If { then_s, else_s, .. } => {
            rewrite_stmt(then_s, folds);
            if let Some(e) = else_s {
                rewrite_stmt(e, folds);
            }
        }
        StmtKind::Block(b) => b.iter_mut().for_each(|s| rewrite_stmt(s, folds)),
        StmtKind::Empty => {}
    }
}

/// Runs the contracted kernel like `poly interp` (`NAME=VALUE` arguments)
/// and returns the same `NAME CHECKSUM` lines, one per array parameter.
pub fn interp_contracted(src: &str, assignments: &[String]) -> Result<String> {
    let (f, _) = contract_kernel(src)?;
    interp_function(&f, assignments)
}

/// Runs a (rewritten) kernel like `poly interp`.
pub fn interp_function(f: &Function, assignments: &[String]) -> Result<String> {
    let mut ints = HashMap::new();
    let mut scalars = HashMap::new();
    for a in assignments {
        let Some((name, value)) = a.split_once('=') else {
            return Err(Error::Usage(format!("expected NAME=VALUE, got `{a}`")));
        };
        let Some(p) = f.params.iter().find(|p| p.name == name) else {
            return Err(Error::Usage(format!(
                "`{name}` is not a parameter of {}",
                f.name
            )));
        };
        let bad = || Error::Usage(format!("`{value}` is not a valid value for {name}"));
        match p.kind {
            ParamKind::Int => {
                ints.insert(
                    name.to_string(),
                    value.trim().parse::<i64>().map_err(|_| bad())?,
                );
            }
            ParamKind::Double => {
                scalars.insert(
                    name.to_string(),
                    value.trim().parse::<f64>().map_err(|_| bad())?,
                );
            }
            ParamKind::Array(_) => return Err(Error::Usage(format!("`{name}` is an array"))),
        }
    }
    let mut st = scop::interp::initial_state(f, &ints, &scalars)?;
    scop::interp::run(f, &mut st)?;
    let mut out = String::new();
    for p in &f.params {
        if let ParamKind::Array(_) = p.kind {
            let data = st
                .arrays
                .get(&p.name)
                .map(|a| a.data.as_slice())
                .unwrap_or(&[]);
            out.push_str(&format!(
                "{} {}\n",
                p.name,
                scop::interp::format_c_exp(scop::interp::checksum(data), 12)
            ));
        }
    }
    Ok(out)
}
