//! A full panel of a packed side ([`crate::pack`]) four `k` at a time
//! across its rows: each row (or column) of the panel evaluated along `k`
//! in a `ymm` register (lane by lane the statement's scalar operations, no
//! contraction: bit for bit the scalar values), the rows transposed in
//! groups of four (`vunpcklpd`/`vunpckhpd`, then `vperm2f128`) into whole
//! `k` steps of the panel, each stored with one `ymm` store, and a
//! remaining pair of rows (the `a` side's six: four and two) with one
//! `xmm` store per step: per four steps of a six-row panel eight stores
//! instead of twenty-four scalar ones, the panel written in order, and the
//! rows of the side read side by side. The last `kc % 4` steps run the
//! scalar code row by row. Used when every access of the side's
//! expression is unit-stride along `k` or invariant along both `k` and
//! the side's role (then computed once per panel, in a register).

use codegen_x86::{Cond, Gpr, Label, Mem, Scale};
use scop::model::Expr;

use crate::body::{key, vectorizable, Call, Inner};
use crate::emit::{g, imm, q, Operand, VSrc, Width};
use crate::error::{Error, Result};
use crate::kernel::Storage;
use crate::pack::Pack;
use crate::state::{slot, State};

/// The pointer of one access moving along `k`: `base` at the panel's
/// first row and the current step, `cur` at the row being evaluated,
/// `row` the distance of two rows in bytes, and, while registers last,
/// `ahead` holding the distance to the same element of the next panel
/// (prefetched as this one is packed).
struct RowPointer {
    base: Gpr,
    cur: Gpr,
    row: Operand,
    ahead: Option<Gpr>,
}

/// What a side's expression needs for packing by panel: the accesses that
/// move with `k` and the sub-expressions computed once per panel.
pub(crate) struct PanelPlan<'e> {
    moving: Vec<usize>,
    hoist: Vec<(usize, &'e Expr)>,
}

impl State<'_> {
    /// The plan for packing `e` (side `p`) by panel, when it applies: a
    /// side of an even width, `e` with four-wide forms, each of its array
    /// accesses unit-stride along `k` or invariant along both `k` and the
    /// side's role, and registers for the hoisted parts, six values and
    /// the pointers.
    pub(crate) fn panel_plan<'e>(&self, e: &'e Expr, p: &Pack) -> Option<PanelPlan<'e>> {
        let (s, c) = (p.s, p.c);
        if s.width < 4 || s.width % 2 != 0 || !vectorizable(e) {
            return None;
        }
        let (k_it, role_it) = (&c.its[c.k], &c.its[s.role]);
        let mut accesses = Vec::new();
        crate::contract::walk_accesses(e, &mut |k| accesses.push(k));
        accesses.sort_unstable();
        accesses.dedup();
        let mut moving = Vec::new();
        for &ai in &accesses {
            let Some(l) = p.lins.get(&ai) else { continue };
            let (along_k, along_role) = (l.coeff(k_it), l.coeff(role_it));
            if along_k.as_const() == Some(1) {
                moving.push(ai);
            } else if !(along_k.is_zero() && along_role.is_zero()) {
                return None;
            }
        }
        let k_inv = |ai: usize| p.lins.get(&ai).is_none_or(|l| l.coeff(k_it).is_zero());
        let mut hoist = Vec::new();
        crate::nest::collect_invariants(e, &k_inv, 0, &mut hoist);
        let fits =
            self.free_vregs() >= hoist.len() + 10 && self.free_gprs() >= 2 * moving.len() + 4;
        fits.then_some(PanelPlan { moving, hoist })
    }

    /// Packs the panel at `qp` (its first element `el`) when a full one is
    /// left (else jumps to `generic`, the element loop), then advances `el`
    /// by the width and jumps to `panel_end`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pack_panel(
        &mut self,
        e: &Expr,
        call: &Call,
        p: &Pack,
        plan: &PanelPlan,
        (qp, el): (i32, i32),
        panel_end: Label,
        generic: Label,
    ) -> Result<()> {
        let s = p.s;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(s.count)))?;
        self.e.sub(g(t), q(slot(el)))?;
        self.e.cmp(g(t), imm(s.width))?;
        self.free(t);
        self.e.jcc(Cond::L, generic);
        self.side_point(p, el)?;
        let rows = self.row_pointers(p, plan)?;
        let mut held = Vec::new();
        for (_, h) in &plan.hoist {
            let v = self.dval(call, h, Width::Scalar)?;
            self.e.vbroadcast_reg(v, v);
            self.inner_mut()?.hoisted.insert((0, key(h)), v);
            held.push(v);
        }
        let (d, cnt) = (self.temp()?, self.temp()?);
        self.e.mov(g(d), q(slot(qp)))?;
        self.e.mov(g(cnt), q(slot(p.kc)))?;
        let (top, rest, lp, done) = (
            self.e.label(),
            self.e.label(),
            self.e.label(),
            self.e.label(),
        );
        let ws = s.width as i32 * 8;
        self.e.cmp(g(cnt), imm(4))?;
        self.e.jcc(Cond::L, rest);
        self.e.bind(top)?;
        let mut r0 = 0;
        while r0 < s.width {
            let n = if s.width - r0 >= 4 { 4 } else { 2 };
            let mut v = Vec::new();
            for r in r0..r0 + n {
                self.at_row(&rows, r, true)?;
                v.push(self.panel_value(call, e, p, Width::Vec4)?);
            }
            let at = Mem::base(d).disp(r0 as i32 * 8);
            if n == 4 {
                self.store_four(&v, at, ws)?;
            } else {
                self.store_two(&v, at, ws)?;
            }
            for x in v {
                self.vfree(x);
            }
            r0 += n;
        }
        self.e.add(g(d), imm(4 * s.width * 8))?;
        for r in &rows {
            self.e.add(g(r.base), imm(32))?;
        }
        self.latch_four(cnt, top)?;
        // the last kc % 4 steps, row by row
        self.rest_entry(rest, cnt, done)?;
        self.e.bind(lp)?;
        for r in 0..s.width {
            self.at_row(&rows, r, false)?;
            let v = self.panel_value(call, e, p, Width::Scalar)?;
            self.e
                .vstore(Width::Scalar, Mem::base(d).disp(r as i32 * 8), v);
            self.vfree(v);
        }
        self.e.add(g(d), imm(s.width * 8))?;
        for r in &rows {
            self.e.add(g(r.base), imm(8))?;
        }
        self.e.sub(g(cnt), imm(1))?;
        self.e.jcc(Cond::Ne, lp);
        self.e.bind(done)?;
        self.inner = None;
        for v in held {
            self.vfree(v);
        }
        for r in rows {
            self.free(r.base);
            self.free(r.cur);
            if let Some(a) = r.ahead {
                self.free(a);
            }
            if let Operand::Gpr(x) = r.row {
                self.free(x);
            }
        }
        self.e.mov(g(cnt), q(slot(el)))?;
        self.e.add(g(cnt), imm(s.width))?;
        self.e.mov(q(slot(el)), g(cnt))?;
        self.free(cnt);
        self.free(d);
        self.e.jmp(panel_end);
        Ok(())
    }

    /// The pointers of the moving accesses at the panel's first row and
    /// step (the current point), entered in a new innermost-loop state.
    fn row_pointers(&mut self, p: &Pack, plan: &PanelPlan) -> Result<Vec<RowPointer>> {
        let c = p.c;
        let (k_it, role_it) = (&c.its[c.k], &c.its[p.s.role]);
        let mut inner = Inner::default();
        let mut rows = Vec::new();
        for &ai in &plan.moving {
            let l = &p.lins[&ai];
            let Storage::Slot(sl) = self.k.arrays[&c.stmt.accesses[ai].array].storage else {
                return Err(Error::Internal("packed scalar".into()));
            };
            let (base, _) = self.k_pointer(sl, l, k_it)?;
            let along = l.coeff(role_it);
            let stride = |k: i64| {
                along
                    .scale(k)
                    .ok_or_else(|| Error::Unsupported("stride overflow".into()))
            };
            let mut row = self.inv(&stride(8)?)?;
            if matches!(row, Operand::Mem(..)) && self.free_gprs() > 6 {
                let r = self.temp()?;
                self.e.mov(g(r), row)?;
                row = g(r);
            }
            let cur = self.temp()?;
            inner.ptr.insert((0, ai), (cur, 0));
            let ahead = if !along.is_zero() && self.free_gprs() > 6 {
                let o = self.inv(&stride(8 * p.s.width)?)?;
                let a = self.temp()?;
                match o {
                    Operand::Imm(v) => self.e.mov_imm(a, v),
                    o => self.e.mov(g(a), o)?,
                }
                Some(a)
            } else {
                None
            };
            rows.push(RowPointer {
                base,
                cur,
                row,
                ahead,
            });
        }
        self.inner = Some(inner);
        Ok(rows)
    }

    /// Moves the cursors to row `r` (from row `r - 1`, or to the first),
    /// prefetching the same place of the next panel when `prefetch`.
    fn at_row(&mut self, rows: &[RowPointer], r: i64, prefetch: bool) -> Result<()> {
        for x in rows {
            if r == 0 {
                self.e.mov(g(x.cur), g(x.base))?;
            } else if x.row != imm(0) {
                self.e.add(g(x.cur), x.row)?;
            }
            if let (true, Some(a)) = (prefetch, x.ahead) {
                self.e.prefetch(Mem::sib(x.cur, a, Scale::X1, 0)?);
            }
        }
        Ok(())
    }

    /// The side's value at the cursors (four `k` or one), negated for a
    /// side that is subtracted.
    fn panel_value(&mut self, call: &Call, e: &Expr, p: &Pack, w: Width) -> Result<u8> {
        let v = self.dval(call, e, w)?;
        if p.s.negate {
            let m = self.constant((-0.0f64).to_bits())?;
            self.e.vxor(w, v, v, VSrc::Mem(m));
        }
        Ok(v)
    }

    /// Four rows' values at four `k` (`v[r]` lane `j`: row `r`, step `j`)
    /// stored as the four steps' rows: step `j` at `at + j·ws`. Clobbers `v`.
    fn store_four(&mut self, v: &[u8], at: Mem, ws: i32) -> Result<()> {
        let (u0, u1) = (self.vreg()?, self.vreg()?);
        // u0 = (r0k0 r1k0 | r0k2 r1k2), u1 = (r0k1 r1k1 | r0k3 r1k3), and
        // v0, v1 the same of rows 2 and 3
        self.e.vunpck(false, u0, v[0], v[1]);
        self.e.vunpck(true, u1, v[0], v[1]);
        self.e.vunpck(false, v[0], v[2], v[3]);
        self.e.vunpck(true, v[1], v[2], v[3]);
        for (j, (a, b, sel)) in [
            (u0, v[0], 0x20),
            (u1, v[1], 0x20),
            (u0, v[0], 0x31),
            (u1, v[1], 0x31),
        ]
        .into_iter()
        .enumerate()
        {
            let x = v[2 + j % 2];
            self.e.vperm2f128(x, a, b, sel);
            self.e
                .vstore(Width::Vec4, at.disp(at.displacement() + j as i32 * ws), x);
        }
        self.vfree(u0);
        self.vfree(u1);
        Ok(())
    }

    /// Two rows' values at four `k` stored as the four steps' pairs (one
    /// `xmm` store each). Clobbers `v`.
    fn store_two(&mut self, v: &[u8], at: Mem, ws: i32) -> Result<()> {
        let (u0, u1) = (self.vreg()?, self.vreg()?);
        self.e.vunpck(false, u0, v[0], v[1]);
        self.e.vunpck(true, u1, v[0], v[1]);
        self.e.vstore_pair(at, u0);
        self.e.vstore_pair(at.disp(at.displacement() + ws), u1);
        self.e.vperm2f128(v[0], u0, u0, 0x11);
        self.e.vperm2f128(v[1], u1, u1, 0x11);
        self.e
            .vstore_pair(at.disp(at.displacement() + 2 * ws), v[0]);
        self.e
            .vstore_pair(at.disp(at.displacement() + 3 * ws), v[1]);
        self.vfree(u0);
        self.vfree(u1);
        Ok(())
    }
}
