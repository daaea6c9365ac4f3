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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// Map construction keeps each disjunct's simplified copy, which later
    /// emptiness tests, samples and optima take instead of simplifying: their
    /// answers on parsed sets (divisions and existentials among the
    /// constraints, so that the simplification changes the locals) are those
    /// of brute force on the box.
    #[test]
    fn emptiness_and_optima_of_parsed_sets_are_exact(
        disjuncts in prop::collection::vec(prop::collection::vec(0usize..12, 1..4), 1..3)
    ) {
        let pool = pool_with(&[
            "exists (e : i = 2e)",
            "exists (e : j = 3e + 1)",
            "exists (e, f : i + j = 2e + 4f + 1)",
            "(i + j) mod 3 = 1",
            "floor(i/2) >= j",
            "exists (e : 2e <= i <= 2e + 1 and e >= j)",
            "i >= 2j + 1",
            "i + j >= 4",
            "j >= i + 3",
            "exists (e : 3e = i + 1 and e <= j)",
            "i <= -2",
            "2i + 3j <= 1",
        ]);
        let text = pool_set(&pool, &disjuncts);
        let m: Map = text.parse().unwrap();
        let points: Vec<_> = box_points(2, -7, 7).into_iter().filter(|p| contains(&m, p)).collect();
        prop_assert_eq!(m.is_empty().unwrap(), points.is_empty(), "{}", text);
        for b in m.basic_maps() {
            let some = box_points(2, -7, 7).iter().any(|p| basic_contains(b, p));
            prop_assert_eq!(b.is_empty().unwrap(), !some, "{}: {}", text, b);
            match b.sample().unwrap() {
                Some(p) => prop_assert!(basic_contains(b, &p), "{}: sample {:?}", text, p),
                None => prop_assert!(!some, "{}: no sample", text),
            }
        }
        // (the box points are in lexicographic order)
        let min: Vec<_> = box_points(2, -7, 7).into_iter().filter(|p| contains(&m.lexmin().unwrap(), p)).collect();
        prop_assert_eq!(min, points.first().cloned().into_iter().collect::<Vec<_>>(), "{}", text);
    }
}
