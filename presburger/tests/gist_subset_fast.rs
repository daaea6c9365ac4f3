//! The linear-programming shortcuts of `Map::gist` (rows decided on the
//! rational relaxation) and `Map::is_subset` (an integral vertex outside
//! every disjunct of the right side) against their simple versions
//! (`gist_by_emptiness`, `is_subset_by_difference`) and brute force over a
//! box of points and a parameter.

use presburger::{Int, Map};
use proptest::prelude::*;
use testkit::oracle::{box_points, contains};

/// Constraints over the parameter `n` and `i`, `j`: bounds, diagonals,
/// parametric bounds, a stride and an existential, so that gists keep and
/// drop rows of each kind and inclusions fail at vertices and inside.
const POOL: &[&str] = &[
    "i >= -3",
    "i <= 4",
    "j >= -2",
    "j <= 3",
    "i + j >= 0",
    "i - j <= 2",
    "2i + j <= 5",
    "i = j",
    "i <= n",
    "j >= n - 1",
    "i + j <= 2n + 1",
    "n >= 1",
    "n <= 0",
    "2j >= i + n",
    "(i + j) mod 2 = 0",
    "exists (e : i = 3e + n)",
    "3i <= 2j + 4",
    "i >= 1",
];

/// Every disjunct lies in the box `-6 <= i, j <= 6`, `-2 <= n <= 2`, so that
/// brute force over `-7..=7` in each of `[n, i, j]` is exact.
fn set(disjuncts: &[Vec<usize>]) -> String {
    if disjuncts.is_empty() {
        return "[n] -> { [i, j] : 1 = 0 }".to_string();
    }
    let parts: Vec<String> = disjuncts
        .iter()
        .map(|d| {
            let mut c = vec![
                "-6 <= i <= 6".to_string(),
                "-6 <= j <= 6".to_string(),
                "-2 <= n <= 2".to_string(),
            ];
            c.extend(d.iter().map(|&k| POOL[k].to_string()));
            format!("[i, j] : {}", c.join(" and "))
        })
        .collect();
    format!("[n] -> {{ {} }}", parts.join("; "))
}

fn disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..POOL.len(), 0..5), 0..3)
}

/// The points `[n, i, j]` of the box `-3 <= n <= 3`, `-7 <= i, j <= 7`
/// (around every set of [`set`]).
fn points() -> Vec<Vec<Int>> {
    box_points(3, -7, 7)
        .into_iter()
        .filter(|p| p[0] >= Int::from(-3) && p[0] <= Int::from(3))
        .collect()
}

/// `a ⊆ b` point by point over [`points`].
fn subset_by_points(a: &Map, b: &Map) -> bool {
    points().iter().all(|p| !contains(a, p) || contains(b, p))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn subset_witness_agrees(da in disjuncts(), db in disjuncts(), shrink in any::<bool>()) {
        let mut db = db;
        if shrink {
            // B holds weakened copies of A's disjuncts: inclusions that
            // hold or fail narrowly
            db.extend(da.iter().map(|d| d[..d.len() / 2].to_vec()));
        }
        let a: Map = set(&da).parse().unwrap();
        let b: Map = set(&db).parse().unwrap();
        let fast = a.is_subset(&b).unwrap();
        prop_assert_eq!(fast, a.is_subset_by_difference(&b).unwrap(), "{} <= {}", set(&da), set(&db));
        prop_assert_eq!(fast, subset_by_points(&a, &b), "{} <= {}", set(&da), set(&db));
    }

    #[test]
    fn gist_same_as_by_emptiness(da in disjuncts(), dc in disjuncts()) {
        let a: Map = set(&da).parse().unwrap();
        let c: Map = set(&dc).parse().unwrap();
        let fast = a.gist(&c).unwrap();
        let plain = a.gist_by_emptiness(&c).unwrap();
        // the shortcut decides each row as the exact test does: the same rows
        prop_assert_eq!(fast.to_string(), plain.to_string(), "gist {} in {}", set(&da), set(&dc));
        // and the gist is right: equal to `a` inside the context
        for p in points() {
            if contains(&c, &p) {
                prop_assert_eq!(contains(&fast, &p), contains(&a, &p), "gist {} in {} at {:?}", set(&da), set(&dc), p);
            }
        }
    }
}
