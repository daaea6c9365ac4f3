//! Skewed unroll-and-jam of a recurrence (a wavefront over rows kept in
//! registers): `for i { for j { S(i, j) } }` where both loops carry
//! dependences (seidel's `A[i][j]` needs `A[i][j-1]` and `A[i-1][j+1]`
//! of the same sweep) runs `F` rows at once, row `i + r` lagging `s·r`
//! columns behind row `i`:
//!
//! ```text
//! for (i = lb; i <= ub - (F-1); i += F)
//!   for (j = jlb; j <= jub + s·(F-1); j++)
//!     for r in 0..F:  if (jlb <= j - s·r <= jub) S(i + r, j - s·r)
//! for (i = <the rows left>; i <= ub; i++) for j S(i, j)
//! ```
//!
//! Within a block of `F` rows this is the order of the skewed band
//! `(i, j + s·i)` tiled by `F × 1`, which keeps every dependence when,
//! for the time differences `(d_i, d_j)` of dependent instances inside one
//! iteration of the enclosing loops, `d_i >= 0` and `d_j + s·d_i >= 0`
//! ([`crate::parallel::skew_keeps`], checked on the model's dependences,
//! not assumed). The skew taken is one more than the least that keeps
//! them, so a row's value from the row above comes from an earlier
//! iteration of the jammed loop: each row's recurrence (a chain of
//! additions and a division, 30–40 cycles per element, which the scalar
//! loop pays per element) then overlaps with the other rows' in the
//! processor, `F` elements per chain latency instead of one. The guards
//! are removed by the guard splitting that runs next (a prologue and an
//! epilogue of `s·(F-1)` steps around a guard-free middle), and the rows
//! are pointer groups of their own whose carried values stay in registers
//! (module `forward`). The instances executed are the original ones; only
//! their order changes.

use ast::{CmpOp, Expr, Node};

use crate::jam::mentions;
use crate::split::unit_step_loop;

/// Rows run at once: six pointer groups for a three-row stencil, and the
/// rows' carried values in the vector registers.
pub const ROWS: i64 = 4;

/// Whether `n` is a statement call or a block of them.
fn calls_only(n: &Node) -> bool {
    match n {
        Node::User { .. } => true,
        Node::Block(v) => !v.is_empty() && v.iter().all(|x| matches!(x, Node::User { .. })),
        _ => false,
    }
}

/// The loop's dimension from its iterator's name (`c3` → 3).
fn dim(it: &str) -> Option<usize> {
    it.strip_prefix('c').and_then(|d| d.parse().ok())
}

/// Every pair of unit-step loops `for c_l { for c_(l+1) { calls } }` whose
/// inner bounds do not depend on `c_l`, for which `skew(outer, l)` gives
/// a skew `s` (the caller checks that the pair is a recurrence worth it and
/// that the order keeps the dependences), rewritten as in the module doc.
pub fn wave_jam(node: &Node, skew: &dyn Fn(&Node, usize) -> Option<i64>) -> Node {
    node.rewrite(|n| rewrite(n, skew))
}

/// The rewritten pair rooted at `n`, or `None` when it is not one.
fn rewrite(n: &Node, skew: &dyn Fn(&Node, usize) -> Option<i64>) -> Option<Node> {
    let (ci, ilb, iub, inner) = unit_step_loop(n)?;
    let (cj, jlb, jub, body) = unit_step_loop(inner)?;
    if !calls_only(body) || mentions(jlb, ci) || mentions(&jub, ci) {
        return None;
    }
    let l = dim(ci)?;
    if dim(cj)? != l + 1 {
        return None;
    }
    let s = skew(n, l)?;
    if !(1..=4).contains(&s) {
        return None;
    }
    let f = ROWS;
    let calls: Vec<&Node> = match body {
        Node::Block(v) => v.iter().collect(),
        one => vec![one],
    };
    let le = |a: Expr, b: Expr| Expr::cmp(CmpOp::Le, a, b);
    let mut rows = Vec::new();
    for r in 0..f {
        let at_i = Expr::add(Expr::var(ci), Expr::Int(r));
        let at_j = Expr::sub(Expr::var(cj), Expr::Int(s * r)).fold();
        let copy: Vec<Node> = calls
            .iter()
            .map(|c| match c {
                Node::User { name, args } => Node::User {
                    name: name.clone(),
                    args: args
                        .iter()
                        .map(|a| a.substitute(ci, &at_i).substitute(cj, &at_j).fold())
                        .collect(),
                },
                other => (*other).clone(),
            })
            .collect();
        // jlb <= j - s·r <= jub, as thresholds on j
        let cond = Expr::and(
            le(
                Expr::add(jlb.clone(), Expr::Int(s * r)).fold(),
                Expr::var(cj),
            ),
            le(
                Expr::var(cj),
                Expr::add(jub.clone(), Expr::Int(s * r)).fold(),
            ),
        );
        rows.push(Node::If {
            cond,
            then: Box::new(Node::block(copy)),
            els: None,
        });
    }
    let jammed = Node::For {
        iterator: ci.clone(),
        init: ilb.clone(),
        cond: le(
            Expr::var(ci),
            Expr::sub(iub.clone(), Expr::Int(f - 1)).fold(),
        ),
        inc: f,
        body: Box::new(Node::For {
            iterator: cj.clone(),
            init: jlb.clone(),
            cond: le(
                Expr::var(cj),
                Expr::add(jub.clone(), Expr::Int(s * (f - 1))).fold(),
            ),
            inc: 1,
            body: Box::new(Node::Block(rows)),
        }),
    };
    // the rows left: from ilb + f·floord(iub - ilb + 1, f)
    let blocks = Expr::floord(
        Expr::add(Expr::sub(iub.clone(), ilb.clone()), Expr::Int(1)),
        f,
    );
    let rest = Node::For {
        iterator: ci.clone(),
        init: Expr::max(ilb.clone(), Expr::add(ilb.clone(), Expr::mul(f, blocks))),
        cond: le(Expr::var(ci), iub),
        inc: 1,
        body: Box::new(inner.clone()),
    };
    Some(Node::Block(vec![jammed, rest]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `for c0 in 1..=N-2 { for c1 in jlb..=M-2 { S0(c0, c1) } }`.
    fn pair_from(jlb: Expr) -> Node {
        let le = |a: Expr, b: Expr| Expr::cmp(CmpOp::Le, a, b);
        Node::For {
            iterator: "c0".into(),
            init: Expr::Int(1),
            cond: le(Expr::var("c0"), Expr::sub(Expr::var("N"), Expr::Int(2))),
            inc: 1,
            body: Box::new(Node::For {
                iterator: "c1".into(),
                init: jlb,
                cond: le(Expr::var("c1"), Expr::sub(Expr::var("M"), Expr::Int(2))),
                inc: 1,
                body: Box::new(Node::User {
                    name: "S0".into(),
                    args: vec![Expr::var("c0"), Expr::var("c1")],
                }),
            }),
        }
    }

    fn pair() -> Node {
        pair_from(Expr::Int(1))
    }

    /// The rewritten nest runs every instance once, and in an order where
    /// `(i, j)` comes after `(i, j - 1)` and `(i - 1, j + s - 1)` (the
    /// dependences a skew of `s` keeps, the row above one column later
    /// than the lag): checked by brute force over small sizes, also after
    /// guard splitting.
    #[test]
    fn same_instances_in_a_skewed_order() {
        for s in 1..=3 {
            let w = wave_jam(&pair(), &|_, _| Some(s));
            assert_ne!(w, pair());
            for w in [w.clone(), crate::split::split_guards(&w)] {
                for n in 2..12i64 {
                    for m in 2..12i64 {
                        let params = [("N".to_string(), n), ("M".to_string(), m)];
                        let got = ast::run(&w, &params, 1 << 20).unwrap();
                        let mut want = ast::run(&pair(), &params, 1 << 20).unwrap();
                        let pos = |i: i64, j: i64| got.iter().position(|(_, a)| a == &vec![i, j]);
                        let mut sorted = got.clone();
                        sorted.sort();
                        want.sort();
                        assert_eq!(sorted, want, "s={s} N={n} M={m}");
                        for (_, a) in &got {
                            let (i, j) = (a[0], a[1]);
                            let here = pos(i, j).unwrap();
                            if let Some(p) = pos(i, j - 1) {
                                assert!(p < here);
                            }
                            if let Some(p) = pos(i - 1, j + s - 1) {
                                assert!(p < here, "s={s} N={n} M={m} ({i},{j})");
                            }
                        }
                    }
                }
            }
        }
    }

    /// A pair whose inner bounds depend on the outer iterator, or a body
    /// that is not calls only, is left alone; so is a refused skew.
    #[test]
    fn other_shapes_are_left_alone() {
        assert_eq!(wave_jam(&pair(), &|_, _| None), pair());
        let tri = pair_from(Expr::var("c0"));
        assert_eq!(wave_jam(&tri, &|_, _| Some(2)), tri);
    }
}
