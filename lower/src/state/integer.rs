//! Integer expressions of the AST (loop bounds, guards, subscripts) and
//! linear forms evaluated into general registers: parameter expressions
//! read from their run-time invariant, multiplications and divisions by
//! powers of two as shifts and masks.

use codegen_x86::{Cond, Gpr};

use super::division::power_of_two;
use super::{slot, Loc, State};
use crate::affine_fold::simplify;
use crate::emit::{g, imm, q, Operand};
use crate::error::Result;
use crate::kernel::ParamClass;
use crate::linear::{Lin, Poly};

impl State<'_> {
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
                let r = self.ival_simplified(a)?;
                self.e.neg(r);
                r
            }
            E::Add(a, b) | E::Sub(a, b) => {
                let r = self.ival_simplified(a)?;
                let s = self.ioperand_simplified(b)?;
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
                        let r = self.ival_simplified(b)?;
                        self.e.and(g(r), imm(-k))?;
                        return Ok(r);
                    }
                }
                let r = self.ival_simplified(a)?;
                match p {
                    Some(k) => self.e.shl(r, k.trailing_zeros() as u8),
                    None => self.e.imul_imm(r, r, *k)?,
                }
                r
            }
            E::FloorDiv(a, k) | E::ExactDiv(a, k) => {
                let r = self.ival_simplified(a)?;
                self.floor_div(r, *k)?;
                r
            }
            E::Mod(a, k) => {
                let r = self.ival_simplified(a)?;
                self.divide(r, *k, true, false)?;
                r
            }
            E::Min(a, b) | E::Max(a, b) => {
                let r = self.ival_simplified(a)?;
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
                    None => self.ival_simplified(b)?,
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
        self.ioperand_simplified(&simplify(e))
    }

    /// [`Self::ioperand`] of an expression already simplified (a part of
    /// one: [`simplify`] is idempotent).
    fn ioperand_simplified(&mut self, e: &ast::Expr) -> Result<Operand> {
        match e {
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
}

/// An upper bound on the temporaries [`State::ival`] takes to evaluate
/// `e` (one more per division, for safety; conditions count as many).
pub(crate) fn temps_needed(e: &ast::Expr) -> usize {
    use ast::Expr as E;
    let operand = |b: &ast::Expr| match b {
        E::Int(v) if i32::try_from(*v).is_ok() => 0,
        E::Var(_) => 0,
        _ => temps_needed(b),
    };
    match e {
        E::Int(_) | E::Var(_) => 1,
        E::Neg(a) | E::Mul(_, a) => temps_needed(a),
        E::FloorDiv(a, _) | E::ExactDiv(a, _) | E::Mod(a, _) => temps_needed(a) + 1,
        E::Add(a, b) | E::Sub(a, b) => temps_needed(a).max(1 + operand(b)),
        E::Min(a, b) | E::Max(a, b) => temps_needed(a).max(1 + temps_needed(b)),
        E::Cmp(..) | E::And(..) | E::Or(..) => usize::MAX / 4,
    }
}
