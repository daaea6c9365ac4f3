//! Conditions of the AST: jumps on a condition's truth or falsity, with
//! comparisons made where the variables live when they allow it, and
//! divisibility by a power of two tested on the low bits.

use ast::CmpOp;
use codegen_x86::{Cond, Label};

use super::State;
use crate::affine_fold::unit_difference;
use crate::emit::{g, imm, Operand};
use crate::error::Result;

/// The condition code of `a OP b` after `cmp a, b`.
pub(crate) fn cc(op: CmpOp) -> Cond {
    match op {
        CmpOp::Le => Cond::Le,
        CmpOp::Lt => Cond::L,
        CmpOp::Ge => Cond::Ge,
        CmpOp::Gt => Cond::G,
        CmpOp::Eq => Cond::E,
    }
}

impl State<'_> {
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
        Ok(cc(op))
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
        Ok(Some(cc(op)))
    }
}
