//! The lowering state: register allocation, frame slots, run-time
//! invariants and constants, and integer expressions (loop bounds,
//! conditions, subscripts).
//!
//! General registers: `rbx` holds the argument vector, `rsp`/`rbp` the
//! frame, `rax`/`rdx` are reserved for division and calls; the other
//! twelve are allocated. Long-lived values (iterators, hoisted bounds,
//! strength-reduced pointers) prefer callee-saved registers, temporaries
//! the others; when none is free a long-lived value lives in a frame slot.

use codegen_x86::{Cond, Gpr, Label, Mem};

use crate::affine_fold::{simplify, unit_difference};
use crate::emit::{g, imm, q, Emitter, Operand};
use crate::error::{Error, Result};
use crate::kernel::{Kernel, ParamClass};
use crate::linear::{Lin, Poly};

/// Bytes of frame the generated function reserves for its slots.
pub const FRAME_BYTES: i32 = 16384;

/// Where an integer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    /// A register.
    Reg(Gpr),
    /// A frame slot.
    Slot(i32),
}

const LONG_ORDER: [Gpr; 12] = [
    Gpr::R12,
    Gpr::R13,
    Gpr::R14,
    Gpr::R15,
    Gpr::R8,
    Gpr::R9,
    Gpr::R10,
    Gpr::R11,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::Rcx,
    Gpr::Rbp,
];
const TEMP_ORDER: [Gpr; 12] = [
    Gpr::Rcx,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::R11,
    Gpr::R10,
    Gpr::R9,
    Gpr::R8,
    Gpr::R15,
    Gpr::R14,
    Gpr::R13,
    Gpr::R12,
    Gpr::Rbp,
];

/// The lowering state of one function.
pub struct State<'k> {
    /// The kernel.
    pub k: &'k Kernel,
    /// The instruction stream.
    pub e: Emitter,
    gpr_used: u32,
    /// The register [`State::temp`] hands out first (once), if free.
    prefer: Option<Gpr>,
    xmm_used: u32,
    next_slot: i32,
    /// AST iterators in scope with their locations (innermost last).
    pub vars: Vec<(String, Loc)>,
    /// The steps of the `for` loops being lowered (outermost first).
    pub loop_steps: Vec<(String, i64)>,
    /// Run-time invariants (polynomials in the parameters) and their slots.
    pub invariants: Vec<(Poly, i32)>,
    /// Double constants (bit patterns) and their 32-byte slots.
    pub consts: Vec<(u64, i32)>,
    /// True once a ymm register was used.
    pub wide: bool,
    /// The calls made by unroll-and-jam (independent copies).
    pub copies: crate::jam::Copies,
    /// Split the next `for` loop's iterations among the workers.
    pub chunk: bool,
    /// What the lowering decided per innermost loop (for listings).
    pub notes: Vec<String>,
    /// Arrays walked at a stride other than 0 or ±1 element, summed over
    /// the innermost loops lowered so far.
    pub strided: usize,
    /// Addressing of the innermost loop being lowered.
    pub inner: Option<crate::body::Inner>,
    /// Bytes of per-worker workspace the code uses (packing buffers).
    pub workspace: usize,
    /// The statement being lowered: nodes of its value (by address) whose
    /// value a register already holds (`crate::cse`).
    pub shared: std::collections::HashMap<usize, u8>,
}

/// The condition code of `a OP b` after `cmp a, b`.
fn cond_of(op: ast::CmpOp) -> Cond {
    match op {
        ast::CmpOp::Eq => Cond::E,
        ast::CmpOp::Le => Cond::Le,
        ast::CmpOp::Lt => Cond::L,
        ast::CmpOp::Ge => Cond::Ge,
        ast::CmpOp::Gt => Cond::G,
    }
}

/// `[rsp + off]`.
pub fn slot(off: i32) -> Mem {
    Mem::base(Gpr::Rsp).disp(off)
}

/// `[rbx + 8k]`: argument slot `k`.
pub fn arg(k: usize) -> Mem {
    Mem::base(Gpr::Rbx).disp(8 * k as i32)
}

fn unsupported<T>(m: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(m.into()))
}

impl<'k> State<'k> {
    /// A fresh state (rbp is used as the frame pointer only by the
    /// prologue; the body addresses slots from rsp, so rbp is allocatable).
    pub fn new(k: &'k Kernel, e: Emitter) -> State<'k> {
        State {
            k,
            e,
            gpr_used: 0,
            prefer: None,
            xmm_used: 0,
            next_slot: 0,
            vars: Vec::new(),
            loop_steps: Vec::new(),
            invariants: Vec::new(),
            consts: Vec::new(),
            wide: false,
            inner: None,
            chunk: false,
            copies: crate::jam::Copies::new(),
            notes: Vec::new(),
            strided: 0,
            workspace: 0,
            shared: std::collections::HashMap::new(),
        }
    }

    /// The address of a scalar (a temporary holds the scalar area's
    /// pointer; free it after use).
    pub fn scalar_mem(&mut self, name: &str) -> Result<(Mem, Gpr)> {
        let Some(crate::kernel::Storage::Scalar { index, .. }) =
            self.k.arrays.get(name).map(|a| a.storage)
        else {
            return Err(Error::Internal(format!("{name} is not a scalar")));
        };
        let t = self.temp()?;
        self.e.mov(g(t), q(arg(self.k.scalar_area())))?;
        Ok((Mem::base(t).disp(8 * index as i32), t))
    }

    /// A new frame slot of `bytes` (8 or 32), aligned to its size.
    pub fn new_slot(&mut self, bytes: i32) -> Result<i32> {
        let off = (self.next_slot + bytes - 1) / bytes * bytes;
        if off + bytes > FRAME_BYTES {
            return unsupported("the frame is full (too many values)");
        }
        self.next_slot = off + bytes;
        Ok(off)
    }

    fn take(&mut self, order: &[Gpr]) -> Option<Gpr> {
        let r = order
            .iter()
            .copied()
            .find(|r| self.gpr_used & (1 << r.num()) == 0)?;
        self.gpr_used |= 1 << r.num();
        Some(r)
    }

    /// A temporary general register (the preferred one of
    /// [`State::ival_to`] first).
    pub fn temp(&mut self) -> Result<Gpr> {
        if let Some(p) = self.prefer.take() {
            if self.gpr_used & (1 << p.num()) == 0 {
                self.gpr_used |= 1 << p.num();
                return Ok(p);
            }
        }
        match self.take(&TEMP_ORDER) {
            Some(r) => Ok(r),
            None => unsupported("integer expression needs more registers than are free"),
        }
    }

    /// A long-lived location: a register if one is free, else a slot.
    pub fn long(&mut self) -> Result<Loc> {
        match self.take(&LONG_ORDER) {
            Some(r) => Ok(Loc::Reg(r)),
            None => Ok(Loc::Slot(self.new_slot(8)?)),
        }
    }

    /// A long-lived register if one is free.
    pub fn long_reg(&mut self) -> Option<Gpr> {
        self.take(&LONG_ORDER)
    }

    /// Number of free general registers.
    pub fn free_gprs(&self) -> usize {
        LONG_ORDER
            .iter()
            .filter(|r| self.gpr_used & (1 << r.num()) == 0)
            .count()
    }

    /// Releases a register.
    pub fn free(&mut self, r: Gpr) {
        self.gpr_used &= !(1 << r.num());
    }

    /// Releases a location.
    pub fn free_loc(&mut self, l: Loc) {
        if let Loc::Reg(r) = l {
            self.free(r)
        }
    }

    /// General registers in use that a call clobbers.
    pub fn live_caller_saved(&self) -> Vec<Gpr> {
        [
            Gpr::Rcx,
            Gpr::Rsi,
            Gpr::Rdi,
            Gpr::R8,
            Gpr::R9,
            Gpr::R10,
            Gpr::R11,
        ]
        .into_iter()
        .filter(|r| self.gpr_used & (1 << r.num()) != 0)
        .collect()
    }

    /// A vector register (number 0..16).
    pub fn vreg(&mut self) -> Result<u8> {
        for n in 0..16u8 {
            if self.xmm_used & (1 << n) == 0 {
                self.xmm_used |= 1 << n;
                return Ok(n);
            }
        }
        unsupported("expression needs more than 16 vector registers")
    }

    /// Releases a vector register.
    pub fn vfree(&mut self, n: u8) {
        self.xmm_used &= !(1 << n);
    }

    /// Vector registers in use.
    pub fn live_vregs(&self) -> Vec<u8> {
        (0..16u8)
            .filter(|n| self.xmm_used & (1 << n) != 0)
            .collect()
    }

    /// Number of free vector registers.
    pub fn free_vregs(&self) -> usize {
        16 - self.xmm_used.count_ones() as usize
    }

    /// The operand of a run-time invariant: an immediate when it is a
    /// small constant, else its slot (computed in the setup block).
    pub fn inv(&mut self, p: &Poly) -> Result<Operand> {
        if let Some(c) = p.as_const() {
            if i32::try_from(c).is_ok() {
                return Ok(imm(c));
            }
        }
        if let Some((_, s)) = self.invariants.iter().find(|(x, _)| x == p) {
            return Ok(q(slot(*s)));
        }
        let s = self.new_slot(8)?;
        self.invariants.push((p.clone(), s));
        Ok(q(slot(s)))
    }

    /// The 32-byte slot holding four copies of a double.
    pub fn constant(&mut self, bits: u64) -> Result<Mem> {
        if let Some((_, s)) = self.consts.iter().find(|(b, _)| *b == bits) {
            return Ok(slot(*s));
        }
        let s = self.new_slot(32)?;
        self.consts.push((bits, s));
        Ok(slot(s))
    }

    /// The operand of a variable: an iterator's location or an integer
    /// parameter's argument slot.
    pub fn var(&self, n: &str) -> Result<Operand> {
        if let Some((_, l)) = self.vars.iter().rev().find(|(v, _)| v == n) {
            return Ok(match l {
                Loc::Reg(r) => g(*r),
                Loc::Slot(s) => q(slot(*s)),
            });
        }
        match self.k.param_slot(n) {
            Some((k, ParamClass::Int)) => Ok(q(arg(k))),
            _ => Err(Error::Internal(format!("unknown integer variable `{n}`"))),
        }
    }

    /// True if `n` is an AST iterator in scope.
    pub fn is_iter(&self, n: &str) -> bool {
        self.vars.iter().any(|(v, _)| v == n)
    }

    /// Evaluates an AST integer expression into a new temporary.
    pub fn ival(&mut self, e: &ast::Expr) -> Result<Gpr> {
        self.ival_simplified(&simplify(e))
    }

    /// Evaluates `e` into `l`: a register location receives the value
    /// directly ([`Self::ival`] takes its result register first, so the
    /// location's register is offered as that temporary), a slot through
    /// a temporary.
    pub fn ival_to(&mut self, e: &ast::Expr, l: Loc) -> Result<()> {
        match l {
            Loc::Reg(d) => {
                self.free(d);
                self.prefer = Some(d);
                let r = self.ival(e);
                self.prefer = None;
                let r = r?;
                if r != d {
                    // not expected; the value moves over
                    self.gpr_used |= 1 << d.num();
                    self.e.mov(g(d), g(r))?;
                    self.free(r);
                }
                Ok(())
            }
            Loc::Slot(s) => {
                let r = self.ival(e)?;
                self.e.mov(q(slot(s)), g(r))?;
                self.free(r);
                Ok(())
            }
        }
    }

    /// [`Self::ival`] of an expression already simplified.
    fn ival_simplified(&mut self, e: &ast::Expr) -> Result<Gpr> {
        use ast::Expr as E;
        // a parameter expression (`M - 1` in a bound): its run-time
        // invariant, computed once in the setup block
        if !matches!(e, E::Int(_) | E::Var(_)) {
            if let Some(p) = self.parameter_poly(e) {
                let o = self.inv(&p)?;
                let r = self.temp()?;
                match o {
                    Operand::Imm(v) => self.e.mov_imm(r, v),
                    o => self.e.mov(g(r), o)?,
                }
                return Ok(r);
            }
        }
        Ok(match e {
            E::Int(v) => {
                let r = self.temp()?;
                self.e.mov_imm(r, *v);
                r
            }
            E::Var(n) => {
                let src = self.var(n)?;
                let r = self.temp()?;
                self.e.mov(g(r), src)?;
                r
            }
            E::Neg(a) => {
                // -(k * floord(-b, k)) = b rounded up to a multiple of k
                if let E::Mul(k, m) = &**a {
                    if let E::FloorDiv(n, d) = &**m {
                        if let Some(k) = power_of_two(*k).filter(|_| d == k) {
                            // (-n + k - 1) with its constants folded
                            let r = self.ival(&E::add(E::Neg(n.clone()), E::Int(k - 1)))?;
                            self.e.and(g(r), imm(-k))?;
                            return Ok(r);
                        }
                    }
                }
                let r = self.ival(a)?;
                self.e.neg(r);
                r
            }
            E::Add(a, b) | E::Sub(a, b) => {
                let r = self.ival(a)?;
                let s = self.ioperand(b)?;
                if matches!(e, E::Add(..)) {
                    self.e.add(g(r), s)?;
                } else {
                    self.e.sub(g(r), s)?;
                }
                self.release(s);
                r
            }
            E::Mul(k, a) => {
                let p = power_of_two(*k);
                // k * floord(b, k) = b rounded down to a multiple of k
                if let (E::FloorDiv(b, d), Some(k)) = (&**a, p) {
                    if *d == k {
                        let r = self.ival(b)?;
                        self.e.and(g(r), imm(-k))?;
                        return Ok(r);
                    }
                }
                let r = self.ival(a)?;
                match p {
                    Some(k) => self.e.shl(r, k.trailing_zeros() as u8),
                    None => self.e.imul_imm(r, r, *k)?,
                }
                r
            }
            E::FloorDiv(a, k) | E::ExactDiv(a, k) => {
                let r = self.ival(a)?;
                self.floor_div(r, *k)?;
                r
            }
            E::Mod(a, k) => {
                let r = self.ival(a)?;
                self.divide(r, *k, true, false)?;
                r
            }
            E::Min(a, b) | E::Max(a, b) => {
                let r = self.ival(a)?;
                // a variable in a register is compared and moved in place
                let held = match &**b {
                    E::Var(n) => match self.var(n)? {
                        Operand::Gpr(x) => Some(x),
                        _ => None,
                    },
                    _ => None,
                };
                let s = match held {
                    Some(x) => x,
                    None => self.ival(b)?,
                };
                self.e.cmp(g(r), g(s))?;
                let c = if matches!(e, E::Min(..)) {
                    Cond::G
                } else {
                    Cond::L
                };
                self.e.cmov(c, r, s);
                if held.is_none() {
                    self.free(s);
                }
                r
            }
            E::Cmp(..) | E::And(..) | E::Or(..) => {
                let r = self.temp()?;
                let f = self.e.label();
                self.e.mov_imm(r, 0);
                self.cond_false(e, f)?;
                self.e.mov_imm(r, 1);
                self.e.bind(f)?;
                r
            }
        })
    }

    /// `e` as a polynomial in the integer parameters, when it is affine
    /// and mentions no iterator.
    fn parameter_poly(&self, e: &ast::Expr) -> Option<Poly> {
        let l = crate::linear::lin_of_ast(e, &|n| self.is_iter(n))?;
        let ints = l
            .rest
            .0
            .keys()
            .flatten()
            .all(|n| matches!(self.k.param_slot(n), Some((_, ParamClass::Int))));
        (l.iters.is_empty() && ints).then_some(l.rest)
    }

    /// An operand for the right side of an integer operation: an immediate,
    /// a location, or a new temporary (release it with [`State::release`]).
    pub fn ioperand(&mut self, e: &ast::Expr) -> Result<Operand> {
        match &simplify(e) {
            ast::Expr::Int(v) if i32::try_from(*v).is_ok() => Ok(imm(*v)),
            ast::Expr::Var(n) => self.var(n),
            e => Ok(g(self.ival_simplified(e)?)),
        }
    }

    /// Frees an operand made by [`State::ioperand`] if it is a temporary.
    pub fn release(&mut self, o: Operand) {
        if let Operand::Gpr(r) = o {
            if !self.vars.iter().any(|(_, l)| *l == Loc::Reg(r)) {
                self.free(r);
            }
        }
    }

    /// `r = floor(r / k)` for `k > 0`.
    pub fn floor_div(&mut self, r: Gpr, k: i64) -> Result<()> {
        if k <= 0 {
            return Err(Error::Internal(format!("floor division by {k}")));
        }
        if k == 1 {
            return Ok(());
        }
        if k.count_ones() == 1 {
            self.e.sar(r, k.trailing_zeros() as u8);
            return Ok(());
        }
        self.divide(r, k, false, true)
    }

    /// `r = r / k` (C truncation) or `r % k`, or the floor quotient, through
    /// `idiv` (`rax`/`rdx` are reserved for it). `k` is a non-zero constant
    /// other than -1.
    pub fn divide(&mut self, r: Gpr, k: i64, rem: bool, floor: bool) -> Result<()> {
        if k == 0 || k == -1 {
            return unsupported(format!("integer division by {k}"));
        }
        if k > 1 && k.count_ones() == 1 && !floor {
            // C truncation by 2^s: bias negative values by 2^s - 1, shift
            let sh = k.trailing_zeros() as u8;
            self.e.mov(g(Gpr::Rax), g(r))?;
            self.e.sar(Gpr::Rax, 63);
            self.e.shr(Gpr::Rax, 64 - sh);
            self.e.add(g(Gpr::Rax), g(r))?;
            self.e.sar(Gpr::Rax, sh);
            if rem {
                self.e.shl(Gpr::Rax, sh);
                self.e.sub(g(r), g(Gpr::Rax))?;
            } else {
                self.e.mov(g(r), g(Gpr::Rax))?;
            }
            return Ok(());
        }
        if k > 2 && i32::try_from(k).is_ok() {
            return self.divide_by_magic(r, k, rem, floor);
        }
        let d = self.temp()?;
        self.e.mov(g(Gpr::Rax), g(r))?;
        self.e.mov_imm(d, k);
        self.e.cqo();
        self.e.idiv(d);
        self.free(d);
        if floor {
            // floor = trunc + (remainder < 0 ? -1 : 0), k > 0
            self.e.sar(Gpr::Rdx, 63);
            self.e.add(g(Gpr::Rax), g(Gpr::Rdx))?;
        }
        let src = if rem { Gpr::Rdx } else { Gpr::Rax };
        self.e.mov(g(r), g(src))?;
        Ok(())
    }

    /// [`Self::divide`] by a constant `k > 2` (not a power of two) without
    /// `idiv`: the truncated quotient is the high half of `r * m` (one
    /// `imul`), corrected and shifted ([`magic`]); the remainder is `r -
    /// q*k`.
    fn divide_by_magic(&mut self, r: Gpr, k: i64, rem: bool, floor: bool) -> Result<()> {
        let (m, s) = magic(k);
        self.e.mov_imm(Gpr::Rax, m);
        self.e.imul_wide(r);
        if m < 0 {
            self.e.add(g(Gpr::Rdx), g(r))?;
        }
        if s > 0 {
            self.e.sar(Gpr::Rdx, s);
        }
        // + 1 for a negative dividend (truncation towards zero)
        self.e.mov(g(Gpr::Rax), g(r))?;
        self.e.shr(Gpr::Rax, 63);
        self.e.add(g(Gpr::Rdx), g(Gpr::Rax))?;
        if !rem && !floor {
            return self.e.mov(g(r), g(Gpr::Rdx));
        }
        self.e.imul_imm(Gpr::Rax, Gpr::Rdx, k)?;
        self.e.sub(g(r), g(Gpr::Rax))?; // the truncated remainder
        if rem {
            return Ok(());
        }
        // floor = trunc + (remainder < 0 ? -1 : 0)
        self.e.sar(r, 63);
        self.e.add(g(r), g(Gpr::Rdx))
    }

    /// Jumps to `target` when the condition `e` is false.
    pub fn cond_false(&mut self, e: &ast::Expr, target: Label) -> Result<()> {
        use ast::Expr as E;
        match e {
            E::And(a, b) => {
                self.cond_false(a, target)?;
                self.cond_false(b, target)
            }
            E::Or(a, b) => {
                let ok = self.e.label();
                self.cond_true(a, ok)?;
                self.cond_false(b, target)?;
                self.e.bind(ok)
            }
            E::Cmp(op, a, b) => {
                let c = self.compare(*op, a, b)?;
                self.e.jcc(c.negate(), target);
                Ok(())
            }
            _ => {
                let r = self.ival(e)?;
                self.e.test(g(r), g(r))?;
                self.free(r);
                self.e.jcc(Cond::E, target);
                Ok(())
            }
        }
    }

    /// Jumps to `target` when the condition `e` is true.
    pub fn cond_true(&mut self, e: &ast::Expr, target: Label) -> Result<()> {
        use ast::Expr as E;
        match e {
            E::Or(a, b) => {
                self.cond_true(a, target)?;
                self.cond_true(b, target)
            }
            E::And(a, b) => {
                let skip = self.e.label();
                self.cond_false(a, skip)?;
                self.cond_true(b, target)?;
                self.e.bind(skip)
            }
            E::Cmp(op, a, b) => {
                let c = self.compare(*op, a, b)?;
                self.e.jcc(c, target);
                Ok(())
            }
            _ => {
                let r = self.ival(e)?;
                self.e.test(g(r), g(r))?;
                self.free(r);
                self.e.jcc(Cond::Ne, target);
                Ok(())
            }
        }
    }

    /// Emits `cmp a, b` and returns the condition code of `a OP b`.
    fn compare(&mut self, op: ast::CmpOp, a: &ast::Expr, b: &ast::Expr) -> Result<Cond> {
        // `x % 2^s == 0` (either side): the low bits of `x`, whatever its sign
        if op == ast::CmpOp::Eq {
            for (m, z) in [(a, b), (b, a)] {
                if let (ast::Expr::Mod(x, k), ast::Expr::Int(0)) = (m, z) {
                    if *k > 1 && k.count_ones() == 1 && i32::try_from(*k).is_ok() {
                        if let Some(c) = self.low_bits_test(x, *k)? {
                            return Ok(c);
                        }
                        let r = self.ival(x)?;
                        self.e.test(g(r), imm(k - 1))?;
                        self.free(r);
                        return Ok(Cond::E);
                    }
                }
            }
        }
        if let Some(c) = self.compare_variables(op, a, b)? {
            return Ok(c);
        }
        let r = self.ival(a)?;
        let s = self.ioperand(b)?;
        self.e.cmp(g(r), s)?;
        self.release(s);
        self.free(r);
        Ok(cond_of(op))
    }

    /// `x % k == 0` for `k = 2^s`, when `x` is a variable plus a constant
    /// `c`: the low bits of the variable, tested where it lives, when `c`
    /// is a multiple of `k` (`Cond::E`) or `k = 2` and `c` is odd
    /// (`Cond::Ne`); `None` otherwise (nothing emitted).
    fn low_bits_test(&mut self, x: &ast::Expr, k: i64) -> Result<Option<Cond>> {
        let Some((Some(v), None, c)) = unit_difference(x, &ast::Expr::Int(0)) else {
            return Ok(None);
        };
        let cond = if c % k == 0 {
            Cond::E
        } else if k == 2 {
            Cond::Ne
        } else {
            return Ok(None);
        };
        let o = self.var(&v)?;
        self.e.test(o, imm(k - 1))?;
        Ok(Some(cond))
    }

    /// `a OP b` compared where its variables live, without copies, when
    /// `a - b` is `x - y + c` with `c` in `-1..=1` (`c3 >= c2 + 1` is `cmp
    /// c3, c2` and `>`), or `x + c` or `c - y` with any constant; `None`
    /// otherwise (nothing emitted).
    fn compare_variables(
        &mut self,
        op: ast::CmpOp,
        a: &ast::Expr,
        b: &ast::Expr,
    ) -> Result<Option<Cond>> {
        use ast::CmpOp as C;
        let Some(d) = unit_difference(a, b) else {
            return Ok(None);
        };
        // the comparison `l OP' r` equivalent to `a OP b`: `r` a variable
        // (`Ok`) or a constant (`Err`)
        let (l, r, op): (String, std::result::Result<String, i64>, C) = match d {
            (Some(x), Some(y), 0) => (x, Ok(y), op),
            // x + 1 <= y is x < y; x + 1 > y is x >= y
            (Some(x), Some(y), 1) if matches!(op, C::Le | C::Gt) => {
                (x, Ok(y), if op == C::Le { C::Lt } else { C::Ge })
            }
            // x - 1 >= y is x > y; x - 1 < y is x <= y
            (Some(x), Some(y), -1) if matches!(op, C::Ge | C::Lt) => {
                (x, Ok(y), if op == C::Ge { C::Gt } else { C::Le })
            }
            // x + c OP 0 is x OP -c
            (Some(x), None, c) => (x, Err(-c), op),
            // c - y OP 0 is y OP' c, the sides swapped
            (None, Some(y), c) => {
                let op = match op {
                    C::Le => C::Ge,
                    C::Lt => C::Gt,
                    C::Ge => C::Le,
                    C::Gt => C::Lt,
                    C::Eq => C::Eq,
                };
                (y, Err(c), op)
            }
            _ => return Ok(None),
        };
        if matches!(r, Err(c) if i32::try_from(c).is_err()) {
            return Ok(None);
        }
        let lo = self.var(&l)?;
        let ro = match &r {
            Ok(y) => self.var(y)?,
            Err(c) => imm(*c),
        };
        match (lo, ro) {
            (Operand::Mem(..), Operand::Mem(..)) => {
                let t = self.temp()?;
                self.e.mov(g(t), lo)?;
                self.e.cmp(g(t), ro)?;
                self.free(t);
            }
            _ => self.e.cmp(lo, ro)?,
        }
        Ok(Some(cond_of(op)))
    }

    /// Evaluates a [`Lin`] (current iterator values) into a new temporary.
    pub fn lin_value(&mut self, l: &Lin) -> Result<Gpr> {
        let r = self.temp()?;
        let (rest, c) = l.rest.split_const();
        // the first term is moved into `r`, the others added
        let mut started = false;
        if !rest.is_zero() {
            let o = self.inv(&rest)?;
            self.e.mov(g(r), o)?;
            started = true;
        }
        for (v, p) in &l.iters {
            let src = self.var(v)?;
            if p.as_const() == Some(1) {
                if started {
                    self.e.add(g(r), src)?;
                } else {
                    self.e.mov(g(r), src)?;
                }
                started = true;
                continue;
            }
            let t = if started { self.temp()? } else { r };
            self.e.mov(g(t), src)?;
            match p.as_const() {
                Some(k) if i32::try_from(k).is_ok() => self.e.imul_imm(t, t, k)?,
                _ => {
                    let o = self.inv(p)?;
                    if let Operand::Imm(k) = o {
                        self.e.imul_imm(t, t, k)?;
                    } else {
                        self.e.imul(t, o)?;
                    }
                }
            }
            if started {
                self.e.add(g(r), g(t))?;
                self.free(t);
            }
            started = true;
        }
        if !started {
            self.e.mov_imm(r, c);
        } else if c != 0 {
            match i32::try_from(c) {
                Ok(_) => self.e.add(g(r), imm(c))?,
                Err(_) => {
                    let t = self.temp()?;
                    self.e.mov_imm(t, c);
                    self.e.add(g(r), g(t))?;
                    self.free(t);
                }
            }
        }
        Ok(r)
    }

    /// Emits the computation of every run-time invariant into its slot
    /// (the setup block; `rax` and `rcx` are free there).
    pub fn emit_invariants(&mut self) -> Result<()> {
        let invs = self.invariants.clone();
        for (p, s) in invs {
            self.e.mov_imm(Gpr::Rax, 0);
            for (m, c) in &p.0 {
                self.e.mov_imm(Gpr::Rcx, *c);
                for name in m {
                    match self.k.param_slot(name) {
                        Some((k, ParamClass::Int)) => self.e.imul(Gpr::Rcx, q(arg(k)))?,
                        _ => return Err(Error::Internal(format!("`{name}` in an invariant"))),
                    }
                }
                self.e.add(g(Gpr::Rax), g(Gpr::Rcx))?;
            }
            self.e.mov(q(slot(s)), g(Gpr::Rax))?;
        }
        let consts = self.consts.clone();
        for (bits, s) in consts {
            self.e.mov_imm(Gpr::Rax, bits as i64);
            for lane in 0..4 {
                self.e.mov(q(slot(s + 8 * lane)), g(Gpr::Rax))?;
            }
        }
        Ok(())
    }
}

/// The magic multiplier and shift of signed 64-bit division by a constant
/// `d >= 2` (Hacker's Delight, section 10-1): for every `n`, `trunc(n / d)`
/// is `((n * m) >> 64) [+ n when m < 0]`, shifted right arithmetically by
/// `s`, plus one when `n < 0`.
pub(crate) fn magic(d: i64) -> (i64, u8) {
    const TWO63: u64 = 1 << 63;
    let ad = d.unsigned_abs();
    let t = TWO63 + ((d as u64) >> 63);
    let anc = t - 1 - t % ad;
    let mut p = 63u32;
    let (mut q1, mut r1) = (TWO63 / anc, TWO63 - (TWO63 / anc) * anc);
    let (mut q2, mut r2) = (TWO63 / ad, TWO63 - (TWO63 / ad) * ad);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= ad {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(ad);
        }
        let delta = ad - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    (q2.wrapping_add(1) as i64, (p - 64) as u8)
}

/// `k` if it is a power of two from 2 to 2^30: `k - 1` and `-k` are
/// 32-bit immediates, `k * x` is `x << log2 k` and `k * floord(x, k)` is
/// `x & -k` in two's complement (wrapping as `imul` does).
fn power_of_two(k: i64) -> Option<i64> {
    (k > 1 && k <= 1 << 30 && k.count_ones() == 1).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::magic;

    /// The magic sequence against Rust's division, over divisors and
    /// dividends near zero, near the extremes and at multiples.
    #[test]
    fn magic_division_matches_truncation() {
        let div = |n: i64, d: i64| {
            let (m, s) = magic(d);
            let mut q = ((i128::from(n) * i128::from(m)) >> 64) as i64;
            if m < 0 {
                q = q.wrapping_add(n);
            }
            q >>= s;
            q + ((n as u64) >> 63) as i64
        };
        for d in (3..200).chain([641, 1000, 6700417, i64::from(i32::MAX)]) {
            let mut ns: Vec<i64> = (-300..300).collect();
            ns.extend([i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1]);
            ns.extend((1..50).flat_map(|k| [k * d, k * d - 1, -k * d, -k * d + 1]));
            ns.extend(
                (0..60)
                    .map(|b| 1i64 << b)
                    .flat_map(|v| [v, -v, v - 1, 1 - v]),
            );
            for n in ns {
                assert_eq!(div(n, d), n / d, "{n} / {d}");
            }
        }
    }
}
