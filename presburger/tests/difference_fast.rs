//! The shortcuts of `Map::subtract` (a minuend disjunct syntactically
//! inside a subtrahend disjunct, up to a renaming of the subtrahend's
//! locals; the disjointness test skipped when the
//! subtrahend's rows are all the minuend's or the point kept on the minuend
//! is in the subtrahend) against the plain path (`subtract_reference`) and
//! brute force over a box.

use presburger::Map;
use proptest::prelude::*;
use testkit::oracle::{box_points, contains};
use testkit::pool::{pool_set, pool_with, BASE_POOL};

/// Appended to `BASE_POOL`: divisions and existentials, so that the
/// subtrahend's locals are made explicit and the minuend keeps a point with
/// locals.
const EXTRA: &[&str] = &[
    "(i + j) mod 2 = 0",
    "exists (e : i = 3e + 1)",
    "exists (e : 2e <= j <= 2e + 1)",
    "-2 <= i - 2j <= 1",
    "i >= 5",
    "j <= floor((i + 4)/3)",
    // with `(i + j) mod 2 = 0` a parity contradiction on existentials
    // (a subtrahend disjunct left out as empty)
    "exists (e : i + j = 2e + 1)",
    "exists (e0, e1 : i = 2e0 and j = 4e1 + 1)",
];

const POOL_LEN: usize = BASE_POOL.len() + EXTRA.len();

fn set(disjuncts: &[Vec<usize>]) -> String {
    pool_set(&pool_with(EXTRA), disjuncts)
}

fn disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..POOL_LEN, 0..4), 0..3)
}

/// `d` (a difference) has exactly the points of `a` not in `b` on the box.
fn is_difference(d: &Map, a: &Map, b: &Map) -> bool {
    box_points(2, -7, 7)
        .iter()
        .all(|p| contains(d, p) == (contains(a, p) && !contains(b, p)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn subtract_shortcuts_agree(
        da in disjuncts(),
        db in disjuncts(),
        mode in 0..5usize,
        extra in prop::collection::vec(0..POOL_LEN, 1..3),
    ) {
        let mut db = db;
        match mode {
            // B holds copies of A's disjuncts: syntactic containment
            1 => db.extend(da.iter().cloned()),
            // B holds A's disjuncts with fewer rows: A's disjuncts inside B's
            2 => db.extend(da.iter().map(|d| d[..d.len() / 2].to_vec())),
            // B holds A's disjuncts with more rows: overlapping, the kept
            // point of the minuend often in B, sometimes a containment that
            // linear programming proves (a redundant extra row)
            3 => db.extend(da.iter().map(|d| {
                let mut d = d.clone();
                d.extend(extra.iter().copied());
                d
            })),
            // B holds A's disjuncts with every constraint twice (two copies
            // of each existential): containment up to a renaming of locals
            4 => db.extend(da.iter().map(|d| {
                let mut d2 = d.clone();
                d2.extend(d.iter().copied());
                d2.extend(extra.iter().copied().filter(|_| extra.len() > 1));
                d2
            })),
            _ => {}
        }
        let a: Map = set(&da).parse().unwrap();
        let b: Map = set(&db).parse().unwrap();
        for (x, y) in [(&a, &b), (&b, &a)] {
            let reference = x.subtract_reference(y).unwrap();
            prop_assert!(is_difference(&reference, x, y), "reference {} \\ {}", x, y);
            // twice on the same objects: the second call finds the points
            // the first kept on the minuend's disjuncts, and the prepared
            // minuend and explicit subtrahend disjuncts it kept by their rows
            for round in 0..2 {
                let fast = x.subtract(y).unwrap();
                prop_assert!(is_difference(&fast, x, y), "round {}: {} \\ {} = {}", round, x, y, fast);
                prop_assert_eq!(fast.is_empty().unwrap(), reference.is_empty().unwrap());
                prop_assert_eq!(
                    x.difference_is_empty(y).unwrap(),
                    reference.is_empty().unwrap(),
                    "{} \\ {}", x, y
                );
            }
        }
    }
}

/// The traced cases that led to the shortcuts: a subtrahend equal to the
/// minuend, and one with an extra row the minuend implies (containment
/// proved with linear programming; the disjointness test skipped by the
/// minuend's kept point).
#[test]
fn subtract_equal_and_implied() {
    let cases = [
        (
            "[N] -> { [S1[i, j] -> x[j]] -> S2[j] : 0 <= i < N and i < j < N and j >= 0 }",
            "[N] -> { [S1[i, j] -> x[j]] -> S2[j] : 0 <= i < N and i < j < N and j >= 0 }",
        ),
        (
            "[N] -> { [S1[i, j, k] -> A[j, k]] : 0 <= i < N and 0 <= j < i and 0 <= k < j }",
            "[N] -> { [S1[i, j, k] -> A[j, k]] : 0 <= i < N and 0 <= j < i and 0 <= k < j and j < N }",
        ),
        (
            "[N, M] -> { [S4[j] -> s[]] : (-M + j + 1) mod 3 = 0 and 0 <= j < M and N <= 0 }",
            "[N, M] -> { [S4[j] -> s[]] : (M - j - 1) mod 3 = 0 and 0 <= j < M and N <= 0 }",
        ),
    ];
    for (a, b) in cases {
        let a: Map = a.parse().unwrap();
        let b: Map = b.parse().unwrap();
        for _ in 0..2 {
            assert!(a.subtract(&b).unwrap().is_empty().unwrap());
            let fast = b.subtract(&a).unwrap();
            let reference = b.subtract_reference(&a).unwrap();
            assert!(fast.is_equal(&reference).unwrap(), "{b} \\ {a}");
        }
    }
}

/// A traced subtraction (trace-subtract-331): the subtrahend repeats the
/// minuend's rows and adds copies of its existential constraints on new
/// existentials; the minuend is inside it by a renaming of the locals.
#[test]
fn subtract_duplicated_existentials() {
    let a = "[n, i] -> { [i1] : exists (e0, e1, e2, e3 : 0 <= i1 <= n + 4e0 and \
             e2 - 3 <= 4e3 <= e2 and 0 <= e2 <= 5 and i1 >= -i + 4e1 + e2 + 2 and i1 <= 9 and n <= 9 and -9 <= i) }";
    let b = "[n, i] -> { [i1] : exists (e0, e1, e2, e3, e4, e5 : 0 <= i1 <= n + 4e0 and \
             e2 - 3 <= 4e3 <= e2 and 0 <= e2 <= 5 and i1 >= -i + 4e1 + e2 + 2 and i1 <= 9 and n <= 9 and -9 <= i and \
             e4 - 3 <= 4e5 <= e4 and 0 <= e4 <= 5 and i1 >= -i + 4e1 + e4 + 2) }";
    let a: Map = a.parse().unwrap();
    let b: Map = b.parse().unwrap();
    for _ in 0..2 {
        assert!(a.subtract(&b).unwrap().is_empty().unwrap());
        assert!(a.subtract_reference(&b).unwrap().is_empty().unwrap());
        assert!(a.is_subset(&b).unwrap());
        assert!(a.is_subset_by_difference(&b).unwrap());
        // the other way round the renaming proves nothing: the same answer
        // as the plain path
        let fast = b.subtract(&a).unwrap();
        let reference = b.subtract_reference(&a).unwrap();
        assert!(fast.is_equal(&reference).unwrap());
        assert_eq!(
            b.is_subset(&a).unwrap(),
            b.is_subset_by_difference(&a).unwrap()
        );
    }
}

/// A subtrahend without disjuncts removes nothing: the minuend's disjuncts
/// come back as they are (the shortcut), the same set as the reference's.
#[test]
fn subtract_nothing() {
    for text in [
        "[n] -> { [i, j] : 0 <= i < n and i <= j <= i and j >= 2 }",
        "{ [i] : i >= 4 and i <= 1 }",
        "{ [i] : exists e : i = 3e and 0 <= i <= 9; [i] : i = 20 }",
    ] {
        let a: Map = text.parse().unwrap();
        let none = Map::empty(a.space().clone());
        assert!(none.basic_maps().is_empty());
        let fast = a.subtract(&none).unwrap();
        assert_eq!(fast.basic_maps().len(), a.basic_maps().len(), "{a}");
        assert!(
            fast.is_equal(&a.subtract_reference(&none).unwrap())
                .unwrap(),
            "{a}"
        );
    }
}
