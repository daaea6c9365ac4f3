//! The transformed program as C: statement bodies with a scalar replaced
//! by an array element.

use std::collections::HashMap;

use scop::affine::{AVar, Affine};
use scop::ast::{Expr, ExprKind, Function, Stmt, StmtKind};

use crate::error::{Error, Result};

fn affine_expr(a: &Affine, pos: scop::Pos) -> Result<Expr> {
    let mk = |kind| Expr { kind, pos };
    let mut e: Option<Expr> = None;
    for (v, &c) in &a.terms {
        let AVar::Name(n) = v else {
            return Err(Error::Invalid(format!(
                "subscript `{}` with a division cannot be written back",
                a.to_isl()
            )));
        };
        let var = mk(ExprKind::Var(n.clone()));
        let term = if c == 1 {
            var
        } else {
            mk(ExprKind::Binary(
                scop::ast::BinOp::Mul,
                Box::new(mk(ExprKind::Int(c))),
                Box::new(var),
            ))
        };
        e = Some(match e {
            None => term,
            Some(l) => mk(ExprKind::Binary(
                scop::ast::BinOp::Add,
                Box::new(l),
                Box::new(term),
            )),
        });
    }
    let k = mk(ExprKind::Int(a.constant));
    Ok(match e {
        None => k,
        Some(l) if a.constant == 0 => l,
        Some(l) => mk(ExprKind::Binary(
            scop::ast::BinOp::Add,
            Box::new(l),
            Box::new(k),
        )),
    })
}

struct Rewriter<'a> {
    scalar: &'a str,
    array: &'a str,
    /// statement number -> subscript of the array element
    index: &'a HashMap<usize, Vec<Affine>>,
    next: usize,
}

impl Rewriter<'_> {
    fn element(&self, k: usize, pos: scop::Pos) -> Result<Expr> {
        let idx = self.index.get(&k).ok_or_else(|| {
            Error::Invalid(format!(
                "statement S{k} accesses `{}` but has no target",
                self.scalar
            ))
        })?;
        let subs = idx
            .iter()
            .map(|a| affine_expr(a, pos))
            .collect::<Result<Vec<_>>>()?;
        Ok(Expr {
            kind: ExprKind::Index(self.array.to_string(), subs),
            pos,
        })
    }

    fn expr(&self, e: &Expr, k: usize) -> Result<Expr> {
        let kind = match &e.kind {
            ExprKind::Var(n) if n == self.scalar => return self.element(k, e.pos),
            ExprKind::Index(n, subs) => ExprKind::Index(
                n.clone(),
                subs.iter()
                    .map(|s| self.expr(s, k))
                    .collect::<Result<_>>()?,
            ),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(self.expr(a, k)?)),
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, Box::new(self.expr(a, k)?), Box::new(self.expr(b, k)?))
            }
            ExprKind::Call(n, args) => ExprKind::Call(
                n.clone(),
                args.iter()
                    .map(|a| self.expr(a, k))
                    .collect::<Result<_>>()?,
            ),
            ExprKind::CastDouble(a) => ExprKind::CastDouble(Box::new(self.expr(a, k)?)),
            other => other.clone(),
        };
        Ok(Expr { kind, pos: e.pos })
    }

    fn stmt(&mut self, s: &Stmt) -> Result<Stmt> {
        let kind = match &s.kind {
            StmtKind::Decl { name, init, .. } if name == self.scalar => match init {
                None => StmtKind::Empty,
                Some(e) => {
                    let k = self.next;
                    self.next += 1;
                    StmtKind::Assign {
                        lhs: self.element(k, s.pos)?,
                        op: scop::ast::AssignOp::Set,
                        rhs: self.expr(e, k)?,
                    }
                }
            },
            StmtKind::Decl { ty, name, init } => {
                let init = match init {
                    Some(e) => {
                        let k = self.next;
                        self.next += 1;
                        Some(self.expr(e, k)?)
                    }
                    None => None,
                };
                StmtKind::Decl {
                    ty: *ty,
                    name: name.clone(),
                    init,
                }
            }
            // a local array's extents are parameter expressions: no scalar, no statement
            StmtKind::ArrayDecl { .. } => s.kind.clone(),
            StmtKind::Assign { lhs, op, rhs } => {
                let k = self.next;
                self.next += 1;
                StmtKind::Assign {
                    lhs: self.expr(lhs, k)?,
                    op: *op,
                    rhs: self.expr(rhs, k)?,
                }
            }
            StmtKind::For {
                var,
                declared,
                init,
                cond,
                step,
                body,
                parallel,
            } => StmtKind::For {
                var: var.clone(),
                declared: *declared,
                init: init.clone(),
                cond: cond.clone(),
                step: *step,
                body: Box::new(self.stmt(body)?),
                parallel: *parallel,
            },
            StmtKind::If {
                cond,
                then_s,
                else_s,
            } => StmtKind::If {
                cond: cond.clone(),
                then_s: Box::new(self.stmt(then_s)?),
                else_s: match else_s {
                    Some(e) => Some(Box::new(self.stmt(e)?)),
                    None => None,
                },
            },
            StmtKind::Block(b) => {
                StmtKind::Block(b.iter().map(|x| self.stmt(x)).collect::<Result<_>>()?)
            }
            StmtKind::Empty => StmtKind::Empty,
            StmtKind::Call { .. } => s.kind.clone(),
        };
        Ok(Stmt { kind, pos: s.pos })
    }
}

/// The kernel with every reference to the local scalar `scalar` replaced by
/// `array[index[k]]` in statement `k` (statements numbered as the front end
/// does: assignments and initialised declarations in textual order); the
/// scalar's declaration is dropped (an initialiser becomes an assignment).
/// Every statement that mentions the scalar must have an entry in `index`.
pub fn rewrite_function(
    f: &Function,
    scalar: &str,
    array: &str,
    index: &HashMap<usize, Vec<Affine>>,
) -> Result<Function> {
    let mut r = Rewriter {
        scalar,
        array,
        index,
        next: 0,
    };
    let body = f
        .body
        .iter()
        .map(|s| r.stmt(s))
        .collect::<Result<Vec<_>>>()?;
    Ok(Function {
        name: f.name.clone(),
        params: f.params.clone(),
        body,
        pos: f.pos,
    })
}
