//! Column nests by 4×4 blocks with register transposes.
//!
//! A unit-step loop `c1` around one unit-step loop `c2` of statement calls
//! (`t[i+j] = B[i][j]; C[j][i] = C[j][i] + t[i+j]`, lrr_listing1) whose
//! written array `C` is contiguous along `c1` and strided along `c2` walks
//! `C` down its columns, a new cache line per iteration. Here four rows
//! `c1 .. c1+3` run together: per block of four `c2`, the reads contiguous
//! along `c2` (`B[i][j..j+3]` for four `i`) are loaded four wide and
//! transposed in registers (`vunpcklpd`/`vunpckhpd`, `vperm2f128`), so
//! that every statement runs with its lanes along `c1`, and `C` is read and
//! written a row of four at a time (`C[j][i..i+3]`).
//!
//! ## When (proved from the accesses, else [`detect`] says no)
//! * *Producers*: the calls writing an array `X` that the body reads, each
//!   read of `X` being *forwarded*: the element the last earlier call
//!   writing `X` wrote in the same iteration (equal subscripts as affine
//!   functions of the iterators). A producer's value reads only arrays
//!   that nothing in the nest writes, so it is the same wherever it is
//!   evaluated. The other calls are *consumers*; in them a forwarded read
//!   is replaced by the producer's value, after which no consumer touches
//!   `X`.
//! * Every array a consumer writes is accessed in the body (reads and
//!   writes) at one element `f(c1, c2)` only, and `f`'s subscripts have
//!   rank 2 in `(c1, c2)`: distinct iterations touch distinct elements, so
//!   the consumer instances carry no dependence among themselves and may
//!   run in any order. Producers and consumers touch disjoint written
//!   arrays and producers read nothing written: they commute.
//! * So the nest may run as: per strip of four rows, the consumers by 4×4
//!   blocks (then the columns left over, with the original body), then the
//!   producers of the strip's four rows in the original order (each
//!   element of `X` gets its last value last; the leftover columns' own
//!   stores of `X` are rewritten with the same values); the rows left over
//!   run the original body. Each consumer instance computes what it did.
//! * In the blocks every read is contiguous along `c1` (a vector load per
//!   row `c2`) or along `c2` (transposed), every consumer write along
//!   `c1`; at least one read is transposed; the values are `+ - * /`,
//!   negation, `sqrt`, `fabs`, literals and `double` parameters (broadcast
//!   once before the blocks); the bounds of `c2` do not
//!   depend on `c1`. Evaluated without contraction: results are the
//!   interpreter's bit for bit.

use std::collections::HashMap;

use ast::{CmpOp, Expr as AExpr, Node};
use codegen_x86::{Gpr, Mem, Scale};
use scop::model::Expr;

use crate::body::{key, Call, Inner};
use crate::emit::{g, imm, Operand, Width};
use crate::error::{Error, Result};
use crate::jam::mentions;
use crate::kernel::{Kernel, ParamClass, StmtInfo, Storage};
use crate::linear::{lin_of_ast, lin_of_subscript, Lin, Poly};
use crate::state::{arg, Loc, State};

/// The end of the notes of the loops around the blocks (leftover columns
/// and rows, the producers' rows).
pub(crate) const EDGE: &str = " (an edge of transposed blocks)";

/// How a read of the blocks is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// Contiguous along `c1`: one 4-wide load per row `c2`.
    Lane,
    /// Contiguous along `c2`: four rows `c1 .. c1+3` loaded and transposed.
    Trans,
}

/// A recognised nest (module doc).
#[derive(Debug, Clone)]
pub(crate) struct Plan<'k> {
    outer: String,
    inner: String,
    /// `c2`'s first and last values.
    init: AExpr,
    last: AExpr,
    /// The `c2` loop as given.
    inner_loop: Node,
    /// Statement calls of the body, in order.
    calls: Vec<(&'k StmtInfo, Vec<AExpr>)>,
    /// Calls writing forwarded-only arrays, body order.
    producers: Vec<usize>,
    /// The other calls, body order.
    consumers: Vec<usize>,
    /// `(consumer call, read access) → producer call`.
    forward: HashMap<(usize, usize), usize>,
    /// Reads of the blocks (consumers and forwarding producers) and their
    /// class.
    reads: HashMap<(usize, usize), Class>,
}

fn unwrap(n: &Node) -> &Node {
    match n {
        Node::Block(v) if v.len() == 1 => unwrap(&v[0]),
        n => n,
    }
}

fn users<'a>(n: &'a Node, out: &mut Vec<(&'a String, &'a Vec<AExpr>)>) -> Option<()> {
    match n {
        Node::Block(v) => v.iter().try_for_each(|x| users(x, out)),
        Node::User { name, args } => {
            out.push((name, args));
            Some(())
        }
        _ => None,
    }
}

/// Every node of an expression tree, parents first.
fn nodes<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    out.push(e);
    match e {
        Expr::Assign { value, .. } => nodes(value, out),
        Expr::Unary { arg, .. } | Expr::ToDouble(arg) => nodes(arg, out),
        Expr::Binary { lhs, rhs, .. } => {
            nodes(lhs, out);
            nodes(rhs, out);
        }
        Expr::Call { args, .. } => args.iter().for_each(|a| nodes(a, out)),
        Expr::Access(_)
        | Expr::Double(_)
        | Expr::Int(_)
        | Expr::IntVar(_)
        | Expr::DoubleParam(_) => {}
    }
}

/// The `double` parameters of a value, in order of appearance.
fn params(e: &Expr) -> Vec<&str> {
    let mut all = Vec::new();
    nodes(e, &mut all);
    all.into_iter()
        .filter_map(|x| match x {
            Expr::DoubleParam(n) => Some(n.as_str()),
            _ => None,
        })
        .collect()
}

/// Every `double` parameter of the value has an argument slot.
fn params_known(k: &Kernel, e: &Expr) -> bool {
    params(e)
        .iter()
        .all(|n| matches!(k.param_slot(n), Some((_, ParamClass::Double))))
}

/// Subscripts of an access as [`Lin`]s over the AST iterators.
fn dims(s: &StmtInfo, args: &[Lin], a: usize) -> Option<Vec<Lin>> {
    s.accesses[a]
        .index
        .iter()
        .map(|sub| lin_of_subscript(sub, &s.iterators, args))
        .collect()
}

/// The flat element offset from the subscripts.
fn flat(k: &Kernel, array: &str, d: &[Lin]) -> Option<Lin> {
    let strides = k.arrays.get(array)?.strides.as_ref()?;
    let mut off = Lin::default();
    for (l, st) in d.iter().zip(strides) {
        off = off.add(&l.mul(st)?)?;
    }
    Some(off)
}

/// The nest `n` (a `c1` loop) when it can run by transposed blocks (module
/// doc); `outer` tells the enclosing iterators.
pub(crate) fn detect<'k>(
    k: &'k Kernel,
    n: &Node,
    outer: &dyn Fn(&str) -> bool,
) -> Option<Plan<'k>> {
    let (c1, _, _, b1) = crate::split::unit_step_loop(unwrap(n))?;
    let inner_loop = unwrap(b1);
    let (c2, init, last, b2) = crate::split::unit_step_loop(inner_loop)?;
    if mentions(init, c1) || mentions(&last, c1) || c1 == c2 {
        return None;
    }
    let mut us = Vec::new();
    users(b2, &mut us)?;
    if us.is_empty() {
        return None;
    }
    let is_iter = |v: &str| outer(v) || v == c1 || v == c2;
    let mut calls = Vec::new();
    let mut subs: Vec<Vec<Vec<Lin>>> = Vec::new();
    for (name, args) in &us {
        let s = k.statements.get(*name)?;
        if s.iterators.len() != args.len() {
            return None;
        }
        let Expr::Assign { value, .. } = &s.body else {
            return None;
        };
        if !crate::body::vectorizable(&s.body) || !params_known(k, value) {
            return None;
        }
        let l: Vec<Lin> = args
            .iter()
            .map(|a| lin_of_ast(a, &is_iter))
            .collect::<Option<_>>()?;
        let mut d = Vec::new();
        for (ai, a) in s.accesses.iter().enumerate() {
            let info = k.arrays.get(&a.array)?;
            if !matches!(info.storage, Storage::Slot(_)) || info.strides.is_none() {
                return None;
            }
            d.push(dims(s, &l, ai)?);
        }
        calls.push((s, (*args).clone()));
        subs.push(d);
    }
    let target = |u: usize| -> Option<usize> {
        match &calls[u].0.body {
            Expr::Assign { target, .. } => Some(*target),
            _ => None,
        }
    };
    let written_array = |u: usize| -> Option<&str> {
        let t = target(u)?;
        Some(calls[u].0.accesses[t].array.as_str())
    };
    let written: Vec<&str> = (0..calls.len()).filter_map(written_array).collect();
    // forwarded reads: the element the last earlier writer of the array
    // wrote in this iteration
    let mut forward = HashMap::new();
    let mut forwarded_only: HashMap<&str, bool> = HashMap::new();
    for (q, (s, _)) in calls.iter().enumerate() {
        for (ai, a) in s.accesses.iter().enumerate() {
            if a.write || !written.contains(&a.array.as_str()) {
                continue;
            }
            let p = (0..q)
                .rev()
                .find(|&p| written_array(p) == Some(a.array.as_str()));
            let ok = p.is_some_and(|p| {
                target(p).is_some_and(|t| subs[p][t] == subs[q][ai])
                    && written_array(q) != Some(a.array.as_str())
            });
            let entry = forwarded_only.entry(a.array.as_str()).or_insert(true);
            *entry &= ok;
            if let (true, Some(p)) = (ok, p) {
                forward.insert((q, ai), p);
            }
        }
    }
    let x_arrays: Vec<&str> = forwarded_only
        .iter()
        .filter(|(_, &ok)| ok)
        .map(|(a, _)| *a)
        .collect();
    forward.retain(|(q, ai), _| x_arrays.contains(&calls[*q].0.accesses[*ai].array.as_str()));
    let (producers, consumers): (Vec<usize>, Vec<usize>) =
        (0..calls.len()).partition(|&u| written_array(u).is_some_and(|a| x_arrays.contains(&a)));
    if consumers.is_empty() {
        return None;
    }
    // producers read nothing that the nest writes
    for &p in &producers {
        let s = calls[p].0;
        if s.accesses
            .iter()
            .any(|a| !a.write && written.contains(&a.array.as_str()))
        {
            return None;
        }
    }
    // arrays the consumers write: one element function of rank 2
    let (i1, i2) = (c1.as_str(), c2.as_str());
    for &q in &consumers {
        let w = written_array(q)?;
        let mut f: Option<&Vec<Lin>> = None;
        for (u, (s, _)) in calls.iter().enumerate() {
            for (ai, a) in s.accesses.iter().enumerate() {
                if a.array != w {
                    continue;
                }
                match f {
                    None => f = Some(&subs[u][ai]),
                    Some(g) if *g == subs[u][ai] => {}
                    Some(_) => return None,
                }
            }
        }
        let rows: Vec<(i64, i64)> = f?
            .iter()
            .filter_map(|l| Some((l.coeff(i1).as_const()?, l.coeff(i2).as_const()?)))
            .collect();
        let rank2 = rows
            .iter()
            .any(|a| rows.iter().any(|b| a.0 * b.1 - a.1 * b.0 != 0));
        if !rank2 {
            return None;
        }
    }
    // classes of the blocks' accesses
    let mut needed: Vec<usize> = consumers.clone();
    needed.extend(forward.values().copied());
    needed.sort_unstable();
    needed.dedup();
    let mut reads = HashMap::new();
    let one = Poly::constant(1);
    for &u in &needed {
        let s = calls[u].0;
        for (ai, a) in s.accesses.iter().enumerate() {
            if forward.contains_key(&(u, ai)) {
                continue;
            }
            let l = flat(k, &a.array, &subs[u][ai])?;
            let (ci, cj) = (l.coeff(i1), l.coeff(i2));
            if a.write {
                // only consumers' writes are executed in the blocks
                if consumers.contains(&u) && ci != one {
                    return None;
                }
                continue;
            }
            let class = if ci == one {
                Class::Lane
            } else if cj == one {
                Class::Trans
            } else {
                return None;
            };
            reads.insert((u, ai), class);
        }
    }
    if !reads.values().any(|c| *c == Class::Trans) {
        return None;
    }
    Some(Plan {
        outer: c1.clone(),
        inner: c2.clone(),
        init: init.clone(),
        last,
        inner_loop: inner_loop.clone(),
        calls,
        producers,
        consumers,
        forward,
        reads,
    })
}

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
            .filter(|r| !r.as_const().is_some_and(|c| i32::try_from(3 * c).is_ok()))
            .collect();
        distinct.sort();
        distinct.dedup();
        let ntrans = {
            let mut t: Vec<(usize, i32)> = plan
                .reads
                .iter()
                .filter(|(_, c)| **c == Class::Trans)
                .map(|(r, _)| place[r])
                .collect();
            t.sort_unstable();
            t.dedup();
            t.len()
        };
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
            self.e.jcc(crate::nest::cc(op).negate(), rows_left);
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
            let rows = match rb.as_const() {
                Some(c) if i32::try_from(3 * c).is_ok() => Rows::Const(c as i32),
                _ if lean => Rows::Step(self.inv(rb)?),
                _ => {
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
        self.e.jcc(crate::nest::cc(op).negate(), done);
        let rows_top = self.e.label();
        self.e.bind(rows_top)?;
        self.node(&plan.inner_loop)?;
        self.e.add(Self::loc_op2(loc), imm(1))?;
        self.cmp_bound2(loc, bound)?;
        self.e.jcc(crate::nest::cc(op), rows_top);
        self.e.bind(done)?;
        self.strided = strided;
        for n in &mut self.notes[first_note..] {
            n.push_str(EDGE);
        }
        self.notes.push(format!(
            "loop {}: vectorized by 4x4 blocks with register transposes ({} transposed read{}), then the producers' rows",
            plan.outer,
            ntrans,
            if ntrans == 1 { "" } else { "s" }
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
        let mut keys: Vec<(usize, i32)> = plan
            .reads
            .iter()
            .filter(|(_, c)| **c == Class::Trans)
            .map(|(r, _)| place[r])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        for (gi, disp) in keys {
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
