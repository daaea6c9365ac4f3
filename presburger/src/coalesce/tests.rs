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

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// The LP-free normalisation of one disjunct keeps the set (exact
    /// equality test), finds it empty only when it is, and every row it
    /// drops is redundant by the plain LP.
    #[test]
    fn cheap_normalisation_keeps_the_set(
        d in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 0..9),
        twice in prop::collection::vec(0..9usize, 0..3),
    ) {
        // some constraints written twice or loosened, as unions of the
        // pipeline's operations often are
        let extra: Vec<usize> = twice.iter().filter_map(|&k| d.get(k).copied()).collect();
        let mut d = d;
        d.extend(extra);
        let m: Map = text(&[d.clone()]).parse().unwrap();
        for b in &m.parts {
            let mut c = b.clone();
            let kept = super::cheap::normalise(&mut c);
            if !kept {
                prop_assert!(b.is_empty().unwrap(), "{} found empty", text(&[d.clone()]));
                continue;
            }
            prop_assert!(
                Map::from_basic(c.clone()).is_equal(&Map::from_basic(b.clone())).unwrap(),
                "{} normalised to {:?}", text(&[d.clone()]), c
            );
            prop_assert!(c.eqs.len() + c.ineqs.len() <= b.eqs.len() + b.ineqs.len());
            // a row of `b` (gcd-normalised) missing from `c` is redundant in `b`
            let mut full = b.clone();
            full.ineqs.iter_mut().for_each(|r| { crate::matrix::normalize_ineq(r); });
            for k in 0..full.ineqs.len() {
                if !c.ineqs.contains(&full.ineqs[k]) && !b.is_empty().unwrap() {
                    prop_assert!(lp_redundant(&full, k) || full.ineqs.iter().take(k).any(|o| o == &full.ineqs[k]) || full.ineqs.iter().any(|o| o[1..] == full.ineqs[k][1..] && o[0] < full.ineqs[k][0]),
                        "row {} of {:?} dropped, not redundant", k, full);
                }
            }
        }
    }
}

#[test]
fn cheap_normalisation_examples() {
    let norm = |s: &str| -> Option<String> {
        let m: Map = s.parse().unwrap();
        // rows written in their order, as no operation has simplified them
        let mut b = m.parts[0].clone();
        super::cheap::normalise(&mut b).then(|| Map::from_basic(b).to_string())
    };
    // implied by the box of the single-variable bounds; duplicates; a looser parallel row
    assert_eq!(
        norm("[n] -> { [i, j] : 0 <= i <= 3 and 0 <= j <= 2 and i + j <= 5 and i + j <= 7 and 2i + 2j >= -3 and n >= 0 and n >= 0 }").as_deref(),
        Some("[n] -> { [i, j] : 0 <= i <= 3 and 0 <= j <= 2 and n >= 0 }")
    );
    // not implied by the box: kept
    assert_eq!(
        norm("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 2 and i + j <= 4 }").as_deref(),
        Some("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 2 and j <= -i + 4 }")
    );
    // contradicted by the box, by opposite rows, by an equality (rows added
    // after parsing, which would find these empty itself)
    let with_rows = |ineqs: &[[i64; 3]], eqs: &[[i64; 3]]| {
        let m: Map = "{ [i, j] : 0 <= i <= 3 and 0 <= j <= 2 }".parse().unwrap();
        let mut b = m.parts[0].clone();
        let row = |r: &[i64; 3]| {
            r.iter()
                .map(|&v| crate::int::Int::from(v))
                .collect::<Vec<_>>()
        };
        b.ineqs.extend(ineqs.iter().map(row));
        b.eqs.extend(eqs.iter().map(row));
        super::cheap::normalise(&mut b)
    };
    assert!(!with_rows(&[[-6, 1, 1]], &[]));
    assert!(!with_rows(&[[-1, 1, -1], [0, -1, 1]], &[]));
    assert!(!with_rows(&[], &[[-4, 1, -1]]));
    assert!(with_rows(&[[-1, 1, -1], [1, -1, 1]], &[]));
    assert!(with_rows(&[], &[[-3, 1, -1]]));
}

/// The answer `coalesce` keeps on a map of several disjuncts (or of one
/// whose normalisation changed its rows) is the answer computed afresh (on
/// a freshly parsed copy: no shared rows, no kept answer), for the map and
/// its copies, and a copy whose disjunct is written after gets its own
/// answer.
#[test]
fn kept_answers_are_the_computed_ones() {
    let shape = |m: &Map| format!("{:?}", m.parts);
    for text in [
        "{ [i] : 0 <= i <= 3 or 4 <= i <= 7 or 10 <= i <= 12 }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i or i = n and 0 <= j < 5 or i < 0 }",
        "{ [i] : i = 3 or i = 4 or i = 6 or i > 100 }",
        // one disjunct: a row the box implies, dropped by the normalisation
        "[n] -> { [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and i + j >= -3 and j < n }",
    ] {
        let m: Map = text.parse().unwrap();
        let fresh = |t: &str| t.parse::<Map>().unwrap().coalesce().unwrap();
        let want = fresh(text);
        assert_eq!(shape(&m.coalesce().unwrap()), shape(&want), "{text}");
        assert_eq!(shape(&m.coalesce().unwrap()), shape(&want), "{text}: kept");
        assert_eq!(
            shape(&m.clone().coalesce().unwrap()),
            shape(&want),
            "{text}: copy"
        );
        // a copy with its last disjunct's first inequality loosened by 2
        let mut c = m.clone();
        let last = c.parts.len() - 1;
        let k0 = &c.parts[last].ineqs[0][0] + &crate::Int::from(2);
        c.parts[last].ineqs[0][0] = k0;
        let printed = c.to_string();
        assert_eq!(
            shape(&c.coalesce().unwrap()),
            shape(&fresh(&printed)),
            "{printed}"
        );
        // the original still gets its own kept answer
        assert_eq!(shape(&m.coalesce().unwrap()), shape(&want), "{text}: after");
    }
}

/// A map of one disjunct whose normalisation drops a row keeps its answer:
/// a second call returns a copy of the first's rows (shared storage), not
/// a new normalisation.
#[test]
fn one_disjunct_answers_are_kept_when_rows_change() {
    let m: Map = "{ [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and i + j >= -3 }"
        .parse()
        .unwrap();
    let first = m.coalesce().unwrap();
    assert_eq!(first.parts.len(), 1);
    assert!(first.parts[0].ineqs.len() < m.parts[0].ineqs.len());
    let second = m.coalesce().unwrap();
    assert!(second.parts[0].ineqs.shares(&first.parts[0].ineqs));
    assert!(m.clone().coalesce().unwrap().parts[0]
        .ineqs
        .shares(&first.parts[0].ineqs));
    // with a division: the kept answer is the one computed on a copy whose
    // rows are new storage (no kept answer), row for row
    let shape = |m: &Map| format!("{:?}", m.parts);
    let m: Map = "{ [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and i + j >= -3 and (i + j) mod 3 = 0 }"
        .parse()
        .unwrap();
    let mut fresh = m.clone();
    fresh.parts[0].eqs = m.parts[0].eqs.to_vec().into();
    fresh.parts[0].ineqs = m.parts[0].ineqs.to_vec().into();
    let want = shape(&fresh.coalesce().unwrap());
    let first = m.coalesce().unwrap();
    assert_eq!(shape(&first), want);
    let second = m.coalesce().unwrap();
    assert_eq!(shape(&second), want);
    assert!(second.parts[0].ineqs.shares(&first.parts[0].ineqs));
}

/// `a` and `b` (of one space) have the same points with every coordinate
/// (parameters included) in `-r..=r`: brute force.
fn same_points(a: &Map, b: &Map, r: i64) -> bool {
    let n = a.space.n_vars();
    let mut p = vec![-r; n];
    loop {
        let q: Vec<crate::Int> = p.iter().map(|&v| crate::Int::from(v)).collect();
        if a.contains_point(&q).unwrap() != b.contains_point(&q).unwrap() {
            return false;
        }
        let mut k = 0;
        while k < n && p[k] == r {
            p[k] = -r;
            k += 1;
        }
        if k == n {
            return true;
        }
        p[k] += 1;
    }
}

/// A copy of `m` whose rows are new storage: no kept answer, no mark.
fn unshared(m: &Map) -> Map {
    let mut f = m.clone();
    f.memo = Default::default();
    for b in &mut f.parts {
        b.eqs = b.eqs.to_vec().into();
        b.ineqs = b.ineqs.to_vec().into();
        b.divs = b.divs.to_vec().into();
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// One disjunct's kept normalisation (keyed by its rows only) gives,
    /// call after call, on copies, and on a copy whose divisions or space
    /// changed while its rows stayed shared, the answer computed afresh on
    /// unshared rows; and every answer is the same set as the input
    /// (enumerated over a box of points and parameter values).
    #[test]
    fn one_disjunct_kept_rows_match_fresh(
        d in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 0..9),
        twice in prop::collection::vec(0..9usize, 0..3),
    ) {
        let extra: Vec<usize> = twice.iter().filter_map(|&k| d.get(k).copied()).collect();
        let mut d = d;
        d.extend(extra);
        let t = text(&[d.clone()]);
        let m: Map = t.parse().unwrap();
        let shape = |m: &Map| format!("{:?} {:?}", m.space, m.parts);
        let want = shape(&unshared(&m).coalesce().unwrap());
        let first = m.coalesce().unwrap();
        prop_assert_eq!(shape(&first), want.clone(), "{}", t);
        prop_assert_eq!(shape(&m.coalesce().unwrap()), want.clone(), "{}: again", t);
        prop_assert_eq!(shape(&m.clone().coalesce().unwrap()), want.clone(), "{}: copy", t);
        prop_assert!(same_points(&first, &m, 3), "{}: {}", t, first);
        // a copy with other divisions (rows still shared with `m`'s)
        if let Some(b) = m.parts.first().filter(|b| b.n_div() > 0) {
            let mut c = m.clone();
            let p = &mut c.parts[0];
            p.divs[0] = match &b.divs[0] {
                Some(_) => None,
                None => Some(crate::basic::Div { num: vec![crate::Int::from(0); b.row_len()], den: crate::Int::from(2) }),
            };
            prop_assert!(p.eqs.shares(&b.eqs) && p.ineqs.shares(&b.ineqs));
            let want = shape(&unshared(&c).coalesce().unwrap());
            prop_assert_eq!(shape(&c.coalesce().unwrap()), want.clone(), "{}: other divs", t);
            prop_assert_eq!(shape(&c.coalesce().unwrap()), want, "{}: other divs again", t);
        }
        // a copy in another space of the same dimensions
        let mut c = m.clone();
        let renamed: crate::space::Space = "[m] -> { [a, b, c] }".parse::<Map>().unwrap().space.clone();
        c.space = renamed.clone();
        for p in &mut c.parts {
            p.space = renamed.clone();
        }
        let want = shape(&unshared(&c).coalesce().unwrap());
        prop_assert_eq!(shape(&c.coalesce().unwrap()), want, "{}: renamed", t);
    }
}

/// One disjunct found empty by the normalisation (rows added after
/// parsing, which would find it empty itself): the kept answer is the
/// empty map of the input's space, call after call.
#[test]
fn one_disjunct_kept_empty_answer() {
    let mut m: Map = "{ [i, j] : 0 <= i <= 3 and 0 <= j <= 2 }".parse().unwrap();
    let row: Vec<crate::Int> = [-6i64, 1, 1].iter().map(|&v| crate::Int::from(v)).collect();
    m.parts[0].ineqs.push(row);
    for _ in 0..3 {
        let c = m.coalesce().unwrap();
        assert!(c.parts.is_empty());
        assert_eq!(c.space, m.space);
    }
}
