//! Property tests of the cheap redundancy decisions of
//! [`Part::remove_redundant_rows`] against the plain LP
//! ([`BasicMap::remove_redundancies`] and one LP per row).

use super::implied::implied_by_two;
use super::part::{only_bound_in_some_column, step_leaves_row, Part};
use crate::basic::BasicMap;
use crate::map::Map;
use crate::testing::{pool_with, BASE_POOL};
use proptest::prelude::*;

/// Appended to `BASE_POOL` (over `[n] -> [i, j, k]`): bounds by a
/// parameter and the bounds they imply, equalities with a column of their
/// own, a local.
const EXTRA: &[&str] = &[
    "0 <= i < n",
    "n >= 1",
    "j <= n - 1",
    "i + j <= n",
    "n >= 0",
    "2n >= 3",
    "k = i + j",
    "k = n",
    "k >= i",
    "2k <= 3n + 1",
    "exists (e : i = 2e)",
    "i + 2j >= -4",
    "k <= n",
    "i + j + k <= 3n",
];

fn pool() -> Vec<&'static str> {
    pool_with(EXTRA)
}

fn text(ds: &[Vec<usize>]) -> String {
    let p = pool();
    let parts: Vec<String> = ds
        .iter()
        .map(|d| {
            let cs: Vec<&str> = d.iter().map(|&c| p[c]).collect();
            if cs.is_empty() {
                "[i, j, k]".to_string()
            } else {
                format!("[i, j, k] : {}", cs.join(" and "))
            }
        })
        .collect();
    format!("[n] -> {{ {} }}", parts.join("; "))
}

/// Row `k` of `b` is redundant by the plain LP: the minimum of it over the
/// other rows is `≥ 0`.
fn lp_redundant(b: &BasicMap, k: usize) -> bool {
    let mut t = crate::simplex::Tableau::new(b.row_len() - 1);
    for e in &b.eqs {
        t.add_eq(e).unwrap();
    }
    for (i, r) in b.ineqs.iter().enumerate() {
        if i != k {
            t.add_ineq(r).unwrap();
        }
    }
    match t.minimize(&b.ineqs[k]).unwrap() {
        crate::simplex::Opt::Value(num, _) => !num.is_neg(),
        crate::simplex::Opt::Unbounded => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn cheap_redundancy_decisions_agree_with_lp(
        d in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 0..9)
    ) {
        let m: Map = text(&[d.clone()]).parse().unwrap();
        for b in &m.parts {
            let Some(b) = b.simplified_nonempty().unwrap() else { continue };
            for k in 0..b.ineqs.len() {
                let lp = lp_redundant(&b, k);
                if implied_by_two(&b, k) {
                    prop_assert!(lp, "row {} of {:?} implied by two rows, not by the LP", k, b);
                }
                if only_bound_in_some_column(&b, k) {
                    prop_assert!(!lp, "row {} of {:?} only bound, yet redundant by the LP", k, b);
                }
                if let Some(x) = b.hint.get() {
                    if step_leaves_row(&b, k, &x) {
                        prop_assert!(!lp, "row {} of {:?} left by a step from {:?}, yet redundant by the LP", k, b, x);
                    }
                }
            }
            // the whole pass removes the rows the plain one does
            let mut plain = b.clone();
            plain.remove_redundancies().unwrap();
            let mut p = Part::new(b.clone());
            p.remove_redundant_rows().unwrap();
            prop_assert_eq!(format!("{:?}", p.b), format!("{:?}", plain), "{}", text(&[d.clone()]));
        }
    }
}

#[test]
fn bound_implied_by_two_rows() {
    let m: Map = "[n] -> { [i, j] : 0 <= i < n and n >= 1 and j = i }"
        .parse()
        .unwrap();
    let b = m.parts[0].simplified_nonempty().unwrap().unwrap();
    let k = b
        .ineqs
        .iter()
        .position(|r| r[1..].iter().filter(|v| !v.is_zero()).count() == 1 && !r[1].is_zero())
        .expect("n >= 1 is a row");
    assert!(implied_by_two(&b, k));
    let mut p = Part::new(b);
    p.remove_redundant_rows().unwrap();
    assert_eq!(p.b.ineqs.len(), 2);
}
