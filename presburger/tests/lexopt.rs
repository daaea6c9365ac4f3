//! The tableau path of non-parametric lexmin/lexmax (`Map::lexmin`/`lexmax`:
//! dual simplex with cuts, equalities solved as a lattice) against the simple
//! path (`reference::lexopt_by_search`: binary search with integer feasibility) on
//! random bounded sets with equalities, divisibility constraints and unions.

use presburger::reference::lexopt_by_search;
use presburger::{Map, Result};

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
        let mut parts: Vec<String> = (0..d).map(|k| format!("-6 <= x{k} <= 9")).collect();
        for (coef, c, kind, m) in cs {
            let lin: Vec<String> = coef
                .iter()
                .enumerate()
                .filter(|(_, a)| **a != 0)
                .map(|(k, a)| format!("{a}*x{k}"))
                .collect();
            if lin.is_empty() {
                continue;
            }
            let lin = lin.join(" + ");
            parts.push(match kind {
                0 => format!("{lin} + {c} = 0"),
                1 => format!("exists (e : {lin} + {c} = {m}*e)"),
                2 => format!("({lin}) mod {m} = 1"),
                _ => format!("{lin} + {c} >= 0"),
            });
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
