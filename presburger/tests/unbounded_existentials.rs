//! Existentials without a lexicographic minimum: unbounded below (bounded
//! above or not at all, as in a stride). `make_divs_explicit` (parametric
//! integer programming over the existentials) used to fail on them with
//! "unbounded optimum"; any integer witness will do, so it now solves in an
//! integer basis where every minimum exists (`pip::divs`, `bounded_basis`).

use presburger::{BasicSet, Int, Set};
use proptest::prelude::*;

mod trace_case;
use trace_case::assert_right;

/// The answer has `e1 = 32e3`, `15e1 - 15 <= 16e4 <= 15e1` and `e1`
/// bounded above only; the judge's equality test made its divs explicit.
#[test]
fn trace_intersect_357() {
    assert_right("trace-intersect-357");
}

/// The judge intersects the gist with the context: the same existentials.
#[test]
fn trace_gist_90() {
    assert_right("trace-gist-90");
}

/// `make_divs_explicit` of `b` is a union equal to `b` on the box
/// `[-R, R]²` (membership of the input searched exactly over its locals).
fn assert_same_on_box(b: &BasicSet) {
    const R: i64 = 5;
    let parts = b.make_divs_explicit().unwrap();
    for p in &parts {
        assert!(p.divs().iter().all(Option::is_some), "{p}: undefined local");
    }
    for i in -R..=R {
        for j in -R..=R {
            let pt = [Int::from(i), Int::from(j)];
            let want = b.contains_point(&pt).unwrap();
            let mut got = false;
            for p in &parts {
                got |= p.contains_point(&pt).unwrap();
            }
            assert_eq!(got, want, "{b} at ({i}, {j}): parts {parts:?}");
        }
    }
}

#[test]
fn stride_and_upper_bound_only() {
    for text in [
        "{ [i, j] : exists (e0 : e0 <= i and 2e0 <= j) }",
        "{ [i, j] : exists (e0, e1 : i = 2e0 + 3e1) }",
        "{ [i, j] : exists (e0, e1 : i = 4e0 + 6e1 and e0 <= j) }",
        "{ [i, j] : exists (e0, e1 : e0 = 3e1 and 5e0 - 5 <= 4i + 6e1 <= 5e0 and e0 <= 2j - 3) }",
        "{ [i, j] : exists (e0, e1 : e0 + e1 >= i and e0 - 2e1 <= j and 3e0 = 2i + j + 5e1) }",
    ] {
        let s: Set = text.parse().unwrap();
        for b in s.basic_maps() {
            assert_same_on_box(b);
        }
    }
}

/// A term `c·name` in isl notation (`+ 3e0`, `- e1`, nothing for 0).
fn term(c: i64, name: &str) -> String {
    match c {
        0 => String::new(),
        1 => format!(" + {name}"),
        -1 => format!(" - {name}"),
        c if c > 0 => format!(" + {c}{name}"),
        c => format!(" - {}{name}", -c),
    }
}

/// A random basic set over `[i, j]` with two existentials: each is bounded
/// above only, below only or on neither side by the inequalities (the sign
/// of its coefficients), and an optional equality ties them to `i, j`.
fn one_sided_set() -> impl Strategy<Value = String> {
    let row = (-3i64..=3, -3i64..=3, 0i64..=3, 0i64..=3, -6i64..=6);
    (
        prop::collection::vec(row, 1..4),
        (0usize..3, 0usize..3),
        prop::option::of((-2i64..=2, -2i64..=2, -4i64..=4, -4i64..=4, -3i64..=3)),
    )
        .prop_map(|(rows, (s0, s1), eq)| {
            // side 0: coefficients <= 0 (bounded above), 1: >= 0 (below), 2: mixed
            let coef = |c: i64, side: usize, k: usize| match side {
                0 => -c,
                1 => c,
                _ => {
                    if k.is_multiple_of(2) {
                        c
                    } else {
                        -c
                    }
                }
            };
            let mut cons: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(k, &(a, b, c0, c1, d))| {
                    let lhs = format!(
                        "0{}{}{}{}",
                        term(a, "i"),
                        term(b, "j"),
                        term(coef(c0, s0, k), "e0"),
                        term(coef(c1, s1, k), "e1")
                    );
                    format!("{lhs} + {d} >= 0")
                })
                .collect();
            if let Some((a, b, c0, c1, d)) = eq {
                let lhs = format!(
                    "0{}{}{}{}",
                    term(a, "i"),
                    term(b, "j"),
                    term(c0, "e0"),
                    term(c1, "e1")
                );
                cons.push(format!("{lhs} + {d} = 0"));
            }
            format!("{{ [i, j] : exists (e0, e1 : {}) }}", cons.join(" and "))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn explicit_divs_keep_one_sided_existentials(text in one_sided_set()) {
        let s: Set = text.parse().unwrap();
        for b in s.basic_maps() {
            assert_same_on_box(b);
        }
    }
}

/// The lexicographic minimum and maximum of `s` within the box `[-R, R]²`
/// are the first and the last point of the box in `s` (membership searched
/// exactly over the locals), or nothing.
fn assert_optima_on_box(s: &Set) {
    const R: i64 = 4;
    let bounded: Set = format!("{{ [i, j] : {} <= i <= {R} and {} <= j <= {R} }}", -R, -R)
        .parse()
        .unwrap();
    let s = s.intersect(&bounded).unwrap();
    let mut points = Vec::new();
    for i in -R..=R {
        for j in -R..=R {
            let pt = [Int::from(i), Int::from(j)];
            if s.basic_maps()
                .iter()
                .any(|b| b.contains_point(&pt).unwrap())
            {
                points.push(pt);
            }
        }
    }
    for (max, want) in [(false, points.first()), (true, points.last())] {
        let opt = if max { s.lexmax() } else { s.lexmin() }.unwrap();
        let got: Vec<_> = (-R..=R)
            .flat_map(|i| (-R..=R).map(move |j| [Int::from(i), Int::from(j)]))
            .filter(|pt| {
                opt.basic_maps()
                    .iter()
                    .any(|b| b.contains_point(pt).unwrap())
            })
            .collect();
        assert_eq!(
            got,
            want.into_iter().cloned().collect::<Vec<_>>(),
            "{s}, max: {max}"
        );
    }
}

/// Optima of sets whose existentials have no optimum of their own (only a
/// combination is fixed): the parametric search optimises the locals too and
/// used to fail with "unbounded optimum: existential"; the dimensions'
/// optimum exists.
#[test]
fn optima_over_strides_of_two_existentials() {
    for text in [
        "{ [i, j] : exists (e, f : i + j = 2e + 4f + 1) }",
        "{ [i, j] : exists (e0, e1 : i = 2e0 + 3e1) }",
        "{ [i, j] : exists (e0, e1 : i = 4e0 + 6e1 and e0 <= j) }",
    ] {
        assert_optima_on_box(&text.parse().unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn optima_of_one_sided_existentials(text in one_sided_set()) {
        assert_optima_on_box(&text.parse().unwrap());
    }
}
