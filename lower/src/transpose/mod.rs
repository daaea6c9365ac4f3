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

use ast::{Expr as AExpr, Node};
use scop::model::Expr;

use crate::jam::mentions;
use crate::kernel::{Kernel, ParamClass, StmtInfo, Storage};
use crate::linear::{lin_of_ast, lin_of_subscript, Lin, Poly};

mod blocks;

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
