//! Packing one side of a contraction's cache block into panels
//! ([`crate::tile`]): each element evaluated with the statement's scalar
//! code through pointers that step along `k` (bit for bit the
//! interpreter's value), or, for a unit-stride access, a panel row copied
//! as two `ymm`; the element of the next row or column prefetched; missing
//! rows or columns of the last panel written as zeros. The `b` side's
//! unit-stride access copies its full panels row by row of the block
//! ([`State::copy_rows`]): one panel at a time read `kc` rows a whole row
//! of the array apart for each 64 bytes, a new line and page per load.

use std::collections::HashMap;

use codegen_x86::{Cond, Gpr, Mem, Scale};
use scop::model::Expr;

use crate::body::{Call, Inner};
use crate::contract::Contraction;
use crate::emit::{g, imm, q, Operand, VSrc, Width};
use crate::error::Result;
use crate::kernel::Storage;
use crate::linear::Lin;
use crate::state::{arg, slot, State};
use crate::tile::NR;

/// One packed side: which role it runs along and where it goes.
pub(crate) struct Side {
    pub role: usize,
    pub other: usize,
    /// Slot: first element of the block (relative to the role's lower bound).
    pub off: i32,
    /// Slot: elements in the block.
    pub count: i32,
    /// Elements per panel (MR or NR).
    pub width: i64,
    /// Byte offset of the buffer in the workspace.
    pub base: i32,
    /// Slot: bytes per panel.
    pub stride: i32,
    pub negate: bool,
    /// Copy a unit-stride side's full panels row by row ([`State::copy_rows`]).
    pub rowwise: bool,
}

impl State<'_> {
    /// Packs one side of the block: element `e < count` of the side's role
    /// (at `lo + off + e`) becomes row/column `e % width` of panel
    /// `e / width`, `k` from `lo_k + pc` for `kc` steps; missing elements
    /// of the last panel are zeros.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pack(
        &mut self,
        e: &Expr,
        call: &Call,
        lins: &HashMap<usize, Lin>,
        s: &Side,
        c: &Contraction,
        var: &[i32; 3],
        lo: &[i32; 3],
        pc: i32,
        kc: i32,
        ws: usize,
    ) -> Result<()> {
        let (qp, el, w) = (self.new_slot(8)?, self.new_slot(8)?, self.new_slot(8)?);
        let t = self.temp()?;
        self.e.mov(g(t), q(arg(ws)))?;
        self.e.add(g(t), imm(s.base as i64))?;
        self.e.mov(q(slot(qp)), g(t))?;
        self.free(t);
        self.zero_slot(el)?;
        let panels_done = self.e.label();
        let rowwise = s.rowwise && self.unit_access(e, s, c, lins).is_some();
        if let (true, Some(ai)) = (s.rowwise, self.unit_access(e, s, c, lins)) {
            self.copy_rows(ai, s, c, lins, var, lo, pc, kc, (qp, el))?;
            let t = self.temp()?;
            self.e.mov(g(t), q(slot(el)))?;
            self.e.cmp(g(t), q(slot(s.count)))?;
            self.free(t);
            self.e.jcc(Cond::Ge, panels_done);
        }
        let (lpanel, lrow, zero, next) = (
            self.e.label(),
            self.e.label(),
            self.e.label(),
            self.e.label(),
        );
        let panel_end = self.e.label();
        self.e.bind(lpanel)?;
        self.zero_slot(w)?;
        if let (false, Some(ai)) = (rowwise, self.unit_access(e, s, c, lins)) {
            self.copy_panel(ai, s, c, lins, var, lo, pc, kc, (qp, el), panel_end, lrow)?;
        }
        self.e.bind(lrow)?;
        let d = self.temp()?;
        let t = self.temp()?;
        self.e.mov(g(d), q(slot(qp)))?;
        self.e.mov(g(t), q(slot(w)))?;
        self.e.lea(d, Mem::sib(d, t, Scale::X8, 0)?);
        self.e.mov(g(t), q(slot(el)))?;
        self.e.cmp(g(t), q(slot(s.count)))?;
        self.free(t);
        self.e.jcc(Cond::Ge, zero);
        // the point (role = lo + off + el, k = lo_k + pc, other = lo)
        self.side_point(s, c, var, lo, pc, el)?;
        let mut accesses = Vec::new();
        crate::contract::walk_accesses(e, &mut |k| accesses.push(k));
        accesses.sort_unstable();
        accesses.dedup();
        let mut inner = Inner::default();
        let mut steps = Vec::new();
        let mut regs = Vec::new();
        let mut ahead: Vec<(Gpr, Gpr)> = Vec::new();
        for ai in accesses {
            let Some(l) = lins.get(&ai) else { continue };
            let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
                continue;
            };
            let (p, so) = self.k_pointer(sl, l, &c.its[c.k])?;
            inner.ptr.insert((0, ai), (p, 0));
            steps.push((p, so));
            regs.push(p);
            // the same element of the next row/column (packed next), so
            // that its lines arrive while this one is packed
            let next = l.coeff(&c.its[s.role]).scale(8);
            if let (Some(next), true) = (next, self.free_gprs() > 5) {
                let o = self.inv(&next)?;
                let r = self.temp()?;
                match o {
                    Operand::Imm(v) => self.e.mov_imm(r, v),
                    o => self.e.mov(g(r), o)?,
                }
                ahead.push((p, r));
            }
        }
        let cnt = self.temp()?;
        self.e.mov(g(cnt), q(slot(kc)))?;
        self.inner = Some(inner);
        let lp = self.e.label();
        self.e.bind(lp)?;
        let v = self.dval(call, e, Width::Scalar)?;
        if s.negate {
            let m = self.constant((-0.0f64).to_bits())?;
            self.e.vxor(Width::Scalar, v, v, VSrc::Mem(m));
        }
        self.e.vstore(Width::Scalar, Mem::base(d), v);
        self.vfree(v);
        for (p, r) in &ahead {
            self.e.prefetch(Mem::sib(*p, *r, Scale::X1, 0)?);
        }
        self.e.add(g(d), imm(s.width * 8))?;
        for (p, so) in &steps {
            self.e.add(g(*p), *so)?;
        }
        self.e.sub(g(cnt), imm(1))?;
        self.e.jcc(Cond::Ne, lp);
        self.inner = None;
        for p in regs {
            self.free(p);
        }
        for (_, r) in ahead {
            self.free(r);
        }
        self.e.jmp(next);
        // a missing row/column: zeros
        self.e.bind(zero)?;
        self.e.vxor(Width::Scalar, 0, 0, VSrc::Reg(0));
        self.e.mov(g(cnt), q(slot(kc)))?;
        let lz = self.e.label();
        self.e.bind(lz)?;
        self.e.vstore(Width::Scalar, Mem::base(d), 0);
        self.e.add(g(d), imm(s.width * 8))?;
        self.e.sub(g(cnt), imm(1))?;
        self.e.jcc(Cond::Ne, lz);
        self.e.bind(next)?;
        self.free(cnt);
        self.free(d);
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(el)))?;
        self.e.add(g(t), imm(1))?;
        self.e.mov(q(slot(el)), g(t))?;
        self.e.mov(g(t), q(slot(w)))?;
        self.e.add(g(t), imm(1))?;
        self.e.mov(q(slot(w)), g(t))?;
        self.e.cmp(g(t), imm(s.width))?;
        self.e.jcc(Cond::L, lrow);
        self.free(t);
        self.e.bind(panel_end)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(qp)))?;
        self.e.add(g(t), q(slot(s.stride)))?;
        self.e.mov(q(slot(qp)), g(t))?;
        self.e.mov(g(t), q(slot(el)))?;
        self.e.cmp(g(t), q(slot(s.count)))?;
        self.e.jcc(Cond::L, lpanel);
        self.free(t);
        self.e.bind(panels_done)?;
        Ok(())
    }

    /// The full panels of a unit-stride access, row by row: for each `k`,
    /// the block's row (`count` consecutive doubles, whole panels only)
    /// copied 8 doubles at a time into panel after panel (`stride` bytes
    /// apart), so that the source is read in order (a panel at a time
    /// would read `kc` rows far apart per panel: a new line and page per
    /// load, which the hardware prefetchers do not follow). Leaves
    /// `el` and the panel pointer `qp` after the last full panel.
    #[allow(clippy::too_many_arguments)]
    fn copy_rows(
        &mut self,
        ai: usize,
        s: &Side,
        c: &Contraction,
        lins: &HashMap<usize, Lin>,
        var: &[i32; 3],
        lo: &[i32; 3],
        pc: i32,
        kc: i32,
        (qp, el): (i32, i32),
    ) -> Result<()> {
        let full = self.new_slot(8)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(s.count)))?;
        self.e.shr(t, 3);
        self.e.mov(q(slot(full)), g(t))?;
        self.free(t);
        let done = self.e.label();
        self.e.cmp(q(slot(full)), imm(0))?;
        self.e.jcc(Cond::E, done);
        self.side_point(s, c, var, lo, pc, el)?;
        let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
            return Err(crate::error::Error::Internal("packed scalar".into()));
        };
        let (src_row, so) = self.k_pointer(sl, &lins[&ai], &c.its[c.k])?;
        let (dst_row, n, src, dst, m) = (
            self.temp()?,
            self.temp()?,
            self.temp()?,
            self.temp()?,
            self.temp()?,
        );
        self.e.mov(g(dst_row), q(slot(qp)))?;
        self.e.mov(g(n), q(slot(kc)))?;
        let (row, panel) = (self.e.label(), self.e.label());
        self.e.bind(row)?;
        self.e.mov(g(src), g(src_row))?;
        self.e.mov(g(dst), g(dst_row))?;
        self.e.mov(g(m), q(slot(full)))?;
        self.e.bind(panel)?;
        self.e.vload(Width::Vec4, 0, Mem::base(src));
        self.e.vload(Width::Vec4, 1, Mem::base(src).disp(32));
        self.e.vstore(Width::Vec4, Mem::base(dst), 0);
        self.e.vstore(Width::Vec4, Mem::base(dst).disp(32), 1);
        self.e.add(g(src), imm(NR * 8))?;
        self.e.add(g(dst), q(slot(s.stride)))?;
        self.e.sub(g(m), imm(1))?;
        self.e.jcc(Cond::Ne, panel);
        self.e.add(g(src_row), so)?;
        self.e.add(g(dst_row), imm(NR * 8))?;
        self.e.sub(g(n), imm(1))?;
        self.e.jcc(Cond::Ne, row);
        // after the full panels: `el = full * NR`, `qp += full * stride`
        self.e.mov(g(m), q(slot(full)))?;
        self.e.shl(m, 3);
        self.e.mov(q(slot(el)), g(m))?;
        self.e.mov(g(m), q(slot(full)))?;
        self.e.imul(m, q(slot(s.stride)))?;
        self.e.add(q(slot(qp)), g(m))?;
        for r in [src_row, dst_row, n, src, dst, m] {
            self.free(r);
        }
        self.e.bind(done)?;
        Ok(())
    }

    /// Sets the iterators to a point of a packed side: its role at
    /// `lo + off + el`, `k` at `lo_k + pc`, the other role at its first value.
    #[allow(clippy::too_many_arguments)]
    fn side_point(
        &mut self,
        s: &Side,
        c: &Contraction,
        var: &[i32; 3],
        lo: &[i32; 3],
        pc: i32,
        el: i32,
    ) -> Result<()> {
        self.set_sum(var[s.role], &[lo[s.role], s.off, el])?;
        self.set_sum(var[c.k], &[lo[c.k], pc])?;
        self.set_sum(var[s.other], &[lo[s.other]])
    }

    /// A pointer to the element of array slot `sl` at offset `l` (current
    /// iterators) and its step in bytes when `k_it` advances by one.
    fn k_pointer(&mut self, sl: usize, l: &Lin, k_it: &str) -> Result<(Gpr, Operand)> {
        let off = self.lin_value(l)?;
        let p = self.temp()?;
        self.e.mov(g(p), q(arg(sl)))?;
        self.e.lea(p, Mem::sib(p, off, Scale::X8, 0)?);
        self.free(off);
        let step = l
            .coeff(k_it)
            .scale(8)
            .ok_or_else(|| crate::error::Error::Unsupported("stride overflow".into()))?;
        Ok((p, self.inv(&step)?))
    }

    /// The access `e` is, when it is one whose consecutive elements along
    /// the side's role are consecutive in memory (a panel row is then one
    /// copy of [`NR`] doubles).
    fn unit_access(
        &self,
        e: &Expr,
        s: &Side,
        c: &Contraction,
        lins: &HashMap<usize, Lin>,
    ) -> Option<usize> {
        let Expr::Access(ai) = e else { return None };
        let l = lins.get(ai)?;
        (s.width == NR && !s.negate && l.coeff(&c.its[s.role]).as_const() == Some(1)).then_some(*ai)
    }

    /// A full panel of a unit-stride access: `kc` rows of [`NR`] doubles
    /// copied with two `ymm` loads and stores each (bit-exact); skipped to
    /// the element loop `generic` when fewer than [`NR`] elements are left.
    #[allow(clippy::too_many_arguments)]
    fn copy_panel(
        &mut self,
        ai: usize,
        s: &Side,
        c: &Contraction,
        lins: &HashMap<usize, Lin>,
        var: &[i32; 3],
        lo: &[i32; 3],
        pc: i32,
        kc: i32,
        (qp, el): (i32, i32),
        panel_end: codegen_x86::Label,
        generic: codegen_x86::Label,
    ) -> Result<()> {
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(s.count)))?;
        self.e.sub(g(t), q(slot(el)))?;
        self.e.cmp(g(t), imm(NR))?;
        self.free(t);
        self.e.jcc(Cond::L, generic);
        self.side_point(s, c, var, lo, pc, el)?;
        let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
            return Err(crate::error::Error::Internal("packed scalar".into()));
        };
        let (p, so) = self.k_pointer(sl, &lins[&ai], &c.its[c.k])?;
        let (d, n) = (self.temp()?, self.temp()?);
        self.e.mov(g(d), q(slot(qp)))?;
        self.e.mov(g(n), q(slot(kc)))?;
        let top = self.e.label();
        self.e.bind(top)?;
        self.e.vload(Width::Vec4, 0, Mem::base(p));
        self.e.vload(Width::Vec4, 1, Mem::base(p).disp(32));
        self.e.vstore(Width::Vec4, Mem::base(d), 0);
        self.e.vstore(Width::Vec4, Mem::base(d).disp(32), 1);
        self.e.add(g(d), imm(NR * 8))?;
        self.e.add(g(p), so)?;
        self.e.sub(g(n), imm(1))?;
        self.e.jcc(Cond::Ne, top);
        self.e.mov(g(n), q(slot(el)))?;
        self.e.add(g(n), imm(NR))?;
        self.e.mov(q(slot(el)), g(n))?;
        for r in [p, d, n] {
            self.free(r);
        }
        self.e.jmp(panel_end);
        Ok(())
    }
}
