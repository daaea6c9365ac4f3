//! The 4-wide main loop of a vectorized innermost loop: the body
//! [`COPIES`] times per iteration (16 iterations of the source loop; copy
//! `u`'s unit-stride accesses `32·u` bytes further, the odd copies'
//! reductions in a second set of accumulators), then 4-wide steps while
//! four iterations are left, then the partial sums folded into lane 0 for
//! the scalar remainder.

use std::collections::{HashMap, HashSet};

use ast::CmpOp;
use codegen_x86::{Cond, Gpr, Label, Mem};
use scop::ast::BinOp;
use scop::model::Expr;

use crate::body::{vectorizable, Call};
use crate::emit::{g, imm, Operand, VSrc, Width};
use crate::error::Result;
use crate::nest::{Group, Ref};
use crate::state::{slot, Loc, State};
use codegen_x86::Scale;

/// Two pointer groups of a written array, both unit stride, whose distance
/// is only known at run time (`A[i][j]` and `A[i-1][j+1]` in a `j` loop):
/// the vector loop runs only when their first addresses are at least
/// `bytes` apart (six iterations plus the spread of the displacements):
/// no element is touched by both within one 4-wide step, nor by a store
/// of one step and the half of a read carried from the step before it
/// (`State::reuse_pairs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DistanceCheck {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) bytes: i32,
}

/// A read assembled from two loads of another read of its group
/// (`State::reuse_pairs`): the call, the two access numbers, and the
/// registers of the partner's previous and current loads and of the read.
#[derive(Debug, Clone, Copy)]
struct Reuse {
    call: usize,
    read: usize,
    partner: usize,
    prev: u8,
    cur: u8,
    mid: u8,
}

/// The written unit-stride groups of an innermost loop that move by a
/// cache line or more per iteration of the enclosing loop `outer` (step
/// `step`): their pointers and the bytes to the same place one enclosing
/// iteration on (the row the next instance of the loop writes), which the
/// main vector loop prefetches ([`State::vector_loop`]).
pub(crate) fn rows_ahead(
    groups: &[Group],
    refs: &[Ref],
    outer: &str,
    step: i64,
) -> Vec<(Gpr, crate::linear::Poly)> {
    groups
        .iter()
        .enumerate()
        .filter(|(gi, gr)| {
            let co = gr.lin.coeff(outer);
            gr.coef.as_const() == Some(1)
                && !co.is_zero()
                && !co.as_const().is_some_and(|c| c.abs() < 8)
                && refs
                    .iter()
                    .any(|r| r.write && r.group.is_some_and(|(g, _)| g == *gi))
        })
        .filter_map(|(_, gr)| Some((gr.reg?, gr.lin.coeff(outer).scale(8 * step)?)))
        .collect()
}

/// Copies of the 4-wide body per trip of the main vector loop.
pub(crate) const COPIES: i64 = 4;

/// General registers left free for the body's temporaries when the vector
/// loop's two bounds take registers (otherwise they stay in frame slots).
const SPARE_GPRS: usize = 4;

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
        ahead: &[(Gpr, crate::linear::Poly)],
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
        // bound - (4·COPIES - 1) and bound - 3: the last start of a full
        // trip and of a 4-wide step, in registers while more than
        // SPARE_GPRS stay free for the body (a bound in a frame slot,
        // compared with every trip, cost stencil_diag's rows 10 %: 46 →
        // 42 µs with the same loop otherwise, benches/README.md), else
        // in slots
        let mut bounds = [Loc::Slot(0); 2];
        for (b, k) in bounds.iter_mut().zip([4 * COPIES - 1, 3]) {
            *b = if self.free_gprs() > SPARE_GPRS {
                self.long()?
            } else {
                Loc::Slot(self.new_slot(8)?)
            };
            match *b {
                Loc::Reg(r) => {
                    self.e.mov(g(r), bound)?;
                    self.e.sub(g(r), imm(k))?;
                }
                Loc::Slot(s) => {
                    let t = self.temp()?;
                    self.e.mov(g(t), bound)?;
                    self.e.sub(g(t), imm(k))?;
                    self.e.mov(crate::emit::q(slot(s)), g(t))?;
                    self.free(t);
                }
            }
        }
        let [bfull, b3] = bounds;
        // the written rows' offsets to the next row, in registers while
        // more than SPARE_GPRS stay free: each trip prefetches the two
        // lines its stores will cover there (a short row, such as
        // stencil_diag's 4.8 kB, is past before the hardware prefetcher
        // has followed it; the next row's lines then wait for their
        // ownership at the stores)
        let mut next_rows: Vec<(Gpr, Gpr)> = Vec::new();
        for (p, bytes) in ahead {
            if self.free_gprs() <= SPARE_GPRS {
                break;
            }
            let o = self.inv(bytes)?;
            let Some(r) = self.long_reg() else { break };
            self.e.mov(g(r), o)?;
            next_rows.push((*p, r));
        }
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
        let reuse = self.reuse_pairs(cs, shifted)?;
        if !reuse.is_empty() {
            // the first 4-wide step's halves, once one will run (the load
            // reads exactly that step's first read)
            self.cmp_it(it, b3)?;
            self.e.jcc(no, done);
            let inner = self.inner_ref()?;
            let firsts: Vec<(Gpr, i32)> =
                reuse.iter().map(|r| inner.ptr[&(r.call, r.read)]).collect();
            for (r, (p, d)) in reuse.iter().zip(firsts) {
                self.e.vload(Width::Vec4, r.prev, Mem::base(p).disp(d));
                self.e.vperm2f128(r.prev, r.prev, r.prev, 0x00);
            }
        }
        self.cmp_it(it, bfull)?;
        self.e.jcc(no, four);
        self.e.bind(top)?;
        for (p, r) in &next_rows {
            for line in [0, 64] {
                self.e.prefetch(Mem::sib(*p, *r, Scale::X1, line)?);
            }
        }
        for u in 0..COPIES {
            // copy u: unit-stride accesses 32·u bytes further, reductions
            // alternately in the first and the second accumulators
            let inner = self.inner_mut()?;
            for k in shifted {
                if let Some(e) = inner.ptr.get_mut(k) {
                    e.1 += if u == 0 { 0 } else { 32 };
                }
            }
            for (a, f, v) in &second {
                inner
                    .promoted
                    .insert(a.clone(), if u % 2 == 0 { *f } else { *v });
            }
            self.reused_copy(cs, &reuse)?;
        }
        {
            let inner = self.inner_mut()?;
            for k in shifted {
                if let Some(e) = inner.ptr.get_mut(k) {
                    e.1 -= 32 * (COPIES as i32 - 1);
                }
            }
            for (a, f, _) in &second {
                inner.promoted.insert(a.clone(), *f);
            }
        }
        for p in ptrs {
            self.e.add(g(*p), imm(32 * COPIES))?;
        }
        self.e.add(itop, imm(4 * COPIES))?;
        self.cmp_it(it, bfull)?;
        self.e.jcc(yes, top);
        // 4-wide steps while four iterations are left
        self.e.bind(four)?;
        self.cmp_it(it, b3)?;
        self.e.jcc(no, done);
        self.reused_copy(cs, &reuse)?;
        for p in ptrs {
            self.e.add(g(*p), imm(32))?;
        }
        self.e.add(itop, imm(4))?;
        self.e.jmp(four);
        self.e.bind(done)?;
        for b in bounds {
            self.free_loc(b);
        }
        for (_, r) in next_rows {
            self.free(r);
        }
        self.inner_mut()?.contract = false;
        for r in &reuse {
            let inner = self.inner_mut()?;
            inner.fwd.remove(&(r.call, r.read));
            inner.fwd.remove(&(r.call, r.partner));
            for v in [r.prev, r.cur, r.mid] {
                self.vfree(v);
            }
        }
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

    /// One 4-wide copy of the body, the reused reads first: the partner
    /// loaded, the read assembled from its previous and current loads.
    fn reused_copy(&mut self, cs: &[Call], reuse: &[Reuse]) -> Result<()> {
        for r in reuse {
            let (p, d) = self.inner_ref()?.ptr[&(r.call, r.partner)];
            self.e.vload(Width::Vec4, r.cur, Mem::base(p).disp(d));
            self.e.vperm2f128(r.mid, r.prev, r.cur, 0x21);
            let inner = self.inner_mut()?;
            inner.fwd.insert((r.call, r.read), r.mid);
            inner.fwd.insert((r.call, r.partner), r.cur);
        }
        self.vector_copy(cs)?;
        for r in reuse {
            self.e.vcopy(Width::Vec4, r.prev, r.cur);
        }
        Ok(())
    }

    /// Reads of a unit-stride group (of an array the loop does not write,
    /// or writes only through other groups at a checked distance, see
    /// [`DistanceCheck`]) whose group also has a read 16 bytes further in
    /// the same statement
    /// (`A[i-1]` and `A[i+1]`): four consecutive elements starting two
    /// before the partner's are the high half of the partner's previous
    /// 4-wide load and the low half of its current one (`vperm2f128`), one
    /// load instead of two per step. Registers are taken only when plenty
    /// are free.
    fn reuse_pairs(&mut self, cs: &[Call], shifted: &[(usize, usize)]) -> Result<Vec<Reuse>> {
        let inner = self.inner_ref()?;
        // per written array, the pointers of its writes (`None`: a write
        // not in a unit-stride group)
        let mut writes: HashMap<&str, Option<Vec<Gpr>>> = HashMap::new();
        for (u, c) in cs.iter().enumerate() {
            for (k, a) in c.stmt.accesses.iter().enumerate() {
                if !a.write {
                    continue;
                }
                let p = shifted
                    .contains(&(u, k))
                    .then(|| inner.ptr.get(&(u, k)).map(|x| x.0))
                    .flatten();
                let e = writes.entry(a.array.as_str()).or_insert(Some(Vec::new()));
                match (e.as_mut(), p) {
                    (Some(v), Some(p)) => v.push(p),
                    _ => *e = None,
                }
            }
        }
        // a written array's reads may be carried only in a group that no
        // write uses: the distance check between the groups (`bytes`: six
        // iterations and the spread) keeps the carried half clear of the
        // previous step's stores
        let clear = |array: &str, p: Gpr| match writes.get(array) {
            None => true,
            Some(None) => false,
            Some(Some(ws)) => !ws.contains(&p),
        };
        let plain = |key: &(usize, usize)| {
            shifted.contains(key)
                && !inner.fwd.contains_key(key)
                && !inner.capture.contains_key(key)
                && !inner.wcap.contains_key(key)
                && !inner.pref.contains(key)
        };
        let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
        let mut taken: HashSet<(usize, usize)> = HashSet::new();
        for (u, c) in cs.iter().enumerate() {
            for (k, a) in c.stmt.accesses.iter().enumerate() {
                if a.write || !plain(&(u, k)) {
                    continue;
                }
                let Some(&(p, e)) = inner.ptr.get(&(u, k)) else {
                    continue;
                };
                if !clear(a.array.as_str(), p) {
                    continue;
                }
                let partner = (0..c.stmt.accesses.len()).find(|&j| {
                    j != k
                        && !c.stmt.accesses[j].write
                        && plain(&(u, j))
                        && inner.ptr.get(&(u, j)) == Some(&(p, e + 16))
                });
                if let Some(j) = partner {
                    if !taken.contains(&(u, k)) && !taken.contains(&(u, j)) {
                        taken.insert((u, k));
                        taken.insert((u, j));
                        pairs.push((u, k, j));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (call, read, partner) in pairs {
            if self.free_vregs() < 3 + 8 {
                break;
            }
            out.push(Reuse {
                call,
                read,
                partner,
                prev: self.vreg()?,
                cur: self.vreg()?,
                mid: self.vreg()?,
            });
        }
        Ok(out)
    }

    /// Jumps to `scalar` unless the pointers `pa` and `pb` are at least
    /// `bytes` apart.
    pub(crate) fn distance_check(
        &mut self,
        pa: Gpr,
        pb: Gpr,
        bytes: i32,
        scalar: Label,
    ) -> Result<()> {
        let (t, u) = (self.temp()?, self.temp()?);
        self.e.mov(g(t), g(pa))?;
        self.e.sub(g(t), g(pb))?;
        self.e.mov(g(u), g(t))?;
        self.e.neg(u);
        self.e.cmov(Cond::L, u, t); // u = |pa - pb|
        self.e.cmp(g(u), imm(i64::from(bytes)))?;
        self.e.jcc(Cond::L, scalar);
        self.free(t);
        self.free(u);
        Ok(())
    }

    fn cmp_it(&mut self, it: Loc, b: Loc) -> Result<()> {
        let bound = match b {
            Loc::Reg(r) => g(r),
            Loc::Slot(s) => crate::emit::q(slot(s)),
        };
        match it {
            Loc::Reg(r) => self.e.cmp(g(r), bound),
            Loc::Slot(s) => {
                let t = self.temp()?;
                self.e.mov(g(t), crate::emit::q(slot(s)))?;
                self.e.cmp(g(t), bound)?;
                self.free(t);
                Ok(())
            }
        }
    }
}

impl State<'_> {
    /// Whether running four iterations at once keeps every dependence: all
    /// accesses strength-reduced with unit or zero stride, written arrays
    /// either one promoted reduction or one group whose element distances
    /// never point from a later statement to an earlier one, or groups at a
    /// distance known only at run time ([`DistanceCheck`], returned).
    pub(crate) fn vector_legal(
        &self,
        cs: &[Call],
        refs: &[Ref],
        groups: &[Group],
        written: &HashSet<String>,
        promote: &[(String, usize, i32)],
        pref: &HashSet<(usize, usize)>,
        independent: &dyn Fn(usize, usize) -> bool,
    ) -> std::result::Result<Vec<DistanceCheck>, String> {
        if let Some(c) = cs.iter().find(|c| !vectorizable(&c.stmt.body)) {
            return Err(format!(
                "{} has operations without a 4-wide form",
                c.stmt.name
            ));
        }
        for r in refs {
            // loop-invariant reads are hoisted, whatever their addressing
            let invariant_read = !written.contains(&r.array)
                && r.lin_group.is_some_and(|(gi, _)| groups[gi].coef.is_zero());
            if invariant_read {
                continue;
            }
            let Some((gi, _)) = r.group else {
                return Err(format!("{} is not strength-reduced", r.array));
            };
            match groups[gi].coef.as_const() {
                Some(0) | Some(1) => {}
                _ => return Err(format!("{} has a stride other than 0 or 1", r.array)),
            }
        }
        let mut checks: Vec<DistanceCheck> = Vec::new();
        for a in written {
            let mine: Vec<&Ref> = refs.iter().filter(|r| &r.array == a).collect();
            let Some(w) = mine.iter().find(|r| r.write) else {
                continue;
            };
            let Some((gi, _)) = w.group else {
                return Err(format!("{a} is not strength-reduced"));
            };
            if groups[gi].coef.is_zero() {
                if !promote.iter().any(|(p, _, _)| p == a) {
                    return Err(format!(
                        "{a} is written at one element by several references"
                    ));
                }
                let u = mine[0].user;
                if mine.iter().any(|r| r.user != u)
                    || !reduction(&cs[u], &|k| pref.contains(&(u, k)))
                {
                    return Err(format!("{a} is loop-invariant but not a sum reduction"));
                }
                continue;
            }
            for p in &mine {
                for q in &mine {
                    // copies of one statement made by unroll-and-jam of a
                    // parallel loop are independent
                    if !(p.write || q.write) || independent(p.user, q.user) {
                        continue;
                    }
                    let (Some((gp, dp)), Some((gq, dq))) = (p.group, q.group) else {
                        return Err(format!("{a} is not strength-reduced"));
                    };
                    if gp != gq {
                        // distance known at run time: both unit stride, so
                        // it is the same at every iteration; checked before
                        // the vector loop
                        let unit = |gi: usize| groups[gi].coef.as_const() == Some(1);
                        if !unit(gp) || !unit(gq) {
                            return Err(format!(
                                "{a} is written and accessed at unknown distances"
                            ));
                        }
                        let (lo, hi) = (gp.min(gq), gp.max(gq));
                        let bytes = 48 + (dp - dq).abs();
                        match checks.iter_mut().find(|c| (c.a, c.b) == (lo, hi)) {
                            Some(c) => c.bytes = c.bytes.max(bytes),
                            None => checks.push(DistanceCheck {
                                a: lo,
                                b: hi,
                                bytes,
                            }),
                        }
                        continue;
                    }
                    if dp > dq && dp - dq < 32 && (p.user, p.write) >= (q.user, q.write) {
                        return Err(format!(
                            "{a}: a dependence of distance {} would be reversed",
                            (dp - dq) / 8
                        ));
                    }
                }
            }
        }
        Ok(checks)
    }
}

/// `s = s + e`, `s = e + s`, `s = s - e` (also written `s += e`, `s -= e`)
/// where `s` is the promoted element (`is_s` on access numbers) and `e`
/// does not read it.
fn reduction(c: &Call, is_s: &dyn Fn(usize) -> bool) -> bool {
    // the value is the whole new value whatever the operator
    let Expr::Assign { target, value, .. } = &c.stmt.body else {
        return false;
    };
    let s = |e: &Expr| matches!(e, Expr::Access(k) if is_s(*k));
    let free = |e: &Expr| !reads(e, is_s);
    if !is_s(*target) {
        return false;
    }
    match &**value {
        Expr::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
            ..
        } => (s(lhs) && free(rhs)) || (s(rhs) && free(lhs)),
        Expr::Binary {
            op: BinOp::Sub,
            lhs,
            rhs,
            ..
        } => s(lhs) && free(rhs),
        _ => false,
    }
}

fn reads(e: &Expr, hit: &dyn Fn(usize) -> bool) -> bool {
    match e {
        Expr::Access(k) => hit(*k),
        Expr::Assign { value, .. } => reads(value, hit),
        Expr::Unary { arg, .. } | Expr::ToDouble(arg) => reads(arg, hit),
        Expr::Binary { lhs, rhs, .. } => reads(lhs, hit) || reads(rhs, hit),
        Expr::Call { args, .. } => args.iter().any(|a| reads(a, hit)),
        _ => false,
    }
}
