//! `is_single_valued` / `is_injective` (pairwise emptiness tests) against the
//! composition-based oracle `is_single_valued_by_composition` on random
//! relations with parameters, equalities, divisibility and unions.

use presburger::Map;
use proptest::prelude::*;

fn disjunct(ni: usize, no: usize) -> impl Strategy<Value = String> {
    let nv = ni + no;
    prop::collection::vec(
        (
            prop::collection::vec(-2i64..=2, nv + 1),
            -6i64..=6,
            0u8..5,
            2i64..=3,
        ),
        1..4,
    )
    .prop_map(move |cs| {
        let vars: Vec<String> = (0..ni)
            .map(|k| format!("x{k}"))
            .chain((0..no).map(|k| format!("y{k}")))
            .chain(std::iter::once("n".to_string()))
            .collect();
        let mut parts: Vec<String> = (0..ni).map(|k| format!("0 <= x{k} <= 4")).collect();
        for (coef, c, kind, m) in cs {
            let lin: Vec<String> = coef
                .iter()
                .zip(&vars)
                .filter(|(a, _)| **a != 0)
                .map(|(a, v)| format!("{a}*{v}"))
                .collect();
            if lin.is_empty() {
                continue;
            }
            let lin = lin.join(" + ");
            parts.push(match kind {
                0 | 1 => format!("{lin} + {c} = 0"),
                2 => format!("exists (e : {lin} + {c} = {m}*e)"),
                _ => format!("{lin} + {c} >= 0"),
            });
        }
        // keep the images bounded so that the oracle stays cheap
        for k in 0..no {
            parts.push(format!("-6 <= y{k} <= 6"));
        }
        parts.join(" and ")
    })
}

fn relation() -> impl Strategy<Value = String> {
    (1usize..=2, 1usize..=2).prop_flat_map(|(ni, no)| {
        prop::collection::vec(disjunct(ni, no), 1..=2).prop_map(move |ds| {
            let xs: Vec<String> = (0..ni).map(|k| format!("x{k}")).collect();
            let ys: Vec<String> = (0..no).map(|k| format!("y{k}")).collect();
            let body: Vec<String> = ds.iter().map(|s| format!("({s})")).collect();
            format!(
                "[n] -> {{ [{}] -> [{}] : {} }}",
                xs.join(", "),
                ys.join(", "),
                body.join(" or ")
            )
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn single_valued_agrees_with_composition(s in relation()) {
        let m: Map = s.parse().unwrap();
        prop_assert_eq!(
            m.is_single_valued().unwrap(),
            m.is_single_valued_by_composition().unwrap(),
            "{}", s
        );
        let r = m.reverse().unwrap();
        prop_assert_eq!(
            m.is_injective().unwrap(),
            r.is_single_valued_by_composition().unwrap(),
            "{}", s
        );
    }
}
