//! Loop-invariant sub-expressions of statement bodies: the maximal ones
//! worth a register (hoisted before the loop), and the literals outside
//! them (kept in registers in a vector loop).

use scop::model::Expr;

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
pub(super) fn collect_literals<'a>(
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
