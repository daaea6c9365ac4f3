//! `deltas` and `deltas_map` keep the relation's space (tuple names and
//! nesting) when domain and range are the same space, as isl does; the
//! expected answers are islpy's (isl 0.27), written here once.

use presburger::{Map, UnionMap};
use proptest::prelude::*;
use testkit::oracle::{box_points, contains};

fn m(s: &str) -> Map {
    s.parse().unwrap()
}

fn same(got: &Map, want: &str) {
    let w = m(want);
    assert_eq!(got.space(), w.space(), "space of {got} (want {want})");
    assert!(got.is_equal(&w).unwrap(), "got {got}, want {want}");
}

#[test]
fn named_and_nested_tuples_are_kept() {
    same(
        &m("{ S[i] -> S[i + 2] : 0 <= i < 10 }").deltas().unwrap(),
        "{ S[2] }",
    );
    same(
        &m("{ S[i] -> S[i + 2] : 0 <= i < 10 }")
            .deltas_map()
            .unwrap(),
        "{ [S[i] -> S[2 + i]] -> S[2] : 0 <= i <= 9 }",
    );
    same(
        &m("{ [A[i] -> B[j]] -> [A[i + 1] -> B[j]] }")
            .deltas()
            .unwrap(),
        "{ [A[1] -> B[0]] }",
    );
    same(
        &m("{ A[i] -> A[j] : j = i + 1 }").deltas().unwrap(),
        "{ A[1] }",
    );
    // different spaces of equal dimension: an anonymous tuple
    same(&m("{ S[i] -> T[i + 1] }").deltas().unwrap(), "{ [1] }");
}

#[test]
fn each_space_of_a_union_keeps_its_name() {
    let u: UnionMap = "{ S[i] -> S[i + 1]; T[i, j] -> T[i, j + 2]; S[i] -> T[i, i] }"
        .parse()
        .unwrap();
    let want: UnionMap = "{ S[1]; T[0, 2] }".parse().unwrap();
    assert!(u.deltas().unwrap().is_equal(&want).unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The deltas of a random relation on `S[i, j]` are, point by point, the
    /// differences of its pairs (brute force on a box), in the space `S`.
    #[test]
    fn deltas_are_the_differences(a in -2i64..=2, b in -2i64..=2, c in -3i64..=3, lo in -2i64..=1) {
        let rel = m(&format!(
            "{{ S[i, j] -> S[k, l] : {lo} <= i <= 2 and {lo} <= j <= 2 and {lo} <= k <= 2 \
             and {lo} <= l <= 2 and {a}i + {b}k <= {c} + l }}"
        ));
        let d = rel.deltas().unwrap();
        prop_assert_eq!(d.space().range.name.as_deref(), Some("S"));
        let pairs = box_points(4, lo, 2);
        for p in box_points(2, -6, 6) {
            let want = pairs.iter().any(|q| {
                contains(&rel, q) && q[2].clone() - q[0].clone() == p[0] && q[3].clone() - q[1].clone() == p[1]
            });
            prop_assert_eq!(contains(&d, &p), want, "at {:?}", p);
        }
    }
}

#[test]
fn anonymous_tuple_keeps_the_points() {
    let s = m("[n] -> { S[i, j] : 0 <= i < n and j = 2i }");
    let a = s.anonymous_tuple().unwrap();
    assert_eq!(a.space().range.name, None);
    assert!(a
        .is_equal(&m("[n] -> { [i, j] : 0 <= i < n and j = 2i }"))
        .unwrap());
    assert!(m("{ S[i] -> S[i] }").anonymous_tuple().is_err());
}
