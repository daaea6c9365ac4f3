//! The emission of [`Plan`]s: strips of four rows, 4×4 blocks with
//! register transposes, then the edges through the original body.

use std::collections::HashMap;

use ast::{CmpOp, Expr as AExpr, Node};
use codegen_x86::{Gpr, Mem, Scale};
use scop::model::Expr;

use super::{dims, flat, nodes, params, Class, Plan, EDGE};
use crate::body::{key, Call, Inner};
use crate::emit::{g, imm, Operand, Width};
use crate::error::{Error, Result};
use crate::kernel::{ParamClass, StmtInfo, Storage};
use crate::linear::{lin_of_ast, Lin, Poly};
use crate::state::{arg, Loc, State};

/// Byte distance between the rows of a block: a constant displacement,
/// registers holding the stride and three times it, or (registers short)
/// an operand added to the pointer (lane reads: after each row) or to a
/// temporary (transposed reads: between the loads).
#[derive(Debug, Clone, Copy)]
enum Rows {
    Const(i32),
    Regs(Gpr, Gpr),
    Step(Operand),
}

/// A constant row distance whose triple fits a displacement.
fn three_rows_fit(p: &Poly) -> Option<i32> {
    let c = p.as_const()?;
    i32::try_from(c.checked_mul(3)?).ok()?;
    i32::try_from(c).ok()
}

/// The distinct (pointer, displacement) places of the plan's transposed
/// reads, sorted: each is loaded and transposed once per block.
fn transposed_places(
    plan: &Plan,
    place: &HashMap<(usize, usize), (usize, i32)>,
) -> Vec<(usize, i32)> {
    let mut t: Vec<(usize, i32)> = plan
        .reads
        .iter()
        .filter(|(_, c)| **c == Class::Trans)
        .map(|(r, _)| place[r])
        .collect();
    t.sort_unstable();
    t.dedup();
    t
}

fn row_mem(p: Gpr, disp: i32, rows: Rows, r: i32) -> Result<Mem> {
    Ok(match rows {
        Rows::Const(b) => Mem::base(p).disp(disp + r * b),
        // the pointer has moved to the row
        Rows::Step(_) => Mem::base(p).disp(disp),
        Rows::Regs(s, s3) => match r {
            0 => Mem::base(p).disp(disp),
            1 => Mem::sib(p, s, Scale::X1, disp)?,
            2 => Mem::sib(p, s, Scale::X2, disp)?,
            _ => Mem::sib(p, s3, Scale::X1, disp)?,
        },
    })
}

/// One pointer of the blocks: an array at one linear offset.
struct Ptr {
    class: Class,
    reg: Gpr,
    rows: Rows,
    /// Bytes per block step of `c2`.
    step: Poly,
}

/// The calls of `body` with `c` replaced by `c + s`.
fn shifted(calls: &[(&StmtInfo, Vec<AExpr>)], which: &[usize], c: &str, s: i64) -> Node {
    let by = AExpr::add(AExpr::var(c), AExpr::Int(s));
    Node::block(
        which
            .iter()
            .map(|&u| Node::User {
                name: calls[u].0.name.clone(),
                args: calls[u]
                    .1
                    .iter()
                    .map(|a| {
                        if s == 0 {
                            a.clone()
                        } else {
                            a.substitute(c, &by).fold()
                        }
                    })
                    .collect(),
            })
            .collect(),
    )
}

fn access_nodes<'e>(e: &'e Expr, out: &mut Vec<(usize, &'e Expr)>) {
    let mut all = Vec::new();
    nodes(e, &mut all);
    out.extend(all.into_iter().filter_map(|x| match x {
        Expr::Access(k) => Some((*k, x)),
        _ => None,
    }));
}

impl State<'_> {
    /// Lowers the `c1` loop of `plan` (its iterator at `loc`, entered with
    /// at least one iteration `loc op bound`); false (nothing emitted) when
    /// registers are short.
    pub(crate) fn transposed(
        &mut self,
        plan: &Plan,
        loc: Loc,
        op: CmpOp,
        bound: Operand,
    ) -> Result<bool> {
        let all: Vec<usize> = (0..plan.calls.len()).collect();
        // the blocks' pointers, by array and linear part
        let is_iter = |v: &str| self.is_iter(v) || v == plan.inner;
        let mut ptrs: Vec<(String, Lin, Class)> = Vec::new();
        let mut place: HashMap<(usize, usize), (usize, i32)> = HashMap::new();
        let mut block_calls: Vec<usize> = plan.consumers.clone();
        block_calls.extend(plan.forward.values().copied());
        block_calls.sort_unstable();
        block_calls.dedup();
        for &u in &block_calls {
            let (s, args) = &plan.calls[u];
            let l: Option<Vec<Lin>> = args.iter().map(|a| lin_of_ast(a, &is_iter)).collect();
            let Some(l) = l else { return Ok(false) };
            for (ai, a) in s.accesses.iter().enumerate() {
                let class = match plan.reads.get(&(u, ai)) {
                    Some(c) => *c,
                    None if a.write && plan.consumers.contains(&u) => Class::Lane,
                    None => continue,
                };
                let Some(f) = dims(s, &l, ai).and_then(|d| flat(self.k, &a.array, &d)) else {
                    return Ok(false);
                };
                let (rest, c0) = f.rest.split_const();
                let Some(disp) = c0.checked_mul(8).and_then(|d| i32::try_from(d).ok()) else {
                    return Ok(false);
                };
                let lin = Lin {
                    iters: f.iters.clone(),
                    rest,
                };
                let gi = match ptrs.iter().position(|(x, y, _)| *x == a.array && *y == lin) {
                    Some(gi) => gi,
                    None => {
                        ptrs.push((a.array.clone(), lin, class));
                        ptrs.len() - 1
                    }
                };
                place.insert((u, ai), (gi, disp));
            }
        }
        // row distances (bytes) per pointer, and their registers
        let mut row_polys: Vec<(Poly, Poly)> = Vec::new(); // (row distance, block step)
        for (_, lin, class) in &ptrs {
            let (ci, cj) = (lin.coeff(&plan.outer), lin.coeff(&plan.inner));
            let rows = match class {
                Class::Lane => cj.clone(),
                Class::Trans => ci,
            };
            let (Some(rb), Some(step)) = (rows.scale(8), cj.scale(32)) else {
                return Ok(false);
            };
            row_polys.push((rb, step));
        }
        let mut distinct: Vec<&Poly> = row_polys
            .iter()
            .map(|(r, _)| r)
            .filter(|r| three_rows_fit(r).is_none())
            .collect();
        distinct.sort();
        distinct.dedup();
        let ntrans = transposed_places(plan, &place).len();
        // the transposed reads stay live for the block; four temporaries
        // while transposing, the producers' values and about four while
        // evaluating a row
        let nvalues = {
            let mut p: Vec<usize> = plan.forward.values().copied().collect();
            p.sort_unstable();
            p.dedup();
            p.len()
        };
        let mut names: Vec<&str> = block_calls
            .iter()
            .flat_map(|&u| match &plan.calls[u].0.body {
                Expr::Assign { value, .. } => params(value),
                _ => Vec::new(),
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        let vneed = 4 * ntrans + names.len() + (nvalues + 4).max(4);
        let lean = ptrs.len() + 2 * distinct.len() + 5 > self.free_gprs();
        if lean {
            distinct.clear();
        }
        if vneed > self.free_vregs() || ptrs.len() + 5 > self.free_gprs() {
            self.notes.push(format!(
                "loop {}: not by transposed blocks (too few free registers)",
                plan.outer
            ));
            return Ok(false);
        }
        let strip_top = self.e.label();
        let rows_left = self.e.label();
        let done = self.e.label();
        self.e.bind(strip_top)?;
        {
            let t = self.temp()?;
            self.e.mov(g(t), Self::loc_op2(loc))?;
            self.e.add(g(t), imm(3))?;
            self.e.cmp(g(t), bound)?;
            self.free(t);
            self.e.jcc(crate::state::cc(op).negate(), rows_left);
        }
        // ---- the blocks ----
        let c2loc = self.long()?;
        let r = self.ival(&plan.init)?;
        self.e.mov(Self::loc_op2(c2loc), g(r))?;
        self.free(r);
        let hl = self.long()?;
        let r = self.ival(&AExpr::sub(plan.last.clone(), AExpr::Int(3)).fold())?;
        self.e.mov(Self::loc_op2(hl), g(r))?;
        self.free(r);
        let after_blocks = self.e.label();
        self.cmp_loc(c2loc, hl)?;
        self.e.jcc(codegen_x86::Cond::G, after_blocks);
        self.vars.push((plan.inner.clone(), c2loc));
        let mut stride_regs: Vec<(Poly, Gpr, Gpr)> = Vec::new();
        for p in &distinct {
            let (s, s3) = (self.long_reg(), self.long_reg());
            let (Some(s), Some(s3)) = (s, s3) else {
                return Err(Error::Internal(
                    "stride registers counted but not free".into(),
                ));
            };
            let o = self.inv(p)?;
            self.e.mov(g(s), o)?;
            self.e.lea(s3, Mem::sib(s, s, Scale::X2, 0)?);
            stride_regs.push(((*p).clone(), s, s3));
        }
        let mut regs: Vec<Ptr> = Vec::new();
        for ((array, lin, class), (rb, step)) in ptrs.iter().zip(&row_polys) {
            let reg = self
                .long_reg()
                .ok_or_else(|| Error::Internal("pointer registers counted but not free".into()))?;
            let Storage::Slot(sl) = self.k.arrays[array].storage else {
                return Err(Error::Internal("a block pointer into the frame".into()));
            };
            let off = self.lin_value(lin)?;
            self.e.mov(g(reg), crate::emit::q(arg(sl)))?;
            self.e.lea(reg, Mem::sib(reg, off, Scale::X8, 0)?);
            self.free(off);
            let rows = match three_rows_fit(rb) {
                Some(c) => Rows::Const(c),
                None if lean => Rows::Step(self.inv(rb)?),
                None => {
                    let (_, s, s3) = stride_regs
                        .iter()
                        .find(|(p, _, _)| p == rb)
                        .ok_or_else(|| Error::Internal("a row stride without registers".into()))?;
                    Rows::Regs(*s, *s3)
                }
            };
            regs.push(Ptr {
                class: *class,
                reg,
                rows,
                step: step.clone(),
            });
        }
        // double parameters broadcast once
        let mut bcast: HashMap<String, u8> = HashMap::new();
        for n in &names {
            let Some((sl, ParamClass::Double)) = self.k.param_slot(n) else {
                return Err(Error::Internal(format!("unknown double parameter {n}")));
            };
            let v = self.vreg()?;
            self.e.vbroadcast_mem(v, arg(sl));
            bcast.insert(n.to_string(), v);
        }
        let block_top = self.e.label();
        self.e.bind(block_top)?;
        self.block(plan, &block_calls, &place, &regs, &bcast)?;
        for p in &regs {
            if let (Rows::Step(_), Class::Lane) = (p.rows, p.class) {
                // moved by four rows already
                continue;
            }
            match p.step.as_const() {
                Some(c) if i32::try_from(c).is_ok() => self.e.add(g(p.reg), imm(c))?,
                _ => {
                    let quarter = p.step.scale(1).and_then(|s| {
                        stride_regs
                            .iter()
                            .find(|(x, _, _)| x.scale(4).as_ref() == Some(&s))
                    });
                    match quarter {
                        Some((_, s, _)) => self.e.lea(p.reg, Mem::sib(p.reg, *s, Scale::X4, 0)?),
                        None => {
                            let o = self.inv(&p.step)?;
                            self.e.add(g(p.reg), o)?;
                        }
                    }
                }
            }
        }
        self.e.add(Self::loc_op2(c2loc), imm(4))?;
        self.cmp_loc(c2loc, hl)?;
        self.e.jcc(codegen_x86::Cond::Le, block_top);
        for p in &regs {
            self.free(p.reg);
        }
        for v in bcast.into_values() {
            self.vfree(v);
        }
        for (_, s, s3) in &stride_regs {
            self.free(*s);
            self.free(*s3);
        }
        self.vars.pop();
        self.e.bind(after_blocks)?;
        self.free_loc(c2loc);
        self.free_loc(hl);
        // the edges are not the bulk of the nest: the arrays they walk
        // across rows do not count as the nest's ([`State::strided`]), and
        // their notes say they are edges
        let (strided, first_note) = (self.strided, self.notes.len());
        // ---- the columns left over: the original body, four rows ----
        let c2 = &plan.inner;
        let blocks = AExpr::floord(
            AExpr::add(
                AExpr::sub(plan.last.clone(), plan.init.clone()),
                AExpr::Int(1),
            ),
            4,
        );
        let rest_init = AExpr::max(
            plan.init.clone(),
            AExpr::add(plan.init.clone(), AExpr::mul(4, blocks)),
        );
        let rest_body = Node::block(
            (0..4)
                .map(|s| shifted(&plan.calls, &all, &plan.outer, s))
                .collect(),
        );
        self.node(&Node::For {
            iterator: c2.clone(),
            init: rest_init,
            cond: AExpr::cmp(CmpOp::Le, AExpr::var(c2), plan.last.clone()),
            inc: 1,
            body: Box::new(rest_body),
        })?;
        // ---- the producers of the four rows, in the original order ----
        if !plan.producers.is_empty() {
            for s in 0..4 {
                self.node(&Node::For {
                    iterator: c2.clone(),
                    init: plan.init.clone(),
                    cond: AExpr::cmp(CmpOp::Le, AExpr::var(c2), plan.last.clone()),
                    inc: 1,
                    body: Box::new(shifted(&plan.calls, &plan.producers, &plan.outer, s)),
                })?;
            }
        }
        self.e.add(Self::loc_op2(loc), imm(4))?;
        self.e.jmp(strip_top);
        // ---- the rows left over: the original body ----
        self.e.bind(rows_left)?;
        self.cmp_bound2(loc, bound)?;
        self.e.jcc(crate::state::cc(op).negate(), done);
        let rows_top = self.e.label();
        self.e.bind(rows_top)?;
        self.node(&plan.inner_loop)?;
        self.e.add(Self::loc_op2(loc), imm(1))?;
        self.cmp_bound2(loc, bound)?;
        self.e.jcc(crate::state::cc(op), rows_top);
        self.e.bind(done)?;
        self.strided = strided;
        for n in &mut self.notes[first_note..] {
            n.push_str(EDGE);
        }
        self.notes.push(format!(
            "loop {}: vectorized by 4x4 blocks with register transposes ({} transposed read{}){}",
            plan.outer,
            ntrans,
            if ntrans == 1 { "" } else { "s" },
            if plan.producers.is_empty() {
                ""
            } else {
                ", then the producers' rows"
            }
        ));
        Ok(true)
    }

    fn loc_op2(l: Loc) -> Operand {
        match l {
            Loc::Reg(r) => g(r),
            Loc::Slot(s) => crate::emit::q(crate::state::slot(s)),
        }
    }

    /// `cmp a, b` of two locations.
    fn cmp_loc(&mut self, a: Loc, b: Loc) -> Result<()> {
        self.cmp_bound2(a, Self::loc_op2(b))
    }

    /// `cmp it, bound` (through a temporary when both are in memory).
    fn cmp_bound2(&mut self, it: Loc, b: Operand) -> Result<()> {
        match (it, b) {
            (Loc::Reg(r), b) => self.e.cmp(g(r), b),
            (Loc::Slot(s), Operand::Gpr(_) | Operand::Imm(_)) => {
                self.e.cmp(crate::emit::q(crate::state::slot(s)), b)
            }
            (Loc::Slot(s), b) => {
                let t = self.temp()?;
                self.e.mov(g(t), crate::emit::q(crate::state::slot(s)))?;
                self.e.cmp(g(t), b)?;
                self.free(t);
                Ok(())
            }
        }
    }

    /// One 4×4 block: transposed reads, then per row `c2 + r` the
    /// forwarding producers' values and the consumers, lanes along `c1`.
    fn block(
        &mut self,
        plan: &Plan,
        block_calls: &[usize],
        place: &HashMap<(usize, usize), (usize, i32)>,
        ptrs: &[Ptr],
        bcast: &HashMap<String, u8>,
    ) -> Result<()> {
        // transposed reads: (pointer, displacement) → four registers
        let mut trans: HashMap<(usize, i32), [u8; 4]> = HashMap::new();
        for (gi, disp) in transposed_places(plan, place) {
            let p = &ptrs[gi];
            let mut row = [0u8; 4];
            match p.rows {
                Rows::Step(o) => {
                    let t = self.temp()?;
                    self.e.mov(g(t), g(p.reg))?;
                    for (s, v) in row.iter_mut().enumerate() {
                        *v = self.vreg()?;
                        self.e.vload(Width::Vec4, *v, Mem::base(t).disp(disp));
                        if s < 3 {
                            self.e.add(g(t), o)?;
                        }
                    }
                    self.free(t);
                }
                rows => {
                    for (s, v) in row.iter_mut().enumerate() {
                        *v = self.vreg()?;
                        let m = row_mem(p.reg, disp, rows, s as i32)?;
                        self.e.vload(Width::Vec4, *v, m);
                    }
                }
            }
            let mut u = [0u8; 4];
            for x in u.iter_mut() {
                *x = self.vreg()?;
            }
            self.e.vunpck(false, u[0], row[0], row[1]);
            self.e.vunpck(true, u[1], row[0], row[1]);
            self.e.vunpck(false, u[2], row[2], row[3]);
            self.e.vunpck(true, u[3], row[2], row[3]);
            // column r of the rows: lanes c1 .. c1+3 at c2 + r
            self.e.vperm2f128(row[0], u[0], u[2], 0x20);
            self.e.vperm2f128(row[1], u[1], u[3], 0x20);
            self.e.vperm2f128(row[2], u[0], u[2], 0x31);
            self.e.vperm2f128(row[3], u[1], u[3], 0x31);
            for x in u {
                self.vfree(x);
            }
            trans.insert((gi, disp), row);
        }
        self.wide = true;
        for r in 0..4i32 {
            self.inner = Some(Inner::default());
            // producers' values, and whether the row owns the register
            let mut values: HashMap<usize, (u8, bool)> = HashMap::new();
            for &u in block_calls {
                let (s, args) = &plan.calls[u];
                let call = Call { stmt: s, args };
                let Expr::Assign { target, value, .. } = &s.body else {
                    return Err(Error::Internal(
                        "a block call that is not an assignment".into(),
                    ));
                };
                let mut hoisted = HashMap::new();
                let mut all = Vec::new();
                nodes(value, &mut all);
                for x in all {
                    if let Expr::DoubleParam(n) = x {
                        let v = bcast.get(n).ok_or_else(|| {
                            Error::Internal(format!("double parameter {n} not broadcast"))
                        })?;
                        hoisted.insert((u, key(x)), *v);
                    }
                }
                let mut accesses = Vec::new();
                access_nodes(value, &mut accesses);
                let mut loaded = Vec::new();
                for (ai, node) in accesses {
                    let v = if let Some(p) = plan.forward.get(&(u, ai)) {
                        values
                            .get(p)
                            .ok_or_else(|| Error::Internal("a producer without its value".into()))?
                            .0
                    } else {
                        let (gi, disp) = place[&(u, ai)];
                        match plan.reads[&(u, ai)] {
                            Class::Trans => trans[&(gi, disp)][r as usize],
                            Class::Lane => {
                                let v = self.vreg()?;
                                let m = row_mem(ptrs[gi].reg, disp, ptrs[gi].rows, r)?;
                                self.e.vload(Width::Vec4, v, m);
                                loaded.push(v);
                                v
                            }
                        }
                    };
                    hoisted.insert((u, key(node)), v);
                }
                {
                    let inner = self.inner_mut()?;
                    inner.hoisted = hoisted;
                    inner.cur = u;
                }
                // a producer copying a transposed read: that register
                if let (Expr::Access(ai), false) = (&**value, plan.consumers.contains(&u)) {
                    if let Some(Class::Trans) = plan.reads.get(&(u, *ai)) {
                        let (gi, disp) = place[&(u, *ai)];
                        values.insert(u, (trans[&(gi, disp)][r as usize], false));
                        continue;
                    }
                }
                let v = self.dval(&call, value, Width::Vec4)?;
                for x in loaded {
                    self.vfree(x);
                }
                if plan.consumers.contains(&u) {
                    let (gi, disp) = place[&(u, *target)];
                    let m = row_mem(ptrs[gi].reg, disp, ptrs[gi].rows, r)?;
                    self.e.vstore(Width::Vec4, m, v);
                    self.vfree(v);
                } else {
                    values.insert(u, (v, true));
                }
            }
            for (v, owned) in values.into_values() {
                if owned {
                    self.vfree(v);
                }
            }
            self.inner = None;
            for p in ptrs {
                if let (Rows::Step(o), Class::Lane) = (p.rows, p.class) {
                    self.e.add(g(p.reg), o)?;
                }
            }
        }
        for row in trans.into_values() {
            for v in row {
                self.vfree(v);
            }
        }
        Ok(())
    }
}
