//! Parametric lexmin/lexmax of unions (`Map::lexmin`/`lexmax` with
//! parameters or input dimensions: each disjunct solved, dominated
//! disjuncts dropped, the rest merged) against enumeration: at every
//! parameter (and input) value of a small box, the optimum is the best
//! point of the set, found by testing every point of a box around it.

use presburger::{Map, Set};
use proptest::prelude::*;
use testkit::oracle::optimum_agrees;
use testkit::strategies::extra_constraint;

/// The box every disjunct lies in (per output dimension).
const LO: i64 = -3;
const HI: i64 = 6;
/// The parameter and input values tested.
const PLO: i64 = -1;
const PHI: i64 = 5;

/// One disjunct over outputs `x0..` with parameters/inputs `names`: the box
/// and a few constraints mixing both.
fn disjunct(d: usize, names: Vec<&'static str>) -> impl Strategy<Value = String> {
    let k = names.len();
    let cons = prop::collection::vec(
        (
            prop::collection::vec(-2i64..=2, d),
            prop::collection::vec(-2i64..=2, k),
            -6i64..=6,
            0u8..6,
            2i64..=3,
        ),
        0..4,
    );
    cons.prop_map(move |cs| {
        // the outputs, then the parameters/inputs
        let vars: Vec<String> = (0..d)
            .map(|v| format!("x{v}"))
            .chain(names.iter().map(|n| n.to_string()))
            .collect();
        let mut parts: Vec<String> = (0..d).map(|v| format!("{LO} <= x{v} <= {HI}")).collect();
        for (cx, cp, c, kind, m) in cs {
            parts.extend(extra_constraint(&[cx, cp].concat(), &vars, c, kind, m));
        }
        parts.join(" and ")
    })
}

/// A union of 2 to 4 disjuncts: a set over `[n, m]`, or a relation
/// `[n] -> { [a] -> [x..] }`. One disjunct in two is the first one with
/// one constraint more (a subset of it, often dominated by it).
fn union() -> impl Strategy<Value = (String, bool)> {
    (1usize..=2, any::<bool>()).prop_flat_map(|(d, relation)| {
        let names = if relation {
            vec!["n", "a"]
        } else {
            vec!["n", "m"]
        };
        (
            prop::collection::vec(disjunct(d, names.clone()), 2..=4),
            prop::collection::vec(any::<bool>(), 4),
            disjunct(d, names),
        )
            .prop_map(move |(mut ds, sub, extra)| {
                for (k, s) in sub.iter().enumerate().take(ds.len()).skip(1) {
                    if *s {
                        ds[k] = format!("{} and {}", ds[0], extra);
                    }
                }
                let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
                let body: Vec<String> = ds.iter().map(|s| format!("({s})")).collect();
                let text = if relation {
                    format!(
                        "[n] -> {{ [a] -> [{}] : {} }}",
                        vars.join(", "),
                        body.join(" or ")
                    )
                } else {
                    format!(
                        "[n, m] -> {{ [{}] : {} }}",
                        vars.join(", "),
                        body.join(" or ")
                    )
                };
                (text, relation)
            })
    })
}

/// Checks `opt` (the lexmin or lexmax of `m`) against enumeration at every
/// value of the two leading variables, in the output box one wider than
/// every disjunct's.
fn agrees(m: &Map, opt: &Map, max: bool) -> std::result::Result<(), String> {
    optimum_agrees(m, opt, max, (LO - 1, HI + 1), (PLO, PHI))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parametric_union_optima_enumerate((s, _relation) in union(), max in any::<bool>()) {
        let m: Map = s.parse().unwrap();
        let opt = if max { m.lexmax().unwrap() } else { m.lexmin().unwrap() };
        if let Err(e) = agrees(&m, &opt, max) {
            return Err(TestCaseError::fail(format!("{s} (max {max}): {opt}: {e}")));
        }
    }
}

/// The cells of `x` in tiled_mix (a step-2 loop in 4-wide tiles and a
/// step-3 loop down from `M - 1`): the last disjunct's maximum `M - 1`
/// dominates every other disjunct, whose maxima carry divisions. The
/// optimum is that of enumeration, and that of the last disjunct alone.
#[test]
fn dominating_disjunct_of_strided_cells() {
    let s: Set = "[N, M] -> { [c] : exists (e0, e1 : c = 2e0 and N > 2e1 and 0 <= c < M \
                  and 2e1 - 3 <= c <= 2e1 + 3 and 0 <= e1 <= 1); \
                  [c] : exists (e0 : c = 2e0 and N >= 1 and 1 <= c < M and c <= 6 and c <= N + 2); \
                  [c] : exists (e0 : 2e0 < c <= N + 2e0 - 4 and 2 <= e0 <= 3 and c < M); \
                  [c] : exists (e0 : c = M + 3e0 - 1 and 0 <= c < M) }"
        .parse()
        .unwrap();
    let hi = s.lexmax().unwrap();
    agrees(&s, &hi, true).unwrap();
    let want: Set = "[N, M] -> { [c] : c = M - 1 and M >= 1 }".parse().unwrap();
    assert!(hi.is_equal(&want).unwrap(), "{hi}");
    let lo = s.lexmin().unwrap();
    agrees(&s, &lo, false).unwrap();
}

/// The cells of `A` in tiled_mix (six disjuncts, none dominated: the
/// merge runs, with pieces of one disjunct split on a parity their value
/// does not depend on, fused first, and contexts separated by opposite
/// parameter bounds): both optima are those of enumeration.
#[test]
fn merged_optima_of_strided_tiled_cells() {
    let s: Set = "[N, M] -> { [i, j] : exists (e0, e1 : i = 2e1 and j = 2e0 and 0 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i + 3 and i <= 3); \
                  [i, j] : exists (e0 : j = 2e0 and 0 <= i < N and 0 <= j < M and i < j <= i + 3 and i <= 3); \
                  [i, j] : exists (e0, e1 : i = 2e1 and j = i + 2e0 - 3 and 4 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i + 3); \
                  [i, j] : exists (e0 : j = i + 2e0 - 3 and 4 <= i < N and 0 <= j < M and i < j <= i + 3); \
                  [i, j] : exists (e0, e1 : j = 2e1 and i = 2e0 + 1 and 0 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i and i <= 3); \
                  [i, j] : exists (e0, e1 : j = i + 2e1 - 3 and i = 2e0 + 1 and 4 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i) }"
        .parse()
        .unwrap();
    let hi = s.lexmax().unwrap();
    agrees(&s, &hi, true).unwrap();
    let lo = s.lexmin().unwrap();
    agrees(&s, &lo, false).unwrap();
}
