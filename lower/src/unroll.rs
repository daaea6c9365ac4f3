//! Unrolling of innermost loops that write down columns: a unit-step
//! innermost loop without guards in which some statement writes an element
//! whose row (a subscript before the last) moves with the loop
//! (`C[j][i] += ..` in a `j` loop), or whose last subscript moves by other
//! than one element (`A[N - 1 - i]`, a reversal), stays scalar, and each iteration is a
//! cache miss whose latency only overlaps with the misses of the
//! iterations the processor holds in flight. Unrolled by [`FACTOR`]
//! (`for c in steps of F { S(c); S(c + 1); ..; S(c + F - 1) }`, then the
//! remainder loop from `init + F·floord(ub - init + 1, F)`), the loop pays
//! its counter, bound test and the pointers of the unit-stride groups once
//! per `F` iterations, so more iterations (and misses) fit in flight. The
//! instances and their order are the original ones.

use ast::{CmpOp, Expr, Node};

use crate::kernel::Kernel;
use crate::linear::{lin_of_ast, lin_of_subscript};

/// The unroll factor.
pub const FACTOR: i64 = 4;

/// Whether the statement calls of `body` (no loops, no guards) include one
/// that writes an element whose row moves with `inner`; `None` for a body
/// with loops or guards.
fn writes_down_columns(k: &Kernel, body: &Node, iters: &[String], inner: &str) -> Option<bool> {
    match body {
        Node::Block(v) => {
            let mut any = false;
            for x in v {
                any |= writes_down_columns(k, x, iters, inner)?;
            }
            Some(any)
        }
        Node::User { name, args } => {
            let s = k.statements.get(name)?;
            let is_iter = |v: &str| iters.iter().any(|i| i == v);
            let lins: Vec<_> = args
                .iter()
                .map(|a| lin_of_ast(a, &is_iter))
                .collect::<Option<_>>()?;
            let coeff =
                |sub| lin_of_subscript(sub, &s.iterators, &lins).map(|l| l.coeff(inner).as_const());
            Some(s.accesses.iter().filter(|a| a.write).any(|a| {
                let Some((last, rows)) = a.index.split_last() else {
                    return false;
                };
                // a row that moves, or a last subscript that moves by other
                // than one element (`A[N - 1 - i]`)
                rows.iter()
                    .any(|sub| coeff(sub).is_some_and(|k| k != Some(0)))
                    || coeff(last).is_some_and(|k| !matches!(k, Some(0) | Some(1)))
            }))
        }
        _ => None,
    }
}

fn unroll_loop(k: &Kernel, n: &Node, iters: &[String]) -> Option<Node> {
    let (c, init, ub, body) = crate::split::unit_step_loop(n)?;
    let mut all = iters.to_vec();
    all.push(c.clone());
    if !writes_down_columns(k, body, &all, c)? {
        return None;
    }
    let copies = (0..FACTOR)
        .map(|u| {
            let by = Expr::add(Expr::var(c), Expr::Int(u));
            let mut b = body.clone();
            substitute(&mut b, c, &by, u);
            b
        })
        .collect();
    let blocks = Expr::floord(
        Expr::add(Expr::sub(ub.clone(), init.clone()), Expr::Int(1)),
        FACTOR,
    );
    Some(Node::Block(vec![
        Node::For {
            iterator: c.clone(),
            init: init.clone(),
            cond: Expr::cmp(
                CmpOp::Le,
                Expr::var(c),
                Expr::sub(ub.clone(), Expr::Int(FACTOR - 1)).fold(),
            ),
            inc: FACTOR,
            body: Box::new(Node::block(copies)),
        },
        Node::For {
            iterator: c.clone(),
            init: Expr::max(
                init.clone(),
                Expr::add(init.clone(), Expr::mul(FACTOR, blocks)),
            ),
            cond: Expr::cmp(CmpOp::Le, Expr::var(c), ub),
            inc: 1,
            body: Box::new(body.clone()),
        },
    ]))
}

/// The statement arguments of `n` with `c` replaced by `by` (copy `u`; copy
/// 0 keeps them as they are).
fn substitute(n: &mut Node, c: &str, by: &Expr, u: i64) {
    match n {
        Node::Block(v) => v.iter_mut().for_each(|x| substitute(x, c, by, u)),
        Node::User { args, .. } if u != 0 => {
            for a in args.iter_mut() {
                *a = a.substitute(c, by).fold();
            }
        }
        _ => {}
    }
}

/// Every innermost loop that writes down columns unrolled (module doc).
pub fn unroll_column_writes(k: &Kernel, n: &Node) -> Node {
    /// `None` when nothing changed.
    fn walk(k: &Kernel, n: &Node, iters: &mut Vec<String>) -> Option<Node> {
        let Node::For { iterator, .. } = n else {
            return n.map_children(|x| walk(k, x, iters));
        };
        // a nest lowered by transposed blocks keeps its loops
        let outer = |v: &str| iters.iter().any(|i| i == v);
        if crate::transpose::detect(k, n, &outer).is_some() {
            return None;
        }
        if let Some(u) = unroll_loop(k, n, iters) {
            return Some(u);
        }
        iters.push(iterator.clone());
        let new = n.map_children(|x| walk(k, x, iters));
        iters.pop();
        new
    }
    walk(k, n, &mut Vec::new()).unwrap_or_else(|| n.clone())
}
