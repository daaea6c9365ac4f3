//! Extraction of the polyhedral model from the AST (the static-control checks
//! live here).

use crate::affine::{Affine, Formula, IntTerm};
use crate::assume::{ArrayParam, Kind, Optimistic};
use crate::ast::{self, AssignOp, BaseTy, ExprKind, IntTy, ParamKind, StmtKind};
use crate::error::{Error, Pos};
use crate::model::*;

mod assign;
mod conditions;
mod delinearize;
mod names;
mod optimistic;
mod record;

use conditions::{check_monotone, formula_mentions, ge0, stride_formula};
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Clone, PartialEq)]
enum Sym {
    IntParam,
    DoubleParam { written: bool },
    Array { rank: usize },
    LocalDouble,
    IntLocal,
    Iterator,
}

struct Builder {
    syms: HashMap<String, Sym>,
    loops: Vec<(String, Formula)>,
    conds: Vec<Formula>,
    statements: Vec<Statement>,
    locals: Vec<String>,
    local_arrays: Vec<Array>,
    par_loops: Vec<String>,
    next_ref: usize,
    /// C types of the integer parameters and variables.
    int_types: HashMap<String, IntTy>,
    /// Extents of arrays whose subscripts are checked, and the first
    /// checked dimension (1 for parameters: the outermost is unknown).
    extents: HashMap<String, (Vec<Affine>, usize)>,
    /// Inner extents (innermost first) of delinearized pointers.
    pointers: HashMap<String, Vec<String>>,
    /// The integer parameters.
    int_params: BTreeSet<String>,
    optimistic: Optimistic,
}

/// Parses `src` and builds its polyhedral model.
///
/// ```
/// let scop = scop::build_scop(
///     "void k(int N, double A[N], double B[N]) {
///        for (int i = 0; i < N; i += 2) B[i] = A[i] + 1; }").unwrap();
/// assert_eq!(scop.statements[0].name, "S0");
/// assert_eq!(scop.statements[0].iterators, ["i"]);
/// // the step is a divisibility constraint of the domain
/// let val = |n: &str| match n { "N" => Some(10), "i" => Some(4), _ => None };
/// assert_eq!(scop.statements[0].domain.eval(&val), Some(true));
/// let val = |n: &str| match n { "N" => Some(10), "i" => Some(5), _ => None };
/// assert_eq!(scop.statements[0].domain.eval(&val), Some(false));
/// ```
pub fn build_scop(src: &str) -> Result<Scop, Error> {
    let f = crate::parser::parse_kernel(src)?;
    build_from_ast(&f)
}

/// Builds the model of an already parsed kernel.
pub fn build_from_ast(f: &ast::Function) -> Result<Scop, Error> {
    // every name resolves, also in the statements the model drops
    names::resolve(f)?;
    let mut written = BTreeSet::new();
    collect_written(&f.body, &mut written);
    let mut b = Builder {
        syms: HashMap::new(),
        loops: Vec::new(),
        conds: Vec::new(),
        statements: Vec::new(),
        locals: Vec::new(),
        local_arrays: Vec::new(),
        par_loops: Vec::new(),
        next_ref: 0,
        int_types: HashMap::new(),
        extents: HashMap::new(),
        pointers: HashMap::new(),
        int_params: f
            .params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Int(_)))
            .map(|p| p.name.clone())
            .collect(),
        optimistic: Optimistic::default(),
    };
    let mut params = Vec::new();
    let mut scalar_params = Vec::new();
    let mut arrays = Vec::new();
    let mut scalar_arrays = Vec::new();
    for (k, p) in f.params.iter().enumerate() {
        if b.syms.contains_key(&p.name) {
            return Err(Error::semantic(
                p.pos,
                format!("duplicate parameter `{}`", p.name),
            ));
        }
        check_name(&p.name, p.pos)?;
        match &p.kind {
            ParamKind::Int(t) => {
                params.push(p.name.clone());
                b.syms.insert(p.name.clone(), Sym::IntParam);
                b.int_types.insert(p.name.clone(), *t);
                b.optimistic.param_types.insert(p.name.clone(), *t);
            }
            ParamKind::Pointer { restrict } => {
                arrays.push(b.pointer_param(f, &p.name, *restrict, k)?);
            }
            ParamKind::Double => {
                let w = written.contains(&p.name);
                if w {
                    scalar_arrays.push(Array {
                        name: p.name.clone(),
                        dims: vec![],
                        element_type: "double".into(),
                        origin: ArrayOrigin::ScalarParam(k),
                    });
                } else {
                    scalar_params.push(p.name.clone());
                }
                b.syms
                    .insert(p.name.clone(), Sym::DoubleParam { written: w });
            }
            ParamKind::Array(dims) | ParamKind::OpenArray(dims) => {
                let open = matches!(p.kind, ParamKind::OpenArray(_));
                let mut ds = if open {
                    vec![optimistic::open_extent()]
                } else {
                    Vec::new()
                };
                for d in dims {
                    let t = b.int_term(d)?;
                    match t {
                        IntTerm::Aff(a) => ds.push(a),
                        _ => {
                            return Err(Error::unsupported(
                                d.pos,
                                "min/max array size",
                                "array sizes must be affine in the integer parameters",
                            ))
                        }
                    }
                }
                b.syms.insert(p.name.clone(), Sym::Array { rank: ds.len() });
                b.extents.insert(p.name.clone(), (ds.clone(), 1));
                b.optimistic.array_params.push(ArrayParam {
                    name: p.name.clone(),
                    restrict: false,
                    inner: ds[1..].to_vec(),
                });
                arrays.push(Array {
                    name: p.name.clone(),
                    dims: ds,
                    element_type: "double".into(),
                    origin: ArrayOrigin::Param(k),
                });
            }
        }
    }
    b.block(&f.body, &[])?;
    let depth = b
        .statements
        .iter()
        .map(|s| s.schedule.len())
        .max()
        .unwrap_or(0);
    for s in &mut b.statements {
        while s.schedule.len() < depth {
            s.schedule.push(SchedDim::Const(0));
        }
    }
    arrays.append(&mut b.local_arrays);
    arrays.extend(scalar_arrays);
    for l in &b.locals {
        arrays.push(Array {
            name: l.clone(),
            dims: vec![],
            element_type: "double".into(),
            origin: ArrayOrigin::Local,
        });
    }
    let context = Formula::and(params.iter().map(|p| Formula::Ge(Affine::var(p))).collect());
    Ok(Scop {
        function: f.name.clone(),
        params,
        scalar_params,
        context,
        arrays,
        statements: b.statements,
        optimistic: b.optimistic,
    })
}

const ISL_WORDS: &[&str] = &[
    "and", "or", "not", "exists", "mod", "floor", "ceil", "min", "max", "infty", "true", "false",
    "rat", "implies", "xor",
];

fn check_name(name: &str, pos: Pos) -> Result<(), Error> {
    if ISL_WORDS.contains(&name) {
        return Err(Error::unsupported(
            pos,
            format!("identifier `{name}`"),
            "the name is a keyword of the isl notation; rename it",
        ));
    }
    Ok(())
}

fn collect_written(stmts: &[ast::Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                if let ExprKind::Var(n) = &lhs.kind {
                    out.insert(n.clone());
                }
            }
            StmtKind::For { body, .. } => collect_written(std::slice::from_ref(body), out),
            StmtKind::If { then_s, else_s, .. } => {
                collect_written(std::slice::from_ref(then_s), out);
                if let Some(e) = else_s {
                    collect_written(std::slice::from_ref(e), out);
                }
            }
            StmtKind::Block(b) => collect_written(b, out),
            _ => {}
        }
    }
}

fn contains_stmt(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Decl { init, .. } => init.is_some(),
        StmtKind::Assign { .. } => true,
        StmtKind::For { body, .. } => contains_stmt(body),
        StmtKind::If { then_s, else_s, .. } => {
            contains_stmt(then_s) || else_s.as_ref().is_some_and(|e| contains_stmt(e))
        }
        StmtKind::Block(b) => b.iter().any(contains_stmt),
        StmtKind::Empty | StmtKind::ArrayDecl { .. } | StmtKind::Call { .. } => false,
    }
}

fn non_affine(pos: Pos, what: &str) -> Error {
    Error::unsupported(
        pos,
        what,
        "expressions in subscripts, bounds and conditions must be affine in the loop iterators and integer parameters",
    )
}

impl Builder {
    fn block(&mut self, stmts: &[ast::Stmt], prefix: &[SchedDim]) -> Result<(), Error> {
        let saved = self.syms.clone();
        let many = stmts.iter().filter(|s| contains_stmt(s)).count() > 1;
        let mut k = 0;
        for s in stmts {
            let mut pre = prefix.to_vec();
            if many && contains_stmt(s) {
                pre.push(SchedDim::Const(k));
                k += 1;
            }
            self.stmt(s, &pre)?;
        }
        self.syms = saved;
        Ok(())
    }

    fn stmt(&mut self, s: &ast::Stmt, prefix: &[SchedDim]) -> Result<(), Error> {
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Call { name, returns } => {
                // an error path: the parameters for which it runs are a restriction
                let (vars, dom) = self.here();
                self.oblige(
                    Kind::ErrorPath,
                    s.pos,
                    &vars,
                    &dom,
                    Formula::False,
                    if *returns {
                        "early return".to_string()
                    } else {
                        format!("call of `{name}`")
                    },
                );
                Ok(())
            }
            StmtKind::Block(b) => self.block(b, prefix),
            StmtKind::Decl { ty, name, init } => {
                check_name(name, s.pos)?;
                if self.syms.contains_key(name) {
                    return Err(Error::unsupported(
                        s.pos,
                        format!("declaration of `{name}`"),
                        "shadowing another variable is not supported",
                    ));
                }
                match ty {
                    BaseTy::Int(t) => {
                        self.int_types.insert(name.clone(), *t);
                        if init.is_some() {
                            return Err(Error::unsupported(
                                s.pos,
                                format!("int {name} = ..."),
                                "integer variables may only be used as loop iterators",
                            ));
                        }
                        self.syms.insert(name.clone(), Sym::IntLocal);
                        Ok(())
                    }
                    BaseTy::Double => {
                        self.syms.insert(name.clone(), Sym::LocalDouble);
                        if !self.locals.contains(name) {
                            self.locals.push(name.clone());
                        }
                        if let Some(e) = init {
                            let lhs = ast::Expr {
                                kind: ExprKind::Var(name.clone()),
                                pos: s.pos,
                            };
                            self.assignment(&lhs, AssignOp::Set, e, s.pos, prefix)?;
                        }
                        Ok(())
                    }
                }
            }
            StmtKind::ArrayDecl { name, dims } => self.array_decl(name, dims, s.pos),
            StmtKind::Assign { lhs, op, rhs } => self.assignment(lhs, *op, rhs, s.pos, prefix),
            StmtKind::If {
                cond,
                then_s,
                else_s,
            } => {
                let f = self.cond_formula(cond)?;
                let (vars, dom) = self.here();
                self.record_int(cond, None, &vars, &dom);
                if ast::contains_call(then_s)
                    || else_s.as_ref().is_some_and(|e| ast::contains_call(e))
                {
                    return self.error_paths(&f, then_s, else_s.as_deref(), s.pos, prefix);
                }
                let both =
                    contains_stmt(then_s) && else_s.as_ref().is_some_and(|e| contains_stmt(e));
                let mut pre = prefix.to_vec();
                if both {
                    pre.push(SchedDim::Const(0));
                }
                self.conds.push(f.clone());
                let r = self.stmt(then_s, &pre);
                self.conds.pop();
                r?;
                if let Some(e) = else_s {
                    if both {
                        pre.pop();
                        pre.push(SchedDim::Const(1));
                    }
                    self.conds.push(f.negate());
                    let r = self.stmt(e, &pre);
                    self.conds.pop();
                    r?;
                }
                Ok(())
            }
            StmtKind::For {
                var,
                declared,
                init,
                cond,
                step,
                body,
                parallel,
            } => {
                check_name(var, s.pos)?;
                match (self.syms.get(var), declared) {
                    (None, true) | (Some(Sym::IntLocal), false) => {}
                    (None, false) => {
                        return Err(Error::semantic(
                            s.pos,
                            format!("undeclared loop iterator `{var}`"),
                        ))
                    }
                    _ => {
                        return Err(Error::unsupported(
                            s.pos,
                            format!("loop iterator `{var}`"),
                            "the iterator must be a fresh `int` variable (no shadowing or reuse inside its own loop)",
                        ))
                    }
                }
                let init_t = self.int_term(init)?;
                let ty = if *declared {
                    IntTy::Int
                } else {
                    self.var_type(var)
                };
                let (vars, dom) = self.here();
                self.record_int(init, Some(ty), &vars, &dom);
                let saved = self.syms.clone();
                let saved_ty = self.int_types.insert(var.clone(), ty);
                self.syms.insert(var.clone(), Sym::Iterator);
                if *parallel {
                    self.par_loops.push(var.clone());
                }
                let r = self.for_loop(s.pos, var, init_t, cond, *step, body, prefix);
                if *parallel {
                    self.par_loops.pop();
                }
                self.syms = saved;
                if let Some(t) = saved_ty {
                    self.int_types.insert(var.clone(), t);
                }
                r
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        pos: Pos,
        var: &str,
        init: IntTerm,
        cond: &ast::Expr,
        step: i64,
        body: &ast::Stmt,
        prefix: &[SchedDim],
    ) -> Result<(), Error> {
        let ne_cond;
        let cond = match self.not_equal_loop(var, &init, cond, step)? {
            Some(c) => {
                ne_cond = c;
                &ne_cond
            }
            None => cond,
        };
        let c = self.cond_formula(cond)?;
        check_monotone(&c, var, step > 0, cond.pos)?;
        if !formula_mentions(&c, var) {
            return Err(Error::unsupported(
                cond.pos,
                "loop condition",
                format!("the condition does not bound the iterator `{var}`"),
            ));
        }
        let v = IntTerm::Aff(Affine::var(var));
        let mut parts = Vec::new();
        // Try the compact `lo <= i < hi` form.
        let mut compact = None;
        if let (IntTerm::Aff(a), Formula::Ge(g)) = (&init, &c) {
            let k = g.coeff(var);
            if step > 0 && k == -1 {
                let h = g.add(&Affine::var(var));
                compact = Some(if h.constant < 0 {
                    Formula::Range {
                        lo: a.clone(),
                        var: var.into(),
                        hi: h.add(&Affine::constant(1)),
                        strict: true,
                    }
                } else {
                    Formula::Range {
                        lo: a.clone(),
                        var: var.into(),
                        hi: h,
                        strict: false,
                    }
                });
            } else if step < 0 && k == 1 {
                let l = g.sub(&Affine::var(var)).scale(-1);
                compact = Some(Formula::Range {
                    lo: l,
                    var: var.into(),
                    hi: a.clone(),
                    strict: false,
                });
            }
        }
        match compact {
            Some(f) => parts.push(f),
            None => {
                parts.push(if step > 0 {
                    ge0(&v.sub(&init))
                } else {
                    ge0(&init.sub(&v))
                });
                parts.push(c);
            }
        }
        if step.abs() > 1 {
            parts.push(stride_formula(var, &init, step.abs()));
        }
        let this = Formula::and(parts);
        self.record_loop(var, &init, cond, step, &this);
        self.loops.push((var.to_string(), this));
        let mut pre = prefix.to_vec();
        pre.push(SchedDim::Iter(
            var.to_string(),
            if step > 0 { 1 } else { -1 },
        ));
        let r = self.stmt(body, &pre);
        self.loops.pop();
        let _ = pos;
        r
    }

    /// `double tmp[N][M];` in the function body, outside every loop and
    /// condition: a local array with extents affine in the parameters.
    fn array_decl(&mut self, name: &str, dims: &[ast::Expr], pos: Pos) -> Result<(), Error> {
        check_name(name, pos)?;
        if !self.loops.is_empty() || !self.conds.is_empty() {
            return Err(Error::unsupported(
                pos,
                format!("local array `{name}`"),
                "local arrays must be declared in the function body outside every loop and condition",
            ));
        }
        if self.syms.contains_key(name) {
            return Err(Error::unsupported(
                pos,
                format!("declaration of `{name}`"),
                "shadowing another variable is not supported",
            ));
        }
        let mut ds = Vec::new();
        for d in dims {
            match self.int_term(d)? {
                IntTerm::Aff(a) => ds.push(a),
                _ => {
                    return Err(Error::unsupported(
                        d.pos,
                        "array size",
                        "array sizes must be affine in the integer parameters",
                    ))
                }
            }
        }
        self.syms
            .insert(name.to_string(), Sym::Array { rank: ds.len() });
        self.extents.insert(name.to_string(), (ds.clone(), 0));
        self.local_arrays.push(Array {
            name: name.to_string(),
            dims: ds,
            element_type: "double".into(),
            origin: ArrayOrigin::LocalArray,
        });
        Ok(())
    }
}
