//! Recording of optimistic assumptions while the model is built (see
//! [`crate::assume`]): the C type of every integer expression, the range
//! obligations of the values executed code computes, in-bounds subscripts.

use super::conditions::ge0;
use super::{Builder, Sym};
use crate::affine::{Affine, Formula, IntTerm};
use crate::assume::{Kind, Monomial, Obligation, RangeObligation};
use crate::ast::{self, BinOp, ExprKind, IntTy, UnOp};
use crate::error::Pos;

/// `lo <= t <= hi` for the range of `ty` (the upper bound of `unsigned
/// long` is not expressible with 64-bit constants and is left out: 64-bit
/// arithmetic is taken as exact at the top).
pub(super) fn in_range(t: &IntTerm, ty: IntTy) -> Formula {
    between(t, type_range(ty))
}

/// The range of `ty` as obligations state it: the upper bound of
/// `unsigned long` is left out (see [`in_range`]).
fn type_range(ty: IntTy) -> (i128, Option<i128>) {
    let hi = Some(ty.highest()).filter(|&h| i64::try_from(h).is_ok());
    (ty.lowest(), hi)
}

/// `lo <= t (<= hi)`.
fn between(t: &IntTerm, (lo, hi): (i128, Option<i128>)) -> Formula {
    let lo = IntTerm::Aff(Affine::constant(lo as i64));
    let mut parts = vec![ge0(&t.sub(&lo))];
    if let Some(hi) = hi {
        parts.push(ge0(&IntTerm::Aff(Affine::constant(hi as i64)).sub(t)));
    }
    Formula::and(parts)
}

/// Whether values of the type are checked for wrapping (signed `long`
/// arithmetic is taken as exact).
pub(super) fn checked(ty: IntTy) -> bool {
    ty != IntTy::Long
}

impl Builder {
    /// The iterators of the enclosing loops and the current domain.
    pub(super) fn here(&self) -> (Vec<String>, Formula) {
        let vars = self.loops.iter().map(|(v, _)| v.clone()).collect();
        let mut dom: Vec<Formula> = self.loops.iter().map(|(_, f)| f.clone()).collect();
        dom.extend(self.conds.iter().cloned());
        (vars, Formula::and(dom))
    }

    /// Records an obligation.
    pub(super) fn oblige(
        &mut self,
        kind: Kind,
        pos: Pos,
        vars: &[String],
        domain: &Formula,
        holds: Formula,
        what: String,
    ) {
        if holds == Formula::True {
            return;
        }
        self.optimistic.obligations.push(Obligation {
            kind,
            pos,
            vars: vars.to_vec(),
            domain: domain.clone(),
            holds,
            what,
        });
    }

    /// The C type of an integer variable.
    pub(super) fn var_type(&self, n: &str) -> IntTy {
        self.int_types.get(n).copied().unwrap_or(IntTy::Int)
    }

    /// The C type of an integer expression (`None` when it is not one).
    pub(super) fn c_type(&self, e: &ast::Expr) -> Option<IntTy> {
        Some(match &e.kind {
            ExprKind::Int(v) => {
                if i32::try_from(*v).is_ok() {
                    IntTy::Int
                } else {
                    IntTy::Long
                }
            }
            ExprKind::Var(n) => match self.syms.get(n) {
                Some(Sym::IntParam) | Some(Sym::Iterator) | Some(Sym::IntLocal) => self.var_type(n),
                _ => return None,
            },
            ExprKind::Unary(UnOp::Not, _) => IntTy::Int,
            ExprKind::Unary(_, a) => self.c_type(a)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.c_type(a)?, self.c_type(b)?);
                if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                    IntTy::Int
                } else {
                    x.common(y)
                }
            }
            ExprKind::Call(n, args) if ast::is_int_minmax(n) => {
                let mut t = IntTy::Int;
                for a in args {
                    t = t.common(self.c_type(a)?);
                }
                t
            }
            _ => return None,
        })
    }

    /// Records the range obligations of an integer expression evaluated
    /// wherever `domain` executes: every intermediate value lies in its
    /// type, and every conversion (usual arithmetic conversions, or to
    /// `target`) preserves the value.
    pub(super) fn record_int(
        &mut self,
        e: &ast::Expr,
        target: Option<IntTy>,
        vars: &[String],
        domain: &Formula,
    ) {
        let Some(ty) = self.c_type(e) else { return };
        self.record_node(e, ty, vars, domain);
        if let Some(t) = target {
            self.record_conversion(e, ty, t, vars, domain);
        }
    }

    fn record_conversion(
        &mut self,
        e: &ast::Expr,
        from: IntTy,
        to: IntTy,
        vars: &[String],
        domain: &Formula,
    ) {
        if from == to || (to.lowest() <= from.lowest() && from.highest() <= to.highest()) {
            return;
        }
        let what = format!("conversion of {} to {}", ast_text(e), to.as_str());
        let why = format!(
            "conversion of a non-affine {} to {}",
            from.as_str(),
            to.as_str()
        );
        self.oblige_on(Kind::Wrapping, e, (vars, domain), type_range(to), what, why);
    }

    /// Records that `e` must lie in `range` at the site: an obligation
    /// when `e` is quasi-affine, a range obligation when it is a
    /// polynomial in the parameters and iterators (one iterator a term),
    /// unmodelled otherwise.
    fn oblige_on(
        &mut self,
        kind: Kind,
        e: &ast::Expr,
        (vars, domain): (&[String], &Formula),
        range: (i128, Option<i128>),
        what: String,
        unmodelled: String,
    ) {
        if let Ok(t) = self.int_term(e) {
            self.oblige(kind, e.pos, vars, domain, between(&t, range), what);
            return;
        }
        match self.polynomial(e) {
            Some(value) => self.optimistic.ranges.push(RangeObligation {
                kind,
                pos: e.pos,
                vars: vars.to_vec(),
                domain: domain.clone(),
                value,
                lo: range.0,
                hi: range.1,
                what,
            }),
            None => self.optimistic.unmodelled.push((e.pos, unmodelled)),
        }
    }

    /// `e` as a sum of monomials when its names are integer parameters and
    /// iterators of the enclosing loops.
    fn polynomial(&self, e: &ast::Expr) -> Option<Vec<Monomial>> {
        fn names_ok(b: &Builder, e: &ast::Expr) -> bool {
            match &e.kind {
                ExprKind::Int(_) => true,
                ExprKind::Var(n) => b.int_params.contains(n) || b.loops.iter().any(|(v, _)| v == n),
                ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => names_ok(b, a),
                ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, x, y) => {
                    names_ok(b, x) && names_ok(b, y)
                }
                _ => false,
            }
        }
        if !names_ok(self, e) {
            return None;
        }
        super::delinearize::monomials(e, &self.int_params).ok()
    }

    fn record_node(&mut self, e: &ast::Expr, ty: IntTy, vars: &[String], domain: &Formula) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Var(_) => {}
            ExprKind::Unary(op, a) => {
                let ta = self.c_type(a).unwrap_or(IntTy::Int);
                self.record_node(a, ta, vars, domain);
                if *op == UnOp::Neg {
                    self.record_value(e, ty, vars, domain);
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (ta, tb) = (
                    self.c_type(a).unwrap_or(IntTy::Int),
                    self.c_type(b).unwrap_or(IntTy::Int),
                );
                self.record_node(a, ta, vars, domain);
                self.record_node(b, tb, vars, domain);
                if matches!(op, BinOp::And | BinOp::Or) {
                    return;
                }
                let common = ta.common(tb);
                self.record_conversion(a, ta, common, vars, domain);
                self.record_conversion(b, tb, common, vars, domain);
                if op.is_comparison() {
                    return;
                }
                if matches!(op, BinOp::Div | BinOp::Mod) {
                    let what = format!("non-negative dividend {}", ast_text(a));
                    self.oblige_on(
                        Kind::Division,
                        a,
                        (vars, domain),
                        (0, None),
                        what,
                        "division of a non-affine value".into(),
                    );
                }
                self.record_value(e, ty, vars, domain);
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    let ta = self.c_type(a).unwrap_or(IntTy::Int);
                    self.record_node(a, ta, vars, domain);
                    self.record_conversion(a, ta, ty, vars, domain);
                }
            }
            _ => {}
        }
    }

    fn record_value(&mut self, e: &ast::Expr, ty: IntTy, vars: &[String], domain: &Formula) {
        if !checked(ty) {
            return;
        }
        let what = format!("{} in {}", ast_text(e), ty.as_str());
        let why = format!(
            "the {} value {} is not affine: its wrapping cannot be bounded",
            ty.as_str(),
            ast_text(e)
        );
        self.oblige_on(Kind::Wrapping, e, (vars, domain), type_range(ty), what, why);
    }

    /// Records the integer subexpressions of a statement body's value
    /// (maximal integer-typed subtrees).
    pub(super) fn record_body_ints(&mut self, e: &ast::Expr, vars: &[String], domain: &Formula) {
        if self.c_type(e).is_some() {
            self.record_int(e, None, vars, domain);
            return;
        }
        match &e.kind {
            ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => {
                self.record_body_ints(a, vars, domain)
            }
            ExprKind::Binary(_, a, b) => {
                self.record_body_ints(a, vars, domain);
                self.record_body_ints(b, vars, domain);
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    self.record_body_ints(a, vars, domain);
                }
            }
            // subscripts are recorded by `subscripts`
            _ => {}
        }
    }

    /// In-bounds assumptions of an access: `0 <= index[d] < extent[d]` for
    /// every dimension `d >= first` with a known extent.
    pub(super) fn record_inbounds(&mut self, array: &str, index: &[Affine], pos: Pos) {
        let Some((extents, first)) = self.extents.get(array).cloned() else {
            return;
        };
        let (vars, dom) = self.here();
        let mut holds = Vec::new();
        for (d, (x, ext)) in index.iter().zip(&extents).enumerate().skip(first) {
            let _ = d;
            holds.push(Formula::Ge(x.clone()));
            holds.push(Formula::Ge(ext.sub(x).add(&Affine::constant(-1))));
        }
        if holds.is_empty() {
            return;
        }
        let text: Vec<String> = index.iter().map(|x| format!("[{}]", x.to_isl())).collect();
        self.oblige(
            Kind::Inbounds,
            pos,
            &vars,
            &dom,
            Formula::and(holds),
            format!("{array}{}", text.concat()),
        );
    }
}

/// A short C rendering of an expression for remarks.
pub(super) fn ast_text(e: &ast::Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(_, s) => s.clone(),
        ExprKind::Var(n) => n.clone(),
        ExprKind::Index(n, subs) => format!(
            "{n}{}",
            subs.iter()
                .map(|s| format!("[{}]", ast_text(s)))
                .collect::<String>()
        ),
        ExprKind::Unary(op, a) => format!(
            "{}{}",
            match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
            },
            ast_text(a)
        ),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", ast_text(a), op.as_str(), ast_text(b)),
        ExprKind::Call(n, args) => format!(
            "{n}({})",
            args.iter().map(ast_text).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::CastDouble(a) => format!("(double){}", ast_text(a)),
    }
}
