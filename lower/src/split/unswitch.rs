//! Unswitching: the atoms of an innermost loop's guards that do not
//! mention its iterator `c` (`c2 % 2 == 0` in tiled_mix's `c2 % 2 == 0 ||
//! c3 >= c2 + 1`, in a `c3` loop) keep one value for the whole loop, so the
//! loop runs as `if (a) { loop with a true } else { loop with a false }`,
//! each version with its guards resolved and then split on the atoms left
//! (which mention `c`). The instances and their order are the original
//! ones; a version whose statements all fall away is dropped. Done for at
//! most [`MAX_ATOMS`] distinct atoms, when every atom mentioning `c` is
//! one the split decides in its middle (so each version's middle has no
//! guards), and the copies hold at most [`MAX_CALLS`] calls.

use ast::{Expr, Node};

use super::atom::{atoms, classify, guards, Atom};
use super::{calls, copy_resolved, counted_loop, split_loop, MAX_CALLS};
use crate::jam::mentions;

/// The most distinct loop-invariant atoms unswitched in one loop.
pub const MAX_ATOMS: usize = 2;

/// `n` unswitched (module doc); `None` when it does not apply.
pub(super) fn unswitch(n: &Node) -> Option<Node> {
    let (c, _, _, s, body) = counted_loop(n)?;
    let mut conds = Vec::new();
    guards(body, &mut conds)?;
    let mut leaves = Vec::new();
    for e in conds {
        atoms(e, &mut leaves);
    }
    let mut invariant: Vec<Expr> = Vec::new();
    for e in leaves {
        if !mentions(e, c) {
            if !invariant.contains(e) {
                invariant.push(e.clone());
            }
        } else {
            // each version's middle must be free of guards
            match classify(e, c)? {
                Atom::Divides { .. } if s != 1 => return None,
                _ => {}
            }
        }
    }
    if invariant.is_empty()
        || invariant.len() > MAX_ATOMS
        || calls(body) << invariant.len() > MAX_CALLS
    {
        return None;
    }
    Some(version(n, c, body, &invariant, &mut Vec::new()))
}

/// The loop `n` with `invariant[..values.len()]` fixed to `values`, and the
/// rest unswitched in turn.
fn version(n: &Node, c: &str, body: &Node, invariant: &[Expr], values: &mut Vec<bool>) -> Node {
    if let Some(a) = invariant.get(values.len()) {
        let mut branch = |v: bool| {
            values.push(v);
            let b = version(n, c, body, invariant, values);
            values.pop();
            b
        };
        let (then, els) = (branch(true), branch(false));
        let empty = |x: &Node| calls(x) == 0;
        return match (empty(&then), empty(&els)) {
            (true, true) => Node::Block(Vec::new()),
            (false, true) => Node::If {
                cond: a.clone(),
                then: Box::new(then),
                els: None,
            },
            _ => Node::If {
                cond: a.clone(),
                then: Box::new(then),
                els: Some(Box::new(els)),
            },
        };
    }
    let known = |e: &Expr| invariant.iter().position(|a| a == e).map(|i| values[i]);
    let resolved = copy_resolved(body, &known, c, 0);
    if calls(&resolved) == 0 {
        return Node::Block(Vec::new());
    }
    let Some(l) = n.with_loop_body(resolved) else {
        return n.clone();
    };
    split_loop(&l).unwrap_or(l)
}
