//! The constructs of the optimistic subset in the builder: `!=` loops,
//! loop tests and increments, error paths and pointer subscripts.

use super::conditions::eq0;
use super::record::{checked, in_range};
use super::{delinearize, Builder, Sym};
use crate::affine::{Affine, Formula, IntTerm};
use crate::assume::{substitute, ArrayParam, Kind};
use crate::ast::{self, BinOp, ExprKind, StmtKind};
use crate::error::{Error, Pos};
use crate::model::{Array, ArrayOrigin, SchedDim};

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
    /// A `double *` parameter: its inner extents from the delinearization
    /// of all its subscripts, the outermost unknown.
    pub(super) fn pointer_param(
        &mut self,
        f: &ast::Function,
        name: &str,
        restrict: bool,
        k: usize,
    ) -> Result<Array, Error> {
        let mut subs = Vec::new();
        collect_subscripts(&f.body, name, &mut subs);
        let sizes = delinearize::pointer_sizes(&subs, &self.int_params)?;
        let mut dims = vec![open_extent()];
        dims.extend(sizes.iter().rev().map(|s| Affine::var(s)));
        self.syms
            .insert(name.to_string(), Sym::Array { rank: dims.len() });
        self.extents.insert(name.to_string(), (dims.clone(), 1));
        self.optimistic.array_params.push(ArrayParam {
            name: name.to_string(),
            restrict,
            inner: dims[1..].to_vec(),
        });
        self.pointers.insert(name.to_string(), sizes);
        Ok(Array {
            name: name.to_string(),
            dims,
            element_type: "double".into(),
            origin: ArrayOrigin::Param(k),
        })
    }

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
            let r = if ast::contains_call(s) {
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

/// The placeholder extent of an outermost dimension that is not declared
/// (`double A[][10]`, `double *A`): `2^63 - 1`, i.e. unbounded.
pub(super) fn open_extent() -> Affine {
    Affine::constant(i64::MAX)
}

/// The subscripts of every access `name[e]` in the statements.
fn collect_subscripts<'a>(stmts: &'a [ast::Stmt], name: &str, out: &mut Vec<&'a ast::Expr>) {
    fn expr<'a>(e: &'a ast::Expr, name: &str, out: &mut Vec<&'a ast::Expr>) {
        match &e.kind {
            ExprKind::Index(n, subs) => {
                if n == name {
                    out.extend(subs.iter());
                }
                subs.iter().for_each(|s| expr(s, name, out));
            }
            ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => expr(a, name, out),
            ExprKind::Binary(_, a, b) => {
                expr(a, name, out);
                expr(b, name, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| expr(a, name, out)),
            _ => {}
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { lhs, rhs, .. } => {
                expr(lhs, name, out);
                expr(rhs, name, out);
            }
            StmtKind::Decl { init: Some(e), .. } => expr(e, name, out),
            StmtKind::For { body, .. } => collect_subscripts(std::slice::from_ref(body), name, out),
            StmtKind::If { then_s, else_s, .. } => {
                collect_subscripts(std::slice::from_ref(then_s), name, out);
                if let Some(e) = else_s {
                    collect_subscripts(std::slice::from_ref(e), name, out);
                }
            }
            StmtKind::Block(b) => collect_subscripts(b, name, out),
            _ => {}
        }
    }
}
