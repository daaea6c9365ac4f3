//! Parametric lexmin/lexmax of unions whose disjuncts are separated on the
//! first output dimension (each disjunct's points have a larger first
//! output than the previous one's, as a bound of each shows: a constant
//! band, or `x0 <= n + c` against `x0 >= n + c + 1`): the merge takes the
//! higher disjunct's optimum wherever it has one (lexmax) without
//! comparing values, which must agree with enumeration at every parameter
//! (and input) value of a small box.

use presburger::Map;
use proptest::prelude::*;
use testkit::oracle::optimum_agrees;
use testkit::strategies::extra_constraint;

const LO: i64 = -3;
const HI: i64 = 6;
const PLO: i64 = -1;
const PHI: i64 = 5;

/// Disjunct `k` of a union over `[x0, ...]`: separated from disjunct
/// `k - 1` by a constant band of `x0` or by the parameter `n`, with a few
/// random constraints mixing the outputs and `names`.
fn disjunct(
    k: usize,
    d: usize,
    names: Vec<&'static str>,
    by_param: bool,
) -> impl Strategy<Value = String> {
    let cons = prop::collection::vec(
        (
            prop::collection::vec(-2i64..=2, d),
            prop::collection::vec(-2i64..=2, names.len()),
            -6i64..=6,
            0u8..6,
            2i64..=3,
        ),
        0..3,
    );
    cons.prop_map(move |cs| {
        let vars: Vec<String> = (0..d)
            .map(|v| format!("x{v}"))
            .chain(names.iter().map(|n| n.to_string()))
            .collect();
        let mut parts: Vec<String> = (0..d).map(|v| format!("{LO} <= x{v} <= {HI}")).collect();
        if by_param {
            // k = 0: x0 <= n - 1; k = 1: n <= x0 <= n + 1; k = 2: x0 >= n + 2
            let k = k as i64;
            if k > 0 {
                parts.push(format!("x0 >= n + {}", 2 * k - 2));
            }
            if k < 2 {
                parts.push(format!("x0 <= n + {}", 2 * k - 1));
            }
        } else {
            let lo = LO + 3 * k as i64;
            parts.push(format!("{lo} <= x0 <= {}", lo + 2));
        }
        for (cx, cp, c, kind, m) in cs {
            parts.extend(extra_constraint(&[cx, cp].concat(), &vars, c, kind, m));
        }
        parts.join(" and ")
    })
}

fn union() -> impl Strategy<Value = String> {
    (1usize..=2, any::<bool>(), any::<bool>(), 2usize..=3).prop_flat_map(
        |(d, relation, by_param, n)| {
            let names = if relation {
                vec!["n", "a"]
            } else {
                vec!["n", "m"]
            };
            let ds: Vec<_> = (0..n)
                .map(|k| disjunct(k, d, names.clone(), by_param))
                .collect();
            (ds, any::<bool>()).prop_map(move |(ds, rev)| {
                let mut ds = ds;
                if rev {
                    ds.reverse();
                }
                let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
                let body: Vec<String> = ds.iter().map(|s| format!("({s})")).collect();
                if relation {
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
                }
            })
        },
    )
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
    fn separated_union_optima_enumerate(s in union(), max in any::<bool>()) {
        let m: Map = s.parse().unwrap();
        let opt = if max { m.lexmax().unwrap() } else { m.lexmin().unwrap() };
        if let Err(e) = agrees(&m, &opt, max) {
            return Err(TestCaseError::fail(format!("{s} (max {max}): {opt}: {e}")));
        }
    }
}

/// The cells of `A` in tiled_mix as the alias check sees them (two
/// disjuncts, rows `i <= 3` and `i >= 4`): both optima, and the piecewise
/// lexmax, agree with enumeration.
#[test]
fn separated_tiled_cells() {
    let s: Map = "[N, M] -> { [i, j] : exists (e0 : j = 2e0 and 0 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i + 3 and i <= 3); \
                  [i, j] : exists (e0 : j = i + 2e0 - 3 and 4 <= i < N and 0 <= j < M \
                  and i - 3 <= j <= i + 3) }"
        .parse()
        .unwrap();
    for max in [false, true] {
        let opt = if max {
            s.lexmax().unwrap()
        } else {
            s.lexmin().unwrap()
        };
        agrees(&s, &opt, max).unwrap();
    }
    let pw = s.lexmax_pw_multi_aff().unwrap();
    assert!(pw.to_map().unwrap().is_equal(&s.lexmax().unwrap()).unwrap());
}
