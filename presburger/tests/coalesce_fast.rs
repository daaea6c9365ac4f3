//! The fast `coalesce` and `UnionMap::is_equal` against their plain
//! versions (`coalesce_by_pairs`, `is_equal_by_inclusion`) and brute force.

use presburger::{Map, UnionMap};
use proptest::prelude::*;
use testkit::pool::{pool_set, pool_subset, pool_with, BASE_POOL};

/// Constraint pool over `[i, j]`: subsets of it give disjuncts that often
/// contain, touch or overlap each other.
const POOL_LEN: usize = BASE_POOL.len() + EXTRA.len();

/// Appended to `BASE_POOL`.
const EXTRA: &[&str] = &[
    "i <= 1",
    "i >= 2",
    "j >= 4",
    "j <= 0",
    "(i + j) mod 2 = 0",
    "exists (e : i = 3e + 1)",
    "-2 <= i - 2j <= 1",
    "i >= 5",
    "3 >= 0",
];

fn set(disjuncts: &[Vec<usize>]) -> String {
    pool_set(&pool_with(EXTRA), disjuncts)
}

fn disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..POOL_LEN, 0..4), 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn coalesce_same_as_plain(da in disjuncts()) {
        let a: Map = set(&da).parse().unwrap();
        let fast = a.coalesce().unwrap();
        let plain = a.coalesce_by_pairs().unwrap();
        if a.basic_maps().len() > 1 {
            // the plain fusion rule, and more (rows rewritten by equalities):
            // never more disjuncts
            prop_assert!(fast.basic_maps().len() <= plain.basic_maps().len(), "{}", set(&da));
        } else {
            // one disjunct: only the cheap normalisation (an empty disjunct
            // may stay), never more rows than the input
            prop_assert!(fast.basic_maps().len() <= 1, "{}", set(&da));
            for (f, b) in fast.basic_maps().iter().zip(a.basic_maps()) {
                prop_assert!(f.eqs().len() + f.ineqs().len() <= b.eqs().len() + b.ineqs().len(), "{}", set(&da));
            }
        }
        prop_assert!(pool_subset(&a, &fast) && pool_subset(&fast, &a), "{}", set(&da));
    }

    #[test]
    fn coalesce_with_repeated_disjuncts_same_as_plain(da in disjuncts(), rep in prop::collection::vec(0..4usize, 1..4)) {
        // some disjuncts written again, as the pipeline's unions often do
        let mut d = da.clone();
        d.extend(rep.iter().filter_map(|&r| da.get(r).cloned()));
        let a: Map = set(&d).parse().unwrap();
        let fast = a.coalesce().unwrap();
        let plain = a.coalesce_by_pairs().unwrap();
        prop_assert!(fast.basic_maps().len() <= plain.basic_maps().len().max(a.basic_maps().len().min(1)), "{}", set(&d));
        prop_assert!(pool_subset(&a, &fast) && pool_subset(&fast, &a), "{}", set(&d));
    }

    #[test]
    fn is_equal_same_as_plain(da in disjuncts(), db in disjuncts(), mix in 0..3u8) {
        let mut db = db;
        match mix {
            // B: A's disjuncts, reordered, plus weakened copies
            1 => { db = da.iter().rev().cloned().collect(); db.extend(da.iter().map(|d| d[..d.len() / 2].to_vec())); }
            // B: A itself
            2 => db = da.clone(),
            _ => {}
        }
        let ua: UnionMap = set(&da).parse().unwrap();
        let ub: UnionMap = set(&db).parse().unwrap();
        let fast = ua.is_equal(&ub).unwrap();
        prop_assert_eq!(fast, ua.is_equal_by_inclusion(&ub).unwrap(), "{} = {}", set(&da), set(&db));
        let a: Map = set(&da).parse().unwrap();
        let b: Map = set(&db).parse().unwrap();
        prop_assert_eq!(fast, pool_subset(&a, &b) && pool_subset(&b, &a));
        let c: UnionMap = ua.coalesce().unwrap();
        prop_assert!(c.is_equal(&ua).unwrap());
    }
}

#[test]
fn is_equal_across_spaces() {
    let a: UnionMap = "{ A[i] : 0 <= i <= 3; B[i] : 1 = 0 }".parse().unwrap();
    let b: UnionMap = "{ A[i] : 0 <= i <= 1 or 2 <= i <= 3 }".parse().unwrap();
    assert!(a.is_equal(&b).unwrap() && b.is_equal(&a).unwrap());
    let c: UnionMap = "{ A[i] : 0 <= i <= 3; B[i] : i = 0 }".parse().unwrap();
    assert!(!a.is_equal(&c).unwrap() && !c.is_equal(&a).unwrap());
    let d: UnionMap = "[n] -> { A[i] : 0 <= i <= 3 }".parse().unwrap();
    assert!(a.is_equal(&d).unwrap());
}

#[test]
fn rows_rewritten_by_equalities_fuse_translates() {
    // the shape of `trace-coalesce-138` (there with `n - 2` for 4): `i ≤ 4`
    // on `o = i` is `o ≤ 4`, which also holds on `o = i - 1, i ≤ 5`; the
    // plain rule finds no fusion
    let a: Map = "{ [i, o] : o = i and 1 <= i <= 4; [i, o] : o = i - 1 and 1 <= i <= 5 }"
        .parse()
        .unwrap();
    let c = a.coalesce().unwrap();
    assert_eq!(c.basic_maps().len(), 1, "{c}");
    assert_eq!(a.coalesce_by_pairs().unwrap().basic_maps().len(), 2);
    assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "{c}");
}

/// Appended to `BASE_POOL` for [`fusions_keep_the_set`]: residues of one
/// division, translated boxes and diagonals (wrapping), existentials.
const FUSION: &[&str] = &[
    "i mod 3 = 0",
    "i mod 3 = 1",
    "i mod 3 = 2",
    "(i + j) mod 2 = 0",
    "(i - j + 1) mod 2 = 0",
    "exists (e : i = 3e + 2)",
    "exists (e : 0 <= 4e <= i + 1)",
    "i >= 3",
    "i <= 2",
    "j = i + 1",
    "j = i - 1",
    "-1 <= j <= 0",
    "-1 <= j <= 1",
    "i = 0",
    "i = -1",
    "j <= -i",
];

fn fusion_disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(
        prop::collection::vec(0..BASE_POOL.len() + FUSION.len(), 0..4),
        2..5,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fusions_keep_the_set(da in fusion_disjuncts()) {
        let text = pool_set(&pool_with(FUSION), &da);
        let a: Map = text.parse().unwrap();
        let c = a.coalesce().unwrap();
        prop_assert!(c.basic_maps().len() <= a.basic_maps().len(), "{}", text);
        prop_assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "{} gave {}", text, c);
    }
}

#[test]
fn residues_of_one_division_fuse() {
    // the shape of `trace-coalesce-125`: three residues of `i mod 3` and a
    // point, one disjunct `1 <= i` in the end (relaxed rows over the
    // common division `floor(i/3)`)
    let a: Map = "{ [i, j] : j = 0 and i mod 3 = 0 and 3 <= i <= 6; [i, j] : j = 0 and \
                  i mod 3 = 2 and 3 <= i <= 6; [i, j] : j = 0 and i mod 3 = 1 and 0 <= i <= 6; \
                  [i, j] : j = 0 and i = 2 }"
        .parse()
        .unwrap();
    let c = a.coalesce().unwrap();
    assert_eq!(c.basic_maps().len(), 1, "{c}");
    assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "{c}");
}

#[test]
fn congruences_written_differently_fuse() {
    // the shape of `trace-coalesce-46`: `j` even written as `(j - i + 1)
    // mod 2 = 0` on odd `i` in one disjunct, as `j mod 2 = 0` in the other
    let a: Map = "{ [i, j] : i mod 2 = 1 and j mod 2 = 0 and 0 <= i <= 3 and 0 <= j <= i; \
                  [i, j] : i mod 2 = 1 and (j - i + 1) mod 2 = 0 and 4 <= i <= 6 and i - 3 <= j <= i }"
        .parse()
        .unwrap();
    let c = a.coalesce().unwrap();
    assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "{c}");
    assert_eq!(c.basic_maps().len(), 1, "{c}");
}

#[test]
fn translated_segments_fuse_by_wrapping() {
    // the shape of `trace-coalesce-155`: `{ o1 = i, j - 1 <= o2 <= j }` and
    // `{ o1 = i - 1, j - 1 <= o2 <= j + 1 }` (here i = j = 0) are one
    // trapezoid `o2 <= -o1` (a row wrapped around `o1 <= 0`); the valid and
    // relaxed rows alone give `o2 <= 1`, which is too large
    let a: Map = "{ [i, j] : i = 0 and -1 <= j <= 0; [i, j] : i = -1 and -1 <= j <= 1 }"
        .parse()
        .unwrap();
    let c = a.coalesce().unwrap();
    assert_eq!(c.basic_maps().len(), 1, "{c}");
    assert!(pool_subset(&a, &c) && pool_subset(&c, &a), "{c}");
}

#[test]
fn translated_stencil_boxes_fuse_by_wrapping() {
    // the shape of `trace-coalesce-153` in two dimensions: the five
    // dependences `S[i, j] -> S[i + a, j + b]` of a 5-point stencil on a
    // box fuse into one disjunct (isl: one), each fusion no larger than the
    // two disjuncts it replaces
    let a: Map = "[N] -> { S[i, j] -> S[i - 1, j] : 2 <= i <= N and 1 <= j <= N; \
                  S[i, j] -> S[i, j] : 1 <= i <= N and 1 <= j <= N; \
                  S[i, j] -> S[i + 1, j] : 1 <= i < N and 1 <= j <= N; \
                  S[i, j] -> S[i, j - 1] : 1 <= i <= N and 2 <= j <= N; \
                  S[i, j] -> S[i, j + 1] : 1 <= i <= N and 1 <= j < N }"
        .parse()
        .unwrap();
    let c = a.coalesce().unwrap();
    assert_eq!(c.basic_maps().len(), 1, "{c}");
    assert!(c.is_subset(&a).unwrap() && a.is_subset(&c).unwrap(), "{c}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// `coalesce_simplified` leaves its own answer as it is (the AST
    /// generator remembers an answer as its own), with divisions among the
    /// rows: a division whose other rows go as redundant is dropped in the
    /// first call, not the second.
    #[test]
    fn coalesce_simplified_is_idempotent(da in disjuncts(), db in fusion_disjuncts(), which in 0..2u8) {
        let text = if which == 0 { set(&da) } else { pool_set(&pool_with(FUSION), &db) };
        let a: Map = text.parse().unwrap();
        let once = a.coalesce_simplified().unwrap();
        let twice = once.coalesce_simplified().unwrap();
        prop_assert!(twice.plain_is_equal(&once), "{} gave {:?} then {:?}", text, once, twice);
        prop_assert!(pool_subset(&a, &once) && pool_subset(&once, &a), "{} gave {}", text, once);
    }
}

#[test]
fn a_division_left_with_its_floor_rows_only_is_dropped() {
    // from the AST generator's test `unions_of_boxes_run_each_instance_once_in_order`:
    // the rows `floor((2i0 + 5)/3) >= 2` and `3i0 <= 2*floor(..) + 5` are
    // redundant, after which the division is bounded by its definition only
    let a: Map = "{ [i0, 0, i2, i0 - 1, i2] : 2 <= i0 <= 3 and 2 <= i2 <= 3 and \
                  floor((2i0 + 5)/3) >= 2 and 3i0 <= 2*floor((2i0 + 5)/3) + 5 and \
                  2i2 >= 3i0 - 5 and 3i2 <= 2i0 + 5 }"
        .parse()
        .unwrap();
    let once = a.coalesce_simplified().unwrap();
    assert!(once.basic_maps()[0].divs().is_empty(), "{once:?}");
    assert!(once.coalesce_simplified().unwrap().plain_is_equal(&once));
    assert!(once.is_equal(&a).unwrap());
}

/// Fusions that the rows a first round of coalescing removes as redundant
/// hid (found by `coalesce_simplified_is_idempotent`): `coalesce_simplified`
/// fuses them at once, and its answer is its own.
#[test]
fn fusions_after_redundant_rows_go() {
    for (text, n) in [
        (
            "{ [i, j] : -6 <= i <= 6 and -6 <= j <= 6 and j = i - 1 and i <= 2; \
             [i, j] : -6 <= i <= 6 and -6 <= j <= 6 and -1 <= j <= 1 and i = j; \
             [i, j] : -6 <= i <= 6 and -6 <= j <= 6 and exists (e : 0 <= 4e <= i + 1) and j = i - 1 }",
            1,
        ),
        (
            "{ [i, j] : -6 <= i <= 6 and -6 <= j <= 6 and j <= 3; \
             [i, j] : -6 <= i <= 6 and -6 <= j <= 6 and i >= 2 and -2 <= i - 2j <= 1 }",
            1,
        ),
    ] {
        let a: Map = text.parse().unwrap();
        let once = a.coalesce_simplified().unwrap();
        assert_eq!(once.basic_maps().len(), n, "{once}");
        assert!(once.is_equal(&a).unwrap(), "{once}");
        assert!(once.coalesce_simplified().unwrap().plain_is_equal(&once), "{once}");
    }
}
