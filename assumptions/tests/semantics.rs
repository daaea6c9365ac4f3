//! Brute force against C semantics: for parameter values on a grid, an
//! independent tracer runs the kernel as C does (32-bit `int` and
//! `unsigned` arithmetic that wraps, truncating division, pointers as flat
//! memory, a step limit for loops that do not stop) and the model is
//! evaluated at the same values. Whenever the parameters satisfy
//! `assumed ∧ ¬invalid`, the model must be exact: the same statement
//! instances, the same cells (the model's delinearized subscripts within
//! the inner extents and linearizing to the addresses C touches), no
//! wrapping, no error path. Whenever they do not, the trace must show why
//! (the assumptions are not needlessly pessimistic).

use std::collections::HashMap;

use presburger::Int;
use scop::affine::Affine;
use scop::ast::{contains_call, BinOp, ExprKind, Function, IntTy, ParamKind, Stmt, StmtKind, UnOp};

const STEP_LIMIT: usize = 20_000;

#[derive(Default)]
struct Trace {
    /// statement index, iterator values, sorted (array, address) list
    instances: Vec<(usize, Vec<i128>, Vec<(String, i128)>)>,
    /// why the model cannot be exact, if something says so
    flags: Vec<String>,
}

struct Tracer<'a> {
    ints: HashMap<String, (i128, IntTy)>,
    /// inner extents of array parameters (empty for pointers)
    extents: HashMap<String, Vec<i128>>,
    ids: HashMap<*const Stmt, usize>,
    loops: Vec<String>,
    steps: usize,
    trace: Trace,
    f: &'a Function,
}

/// Statement numbers as the front end gives them (error branches skipped).
fn number(stmts: &[Stmt], ids: &mut HashMap<*const Stmt, usize>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { .. } | StmtKind::Decl { init: Some(_), .. } => {
                let k = ids.len();
                ids.insert(s as *const Stmt, k);
            }
            StmtKind::For { body, .. } => number(std::slice::from_ref(body), ids),
            StmtKind::If { then_s, else_s, .. } => {
                if !contains_call(then_s) {
                    number(std::slice::from_ref(then_s), ids);
                }
                if let Some(e) = else_s {
                    if !contains_call(e) {
                        number(std::slice::from_ref(e), ids);
                    }
                }
            }
            StmtKind::Block(b) => number(b, ids),
            _ => {}
        }
    }
}

impl Tracer<'_> {
    fn flag(&mut self, why: String) {
        if self.trace.flags.len() < 4 {
            self.trace.flags.push(why);
        }
    }

    /// Converts to `to`, flagging a changed value.
    fn convert(&mut self, v: i128, to: IntTy) -> i128 {
        let w = to.wrap(v);
        if w != v {
            self.flag(format!("{v} converted to {}", to.as_str()));
        }
        w
    }

    fn int(&mut self, e: &scop::ast::Expr) -> (i128, IntTy) {
        match &e.kind {
            ExprKind::Int(v) => (
                *v as i128,
                if i32::try_from(*v).is_ok() {
                    IntTy::Int
                } else {
                    IntTy::Long
                },
            ),
            ExprKind::Var(n) => self.ints[n],
            ExprKind::Unary(UnOp::Plus, a) => self.int(a),
            ExprKind::Unary(UnOp::Neg, a) => {
                let (v, t) = self.int(a);
                let w = t.wrap(-v);
                if w != -v {
                    self.flag(format!("-{v} wraps"));
                }
                (w, t)
            }
            ExprKind::Unary(UnOp::Not, a) => ((self.int(a).0 == 0) as i128, IntTy::Int),
            ExprKind::Binary(BinOp::And, a, b) => {
                let x = self.int(a).0 != 0 && self.int(b).0 != 0;
                (x as i128, IntTy::Int)
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let x = self.int(a).0 != 0 || self.int(b).0 != 0;
                (x as i128, IntTy::Int)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, tx) = self.int(a);
                let (y, ty) = self.int(b);
                let t = tx.common(ty);
                let (x, y) = (self.convert(x, t), self.convert(y, t));
                let cmp = |c: bool| (c as i128, IntTy::Int);
                let exact = match op {
                    BinOp::Lt => return cmp(x < y),
                    BinOp::Le => return cmp(x <= y),
                    BinOp::Gt => return cmp(x > y),
                    BinOp::Ge => return cmp(x >= y),
                    BinOp::Eq => return cmp(x == y),
                    BinOp::Ne => return cmp(x != y),
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div | BinOp::Mod => {
                        if x < 0 || y <= 0 {
                            self.flag("division of a negative value".into());
                        }
                        if y == 0 {
                            return (0, t);
                        }
                        if *op == BinOp::Div {
                            x / y
                        } else {
                            x % y
                        }
                    }
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                };
                let w = t.wrap(exact);
                if w != exact && t != IntTy::Long {
                    self.flag(format!("{exact} wraps in {}", t.as_str()));
                }
                (w, t)
            }
            ExprKind::Call(n, args) => {
                let vs: Vec<(i128, IntTy)> = args.iter().map(|a| self.int(a)).collect();
                let t = vs.iter().fold(IntTy::Int, |t, (_, u)| t.common(*u));
                let vs: Vec<i128> = vs
                    .iter()
                    .map(|(v, u)| {
                        let _ = u;
                        *v
                    })
                    .collect();
                let vs: Vec<i128> = vs.into_iter().map(|v| self.convert(v, t)).collect();
                let r = if n.eq_ignore_ascii_case("min") {
                    vs.iter().min()
                } else {
                    vs.iter().max()
                };
                (*r.unwrap_or(&0), t)
            }
            other => panic!("not an integer expression: {other:?}"),
        }
    }

    fn address(&mut self, name: &str, subs: &[scop::ast::Expr]) -> i128 {
        let idx: Vec<i128> = subs.iter().map(|s| self.int(s).0).collect();
        let ext = self.extents.get(name).cloned().unwrap_or_default();
        let mut a = idx[0];
        for (x, e) in idx[1..].iter().zip(&ext) {
            a = a * e + x;
        }
        a
    }

    fn reads(&mut self, e: &scop::ast::Expr, out: &mut Vec<(String, i128)>) {
        match &e.kind {
            ExprKind::Index(n, subs) => {
                let a = self.address(n, subs);
                out.push((n.clone(), a));
            }
            ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => self.reads(a, out),
            ExprKind::Binary(_, a, b) => {
                self.reads(a, out);
                self.reads(b, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| self.reads(a, out)),
            _ => {}
        }
        // integer subexpressions are evaluated too (wrapping flags)
        if let ExprKind::Binary(..) | ExprKind::Unary(..) = &e.kind {
            if int_only(e) {
                self.int(e);
            }
        }
    }

    fn run(&mut self, stmts: &[Stmt]) -> bool {
        for s in stmts {
            if !self.stmt(s) {
                return false;
            }
        }
        true
    }

    /// False when the run stops (error path, step limit).
    fn stmt(&mut self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Assign { lhs, op, rhs } => {
                let mut acc = Vec::new();
                if let ExprKind::Index(n, subs) = &lhs.kind {
                    let a = self.address(n, subs);
                    acc.push((n.clone(), a));
                    if *op != scop::ast::AssignOp::Set {
                        acc.push((n.clone(), a));
                    }
                }
                self.reads(rhs, &mut acc);
                acc.sort();
                let iters = self.loops.iter().map(|v| self.ints[v].0).collect();
                let k = self.ids[&(s as *const Stmt)];
                self.trace.instances.push((k, iters, acc));
                true
            }
            StmtKind::Decl {
                ty: scop::ast::BaseTy::Int(t),
                name,
                ..
            } => {
                self.ints.insert(name.clone(), (0, *t));
                true
            }
            StmtKind::Call { name, .. } => {
                self.flag(format!("error path `{name}` runs"));
                false
            }
            StmtKind::Block(b) => self.run(b),
            StmtKind::If {
                cond,
                then_s,
                else_s,
            } => {
                if self.int(cond).0 != 0 {
                    self.stmt(then_s)
                } else if let Some(e) = else_s {
                    self.stmt(e)
                } else {
                    true
                }
            }
            StmtKind::For {
                var,
                declared,
                init,
                cond,
                step,
                body,
                ..
            } => {
                let ty = if *declared {
                    IntTy::Int
                } else {
                    self.ints[var].1
                };
                let (v, _) = self.int(init);
                let v = self.convert(v, ty);
                self.ints.insert(var.clone(), (v, ty));
                self.loops.push(var.clone());
                loop {
                    self.steps += 1;
                    if self.steps > STEP_LIMIT {
                        self.flag("the loops do not stop".into());
                        return false;
                    }
                    if self.int(cond).0 == 0 {
                        break;
                    }
                    if !self.stmt(body) {
                        return false;
                    }
                    let (i, _) = self.ints[var];
                    let next = ty.wrap(i + *step as i128);
                    if next != i + *step as i128 && ty != IntTy::Long {
                        self.flag(format!("{var} + {step} wraps"));
                    }
                    self.ints.insert(var.clone(), (next, ty));
                }
                self.loops.pop();
                true
            }
            _ => true,
        }
    }
}

fn int_only(e: &scop::ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Var(_) => true,
        ExprKind::Unary(_, a) => int_only(a),
        ExprKind::Binary(_, a, b) => int_only(a) && int_only(b),
        _ => false,
    }
}

fn eval_affine(a: &Affine, env: &HashMap<String, i64>) -> i128 {
    a.eval(&|n| env.get(n).copied()).expect("affine evaluates") as i128
}

/// The model's instances and cells at `params`, iterators within `[-l, l]`
/// or within `l` of a parameter value beyond it, and whether every inner
/// subscript is within its extent.
fn model_instances(
    scop: &scop::Scop,
    params: &HashMap<String, i64>,
    l: i64,
) -> (Vec<(usize, Vec<i128>, Vec<(String, i128)>)>, Vec<String>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let extents: HashMap<&str, &[Affine]> = scop
        .optimistic
        .array_params
        .iter()
        .map(|a| (a.name.as_str(), a.inner.as_slice()))
        .collect();
    let mut cands: Vec<i64> = (-l..=l).collect();
    for &c in params.values() {
        if c.abs() > l {
            cands.extend((c.saturating_sub(l)..=c.saturating_add(l)).filter(|x| x.abs() > l));
        }
    }
    cands.sort();
    cands.dedup();
    for (k, s) in scop.statements.iter().enumerate() {
        let d = s.iterators.len();
        let mut at = vec![0usize; d];
        loop {
            let point: Vec<i64> = at.iter().map(|&j| cands[j]).collect();
            let mut env = params.clone();
            for (v, x) in s.iterators.iter().zip(&point) {
                env.insert(v.clone(), *x);
            }
            if s.domain.eval(&|n| env.get(n).copied()) == Some(true) {
                let mut cells = Vec::new();
                for a in &s.accesses {
                    if a.index.is_empty() {
                        continue;
                    }
                    let idx: Vec<i128> = a.index.iter().map(|x| eval_affine(x, &env)).collect();
                    let inner: Vec<i128> = extents
                        .get(a.array.as_str())
                        .map(|e| e.iter().map(|x| eval_affine(x, &env)).collect())
                        .unwrap_or_default();
                    let mut addr = idx[0];
                    for (t, (x, e)) in idx[1..].iter().zip(&inner).enumerate() {
                        if *x < 0 || x >= e {
                            bad.push(format!(
                                "{}: subscript {} is {x}, extent {e}",
                                a.array,
                                t + 1
                            ));
                        }
                        addr = addr * e + x;
                    }
                    cells.push((a.array.clone(), addr));
                }
                cells.sort();
                out.push((k, point.iter().map(|&x| x as i128).collect(), cells));
            }
            // next point
            let mut j = d;
            loop {
                if j == 0 {
                    return (out, bad);
                }
                j -= 1;
                if at[j] + 1 < cands.len() {
                    at[j] += 1;
                    break;
                }
                at[j] = 0;
            }
            if d == 0 {
                return (out, bad);
            }
        }
    }
    (out, bad)
}

fn check_kernel(src: &str, values: &[(&str, &[i64])], box_l: i64) -> usize {
    let f = scop::parse_kernel(src).unwrap();
    let scop = scop::build_from_ast(&f).unwrap();
    let a = assumptions::analyze(&scop, &assumptions::Limits::default()).unwrap();
    let valid = a.assumed.subtract(&a.invalid).unwrap();
    let mut ids = HashMap::new();
    number(&f.body, &mut ids);
    let mut grid: Vec<Vec<i64>> = vec![vec![]];
    for (_, vs) in values {
        grid = grid
            .iter()
            .flat_map(|p| vs.iter().map(move |v| [p.clone(), vec![*v]].concat()))
            .collect();
    }
    let mut checked = 0;
    for p in grid {
        let params: HashMap<String, i64> = values
            .iter()
            .map(|(n, _)| n.to_string())
            .zip(p.iter().copied())
            .collect();
        let mut t = Tracer {
            ints: HashMap::new(),
            extents: HashMap::new(),
            ids: ids.clone(),
            loops: Vec::new(),
            steps: 0,
            trace: Trace::default(),
            f: &f,
        };
        for prm in &t.f.params {
            match &prm.kind {
                ParamKind::Int(ty) => {
                    t.ints
                        .insert(prm.name.clone(), (params[&prm.name] as i128, *ty));
                }
                ParamKind::Array(d) | ParamKind::OpenArray(d) => {
                    let skip = matches!(prm.kind, ParamKind::Array(_)) as usize;
                    let e: Vec<i128> = d[skip..].iter().map(|x| t.int(x).0).collect();
                    t.extents.insert(prm.name.clone(), e);
                }
                _ => {}
            }
        }
        t.run(&f.body);
        let mut trace = t.trace;
        trace.instances.sort();
        let (mut model, oob) = model_instances(&scop, &params, box_l);
        model.sort();
        if trace.instances.is_empty() && trace.flags.is_empty() && model.is_empty() {
            // nothing runs: whatever the check says is harmless
            continue;
        }
        let exact = trace.flags.is_empty() && oob.is_empty() && model == trace.instances;
        let point: Vec<Int> = scop.params.iter().map(|n| Int::from(params[n])).collect();
        let values = assumptions::Values {
            params: params.iter().map(|(n, v)| (n.clone(), *v)).collect(),
            bases: f
                .params
                .iter()
                .enumerate()
                .map(|(k, p)| (p.name.clone(), (k as i64 + 1) << 58))
                .collect(),
        };
        // the non-affine values' conditions are not in the sets
        let ok = valid.contains_point(&point).unwrap()
            && a.ranges.iter().all(|r| r.check.holds(&values));
        // the run-time check as `poly run` evaluates it (64-bit, fail
        // safe), with the arrays far apart: true only where the model is
        // exact; false where it is exact only because an address range
        // is too long for the gap (the alias part is conservative)
        let run = a.runtime.eval(&values);
        assert!(
            run != Some(true) || exact,
            "{}: at {params:?} the evaluated check holds but the model is not exact",
            f.name
        );
        assert!(
            run != Some(false)
                || !ok
                || a.alias.iter().any(|p| p.check.eval(&values) == Some(false)),
            "{}: at {params:?} the evaluated check fails where the model is exact",
            f.name
        );
        assert!(
            ok == exact,
            "{}: at {params:?} the check says {ok} but the model is {}exact: flags {:?}, out of bounds {:?}, {} traced vs {} modelled instances",
            f.name,
            if exact { "" } else { "not " },
            trace.flags,
            oob.first(),
            trace.instances.len(),
            model.len()
        );
        checked += 1;
    }
    checked
}

/// A kernel of `../shared/assumptions`; `None` when the folder is missing,
/// a failure under CI (`testkit::shared_path`).
fn shared(name: &str) -> Option<String> {
    let p = testkit::shared_path(&format!("assumptions/{name}"))?;
    Some(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

fn own(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

const INT_MAX: i64 = i32::MAX as i64;

#[test]
fn shared_kernels_agree_with_c() {
    let Some(cd) = shared("count_down.c") else {
        eprintln!("note: ../shared/assumptions missing; skipped");
        return;
    };
    let small: Vec<i64> = (-5..=9).collect();
    assert_eq!(check_kernel(&cd, &[("n", &small)], 12), small.len() - 1);
    let ib = shared("inbounds_2d.c").unwrap();
    let s: Vec<i64> = (-2..=11).collect();
    check_kernel(&ib, &[("n", &[0, 1, 2]), ("m", &[0, 1, 3]), ("s", &s)], 12);
}

#[test]
fn own_kernels_agree_with_c() {
    let wide = [
        -3,
        -1,
        0,
        1,
        3,
        INT_MAX - 3,
        INT_MAX - 2,
        INT_MAX - 1,
        INT_MAX,
    ];
    check_kernel(&own("int_wrap.c"), &[("n", &[0, 1, 2, 4]), ("s", &wide)], 6);
    let top = [INT_MAX - 3, INT_MAX - 1, INT_MAX];
    check_kernel(&own("inc_wrap.c"), &[("n", &top), ("s", &top)], 4);
    check_kernel(
        &own("inc_wrap.c"),
        &[("n", &[-2, 0, 3]), ("s", &[-2, 0, 3])],
        8,
    );
    let r: Vec<i64> = (-6..=6).collect();
    check_kernel(&own("ne_up.c"), &[("a", &r), ("b", &r)], 8);
    check_kernel(&own("unsigned_iter.c"), &[("n", &[-3, -1, 0, 1, 2, 5])], 8);
    check_kernel(
        &own("error_path.c"),
        &[("n", &[-1, 0, 1, 2, 5]), ("m", &[-3, -1, 0, 1, 3, 4, 6])],
        8,
    );
    let s = [
        -2,
        -1,
        0,
        3,
        5,
        6,
        7,
        INT_MAX - 5,
        INT_MAX - 4,
        INT_MAX - 3,
        INT_MAX,
    ];
    check_kernel(&own("mixed_types.c"), &[("n", &[0, 1, 2]), ("s", &s)], 6);
    check_kernel(
        &own("lin_offset.c"),
        &[
            ("n", &[0, 1, 2]),
            ("m", &[0, 2, 4]),
            ("k", &[0, 1, 3]),
            ("s", &[-1, 0, 1, 3]),
        ],
        6,
    );
    check_kernel(
        &own("copy_alias.c"),
        &[("n", &[0, 1, 2]), ("m", &[0, 1, 3])],
        5,
    );
    check_kernel(
        &own("restrict_3d.c"),
        &[
            ("n", &[0, 1]),
            ("p", &[0, 2]),
            ("q", &[0, 1, 2, 3]),
            ("r", &[0, 1, 2, 3]),
        ],
        5,
    );
    check_kernel(
        &own("alias_rows.c"),
        &[("n", &[0, 1, 2]), ("m", &[0, 1, 9, 10, 11])],
        12,
    );
    check_kernel(&own("alias_three.c"), &[("n", &[-2, -1, 0, 1, 3])], 6);
    // a linearized int subscript: i * m + j wraps when n * m > INT_MAX
    let big = [
        0, 1, 2, 3, 46340, 46341, 715827882, 715827883, 1073741823, 1073741824, INT_MAX,
    ];
    check_kernel(
        "void lin_int(int n, int m, double *restrict A) {
           for (int i = 0; i < n; i++)
             for (int j = 0; j < 2; j++)
               A[i * m + j] = 1.0;
         }",
        &[("n", &[0, 1, 2, 3]), ("m", &big)],
        4,
    );
    check_kernel(
        &own("open_3d.c"),
        &[
            ("n", &[0, 1]),
            ("p", &[0, 1, 20, 21]),
            ("q", &[0, 2, 29, 30]),
        ],
        31,
    );
}

#[test]
fn the_evaluated_check_compares_address_ranges() {
    // A and B each span cells [0, n*m) where the loops run
    let f = scop::parse_kernel(&own("copy_alias.c")).unwrap();
    let scop = scop::build_from_ast(&f).unwrap();
    let a = assumptions::analyze(&scop, &assumptions::Limits::default()).unwrap();
    let at = |n: i64, m: i64, base_a: i64, base_b: i64| assumptions::Values {
        params: [("n".into(), n), ("m".into(), m)].into(),
        bases: [("A".into(), base_a), ("B".into(), base_b)].into(),
    };
    let base = 1 << 20;
    for (n, m) in [(1, 1), (2, 3), (5, 7), (1000, 1000)] {
        let e = 8 * n * m;
        assert!(a.holds_at(&at(n, m, base, base + e)), "{n} {m}: adjacent");
        assert!(a.holds_at(&at(n, m, base + e, base)), "{n} {m}: adjacent");
        assert!(!a.holds_at(&at(n, m, base, base)), "{n} {m}: equal");
        assert!(
            !a.holds_at(&at(n, m, base, base + e - 8)),
            "{n} {m}: one cell shared"
        );
        assert!(
            !a.holds_at(&at(n, m, base + e - 8, base)),
            "{n} {m}: one cell shared"
        );
    }
    // nothing runs: no overlap whatever the addresses
    assert!(a.holds_at(&at(0, 5, base, base)));
    // an address difference or an offset beyond 64 bits fails safe
    assert!(!a.holds_at(&at(1 << 40, 1 << 40, 0, i64::MAX)));
    let (mut c, mut f) = (at(2, 2, base, 0), at(2, 2, base, 0));
    c.bases.remove("B");
    f.params.remove("m");
    assert!(
        !a.holds_at(&c) && !a.holds_at(&f),
        "a missing value fails safe"
    );
}
