//! The constructs of the optimistic subset in the builder: `!=` loops,
//! loop tests and increments, error paths and pointer subscripts.

use super::conditions::eq0;
use super::record::{checked, in_range};
use super::{delinearize, Builder};
use crate::affine::{Affine, Formula, IntTerm};
use crate::assume::{substitute, Kind};
use crate::ast::{self, BinOp, ExprKind};
use crate::error::{Error, Pos};
use crate::model::SchedDim;

fn mentions(e: &ast::Expr, var: &str) -> bool {
    match &e.kind {
        ExprKind::Var(n) => n == var,
        ExprKind::Index(_, subs) => subs.iter().any(|s| mentions(s, var)),
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => mentions(a, var),
        ExprKind::Binary(_, a, b) => mentions(a, var) || mentions(b, var),
        ExprKind::Call(_, args) => args.iter().any(|a| mentions(a, var)),
        _ => false,
    }
}

impl Builder {
    /// A loop `for (i = a; i != b; i += c)` is the affine loop
    /// `i < b` (`i > b` for `c < 0`) when `b - a` is a non-negative multiple
    /// of `c` (in the direction of `c`); otherwise it steps over `b` and
    /// runs until it wraps: a restriction. Returns the affine condition.
    pub(super) fn not_equal_loop(
        &mut self,
        var: &str,
        init: &IntTerm,
        cond: &ast::Expr,
        step: i64,
    ) -> Result<Option<ast::Expr>, Error> {
        let ExprKind::Binary(BinOp::Ne, a, b) = &cond.kind else {
            return Ok(None);
        };
        let bound = match (&a.kind, &b.kind) {
            (ExprKind::Var(v), _) if v == var && !mentions(b, var) => b,
            (_, ExprKind::Var(v)) if v == var && !mentions(a, var) => a,
            _ => {
                return Err(Error::unsupported(
                    cond.pos,
                    "`!=` loop condition",
                    format!("the condition must compare the iterator `{var}` with a bound that does not mention it"),
                ))
            }
        };
        let (Some(a0), IntTerm::Aff(bb)) = (init.as_affine(), self.int_term(bound)?) else {
            return Err(Error::unsupported(
                cond.pos,
                "`!=` loop",
                "the initial value and the bound of a `!=` loop must be affine (no min/max)",
            ));
        };
        let dist = bb.sub(a0);
        let (vars, dom) = self.here();
        let holds = Formula::and(vec![
            Formula::Mod(dist.clone(), step.abs(), 0),
            Formula::Ge(dist.scale(step.signum())),
        ]);
        self.oblige(
            Kind::Termination,
            cond.pos,
            &vars,
            &dom,
            holds,
            format!(
                "`{var} != {}` reached by steps of {step}",
                super::record::ast_text(bound)
            ),
        );
        let op = if step > 0 { BinOp::Lt } else { BinOp::Gt };
        let v = ast::Expr {
            kind: ExprKind::Var(var.to_string()),
            pos: cond.pos,
        };
        Ok(Some(ast::Expr {
            kind: ExprKind::Binary(op, Box::new(v), bound.clone()),
            pos: cond.pos,
        }))
    }

    /// Range obligations of a loop's test (evaluated at the first value and
    /// after every iteration) and increment (after every iteration);
    /// `this` is the loop's own domain formula.
    pub(super) fn record_loop(
        &mut self,
        var: &str,
        init: &IntTerm,
        cond: &ast::Expr,
        step: i64,
        this: &Formula,
    ) {
        let (mut vars, dom) = self.here();
        vars.push(var.to_string());
        let v = Affine::var(var);
        let first = eq0(&IntTerm::Aff(v.clone()).sub(init));
        let again = substitute(this, var, &v.sub(&Affine::constant(step)));
        let test_dom = Formula::and(vec![dom.clone(), Formula::or(vec![first, again])]);
        self.record_int(cond, None, &vars, &test_dom);
        let ty = self.var_type(var);
        if checked(ty) {
            let body_dom = Formula::and(vec![dom, this.clone()]);
            let next = IntTerm::Aff(v.add(&Affine::constant(step)));
            self.oblige(
                Kind::Wrapping,
                cond.pos,
                &vars,
                &body_dom,
                in_range(&next, ty),
                format!("increment {var} + {step} in {}", ty.as_str()),
            );
        }
    }

    /// An `if` with a call of an unknown function in a branch: that branch
    /// is an error path; it is dropped and the parameters for which it runs
    /// are a restriction. The other branch is modelled.
    pub(super) fn error_paths(
        &mut self,
        f: &Formula,
        then_s: &ast::Stmt,
        else_s: Option<&ast::Stmt>,
        pos: Pos,
        prefix: &[SchedDim],
    ) -> Result<(), Error> {
        let branches = [(f.clone(), Some(then_s)), (f.negate(), else_s)];
        for (g, s) in branches {
            let Some(s) = s else { continue };
            self.conds.push(g);
            let r = if super::contains_call(s) {
                let (vars, dom) = self.here();
                self.oblige(
                    Kind::ErrorPath,
                    pos,
                    &vars,
                    &dom,
                    Formula::False,
                    "error path".into(),
                );
                Ok(())
            } else {
                self.stmt(s, prefix)
            };
            self.conds.pop();
            r?;
        }
        Ok(())
    }

    /// The delinearized subscripts of an access `A[e]` through a pointer.
    pub(super) fn pointer_subscripts(
        &mut self,
        n: &str,
        subs: &[ast::Expr],
        sizes: &[String],
        pos: Pos,
    ) -> Result<Vec<Affine>, Error> {
        let [s] = subs else {
            return Err(Error::unsupported(
                pos,
                format!("`{n}` with {} subscripts", subs.len()),
                "a pointer parameter takes one (possibly linearized) subscript",
            ));
        };
        let (vars, dom) = self.here();
        self.record_int(s, None, &vars, &dom);
        let out = delinearize::split(s, sizes, &self.int_params)?;
        self.record_inbounds(n, &out, pos);
        Ok(out)
    }
}
