//! The innermost loop (a loop whose body is statement calls): the
//! accesses' pointers set at the first iteration and stepped each one, the
//! promoted scalars loaded before and stored after, the invariants and
//! literals hoisted into registers, values carried across iterations in
//! registers, and, when legal (`crate::vector`), a 4-wide main loop before
//! the scalar one (which then runs the remainder).

use std::collections::HashSet;

use ast::{CmpOp, Node};
use codegen_x86::{Gpr, Mem, Scale};
use scop::model::Expr;

use super::groups::{promotion, strided_arrays, Group, Promoted};
use super::invariants::{collect_invariants, collect_literals};
use crate::body::{key, Call, Inner};
use crate::emit::{g, imm, q, Operand, Width};
use crate::error::{Error, Result};
use crate::kernel::Storage;
use crate::prefetch::Ahead;
use crate::state::{arg, cc, Loc, State};

impl State<'_> {
    /// The innermost loop (entered with at least one iteration to run).
    /// Returns false when it should be lowered plainly instead.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn inner_loop(
        &mut self,
        it: &str,
        loc: Loc,
        op: CmpOp,
        bound: Operand,
        inc: i64,
        body: &Node,
        users: &[(String, Vec<ast::Expr>)],
        has_if: bool,
        ahead: &Ahead,
    ) -> Result<bool> {
        let k = self.k;
        let mut cs: Vec<Call> = Vec::new();
        for (name, args) in users {
            let stmt = k
                .statements
                .get(name)
                .ok_or_else(|| Error::Internal(format!("unknown statement {name}")))?;
            if stmt.iterators.len() != args.len() {
                return Ok(false);
            }
            cs.push(Call { stmt, args });
        }
        let (groups, refs) = self.group_accesses(&cs, it);
        let written: HashSet<String> = refs
            .iter()
            .filter(|r| r.write)
            .map(|r| r.array.clone())
            .collect();
        let (mut promote, mut promoted_refs) = if has_if {
            (Vec::new(), HashSet::new())
        } else {
            promotion(&cs, &refs, &groups, &written)
        };
        // Loop-invariant sub-expressions.
        let invariant_ref = |u: usize, ai: usize| {
            refs.iter().any(|r| {
                r.user == u
                    && r.access == ai
                    && !written.contains(&r.array)
                    && r.lin_group.is_some_and(|(gi, _)| groups[gi].coef.is_zero())
            })
        };
        let mut hoist: Vec<(usize, &Expr)> = Vec::new();
        if !has_if {
            for (u, c) in cs.iter().enumerate() {
                if let Expr::Assign { value, .. } = &c.stmt.body {
                    collect_invariants(value, &|ai| invariant_ref(u, ai), u, &mut hoist);
                }
            }
        }
        // literals get registers too in a vector loop, when there are enough
        let mut literals: Vec<(usize, &Expr)> = Vec::new();
        if !has_if && inc == 1 {
            for (u, c) in cs.iter().enumerate() {
                if let Expr::Assign { value, .. } = &c.stmt.body {
                    collect_literals(value, &|ai| invariant_ref(u, ai), u, &mut literals);
                }
            }
        }
        let literal_value = |e: &Expr| match e {
            Expr::Double(f) => f.to_bits(),
            Expr::ToDouble(i) => (crate::body::int_literal(i).unwrap_or(0) as f64).to_bits(),
            _ => 0,
        };
        let distinct: HashSet<u64> = literals.iter().map(|(_, e)| literal_value(e)).collect();
        let legal = if has_if {
            Err("guarded statements".to_string())
        } else if inc != 1 {
            Err(format!("step {inc}"))
        } else if hoist.len() + 2 * promote.len() + 6 > self.free_vregs() || self.free_gprs() < 2 {
            Err("too few free registers".to_string())
        } else {
            let copy: Vec<Option<(usize, usize)>> =
                users.iter().map(|u| self.copies.get(u).copied()).collect();
            let independent = |a: usize, b: usize| match (copy[a], copy[b]) {
                (Some((j1, c1)), Some((j2, c2))) => j1 == j2 && c1 != c2,
                _ => false,
            };
            self.vector_legal(
                &cs,
                &refs,
                &groups,
                &written,
                &promote,
                &promoted_refs,
                &independent,
            )
        };
        let vector = legal.is_ok();
        if hoist.len() + promote.len() + 4 > self.free_vregs() {
            hoist.clear();
            if promote.len() + 4 > self.free_vregs() {
                promote.clear();
                promoted_refs.clear();
            }
        }
        // Pointers at the first iteration.
        let mut inner = Inner::default();
        let mut steps: Vec<(Gpr, Operand)> = Vec::new();
        for gr in &groups {
            let Some(p) = gr.reg else { continue };
            let Storage::Slot(sl) = k.arrays[&gr.array].storage else {
                continue;
            };
            // an offset that is one iterator held in a register indexes directly
            let held = match (gr.lin.rest.is_zero(), gr.lin.iters.iter().next()) {
                (true, Some((v, c))) if gr.lin.iters.len() == 1 && c.as_const() == Some(1) => {
                    match self.var(v)? {
                        Operand::Gpr(r) => Some(r),
                        _ => None,
                    }
                }
                _ => None,
            };
            let off = match held {
                Some(r) => r,
                None => self.lin_value(&gr.lin)?,
            };
            self.e.mov(g(p), q(arg(sl)))?;
            self.e.lea(p, Mem::sib(p, off, Scale::X8, 0)?);
            if held.is_none() {
                self.free(off);
            }
            let step = gr
                .coef
                .scale(8 * inc)
                .ok_or_else(|| Error::Unsupported("stride overflow".into()))?;
            if !step.is_zero() {
                let so = self.inv(&step)?;
                steps.push((p, so));
            }
        }
        self.prefetch_ahead(&groups, ahead)?;
        for r in &refs {
            if let Some((gi, d)) = r.group {
                if let Some(p) = groups[gi].reg {
                    inner.ptr.insert((r.user, r.access), (p, d));
                }
            }
        }
        inner.pref = promoted_refs;
        self.inner = Some(inner);
        for pr in &promote {
            let a = &pr.0;
            let (m, t) = self.promoted_mem(&groups, pr)?;
            let v = self.vreg()?;
            self.e.vload(Width::Scalar, v, m);
            if let Some(t) = t {
                self.free(t);
            }
            self.inner_mut()?.promoted.insert(a.clone(), v);
        }
        for (u, e) in &hoist {
            // the call's own pointers (several calls may share a statement)
            self.inner_mut()?.cur = *u;
            let v = self.dval(&cs[*u], e, Width::Scalar)?;
            if vector {
                self.e.vbroadcast_reg(v, v);
            }
            self.inner_mut()?.hoisted.insert((*u, key(e)), v);
        }
        if vector && distinct.len() + promote.len() + 6 <= self.free_vregs() {
            let mut regs: std::collections::HashMap<u64, u8> = std::collections::HashMap::new();
            for (u, e) in &literals {
                let bits = literal_value(e);
                let v = match regs.get(&bits) {
                    Some(&v) => v,
                    None => {
                        let v = self.vreg()?;
                        let m = self.constant(bits)?;
                        self.e.vload(Width::Vec4, v, m);
                        regs.insert(bits, v);
                        v
                    }
                };
                self.inner_mut()?.hoisted.insert((*u, key(e)), v);
            }
        }
        let (carried, rotate) = if has_if {
            (Vec::new(), Vec::new())
        } else {
            self.carry(&refs, &groups, !vector, 6 + promote.len())?
        };
        self.strided += strided_arrays(&groups);
        let after = self.e.label();
        let top = self.e.label();
        if let Ok(checks) = &legal {
            for c in checks {
                let (Some(pa), Some(pb)) = (groups[c.a].reg, groups[c.b].reg) else {
                    return Err(Error::Internal("a distance check without pointers".into()));
                };
                self.distance_check(pa, pb, c.bytes, top)?;
            }
            let ptrs: Vec<Gpr> = steps.iter().map(|(p, _)| *p).collect();
            let shifted: Vec<(usize, usize)> = refs
                .iter()
                .filter(|r| {
                    r.group.is_some_and(|(gi, _)| {
                        groups[gi].reg.is_some() && !groups[gi].coef.is_zero()
                    })
                })
                .map(|r| (r.user, r.access))
                .collect();
            let arrays: Vec<String> = promote.iter().map(|(a, _, _)| a.clone()).collect();
            let ahead = match self
                .vars
                .len()
                .checked_sub(2)
                .map(|i| self.vars[i].0.clone())
            {
                Some(outer) => {
                    let step = self.loop_step(&outer);
                    crate::vector::rows_ahead(&groups, &refs, &outer, step)
                }
                None => Vec::new(),
            };
            self.vector_loop(&cs, loc, op, bound, &ptrs, &shifted, &arrays, &ahead)?;
            self.cmp_bound(loc, bound)?;
            self.e.jcc(cc(op).negate(), after);
            let when = if checks.is_empty() {
                String::new()
            } else {
                format!(
                    ", when {} run-time distance check{} hold{}",
                    checks.len(),
                    if checks.len() > 1 { "s" } else { "" },
                    if checks.len() > 1 { "" } else { "s" }
                )
            };
            self.notes.push(format!(
                "loop {it}: vectorized (4 doubles, FMA, unrolled four times{when})"
            ));
        }
        if let Err(why) = &legal {
            let regs = if carried.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} registers carry values across iterations",
                    carried.len()
                )
            };
            self.notes.push(format!("loop {it}: scalar ({why}){regs}"));
        }
        self.e.bind(top)?;
        if has_if {
            self.inner_mut()?.count = Some(0);
            self.node(body)?;
        } else {
            for (u, c) in cs.iter().enumerate() {
                self.inner_mut()?.cur = u;
                self.statement(c, Width::Scalar)?;
            }
        }
        for (d, s) in &rotate {
            self.e.vcopy(Width::Scalar, *d, *s);
        }
        for (p, s) in &steps {
            self.e.add(g(*p), *s)?;
        }
        self.e.add(Self::loc_op(loc), imm(inc))?;
        self.cmp_bound(loc, bound)?;
        self.e.jcc(cc(op), top);
        self.e.bind(after)?;
        let inner = self
            .inner
            .take()
            .ok_or_else(|| Error::Internal("no innermost loop state".into()))?;
        for pr in &promote {
            let a = &pr.0;
            let (m, t) = self.promoted_mem(&groups, pr)?;
            let v = inner.promoted[a];
            self.e.vstore(Width::Scalar, m, v);
            self.vfree(v);
            if let Some(t) = t {
                self.free(t);
            }
        }
        for v in inner.hoisted.values().chain(&carried) {
            self.vfree(*v);
        }
        for gr in &groups {
            if let Some(p) = gr.reg {
                self.free(p);
            }
        }
        Ok(true)
    }

    /// The address of a promoted array's element: through its group's
    /// pointer, or in the scalar area through a temporary (returned, to be
    /// freed after use).
    fn promoted_mem(&mut self, groups: &[Group], pr: &Promoted) -> Result<(Mem, Option<Gpr>)> {
        let (a, gi, d) = pr;
        Ok(match groups[*gi].reg {
            Some(p) => (Mem::base(p).disp(*d), None),
            None => {
                let (m, t) = self.scalar_mem(a)?;
                (m, Some(t))
            }
        })
    }
}
