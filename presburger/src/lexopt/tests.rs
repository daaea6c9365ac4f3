//! The rational shortcut of the dominance test against its oracle, on the
//! pieces of random disjuncts' optima (the merge's own inputs).

use super::dominance::{beats_somewhere, beats_somewhere_reference};
use super::solve_of;
use crate::basic::BasicMap;
use crate::testing::extra_constraint;
use proptest::prelude::*;

/// `[n] -> { [x0, x1] : ... }`: a box and up to three constraints mixing
/// the outputs and the parameter (equalities, strides, congruences,
/// inequalities).
fn disjunct() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::collection::vec(-2i64..=2, 3),
            -6i64..=6,
            0u8..6,
            2i64..=3,
        ),
        0..4,
    )
    .prop_map(|cs| {
        let vars = ["x0", "x1", "n"];
        let mut parts = vec!["-3 <= x0 <= 6".to_string(), "-3 <= x1 <= 6".to_string()];
        parts.extend(
            cs.iter()
                .filter_map(|(a, c, kind, m)| extra_constraint(a, &vars, *c, *kind, *m)),
        );
        format!("[n] -> {{ [x0, x1] : {} }}", parts.join(" and "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// For every piece of one disjunct's optimum and the other disjunct:
    /// the shortcut answers as an exact test per level.
    #[test]
    fn beats_somewhere_agrees_with_exact_levels(a in disjunct(), b in disjunct(), max in any::<bool>()) {
        let (a, b): (BasicMap, BasicMap) = (a.parse().unwrap(), b.parse().unwrap());
        let (np, no) = (1, 2);
        let space = a.space.clone();
        let (Some(a), Some(b)) = (crate::memo::simplified(&a), crate::memo::simplified(&b)) else {
            return Ok(());
        };
        for (d, k) in [(&a, &b), (&b, &a)] {
            for p in solve_of(k, np, max, &space).unwrap() {
                let mut vals = p.values;
                vals.truncate(no);
                if max {
                    for (row, _) in vals.iter_mut() {
                        row.iter_mut().for_each(|v| *v = -&*v);
                    }
                }
                let fast = beats_somewhere(d, np, &p.ctx, &vals, no, !max).unwrap();
                let exact = beats_somewhere_reference(d, np, &p.ctx, &vals, no, !max).unwrap();
                prop_assert_eq!(fast, exact, "{} against a piece of {}", d, k);
            }
        }
    }
}

/// The optimum of a map without disjuncts is that map, in its own space
/// (sets, relations, with parameters), shared rather than rebuilt.
#[test]
fn optimum_of_nothing_is_the_input() {
    use crate::map::Map;
    for text in [
        "{ [i, j] : false }",
        "[n] -> { [i] -> [j] : 1 = 0 }",
        "{ : false }",
    ] {
        let m: Map = text.parse().unwrap();
        assert!(m.basic_maps().is_empty(), "{text} parses without disjuncts");
        for max in [false, true] {
            let opt = super::lexopt_map(&m, max).unwrap();
            assert!(opt.basic_maps().is_empty(), "{text}");
            assert_eq!(opt.space(), m.space(), "{text}");
            assert!(
                std::ptr::eq::<crate::map::MapData>(&*opt, &*m),
                "{text}: not shared"
            );
        }
    }
}
