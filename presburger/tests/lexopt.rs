//! The tableau path of non-parametric lexmin/lexmax (`Map::lexmin`/`lexmax`:
//! dual simplex with cuts, equalities solved as a lattice) against the simple
//! path (`reference::lexopt_by_search`: binary search with integer feasibility) on
//! random bounded sets with equalities, divisibility constraints and unions.

use presburger::reference::lexopt_by_search;
use presburger::{Map, Result};
use testkit::oracle::best_in_box;
use testkit::strategies::extra_constraint;

/// The fast path: `Map::lexmin` or `Map::lexmax`.
fn lexopt_map(m: &Map, max: bool) -> Result<Map> {
    if max {
        m.lexmax()
    } else {
        m.lexmin()
    }
}
use proptest::prelude::*;

/// One disjunct over `[x0, .., x(d-1)]` in a box, with extra constraints.
fn disjunct(d: usize) -> impl Strategy<Value = String> {
    let cons = prop::collection::vec(
        (
            prop::collection::vec(-4i64..=4, d),
            -20i64..=20,
            0u8..6,
            2i64..=5,
        ),
        0..4,
    );
    cons.prop_map(move |cs| {
        let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
        let mut parts: Vec<String> = vars.iter().map(|x| format!("-6 <= {x} <= 9")).collect();
        for (coef, c, kind, m) in cs {
            parts.extend(extra_constraint(&coef, &vars, c, kind, m));
        }
        parts.join(" and ")
    })
}

fn set() -> impl Strategy<Value = String> {
    (1usize..=4).prop_flat_map(|d| {
        prop::collection::vec(disjunct(d), 1..=3).prop_map(move |ds| {
            let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
            let body: Vec<String> = ds.iter().map(|s| format!("({s})")).collect();
            format!("{{ [{}] : {} }}", vars.join(", "), body.join(" or "))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tableau_and_search_agree(s in set(), max in any::<bool>()) {
        let m: Map = s.parse().unwrap();
        let fast = lexopt_map(&m, max).unwrap();
        let slow = lexopt_by_search(&m, max).unwrap();
        prop_assert!(fast.is_equal(&slow).unwrap(), "{s} (max {max}): {fast} vs {slow}");
        // the optimum is a point of the set (or both are empty)
        prop_assert!(fast.is_subset(&m).unwrap());
        // every disjunct twice (the duplicates are skipped by the search)
        let twice = m.union(&m).unwrap();
        let fast2 = lexopt_map(&twice, max).unwrap();
        prop_assert!(fast2.is_equal(&slow).unwrap(), "{s} twice (max {max}): {fast2} vs {slow}");
    }
}

/// The accessed cells of a tiled loop nest (a 4-wide tile `ii`, a step-2
/// loop) as the read and the write of one cell give them: each disjunct
/// twice. The optima per parameter value are those of the cells without
/// the duplicates, and those of the cells enumerated at small values.
#[test]
fn duplicate_parametric_disjuncts() {
    use presburger::Set;
    let s: Set = "[N, M] -> { [c0, c1] : exists (ii, t, j2 : ii = 4t and 0 <= ii < N \
                  and ii <= c0 <= ii + 3 and c0 < N and c1 = 2 * j2 and 0 <= c1 < M \
                  and c0 - 3 <= c1 <= c0 + 3); \
                  [c0, c1] : exists (ii, t : ii = 4t and 0 <= ii < N \
                  and ii <= c0 <= ii + 3 and c0 < N and 0 <= c1 < M and c0 < c1 <= c0 + 3) }"
        .parse()
        .unwrap();
    let twice = s.union(&s).unwrap();
    assert_eq!(twice.basic_maps().len(), 2 * s.basic_maps().len());
    for max in [false, true] {
        let once = lexopt_map(&s, max).unwrap();
        let both = lexopt_map(&twice, max).unwrap();
        assert!(both.is_equal(&once).unwrap(), "max {max}: {both} vs {once}");
        // brute force at small parameter values: the optimum of the points
        for n in 0..7i64 {
            for m in 0..7i64 {
                let want = best_in_box(2, -2, 9, max, |c| {
                    let (c0, c1) = (c[0], c[1]);
                    let ii = c0.div_euclid(4) * 4;
                    let first = 0 <= ii
                        && ii < n
                        && c0 < n
                        && c1.rem_euclid(2) == 0
                        && 0 <= c1
                        && c1 < m
                        && c0 - 3 <= c1
                        && c1 <= c0 + 3;
                    let second =
                        0 <= ii && ii < n && c0 < n && 0 <= c1 && c1 < m && c0 < c1 && c1 <= c0 + 3;
                    first || second
                });
                let fixed: Set = format!("[N, M] -> {{ [c0, c1] : N = {n} and M = {m} }}")
                    .parse()
                    .unwrap();
                let got = both.intersect(&fixed).unwrap();
                let expect: Set = match want {
                    Some(c) => format!(
                        "[N, M] -> {{ [c0, c1] : N = {n} and M = {m} and c0 = {} and c1 = {} }}",
                        c[0], c[1]
                    ),
                    None => "[N, M] -> { [c0, c1] : 1 = 0 }".to_string(),
                }
                .parse()
                .unwrap();
                assert!(
                    got.is_equal(&expect).unwrap(),
                    "max {max}, N {n}, M {m}: {got}"
                );
            }
        }
    }
}

/// An unbounded optimum names the dimension: by its name, else by kind and
/// position.
#[test]
fn unbounded_optima_name_the_dimension() {
    use presburger::{DimKind, DimRef, Error, Set, Space, Tuple};
    let s: Set = "[n] -> { [i, j] : 0 <= i <= n and j <= i }"
        .parse()
        .unwrap();
    match s.lexmin() {
        Err(Error::Unbounded { dim, upper }) => {
            assert_eq!(dim, DimRef::new(DimKind::Set, 1, "j"));
            assert!(!upper);
        }
        other => panic!("{other:?}"),
    }
    let anon = Set::universe(Space::set(Vec::<String>::new(), Tuple::anonymous(1)));
    assert_eq!(
        anon.lexmax().unwrap_err().to_string(),
        "unbounded optimum: dimension 0 (from 0) has no upper bound"
    );
}

/// A disjunct over `[x0, .., x3]` with many distinct inequalities (more
/// than `lexopt`'s size from which the proof of emptiness by elimination
/// is tried before the search, unless an earlier optimum's point proves
/// the disjunct non-empty): every `a·x >= c` with `a` drawn from the given
/// coefficient vectors and `c` the minimum of `a·x` over the box
/// `0 <= x <= 5` plus `slack` (loose when negative, a cut when positive).
fn many_rows_set(rows: &[([i64; 4], i64)]) -> String {
    let mut parts: Vec<String> = (0..4).map(|k| format!("0 <= x{k} <= 5")).collect();
    for (a, slack) in rows {
        let lhs: Vec<String> = a
            .iter()
            .enumerate()
            .map(|(k, v)| format!("{v}*x{k}"))
            .collect();
        parts.push(format!("{} >= {}", lhs.join(" + "), box_min(a) + slack));
    }
    format!("{{ [x0, x1, x2, x3] : {} }}", parts.join(" and "))
}

/// The minimum of `a·x` over the box `0 <= x <= 5`.
fn box_min(a: &[i64; 4]) -> i64 {
    a.iter().map(|&v| 5 * v.min(0)).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    /// Repeated optima of one object (the second call starts from the point
    /// the first one kept) against the simple path and enumeration, and the
    /// object's emptiness afterwards. About 250 distinct rows of 5 columns
    /// after simplification: over the size from which the elimination is tried.
    #[test]
    fn repeated_optima_of_large_systems(
        rows in prop::collection::vec((prop::array::uniform4(-4i64..=4), -3i64..=5), 260..320),
        max in any::<bool>(),
    ) {
        let s = many_rows_set(&rows);
        let m: Map = s.parse().unwrap();
        let slow = lexopt_by_search(&m, max).unwrap();
        let first = lexopt_map(&m, max).unwrap();
        let second = lexopt_map(&m, max).unwrap();
        prop_assert!(first.is_equal(&slow).unwrap(), "{s} (max {max}): {first} vs {slow}");
        prop_assert!(second.is_equal(&slow).unwrap(), "{s} again (max {max}): {second} vs {slow}");
        // the other direction after this one's kept point
        let other = lexopt_map(&m, !max).unwrap();
        let other_slow = lexopt_by_search(&m, !max).unwrap();
        prop_assert!(other.is_equal(&other_slow).unwrap(), "{s} (max {}): {other} vs {other_slow}", !max);
        // enumeration of the box: the optimum and the emptiness
        let pts: Vec<Vec<i64>> = (0..1296)
            .map(|i| vec![i / 216, i / 36 % 6, i / 6 % 6, i % 6])
            .filter(|p| {
                rows.iter().all(|(a, slack)| {
                    a.iter().zip(p).map(|(x, y)| x * y).sum::<i64>() >= box_min(a) + slack
                })
            })
            .collect();
        let best = if max { pts.iter().max() } else { pts.iter().min() };
        let expect = match best {
            None => "{ [x0, x1, x2, x3] : 1 = 0 }".to_string(),
            Some(p) => format!("{{ [{}, {}, {}, {}] }}", p[0], p[1], p[2], p[3]),
        };
        let want: Map = expect.parse().unwrap();
        prop_assert!(second.is_equal(&want).unwrap(), "{s} (max {max}): {second} vs {expect}");
        prop_assert_eq!(m.is_empty().unwrap(), pts.is_empty());
    }
}
