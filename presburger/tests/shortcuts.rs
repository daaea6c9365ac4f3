//! The cheap exact shortcuts of `is_subset` / `is_equal` / `is_empty` against
//! the plain difference-based test and a brute-force count over a box.

use presburger::{Map, UnionMap};
use proptest::prelude::*;
use testkit::oracle::{basic_contains, box_points, contains};
use testkit::pool::{pool_set, pool_subset, pool_with, BASE_POOL};

/// Constraint pool over `[i, j]`; disjuncts pick subsets of it, so that
/// syntactic containment between disjuncts is frequent.
const POOL_LEN: usize = BASE_POOL.len() + EXTRA.len();

/// Appended to `BASE_POOL`.
const EXTRA: &[&str] = &[
    "(i + j) mod 2 = 0",
    "exists (e : i = 3e + 1)",
    "exists (e : 2e <= j <= 2e + 0)",
    "-2 <= i - 2j <= 1",
    "i >= 5",
];

fn set(disjuncts: &[Vec<usize>]) -> String {
    pool_set(&pool_with(EXTRA), disjuncts)
}

fn disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..POOL_LEN, 0..4), 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn subset_shortcuts_agree(da in disjuncts(), db in disjuncts(), mix in any::<bool>()) {
        let mut db = db;
        if mix {
            // B contains weakened copies of A's disjuncts
            db.extend(da.iter().map(|d| d[..d.len() / 2].to_vec()));
        }
        let a: Map = set(&da).parse().unwrap();
        let b: Map = set(&db).parse().unwrap();
        let fast = a.is_subset(&b).unwrap();
        prop_assert_eq!(fast, a.is_subset_by_difference(&b).unwrap(), "{} <= {}", set(&da), set(&db));
        prop_assert_eq!(fast, pool_subset(&a, &b), "{} <= {}", set(&da), set(&db));
        // the depth-first difference test against the whole difference
        for (x, y) in [(&a, &b), (&b, &a)] {
            let whole = x.subtract(y).unwrap().is_empty().unwrap();
            prop_assert_eq!(x.difference_is_empty(y).unwrap(), whole, "{} \\ {}", x, y);
            prop_assert_eq!(whole, pool_subset(x, y), "{} \\ {}", x, y);
        }
        let ua: UnionMap = set(&da).parse().unwrap();
        let ub: UnionMap = set(&db).parse().unwrap();
        prop_assert_eq!(ua.is_subset(&ub).unwrap(), fast);
        let eq = fast && pool_subset(&b, &a);
        prop_assert_eq!(ua.is_equal(&ub).unwrap(), eq);
        let empty = box_points(2, -7, 7).iter().all(|p| !contains(&a, p));
        prop_assert_eq!(a.is_empty().unwrap(), empty);
        prop_assert_eq!(ua.is_empty().unwrap(), empty);
        let c = a.coalesce().unwrap();
        prop_assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "coalesce of {}", set(&da));
        for bm in a.basic_maps().iter().chain(b.basic_maps()) {
            let mut r = bm.clone();
            r.remove_redundancies().unwrap();
            let (x, y) = (Map::from_basic(bm.clone()), Map::from_basic(r));
            prop_assert!(pool_subset(&x, &y) && pool_subset(&y, &x), "redundancies of {:?}", bm);
            let fast = bm.sample().unwrap();
            prop_assert_eq!(fast.is_some(), bm.sample_by_search().unwrap().is_some());
            if let Some(p) = fast {
                prop_assert!(basic_contains(bm, &p), "sample {:?} not in {:?}", p, bm);
            }
        }
    }
}

/// Subtrahends for `union_subtract_of_no_disjuncts`: in the minuend's space
/// with no disjunct, alone or beside a part of another space.
const NO_DISJUNCTS: &[&str] = &[
    "{ [i, j] : false }",
    "{ [i, j] : false; [k] : 0 <= k <= 3 }",
    "{ [k] : 0 <= k <= 3; [i, j] : 1 = 0 }",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// `UnionMap::subtract` answers `x \ ∅` with `x` itself when the
    /// subtrahend's part in `x`'s space has no disjuncts (no simplification,
    /// no emptiness test), and `x ⊆ ∅` by the emptiness of `x`; against the
    /// plain `Map::subtract` / `Map::is_subset` and enumeration.
    #[test]
    fn union_subtract_of_no_disjuncts(da in disjuncts(), db in disjuncts(), which in 0..4usize) {
        let a: Map = set(&da).parse().unwrap();
        let ua: UnionMap = set(&da).parse().unwrap();
        let (ub_text, b): (String, Map) = if which < NO_DISJUNCTS.len() {
            (NO_DISJUNCTS[which].to_string(), "{ [i, j] : false }".parse().unwrap())
        } else {
            (set(&db), set(&db).parse().unwrap())
        };
        let ub: UnionMap = ub_text.parse().unwrap();
        let u = ua.subtract(&ub).unwrap().to_map().unwrap().expect("one space");
        let oracle = a.subtract(&b).unwrap();
        prop_assert!(pool_subset(&u, &oracle) && pool_subset(&oracle, &u), "{} \\ {}", set(&da), ub_text);
        for p in box_points(2, -7, 7) {
            prop_assert_eq!(contains(&u, &p), contains(&a, &p) && !contains(&b, &p));
        }
        if which < NO_DISJUNCTS.len() {
            prop_assert_eq!(b.basic_maps().len(), 0);
            // the shortcut: the minuend's disjuncts as they are
            let fresh: Map = set(&da).parse().unwrap();
            prop_assert_eq!(u.basic_maps().len(), fresh.basic_maps().len());
            prop_assert_eq!(u.to_string(), fresh.to_string());
        }
        // `a ⊆ b` (for no disjuncts: `a` empty) against the plain Map test
        // and enumeration
        let sub = ua.is_subset(&ub).unwrap();
        prop_assert_eq!(sub, a.is_subset(&b).unwrap(), "{} <= {}", set(&da), ub_text);
        prop_assert_eq!(sub, pool_subset(&a, &b), "{} <= {}", set(&da), ub_text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// `Map::union` with an operand of no disjuncts is the other operand,
    /// its disjuncts as they are (shared, not copied): against enumeration,
    /// on either side, with the parameters of the two operands equal or not.
    #[test]
    fn map_union_with_no_disjuncts(da in disjuncts(), left in any::<bool>(), params in any::<bool>()) {
        let a: Map = set(&da).parse().unwrap();
        let none: Map = if params {
            "[m] -> { [i, j] : false }".parse().unwrap()
        } else {
            "{ [i, j] : false }".parse().unwrap()
        };
        prop_assert_eq!(none.basic_maps().len(), 0);
        let u = if left { none.union(&a).unwrap() } else { a.union(&none).unwrap() };
        prop_assert_eq!(u.basic_maps().len(), a.basic_maps().len());
        for p in box_points(if params { 3 } else { 2 }, -7, 7) {
            // (with `[m]`, the union's points are `[m, i, j]`)
            prop_assert_eq!(contains(&u, &p), contains(&a, &p[p.len() - 2..]));
        }
        if !params {
            prop_assert_eq!(u.to_string(), a.to_string());
        }
    }
}
