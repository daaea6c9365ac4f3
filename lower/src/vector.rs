//! The 4-wide main loop of a vectorized innermost loop: the body twice per
//! iteration (eight iterations of the source loop; the second copy's
//! unit-stride accesses 32 bytes further, its reductions in a second set
//! of accumulators), then at most one 4-wide step, then the partial sums
//! folded into lane 0 for the scalar remainder.

use ast::CmpOp;
use codegen_x86::Gpr;

use crate::body::Call;
use crate::emit::{g, imm, Operand, VSrc, Width};
use crate::error::Result;
use crate::state::{slot, Loc, State};

impl State<'_> {
    fn vector_copy(&mut self, cs: &[Call]) -> Result<()> {
        for (u, c) in cs.iter().enumerate() {
            self.inner_mut()?.cur = u;
            self.statement(c, Width::Vec4)?;
        }
        Ok(())
    }

    /// Emits the vector loop; on exit the iterator is at the first
    /// iteration left for the scalar loop and the reductions' registers
    /// hold their partial sums in lane 0.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn vector_loop(
        &mut self,
        cs: &[Call],
        it: Loc,
        op: CmpOp,
        bound: Operand,
        ptrs: &[Gpr],
        shifted: &[(usize, usize)],
        reductions: &[String],
    ) -> Result<()> {
        let (yes, no) = match op {
            CmpOp::Le => (codegen_x86::Cond::Le, codegen_x86::Cond::G),
            _ => (codegen_x86::Cond::L, codegen_x86::Cond::Ge),
        };
        self.wide = true;
        self.inner_mut()?.contract = true;
        let itop = match it {
            Loc::Reg(r) => g(r),
            Loc::Slot(s) => crate::emit::q(slot(s)),
        };
        // bound - 7 and bound - 3: the last start of an 8- and a 4-wide step
        let (b7, b3) = (self.new_slot(8)?, self.new_slot(8)?);
        let t = self.temp()?;
        for (s, k) in [(b7, 7), (b3, 3)] {
            self.e.mov(g(t), bound)?;
            self.e.sub(g(t), imm(k))?;
            self.e.mov(crate::emit::q(slot(s)), g(t))?;
        }
        self.free(t);
        let second: Vec<(String, u8, u8)> = reductions
            .iter()
            .map(|a| {
                let first = self.inner_ref()?.promoted[a];
                let v = self.vreg()?;
                self.e.vxor(Width::Vec4, v, v, VSrc::Reg(v));
                Ok((a.clone(), first, v))
            })
            .collect::<Result<_>>()?;
        let (top, four, done) = (self.e.label(), self.e.label(), self.e.label());
        self.cmp_it(it, b7)?;
        self.e.jcc(no, four);
        self.e.bind(top)?;
        self.vector_copy(cs)?;
        {
            let inner = self.inner_mut()?;
            for k in shifted {
                if let Some(e) = inner.ptr.get_mut(k) {
                    e.1 += 32;
                }
            }
            for (a, _, v) in &second {
                inner.promoted.insert(a.clone(), *v);
            }
        }
        self.vector_copy(cs)?;
        {
            let inner = self.inner_mut()?;
            for k in shifted {
                if let Some(e) = inner.ptr.get_mut(k) {
                    e.1 -= 32;
                }
            }
            for (a, f, _) in &second {
                inner.promoted.insert(a.clone(), *f);
            }
        }
        for p in ptrs {
            self.e.add(g(*p), imm(64))?;
        }
        self.e.add(itop, imm(8))?;
        self.cmp_it(it, b7)?;
        self.e.jcc(yes, top);
        self.e.bind(four)?;
        self.cmp_it(it, b3)?;
        self.e.jcc(no, done);
        self.vector_copy(cs)?;
        for p in ptrs {
            self.e.add(g(*p), imm(32))?;
        }
        self.e.add(itop, imm(4))?;
        self.e.bind(done)?;
        self.inner_mut()?.contract = false;
        for (_, f, v) in &second {
            self.e.vadd(Width::Vec4, *f, *f, VSrc::Reg(*v));
            self.vfree(*v);
        }
        for (_, f, _) in &second {
            let s = self.new_slot(32)?;
            self.e.vstore(Width::Vec4, slot(s), *f);
            self.e.vload(Width::Scalar, *f, slot(s));
            for lane in 1..4 {
                self.e
                    .vadd(Width::Scalar, *f, *f, VSrc::Mem(slot(s + 8 * lane)));
            }
        }
        Ok(())
    }

    fn cmp_it(&mut self, it: Loc, b: i32) -> Result<()> {
        match it {
            Loc::Reg(r) => self.e.cmp(g(r), crate::emit::q(slot(b))),
            Loc::Slot(s) => {
                let t = self.temp()?;
                self.e.mov(g(t), crate::emit::q(slot(s)))?;
                self.e.cmp(g(t), crate::emit::q(slot(b)))?;
                self.free(t);
                Ok(())
            }
        }
    }
}
