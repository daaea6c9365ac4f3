//! The integer affine hull keeps the lattice of the integer points
//! (equalities, and congruences for sets with local variables), and the
//! convex hull stays inside it (issue 21, item 3). Regression cases with isl's answers (islpy), and
//! brute force over small boxes: the lattice spanned by a set's integer
//! points is computed by a breadth-first closure, independently of the
//! engine's Smith-form construction.

use std::collections::{HashSet, VecDeque};

use presburger::Map;
use proptest::prelude::*;
use testkit::gen::Shape;
use testkit::oracle::{member, Universe};
use testkit::strategies::of_shape;

fn m(s: &str) -> Map {
    s.parse().unwrap()
}

fn assert_equal(got: &Map, want: &str) {
    assert!(got.is_equal(&m(want)).unwrap(), "got {got}, want {want}");
}

#[test]
fn affine_hull_keeps_the_lattice() {
    // isl's answers
    let s = m("{ [i] : -8 <= i <= 8 and i mod 3 = 1 }");
    assert_equal(&s.affine_hull().unwrap(), "{ [i] : (-1 + i) mod 3 = 0 }");
    assert_eq!(
        s.affine_hull().unwrap().to_string(),
        "{ [i] : (i - 1) mod 3 = 0 }"
    );
    assert_equal(
        &m("{ [i, j] : 0 <= i <= 8 and j = 2i and i mod 2 = 0 }")
            .affine_hull()
            .unwrap(),
        "{ [i, j] : j = 2i and (i) mod 2 = 0 }",
    );
    assert_equal(
        &m("[n] -> { [i] : 0 <= i <= n and i mod 2 = n mod 2 }")
            .affine_hull()
            .unwrap(),
        "[n] -> { [i] : (i) mod 2 = n - 2*floor((n)/2) }",
    );
    assert_equal(
        &m("{ [i, j] : (i + j) mod 2 = 0 and 0 <= i, j <= 4 }")
            .affine_hull()
            .unwrap(),
        "{ [i, j] : (i + j) mod 2 = 0 }",
    );
    // two congruences combine
    assert_equal(
        &m("{ [i] : i mod 4 = 1 and i mod 6 = 1 }")
            .affine_hull()
            .unwrap(),
        "{ [i] : (i - 1) mod 12 = 0 }",
    );
    // a union of lattices: the lattice they span together
    assert_equal(
        &m("{ [i] : i mod 6 = 1 or i mod 6 = 3 }")
            .affine_hull()
            .unwrap(),
        "{ [i] : (i - 1) mod 2 = 0 }",
    );
    assert_equal(
        &m("{ [i] : 0 <= i <= 8 and (i mod 3 = 1 or i mod 3 = 2) }")
            .affine_hull()
            .unwrap(),
        "{ [i] }",
    );
    assert_equal(
        &m("{ [i] : false }").affine_hull().unwrap(),
        "{ [i] : false }",
    );
}

#[test]
fn convex_hull_stays_in_the_lattice() {
    // isl's convex hull is `(-1 + i) mod 3 = 0 and -8 <= i <= 7`, its simple
    // hull `... and -8 <= i <= 8`: the same integer points
    assert_equal(
        &m("{ [i] : -8 <= i <= 8 and i mod 3 = 1 }")
            .convex_hull()
            .unwrap(),
        "{ [i] : (-1 + i) mod 3 = 0 and -8 <= i <= 7 }",
    );
    // without local variables, no congruence (isl: { [i] } and 0 <= i <= 4)
    assert_equal(
        &m("{ [i] : i = 0 or i = 4 }").affine_hull().unwrap(),
        "{ [i] }",
    );
    assert_equal(
        &m("{ [i] : i = 0 or i = 4 }").convex_hull().unwrap(),
        "{ [i] : 0 <= i <= 4 }",
    );
    assert_equal(
        &m("{ [i, j] : (i = 0 and j = 0) or (i = 2 and j = 4) }")
            .convex_hull()
            .unwrap(),
        "{ [i, j] : j = 2i and 0 <= i <= 2 }",
    );
    // isl: (i) mod 6 = 0 and 0 <= i <= 6 (convex hull), 0 <= i <= 10 (simple hull)
    assert_equal(
        &m("{ [i] : 0 <= i <= 10 and i mod 2 = 0 and i mod 3 = 0 }")
            .convex_hull()
            .unwrap(),
        "{ [i] : (i) mod 6 = 0 and 0 <= i <= 10 }",
    );
}

/// True if `y` is an affine combination (over the rationals) of `points`:
/// appending `(1, y)` to the rows `(1, p)` does not raise their rank.
fn in_affine_span(points: &[Vec<i64>], y: &[i64]) -> bool {
    let row = |p: &[i64]| -> Vec<i128> {
        std::iter::once(1)
            .chain(p.iter().map(|&v| v as i128))
            .collect()
    };
    let rows: Vec<Vec<i128>> = points.iter().map(|p| row(p)).collect();
    let mut with_y = rows.clone();
    with_y.push(row(y));
    rank(rows) == rank(with_y)
}

/// Rank by fraction-free elimination (rows are divided by their gcd after
/// each step, so entries stay small for these boxes).
fn rank(mut rows: Vec<Vec<i128>>) -> usize {
    let gcd = |a: i128, b: i128| {
        let (mut a, mut b) = (a.abs(), b.abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let ncol = rows.first().map_or(0, Vec::len);
    let mut r = 0;
    for c in 0..ncol {
        let Some(p) = (r..rows.len()).find(|&i| rows[i][c] != 0) else {
            continue;
        };
        rows.swap(r, p);
        let pivot = rows[r].clone();
        for row in rows.iter_mut().skip(r + 1) {
            if row[c] != 0 {
                let (a, b) = (pivot[c], row[c]);
                for (x, y) in row.iter_mut().zip(&pivot) {
                    *x = a * *x - b * y;
                }
                let g = row.iter().fold(0, |g, &v| gcd(g, v));
                if g > 1 {
                    row.iter_mut().for_each(|v| *v /= g);
                }
            }
        }
        r += 1;
    }
    r
}

/// The integer points of the affine lattice spanned by `points`, inside
/// `[-reach, reach]^n`: breadth-first closure under `± (p - p0)`.
fn lattice_closure(points: &[Vec<i64>], reach: i64) -> HashSet<Vec<i64>> {
    let p0 = &points[0];
    let inside = |p: &[i64]| p.iter().all(|v| v.abs() <= reach);
    let mut reached: HashSet<Vec<i64>> = HashSet::from([p0.clone()]);
    let mut gens: Vec<Vec<i64>> = Vec::new();
    for p in points {
        if reached.contains(p) {
            continue;
        }
        gens.push(p.iter().zip(p0).map(|(a, b)| a - b).collect());
        let mut queue: VecDeque<Vec<i64>> = reached.iter().cloned().collect();
        while let Some(x) = queue.pop_front() {
            for g in &gens {
                for s in [1, -1] {
                    let y: Vec<i64> = x.iter().zip(g).map(|(a, b)| a + s * b).collect();
                    if inside(&y) && reached.insert(y.clone()) {
                        queue.push_back(y);
                    }
                }
            }
        }
    }
    reached
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The affine hull holds every integer point of the set and, inside the
    /// box, no point outside the lattice the set's points span (with local
    /// variables) or their affine span (without); the convex hull holds
    /// every point of the set and none outside the affine hull.
    #[test]
    fn hulls_against_the_lattice_of_the_points(
        g in (1usize..=2).prop_flat_map(|d| of_shape(Shape::set(false, d)))
    ) {
        let s = g.map();
        let universe = Universe::of(g.shape);
        let box_points = universe.points();
        let points: Vec<Vec<i64>> = box_points.iter().filter(|p| member(&s, p)).cloned().collect();
        let aff = s.affine_hull().unwrap();
        let hull = s.convex_hull().unwrap();
        if points.is_empty() {
            prop_assert!(aff.is_empty().unwrap(), "{s}: {aff}");
            return Ok(());
        }
        let with_locals = s.basic_maps().iter().any(|b| b.n_div() > 0);
        let lattice = lattice_closure(&points, 3 * universe.dim_bound);
        for p in &box_points {
            let in_s = member(&s, p);
            let in_lattice = if with_locals {
                lattice.contains(p)
            } else {
                in_affine_span(&points, p)
            };
            prop_assert_eq!(member(&aff, p), in_lattice, "affine hull {} of {} at {:?}", aff, s, p);
            if in_s {
                prop_assert!(member(&hull, p), "convex hull {} of {} misses {:?}", hull, s, p);
            }
            if member(&hull, p) {
                prop_assert!(in_lattice, "convex hull {} of {} has {:?}, outside the lattice", hull, s, p);
            }
        }
    }
}

/// Found by the property test above: a disjunct with a redundant local
/// (`e0 = 0`) makes the map's affine hull a lattice (`x mod 8 = 0` for the
/// points 0 and -8); the convex hull stays inside it, although removing the
/// empty parts first would have dropped the local.
#[test]
fn convex_hull_stays_in_the_lattice_of_a_map_with_a_redundant_local() {
    let a: presburger::BasicMap = "{ [x] : x = 0 }".parse().unwrap();
    let b: presburger::BasicMap = "{ [x] : exists (e0 : x = -8 and 0 <= 2e0 <= 0) }"
        .parse()
        .unwrap();
    let space = a.space().clone();
    let m = presburger::Map::from_disjuncts(space, vec![a, b]).unwrap();
    let hull = m.convex_hull().unwrap();
    for (x, inside) in [(0, true), (-8, true), (-7, false), (-4, false), (1, false)] {
        assert_eq!(member(&hull, &[x]), inside, "{hull} at {x}");
    }
}
