//! Quasi-affine terms and conditions of the static-control subset: loop
//! bounds, `if` conditions and subscripts become [`IntTerm`]s and
//! [`Formula`]s (with `min`/`max`, floor division and `%` by constants),
//! and loop steps become stride constraints.

use super::{non_affine, Builder, Sym};
use crate::affine::{Affine, Formula, IntTerm};
use crate::ast::{self, BinOp, ExprKind, UnOp};
use crate::error::{Error, Pos};
use std::collections::BTreeSet;

impl Builder {
    /// Integer (quasi-)affine term of an expression.
    pub(super) fn int_term(&self, e: &ast::Expr) -> Result<IntTerm, Error> {
        Ok(match &e.kind {
            ExprKind::Int(v) => IntTerm::Aff(Affine::constant(*v)),
            ExprKind::Float(_, s) => {
                return Err(Error::unsupported(
                    e.pos,
                    s.clone(),
                    "floating-point values cannot appear in subscripts, bounds or conditions",
                ))
            }
            ExprKind::Var(n) => match self.syms.get(n) {
                Some(Sym::IntParam) | Some(Sym::Iterator) => IntTerm::Aff(Affine::var(n)),
                Some(Sym::IntLocal) => {
                    return Err(Error::unsupported(
                        e.pos,
                        format!("use of `{n}`"),
                        "an integer variable may only be used inside its loop",
                    ))
                }
                Some(_) => {
                    return Err(Error::unsupported(
                        e.pos,
                        format!("data-dependent value `{n}`"),
                        "subscripts, bounds and conditions may only use loop iterators and integer parameters",
                    ))
                }
                None => {
                    return Err(Error::semantic(e.pos, format!("unknown variable `{n}`")))
                }
            },
            ExprKind::Index(n, _) => {
                if !self.syms.contains_key(n) {
                    return Err(Error::semantic(e.pos, format!("unknown array `{n}`")));
                }
                return Err(Error::unsupported(
                    e.pos,
                    format!("data-dependent value `{n}[...]`"),
                    "subscripts, bounds and conditions may only use loop iterators and integer parameters",
                ));
            }
            ExprKind::Unary(UnOp::Neg, a) => self.int_term(a)?.neg(),
            ExprKind::Unary(UnOp::Plus, a) => self.int_term(a)?,
            ExprKind::Unary(UnOp::Not, _) => {
                return Err(Error::unsupported(
                    e.pos,
                    "!",
                    "`!` is only allowed on conditions",
                ))
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.int_term(a)?;
                let y = self.int_term(b)?;
                let yc = y.as_affine().and_then(|a| a.as_const());
                match op {
                    BinOp::Add => x.add(&y),
                    BinOp::Sub => x.sub(&y),
                    BinOp::Mul => {
                        let xc = x.as_affine().and_then(|a| a.as_const());
                        match (xc, yc) {
                            (_, Some(c)) => x.scale(c),
                            (Some(c), _) => y.scale(c),
                            _ => return Err(non_affine(e.pos, "non-affine product")),
                        }
                    }
                    BinOp::Div => match yc {
                        Some(c) if c > 0 => x.floor_div(c),
                        _ => {
                            return Err(non_affine(
                                e.pos,
                                "division by a non-constant or non-positive value",
                            ))
                        }
                    },
                    BinOp::Mod => match (yc, &x) {
                        (Some(c), IntTerm::Aff(a)) if c > 0 => {
                            IntTerm::Aff(a.sub(&a.floor_div(c).scale(c)))
                        }
                        _ => {
                            return Err(non_affine(
                                e.pos,
                                "`%` by a non-constant or non-positive value",
                            ))
                        }
                    },
                    _ => {
                        return Err(Error::unsupported(
                            e.pos,
                            op.as_str(),
                            "a condition cannot be used as an integer value",
                        ))
                    }
                }
            }
            ExprKind::Call(name, args) if ast::is_int_minmax(name) => {
                let xs = args
                    .iter()
                    .map(|a| self.int_term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                if name.eq_ignore_ascii_case("min") {
                    IntTerm::Min(xs)
                } else {
                    IntTerm::Max(xs)
                }
            }
            ExprKind::Call(name, _) => {
                return Err(non_affine(e.pos, &format!("call to `{name}`")))
            }
            ExprKind::CastDouble(_) => {
                return Err(Error::unsupported(
                    e.pos,
                    "(double)",
                    "floating-point values cannot appear in subscripts, bounds or conditions",
                ))
            }
        })
    }

    /// Formula of an `if`/loop condition.
    pub(super) fn cond_formula(&self, e: &ast::Expr) -> Result<Formula, Error> {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => Ok(Formula::and(vec![
                self.cond_formula(a)?,
                self.cond_formula(b)?,
            ])),
            ExprKind::Binary(BinOp::Or, a, b) => Ok(Formula::or(vec![
                self.cond_formula(a)?,
                self.cond_formula(b)?,
            ])),
            ExprKind::Unary(UnOp::Not, a) => Ok(self.cond_formula(a)?.negate()),
            ExprKind::Binary(op, a, b) if op.is_comparison() => {
                if matches!(op, BinOp::Eq | BinOp::Ne) {
                    if let Some(f) = self.mod_compare(a, b)?.or(self.mod_compare(b, a)?) {
                        return Ok(if *op == BinOp::Eq { f } else { f.negate() });
                    }
                }
                let x = self.int_term(a)?;
                let y = self.int_term(b)?;
                let one = IntTerm::Aff(Affine::constant(1));
                Ok(match op {
                    BinOp::Lt => ge0(&y.sub(&x).sub(&one)),
                    BinOp::Le => ge0(&y.sub(&x)),
                    BinOp::Gt => ge0(&x.sub(&y).sub(&one)),
                    BinOp::Ge => ge0(&x.sub(&y)),
                    BinOp::Eq => eq0(&x.sub(&y)),
                    _ => eq0(&x.sub(&y)).negate(),
                })
            }
            _ => {
                let x = self.int_term(e)?;
                Ok(eq0(&x).negate())
            }
        }
    }

    /// `e % m == r` with C semantics, if `a` is `e % m` and `b` a constant.
    fn mod_compare(&self, a: &ast::Expr, b: &ast::Expr) -> Result<Option<Formula>, Error> {
        let ExprKind::Binary(BinOp::Mod, x, m) = &a.kind else {
            return Ok(None);
        };
        let Some(r) = self.int_term(b)?.as_affine().and_then(|a| a.as_const()) else {
            return Ok(None);
        };
        let Some(m) = self.int_term(m)?.as_affine().and_then(|a| a.as_const()) else {
            return Err(non_affine(a.pos, "`%` by a non-constant value"));
        };
        if m == 0 {
            return Err(Error::semantic(a.pos, "`%` by zero"));
        }
        let m = m.abs();
        let e = match self.int_term(x)? {
            IntTerm::Aff(e) => e,
            _ => return Err(non_affine(a.pos, "`%` of min/max")),
        };
        Ok(Some(if r == 0 {
            Formula::Mod(e, m, 0)
        } else if r > 0 && r < m {
            Formula::and(vec![Formula::Ge(e.clone()), Formula::Mod(e, m, r)])
        } else if r < 0 && -r < m {
            Formula::and(vec![Formula::Ge(e.scale(-1)), Formula::Mod(e, m, r + m)])
        } else {
            Formula::False
        }))
    }
}

/// `t >= 0`
pub(super) fn ge0(t: &IntTerm) -> Formula {
    match t {
        IntTerm::Aff(a) => Formula::Ge(a.clone()),
        IntTerm::Min(xs) => Formula::and(xs.iter().map(ge0).collect()),
        IntTerm::Max(xs) => Formula::or(xs.iter().map(ge0).collect()),
    }
}

/// `t = 0`
pub(super) fn eq0(t: &IntTerm) -> Formula {
    match t {
        IntTerm::Aff(a) => Formula::Eq(a.clone()),
        IntTerm::Min(xs) => Formula::and(vec![ge0(t), Formula::or(xs.iter().map(eq0).collect())]),
        IntTerm::Max(xs) => Formula::and(vec![
            ge0(&t.neg()),
            Formula::or(xs.iter().map(eq0).collect()),
        ]),
    }
}

/// `var - init` is a multiple of `step`, where `init` may use min/max.
pub(super) fn stride_formula(var: &str, init: &IntTerm, step: i64) -> Formula {
    match init {
        IntTerm::Aff(a) => Formula::Mod(Affine::var(var).sub(a), step, 0),
        IntTerm::Min(xs) | IntTerm::Max(xs) => {
            let is_max = matches!(init, IntTerm::Max(_));
            let mut alts = Vec::new();
            for (k, xk) in xs.iter().enumerate() {
                let mut conj = Vec::new();
                for (j, xj) in xs.iter().enumerate() {
                    if j == k {
                        continue;
                    }
                    // Ties go to the first candidate.
                    let d = if is_max { xk.sub(xj) } else { xj.sub(xk) };
                    let d = if j < k {
                        d.sub(&IntTerm::Aff(Affine::constant(1)))
                    } else {
                        d
                    };
                    conj.push(ge0(&d));
                }
                conj.push(stride_formula(var, xk, step));
                alts.push(Formula::and(conj));
            }
            Formula::or(alts)
        }
    }
}

pub(super) fn formula_mentions(f: &Formula, var: &str) -> bool {
    let mut names = BTreeSet::new();
    f.names(&mut names);
    names.contains(var)
}

/// Checks that a loop condition only bounds the iterator from above (for
/// increasing loops) or from below (for decreasing ones).
pub(super) fn check_monotone(
    f: &Formula,
    var: &str,
    increasing: bool,
    pos: Pos,
) -> Result<(), Error> {
    let bad = || {
        Error::unsupported(
            pos,
            "loop condition",
            format!(
                "the condition must be a conjunction/disjunction of {} bounds on `{var}`",
                if increasing { "upper" } else { "lower" }
            ),
        )
    };
    match f {
        Formula::True | Formula::False => Ok(()),
        Formula::Ge(a) => {
            if !a.mentions(var) {
                return Ok(());
            }
            let c = a.coeff(var);
            let mut rest = a.clone();
            rest.terms
                .remove(&crate::affine::AVar::Name(var.to_string()));
            if rest.mentions(var) || c == 0 || (c < 0) != increasing {
                return Err(bad());
            }
            Ok(())
        }
        Formula::Eq(a) | Formula::Mod(a, _, _) | Formula::ModRange(a, _, _, _) => {
            if a.mentions(var) {
                Err(bad())
            } else {
                Ok(())
            }
        }
        Formula::Range { .. } => Err(bad()),
        Formula::And(fs) | Formula::Or(fs) => {
            for g in fs {
                check_monotone(g, var, increasing, pos)?;
            }
            Ok(())
        }
    }
}
