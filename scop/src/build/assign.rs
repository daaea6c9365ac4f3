//! Assignments: the statement's array accesses (subscripts as affine
//! forms, checked for static control) and its value as an expression tree.

use super::{Builder, Sym};
use crate::affine::{Affine, Formula, IntTerm};
use crate::ast::{self, AssignOp, BinOp, ExprKind, UnOp};
use crate::error::{Error, Pos};
use crate::model::*;

impl Builder {
    pub(super) fn new_ref(&mut self) -> String {
        self.next_ref += 1;
        format!("R{}", self.next_ref - 1)
    }

    pub(super) fn assignment(
        &mut self,
        lhs: &ast::Expr,
        op: AssignOp,
        rhs: &ast::Expr,
        pos: Pos,
        prefix: &[SchedDim],
    ) -> Result<(), Error> {
        let mut acc = Vec::new();
        let (array, index) = match &lhs.kind {
            ExprKind::Var(n) => match self.syms.get(n) {
                Some(Sym::LocalDouble) | Some(Sym::DoubleParam { .. }) => (n.clone(), vec![]),
                Some(Sym::Array { .. }) => {
                    return Err(Error::unsupported(
                        lhs.pos,
                        format!("assignment to array `{n}`"),
                        "whole arrays cannot be assigned (pointer assignment)",
                    ))
                }
                Some(_) => {
                    return Err(Error::unsupported(
                        lhs.pos,
                        format!("assignment to `{n}`"),
                        "integer variables may only be changed by their `for` loop",
                    ))
                }
                None => return Err(Error::semantic(lhs.pos, format!("unknown variable `{n}`"))),
            },
            ExprKind::Index(n, subs) => (n.clone(), self.subscripts(n, subs, lhs.pos)?),
            _ => {
                return Err(Error::syntax(
                    lhs.pos,
                    "the left-hand side must be a variable or an array element",
                ))
            }
        };
        let ref_id = self.new_ref();
        acc.push(Access {
            kind: AccessKind::MustWrite,
            array: array.clone(),
            index: index.clone(),
            ref_id: ref_id.clone(),
            pos: lhs.pos,
        });
        let rhs_first = if op != AssignOp::Set {
            acc.push(Access {
                kind: AccessKind::Read,
                array,
                index,
                ref_id,
                pos: lhs.pos,
            });
            Some(Expr::Access(1))
        } else {
            None
        };
        let (vars, dom) = self.here();
        self.record_body_ints(rhs, &vars, &dom);
        let (mut v, t) = self.value(rhs, &mut acc)?;
        if t == Ty::Int {
            v = Expr::ToDouble(Box::new(v));
        }
        if let (Some(old), Some(bop)) = (rhs_first, op.binop()) {
            v = Expr::Binary {
                op: bop,
                ty: Ty::Double,
                lhs: Box::new(old),
                rhs: Box::new(v),
            };
        }
        let body = Expr::Assign {
            op,
            target: 0,
            value: Box::new(v),
        };
        let mut dom = Vec::new();
        for (_, f) in &self.loops {
            dom.push(f.clone());
        }
        dom.extend(self.conds.iter().cloned());
        let name = format!("S{}", self.statements.len());
        let parallel = prefix
            .iter()
            .enumerate()
            .filter(|(_, d)| matches!(d, SchedDim::Iter(v, _) if self.par_loops.contains(v)))
            .map(|(k, _)| k)
            .collect();
        self.statements.push(Statement {
            parallel,
            name,
            iterators: self.loops.iter().map(|(v, _)| v.clone()).collect(),
            domain: Formula::and(dom),
            schedule: prefix.to_vec(),
            accesses: acc,
            body,
            pos,
        });
        Ok(())
    }

    pub(super) fn subscripts(
        &mut self,
        n: &str,
        subs: &[ast::Expr],
        pos: Pos,
    ) -> Result<Vec<Affine>, Error> {
        if let Some(sizes) = self.pointers.get(n).cloned() {
            return self.pointer_subscripts(n, subs, &sizes, pos);
        }
        let rank = match self.syms.get(n) {
            Some(Sym::Array { rank }) => *rank,
            Some(_) => return Err(Error::semantic(pos, format!("`{n}` is not an array"))),
            None => return Err(Error::semantic(pos, format!("unknown array `{n}`"))),
        };
        if subs.len() < rank {
            return Err(Error::unsupported(
                pos,
                format!("partial subscript of `{n}`"),
                format!("`{n}` has {rank} dimension(s); sub-arrays (pointer arithmetic) are not supported"),
            ));
        }
        if subs.len() > rank {
            return Err(Error::semantic(
                pos,
                format!(
                    "`{n}` has {rank} dimension(s) but {} subscripts",
                    subs.len()
                ),
            ));
        }
        let mut out = Vec::new();
        let (vars, dom) = self.here();
        for s in subs {
            self.record_int(s, None, &vars, &dom);
            match self.int_term(s)? {
                IntTerm::Aff(a) => out.push(a),
                _ => {
                    return Err(Error::unsupported(
                        s.pos,
                        "min/max subscript",
                        "subscripts must be affine",
                    ))
                }
            }
        }
        self.record_inbounds(n, &out, pos);
        Ok(out)
    }

    /// Value expression of a statement body (collects read accesses).
    pub(super) fn value(
        &mut self,
        e: &ast::Expr,
        acc: &mut Vec<Access>,
    ) -> Result<(Expr, Ty), Error> {
        Ok(match &e.kind {
            ExprKind::Int(v) => (Expr::Int(*v), Ty::Int),
            ExprKind::Float(v, _) => (Expr::Double(*v), Ty::Double),
            ExprKind::Var(n) => {
                match self.syms.get(n) {
                    Some(Sym::IntParam) | Some(Sym::Iterator) => (Expr::IntVar(n.clone()), Ty::Int),
                    Some(Sym::IntLocal) => {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("use of `{n}`"),
                            "an integer variable may only be used inside its loop",
                        ))
                    }
                    Some(Sym::DoubleParam { written: false }) => {
                        (Expr::DoubleParam(n.clone()), Ty::Double)
                    }
                    Some(Sym::DoubleParam { written: true }) | Some(Sym::LocalDouble) => {
                        let ref_id = self.new_ref();
                        acc.push(Access {
                            kind: AccessKind::Read,
                            array: n.clone(),
                            index: vec![],
                            ref_id,
                            pos: e.pos,
                        });
                        (Expr::Access(acc.len() - 1), Ty::Double)
                    }
                    Some(Sym::Array { .. }) => return Err(Error::unsupported(
                        e.pos,
                        format!("array `{n}` used as a value"),
                        "arrays must be fully subscripted (pointer arithmetic is not supported)",
                    )),
                    None => return Err(Error::semantic(e.pos, format!("unknown variable `{n}`"))),
                }
            }
            ExprKind::Index(n, subs) => {
                let index = self.subscripts(n, subs, e.pos)?;
                let ref_id = self.new_ref();
                acc.push(Access {
                    kind: AccessKind::Read,
                    array: n.clone(),
                    index,
                    ref_id,
                    pos: e.pos,
                });
                (Expr::Access(acc.len() - 1), Ty::Double)
            }
            ExprKind::Unary(UnOp::Not, _) => {
                return Err(Error::unsupported(
                    e.pos,
                    "!",
                    "logical operators are only supported in `if` and loop conditions",
                ))
            }
            ExprKind::Unary(op, a) => {
                let (x, t) = self.value(a, acc)?;
                if *op == UnOp::Plus {
                    (x, t)
                } else {
                    (
                        Expr::Unary {
                            op: *op,
                            ty: t,
                            arg: Box::new(x),
                        },
                        t,
                    )
                }
            }
            ExprKind::Binary(op, a, b) => {
                if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                    return Err(Error::unsupported(
                        e.pos,
                        op.as_str(),
                        "comparisons and logical operators are only supported in `if` and loop conditions",
                    ));
                }
                let (x, tx) = self.value(a, acc)?;
                let (y, ty) = self.value(b, acc)?;
                let t = if tx == Ty::Double || ty == Ty::Double {
                    Ty::Double
                } else {
                    Ty::Int
                };
                if *op == BinOp::Mod && t == Ty::Double {
                    return Err(Error::semantic(e.pos, "`%` needs integer operands"));
                }
                let conv = |v: Expr, tv: Ty| {
                    if tv != t {
                        Expr::ToDouble(Box::new(v))
                    } else {
                        v
                    }
                };
                (
                    Expr::Binary {
                        op: *op,
                        ty: t,
                        lhs: Box::new(conv(x, tx)),
                        rhs: Box::new(conv(y, ty)),
                    },
                    t,
                )
            }
            ExprKind::Call(name, args) => {
                let mut xs = Vec::new();
                let mut any_double = false;
                for a in args {
                    let (x, t) = self.value(a, acc)?;
                    any_double |= t == Ty::Double;
                    xs.push((x, t));
                }
                if ast::is_int_minmax(name) {
                    if any_double {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("{name} of doubles"),
                            "use `fmin`/`fmax` for doubles",
                        ));
                    }
                    (
                        Expr::Call {
                            name: name.clone(),
                            ty: Ty::Int,
                            args: xs.into_iter().map(|(x, _)| x).collect(),
                        },
                        Ty::Int,
                    )
                } else {
                    let args = xs
                        .into_iter()
                        .map(|(x, t)| {
                            if t == Ty::Int {
                                Expr::ToDouble(Box::new(x))
                            } else {
                                x
                            }
                        })
                        .collect();
                    (
                        Expr::Call {
                            name: name.clone(),
                            ty: Ty::Double,
                            args,
                        },
                        Ty::Double,
                    )
                }
            }
            ExprKind::CastDouble(a) => {
                let (x, t) = self.value(a, acc)?;
                if t == Ty::Int {
                    (Expr::ToDouble(Box::new(x)), Ty::Double)
                } else {
                    (x, t)
                }
            }
        })
    }
}
