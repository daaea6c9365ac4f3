//! Reference interpreter: executes the kernel's AST with exact C semantics
//! (IEEE doubles, C evaluation order, truncating integer division, and
//! integer arithmetic in the declared C types: `unsigned` wraps modulo
//! `2^32`, a signed overflow is a run-time error since it is undefined
//! behaviour; the `cint` module).
//!
//! The run respects the engine's operation budget ([`presburger::budget`]):
//! each loop iteration, each evaluated expression node and each array
//! element allocated costs one tick, and a run that spends its budget ends
//! with [`Error::Engine`]`(BudgetExceeded)`. Without a budget (as `poly
//! interp` runs) the work is unbounded.
//!
//! ```
//! let src = "void k(int n, double A[4]) { for (int i = 0; i < 4; i++) A[i] = A[i] + (i + n); }";
//! assert!(scop::commands::interp_source(src, &["n=5".into()]).is_ok());
//! // i + n overflows int at n = INT_MAX
//! let e = scop::commands::interp_source(src, &["n=2147483647".into()]).unwrap_err();
//! assert!(e.to_string().contains("signed integer overflow"), "{e}");
//! ```

use crate::ast::{self, AssignOp, BinOp, ExprKind, IntTy, ParamKind, StmtKind, UnOp};
use crate::cint;
use crate::error::{Error, Pos};
use std::collections::HashMap;

/// A value: C `int` (held in 64 bits) or `double`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A double.
    Double(f64),
}

impl Value {
    fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Double(d) => d,
        }
    }
}

/// A dense row-major array.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayData {
    /// Extents.
    pub dims: Vec<usize>,
    /// Row-major contents.
    pub data: Vec<f64>,
    /// For a parameter without outermost extent (`double A[][10]`, `double
    /// *A`): its number among the array parameters. Its outermost extent is
    /// [`OPEN`]; `data` grows on writes (with the agreed initial values) and
    /// reads beyond it see the initial values.
    pub open: Option<usize>,
    /// For an open array: one past the highest element read so far (the
    /// run extends `data` to it at the end, so reads count in checksums).
    pub reach: std::cell::Cell<usize>,
}

/// The outermost extent of an array parameter declared without one.
pub const OPEN: usize = usize::MAX;

/// The machine state of a kernel run.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Integer parameters and live iterators.
    pub ints: HashMap<String, i64>,
    /// Double scalars (parameters and locals).
    pub doubles: HashMap<String, f64>,
    /// Arrays by name.
    pub arrays: HashMap<String, ArrayData>,
    /// When tracing: the executed statement instances, as (statement number
    /// in the model, values of the enclosing loop iterators).
    pub trace: Option<Vec<(usize, Vec<i64>)>>,
    loop_vars: Vec<String>,
    stmt_ids: HashMap<usize, usize>,
    /// The integer variables as the run sees them: value (an `unsigned
    /// long` above `i64::MAX` as its bit pattern) and C type, in one map
    /// so that a read is one lookup; `ints` is copied in when a run starts.
    vals: HashMap<String, (i64, IntTy)>,
    /// A `return` ran: nothing more runs.
    returned: bool,
}

/// The agreed initial value of element `x` of array number `a`.
pub fn initial_value(x: usize, a: usize) -> f64 {
    ((x as u64 * 7 + a as u64 * 13) % 101) as f64 / 101.0 + 0.5
}

/// The agreed default of the `k`-th double scalar parameter.
pub fn default_scalar(k: usize) -> f64 {
    1.5 + 0.25 * k as f64
}

/// The agreed checksum: sum of `value[x] * (1 + x % 7)` in index order.
pub fn checksum(data: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, v) in data.iter().enumerate() {
        s += v * (1 + x % 7) as f64;
    }
    s
}

/// Formats like C's `printf("%.*e", prec, v)` (glibc spelling of nan/inf).
///
/// ```
/// assert_eq!(scop::interp::format_c_exp(1234.5, 3), "1.234e+03");
/// assert_eq!(scop::interp::format_c_exp(-0.0, 2), "-0.00e+00");
/// ```
pub fn format_c_exp(v: f64, prec: usize) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let s = format!("{:.*e}", prec, v);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!(
        "{mant}e{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs()
    )
}

/// Sets up the agreed inputs for `f`: `ints` gives the integer parameters,
/// `scalars` overrides double scalar parameters.
pub fn initial_state(
    f: &ast::Function,
    ints: &HashMap<String, i64>,
    scalars: &HashMap<String, f64>,
) -> Result<State, Error> {
    let mut st = State::default();
    let (mut k_scalar, mut k_array) = (0usize, 0usize);
    for p in &f.params {
        match &p.kind {
            ParamKind::Int(ty) => {
                let v = *ints.get(&p.name).ok_or_else(|| {
                    Error::usage(format!("missing value for integer parameter {}", p.name))
                })?;
                if !(ty.lowest()..=ty.highest()).contains(&(v as i128)) {
                    return Err(Error::usage(format!(
                        "{v} is not a value of type {} (for {})",
                        ty.as_str(),
                        p.name
                    )));
                }
                st.ints.insert(p.name.clone(), v);
                st.vals.insert(p.name.clone(), (v, *ty));
            }
            ParamKind::Double => {
                let v = scalars
                    .get(&p.name)
                    .copied()
                    .unwrap_or_else(|| default_scalar(k_scalar));
                k_scalar += 1;
                st.doubles.insert(p.name.clone(), v);
            }
            ParamKind::OpenArray(dims) => {
                let (mut ds, _) = extents(&st, &p.name, dims, p.pos)?;
                ds.insert(0, OPEN);
                st.arrays.insert(
                    p.name.clone(),
                    ArrayData {
                        dims: ds,
                        data: Vec::new(),
                        open: Some(k_array),
                        reach: Default::default(),
                    },
                );
                k_array += 1;
            }
            ParamKind::Pointer { .. } => {
                // indexed with the linearized subscript as written: flat memory
                st.arrays.insert(
                    p.name.clone(),
                    ArrayData {
                        dims: vec![OPEN],
                        data: Vec::new(),
                        open: Some(k_array),
                        reach: Default::default(),
                    },
                );
                k_array += 1;
            }
            ParamKind::Array(dims) => {
                let (ds, len) = extents(&st, &p.name, dims, p.pos)?;
                let data = (0..len).map(|x| initial_value(x, k_array)).collect();
                k_array += 1;
                st.arrays.insert(
                    p.name.clone(),
                    ArrayData {
                        dims: ds,
                        data,
                        open: None,
                        reach: Default::default(),
                    },
                );
            }
        }
    }
    Ok(st)
}

/// The extents of an array and its number of elements.
fn extents(
    st: &State,
    name: &str,
    dims: &[ast::Expr],
    pos: Pos,
) -> Result<(Vec<usize>, usize), Error> {
    let mut ds = Vec::new();
    let mut len: usize = 1;
    for d in dims {
        let v = eval_int(st, d)?;
        if !(0..=(1 << 28)).contains(&v) {
            return Err(Error::runtime(
                d.pos,
                format!("extent {v} of array `{name}` is negative or too large"),
            ));
        }
        ds.push(v as usize);
        len = len.saturating_mul(v as usize);
    }
    if len > (1 << 28) {
        return Err(Error::runtime(pos, format!("array `{name}` is too large")));
    }
    tick(len as u64)?;
    Ok((ds, len))
}

/// Runs the kernel body on `st`.
pub fn run(f: &ast::Function, st: &mut State) -> Result<(), Error> {
    st.returned = false;
    // `ints` may have been set after `initial_state`
    for (n, v) in &st.ints {
        let ty = st.int_type(n);
        st.vals.insert(n.clone(), (*v, ty));
    }
    exec_block(st, &f.body)?;
    for a in st.arrays.values_mut() {
        if let Some(ord) = a.open {
            tick(a.reach.get().saturating_sub(a.data.len()) as u64)?;
            while a.data.len() < a.reach.get() {
                a.data.push(initial_value(a.data.len(), ord));
            }
        }
    }
    Ok(())
}

/// Runs the kernel and returns the executed statement instances in
/// execution order: (index of the statement in the model, iterator values).
/// Assignments in a branch that holds an error path have no number in the
/// model; when such a branch runs, they are not recorded.
///
/// ```
/// use std::collections::HashMap;
/// let f = scop::parse_kernel("void k(int N, double A[N]) { for (int i = 0; i < N; i += 2) A[i] = 1; }").unwrap();
/// let ints: HashMap<String, i64> = [("N".to_string(), 5)].into_iter().collect();
/// let mut st = scop::interp::initial_state(&f, &ints, &HashMap::new()).unwrap();
/// let trace = scop::interp::run_traced(&f, &mut st).unwrap();
/// assert_eq!(trace, vec![(0, vec![0]), (0, vec![2]), (0, vec![4])]);
/// ```
pub fn run_traced(f: &ast::Function, st: &mut State) -> Result<Vec<(usize, Vec<i64>)>, Error> {
    fn number(stmts: &[ast::Stmt], ids: &mut HashMap<usize, usize>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { .. } | StmtKind::Decl { init: Some(_), .. } => {
                    let n = ids.len();
                    ids.insert(s as *const ast::Stmt as usize, n);
                }
                StmtKind::For { body, .. } => number(std::slice::from_ref(body), ids),
                StmtKind::If { then_s, else_s, .. } => {
                    // A branch holding an error path (a call) is dropped
                    // from the model: its assignments are no statements.
                    for b in std::iter::once(then_s).chain(else_s) {
                        if !ast::contains_call(b) {
                            number(std::slice::from_ref(b), ids);
                        }
                    }
                }
                StmtKind::Block(b) => number(b, ids),
                _ => {}
            }
        }
    }
    let mut ids = HashMap::new();
    number(&f.body, &mut ids);
    st.stmt_ids = ids;
    st.trace = Some(Vec::new());
    let r = exec_block(st, &f.body);
    let t = st.trace.take().unwrap_or_default();
    r.map(|_| t)
}

fn record(st: &mut State, s: &ast::Stmt) {
    if st.trace.is_some() {
        let id = st.stmt_ids.get(&(s as *const ast::Stmt as usize)).copied();
        let its: Vec<i64> = st
            .loop_vars
            .iter()
            .map(|v| st.vals.get(v).map_or(0, |x| x.0))
            .collect();
        if let (Some(id), Some(t)) = (id, st.trace.as_mut()) {
            t.push((id, its));
        }
    }
}

/// Charge `n` ticks of the operation budget (see the module documentation).
fn tick(n: u64) -> Result<(), Error> {
    presburger::budget::tick(n).map_err(Error::Engine)
}

fn exec_block(st: &mut State, stmts: &[ast::Stmt]) -> Result<(), Error> {
    for s in stmts {
        if st.returned {
            break;
        }
        exec(st, s)?;
    }
    Ok(())
}

fn exec(st: &mut State, s: &ast::Stmt) -> Result<(), Error> {
    match &s.kind {
        StmtKind::Empty => Ok(()),
        StmtKind::Call { returns: true, .. } => {
            st.returned = true;
            Ok(())
        }
        StmtKind::Call { name, .. } => Err(Error::runtime(
            s.pos,
            format!("the error path runs: call of the unknown function `{name}`"),
        )),
        StmtKind::Block(b) => exec_block(st, b),
        StmtKind::ArrayDecl { name, dims } => {
            // Uninitialised in C; zeros here, for determinism.
            let (ds, len) = extents(st, name, dims, s.pos)?;
            st.arrays.insert(
                name.clone(),
                ArrayData {
                    dims: ds,
                    data: vec![0.0; len],
                    open: None,
                    reach: Default::default(),
                },
            );
            Ok(())
        }
        StmtKind::Decl { ty, name, init } => {
            match ty {
                ast::BaseTy::Int(t) => {
                    st.ints.insert(name.clone(), 0);
                    st.vals.insert(name.clone(), (0, *t));
                }
                ast::BaseTy::Double => {
                    // Uninitialised in C: the previous value (in a loop) or
                    // zero, for determinism. The name's scope begins at its
                    // declarator, so an initializer that reads it (`double
                    // t = t;`, as the model allows) reads that value too.
                    let old = st.doubles.get(name).copied().unwrap_or(0.0);
                    st.doubles.insert(name.clone(), old);
                    if let Some(e) = init {
                        record(st, s);
                        let v = eval(st, e)?.as_f64();
                        st.doubles.insert(name.clone(), v);
                    }
                }
            }
            Ok(())
        }
        StmtKind::Assign { lhs, op, rhs } => {
            record(st, s);
            // C evaluates `a op= b` as `a = a op (b)`.
            let old = if *op != AssignOp::Set {
                Some(eval(st, lhs)?.as_f64())
            } else {
                None
            };
            let r = eval(st, rhs)?.as_f64();
            let v = match (old, op) {
                (Some(o), AssignOp::Add) => o + r,
                (Some(o), AssignOp::Sub) => o - r,
                (Some(o), AssignOp::Mul) => o * r,
                (Some(o), AssignOp::Div) => o / r,
                _ => r,
            };
            store(st, lhs, v)
        }
        StmtKind::If {
            cond,
            then_s,
            else_s,
        } => {
            if truth(st, cond)? {
                exec(st, then_s)
            } else if let Some(e) = else_s {
                exec(st, e)
            } else {
                Ok(())
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
            let saved = st.vals.get(var).copied();
            // `for (int i = ...)`, or an iterator declared before
            let ty = if *declared {
                IntTy::Int
            } else {
                st.int_type(var)
            };
            let (v, t) = int_value(st, init)?;
            let mut i = cint::convert(cint::convert(v, t), ty);
            st.loop_vars.push(var.clone());
            let r: Result<(), Error> = (|| loop {
                tick(1)?;
                st.vals.insert(var.clone(), (stored(i, ty), ty));
                if !truth(st, cond)? {
                    break Ok(());
                }
                exec(st, body)?;
                if st.returned {
                    break Ok(());
                }
                // `i += step`: computed in the common type, stored in `ty`
                let (next, t) =
                    cint::binary(BinOp::Add, (i, ty), (*step as i128, IntTy::Int), s.pos)?;
                i = cint::convert(cint::convert(next, t), ty);
            })();
            st.loop_vars.pop();
            r?;
            match saved {
                Some(v) => st.vals.insert(var.clone(), v),
                None => st.vals.remove(var),
            };
            Ok(())
        }
    }
}

fn flat_index(st: &State, name: &str, subs: &[ast::Expr], pos: Pos) -> Result<usize, Error> {
    let mut idx = Vec::with_capacity(subs.len());
    for s in subs {
        idx.push(eval_int(st, s)?);
    }
    let a = st
        .arrays
        .get(name)
        .ok_or_else(|| Error::semantic(pos, format!("unknown array `{name}`")))?;
    if a.dims.len() != idx.len() {
        return Err(Error::semantic(
            pos,
            format!("wrong number of subscripts for `{name}`"),
        ));
    }
    let mut flat = 0usize;
    for (k, (&i, &d)) in idx.iter().zip(&a.dims).enumerate() {
        if i < 0 || (d != OPEN && i as u64 >= d as u64) {
            return Err(Error::runtime(
                pos,
                if d == OPEN {
                    format!("subscript {k} of `{name}` is {i}, below 0")
                } else {
                    format!("subscript {k} of `{name}` is {i}, outside 0..{d}")
                },
            ));
        }
        flat = if d == OPEN {
            i as usize
        } else {
            flat * d + i as usize
        };
        if flat >= 1 << 28 {
            return Err(Error::runtime(
                pos,
                format!("`{name}` is accessed beyond 2^28 elements"),
            ));
        }
    }
    Ok(flat)
}

fn store(st: &mut State, lhs: &ast::Expr, v: f64) -> Result<(), Error> {
    match &lhs.kind {
        ExprKind::Var(n) => {
            if !st.doubles.contains_key(n) {
                return Err(Error::semantic(
                    lhs.pos,
                    format!("`{n}` is not a double scalar"),
                ));
            }
            st.doubles.insert(n.clone(), v);
            Ok(())
        }
        ExprKind::Index(n, subs) => {
            let k = flat_index(st, n, subs, lhs.pos)?;
            if let Some(a) = st.arrays.get_mut(n) {
                if let Some(ord) = a.open {
                    tick((k + 1).saturating_sub(a.data.len()) as u64)?;
                    while a.data.len() <= k {
                        a.data.push(initial_value(a.data.len(), ord));
                    }
                }
                a.data[k] = v;
            }
            Ok(())
        }
        _ => Err(Error::syntax(lhs.pos, "invalid assignment target")),
    }
}

fn truth(st: &State, e: &ast::Expr) -> Result<bool, Error> {
    Ok(match eval(st, e)? {
        Value::Int(i) => i != 0,
        Value::Double(d) => d != 0.0,
    })
}

fn eval_int(st: &State, e: &ast::Expr) -> Result<i64, Error> {
    let (v, _) = int_value(st, e)?;
    // a value beyond 64 bits (unsigned long) addresses nothing
    Ok(i64::try_from(v).unwrap_or(i64::MAX))
}

/// An integer expression's exact value and C type.
fn int_value(st: &State, e: &ast::Expr) -> Result<(i128, IntTy), Error> {
    match typed(st, e)? {
        Typed::Int(v, t) => Ok((v, t)),
        Typed::Double(_) => Err(Error::unsupported(
            e.pos,
            "double value",
            "an integer expression was expected",
        )),
    }
}

/// How an integer variable is held in [`State::ints`]: its value, an
/// `unsigned long` above `i64::MAX` as its bit pattern.
fn stored(v: i128, ty: IntTy) -> i64 {
    if ty == IntTy::ULong {
        v as u64 as i64
    } else {
        v as i64
    }
}

impl State {
    fn int_type(&self, n: &str) -> IntTy {
        self.vals.get(n).map_or(IntTy::Int, |x| x.1)
    }
}

fn double_op(op: BinOp, a: f64, b: f64, pos: Pos) -> Result<Value, Error> {
    Ok(match op {
        BinOp::Add => Value::Double(a + b),
        BinOp::Sub => Value::Double(a - b),
        BinOp::Mul => Value::Double(a * b),
        BinOp::Div => Value::Double(a / b),
        BinOp::Mod => return Err(Error::semantic(pos, "`%` needs integer operands")),
        BinOp::Lt => Value::Int((a < b) as i64),
        BinOp::Le => Value::Int((a <= b) as i64),
        BinOp::Gt => Value::Int((a > b) as i64),
        BinOp::Ge => Value::Int((a >= b) as i64),
        BinOp::Eq => Value::Int((a == b) as i64),
        BinOp::Ne => Value::Int((a != b) as i64),
        BinOp::And => Value::Int((a != 0.0 && b != 0.0) as i64),
        BinOp::Or => Value::Int((a != 0.0 || b != 0.0) as i64),
    })
}

/// A value with its C type.
#[derive(Debug, Clone, Copy)]
enum Typed {
    Int(i128, IntTy),
    Double(f64),
}

impl Typed {
    fn as_f64(self) -> f64 {
        match self {
            Typed::Int(i, _) => i as f64,
            Typed::Double(d) => d,
        }
    }
}

/// Evaluates an expression with C semantics.
pub fn eval(st: &State, e: &ast::Expr) -> Result<Value, Error> {
    Ok(match typed(st, e)? {
        Typed::Int(v, _) => Value::Int(i64::try_from(v).unwrap_or(i64::MAX)),
        Typed::Double(d) => Value::Double(d),
    })
}

fn typed(st: &State, e: &ast::Expr) -> Result<Typed, Error> {
    tick(1)?;
    Ok(match &e.kind {
        ExprKind::Int(v) => Typed::Int(*v as i128, cint::literal_type(*v)),
        ExprKind::Float(v, _) => Typed::Double(*v),
        ExprKind::Var(n) => {
            if let Some(&(v, ty)) = st.vals.get(n) {
                let v = if ty == IntTy::ULong {
                    v as u64 as i128
                } else {
                    v as i128
                };
                Typed::Int(v, ty)
            } else if let Some(v) = st.doubles.get(n) {
                Typed::Double(*v)
            } else {
                return Err(Error::semantic(e.pos, format!("unknown variable `{n}`")));
            }
        }
        ExprKind::Index(n, subs) => {
            let k = flat_index(st, n, subs, e.pos)?;
            Typed::Double(
                st.arrays
                    .get(n)
                    .map_or(0.0, |a| match (a.data.get(k), a.open) {
                        (Some(v), _) => *v,
                        (None, Some(ord)) => {
                            a.reach.set(a.reach.get().max(k + 1));
                            initial_value(k, ord)
                        }
                        (None, None) => 0.0,
                    }),
            )
        }
        ExprKind::Unary(op, a) => {
            let v = typed(st, a)?;
            match (op, v) {
                (UnOp::Plus, v) => v,
                (UnOp::Neg, Typed::Int(i, t)) => {
                    let what = format!("`-({i})`");
                    Typed::Int(cint::result(-i, t, e.pos, &what)?, t)
                }
                (UnOp::Neg, Typed::Double(d)) => Typed::Double(-d),
                (UnOp::Not, Typed::Int(i, _)) => Typed::Int((i == 0) as i128, IntTy::Int),
                (UnOp::Not, Typed::Double(d)) => Typed::Int((d == 0.0) as i128, IntTy::Int),
            }
        }
        ExprKind::Binary(BinOp::And, a, b) => {
            Typed::Int((truth(st, a)? && truth(st, b)?) as i128, IntTy::Int)
        }
        ExprKind::Binary(BinOp::Or, a, b) => {
            Typed::Int((truth(st, a)? || truth(st, b)?) as i128, IntTy::Int)
        }
        ExprKind::Binary(op, a, b) => {
            let x = typed(st, a)?;
            let y = typed(st, b)?;
            match (x, y) {
                (Typed::Int(i, ti), Typed::Int(j, tj)) => {
                    let (v, t) = cint::binary(*op, (i, ti), (j, tj), e.pos)?;
                    Typed::Int(v, t)
                }
                _ => match double_op(*op, x.as_f64(), y.as_f64(), e.pos)? {
                    Value::Int(i) => Typed::Int(i as i128, IntTy::Int),
                    Value::Double(d) => Typed::Double(d),
                },
            }
        }
        ExprKind::CastDouble(a) => Typed::Double(typed(st, a)?.as_f64()),
        ExprKind::Call(name, args) => {
            let mut vs = Vec::with_capacity(args.len());
            for a in args {
                vs.push(typed(st, a)?);
            }
            let arity_err =
                || Error::semantic(e.pos, format!("wrong number of arguments to `{name}`"));
            if ast::is_int_minmax(name) {
                let (Some(&a), Some(&b)) = (vs.first(), vs.get(1)) else {
                    return Err(arity_err());
                };
                let min = name.eq_ignore_ascii_case("min");
                match (a, b) {
                    (Typed::Int(x, tx), Typed::Int(y, ty)) => {
                        // the usual macro compares in the common type
                        let t = tx.common(ty);
                        let (x, y) = (cint::convert(x, t), cint::convert(y, t));
                        Typed::Int(if (x < y) == min { x } else { y }, t)
                    }
                    _ => {
                        // The usual macro: ((a) < (b) ? (a) : (b)).
                        let (x, y) = (a.as_f64(), b.as_f64());
                        let pick_a = if min { x < y } else { x > y };
                        Typed::Double(if pick_a { x } else { y })
                    }
                }
            } else {
                let x = vs.first().ok_or_else(arity_err)?.as_f64();
                let y = || vs.get(1).map(|v| v.as_f64()).ok_or_else(arity_err);
                Typed::Double(match name.as_str() {
                    "sqrt" => x.sqrt(),
                    "exp" => x.exp(),
                    "fabs" => x.abs(),
                    "fmin" => x.min(y()?),
                    "fmax" => x.max(y()?),
                    "pow" => x.powf(y()?),
                    _ => {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("call to `{name}`"),
                            "unknown function",
                        ))
                    }
                })
            }
        }
    })
}
