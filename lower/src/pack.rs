//! Packing one side of a contraction's cache block into panels
//! ([`crate::tile`]): each element evaluated with the statement's own
//! operations (bit for bit the interpreter's value) through pointers that
//! step along `k`; the side's `k`-invariant sub-expressions (`alpha` in
//! `alpha * A[i][k]`) computed once per row or column into a register;
//! four `k` at once in `ymm` registers when every other access is
//! unit-stride along `k` ([`State::pack_run`]); or, for a unit-stride
//! access along the side's role, a panel row copied as two `ymm`; the
//! element of the next row or column prefetched; missing rows or columns
//! of the last panel written as zeros. A full panel whose accesses are
//! unit-stride along `k` (or invariant along `k` and the role) is packed
//! across its rows four `k` at a time instead, the rows transposed into
//! whole steps of the panel ([`crate::panel`]). The `b` side's unit-stride access
//! copies its full panels row by row of the block ([`State::copy_rows`]):
//! one panel at a time read `kc` rows a whole row of the array apart for
//! each 64 bytes, a new line and page per load.

use std::collections::HashMap;

use codegen_x86::{Cond, Gpr, Label, Mem, Scale};
use scop::model::Expr;

use crate::body::{key, vectorizable, Call, Inner};
use crate::contract::Contraction;
use crate::emit::{g, imm, q, Operand, VSrc, Width};
use crate::error::{Error, Result};
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

/// What packing one side of one block reads: the side, the contraction
/// and its accesses' offsets, the frame slots of the nest's iterators
/// (`var`) and of the box's first values (`lo`, in the contraction's loop
/// order), and the block's `k` range (slots: `pc` its first step from
/// `lo_k`, `kc` its length).
pub(crate) struct Pack<'p> {
    pub s: &'p Side,
    pub c: &'p Contraction<'p>,
    pub lins: &'p HashMap<usize, Lin>,
    pub var: &'p [i32; 3],
    pub lo: &'p [i32; 3],
    pub pc: i32,
    pub kc: i32,
}

impl<'p> Pack<'p> {
    /// Packing side `s` of the contraction `c` (its accesses' offsets
    /// `lins`) in the block whose `k` range is `(pc, kc)`, the nest's
    /// iterators and first values in the slots `var` and `lo`.
    pub fn new(
        s: &'p Side,
        c: &'p Contraction<'p>,
        lins: &'p HashMap<usize, Lin>,
        (var, lo): (&'p [i32; 3], &'p [i32; 3]),
        (pc, kc): (i32, i32),
    ) -> Pack<'p> {
        Pack {
            s,
            c,
            lins,
            var,
            lo,
            pc,
            kc,
        }
    }
}

/// The pointers of one row (or column) of a side: each access's register
/// and its step per `k`, and the prefetch distances of the next row.
struct Pointers {
    steps: Vec<(Gpr, usize, Operand)>,
    ahead: Vec<(Gpr, Gpr)>,
}

impl State<'_> {
    /// Packs one side of the block: element `e < count` of the side's role
    /// (at `lo + off + e`) becomes row/column `e % width` of panel
    /// `e / width`, `k` from `lo_k + pc` for `kc` steps; missing elements
    /// of the last panel are zeros.
    pub(crate) fn pack(&mut self, e: &Expr, call: &Call, p: &Pack, ws: usize) -> Result<()> {
        let s = p.s;
        let (qp, el, w) = (self.new_slot(8)?, self.new_slot(8)?, self.new_slot(8)?);
        let t = self.temp()?;
        self.e.mov(g(t), q(arg(ws)))?;
        self.e.add(g(t), imm(s.base as i64))?;
        self.e.mov(q(slot(qp)), g(t))?;
        self.free(t);
        self.zero_slot(el)?;
        let panels_done = self.e.label();
        let unit = self.unit_access(e, p);
        let rowwise = s.rowwise && unit.is_some();
        if let (true, Some(ai)) = (rowwise, unit) {
            self.copy_rows(ai, p, (qp, el))?;
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
        if let (false, Some(ai)) = (rowwise, unit) {
            self.copy_panel(ai, p, (qp, el), panel_end, lrow)?;
        } else if let (false, Some(plan)) = (rowwise, self.panel_plan(e, p)) {
            self.pack_panel(e, call, p, &plan, (qp, el), panel_end, lrow)?;
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
        self.side_point(p, el)?;
        self.pack_run(e, call, p, d)?;
        self.e.jmp(next);
        // a missing row/column: zeros
        self.e.bind(zero)?;
        let cnt = self.temp()?;
        self.e.vxor(Width::Scalar, 0, 0, VSrc::Reg(0));
        self.e.mov(g(cnt), q(slot(p.kc)))?;
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

    /// One row (or column) of the side at the current point: its `kc`
    /// elements along `k`, stored `width` doubles apart from `d` (moved),
    /// `kc >= 1`. The `k`-invariant sub-expressions of `e` (those reading
    /// only parameters, literals, scalars and accesses whose offset does
    /// not move with `k`) are evaluated once, in their scalar order, into
    /// registers. When every other access is unit-stride along `k` and
    /// the operations have four-wide forms, four `k` at a time are
    /// evaluated in a `ymm` register (lane by lane the scalar operations:
    /// no contraction, so bit for bit the scalar values) and its lanes
    /// stored to their four places; the last `kc % 4` run the scalar code.
    fn pack_run(&mut self, e: &Expr, call: &Call, p: &Pack, d: Gpr) -> Result<()> {
        let (s, c, lins) = (p.s, p.c, p.lins);
        let k_it = &c.its[c.k];
        let mut accesses = Vec::new();
        crate::contract::walk_accesses(e, &mut |k| accesses.push(k));
        accesses.sort_unstable();
        accesses.dedup();
        let k_inv = |ai: usize| lins.get(&ai).is_none_or(|l| l.coeff(k_it).is_zero());
        let unit_k = accesses
            .iter()
            .all(|&ai| k_inv(ai) || lins[&ai].coeff(k_it).as_const() == Some(1));
        let mut hoist: Vec<(usize, &Expr)> = Vec::new();
        crate::nest::collect_invariants(e, &k_inv, 0, &mut hoist);
        let wide = vectorizable(e) && unit_k && self.free_vregs() >= hoist.len() + 8;
        if self.free_vregs() < hoist.len() + 6 {
            hoist.clear();
        }
        let mut inner = Inner::default();
        let ptrs = self.pointers(p, &accesses, &mut inner)?;
        self.inner = Some(inner);
        let mut held = Vec::new();
        for (_, h) in &hoist {
            let v = self.dval(call, h, Width::Scalar)?;
            if wide {
                self.e.vbroadcast_reg(v, v);
            }
            self.inner_mut()?.hoisted.insert((0, key(h)), v);
            held.push(v);
        }
        let cnt = self.temp()?;
        self.e.mov(g(cnt), q(slot(p.kc)))?;
        let (rest, done) = (self.e.label(), self.e.label());
        if wide {
            let mut steps4 = Vec::new();
            for (r, ai, _) in &ptrs.steps {
                let st = lins[ai]
                    .coeff(k_it)
                    .scale(32)
                    .ok_or_else(|| Error::Unsupported("stride overflow".into()))?;
                steps4.push((*r, self.inv(&st)?));
            }
            let top = self.e.label();
            self.e.cmp(g(cnt), imm(4))?;
            self.e.jcc(Cond::L, rest);
            self.e.bind(top)?;
            let v = self.dval(call, e, Width::Vec4)?;
            if s.negate {
                let m = self.constant((-0.0f64).to_bits())?;
                self.e.vxor(Width::Vec4, v, v, VSrc::Mem(m));
            }
            self.store_lanes(v, d, s.width as i32 * 8)?;
            self.vfree(v);
            for (r, a) in &ptrs.ahead {
                self.e.prefetch(Mem::sib(*r, *a, Scale::X1, 0)?);
            }
            self.e.add(g(d), imm(4 * s.width * 8))?;
            for (r, so) in &steps4 {
                self.e.add(g(*r), *so)?;
            }
            self.latch_four(cnt, top)?;
        }
        self.rest_entry(rest, cnt, done)?;
        let lp = self.e.label();
        self.e.bind(lp)?;
        let v = self.dval(call, e, Width::Scalar)?;
        if s.negate {
            let m = self.constant((-0.0f64).to_bits())?;
            self.e.vxor(Width::Scalar, v, v, VSrc::Mem(m));
        }
        self.e.vstore(Width::Scalar, Mem::base(d), v);
        self.vfree(v);
        for (r, a) in &ptrs.ahead {
            self.e.prefetch(Mem::sib(*r, *a, Scale::X1, 0)?);
        }
        self.e.add(g(d), imm(s.width * 8))?;
        for (r, _, so) in &ptrs.steps {
            self.e.add(g(*r), *so)?;
        }
        self.e.sub(g(cnt), imm(1))?;
        self.e.jcc(Cond::Ne, lp);
        self.e.bind(done)?;
        self.inner = None;
        for v in held {
            self.vfree(v);
        }
        for (r, _, _) in ptrs.steps {
            self.free(r);
        }
        for (_, a) in ptrs.ahead {
            self.free(a);
        }
        self.free(cnt);
        Ok(())
    }

    /// A pointer per array access of the side's expression (`accesses`,
    /// scalars excepted) at the current point, entered in `inner`, with
    /// its step per `k`; and, while registers last, the distance to the
    /// same element of the next row/column (packed next), prefetched as
    /// this one is packed so that its lines arrive in time.
    fn pointers(&mut self, p: &Pack, accesses: &[usize], inner: &mut Inner) -> Result<Pointers> {
        let c = p.c;
        let mut out = Pointers {
            steps: Vec::new(),
            ahead: Vec::new(),
        };
        for &ai in accesses {
            let Some(l) = p.lins.get(&ai) else { continue };
            let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
                continue;
            };
            let (r, so) = self.k_pointer(sl, l, &c.its[c.k])?;
            inner.ptr.insert((0, ai), (r, 0));
            out.steps.push((r, ai, so));
            let next = l.coeff(&c.its[p.s.role]).scale(8);
            if let (Some(next), true) = (next, self.free_gprs() > 5) {
                let o = self.inv(&next)?;
                let a = self.temp()?;
                match o {
                    Operand::Imm(v) => self.e.mov_imm(a, v),
                    o => self.e.mov(g(a), o)?,
                }
                out.ahead.push((r, a));
            }
        }
        Ok(out)
    }

    /// The latch of a loop four `k` at a time on the count `cnt`:
    /// `sub cnt, 4; cmp cnt, 4; jge top`.
    pub(crate) fn latch_four(&mut self, cnt: Gpr, top: Label) -> Result<()> {
        self.e.sub(g(cnt), imm(4))?;
        self.e.cmp(g(cnt), imm(4))?;
        self.e.jcc(Cond::Ge, top);
        Ok(())
    }

    /// The entry `rest` of the step-at-a-time loop after a loop four `k`
    /// at a time: to `done` when no step is left (`test cnt, cnt; je done`).
    pub(crate) fn rest_entry(&mut self, rest: Label, cnt: Gpr, done: Label) -> Result<()> {
        self.e.bind(rest)?;
        self.e.test(g(cnt), g(cnt))?;
        self.e.jcc(Cond::E, done);
        Ok(())
    }

    /// The four lanes of `v` to `[d]`, `[d + w]`, `[d + 2w]`, `[d + 3w]`
    /// (`vunpckhpd` brings lane 1 down, `vperm2f128` the upper half).
    fn store_lanes(&mut self, v: u8, d: Gpr, w: i32) -> Result<()> {
        let (t, u) = (self.vreg()?, self.vreg()?);
        self.e.vstore(Width::Scalar, Mem::base(d), v);
        self.e.vunpck(true, t, v, v);
        self.e.vstore(Width::Scalar, Mem::base(d).disp(w), t);
        self.e.vperm2f128(u, v, v, 0x11);
        self.e.vstore(Width::Scalar, Mem::base(d).disp(2 * w), u);
        self.e.vunpck(true, t, u, u);
        self.e.vstore(Width::Scalar, Mem::base(d).disp(3 * w), t);
        self.vfree(t);
        self.vfree(u);
        Ok(())
    }

    /// The full panels of a unit-stride access, row by row: for each `k`,
    /// the block's row (`count` consecutive doubles, whole panels only)
    /// copied 8 doubles at a time into panel after panel (`stride` bytes
    /// apart), so that the source is read in order (a panel at a time
    /// would read `kc` rows far apart per panel: a new line and page per
    /// load, which the hardware prefetchers do not follow). Leaves
    /// `el` and the panel pointer `qp` after the last full panel.
    fn copy_rows(&mut self, ai: usize, p: &Pack, (qp, el): (i32, i32)) -> Result<()> {
        let s = p.s;
        let full = self.new_slot(8)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(s.count)))?;
        self.e.shr(t, 3);
        self.e.mov(q(slot(full)), g(t))?;
        self.free(t);
        let done = self.e.label();
        self.e.cmp(q(slot(full)), imm(0))?;
        self.e.jcc(Cond::E, done);
        self.side_point(p, el)?;
        let (src_row, so) = self.access_pointer(ai, p)?;
        let (dst_row, n, src, dst, m) = (
            self.temp()?,
            self.temp()?,
            self.temp()?,
            self.temp()?,
            self.temp()?,
        );
        self.e.mov(g(dst_row), q(slot(qp)))?;
        self.e.mov(g(n), q(slot(p.kc)))?;
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
    pub(crate) fn side_point(&mut self, p: &Pack, el: i32) -> Result<()> {
        let (s, c) = (p.s, p.c);
        self.set_sum(p.var[s.role], &[p.lo[s.role], s.off, el])?;
        self.set_sum(p.var[c.k], &[p.lo[c.k], p.pc])?;
        self.set_sum(p.var[s.other], &[p.lo[s.other]])
    }

    /// A pointer to access `ai` (an array's) at the current point and its
    /// step in bytes per `k`.
    fn access_pointer(&mut self, ai: usize, p: &Pack) -> Result<(Gpr, Operand)> {
        let c = p.c;
        let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
            return Err(Error::Internal("packed scalar".into()));
        };
        self.k_pointer(sl, &p.lins[&ai], &c.its[c.k])
    }

    /// A pointer to the element of array slot `sl` at offset `l` (current
    /// iterators) and its step in bytes when `k_it` advances by one.
    pub(crate) fn k_pointer(&mut self, sl: usize, l: &Lin, k_it: &str) -> Result<(Gpr, Operand)> {
        let off = self.lin_value(l)?;
        let p = self.temp()?;
        self.e.mov(g(p), q(arg(sl)))?;
        self.e.lea(p, Mem::sib(p, off, Scale::X8, 0)?);
        self.free(off);
        let step = l
            .coeff(k_it)
            .scale(8)
            .ok_or_else(|| Error::Unsupported("stride overflow".into()))?;
        Ok((p, self.inv(&step)?))
    }

    /// The access `e` is, when it is one whose consecutive elements along
    /// the side's role are consecutive in memory (a panel row is then one
    /// copy of [`NR`] doubles).
    fn unit_access(&self, e: &Expr, p: &Pack) -> Option<usize> {
        let Expr::Access(ai) = e else { return None };
        let l = p.lins.get(ai)?;
        let s = p.s;
        (s.width == NR && !s.negate && l.coeff(&p.c.its[s.role]).as_const() == Some(1))
            .then_some(*ai)
    }

    /// A full panel of a unit-stride access: `kc` rows of [`NR`] doubles
    /// copied with two `ymm` loads and stores each (bit-exact); skipped to
    /// the element loop `generic` when fewer than [`NR`] elements are left.
    fn copy_panel(
        &mut self,
        ai: usize,
        p: &Pack,
        (qp, el): (i32, i32),
        panel_end: Label,
        generic: Label,
    ) -> Result<()> {
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(p.s.count)))?;
        self.e.sub(g(t), q(slot(el)))?;
        self.e.cmp(g(t), imm(NR))?;
        self.free(t);
        self.e.jcc(Cond::L, generic);
        self.side_point(p, el)?;
        let (src, so) = self.access_pointer(ai, p)?;
        let (d, n) = (self.temp()?, self.temp()?);
        self.e.mov(g(d), q(slot(qp)))?;
        self.e.mov(g(n), q(slot(p.kc)))?;
        let top = self.e.label();
        self.e.bind(top)?;
        self.e.vload(Width::Vec4, 0, Mem::base(src));
        self.e.vload(Width::Vec4, 1, Mem::base(src).disp(32));
        self.e.vstore(Width::Vec4, Mem::base(d), 0);
        self.e.vstore(Width::Vec4, Mem::base(d).disp(32), 1);
        self.e.add(g(d), imm(NR * 8))?;
        self.e.add(g(src), so)?;
        self.e.sub(g(n), imm(1))?;
        self.e.jcc(Cond::Ne, top);
        self.e.mov(g(n), q(slot(el)))?;
        self.e.add(g(n), imm(NR))?;
        self.e.mov(q(slot(el)), g(n))?;
        for r in [src, d, n] {
            self.free(r);
        }
        self.e.jmp(panel_end);
        Ok(())
    }
}
