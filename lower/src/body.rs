//! Statement bodies: the model's expression trees over array accesses,
//! evaluated in vector registers (scalar `*sd` or packed `*pd` forms by
//! [`Width`]), integer sub-expressions in general registers, `pow`/`exp`
//! through calls into Rust's libm wrappers.

use std::collections::HashMap;

use codegen_x86::{Cond, Gpr, Mem, Scale};
use scop::affine::{AVar, Affine};
use scop::ast::{BinOp, UnOp};
use scop::model::{Expr, Ty};

use crate::emit::{g, q, VSrc, Width};
use crate::error::{Error, Result};
use crate::kernel::{ParamClass, StmtInfo, Storage};
use crate::linear::{lin_of_ast, lin_of_subscript, Lin};
use crate::recip::{divisor, exact_reciprocal};
use crate::state::{arg, slot, State};

/// A statement instance being lowered: the statement and the AST
/// expressions of its iterators.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The statement.
    pub stmt: &'a StmtInfo,
    /// One expression per statement iterator.
    pub args: &'a [ast::Expr],
}

/// How the accesses of the innermost loop being lowered are addressed.
#[derive(Debug, Clone, Default)]
pub struct Inner {
    /// `(call, access)` → pointer register and byte displacement; calls are
    /// numbered in the order of the loop body.
    pub ptr: HashMap<(usize, usize), (Gpr, i32)>,
    /// The call being lowered.
    pub cur: usize,
    /// When the body is lowered through the AST (guards), the number of the
    /// next call.
    pub count: Option<usize>,
    /// Arrays kept in a vector register for the whole loop.
    pub promoted: HashMap<String, u8>,
    /// The `(call, access)` pairs that use the promoted register.
    pub pref: std::collections::HashSet<(usize, usize)>,
    /// Loop-invariant sub-expressions (by address) → register holding the
    /// value in every lane.
    pub hoisted: HashMap<(usize, usize), u8>,
    /// Contract `a + b*c` into FMA.
    pub contract: bool,
    /// Reads served from a register carried across iterations
    /// (`crate::forward`).
    pub fwd: HashMap<(usize, usize), u8>,
    /// Reads whose loaded value is also kept in a register.
    pub capture: HashMap<(usize, usize), u8>,
    /// Stores whose value is also kept in a register.
    pub wcap: HashMap<(usize, usize), u8>,
}

/// A vector operand and what to release after using it.
struct Src {
    v: VSrc,
    owned: Option<u8>,
    temps: Vec<Gpr>,
}

fn unsupported<T>(m: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(m.into()))
}

/// Address of an expression node (with the call's number, the key of
/// [`Inner::hoisted`]: copies of one statement share their nodes).
pub fn key(e: &Expr) -> usize {
    e as *const Expr as usize
}

/// `extern "C"` wrappers of the libm functions the interpreter uses
/// (Rust's `f64` methods), called from generated code.
extern "C" fn lib_exp(x: f64) -> f64 {
    x.exp()
}
extern "C" fn lib_pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}

/// A subscript with the statement's iterators replaced by the call's
/// arguments, as an AST expression.
pub fn affine_expr(a: &Affine, iters: &[String], args: &[ast::Expr]) -> ast::Expr {
    let mut terms = Vec::new();
    for (v, c) in &a.terms {
        let t = match v {
            AVar::Name(n) => match iters.iter().position(|s| s == n) {
                Some(k) => args[k].clone(),
                None => ast::Expr::var(n),
            },
            AVar::Div(b, d) => ast::Expr::floord(affine_expr(b, iters, args), *d),
        };
        terms.push((*c, t));
    }
    let mut acc = ast::Expr::Int(a.constant);
    for (c, t) in terms {
        acc = ast::Expr::add(acc, if c == 1 { t } else { ast::Expr::mul(c, t) });
    }
    acc
}

impl State<'_> {
    /// The innermost loop's addressing (an internal error outside one).
    pub fn inner_mut(&mut self) -> Result<&mut Inner> {
        self.inner
            .as_mut()
            .ok_or_else(|| Error::Internal("no innermost loop state".into()))
    }

    /// The innermost loop's addressing (an internal error outside one).
    pub fn inner_ref(&self) -> Result<&Inner> {
        self.inner
            .as_ref()
            .ok_or_else(|| Error::Internal("no innermost loop state".into()))
    }

    /// The linear forms of the call's arguments over the AST iterators in
    /// scope, or `None` when one is not affine.
    fn arg_lins(&self, c: &Call) -> Option<Vec<Lin>> {
        c.args
            .iter()
            .map(|e| lin_of_ast(e, &|n| self.is_iter(n)))
            .collect()
    }

    /// The flat element offset of access `k` of a call, as a [`Lin`] over
    /// the AST iterators in scope, when everything is affine.
    pub fn access_lin(&self, c: &Call, k: usize) -> Option<Lin> {
        let a = &c.stmt.accesses[k];
        let info = self.k.arrays.get(&a.array)?;
        let strides = info.strides.as_ref()?;
        let args = self.arg_lins(c)?;
        let mut off = Lin::default();
        for (sub, st) in a.index.iter().zip(strides) {
            off = off.add(&lin_of_subscript(sub, &c.stmt.iterators, &args)?.mul(st)?)?;
        }
        Some(off)
    }

    /// The linear forms of the subscripts of access `k` of `c` over the
    /// loop iterators (`None` where one is not affine), or `None` when an
    /// argument is not.
    pub fn subscript_lins(&self, c: &Call, k: usize) -> Option<Vec<Option<Lin>>> {
        let a = &c.stmt.accesses[k];
        let args = self.arg_lins(c)?;
        Some(
            a.index
                .iter()
                .map(|sub| lin_of_subscript(sub, &c.stmt.iterators, &args))
                .collect(),
        )
    }

    /// The memory operand of access `k` (and temporaries to free after use).
    fn access_mem(&mut self, c: &Call, k: usize) -> Result<(Mem, Vec<Gpr>)> {
        if let Some(&(p, d)) = self.inner_ptr(c, k) {
            return Ok((Mem::base(p).disp(d), vec![]));
        }
        let a = &c.stmt.accesses[k];
        let info = self
            .k
            .arrays
            .get(&a.array)
            .ok_or_else(|| Error::Internal(format!("unknown array {}", a.array)))?;
        match info.storage {
            Storage::Scalar { .. } => {
                let (m, t) = self.scalar_mem(&a.array.clone())?;
                Ok((m, vec![t]))
            }
            Storage::Slot(sl) => {
                let off = match self.access_lin(c, k) {
                    Some(l) => self.lin_value(&l)?,
                    None => self.general_offset(c, k)?,
                };
                let base = self.temp()?;
                self.e.mov(g(base), q(arg(sl)))?;
                Ok((Mem::sib(base, off, Scale::X8, 0)?, vec![base, off]))
            }
        }
    }

    /// The register of a promoted access, if it is one.
    fn promoted_reg(&self, c: &Call, k: usize) -> Option<u8> {
        let i = self.inner.as_ref()?;
        if !i.pref.contains(&(i.cur, k)) {
            return None;
        }
        i.promoted.get(&c.stmt.accesses[k].array).copied()
    }

    /// A register from `Inner::fwd`/`capture`/`wcap` for access `k`.
    fn carried(&self, k: usize, which: fn(&Inner) -> &HashMap<(usize, usize), u8>) -> Option<u8> {
        let i = self.inner.as_ref()?;
        which(i).get(&(i.cur, k)).copied()
    }

    fn inner_ptr(&self, _c: &Call, k: usize) -> Option<&(Gpr, i32)> {
        let i = self.inner.as_ref()?;
        i.ptr.get(&(i.cur, k))
    }

    /// Offset of an access with non-affine parts (floor divisions).
    fn general_offset(&mut self, c: &Call, k: usize) -> Result<Gpr> {
        let a = c.stmt.accesses[k].clone();
        let strides = self
            .k
            .arrays
            .get(&a.array)
            .and_then(|i| i.strides.clone())
            .ok_or_else(|| Error::Unsupported(format!("extents of {} are not affine", a.array)))?;
        let acc = self.temp()?;
        self.e.mov_imm(acc, 0);
        for (sub, st) in a.index.iter().zip(&strides) {
            let r = self.ival(&affine_expr(sub, &c.stmt.iterators, c.args))?;
            let o = self.inv(st)?;
            match o {
                crate::emit::Operand::Imm(1) => {}
                crate::emit::Operand::Imm(v) => self.e.imul_imm(r, r, v)?,
                o => self.e.imul(r, o)?,
            }
            self.e.add(g(acc), g(r))?;
            self.free(r);
        }
        Ok(acc)
    }

    /// Lowers one statement instance.
    pub fn statement(&mut self, c: &Call, w: Width) -> Result<()> {
        let Expr::Assign { op, target, value } = &c.stmt.body else {
            return unsupported("a statement that is not an assignment");
        };
        // the model's value is the whole new value (`A[i] += e` has value `A[i] + e`)
        let _ = op;
        let held = self.share_repeated(c, value, w)?;
        let v = self.dval(c, value, w)?;
        self.shared.clear();
        for r in held {
            self.vfree(r);
        }
        self.store(c, *target, v, w)?;
        self.vfree(v);
        Ok(())
    }

    /// Evaluates the repeated sub-trees of a statement's value once each
    /// (`crate::cse`), while registers are plentiful, and records their
    /// registers in [`State::shared`]; returns the registers to release
    /// after the value.
    fn share_repeated(&mut self, c: &Call, value: &Expr, w: Width) -> Result<Vec<u8>> {
        self.shared.clear();
        let excluded = |k: usize| {
            self.promoted_reg(c, k).is_some()
                || self.carried(k, |i| &i.fwd).is_some()
                || self.carried(k, |i| &i.capture).is_some()
                || self.carried(k, |i| &i.wcap).is_some()
        };
        let groups = crate::cse::repeated(c, value, &excluded);
        let mut held = Vec::new();
        for group in groups {
            let keys = crate::cse::keys(&group);
            let hoisted = self
                .inner
                .as_ref()
                .is_some_and(|i| keys.iter().any(|k| i.hoisted.contains_key(&(i.cur, *k))));
            if hoisted || self.free_vregs() < 8 {
                continue;
            }
            let r = self.dval(c, group[0], w)?;
            held.push(r);
            for k in keys {
                self.shared.insert(k, r);
            }
        }
        Ok(held)
    }

    /// The register already holding `e`'s value in every lane (a hoisted
    /// invariant or a shared sub-tree), if any.
    fn held(&self, e: &Expr) -> Option<u8> {
        if let Some(&r) = self.shared.get(&key(e)) {
            return Some(r);
        }
        if let Expr::Access(k) = e {
            if let Some(r) = self.carried(*k, |i| &i.fwd) {
                return Some(r);
            }
        }
        let i = self.inner.as_ref()?;
        i.hoisted.get(&(i.cur, key(e))).copied()
    }

    fn store(&mut self, c: &Call, k: usize, v: u8, w: Width) -> Result<()> {
        if let Some(p) = self.promoted_reg(c, k) {
            self.e.vcopy(w, p, v);
            return Ok(());
        }
        let (m, temps) = self.access_mem(c, k)?;
        self.e.vstore(w, m, v);
        for t in temps {
            self.free(t);
        }
        if let Some(r) = self.carried(k, |i| &i.wcap) {
            self.e.vcopy(w, r, v);
        }
        Ok(())
    }

    fn arith(&mut self, op: BinOp, w: Width, d: u8, s: VSrc) -> Result<()> {
        match op {
            BinOp::Add => self.e.vadd(w, d, d, s),
            BinOp::Sub => self.e.vsub(w, d, d, s),
            BinOp::Mul => self.e.vmul(w, d, d, s),
            BinOp::Div => self.e.vdiv(w, d, d, s),
            o => return unsupported(format!("double operator {}", o.as_str())),
        }
        Ok(())
    }

    fn drop_src(&mut self, s: Src) {
        if let Some(r) = s.owned {
            self.vfree(r);
        }
        for t in s.temps {
            self.free(t);
        }
    }

    /// A leaf as an operand (register or memory) without copying.
    fn dsrc(&mut self, c: &Call, e: &Expr, w: Width) -> Result<Src> {
        let plain = |v| Src {
            v,
            owned: None,
            temps: vec![],
        };
        if let Some(r) = self.held(e) {
            return Ok(plain(VSrc::Reg(r)));
        }
        match e {
            Expr::Access(k) => {
                if let Some(p) = self.promoted_reg(c, *k) {
                    return Ok(plain(VSrc::Reg(p)));
                }
                if let Some(r) = self.carried(*k, |i| &i.fwd) {
                    return Ok(plain(VSrc::Reg(r)));
                }
                let (m, temps) = self.access_mem(c, *k)?;
                if let Some(r) = self.carried(*k, |i| &i.capture) {
                    self.e.vload(w, r, m);
                    for t in temps {
                        self.free(t);
                    }
                    return Ok(plain(VSrc::Reg(r)));
                }
                Ok(Src {
                    v: VSrc::Mem(m),
                    owned: None,
                    temps,
                })
            }
            Expr::Double(f) => Ok(plain(VSrc::Mem(self.constant(f.to_bits())?))),
            Expr::ToDouble(i) if int_literal(i).is_some() => {
                let v = int_literal(i).unwrap_or(0);
                Ok(plain(VSrc::Mem(self.constant((v as f64).to_bits())?)))
            }
            Expr::DoubleParam(n) if w == Width::Scalar => match self.k.param_slot(n) {
                Some((k, ParamClass::Double)) => Ok(plain(VSrc::Mem(arg(k)))),
                _ => Err(Error::Internal(format!("unknown double parameter {n}"))),
            },
            _ => {
                let r = self.dval(c, e, w)?;
                Ok(Src {
                    v: VSrc::Reg(r),
                    owned: Some(r),
                    temps: vec![],
                })
            }
        }
    }

    /// Evaluates a double expression into a new register.
    pub fn dval(&mut self, c: &Call, e: &Expr, w: Width) -> Result<u8> {
        let leaf = matches!(e, Expr::Access(_) | Expr::Double(_) | Expr::DoubleParam(_))
            || matches!(e, Expr::ToDouble(i) if int_literal(i).is_some());
        if let Some(r) = self.held(e) {
            let d = self.vreg()?;
            self.e.vcopy(w, d, r);
            return Ok(d);
        }
        match e {
            _ if leaf => {
                let s = self.dsrc(c, e, w)?;
                let d = self.vreg()?;
                match s.v {
                    VSrc::Mem(m) => self.e.vload(w, d, m),
                    VSrc::Reg(r) => self.e.vcopy(w, d, r),
                }
                self.drop_src(s);
                Ok(d)
            }
            Expr::Binary {
                op,
                ty: Ty::Double,
                lhs,
                rhs,
            } => {
                let contract = self.inner.as_ref().is_some_and(|i| i.contract);
                if contract && *op == BinOp::Add {
                    for (a, m) in [(lhs, rhs), (rhs, lhs)] {
                        if let Expr::Binary {
                            op: BinOp::Mul,
                            ty: Ty::Double,
                            lhs: x,
                            rhs: y,
                        } = &**m
                        {
                            if self.shared.contains_key(&key(m)) {
                                // the product is already in a register
                                continue;
                            }
                            let d = self.dval(c, a, w)?;
                            let (xr, owned) = match self.held(x) {
                                Some(r) => (r, false),
                                None => (self.dval(c, x, w)?, true),
                            };
                            let ys = self.dsrc(c, y, w)?;
                            self.e.vfmadd231(w, d, xr, ys.v);
                            if owned {
                                self.vfree(xr);
                            }
                            self.drop_src(ys);
                            return Ok(d);
                        }
                    }
                }
                // a left operand already in a register: the three-operand
                // form, no copy
                if let Some(a) = self.held(lhs) {
                    let special = *op == BinOp::Div
                        && (exact_reciprocal(rhs).is_some()
                            || (w == Width::Scalar && divisor(rhs).is_some()));
                    if !special {
                        let s = self.dsrc(c, rhs, w)?;
                        let d = self.vreg()?;
                        match op {
                            BinOp::Add => self.e.vadd(w, d, a, s.v),
                            BinOp::Sub => self.e.vsub(w, d, a, s.v),
                            BinOp::Mul => self.e.vmul(w, d, a, s.v),
                            BinOp::Div => self.e.vdiv(w, d, a, s.v),
                            o => return unsupported(format!("double operator {}", o.as_str())),
                        }
                        self.drop_src(s);
                        return Ok(d);
                    }
                }
                let d = self.dval(c, lhs, w)?;
                // `x / c` for a constant `c`, bit for bit (module `recip`):
                // `x * (1/c)` when `c = ±2^k`, Markstein's correction in
                // scalar code for other `c` that allow it
                if *op == BinOp::Div {
                    if let Some(r) = exact_reciprocal(rhs) {
                        let m = self.constant(r.to_bits())?;
                        self.arith(BinOp::Mul, w, d, VSrc::Mem(m))?;
                        return Ok(d);
                    }
                    // (two registers besides x's; the plain division otherwise)
                    let room = w == Width::Scalar && self.free_vregs() >= 2;
                    if let Some(dv) = divisor(rhs).filter(|_| room) {
                        return self.divide_by_constant(d, &dv);
                    }
                }
                let s = self.dsrc(c, rhs, w)?;
                self.arith(*op, w, d, s.v)?;
                self.drop_src(s);
                Ok(d)
            }
            Expr::Unary {
                op: UnOp::Plus,
                ty: Ty::Double,
                arg,
            } => self.dval(c, arg, w),
            Expr::Unary {
                op: UnOp::Neg,
                ty: Ty::Double,
                arg,
            } => {
                let d = self.dval(c, arg, w)?;
                let m = self.constant((-0.0f64).to_bits())?;
                self.e.vxor(w, d, d, VSrc::Mem(m));
                Ok(d)
            }
            Expr::ToDouble(a) if w == Width::Scalar => {
                let r = self.ibody(c, a)?;
                let d = self.vreg()?;
                self.e.vxor(w, d, d, VSrc::Reg(d));
                self.e.cvt(d, r);
                self.free(r);
                Ok(d)
            }
            Expr::Call {
                name,
                ty: Ty::Double,
                args,
            } => self.call(c, name, args, w),
            _ => unsupported(format!("expression {e:?} at width {w:?}")),
        }
    }

    fn call(&mut self, c: &Call, name: &str, args: &[Expr], w: Width) -> Result<u8> {
        match (name, args) {
            ("sqrt", [x]) => {
                let d = self.dval(c, x, w)?;
                self.e.vsqrt(w, d, d);
                Ok(d)
            }
            ("fabs", [x]) => {
                let d = self.dval(c, x, w)?;
                let m = self.constant(0x7fff_ffff_ffff_ffff)?;
                self.e.vand(w, d, d, VSrc::Mem(m));
                Ok(d)
            }
            ("fmin" | "fmax", [x, y]) if w == Width::Scalar => {
                // vminsd returns its second operand when either is NaN: right
                // for a NaN first argument; a NaN second argument gives the
                // first (C's fmin/fmax, Rust's f64::min/max).
                let a = self.dval(c, x, w)?;
                let b = self.dval(c, y, w)?;
                let d = self.vreg()?;
                if name == "fmin" {
                    self.e.vmin(w, d, a, VSrc::Reg(b));
                } else {
                    self.e.vmax(w, d, a, VSrc::Reg(b));
                }
                let done = self.e.label();
                self.e.vucomisd(b, b);
                self.e.jcc(Cond::Np, done);
                self.e.vcopy(w, d, a);
                self.e.bind(done)?;
                self.vfree(a);
                self.vfree(b);
                Ok(d)
            }
            // pow(x, 2) is x*x (as gcc does; glibc's pow is within an ulp of it)
            ("pow", [x, Expr::Double(two)]) if *two == 2.0 => {
                let d = self.dval(c, x, w)?;
                self.e.vmul(w, d, d, VSrc::Reg(d));
                Ok(d)
            }
            ("exp", [x]) if w == Width::Scalar => {
                let addr = lib_exp as extern "C" fn(f64) -> f64 as usize;
                // the inline form needs about ten registers besides the
                // caller's
                if self.free_vregs() < 13 {
                    return self.libcall(c, addr, &[x]);
                }
                let v = self.dval(c, x, w)?;
                let d = self.exp_inline(v, addr)?;
                self.vfree(v);
                Ok(d)
            }
            ("pow", [x, y]) if w == Width::Scalar => self.libcall(
                c,
                lib_pow as extern "C" fn(f64, f64) -> f64 as usize,
                &[x, y],
            ),
            _ => unsupported(format!("call of {name} at width {w:?}")),
        }
    }

    /// Calls a Rust function `f64 (f64[, f64])`: live registers are saved
    /// in frame slots around the call (it clobbers all vector registers and
    /// the caller-saved general ones).
    fn libcall(&mut self, c: &Call, addr: usize, args: &[&Expr]) -> Result<u8> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.dval(c, a, Width::Scalar)?);
        }
        self.libcall_regs(addr, &vals)
    }

    /// [`State::libcall`] on arguments already in registers (released
    /// before the call).
    pub(crate) fn libcall_regs(&mut self, addr: usize, vals: &[u8]) -> Result<u8> {
        let w = Width::Scalar;
        let mut arg_slots = Vec::new();
        for &v in vals {
            let s = self.new_slot(8)?;
            self.e.vstore(w, slot(s), v);
            arg_slots.push(s);
            self.vfree(v);
        }
        let vsaved: Vec<(u8, i32)> = self
            .live_vregs()
            .into_iter()
            .map(|r| Ok((r, self.new_slot(32)?)))
            .collect::<Result<_>>()?;
        let gsaved: Vec<(Gpr, i32)> = self
            .live_caller_saved()
            .into_iter()
            .map(|r| Ok((r, self.new_slot(8)?)))
            .collect::<Result<_>>()?;
        for &(r, s) in &vsaved {
            self.e
                .vstore(if self.wide { Width::Vec4 } else { w }, slot(s), r);
        }
        for &(r, s) in &gsaved {
            self.e.mov(q(slot(s)), g(r))?;
        }
        for (i, s) in arg_slots.iter().enumerate() {
            self.e.vload(w, i as u8, slot(*s));
        }
        self.e.mov_imm(Gpr::Rax, addr as i64);
        self.e.call(Gpr::Rax);
        let res = self.new_slot(8)?;
        self.e.vstore(w, slot(res), 0);
        for &(r, s) in &vsaved {
            self.e
                .vload(if self.wide { Width::Vec4 } else { w }, r, slot(s));
        }
        for &(r, s) in &gsaved {
            self.e.mov(g(r), q(slot(s)))?;
        }
        let d = self.vreg()?;
        self.e.vload(w, d, slot(res));
        Ok(d)
    }

    /// Evaluates an integer body expression into a new temporary.
    fn ibody(&mut self, c: &Call, e: &Expr) -> Result<Gpr> {
        match e {
            Expr::Int(v) => {
                let r = self.temp()?;
                self.e.mov_imm(r, *v);
                Ok(r)
            }
            Expr::IntVar(n) => match c.stmt.iterators.iter().position(|s| s == n) {
                Some(k) => self.ival(&c.args[k]),
                None => self.ival(&ast::Expr::var(n)),
            },
            Expr::Unary {
                op: UnOp::Neg,
                ty: Ty::Int,
                arg,
            } => {
                let r = self.ibody(c, arg)?;
                self.e.neg(r);
                Ok(r)
            }
            Expr::Unary {
                op: UnOp::Plus,
                ty: Ty::Int,
                arg,
            } => self.ibody(c, arg),
            Expr::Binary {
                op,
                ty: Ty::Int,
                lhs,
                rhs,
            } => {
                let r = self.ibody(c, lhs)?;
                match (op, &**rhs) {
                    (BinOp::Div | BinOp::Mod, Expr::Int(k)) => {
                        self.divide(r, *k, *op == BinOp::Mod, false)?;
                        return Ok(r);
                    }
                    (BinOp::Div | BinOp::Mod, _) => {
                        return unsupported("integer division by a non-constant")
                    }
                    _ => {}
                }
                let s = self.ibody(c, rhs)?;
                match op {
                    BinOp::Add => self.e.add(g(r), g(s))?,
                    BinOp::Sub => self.e.sub(g(r), g(s))?,
                    BinOp::Mul => self.e.imul(r, g(s))?,
                    o => return unsupported(format!("integer operator {}", o.as_str())),
                }
                self.free(s);
                Ok(r)
            }
            Expr::Call {
                name,
                ty: Ty::Int,
                args,
            } if args.len() == 2 => {
                let r = self.ibody(c, &args[0])?;
                let s = self.ibody(c, &args[1])?;
                self.e.cmp(g(r), g(s))?;
                let cond = if name.eq_ignore_ascii_case("min") {
                    Cond::G
                } else {
                    Cond::L
                };
                self.e.cmov(cond, r, s);
                self.free(s);
                Ok(r)
            }
            _ => unsupported(format!("integer expression {e:?}")),
        }
    }
}

/// The value of an integer literal.
pub fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(v) => Some(*v),
        _ => None,
    }
}

/// True if the body can run four iterations at once (no integer values, no
/// calls other than `sqrt`/`fabs`).
pub fn vectorizable(e: &Expr) -> bool {
    match e {
        Expr::Assign { value, .. } => vectorizable(value),
        Expr::Access(_) | Expr::Double(_) | Expr::DoubleParam(_) => true,
        Expr::ToDouble(i) => int_literal(i).is_some(),
        Expr::Unary {
            ty: Ty::Double,
            op: UnOp::Neg | UnOp::Plus,
            arg,
        } => vectorizable(arg),
        Expr::Binary {
            op: BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div,
            ty: Ty::Double,
            lhs,
            rhs,
        } => vectorizable(lhs) && vectorizable(rhs),
        Expr::Call {
            name,
            ty: Ty::Double,
            args,
        } if name == "sqrt" || name == "fabs" => args.iter().all(vectorizable),
        _ => false,
    }
}
