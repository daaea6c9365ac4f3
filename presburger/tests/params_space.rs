//! A parameter domain `[n] -> { : n > 0 }` and the zero-dimensional set
//! `[n] -> { [] : n > 0 }` are different spaces, as in isl (issue 21: "`{ [] }`
//! rather than `{ : }`"): each prints in its own form (isl's), reads back into
//! its own space, and only the parameter domain restricts the parameters of
//! the other operand of an intersection. The printed forms are isl's
//! (islpy: `isl.Set("[n] -> { [] : n > 0 }")` prints `[n] -> { [] : n > 0 }`,
//! the empty 0-d set `{ [] : false }`, the empty parameter set `{  : false }`).

use presburger::{Int, Map, UnionMap};
use proptest::prelude::*;

fn m(s: &str) -> Map {
    s.parse().unwrap()
}

fn u(s: &str) -> UnionMap {
    s.parse().unwrap()
}

#[test]
fn each_space_prints_in_its_own_form() {
    let cases = [
        ("[n] -> { [] : n > 0 }", "[n] -> { [] : n >= 1 }"),
        ("[n] -> { : n > 0 }", "[n] -> { : n >= 1 }"),
        ("{ [] }", "{ [] }"),
        ("{ : }", "{ : }"),
        ("{ [] : 1 = 0 }", "{ [] : false }"),
        ("[n] -> { : 1 = 0 }", "[n] -> { : false }"),
    ];
    for (text, want) in cases {
        let x = m(text);
        assert_eq!(x.to_string(), want, "{text}");
        assert_eq!(x.space().is_params(), text.contains("{ :"), "{text}");
    }
    // a disjunction over the parameters stays in the 0-d tuple
    let d = m("[n] -> { [] : n > 5 or n < 0 }");
    assert!(d.to_string().starts_with("[n] -> { [] : "), "{d}");
    // the parameters of a set are a parameter domain; the domain of a
    // relation from `[]` is the 0-d set
    let s = m("[n] -> { [i] : 0 <= i < n }");
    assert_eq!(s.params().to_string(), "[n] -> { : n >= 1 }");
    assert_eq!(
        m("{ [] -> [i] : 0 <= i < 3 }")
            .domain()
            .unwrap()
            .to_string(),
        "{ [] }"
    );
    assert_eq!(
        m("{ [i] -> [] : 0 <= i < 3 }").range().unwrap().to_string(),
        "{ [] }"
    );
}

#[test]
fn only_a_parameter_domain_restricts_the_other_operand() {
    let a = u("[n] -> { [] : n > 0; [i] : 0 <= i < n }");
    // isl: [n] -> { [] : 0 < n <= 2 }
    let zero = a.intersect(&u("[n] -> { [] : n < 3 }")).unwrap();
    assert!(
        zero.is_equal(&u("[n] -> { [] : 0 < n <= 2 }")).unwrap(),
        "{zero}"
    );
    // isl: [n] -> { [] : 0 < n <= 2; [i] : n <= 2 and i < n }
    let params = a.intersect(&u("[n] -> { : n < 3 }")).unwrap();
    let want = u("[n] -> { [] : 0 < n <= 2; [i] : 0 <= i < n and n <= 2 }");
    assert!(params.is_equal(&want).unwrap(), "{params}");
    // the two spaces are two parts of a union, not one
    let both = u("[n] -> { [] : n > 0; : n < 0 }");
    assert_eq!(both.maps().len(), 2);
    assert!(!u("{ [] }").is_equal(&u("{ : }")).unwrap());
}

/// `[n, m] -> { T : C }` for T `[]` or nothing and C a disjunction of
/// conjunctions of `a n + b m + c >= 0`.
fn text(zero_dim: bool, clauses: &[Vec<(i32, i32, i32)>]) -> String {
    let conj: Vec<String> = clauses
        .iter()
        .map(|c| {
            let atoms: Vec<String> = c
                .iter()
                .map(|(a, b, k)| format!("{a}n + {b}m + {k} >= 0"))
                .collect();
            format!("({})", atoms.join(" and "))
        })
        .collect();
    let tuple = if zero_dim { "[] " } else { "" };
    format!("[n, m] -> {{ {tuple}: {} }}", conj.join(" or "))
}

fn holds(clauses: &[Vec<(i32, i32, i32)>], n: i32, mm: i32) -> bool {
    clauses
        .iter()
        .any(|c| c.iter().all(|(a, b, k)| a * n + b * mm + k >= 0))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Printing and reading back keeps the space (parameter domain or 0-d
    /// set) and the points, for sets and for unions.
    #[test]
    fn round_trip_keeps_the_space_and_the_points(
        zero_dim in any::<bool>(),
        clauses in prop::collection::vec(
            prop::collection::vec((-2i32..=2, -2i32..=2, -3i32..=3), 1..3), 1..3),
    ) {
        let t = text(zero_dim, &clauses);
        let x = m(&t);
        prop_assert_eq!(x.space().is_params(), !zero_dim);
        let printed = x.to_string();
        let marker = if zero_dim { "{ [] " } else { "{ :" };
        prop_assert!(printed.contains(marker), "{} printed {}", t, printed);
        let back = m(&printed);
        prop_assert_eq!(back.space(), x.space());
        prop_assert!(back.is_equal(&x).unwrap(), "{} printed {}", t, printed);
        let ub = u(&u(&t).to_string());
        for part in ub.maps() {
            prop_assert_eq!(part.space().is_params(), !zero_dim);
        }
        for n in -3..=3 {
            for mm in -3..=3 {
                let got = back.contains_point(&[Int::from(n), Int::from(mm)]).unwrap();
                prop_assert_eq!(got, holds(&clauses, n, mm), "{} at n={} m={}", printed, n, mm);
            }
        }
    }
}
