//! Contractions `C[i][j] = C[i][j] + a(i, k) * b(k, j)`: recognised in a
//! perfect rectangular nest of three unit-step loops whose body is one
//! statement, lowered by [`crate::tile`] to packed panels and a register
//! micro-kernel; and loop distribution that isolates such nests.
//!
//! The roles come from the written element: `k` is the loop it does not
//! depend on, `j` the loop of its last subscript (unit stride, that
//! subscript is `j + const`), `i` the remaining one (another subscript is
//! `c·i + const`, so distinct `(i, j)` write distinct elements once the
//! accesses are in bounds, which `poly run` proves). The product's factors
//! split into an `a` side that does not depend on `j` and a `b` side that
//! does not depend on `i`; neither reads the written array. The only
//! dependences of the nest are then along `k` for one `(i, j)`, and the
//! micro-kernel keeps that order: any order of the `(i, j)` pairs is legal.

use ast::{CmpOp, Expr as AExpr, Node};
use scop::ast::BinOp;
use scop::model::{Expr, Ty};

use crate::body::vectorizable;
use crate::jam::mentions;
use crate::kernel::{Kernel, StmtInfo, Storage};
use crate::linear::{lin_of_ast, lin_of_subscript, Lin};

/// A recognised contraction nest.
#[derive(Debug, Clone)]
pub struct Contraction<'k> {
    /// The three loop iterators, outermost first.
    pub its: [String; 3],
    /// First values of the two inner loops.
    pub inits: [AExpr; 2],
    /// Last values of the two inner loops (`it <= ub`).
    pub lasts: [AExpr; 2],
    /// Position in [`Contraction::its`] of `i`, `j`, `k`.
    pub i: usize,
    /// See [`Contraction::i`].
    pub j: usize,
    /// See [`Contraction::i`].
    pub k: usize,
    /// The statement.
    pub stmt: &'k StmtInfo,
    /// Its call's arguments.
    pub args: Vec<AExpr>,
    /// The `a(i, k)` factor.
    pub a: &'k Expr,
    /// The `b(k, j)` factor.
    pub b: &'k Expr,
    /// `C - a*b` (the `a` side is packed negated).
    pub negate: bool,
    /// The `j` loop's bounds depend (affinely) on `i`: the nest is
    /// triangular or a band, tiled over its bounding box with every row's
    /// own `j` range at the edges.
    pub tri: bool,
}

/// `n` without single-element block wrappers.
fn unwrap(n: &Node) -> &Node {
    match n {
        Node::Block(v) if v.len() == 1 => unwrap(&v[0]),
        n => n,
    }
}

/// A unit-step loop `for (it = init; it <= last; it++) body`.
fn simple_loop(n: &Node) -> Option<(&str, &AExpr, AExpr, &Node)> {
    let Node::For {
        iterator,
        init,
        cond,
        inc: 1,
        body,
    } = unwrap(n)
    else {
        return None;
    };
    let last = match cond {
        AExpr::Cmp(op @ (CmpOp::Le | CmpOp::Lt), a, b)
            if matches!(&**a, AExpr::Var(v) if v == iterator) && !mentions(b, iterator) =>
        {
            if *op == CmpOp::Le {
                (**b).clone()
            } else {
                AExpr::sub((**b).clone(), AExpr::Int(1))
            }
        }
        _ => return None,
    };
    Some((iterator, init, last, body))
}

/// The loop iterators an expression's accesses depend on (indices into
/// `its`), or `None` when it is not a side a packing loop can evaluate.
fn side_deps(
    e: &Expr,
    s: &StmtInfo,
    lins: &[Lin],
    its: &[String; 3],
    c: &str,
) -> Option<[bool; 3]> {
    if !vectorizable(e) {
        return None;
    }
    let mut deps = [false; 3];
    let mut ok = true;
    let mut count = 0;
    walk_accesses(e, &mut |k| {
        count += 1;
        let a = &s.accesses[k];
        if a.array == c || a.write {
            ok = false;
            return;
        }
        for sub in &a.index {
            match lin_of_subscript(sub, &s.iterators, lins) {
                Some(l) => {
                    for (n, it) in its.iter().enumerate() {
                        deps[n] |= !l.coeff(it).is_zero();
                    }
                }
                None => ok = false,
            }
        }
    });
    // each access of a side gets a pointer (and a prefetch register) in
    // the packing loop: a few fit beside its temporaries
    (ok && count <= MAX_SIDE_ACCESSES).then_some(deps)
}

/// Most accesses a factor may read to be packed.
const MAX_SIDE_ACCESSES: usize = 3;

pub(crate) fn walk_accesses(e: &Expr, f: &mut dyn FnMut(usize)) {
    match e {
        Expr::Access(k) => f(*k),
        Expr::Assign { value, .. } => walk_accesses(value, f),
        Expr::Unary { arg, .. } | Expr::ToDouble(arg) => walk_accesses(arg, f),
        Expr::Binary { lhs, rhs, .. } => {
            walk_accesses(lhs, f);
            walk_accesses(rhs, f);
        }
        Expr::Call { args, .. } => args.iter().for_each(|a| walk_accesses(a, f)),
        _ => {}
    }
}

/// The contraction whose outer loop is `n`, if it is one; `outer` tells
/// which names are iterators of enclosing loops.
pub fn detect<'k>(
    k: &'k Kernel,
    n: &Node,
    outer: &dyn Fn(&str) -> bool,
) -> Option<Contraction<'k>> {
    let (i0, _, _, b0) = simple_loop(n)?;
    let (i1, init1, last1, b1) = simple_loop(b0)?;
    let (i2, init2, last2, b2) = simple_loop(b1)?;
    let its = [i0.to_string(), i1.to_string(), i2.to_string()];
    let Node::User { name, args } = unwrap(b2) else {
        return None;
    };
    let is_iter = |v: &str| outer(v) || its.iter().any(|x| x == v);
    let (s, lins, target, value) = assignment(k, name, args, &is_iter)?;
    let w = &s.accesses[target];
    if !matches!(k.arrays.get(&w.array)?.storage, Storage::Slot(_)) || w.index.is_empty() {
        return None;
    }
    // roles from the written element's subscripts
    let dims: Vec<Lin> = w
        .index
        .iter()
        .map(|sub| lin_of_subscript(sub, &s.iterators, &lins))
        .collect::<Option<_>>()?;
    let used =
        |l: &Lin| -> Vec<usize> { (0..3).filter(|&n| !l.coeff(&its[n]).is_zero()).collect() };
    let last_dim = dims.last()?;
    let [j] = used(last_dim)[..] else { return None };
    if last_dim.coeff(&its[j]).as_const() != Some(1) {
        return None;
    }
    let mut i = None;
    for d in &dims[..dims.len() - 1] {
        match used(d)[..] {
            [] => {}
            [x] if x != j && d.coeff(&its[x]).as_const().is_some() && i.is_none() => i = Some(x),
            _ => return None,
        }
    }
    let i = i?;
    let kk = 3 - i - j;
    // bounds: free of the nest's iterators, except that the `j` loop's may
    // be affine in `i` when `i` is an outer loop (syrk's `j <= i`)
    let bounds = [(init1, &last1), (init2, &last2)];
    let mut tri = false;
    for (m, (lo, hi)) in bounds.iter().enumerate() {
        for (q, it) in its[..m + 1].iter().enumerate() {
            if mentions(lo, it) || mentions(hi, it) {
                if m + 1 != j || q != i {
                    return None;
                }
                let iter = |v: &str| v == it;
                lin_of_ast(lo, &iter)?;
                lin_of_ast(hi, &iter)?;
                tri = true;
            }
        }
    }
    // nothing else of the statement depends on other iterators than ours
    // through the written array: value = C[..] + x*y (or y*x, or C - x*y)
    let (prod, negate) = accumulation(s, target, value)?;
    let Expr::Binary {
        op: BinOp::Mul,
        ty: Ty::Double,
        lhs: x,
        rhs: y,
    } = prod
    else {
        return None;
    };
    let dx = side_deps(x, s, &lins, &its, &w.array)?;
    let dy = side_deps(y, s, &lins, &its, &w.array)?;
    let (a, b) = if !dx[j] && !dy[i] {
        (&**x, &**y)
    } else if !dy[j] && !dx[i] {
        (&**y, &**x)
    } else {
        return None;
    };
    Some(Contraction {
        its,
        inits: [init1.clone(), init2.clone()],
        lasts: [last1, last2],
        i,
        j,
        k: kk,
        stmt: s,
        args: args.clone(),
        a,
        b,
        negate,
        tri,
    })
}

/// The statement `name` called with `args`: its info, the arguments as
/// linear forms (`is_iter` tells iterators from parameters), the written
/// access and the assigned value.
fn assignment<'k>(
    k: &'k Kernel,
    name: &str,
    args: &[AExpr],
    is_iter: &dyn Fn(&str) -> bool,
) -> Option<(&'k StmtInfo, Vec<Lin>, usize, &'k Expr)> {
    let s = k.statements.get(name)?;
    if s.iterators.len() != args.len() {
        return None;
    }
    let lins: Vec<Lin> = args
        .iter()
        .map(|a| lin_of_ast(a, is_iter))
        .collect::<Option<_>>()?;
    let Expr::Assign { target, value, .. } = &s.body else {
        return None;
    };
    Some((s, lins, *target, value))
}

/// `value` as `W + term`, `term + W` or `W - term` (negated) where `W`
/// reads the element the statement writes (access `target`).
fn accumulation<'e>(s: &StmtInfo, target: usize, value: &'e Expr) -> Option<(&'e Expr, bool)> {
    let w = &s.accesses[target];
    let same = |e: &Expr| matches!(e, Expr::Access(r) if { let a = &s.accesses[*r]; !a.write && a.array == w.array && a.index == w.index });
    match value {
        Expr::Binary {
            op: BinOp::Add,
            ty: Ty::Double,
            lhs,
            rhs,
        } if same(lhs) => Some((rhs, false)),
        Expr::Binary {
            op: BinOp::Add,
            ty: Ty::Double,
            lhs,
            rhs,
        } if same(rhs) => Some((lhs, false)),
        Expr::Binary {
            op: BinOp::Sub,
            ty: Ty::Double,
            lhs,
            rhs,
        } if same(lhs) => Some((rhs, true)),
        _ => None,
    }
}

/// Distributes loops around the contraction nests they contain, innermost
/// first: a loop whose body is a sequence with a member that, alone in the
/// loop (and, when the loop is nested, alone in the enclosing loop too), is
/// a contraction nest ([`detect`]) or a reduction pair to interchange
/// ([`interchange`]) becomes one loop per member, when
/// `parallel` says the loop carries no dependence (then no dependence joins
/// different iterations, and running all of one member's iterations before
/// the next member's keeps every dependence).
pub fn distribute(k: &Kernel, node: &Node, parallel: &dyn Fn(&Node, usize) -> bool) -> Node {
    distribute_in(k, node, parallel, None).unwrap_or_else(|| node.clone())
}

/// A loop's header: iterator, first value, condition, step.
type Header<'a> = (&'a str, &'a AExpr, &'a AExpr, i64);

fn with_header(h: Header, body: Node) -> Node {
    Node::For {
        iterator: h.0.to_string(),
        init: h.1.clone(),
        cond: h.2.clone(),
        inc: h.3,
        body: Box::new(body),
    }
}

/// [`distribute`] below the loop `parent`; `None` when nothing changed.
fn distribute_in(
    k: &Kernel,
    node: &Node,
    parallel: &dyn Fn(&Node, usize) -> bool,
    parent: Option<Header>,
) -> Option<Node> {
    let Node::For {
        iterator,
        init,
        cond,
        inc,
        body,
    } = node
    else {
        let new = node.map_children(|x| distribute_in(k, x, parallel, parent));
        return match (node, new) {
            // blocks come out flattened (as `Node::block` makes them)
            (Node::Block(_), Some(Node::Block(v))) => Some(Node::block(v)),
            (Node::Block(v), None)
                if v.len() == 1 || v.iter().any(|x| matches!(x, Node::Block(_))) =>
            {
                Some(Node::block(v.clone()))
            }
            (_, new) => new,
        };
    };
    let me: Header = (iterator, init, cond, *inc);
    let new_body = distribute_in(k, body, parallel, Some(me));
    let Node::Block(parts) = new_body.as_ref().unwrap_or(body) else {
        return new_body.map(|b| with_header(me, b));
    };
    let tiled = |p: &Node| {
        let alone = with_header(me, p.clone());
        detect(k, &alone, &|_| false).is_some()
            || swap_pair(k, &alone).is_some()
            || parent
                .is_some_and(|h| detect(k, &with_header(h, alone.clone()), &|_| false).is_some())
    };
    let wanted = parts.len() > 1
        && parts.iter().any(tiled)
        && iterator
            .strip_prefix('c')
            .and_then(|d| d.parse::<usize>().ok())
            .is_some_and(|l| parallel(&with_header(me, Node::Block(parts.clone())), l));
    if wanted {
        Some(Node::Block(
            parts.iter().map(|p| with_header(me, p.clone())).collect(),
        ))
    } else {
        new_body.map(|b| with_header(me, b))
    }
}

/// Whether `n` (a top-level loop, possibly under `if`s) is a contraction
/// nest.
pub fn is_contraction(k: &Kernel, n: &Node) -> bool {
    match n {
        Node::If {
            then, els: None, ..
        } => is_contraction(k, then),
        n => detect(k, n, &|_| false).is_some(),
    }
}

/// Interchanges reduction pairs `for j { for k { W[..][j] = W[..][j] ± e } }`
/// into `for k { for j { .. } }` where that makes the inner loop
/// unit-stride (doitgen's `sum[p] += A[s] * C4[s][p]`, covariance's
/// `cov[i][j] += data[k][i] * data[k][j]`): some access moves with `k` by
/// a stride other than 0 or 1 element, none moves with `j` so. Legal when
/// the written element's last subscript is `j + const`, its others are
/// free of `j` and `k`, `e` does not read `W`, and the loops' bounds are
/// free of each other: the only dependences are then along `k` for one
/// `j`, and each element still receives its terms in the order of `k` (the
/// rounding is unchanged). Contraction nests ([`detect`]) are left to the
/// tiling.
pub fn interchange(k: &Kernel, node: &Node) -> Node {
    interchange_in(k, node).unwrap_or_else(|| node.clone())
}

/// [`interchange`]; `None` when nothing changed.
fn interchange_in(k: &Kernel, n: &Node) -> Option<Node> {
    if let Node::For { .. } = n {
        if detect(k, n, &|_| false).is_some() {
            return None;
        }
        if let Some(swapped) = swap_pair(k, n) {
            return Some(swapped);
        }
    }
    n.map_children(|x| interchange_in(k, x))
}

fn swap_pair(k: &Kernel, n: &Node) -> Option<Node> {
    let (j, init_j, last_j, bj) = simple_loop(n)?;
    let (kk, init_k, last_k, bk) = simple_loop(bj)?;
    if mentions(init_k, j) || mentions(&last_k, j) {
        return None;
    }
    let Node::User { name, args } = unwrap(bk) else {
        return None;
    };
    let (s, lins, target, value) = assignment(k, name, args, &|v| k.param_slot(v).is_none())?;
    let w = &s.accesses[target];
    let (term, _) = accumulation(s, target, value)?;
    let mut reads_w = false;
    walk_accesses(term, &mut |r| reads_w |= s.accesses[r].array == w.array);
    if reads_w {
        return None;
    }
    // the written element: last subscript j + c, the others free of j, k
    let (last, rest) = w.index.split_last()?;
    let l = lin_of_subscript(last, &s.iterators, &lins)?;
    if l.coeff(j).as_const() != Some(1) || !l.coeff(kk).is_zero() {
        return None;
    }
    for sub in rest {
        let l = lin_of_subscript(sub, &s.iterators, &lins)?;
        if !l.coeff(j).is_zero() || !l.coeff(kk).is_zero() {
            return None;
        }
    }
    // element strides of every access along j and k
    let unit = |p: &crate::linear::Poly| matches!(p.as_const(), Some(0 | 1));
    let (mut k_bad, mut j_bad) = (false, false);
    for a in &s.accesses {
        let strides = k.arrays.get(&a.array)?.strides.clone()?;
        let mut flat = Lin::default();
        for (sub, st) in a.index.iter().zip(&strides) {
            flat = flat.add(&lin_of_subscript(sub, &s.iterators, &lins)?.mul(st)?)?;
        }
        k_bad |= !unit(&flat.coeff(kk));
        j_bad |= !unit(&flat.coeff(j));
    }
    if !k_bad || j_bad {
        return None;
    }
    let lp = |it: &str, init: &AExpr, last: &AExpr, body: Node| Node::For {
        iterator: it.to_string(),
        init: init.clone(),
        cond: AExpr::cmp(CmpOp::Le, AExpr::var(it), last.clone()),
        inc: 1,
        body: Box::new(body),
    };
    Some(lp(kk, init_k, &last_k, lp(j, init_j, &last_j, bk.clone())))
}
