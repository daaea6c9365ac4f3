//! Common sub-expressions of one statement's value: sub-trees that occur
//! more than once (`2.0 * A[i][j][k]` three times in heat-3d's update, the
//! read `A[i][j][k]` a fourth time) are evaluated once into a register
//! that the other occurrences read. Only pure operations occur in a value
//! and every read of a statement happens before its write, so equal trees
//! have equal values: the results are the same bit for bit.

use std::collections::HashMap;

use scop::model::Expr;

use crate::body::{key, Call};

/// Groups of equal sub-trees of `value` (each group at least two nodes),
/// in the order their first occurrences finish in a post-order walk (a
/// group's sub-trees come before the groups containing it). Reads for
/// which `excluded` holds (served from or kept in a register across
/// iterations) and constants (memory operands already) form no group, and
/// neither does a tree containing an excluded read.
pub(crate) fn repeated<'e>(
    c: &Call,
    value: &'e Expr,
    excluded: &dyn Fn(usize) -> bool,
) -> Vec<Vec<&'e Expr>> {
    let mut order: Vec<String> = Vec::new();
    let mut nodes: HashMap<String, Vec<&'e Expr>> = HashMap::new();
    walk(c, value, excluded, &mut order, &mut nodes);
    order
        .into_iter()
        .filter_map(|s| {
            let g = nodes.remove(&s)?;
            (g.len() >= 2).then_some(g)
        })
        .collect()
}

/// The canonical text of `e` (`None`: never shared), recording the nodes
/// worth sharing.
fn walk<'e>(
    c: &Call,
    e: &'e Expr,
    excluded: &dyn Fn(usize) -> bool,
    order: &mut Vec<String>,
    nodes: &mut HashMap<String, Vec<&'e Expr>>,
) -> Option<String> {
    let mut sub = |x: &'e Expr| walk(c, x, excluded, order, nodes);
    let (text, worth) = match e {
        Expr::Access(k) => {
            if excluded(*k) {
                return None;
            }
            let a = c.stmt.accesses.get(*k)?;
            (format!("{}{:?}", a.array, a.index), true)
        }
        Expr::Double(f) => (format!("{:#x}", f.to_bits()), false),
        Expr::Int(_) | Expr::IntVar(_) | Expr::DoubleParam(_) => (format!("{e:?}"), false),
        Expr::Unary { op, ty, arg } => (format!("({op:?} {ty:?} {})", sub(arg)?), true),
        Expr::Binary { op, ty, lhs, rhs } => {
            let (l, r) = (sub(lhs), sub(rhs));
            (format!("({op:?} {ty:?} {} {})", l?, r?), true)
        }
        Expr::Call { name, ty, args } => {
            let mut parts = Vec::new();
            for a in args {
                parts.push(sub(a));
            }
            let parts: Option<Vec<String>> = parts.into_iter().collect();
            (format!("{name}:{ty:?}({})", parts?.join(",")), true)
        }
        Expr::ToDouble(a) => {
            let s = sub(a)?;
            // an integer literal converted is a constant
            (format!("(double {s})"), !matches!(**a, Expr::Int(_)))
        }
        Expr::Assign { .. } => return None,
    };
    if worth {
        let g = nodes.entry(text.clone()).or_default();
        if g.is_empty() {
            order.push(text.clone());
        }
        g.push(e);
    }
    Some(text)
}

/// The node keys of a group (for the per-statement map of shared
/// registers).
pub(crate) fn keys(group: &[&Expr]) -> Vec<usize> {
    group.iter().map(|e| key(e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{AccessInfo, StmtInfo};
    use scop::ast::BinOp;
    use scop::model::Ty;

    fn bin(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary {
            op,
            ty: Ty::Double,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }

    #[test]
    fn repeated_trees_are_grouped_innermost_first() {
        let acc = |a: &str, write| AccessInfo {
            array: a.into(),
            index: vec![],
            write,
        };
        // X = ((2*A) + B) * (2*A) + A, the three reads of A numbered apart
        let two_a = |k| bin(BinOp::Mul, Expr::Double(2.0), Expr::Access(k));
        let value = bin(
            BinOp::Add,
            bin(
                BinOp::Mul,
                bin(BinOp::Add, two_a(0), Expr::Access(1)),
                two_a(2),
            ),
            Expr::Access(3),
        );
        let stmt = StmtInfo {
            name: "S0".into(),
            iterators: vec![],
            body: Expr::Assign {
                op: scop::ast::AssignOp::Set,
                target: 4,
                value: Box::new(value.clone()),
            },
            accesses: vec![
                acc("A", false),
                acc("B", false),
                acc("A", false),
                acc("A", false),
                acc("X", true),
            ],
            disjoint: vec![],
        };
        let c = Call {
            stmt: &stmt,
            args: &[],
        };
        let groups = repeated(&c, &value, &|_| false);
        let shape: Vec<Vec<String>> = groups
            .iter()
            .map(|g| g.iter().map(|e| format!("{e:?}")).collect())
            .collect();
        assert_eq!(groups.len(), 2, "{shape:?}");
        assert_eq!(groups[0].len(), 3);
        assert!(groups[0]
            .iter()
            .all(|e| matches!(e, Expr::Access(0 | 2 | 3))));
        assert_eq!(groups[1].len(), 2);
        assert!(matches!(groups[1][0], Expr::Binary { op: BinOp::Mul, .. }));
        assert_ne!(keys(&groups[1])[0], keys(&groups[1])[1]);
        // a read kept in a register across iterations is never shared, nor
        // is a tree containing it
        let groups = repeated(&c, &value, &|k| k == 2);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 2);
        // constants alone are not worth a register
        let sum = bin(BinOp::Add, Expr::Double(1.0), Expr::Double(1.0));
        assert!(repeated(&c, &sum, &|_| false).is_empty());
    }
}
