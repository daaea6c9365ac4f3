//! Loop nests: `for` loops with hoisted bounds, guards, blocks and
//! statement calls; the innermost loops get strength-reduced pointers,
//! scalar promotion, hoisted invariants and, when legal, a 4-wide AVX2
//! main loop with a scalar remainder.

use std::collections::HashSet;

use ast::{CmpOp, Node};
use codegen_x86::{Cond, Gpr, Mem, Scale};
use scop::model::Expr;

use crate::body::{key, Call, Inner};
use crate::emit::{g, imm, q, Operand, Width};
use crate::error::{Error, Result};
use crate::jam::mentions;
use crate::kernel::Storage;
use crate::linear::{Lin, Poly};
use crate::prefetch::Ahead;
use crate::state::{arg, slot, Loc, State};

pub(crate) fn cc(op: CmpOp) -> Cond {
    match op {
        CmpOp::Le => Cond::Le,
        CmpOp::Lt => Cond::L,
        CmpOp::Ge => Cond::Ge,
        CmpOp::Gt => Cond::G,
        CmpOp::Eq => Cond::E,
    }
}

/// The statement calls of a loop body, and whether any sits under an `if`;
/// `None` if the body contains a loop.
pub(crate) fn calls(
    n: &Node,
    under_if: bool,
    out: &mut Vec<(String, Vec<ast::Expr>)>,
) -> Option<bool> {
    match n {
        Node::For { .. } => None,
        Node::Block(v) => {
            let mut any = false;
            for x in v {
                any |= calls(x, under_if, out)?;
            }
            Some(any)
        }
        Node::If { then, els, .. } => {
            calls(then, true, out)?;
            if let Some(e) = els {
                calls(e, true, out)?;
            }
            Some(true)
        }
        Node::User { name, args } => {
            out.push((name.clone(), args.clone()));
            Some(under_if)
        }
    }
}

/// An access of the innermost loop.
#[derive(Debug, Clone)]
pub(crate) struct Ref {
    pub(crate) user: usize,
    pub(crate) access: usize,
    pub(crate) array: String,
    pub(crate) write: bool,
    /// Group index and byte displacement, or `None` (general addressing).
    pub(crate) group: Option<(usize, i32)>,
    /// The group by linear form, whether or not it got a pointer register.
    pub(crate) lin_group: Option<(usize, i32)>,
}

/// Accesses sharing a pointer: same array, same linear part.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub(crate) array: String,
    pub(crate) lin: Lin,
    /// Coefficient of the loop iterator (elements per iteration).
    pub(crate) coef: Poly,
    /// Zero-dimensional arrays live in the frame (no pointer).
    pub(crate) frame: bool,
    pub(crate) reg: Option<Gpr>,
}

/// The arrays that an innermost loop's groups move through at a stride
/// other than 0 or ±1 element per iteration (a column walk: a new cache
/// line, often a new page, per access).
fn strided_arrays(groups: &[Group]) -> usize {
    let mut arrays: Vec<&str> = groups
        .iter()
        .filter(|gr| !gr.frame && !matches!(gr.coef.as_const(), Some(-1..=1)))
        .map(|gr| gr.array.as_str())
        .collect();
    arrays.sort_unstable();
    arrays.dedup();
    arrays.len()
}

impl State<'_> {
    /// The step of the enclosing loop of iterator `it` (innermost first; 1
    /// if `it` is not a loop being emitted).
    pub(crate) fn loop_step(&self, it: &str) -> i64 {
        self.loop_steps
            .iter()
            .rev()
            .find(|(v, _)| v == it)
            .map_or(1, |(_, s)| *s)
    }

    /// Lowers an AST node.
    pub fn node(&mut self, n: &Node) -> Result<()> {
        match n {
            Node::Block(v) => v.iter().try_for_each(|x| self.node(x)),
            Node::If { cond, then, els } => {
                let f = self.e.label();
                self.cond_false(cond, f)?;
                self.node(then)?;
                match els {
                    None => self.e.bind(f),
                    Some(e) => {
                        let end = self.e.label();
                        self.e.jmp(end);
                        self.e.bind(f)?;
                        self.node(e)?;
                        self.e.bind(end)
                    }
                }
            }
            Node::User { name, args } => {
                let k = self.k;
                let stmt = k
                    .statements
                    .get(name)
                    .ok_or_else(|| Error::Internal(format!("unknown statement {name}")))?;
                if stmt.iterators.len() != args.len() {
                    return Err(Error::Internal(format!(
                        "{name} called with {} arguments",
                        args.len()
                    )));
                }
                if let Some(i) = self.inner.as_mut() {
                    if let Some(n) = i.count.as_mut() {
                        i.cur = *n;
                        *n += 1;
                    }
                }
                self.statement(&Call { stmt, args }, Width::Scalar)
            }
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => self.for_loop(iterator, init, cond, *inc, body),
        }
    }

    fn loc_op(l: Loc) -> Operand {
        match l {
            Loc::Reg(r) => g(r),
            Loc::Slot(s) => q(slot(s)),
        }
    }

    /// `cmp it, bound` (through a temporary when both are in memory).
    fn cmp_bound(&mut self, it: Loc, b: Operand) -> Result<()> {
        match (it, b) {
            (Loc::Reg(r), b) => self.e.cmp(g(r), b),
            (Loc::Slot(s), Operand::Gpr(r)) => self.e.cmp(q(slot(s)), g(r)),
            (Loc::Slot(s), Operand::Imm(i)) => self.e.cmp(q(slot(s)), imm(i)),
            (Loc::Slot(s), b) => {
                let t = self.temp()?;
                self.e.mov(g(t), q(slot(s)))?;
                self.e.cmp(g(t), b)?;
                self.free(t);
                Ok(())
            }
        }
    }

    fn for_loop(
        &mut self,
        it: &str,
        init: &ast::Expr,
        cond: &ast::Expr,
        inc: i64,
        body: &Node,
    ) -> Result<()> {
        // registers go to the innermost loops; outer iterators live in the
        // frame unless registers are left for them (module `regs`)
        let innermost = calls(body, false, &mut Vec::new()).is_some();
        let in_regs = !innermost && {
            let whole = Node::For {
                iterator: it.to_string(),
                init: init.clone(),
                cond: cond.clone(),
                inc,
                body: Box::new(body.clone()),
            };
            self.outer_in_registers(&whole)
        };
        let chunk = std::mem::take(&mut self.chunk);
        let loc = if innermost || in_regs {
            self.long()?
        } else {
            Loc::Slot(self.new_slot(8)?)
        };
        self.ival_to(init, loc)?;
        self.vars.push((it.to_string(), loc));
        self.loop_steps.push((it.to_string(), inc));
        let bound = match cond {
            ast::Expr::Cmp(op @ (CmpOp::Le | CmpOp::Lt), a, b)
                if matches!(&**a, ast::Expr::Var(v) if v == it) && !mentions(b, it) =>
            {
                Some((*op, &**b))
            }
            _ => None,
        };
        let exit = self.e.label();
        match bound {
            Some((op, ub)) => {
                let (bop, bloc) = match ub {
                    ast::Expr::Int(v) if i32::try_from(*v).is_ok() => (imm(*v), None),
                    ast::Expr::Var(p) if !self.is_iter(p) => (self.var(p)?, None),
                    _ => {
                        // an outer loop's bound in the frame unless it has registers
                        let l = if innermost || in_regs {
                            self.long()?
                        } else {
                            Loc::Slot(self.new_slot(8)?)
                        };
                        self.ival_to(ub, l)?;
                        (Self::loc_op(l), Some(l))
                    }
                };
                self.cmp_bound(loc, bop)?;
                self.e.jcc(cc(op).negate(), exit);
                let (op, bop) = if chunk {
                    let last = self.chunk_range(loc, op, bop, inc)?;
                    self.cmp_bound(loc, last)?;
                    self.e.jcc(Cond::G, exit);
                    (CmpOp::Le, last)
                } else {
                    (op, bop)
                };
                let mut users = Vec::new();
                let innermost = calls(body, false, &mut users);
                let done = match innermost {
                    Some(has_if) if !users.is_empty() => {
                        let ahead = Ahead {
                            it: it.to_string(),
                            init,
                            bound,
                            at_init: !chunk,
                        };
                        self.inner_loop(it, loc, op, bop, inc, body, &users, has_if, &ahead)?
                    }
                    None if inc == 1 => {
                        let k = self.k;
                        let whole = Node::For {
                            iterator: it.to_string(),
                            init: init.clone(),
                            cond: cond.clone(),
                            inc,
                            body: Box::new(body.clone()),
                        };
                        match crate::contract::detect(k, &whole, &|v| self.is_iter(v)) {
                            Some(con) => self.contraction(&con, loc, op, bop)?,
                            None => match crate::transpose::detect(k, &whole, &|v| self.is_iter(v))
                            {
                                Some(plan) => self.transposed(&plan, loc, op, bop)?,
                                None => false,
                            },
                        }
                    }
                    _ => false,
                };
                if !done {
                    let top = self.e.label();
                    self.e.bind(top)?;
                    self.node(body)?;
                    self.e.add(Self::loc_op(loc), imm(inc))?;
                    self.cmp_bound(loc, bop)?;
                    self.e.jcc(cc(op), top);
                }
                if let Some(l) = bloc {
                    self.free_loc(l);
                }
            }
            None if chunk => {
                return Err(Error::Unsupported(
                    "a parallel loop without a simple bound".into(),
                ))
            }
            None => {
                let top = self.e.label();
                self.e.bind(top)?;
                self.cond_false(cond, exit)?;
                self.node(body)?;
                self.e.add(Self::loc_op(loc), imm(inc))?;
                self.e.jmp(top);
            }
        }
        self.e.bind(exit)?;
        self.vars.pop();
        self.loop_steps.pop();
        self.free_loc(loc);
        Ok(())
    }

    /// This worker's share of a loop's iterations: the iterator moves to
    /// its first one, and the returned operand (a frame slot) holds its last
    /// value. With `n` iterations, worker `t` of `T` runs iterations
    /// `n*t/T .. n*(t+1)/T`.
    fn chunk_range(&mut self, it: Loc, op: CmpOp, bound: Operand, inc: i64) -> Result<Operand> {
        let (w, nw) = (self.k.scalar_area() + 1, self.k.scalar_area() + 2);
        let span = self.temp()?;
        self.e.mov(g(span), bound)?;
        if op == CmpOp::Lt {
            self.e.sub(g(span), imm(1))?;
        }
        self.e.sub(g(span), Self::loc_op(it))?;
        self.floor_div(span, inc)?;
        self.e.add(g(span), imm(1))?; // n >= 1 (the guard passed)
        let (lo, hi, d) = (self.temp()?, self.temp()?, self.temp()?);
        self.e.mov(g(d), q(arg(nw)))?;
        for (r, extra) in [(lo, 0), (hi, 1)] {
            self.e.mov(g(Gpr::Rax), q(arg(w)))?;
            if extra == 1 {
                self.e.add(g(Gpr::Rax), imm(1))?;
            }
            self.e.imul(Gpr::Rax, g(span))?;
            self.e.cqo();
            self.e.idiv(d);
            self.e.mov(g(r), g(Gpr::Rax))?;
        }
        // last = first + (hi - 1) * inc, then first += lo * inc
        let last = self.new_slot(8)?;
        self.e.sub(g(hi), imm(1))?;
        self.e.imul_imm(hi, hi, inc)?;
        self.e.add(g(hi), Self::loc_op(it))?;
        self.e.mov(q(slot(last)), g(hi))?;
        self.e.imul_imm(lo, lo, inc)?;
        self.e.add(Self::loc_op(it), g(lo))?;
        for r in [span, lo, hi, d] {
            self.free(r);
        }
        Ok(q(slot(last)))
    }

    /// The innermost loop (entered with at least one iteration to run).
    /// Returns false when it should be lowered plainly instead.
    #[allow(clippy::too_many_arguments)]
    fn inner_loop(
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
        // Group the accesses by array and linear part.
        let mut groups: Vec<Group> = Vec::new();
        let mut refs: Vec<Ref> = Vec::new();
        for (u, c) in cs.iter().enumerate() {
            for (ai, a) in c.stmt.accesses.iter().enumerate() {
                let info = &k.arrays[&a.array];
                let group = match info.storage {
                    Storage::Scalar { .. } => {
                        let gi = match groups.iter().position(|gr| gr.frame && gr.array == a.array)
                        {
                            Some(gi) => gi,
                            None => {
                                groups.push(Group {
                                    array: a.array.clone(),
                                    lin: Lin::default(),
                                    coef: Poly::default(),
                                    frame: true,
                                    reg: None,
                                });
                                groups.len() - 1
                            }
                        };
                        Some((gi, 0))
                    }
                    Storage::Slot(_) => self.access_lin(c, ai).and_then(|l| {
                        let (rest, c0) = l.rest.split_const();
                        let disp = i32::try_from(c0.checked_mul(8)?).ok()?;
                        let lin = Lin {
                            iters: l.iters.clone(),
                            rest,
                        };
                        let gi = match groups
                            .iter()
                            .position(|gr| !gr.frame && gr.array == a.array && gr.lin == lin)
                        {
                            Some(gi) => gi,
                            None => {
                                groups.push(Group {
                                    array: a.array.clone(),
                                    coef: lin.coeff(it),
                                    lin,
                                    frame: false,
                                    reg: None,
                                });
                                groups.len() - 1
                            }
                        };
                        Some((gi, disp))
                    }),
                };
                refs.push(Ref {
                    user: u,
                    access: ai,
                    array: a.array.clone(),
                    write: a.write,
                    group,
                    lin_group: group,
                });
            }
        }
        // Pointer registers (keep a few for temporaries): moving groups
        // first; a loop-invariant read is loaded once before the loop anyway.
        for moving in [true, false] {
            for gr in groups
                .iter_mut()
                .filter(|gr| !gr.frame && gr.coef.is_zero() != moving)
            {
                if self.free_gprs() > 3 {
                    gr.reg = self.long_reg();
                }
            }
        }
        let addressed = |r: &Ref| {
            r.group
                .is_some_and(|(gi, _)| groups[gi].frame || groups[gi].reg.is_some())
        };
        for r in refs.iter_mut() {
            if !addressed(r) {
                r.group = None;
            }
        }
        let written: HashSet<String> = refs
            .iter()
            .filter(|r| r.write)
            .map(|r| r.array.clone())
            .collect();
        // Scalar promotion: a written array whose accesses are one
        // loop-invariant element, apart from reads of the same statement
        // proved never to touch the written element.
        let mut promote: Vec<(String, usize, i32)> = Vec::new();
        let mut promoted_refs: HashSet<(usize, usize)> = HashSet::new();
        if !has_if {
            for a in &written {
                let mine: Vec<&Ref> = refs.iter().filter(|r| &r.array == a).collect();
                let Some(w) = mine.iter().find(|r| r.write) else {
                    continue;
                };
                let Some((gi, d)) = w.group else { continue };
                if !groups[gi].coef.is_zero() {
                    continue;
                }
                let stmt = cs[w.user].stmt;
                let ok = mine.iter().all(|r| {
                    r.group == w.group
                        || (!r.write
                            && r.user == w.user
                            && stmt.disjoint.contains(&(r.access, w.access)))
                });
                if ok {
                    promote.push((a.clone(), gi, d));
                    promoted_refs.extend(
                        mine.iter()
                            .filter(|r| r.group == w.group)
                            .map(|r| (r.user, r.access)),
                    );
                }
            }
            promote.sort();
        }
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
        for (a, gi, d) in &promote {
            let (m, t) = match groups[*gi].reg {
                Some(p) => (Mem::base(p).disp(*d), None),
                None => {
                    let (m, t) = self.scalar_mem(a)?;
                    (m, Some(t))
                }
            };
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
        for (a, gi, d) in &promote {
            let (m, t) = match groups[*gi].reg {
                Some(p) => (Mem::base(p).disp(*d), None),
                None => {
                    let (m, t) = self.scalar_mem(a)?;
                    (m, Some(t))
                }
            };
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

/// Whether `e` has the same value in every iteration of the loop.
fn invariant(e: &Expr, inv_access: &dyn Fn(usize) -> bool) -> bool {
    match e {
        Expr::Double(_) | Expr::DoubleParam(_) => true,
        Expr::ToDouble(i) => crate::body::int_literal(i).is_some(),
        Expr::Access(k) => inv_access(*k),
        Expr::Unary {
            ty: scop::model::Ty::Double,
            arg,
            ..
        } => invariant(arg, inv_access),
        Expr::Binary {
            ty: scop::model::Ty::Double,
            lhs,
            rhs,
            ..
        } => invariant(lhs, inv_access) && invariant(rhs, inv_access),
        Expr::Call {
            ty: scop::model::Ty::Double,
            args,
            ..
        } => args.iter().all(|a| invariant(a, inv_access)),
        _ => false,
    }
}

/// The maximal invariant sub-expressions worth a register (not literals).
pub(crate) fn collect_invariants<'a>(
    e: &'a Expr,
    inv_access: &dyn Fn(usize) -> bool,
    u: usize,
    out: &mut Vec<(usize, &'a Expr)>,
) {
    if invariant(e, inv_access) {
        if !matches!(e, Expr::Double(_) | Expr::ToDouble(_)) {
            out.push((u, e));
        }
        return;
    }
    collect_children(e, inv_access, u, out);
}

/// The literals of `e` outside its invariant sub-expressions (kept in
/// registers in vector loops instead of being read from the frame).
fn collect_literals<'a>(
    e: &'a Expr,
    inv_access: &dyn Fn(usize) -> bool,
    u: usize,
    out: &mut Vec<(usize, &'a Expr)>,
) {
    if matches!(e, Expr::Double(_) | Expr::ToDouble(_)) && invariant(e, inv_access) {
        out.push((u, e));
    } else if !invariant(e, inv_access) {
        match e {
            Expr::Unary { arg, .. } | Expr::ToDouble(arg) => {
                collect_literals(arg, inv_access, u, out)
            }
            Expr::Binary { lhs, rhs, .. } => {
                collect_literals(lhs, inv_access, u, out);
                collect_literals(rhs, inv_access, u, out);
            }
            Expr::Call { args, .. } => args
                .iter()
                .for_each(|a| collect_literals(a, inv_access, u, out)),
            _ => {}
        }
    }
}

fn collect_children<'a>(
    e: &'a Expr,
    inv_access: &dyn Fn(usize) -> bool,
    u: usize,
    out: &mut Vec<(usize, &'a Expr)>,
) {
    match e {
        Expr::Unary { arg, .. } | Expr::ToDouble(arg) => {
            collect_invariants(arg, inv_access, u, out)
        }
        Expr::Binary { lhs, rhs, .. } => {
            collect_invariants(lhs, inv_access, u, out);
            collect_invariants(rhs, inv_access, u, out);
        }
        Expr::Call { args, .. } => args
            .iter()
            .for_each(|a| collect_invariants(a, inv_access, u, out)),
        _ => {}
    }
}
