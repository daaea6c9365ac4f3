//! Map construction leaves out the disjuncts the simplification finds empty, and
//! nothing else changes (brute force on a box).

use presburger::{BasicMap, Map};
use proptest::prelude::*;
use testkit::oracle::{basic_contains, box_points, contains};
use testkit::pool::{pool_set, pool_with};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Leaving out the disjuncts found empty keeps the set: the map built by
    /// `from_disjuncts` has the points of its disjuncts as written
    /// (brute force on a box), and never more disjuncts.
    #[test]
    fn from_disjuncts_keeps_the_points(
        disjuncts in prop::collection::vec(prop::collection::vec(0usize..17, 1..4), 1..4)
    ) {
        // (the last four: `i = j` from an opposite pair, then `2j >= 1`
        // against `j <= 0`, empty for the simplification and not for `refute`)
        let pool = pool_with(&[
            "i >= 5", "j <= -3", "i = 3", "i + j <= -6", "i >= j", "j >= i", "i + j >= 1", "j <= 0",
        ]);
        let as_written: Vec<BasicMap> = disjuncts
            .iter()
            .map(|d| pool_set(&pool, std::slice::from_ref(d)).parse().unwrap())
            .collect();
        let space = as_written[0].space().clone();
        let m = Map::from_disjuncts(space, as_written.clone()).unwrap();
        prop_assert!(m.basic_maps().len() <= as_written.len());
        for p in box_points(2, -7, 7) {
            let in_some = as_written.iter().any(|b| basic_contains(b, &p));
            prop_assert_eq!(contains(&m, &p), in_some, "at {:?}", p);
        }
        // the parser builds maps the same way
        let parsed: Map = pool_set(&pool, &disjuncts).parse().unwrap();
        prop_assert_eq!(parsed.basic_maps().len(), m.basic_maps().len());
    }
}
