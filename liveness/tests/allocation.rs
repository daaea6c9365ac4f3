//! The modular allocation in any dimension: wrong shapes are errors, and
//! on random difference sets the searched allocation maps no two
//! conflicting cells together and is never worse than the canonical basis.

use liveness::{allocate_differences, successive_modulo, Fold};
use presburger::Set;
use testkit::Lcg;

/// `{ [d] : d ∈ ±points }` as isl text (points ≠ 0).
fn set_of(points: &[Vec<i64>]) -> Set {
    let parts: Vec<String> = points
        .iter()
        .flat_map(|p| [p.clone(), p.iter().map(|v| -v).collect()])
        .map(|p| {
            let s: Vec<String> = p.iter().map(|v| v.to_string()).collect();
            format!("[{}]", s.join(", "))
        })
        .collect();
    format!("{{ {} }}", parts.join("; ")).parse().unwrap()
}

fn product(folds: &[Fold]) -> (usize, i64) {
    let keep = folds.iter().filter(|f| **f == Fold::Keep).count();
    let prod = folds
        .iter()
        .map(|f| if let Fold::Mod(b) = f { *b } else { 1 })
        .product();
    (keep, prod)
}

#[test]
fn random_difference_sets_are_avoided() {
    let mut g = Lcg::new(17);
    for n in 1..=5usize {
        for round in 0..if n == 5 { 4 } else { 12 } {
            let count = g.range(1, 6) as usize;
            let points: Vec<Vec<i64>> = (0..count)
                .map(|_| loop {
                    let p: Vec<i64> = (0..n).map(|_| g.range(-3, 3)).collect();
                    if p.iter().any(|v| *v != 0) {
                        break p;
                    }
                })
                .collect();
            let ds = set_of(&points);
            let a = allocate_differences("A", &ds).unwrap();
            let zero = a.image(&vec![0; n]);
            for p in &points {
                assert_ne!(
                    a.image(p),
                    zero,
                    "{n}-d round {round}: {p:?} folded onto 0 by {a}"
                );
            }
            // every coordinate is bounded: nothing is kept whole
            assert!(a.folds().iter().all(|f| *f != Fold::Keep), "{a}");
            let id: Vec<Vec<i64>> = (0..n)
                .map(|r| (0..n).map(|k| i64::from(r == k)).collect())
                .collect();
            let canonical = successive_modulo(&ds, &id).unwrap();
            assert!(
                product(a.folds()) <= product(&canonical),
                "{a} vs {canonical:?}"
            );
            // in one dimension successive modulo is optimal: 1 + max |d|
            if n == 1 {
                let m = points.iter().map(|p| p[0].abs()).max().unwrap();
                assert_eq!(product(a.folds()).1, m + 1, "{a}");
            }
        }
    }
}

#[test]
fn skewed_basis_in_three_dimensions() {
    // conflicts along two axes of the last two dimensions, the first flat
    let ds: Set = "[N] -> { [0, a, 0] : 0 < a <= N or -N <= a < 0; \
                   [0, 0, b] : 0 < b <= N or -N <= b < 0 }"
        .parse()
        .unwrap();
    let a = allocate_differences("W", &ds).unwrap();
    assert_eq!(
        a.folds().iter().filter(|f| **f == Fold::Keep).count(),
        1,
        "{a}"
    );
    for k in 1..6 {
        for (x, y) in [(k, 0), (0, k), (-k, 0), (0, -k)] {
            assert_ne!(a.image(&[0, x, y]), a.image(&[0, 0, 0]), "{a}");
        }
    }
    // the canonical basis keeps two coordinates
    let id = vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]];
    let folds = successive_modulo(&ds, &id).unwrap();
    assert_eq!(folds, vec![Fold::Drop, Fold::Keep, Fold::Keep]);
}

#[test]
fn wrong_shapes_are_errors() {
    let ds: Set = "{ [a, b] : -1 <= a <= 1 and b = 0 }".parse().unwrap();
    let id = vec![vec![1, 0], vec![0, 1]];
    assert!(successive_modulo(&ds, &id).is_ok());
    // a relation instead of a difference set
    let rel: Set = "{ A[x] -> A[y] : y = x + 1 or y = x - 1 }".parse().unwrap();
    assert!(successive_modulo(&rel, &[vec![1]]).is_err());
    assert!(allocate_differences("A", &rel).is_err());
    // a basis of the wrong size, singular, not unimodular
    assert!(successive_modulo(&ds, &[vec![1, 0]]).is_err());
    assert!(successive_modulo(&ds, &[vec![1], vec![0]]).is_err());
    assert!(successive_modulo(&ds, &[vec![1, 1], vec![1, 1]]).is_err());
    assert!(successive_modulo(&ds, &[vec![1, 1], vec![1, -1]]).is_err());
    // not 0-symmetric
    let asym: Set = "{ [a, b] : 0 <= a <= 1 and -1 <= b <= 0 }".parse().unwrap();
    assert!(successive_modulo(&asym, &id).is_err());
    assert!(allocate_differences("A", &asym).is_err());
    // an allocation with a basis that is not unimodular, or a modulus 1
    assert!(liveness::Allocation::with_basis(&[], "A", vec![vec![2]], vec![Fold::Mod(3)]).is_err());
    assert!(liveness::Allocation::new(&[], "A", vec![Fold::Mod(1)]).is_err());
}

#[test]
fn allocate_rejects_conflicts_of_another_space() {
    let src = "void k(int N, double A[N], double B[N]) {
      double t[N];
      for (int i = 0; i < N; i++) t[i] = A[i];
      for (int i = 0; i < N; i++) B[i] = t[i] + t[N - 1 - i];
    }";
    let model = scop::Model::from_source(src).unwrap();
    let a = liveness::analyze_model(&model, false).unwrap();
    let t = a.arrays.iter().find(|r| r.name == "t").unwrap();
    let good = liveness::ArrayConflict {
        name: "t".into(),
        cells: t.cells.clone(),
        conflict: t.conflict.clone(),
    };
    assert!(liveness::allocate(&model, &good).is_ok());
    // the conflicts of another array, or a relation between two arrays
    let other: presburger::Map = "[N] -> { B[x] -> B[y] : 0 <= x, y < N and x != y }"
        .parse()
        .unwrap();
    let bad = liveness::ArrayConflict {
        conflict: other,
        ..good.clone()
    };
    assert!(liveness::allocate(&model, &bad).is_err());
    let across: presburger::Map = "[N] -> { t[x] -> B[y] : 0 <= x, y < N }".parse().unwrap();
    let bad = liveness::ArrayConflict {
        conflict: across,
        ..good
    };
    assert!(liveness::allocate(&model, &bad).is_err());
}
