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

/// A large system without parameters (the scheduler's shape: many sparse
/// inequalities in many unknowns, boxed so that every optimum exists),
/// large enough after simplification for the budgeted search: random rows
/// over 24 unknowns in `0..=3`.
fn large_system(seed: u64) -> String {
    let mut s = seed | 1;
    let mut next = |k: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % k
    };
    let n = 24;
    let mut rows: Vec<String> = (0..n).map(|k| format!("0 <= x{k} <= 3")).collect();
    for _ in 0..40 {
        let mut terms = Vec::new();
        for _ in 0..3 {
            let c = next(5) as i64 - 2;
            if c != 0 {
                terms.push(format!("{c}x{}", next(n)));
            }
        }
        if terms.is_empty() {
            continue;
        }
        rows.push(format!("{} >= {}", terms.join(" + "), next(9) as i64 - 7));
    }
    let vars: Vec<String> = (0..n).map(|k| format!("x{k}")).collect();
    format!("{{ [{}] : {} }}", vars.join(", "), rows.join(" and "))
}

/// On large systems the search on its budget, and on no budget (the
/// refutation by elimination, then the search without one), give the
/// optimum of the bisection oracle (`lexopt_by_search`), empty or not.
#[test]
fn budgeted_search_and_refutation_give_the_optimum() {
    use super::points::lexopt_points_budgeted;
    use crate::map::Map;
    let (mut empty, mut points, mut refuted) = (0, 0, 0);
    for seed in 0..24u64 {
        let text = large_system(0x9e37_79b9 * (seed + 1));
        for max in [false, true] {
            // (fresh copies: the calls keep points and emptiness on them)
            let m = || text.parse::<Map>().unwrap();
            let want = crate::reference::lexopt_by_search(&m(), max).unwrap();
            let space = m().space.clone();
            for per_entry in [0, 64] {
                let got = lexopt_points_budgeted(
                    &m(),
                    max,
                    |b| super::point_by_pip(b, max, &space),
                    per_entry,
                )
                .unwrap();
                assert!(
                    got.is_equal(&want).unwrap(),
                    "{text} {max} {per_entry}: {got} vs {want}"
                );
            }
            if want.is_empty().unwrap() {
                empty += 1;
            } else {
                points += 1;
            }
        }
        // the systems that reach the refutation (the simplification leaves
        // them non-empty) and that it proves empty
        let mut b: crate::basic::BasicMap = text.parse().unwrap();
        if b.simplify() && crate::fourier_motzkin::refute_by_elimination(&b) {
            refuted += 1;
        }
    }
    assert!(empty > 4 && points > 4, "{empty} {points}");
    // (with budget 0 the refutation runs on every system; some it proves empty)
    assert!(refuted > 0, "{refuted}");
}
