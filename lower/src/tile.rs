//! Register and cache tiling of a contraction ([`crate::contract`]):
//! `C[i][j] = C[i][j] + a(i, k) * b(k, j)` over a box of `(i, j, k)`.
//!
//! The loops are those of a BLIS-style gemm: `j` in blocks of `NC`, `k`
//! in blocks of `KC` (the `b` side of the block is packed into panels of
//! [`NR`] columns, `k`-major: `Bp[panel][p][0..8]`), `i` in blocks of
//! `MC` (the `a` side packed into panels of [`MR`] rows:
//! `Ap[panel][p][0..6]`), then every `MR × NR` tile of the block: its
//! twelve `ymm` accumulators are loaded from `C`, take one
//! `vfmadd231pd` per `(row, half)` and `k` (two panel loads, six
//! broadcasts per step, the `k` loop unrolled four times) and are stored
//! back. Tiles at the edges of the box run the same kernel on a copy of
//! their valid part in the frame. Panels are padded with zeros. The block
//! sizes follow the host's caches ([`crate::blocking`]); when less than two
//! blocks' depth is left, it is split in halves (`K = 400` at `KC` = 384:
//! 200 + 200, not 384 + 16).
//!
//! Prefetch: each step prefetches each line of the `a` panel [`A_AHEAD`]
//! bytes on (the `a` block streams from the second level); in the first
//! tile of a column of tiles, which finds its `b` panel in the outer
//! caches, each step of the unrolled loop also prefetches the `b` panel's
//! line [`B_AHEAD`] bytes on and the same line of the next column's `b`
//! panel into the second-level cache (a second copy of the loop, entered
//! when the distance, in a register, is not zero; the other tiles find
//! the `b` panel in the first level and prefetch none of it). The next tile of `C`
//! (below, or the first of the next column of tiles) goes into the
//! second-level cache before the `k` loop and into the first [`C_AHEAD`]
//! steps before its end: with rows `ldc` a multiple of 4 KiB apart (gemm
//! at 1024) all tiles of a column share one set of the first-level cache,
//! so a tile prefetched there a whole tile earlier evicted the panels'
//! lines and was itself evicted before its loads.
//!
//! Exactness: packing evaluates `a` and `b` with the statement's own
//! scalar code (bit for bit the interpreter's values); each element of `C`
//! then receives its terms in the original `k` order, each as one fused
//! multiply-add `c = fma(a, b, c)` (`c - a*b` as `fma(-a, b, c)`): the
//! only difference from the interpreter is the single rounding of the
//! FMA (the crate's documented tolerance, a relative 1e-9 on checksums).
//! The packing buffers live in a per-worker workspace passed in the
//! argument vector ([`crate::Compiled::workspace`]); the packing loops
//! are in [`crate::pack`].

use std::collections::HashMap;

use codegen_x86::{Cond, Gpr, Mem, Scale};
use scop::model::Expr;

use crate::blocking::{Blocking, B_PAD};
use crate::body::Call;
use crate::contract::Contraction;
use crate::emit::{g, imm, q, Operand, VSrc, Width};
use crate::error::Result;
use crate::kernel::Storage;
use crate::linear::Lin;
use crate::pack::{Pack, Side};
use crate::state::{arg, slot, Loc, State};

/// Rows of a register tile.
pub const MR: i64 = 6;
/// Columns of a register tile (two `ymm`).
pub const NR: i64 = 8;
/// How far ahead (bytes) the micro-kernel prefetches its `a` and `b`
/// panels (32 steps of the `k` loop).
const A_AHEAD: i32 = 2048;
/// See [`A_AHEAD`].
const B_AHEAD: i32 = 2048;

/// Steps before the end of a tile's `k` loop at which the next tile of `C`
/// is prefetched into the first-level cache.
const C_AHEAD: i64 = 32;

/// `k` steps per trip of the micro-kernel's main loop.
const UNROLL: i32 = 4;

fn acc(r: i64, half: i64) -> u8 {
    (2 * r + half) as u8
}

impl State<'_> {
    /// Lowers the contraction `c` whose outer loop's iterator is at `first`
    /// and runs while `it op bound`; false (nothing emitted) when the
    /// registers it needs are taken.
    pub(crate) fn contraction(
        &mut self,
        c: &Contraction,
        first: Loc,
        op: ast::CmpOp,
        bound: Operand,
    ) -> Result<bool> {
        let Loc::Slot(s0) = first else {
            return Ok(false);
        };
        if self.free_vregs() < 16 || self.free_gprs() < 9 {
            return Ok(false);
        }
        let (s1, s2) = (self.new_slot(8)?, self.new_slot(8)?);
        self.vars.push((c.its[1].clone(), Loc::Slot(s1)));
        self.vars.push((c.its[2].clone(), Loc::Slot(s2)));
        let call = Call {
            stmt: c.stmt,
            args: &c.args,
        };
        let mut lins: HashMap<usize, Lin> = HashMap::new();
        let mut ok = true;
        for ai in 0..c.stmt.accesses.len() {
            let a = &c.stmt.accesses[ai];
            match self.k.arrays[&a.array].storage {
                Storage::Slot(_) => match self.access_lin(&call, ai) {
                    Some(l) => {
                        lins.insert(ai, l);
                    }
                    None => ok = false,
                },
                Storage::Scalar { .. } => {}
            }
        }
        let target = match &c.stmt.body {
            Expr::Assign { target, .. } if ok && lins.contains_key(target) => *target,
            _ => return self.contraction_end(false),
        };
        self.tiled(c, &call, &lins, target, [s0, s1, s2], op, bound)?;
        let bl = Blocking::host();
        self.notes.push(format!(
            "loop {}: contraction {}: packed panels, {MR}×{NR} FMA register tiles (blocks {}×{}×{})",
            c.its[0], c.stmt.name, bl.mc, bl.kc, bl.nc
        ));
        self.contraction_end(true)
    }

    fn contraction_end(&mut self, done: bool) -> Result<bool> {
        self.vars.pop();
        self.vars.pop();
        Ok(done)
    }

    /// `N` new 8-byte frame slots.
    pub(crate) fn slots<const N: usize>(&mut self) -> Result<[i32; N]> {
        let mut out = [0; N];
        for s in out.iter_mut() {
            *s = self.new_slot(8)?;
        }
        Ok(out)
    }

    /// `[dst] = Σ [parts]` (frame slots).
    pub(crate) fn set_sum(&mut self, dst: i32, parts: &[i32]) -> Result<()> {
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(parts[0])))?;
        for p in &parts[1..] {
            self.e.add(g(t), q(slot(*p)))?;
        }
        self.e.mov(q(slot(dst)), g(t))?;
        self.free(t);
        Ok(())
    }

    /// `[dst] = min(cap, [n] - [x])`.
    fn set_min_rest(&mut self, dst: i32, cap: i64, n: i32, x: i32) -> Result<()> {
        let (t, u) = (self.temp()?, self.temp()?);
        self.e.mov(g(t), q(slot(n)))?;
        self.e.sub(g(t), q(slot(x)))?;
        self.e.mov_imm(u, cap);
        self.store_min(dst, t, u)
    }

    /// `[dst] = min(t, u)`; frees both.
    fn store_min(&mut self, dst: i32, t: Gpr, u: Gpr) -> Result<()> {
        self.e.cmp(g(t), g(u))?;
        self.e.cmov(Cond::G, t, u);
        self.e.mov(q(slot(dst)), g(t))?;
        self.free(t);
        self.free(u);
        Ok(())
    }

    /// `[dst] = min(KC, [n] - [x])`, or half of `[n] - [x]` (rounded up)
    /// when that lies between `KC` and `2·KC`: the last two blocks of
    /// equal depth.
    fn set_k_block(&mut self, dst: i32, n: i32, x: i32) -> Result<()> {
        let kc = Blocking::host().kc;
        let (t, u) = (self.temp()?, self.temp()?);
        let done = self.e.label();
        self.e.mov(g(t), q(slot(n)))?;
        self.e.sub(g(t), q(slot(x)))?;
        self.e.mov_imm(u, kc);
        self.e.cmp(g(t), imm(kc))?;
        self.e.jcc(Cond::Le, done);
        self.e.cmp(g(t), imm(2 * kc))?;
        self.e.jcc(Cond::Ge, done);
        self.e.add(g(t), imm(1))?;
        self.e.shr(t, 1);
        self.e.mov(g(u), g(t))?;
        self.e.bind(done)?;
        self.store_min(dst, t, u)
    }

    pub(crate) fn zero_slot(&mut self, s: i32) -> Result<()> {
        self.e.mov(q(slot(s)), imm(0))
    }

    /// `[s] += v; cmp [s], [limit]; jl top`.
    fn step_slot(&mut self, s: i32, v: i64, limit: i32, top: codegen_x86::Label) -> Result<()> {
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(s)))?;
        self.e.add(g(t), imm(v))?;
        self.e.mov(q(slot(s)), g(t))?;
        self.e.cmp(g(t), q(slot(limit)))?;
        self.e.jcc(Cond::L, top);
        self.free(t);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn tiled(
        &mut self,
        c: &Contraction,
        call: &Call,
        lins: &HashMap<usize, Lin>,
        target: usize,
        var: [i32; 3],
        op: ast::CmpOp,
        bound: Operand,
    ) -> Result<()> {
        let (lo, n): ([i32; 3], [i32; 3]) = (self.slots()?, self.slots()?);
        let exit = self.e.label();
        // ranges: the outer loop's from its iterator and bound, the inner
        // ones evaluated here (they do not depend on the nest)
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(var[0])))?;
        self.e.mov(q(slot(lo[0])), g(t))?;
        self.e.mov(g(t), bound)?;
        if op == ast::CmpOp::Le {
            self.e.add(g(t), imm(1))?;
        }
        self.e.sub(g(t), q(slot(lo[0])))?;
        self.e.mov(q(slot(n[0])), g(t))?;
        self.free(t);
        for m in 0..2 {
            let (r, u) = if c.tri && m + 1 == c.j {
                self.j_box(c, var, &lo, &n)?
            } else {
                (self.ival(&c.inits[m])?, self.ival(&c.lasts[m])?)
            };
            self.e.mov(q(slot(lo[m + 1])), g(r))?;
            self.e.mov(q(slot(var[m + 1])), g(r))?;
            self.e.sub(g(u), g(r))?;
            self.e.add(g(u), imm(1))?;
            self.e.mov(q(slot(n[m + 1])), g(u))?;
            self.free(u);
            self.free(r);
            self.e.cmp(q(slot(n[m + 1])), imm(0))?;
            self.e.jcc(Cond::Le, exit);
        }
        let (ri, rj, rk) = (c.i, c.j, c.k);
        let [jc, nc, pc, kc, ic, mc] = self.slots()?;
        let [kc48, kc64] = self.slots()?;
        self.wide = true;
        let bl = Blocking::host();
        self.workspace = self.workspace.max(bl.workspace());
        let ws = self.k.workspace_slot();
        // for j, for k: pack b; for i: pack a, tiles
        self.zero_slot(jc)?;
        let ljc = self.e.label();
        self.e.bind(ljc)?;
        self.set_min_rest(nc, bl.nc, n[rj], jc)?;
        self.zero_slot(pc)?;
        let lpc = self.e.label();
        self.e.bind(lpc)?;
        self.set_k_block(kc, n[rk], pc)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(kc)))?;
        self.e.imul_imm(t, t, 48)?;
        self.e.mov(q(slot(kc48)), g(t))?;
        self.e.mov(g(t), q(slot(kc)))?;
        self.e.shl(t, 6);
        self.e.add(g(t), imm(B_PAD))?;
        self.e.mov(q(slot(kc64)), g(t))?;
        self.free(t);
        let side = Side {
            role: rj,
            other: ri,
            off: jc,
            count: nc,
            width: NR,
            base: 0,
            stride: kc64,
            negate: false,
            rowwise: true,
        };
        let run = Pack::new(&side, c, lins, (&var, &lo), (pc, kc));
        self.pack(c.b, call, &run, ws)?;
        self.zero_slot(ic)?;
        let lic = self.e.label();
        self.e.bind(lic)?;
        self.set_min_rest(mc, bl.mc, n[ri], ic)?;
        let side = Side {
            role: ri,
            other: rj,
            off: ic,
            count: mc,
            width: MR,
            base: i32::try_from(bl.a_base())
                .map_err(|_| crate::error::Error::Internal("workspace offset".into()))?,
            stride: kc48,
            negate: c.negate,
            rowwise: false,
        };
        let run = Pack::new(&side, c, lins, (&var, &lo), (pc, kc));
        self.pack(c.a, call, &run, ws)?;
        let blk = Block {
            ic,
            mc,
            jc,
            nc,
            kc,
            kc48,
            kc64,
        };
        self.tiles(c, lins, target, &var, &lo, &blk, ws)?;
        self.step_slot(ic, bl.mc, n[ri], lic)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(pc)))?;
        self.e.add(g(t), q(slot(kc)))?;
        self.e.mov(q(slot(pc)), g(t))?;
        self.e.cmp(g(t), q(slot(n[rk])))?;
        self.e.jcc(Cond::L, lpc);
        self.free(t);
        self.step_slot(jc, bl.nc, n[rj], ljc)?;
        self.e.bind(exit)
    }

    /// Every `MR × NR` tile of the block.
    #[allow(clippy::too_many_arguments)]
    fn tiles(
        &mut self,
        c: &Contraction,
        lins: &HashMap<usize, Lin>,
        target: usize,
        var: &[i32; 3],
        lo: &[i32; 3],
        blk: &Block,
        ws: usize,
    ) -> Result<()> {
        let clin = &lins[&target];
        let Storage::Slot(csl) = self.k.arrays[&c.stmt.accesses[target].array].storage else {
            return Err(crate::error::Error::Internal("contraction target".into()));
        };
        let ldc = clin
            .coeff(&c.its[c.i])
            .scale(8)
            .ok_or_else(|| crate::error::Error::Unsupported("stride overflow".into()))?;
        let ldc = self.inv(&ldc)?;
        let [jr, ir, aq, bq, rows, cols, cptr] = self.slots()?;
        let [ccol, cnext, bnext] = self.slots()?;
        let jabs = self.new_slot(8)?;
        let ranges: Vec<(i32, i32)> = (0..MR)
            .map(|_| Ok((self.new_slot(8)?, self.new_slot(8)?)))
            .collect::<Result<_>>()?;
        let tmp = self.new_slot(32)?;
        for _ in 1..(MR * NR * 8 / 32) {
            self.new_slot(32)?;
        }
        let t = self.temp()?;
        self.zero_slot(jr)?;
        self.e.mov(g(t), q(arg(ws)))?;
        self.e.mov(q(slot(bq)), g(t))?;
        self.free(t);
        let (ljr, lir, edge, next) = (
            self.e.label(),
            self.e.label(),
            self.e.label(),
            self.e.label(),
        );
        self.e.bind(ljr)?;
        self.zero_slot(ir)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(arg(ws)))?;
        self.e.add(g(t), imm(Blocking::host().a_base()))?;
        self.e.mov(q(slot(aq)), g(t))?;
        self.free(t);
        self.e.bind(lir)?;
        self.set_sum(var[c.i], &[lo[c.i], blk.ic, ir])?;
        self.set_sum(var[c.j], &[lo[c.j], blk.jc, jr])?;
        self.set_sum(var[c.k], &[lo[c.k]])?;
        let off = self.lin_value(clin)?;
        let p = self.temp()?;
        self.e.mov(g(p), q(arg(csl)))?;
        self.e.lea(p, Mem::sib(p, off, Scale::X8, 0)?);
        self.free(off);
        self.e.mov(q(slot(cptr)), g(p))?;
        self.next_tile(p, &ldc, ir, blk.mc, ccol, cnext)?;
        // the first tile of a column of tiles brings the next column's `b`
        // panel into the second-level cache; the others re-touch their own
        let first = self.e.label();
        self.zero_slot(bnext)?;
        self.e.cmp(q(slot(ir)), imm(0))?;
        self.e.jcc(Cond::Ne, first);
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(blk.kc64)))?;
        self.e.mov(q(slot(bnext)), g(t))?;
        self.free(t);
        self.e.bind(first)?;
        self.set_min_rest(rows, MR, blk.mc, ir)?;
        self.set_min_rest(cols, NR, blk.nc, jr)?;
        self.e.cmp(q(slot(rows)), imm(MR))?;
        self.e.jcc(Cond::L, edge);
        self.e.cmp(q(slot(cols)), imm(NR))?;
        self.e.jcc(Cond::L, edge);
        let i0 = [lo[c.i], blk.ic, ir];
        if c.tri {
            // every row of the tile has all its columns: the first and
            // the last row suffice (the bounds are affine in i)
            self.set_sum(jabs, &[lo[c.j], blk.jc, jr])?;
            for roff in [0, MR - 1] {
                self.row_var(var[c.i], &i0, roff)?;
                let (m, _) = self.j_bounds(c)?;
                let (r, u) = (self.ival(&c.inits[m])?, self.ival(&c.lasts[m])?);
                self.e.cmp(g(r), q(slot(jabs)))?;
                self.e.jcc(Cond::G, edge);
                self.e.sub(g(u), imm(NR - 1))?;
                self.e.cmp(g(u), q(slot(jabs)))?;
                self.e.jcc(Cond::L, edge);
                self.free(r);
                self.free(u);
            }
        }
        self.micro_kernel(p, ldc, (aq, bq, bnext), blk.kc, (cnext, ldc))?;
        self.e.jmp(next);
        // an edge tile: the valid part of each row copied to the frame and
        // back (nothing when no row has any)
        self.e.bind(edge)?;
        if c.tri {
            self.set_sum(jabs, &[lo[c.j], blk.jc, jr])?;
        }
        let total = self.row_ranges(c, var, &i0, jabs, rows, cols, &ranges)?;
        self.e.test(g(total), g(total))?;
        self.free(total);
        self.e.jcc(Cond::E, next);
        self.e.vxor(Width::Vec4, 0, 0, VSrc::Reg(0));
        for r in 0..(MR * NR * 8 / 32) as i32 {
            self.e.vstore(Width::Vec4, slot(tmp + 32 * r), 0);
        }
        self.copy_edge(p, tmp, ldc, &ranges, true)?;
        let tp = self.temp()?;
        self.e.lea(tp, slot(tmp));
        self.micro_kernel(tp, imm(NR * 8), (aq, bq, bnext), blk.kc, (cnext, ldc))?;
        self.free(tp);
        self.e.mov(g(p), q(slot(cptr)))?;
        self.copy_edge(p, tmp, ldc, &ranges, false)?;
        self.e.bind(next)?;
        self.free(p);
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(aq)))?;
        self.e.add(g(t), q(slot(blk.kc48)))?;
        self.e.mov(q(slot(aq)), g(t))?;
        self.free(t);
        self.step_slot(ir, MR, blk.mc, lir)?;
        let t = self.temp()?;
        self.e.mov(g(t), q(slot(bq)))?;
        self.e.add(g(t), q(slot(blk.kc64)))?;
        self.e.mov(q(slot(bq)), g(t))?;
        self.free(t);
        self.step_slot(jr, NR, blk.nc, ljr)?;
        Ok(())
    }

    /// Copies columns `[ra, rb)` of each row of the tile at `c` (rows
    /// `ldc` bytes apart; `ranges` holds the slots of `ra` and `rb` per row)
    /// to the frame tile at `tmp` (rows 64 bytes apart), or back. Moves `c`.
    fn copy_edge(
        &mut self,
        c: Gpr,
        tmp: i32,
        ldc: Operand,
        ranges: &[(i32, i32)],
        into: bool,
    ) -> Result<()> {
        let (t, k) = (self.temp()?, self.temp()?);
        self.e.lea(t, slot(tmp));
        for (r, (ra, rb)) in ranges.iter().enumerate() {
            let (lc, done) = (self.e.label(), self.e.label());
            self.e.mov(g(k), q(slot(*ra)))?;
            self.e.cmp(g(k), q(slot(*rb)))?;
            self.e.jcc(Cond::Ge, done);
            self.e.bind(lc)?;
            let (src, dst) = if into {
                (Mem::sib(c, k, Scale::X8, 0)?, Mem::sib(t, k, Scale::X8, 0)?)
            } else {
                (Mem::sib(t, k, Scale::X8, 0)?, Mem::sib(c, k, Scale::X8, 0)?)
            };
            self.e.vload(Width::Scalar, 0, src);
            self.e.vstore(Width::Scalar, dst, 0);
            self.e.add(g(k), imm(1))?;
            self.e.cmp(g(k), q(slot(*rb)))?;
            self.e.jcc(Cond::L, lc);
            self.e.bind(done)?;
            if r + 1 < ranges.len() {
                self.e.add(g(c), ldc)?;
                self.e.add(g(t), imm(NR * 8))?;
            }
        }
        self.free(t);
        self.free(k);
        Ok(())
    }

    /// `[var] = Σ i0 + off`: the iterator `i` at a row of the tile.
    fn row_var(&mut self, var: i32, i0: &[i32; 3], off: i64) -> Result<()> {
        self.set_sum(var, i0)?;
        if off != 0 {
            self.e.add(q(slot(var)), imm(off))?;
        }
        Ok(())
    }

    /// The position of the `j` loop's bounds in [`Contraction::inits`].
    fn j_bounds(&self, c: &Contraction) -> Result<(usize, ())> {
        match c.j {
            1 | 2 => Ok((c.j - 1, ())),
            _ => Err(crate::error::Error::Internal("triangular outer j".into())),
        }
    }

    /// The `j` loop's bounding box over the `i` range (both bounds affine in
    /// `i`: their extremes are at its first and last value): registers
    /// holding the least first value and the greatest last value.
    fn j_box(
        &mut self,
        c: &Contraction,
        var: [i32; 3],
        lo: &[i32; 3],
        n: &[i32; 3],
    ) -> Result<(Gpr, Gpr)> {
        let (m, _) = self.j_bounds(c)?;
        self.set_sum(var[c.i], &[lo[c.i]])?;
        let (ra, ha) = (self.ival(&c.inits[m])?, self.ival(&c.lasts[m])?);
        self.set_sum(var[c.i], &[lo[c.i], n[c.i]])?;
        self.e.sub(q(slot(var[c.i])), imm(1))?;
        let (rb, hb) = (self.ival(&c.inits[m])?, self.ival(&c.lasts[m])?);
        self.e.cmp(g(ra), g(rb))?;
        self.e.cmov(Cond::G, ra, rb);
        self.e.cmp(g(ha), g(hb))?;
        self.e.cmov(Cond::L, ha, hb);
        self.free(rb);
        self.free(hb);
        Ok((ra, ha))
    }

    /// Fills the per-row column ranges `[ra, rb)` of an edge tile (rows
    /// below `rows` are empty; a triangular nest clips each row to its own
    /// `j` bounds) and returns a register holding the number of elements.
    #[allow(clippy::too_many_arguments)]
    fn row_ranges(
        &mut self,
        c: &Contraction,
        var: &[i32; 3],
        i0: &[i32; 3],
        jabs: i32,
        rows: i32,
        cols: i32,
        ranges: &[(i32, i32)],
    ) -> Result<Gpr> {
        let total = self.temp()?;
        self.e.mov_imm(total, 0);
        for (r, (ra, rb)) in ranges.iter().enumerate() {
            let skip = self.e.label();
            self.e.mov(q(slot(*ra)), imm(0))?;
            self.e.mov(q(slot(*rb)), imm(0))?;
            self.e.cmp(q(slot(rows)), imm(r as i64))?;
            self.e.jcc(Cond::Le, skip);
            let (a, b) = if c.tri {
                self.row_var(var[c.i], i0, r as i64)?;
                let (m, _) = self.j_bounds(c)?;
                let a = self.ival(&c.inits[m])?;
                self.e.sub(g(a), q(slot(jabs)))?;
                let z = self.temp()?;
                self.e.mov_imm(z, 0);
                self.e.cmp(g(a), g(z))?;
                self.e.cmov(Cond::L, a, z);
                self.free(z);
                let b = self.ival(&c.lasts[m])?;
                self.e.sub(g(b), q(slot(jabs)))?;
                self.e.add(g(b), imm(1))?;
                let w = self.temp()?;
                self.e.mov(g(w), q(slot(cols)))?;
                self.e.cmp(g(b), g(w))?;
                self.e.cmov(Cond::G, b, w);
                self.free(w);
                self.e.cmp(g(b), g(a))?;
                self.e.cmov(Cond::L, b, a);
                (a, b)
            } else {
                let (a, b) = (self.temp()?, self.temp()?);
                self.e.mov_imm(a, 0);
                self.e.mov(g(b), q(slot(cols)))?;
                (a, b)
            };
            self.e.mov(q(slot(*ra)), g(a))?;
            self.e.mov(q(slot(*rb)), g(b))?;
            self.e.add(g(total), g(b))?;
            self.e.sub(g(total), g(a))?;
            self.free(a);
            self.free(b);
            self.e.bind(skip)?;
        }
        Ok(total)
    }

    /// The address of the tile of `C` that runs after the one at `p` (rows
    /// `ldc` bytes apart) into slot `cnext`: the one [`MR`] rows below, or,
    /// after the last row of the block (`ir + MR >= mc`), the first of the
    /// next column of tiles (slot `ccol` keeps the column's first tile).
    fn next_tile(
        &mut self,
        p: Gpr,
        ldc: &Operand,
        ir: i32,
        mc: i32,
        ccol: i32,
        cnext: i32,
    ) -> Result<()> {
        let (top, last, done) = (self.e.label(), self.e.label(), self.e.label());
        let t = self.temp()?;
        self.e.cmp(q(slot(ir)), imm(0))?;
        self.e.jcc(Cond::Ne, top);
        self.e.mov(q(slot(ccol)), g(p))?;
        self.e.bind(top)?;
        self.e.mov(g(t), q(slot(ir)))?;
        self.e.add(g(t), imm(MR))?;
        self.e.cmp(g(t), q(slot(mc)))?;
        self.e.jcc(Cond::Ge, last);
        self.e.mov(g(t), g(p))?;
        for _ in 0..MR {
            self.e.add(g(t), *ldc)?;
        }
        self.e.jmp(done);
        self.e.bind(last)?;
        self.e.mov(g(t), q(slot(ccol)))?;
        self.e.add(g(t), imm(NR * 8))?;
        self.e.bind(done)?;
        self.e.mov(q(slot(cnext)), g(t))?;
        self.free(t);
        Ok(())
    }

    /// The lines of the tile of `C` at `[next]` (rows `ld` bytes apart):
    /// each row's first and last element, into the second-level cache
    /// (`l2`) or the first. Moves `row`.
    fn prefetch_tile(&mut self, row: Gpr, (next, ld): (i32, Operand), l2: bool) -> Result<()> {
        self.e.mov(g(row), q(slot(next)))?;
        for r in 0..MR {
            for d in [0, NR as i32 * 8 - 8] {
                let m = Mem::base(row).disp(d);
                if l2 {
                    self.e.prefetch_l2(m);
                } else {
                    self.e.prefetch(m);
                }
            }
            if r + 1 < MR {
                self.e.add(g(row), ld)?;
            }
        }
        Ok(())
    }

    /// `C[6×8] (at c, rows ldc bytes apart) += Ap panel · Bp panel` over
    /// `kc` steps (the panels' addresses in slots `aq`, `bq`); `c` is kept.
    /// The next tile of `C` (`next`: its address's
    /// slot and row distance) is prefetched into the second-level cache
    /// before the `k` loop and into the first in its last [`C_AHEAD`] steps:
    /// rows of `C` a power of two apart share a set of the first-level
    /// cache, where an early prefetch would evict the panels and be evicted
    /// before its use. When slot `bn` is not zero (the distance to the next
    /// `b` panel, in the first tile of a column of tiles), each step of the
    /// unrolled loop also prefetches into the second-level cache the line
    /// `[bn]` bytes after its `b` line, so that the next column's first tile
    /// finds its panel there rather than in the third level (a second copy
    /// of the loop, chosen once per part: the other tiles pay nothing).
    fn micro_kernel(
        &mut self,
        c: Gpr,
        ldc: Operand,
        (aq, bq, bn): (i32, i32, i32),
        kc: i32,
        next: (i32, Operand),
    ) -> Result<()> {
        let (row, a, b, n) = (self.temp()?, self.temp()?, self.temp()?, self.temp()?);
        let pf = self.temp()?;
        self.e.mov(g(pf), q(slot(bn)))?;
        self.e.mov(g(row), g(c))?;
        for r in 0..MR {
            self.e.vload(Width::Vec4, acc(r, 0), Mem::base(row));
            self.e
                .vload(Width::Vec4, acc(r, 1), Mem::base(row).disp(32));
            if r + 1 < MR {
                self.e.add(g(row), ldc)?;
            }
        }
        self.prefetch_tile(row, next, true)?;
        self.e.mov(g(a), q(slot(aq)))?;
        self.e.mov(g(b), q(slot(bq)))?;
        self.e.mov(g(n), q(slot(kc)))?;
        // the panels 32 steps ahead: one line of `a` per 64 bytes (three
        // per trip of four steps), and in the first tile of a column of
        // tiles, which reads its `b` panel from the outer caches, the line
        // of `b` of every step (the other tiles find it in the first level:
        // no prefetch)
        let step = |st: &mut Self, p: i32, panel: bool| -> Result<()> {
            if p < 3 {
                st.e.prefetch(Mem::base(a).disp(64 * p + A_AHEAD));
            }
            if panel {
                st.e.prefetch(Mem::base(b).disp(64 * p + B_AHEAD));
                st.e.prefetch_l2(Mem::sib(b, pf, Scale::X1, 64 * p)?);
            }
            st.e.vload(Width::Vec4, 12, Mem::base(b).disp(64 * p));
            st.e.vload(Width::Vec4, 13, Mem::base(b).disp(64 * p + 32));
            for r in 0..MR {
                let bc = 14 + (r % 2) as u8;
                st.e.vbroadcast_mem(bc, Mem::base(a).disp(48 * p + 8 * r as i32));
                st.e.vfmadd231(Width::Vec4, acc(r, 0), bc, VSrc::Reg(12));
                st.e.vfmadd231(Width::Vec4, acc(r, 1), bc, VSrc::Reg(13));
            }
            Ok(())
        };
        let (rest, rtop, done) = (self.e.label(), self.e.label(), self.e.label());
        // the k loop in two parts: all but the last C_AHEAD steps, then the
        // next tile's prefetch into the first-level cache, then the rest
        // (each part as two loops: with the next `b` panel's prefetch when
        // `pf` is not zero, without it otherwise)
        for (left, prefetch) in [(C_AHEAD, true), (0, false)] {
            let (top, plain, end) = (self.e.label(), self.e.label(), self.e.label());
            // `n` biased by the part's threshold while it runs, so that the
            // trip's `sub n, 4; jge top` fuses into one micro-op
            self.e.sub(g(n), imm(UNROLL as i64 + left))?;
            self.e.jcc(Cond::L, end);
            self.e.test(g(pf), g(pf))?;
            self.e.jcc(Cond::E, plain);
            for (panel, top) in [(true, top), (false, plain)] {
                self.e.bind(top)?;
                for p in 0..UNROLL {
                    step(self, p, panel)?;
                }
                self.e.add(g(a), imm(48 * UNROLL as i64))?;
                self.e.add(g(b), imm(64 * UNROLL as i64))?;
                self.e.sub(g(n), imm(UNROLL as i64))?;
                self.e.jcc(Cond::Ge, top);
                if panel {
                    self.e.jmp(end);
                }
            }
            self.e.bind(end)?;
            self.e.add(g(n), imm(UNROLL as i64 + left))?;
            if prefetch {
                self.prefetch_tile(row, next, false)?;
            }
        }
        self.e.bind(rest)?;
        self.e.test(g(n), g(n))?;
        self.e.jcc(Cond::E, done);
        self.e.bind(rtop)?;
        step(self, 0, false)?;
        self.e.add(g(a), imm(48))?;
        self.e.add(g(b), imm(64))?;
        self.e.sub(g(n), imm(1))?;
        self.e.jcc(Cond::Ne, rtop);
        self.e.bind(done)?;
        self.e.mov(g(row), g(c))?;
        for r in 0..MR {
            self.e.vstore(Width::Vec4, Mem::base(row), acc(r, 0));
            self.e
                .vstore(Width::Vec4, Mem::base(row).disp(32), acc(r, 1));
            if r + 1 < MR {
                self.e.add(g(row), ldc)?;
            }
        }
        for r in [row, a, b, n, pf] {
            self.free(r);
        }
        Ok(())
    }
}

/// The current cache block (frame slots).
struct Block {
    ic: i32,
    mc: i32,
    jc: i32,
    nc: i32,
    kc: i32,
    kc48: i32,
    kc64: i32,
}
