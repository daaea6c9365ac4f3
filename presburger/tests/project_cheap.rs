//! Projecting out one set dimension that no row needs eliminated (fixed by
//! an equality with a unit coefficient, or bounded on one side only, or
//! free) drops its column without the general path (an existential, then
//! simplification). The answer must equal the general path's: the same
//! set written with that dimension existentially quantified (parsed, so
//! the existential goes through simplification), compared by `is_equal`,
//! and must agree with enumeration on a box when the input is bounded.

use presburger::Map;
use proptest::prelude::*;
use testkit::strategies::extra_constraint;

/// Constraints of a union over `[n] -> [x0, x1, x2]`, as conditions (one
/// string per disjunct). Disjuncts often fix `x2` by a unit equality or
/// bound it on one side, the shapes the cheap path takes; the random rows
/// give the other cases (which take the general path) too.
fn disjuncts() -> impl Strategy<Value = Vec<String>> {
    let one = (
        0u8..6,
        -2i64..=2,
        prop::collection::vec(
            (
                prop::collection::vec(-2i64..=2, 4),
                -4i64..=4,
                0u8..6,
                2i64..=3,
            ),
            0..4,
        ),
    )
        .prop_map(|(shape, c, cons)| {
            let vars = ["x0", "x1", "x2", "n"];
            let mut parts: Vec<String> = vec![
                "-3 <= x0 <= 4".into(),
                "-3 <= x1 <= 4".into(),
                "-2 <= n <= 3".into(),
            ];
            match shape {
                0 => parts.push(format!("x2 = x0 + {c}")),
                1 => parts.push(format!("-x2 = x1 - n + {c}")),
                2 => parts.push(format!("x2 >= x0 + {c} and x2 >= n")),
                3 => parts.push(format!("x2 <= x1 + {c}")),
                4 => parts.push(format!("x2 = 2*x0 + {c}")),
                _ => {}
            }
            for (a, c, kind, m) in cons {
                // rows without x2 keep the shape; some mention it
                parts.extend(extra_constraint(&a, &vars, c, kind, m));
            }
            parts.join(" and ")
        });
    prop::collection::vec(one, 1..=3)
}

fn union_text(ds: &[String], exist: bool) -> String {
    union_text_in(ds, exist, "[x0, x1, x2]")
}

fn union_text_in(ds: &[String], exist: bool, tuple: &str) -> String {
    let body: Vec<String> = ds
        .iter()
        .map(|d| {
            if exist {
                format!("[x0, x1] : exists (x2 : {d})")
            } else {
                format!("{tuple} : {d}")
            }
        })
        .collect();
    format!("[n] -> {{ {} }}", body.join("; "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn project_last_matches_existential(ds in disjuncts()) {
        let m: Map = union_text(&ds, false).parse().unwrap();
        let want: Map = union_text(&ds, true).parse().unwrap();
        let got = m.project_out(2, 1).unwrap();
        prop_assert!(got.is_equal(&want).unwrap(), "{m}\n got {got}\n want {want}");
    }

    #[test]
    fn project_first_matches_existential(ds in disjuncts()) {
        // the same with x2 moved first: the column is not the last one
        let moved: Map = union_text_in(&ds, false, "[x2, x0, x1]").parse().unwrap();
        let want: Map = union_text(&ds, true).parse().unwrap();
        let got = moved.project_out(0, 1).unwrap();
        prop_assert!(got.is_equal(&want).unwrap(), "{moved}\n got {got}\n want {want}");
    }
}

#[test]
fn project_cheap_examples() {
    let cases = [
        // fixed by a unit equality
        (
            "{ [a, b, c] : c = a + 1 and 0 <= a <= 5 and b >= a }",
            "{ [a, b] : 0 <= a <= 5 and b >= a }",
        ),
        // bounded below only
        (
            "{ [a, b, c] : 3c >= a + b and 0 <= a <= 5 and 0 <= b <= 2 }",
            "{ [a, b] : 0 <= a <= 5 and 0 <= b <= 2 }",
        ),
        // in no row
        (
            "[n] -> { [a, b, c] : 0 <= a <= n and b = 2a }",
            "[n] -> { [a, b] : 0 <= a <= n and b = 2a }",
        ),
        // general path: a non-unit equality (a parity condition is left)
        (
            "{ [a, b, c] : a = 2c and 0 <= a <= 6 and b = 0 }",
            "{ [a, b] : a mod 2 = 0 and 0 <= a <= 6 and b = 0 }",
        ),
        // general path: bounded on both sides (a = b + 1 without integer c between)
        (
            "{ [a, b, c] : b < 2c < a and 0 <= a <= 6 and 0 <= b <= 6 }",
            "{ [a, b] : exists c : b < 2c < a and 0 <= a <= 6 and 0 <= b <= 6 }",
        ),
    ];
    for (input, want) in cases {
        let m: Map = input.parse().unwrap();
        let want: Map = want.parse().unwrap();
        let got = m.project_out(2, 1).unwrap();
        assert!(got.is_equal(&want).unwrap(), "{input}: got {got}");
    }
}
