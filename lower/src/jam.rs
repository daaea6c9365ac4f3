//! Unroll-and-jam of parallel outer loops (register reuse across rows):
//! `for i { for k { for j { S(i, k, j) } } }` with `i` carrying no
//! dependence becomes `for i in steps of F { for k { for j { S(i, ..);
//! S(i + 1, ..); ..; S(i + F - 1, ..) } } }` plus a remainder loop. The
//! copies of one statement read the operands they share (`B[k][j]`) once
//! per iteration of the innermost loop instead of once per row, and being
//! different iterations of a parallel loop they are independent, which the
//! vectorizer is told through [`Copies`].

use std::collections::HashMap;

use ast::{CmpOp, Expr, Node};

/// The statement calls made by unroll-and-jam: `(name, args)` → (loop
/// number, copy number). Two calls of one loop with different copy numbers
/// are different iterations of a parallel loop: no dependence joins them.
pub type Copies = HashMap<(String, Vec<Expr>), (usize, usize)>;

/// Whether `v` occurs in `e`.
pub(crate) fn mentions(e: &Expr, v: &str) -> bool {
    use ast::Expr as E;
    match e {
        E::Int(_) => false,
        E::Var(n) => n == v,
        E::Neg(a) | E::Mul(_, a) | E::FloorDiv(a, _) | E::ExactDiv(a, _) | E::Mod(a, _) => {
            mentions(a, v)
        }
        E::Add(a, b)
        | E::Sub(a, b)
        | E::Min(a, b)
        | E::Max(a, b)
        | E::Cmp(_, a, b)
        | E::And(a, b)
        | E::Or(a, b) => mentions(a, v) || mentions(b, v),
    }
}

/// `body` with every call replaced by `f` copies at `it + u`; `None` when a
/// bound or condition inside depends on `it` (not a rectangular nest).
fn jam(body: &Node, it: &str, f: i64, id: usize, copies: &mut Copies) -> Option<Node> {
    let jammed = jam_in(body, it, f, id, copies).ok()?;
    Some(jammed.unwrap_or_else(|| body.clone()))
}

/// A bound or condition depends on the jammed iterator.
struct NotRectangular;

/// [`jam`]; `Ok(None)` when nothing changed (no calls).
fn jam_in(
    n: &Node,
    it: &str,
    f: i64,
    id: usize,
    copies: &mut Copies,
) -> Result<Option<Node>, NotRectangular> {
    match n {
        Node::For { init, cond, .. } if mentions(init, it) || mentions(cond, it) => {
            Err(NotRectangular)
        }
        Node::If { cond, .. } if mentions(cond, it) => Err(NotRectangular),
        Node::User { name, args } => {
            let mut v = Vec::new();
            for u in 0..f {
                let by = Expr::add(Expr::var(it), Expr::Int(u));
                let args: Vec<Expr> = args.iter().map(|a| a.substitute(it, &by).fold()).collect();
                copies.insert((name.clone(), args.clone()), (id, u as usize));
                v.push(Node::User {
                    name: name.clone(),
                    args,
                });
            }
            Ok(Some(Node::Block(v)))
        }
        _ => n.try_map_children(|x| jam_in(x, it, f, id, copies)),
    }
}

/// Unroll-and-jams by `f` each top-level unit-step loop (also under a
/// top-level `if`) for which `worth` holds (the caller checks that it is
/// parallel and that it pays).
pub fn jam_outer(
    node: &Node,
    f: i64,
    worth: &dyn Fn(&Node, usize) -> bool,
    copies: &mut Copies,
) -> Node {
    let tops: Vec<&Node> = match node {
        Node::Block(v) => v.iter().collect(),
        n => vec![n],
    };
    let mut out = Vec::new();
    let mut id = 0;
    for n in tops {
        out.push(jam_top(n, f, &mut id, worth, copies).unwrap_or_else(|| n.clone()));
    }
    Node::block(out)
}

/// [`jam_outer`] of one top-level node; `None` when nothing changed.
fn jam_top(
    n: &Node,
    f: i64,
    next_id: &mut usize,
    worth: &dyn Fn(&Node, usize) -> bool,
    copies: &mut Copies,
) -> Option<Node> {
    // a sequence under a top-level `if` (loops distributed around a
    // contraction): each member on its own
    if let Node::Block(_) | Node::If { els: None, .. } = n {
        return n.map_children(|x| jam_top(x, f, next_id, worth, copies));
    }
    let Node::For {
        iterator,
        init,
        cond,
        inc: 1,
        body,
    } = n
    else {
        return None;
    };
    let dim = iterator
        .strip_prefix('c')
        .and_then(|d| d.parse::<usize>().ok());
    let ub = match cond {
        Expr::Cmp(CmpOp::Le, a, b)
            if matches!(&**a, Expr::Var(v) if v == iterator) && !mentions(b, iterator) =>
        {
            (**b).clone()
        }
        Expr::Cmp(CmpOp::Lt, a, b)
            if matches!(&**a, Expr::Var(v) if v == iterator) && !mentions(b, iterator) =>
        {
            Expr::sub((**b).clone(), Expr::Int(1))
        }
        _ => return None,
    };
    let mut mine = Copies::new();
    let id = *next_id;
    *next_id += 1;
    let jammed = match dim {
        Some(l) if worth(n, l) => jam(body, iterator, f, id, &mut mine)?,
        _ => return None,
    };
    copies.extend(mine);
    // full blocks of f, then the remainder from init + f * floor((ub - init + 1) / f)
    let blocks = Expr::floord(
        Expr::add(Expr::sub(ub.clone(), init.clone()), Expr::Int(1)),
        f,
    );
    Some(Node::Block(vec![
        Node::For {
            iterator: iterator.clone(),
            init: init.clone(),
            cond: Expr::cmp(
                CmpOp::Le,
                Expr::var(iterator),
                Expr::sub(ub.clone(), Expr::Int(f - 1)),
            ),
            inc: f,
            body: Box::new(jammed),
        },
        Node::For {
            iterator: iterator.clone(),
            init: Expr::max(init.clone(), Expr::add(init.clone(), Expr::mul(f, blocks))),
            cond: Expr::cmp(CmpOp::Le, Expr::var(iterator), ub),
            inc: 1,
            body: body.clone(),
        },
    ]))
}

/// Whether unroll-and-jam of the top-level loop `n` pays: it has an inner
/// loop, and every statement writes an element that changes with its
/// innermost loop (so no statement needs scalar promotion, which the copies
/// would defeat).
pub fn writes_move_inside(k: &crate::kernel::Kernel, n: &Node) -> bool {
    fn walk(
        k: &crate::kernel::Kernel,
        n: &Node,
        iters: &mut Vec<String>,
        depth: usize,
        ok: &mut bool,
    ) {
        match n {
            Node::For { iterator, body, .. } => {
                iters.push(iterator.clone());
                walk(k, body, iters, depth + 1, ok);
                iters.pop();
            }
            Node::If { then, els, .. } => {
                walk(k, then, iters, depth, ok);
                if let Some(e) = els {
                    walk(k, e, iters, depth, ok);
                }
            }
            Node::Block(v) => v.iter().for_each(|x| walk(k, x, iters, depth, ok)),
            Node::User { name, args } => {
                let Some(s) = k.statements.get(name) else {
                    *ok = false;
                    return;
                };
                let (Some(inner), true) = (iters.last(), depth >= 2) else {
                    *ok = false;
                    return;
                };
                let is_iter = |v: &str| iters.iter().any(|i| i == v);
                let lins: Option<Vec<crate::linear::Lin>> = args
                    .iter()
                    .map(|a| crate::linear::lin_of_ast(a, &is_iter))
                    .collect();
                let moves = lins.is_some_and(|lins| {
                    s.accesses.iter().filter(|a| a.write).all(|a| {
                        a.index.iter().any(|sub| {
                            crate::linear::lin_of_subscript(sub, &s.iterators, &lins)
                                .is_some_and(|l| !l.coeff(inner).is_zero())
                        })
                    })
                });
                *ok &= moves;
            }
        }
    }
    let mut ok = true;
    walk(k, n, &mut Vec::new(), 0, &mut ok);
    ok
}
