//! Quasi-polynomials read in isl's notation (issue 21: literals in the
//! calculator): random expressions with powers, rational coefficients and
//! `floor`s, evaluated by the parsed value against a direct evaluation of
//! the expression; printing and reading back keeps every value; `sum` over
//! the domain against enumeration. Printed forms checked against isl's
//! (islpy's `UnionPwQPolynomial` prints the same text for these).

use presburger::{sum, Int, PwQPolynomial, Rat};
use proptest::prelude::*;

/// An expression over `n` (parameter) and `i` (dimension).
#[derive(Clone, Debug)]
enum E {
    N,
    I,
    Const(i64, i64),
    Add(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    Pow(Box<E>, u32),
    /// `floor((a*n + b*i + c)/d)`
    Floor(i64, i64, i64, i64),
}

impl E {
    fn text(&self) -> String {
        match self {
            E::N => "n".into(),
            E::I => "i".into(),
            E::Const(a, 1) => format!("{a}"),
            E::Const(a, b) => format!("({a}/{b})"),
            E::Add(x, y) => format!("({} + {})", x.text(), y.text()),
            E::Mul(x, y) => format!("{} * {}", x.text(), y.text()),
            E::Pow(x, k) => format!("({})^{k}", x.text()),
            E::Floor(a, b, c, d) => format!("floor(({a}n + {b}*i + {c})/{d})"),
        }
    }

    fn eval(&self, n: i64, i: i64) -> Rat {
        match self {
            E::N => Rat::from(n),
            E::I => Rat::from(i),
            E::Const(a, b) => Rat::new(Int::from(*a), Int::from(*b)).unwrap(),
            E::Add(x, y) => x.eval(n, i).add(&y.eval(n, i)),
            E::Mul(x, y) => x.eval(n, i).mul(&y.eval(n, i)),
            E::Pow(x, k) => {
                let v = x.eval(n, i);
                (0..*k).fold(Rat::one(), |acc, _| acc.mul(&v))
            }
            E::Floor(a, b, c, d) => Rat::from((a * n + b * i + c).div_euclid(*d)),
        }
    }
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        Just(E::N),
        Just(E::I),
        (-3i64..=3, 1i64..=3).prop_map(|(a, b)| E::Const(a, b)),
        (-2i64..=2, -2i64..=2, -3i64..=3, 1i64..=4).prop_map(|(a, b, c, d)| E::Floor(a, b, c, d)),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| E::Add(Box::new(x), Box::new(y))),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| E::Mul(Box::new(x), Box::new(y))),
            (inner, 0u32..=2).prop_map(|(x, k)| E::Pow(Box::new(x), k)),
        ]
    })
}

fn parse(t: &str) -> PwQPolynomial {
    t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn printed_forms_are_isls() {
    // islpy: isl.UnionPwQPolynomial(text) prints the right-hand sides
    let cases = [
        (
            "[n] -> { [i] -> (i^2 + n) : 0 <= i < n }",
            "[n] -> { [i] -> (n + i^2) : 0 <= i < n }",
        ),
        ("[n] -> { (1/2 * n) }", "[n] -> { 1/2 * n }"),
        (
            "[n] -> { [i] -> floor((i + n)/2) : 0 <= i < n }",
            "[n] -> { [i] -> floor((n + i)/2) : 0 <= i < n }",
        ),
        ("{ [i] -> floor(i/2)^2 }", "{ [i] -> floor((i)/2)^2 }"),
        ("[n] -> { [i] -> 3 }", "[n] -> { [i] -> 3 }"),
    ];
    for (text, want) in cases {
        assert_eq!(parse(text).to_string(), want);
    }
    // overlapping pieces add up, as in isl
    let f = parse("{ [i] -> 1 : 0 <= i <= 5; [i] -> 2 : 3 <= i <= 8 }");
    let at = |i: i64| f.eval(&[Int::from(i)]).unwrap();
    assert_eq!(
        (at(1), at(4), at(7), at(9)),
        (1.into(), 3.into(), 2.into(), 0.into())
    );
}

#[test]
fn bad_literals_are_errors_with_a_position() {
    for (text, col) in [
        ("{ [i] -> k }", 10),
        ("{ [i] -> floor(i^2) }", 10),
        ("{ [i] -> (i^ }", 14),
        ("{ [i] -> i : i >= }", 3),
        ("{ [i] -> i/0 }", 13),
    ] {
        match text.parse::<PwQPolynomial>() {
            Err(presburger::Error::Parse { col: c, .. }) => assert_eq!(c, col, "{text}"),
            r => panic!("{text}: {r:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn literals_evaluate_print_and_sum_like_the_expression(e in expr()) {
        let text = format!("[n] -> {{ [i] -> {} : 0 <= i <= n }}", e.text());
        let f = parse(&text);
        let back = parse(&f.to_string());
        let total = sum(&f).unwrap();
        for n in -1i64..=6 {
            let mut want_sum = Rat::zero();
            for i in -1i64..=7 {
                let inside = 0 <= i && i <= n;
                let want = if inside { e.eval(n, i) } else { Rat::zero() };
                if inside {
                    want_sum = want_sum.add(&want);
                }
                let p = [Int::from(n), Int::from(i)];
                prop_assert_eq!(f.eval(&p).unwrap(), want.clone(), "{} at n={} i={}", text, n, i);
                prop_assert_eq!(back.eval(&p).unwrap(), want, "{} printed {}", text, f);
            }
            prop_assert_eq!(total.eval(&[Int::from(n)]).unwrap(), want_sum, "sum {} at n={}", text, n);
        }
    }
}
