//! Gomory cuts that never end: on some problems every parametric cut of
//! the search needs a new context division, and the next cut needs one
//! more (`trace-coalesce-202`: the judge's equality test made the
//! existentials of isl's answer explicit and ran out of budget after
//! divisions `floor((32k + …)/1024)`, `floor((… + 32q)/992)`, k = 1, 2, …).
//! `explicit_divs` now gives a branch at most a few cut divisions, then
//! solves for the existentials in the reverse order (any value will do),
//! and only then searches without a limit (`pip::divs`, `solve_limited`).

use presburger::pip::explicit_divs_ordered;
use presburger::{budget, BasicSet, Int, Set};
use proptest::prelude::*;

mod trace_case;
use trace_case::{assert_right, corpus_case};

#[test]
fn trace_coalesce_202() {
    assert_right("trace-coalesce-202");
}

/// The existentials of isl's answer to `trace-coalesce-202`: explicit
/// within 20M operations, and each part is a subset of the input. (The
/// first order gave up after a few cuts until the search tightened the
/// rows bounding narrow bands, `pip::tighten`: it now answers too.)
#[test]
fn coalesce_202_answer_made_explicit() {
    let s: Set = corpus_case("trace-coalesce-202").expect.parse().unwrap();
    let b = &s.basic_maps()[0];
    assert!(
        budget::with_budget(20_000_000, || explicit_divs_ordered(b, false, Some(4)))
            .unwrap()
            .is_some(),
        "the given order answers"
    );
    let parts = budget::with_budget(20_000_000, || b.make_divs_explicit()).unwrap();
    assert!(!parts.is_empty());
    for p in &parts {
        assert!(p.divs().iter().all(Option::is_some), "{p}: undefined local");
        let part = Set::from_basic(p.clone());
        assert!(budget::with_budget(20_000_000, || part.is_subset(&s)).unwrap());
    }
}

/// Membership of every point of the box `[-R, R]²` in `b` and in the union
/// of `parts` agree (the input's membership searched exactly over its locals).
fn same_on_box(b: &BasicSet, parts: &[BasicSet]) -> Result<(), TestCaseError> {
    const R: i64 = 4;
    for p in parts {
        prop_assert!(
            p.divs().iter().all(Option::is_some),
            "{}: undefined local",
            p
        );
    }
    for i in -R..=R {
        for j in -R..=R {
            let pt = [Int::from(i), Int::from(j)];
            let want = b.contains_point(&pt).unwrap();
            let mut got = false;
            for p in parts {
                got |= p.contains_point(&pt).unwrap();
            }
            prop_assert_eq!(got, want, "{} at ({}, {})", b, i, j);
        }
    }
    Ok(())
}

/// A basic set over `[i, j]` with two existentials bounded by strides and
/// inequalities with coefficients up to 4 (cuts with parametric constants).
fn strided_set() -> impl Strategy<Value = String> {
    let row = (-3i64..=3, -3i64..=3, -4i64..=4, -4i64..=4, -6i64..=6);
    (prop::collection::vec(row, 2..5), 2i64..=5, 2i64..=5).prop_map(|(rows, m0, m1)| {
        let mut cons = vec![
            format!("0 <= i - {m0}e0 < {m0}"),
            format!("0 <= j + i - {m1}e1 <= {m1} + 1"),
        ];
        for (a, b, c0, c1, d) in rows {
            cons.push(format!("{a}i + {b}j + {c0}e0 + {c1}e1 + {d} >= 0"));
        }
        format!("{{ [i, j] : exists (e0, e1 : {}) }}", cons.join(" and "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Either order, any limit: a search that does not give up gives the
    /// same pieces as without a limit, and their union is the input.
    #[test]
    fn explicit_divs_in_either_order(text in strided_set(), limit in 0usize..3) {
        let s: Set = text.parse().unwrap();
        for b in s.basic_maps() {
            for reversed in [false, true] {
                let full = explicit_divs_ordered(b, reversed, None).unwrap();
                let limited = explicit_divs_ordered(b, reversed, Some(limit)).unwrap();
                if let Some(full) = &full {
                    same_on_box(b, full)?;
                }
                if let (Some(l), Some(f)) = (&limited, &full) {
                    prop_assert_eq!(format!("{:?}", l), format!("{:?}", f));
                }
            }
            same_on_box(b, &b.make_divs_explicit().unwrap())?;
        }
    }
}
