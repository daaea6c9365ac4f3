//! Constraint pools for property tests: a test picks subsets of a pool of
//! constraints over `i`, `j` to build unions of 2-dimensional sets inside a
//! small box, where the brute-force [`crate::oracle`] is exact.

use presburger::Map;

use crate::oracle::{box_points, contains};

include!("pool_base.rs");

/// A union of 2-dimensional sets for property tests: one disjunct per entry
/// of `disjuncts`, each the conjunction of the chosen constraints of `pool`
/// (over `i`, `j`) inside the box `-6 <= i, j <= 6`, so that brute force over
/// [`box_points`]`(2, -7, 7)` is exact. No disjunct gives the empty set.
pub fn pool_set(pool: &[&str], disjuncts: &[Vec<usize>]) -> String {
    if disjuncts.is_empty() {
        return "{ [i, j] : 1 = 0 }".to_string();
    }
    let parts: Vec<String> = disjuncts
        .iter()
        .map(|d| {
            let mut c = vec!["-6 <= i <= 6".to_string(), "-6 <= j <= 6".to_string()];
            c.extend(d.iter().map(|&k| pool[k].to_string()));
            format!("[i, j] : {}", c.join(" and "))
        })
        .collect();
    format!("{{ {} }}", parts.join("; "))
}

/// `a ⊆ b` checked point by point on the box `-7..=7` of two dimensions
/// (which covers every set of [`pool_set`]).
pub fn pool_subset(a: &Map, b: &Map) -> bool {
    box_points(2, -7, 7)
        .iter()
        .all(|p| !contains(a, p) || contains(b, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_sets_parse_and_compare_by_brute_force() {
        let pool = pool_with(&["i >= 1"]);
        assert_eq!(pool.len(), BASE_POOL.len() + 1);
        let a: Map = pool_set(&pool, &[vec![7], vec![9]]).parse().unwrap();
        let b: Map = pool_set(&pool, &[vec![]]).parse().unwrap();
        let e: Map = pool_set(&pool, &[]).parse().unwrap();
        assert!(pool_subset(&a, &b));
        assert!(!pool_subset(&b, &a));
        assert!(pool_subset(&e, &a));
        // the diagonal meets i >= 1 at (1, 1)
        assert!(contains(&a, &box_points(2, 1, 1)[0]));
    }
}
