//! `card`, `sum` and evaluation at a point in the calculator: parametric
//! counts in iscc's notation, counts of maps per domain point, and values
//! checked against enumeration (the engine's `reference` oracles).

use presburger::count::reference::card_by_enumeration;
use presburger::{Int, Set};

mod common;
use common::run;

#[test]
fn issue_examples() {
    let start = std::time::Instant::now();
    assert_eq!(
        run("card { [i, j, k] : 0 <= i, j, k and i + j + k <= 100000 };"),
        ["{ 166676666850001 }"]
    );
    assert!(start.elapsed().as_secs_f64() < 1.0);
    assert_eq!(
        run("card [n] -> { [i] : 0 <= i < n };"),
        ["[n] -> { n : n >= 1 }"]
    );
    assert_eq!(
        run("card [n] -> { [i, j] : 0 <= i < n and 0 <= j <= i };"),
        ["[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }"]
    );
    assert_eq!(
        run("card [n] -> { [i] -> [j] : i <= j < n };"),
        ["[n] -> { [i] -> (n - i) : i < n }"]
    );
    assert_eq!(run("card { [i] : 1 = 0 };"), ["{ 0 }"]);
}

#[test]
fn sum_and_evaluation() {
    let lines = run(
        "C := card [n] -> { [i] -> [j] : 0 <= i < n and 0 <= j <= i };\n\
         T := sum C;\nT;\nT([n] -> { : n = 10 });\ntypeof T;",
    );
    assert_eq!(
        lines,
        [
            "[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }",
            "55",
            "piecewise quasipolynomial"
        ]
    );
    assert_eq!(
        run("C := card [n] -> { [i] -> [j] : 0 <= j <= i < n };\nC([n] -> { [4] : n = 9 });"),
        ["5"]
    );
    // the error names the user's dimension (issue 21)
    let e = run("card [n] -> { [i] : i >= n };");
    assert!(
        e[0].contains("card: invalid operation: the set is unbounded: i has no upper bound"),
        "{e:?}"
    );
    let e = run("card [n] -> { [i, j] : 0 <= i <= n and j <= i };");
    assert!(e[0].contains("j has no lower bound"), "{e:?}");
    let e = run("card { A[x] -> B[y] : y >= x };");
    assert!(e[0].contains("y has no upper bound"), "{e:?}");
    let e = run("sum [n] -> { [k] -> k : k <= n };");
    assert!(e[0].contains("k has no lower bound"), "{e:?}");
}

#[test]
fn parametric_counts_match_enumeration() {
    for text in [
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (i + j) mod 3 = 0 }",
        "[n, m] -> { [i] : exists e : 0 <= i <= n + m and i = 2e + 1 and i <= 3m }",
        "[n] -> { [i, j] : 0 <= i <= n and i <= 2j <= n; [i, j] : n <= i <= 2n and j = 0 }",
    ] {
        let set: Set = text.parse().unwrap();
        let np = set.space().n_param();
        for a in -2..7i64 {
            for b in -2..(if np == 2 { 7 } else { -1 }) {
                let p: Vec<i64> = if np == 2 { vec![a, b] } else { vec![a] };
                let want =
                    card_by_enumeration(&set, &p.iter().map(|&x| Int::from(x)).collect::<Vec<_>>())
                        .unwrap();
                let cond: Vec<String> = set
                    .space()
                    .params
                    .iter()
                    .zip(&p)
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect();
                let got = run(&format!(
                    "C := card {text};\nC([{}] -> {{ : {} }});",
                    set.space().params.join(", "),
                    cond.join(" and ")
                ));
                assert_eq!(got, [want.to_string()], "{text} at {p:?}");
            }
        }
    }
}

#[test]
fn quasi_polynomial_literals_sum_and_bounds() {
    // literals print as isl does (islpy's UnionPwQPolynomial)
    assert_eq!(
        run("F := [n] -> { [i] -> (i^2 + n) : 0 <= i < n };\nF;\nF([n] -> { [2] : n = 5 });\nsum F;"),
        [
            "[n] -> { [i] -> (n + i^2) : 0 <= i < n }",
            "9",
            "[n] -> { (1/6 * n + 1/2 * n^2 + 1/3 * n^3) : n >= 1 }", // sum of i^2 + n, i < n
        ]
    );
    assert_eq!(run("[n] -> { (1/2 * n) };"), ["[n] -> { 1/2 * n }"]);
    assert_eq!(
        run("[n] -> { [i] -> floor((i + n)/2) : 0 <= i < n };"),
        ["[n] -> { [i] -> floor((n + i)/2) : 0 <= i < n }"]
    );
    // ub/lb: isl's bound gives these values (max(50) exact, min(-25) not
    // tight: the exact minimum over the integers is -6)
    assert_eq!(
        run("ub { [i] -> (i^2 - 5*i) : 0 <= i <= 10 };\nlb { [i] -> (i^2 - 5*i) : 0 <= i <= 10 };"),
        ["[{ max(50) }, True]", "[{ min(-6) }, True]"]
    );
    assert_eq!(
        run("ub [n, m] -> { [i, j] -> (i + 2j - m) : 0 <= i < n and 0 <= j < m };"),
        ["[[n, m] -> { max((-3 + n + m)) : m >= 1 and n >= 1 }, True]"]
    );
    assert_eq!(
        run("lb [n] -> { [i] -> floor(i/2) : 0 <= i < n };"),
        ["[[n] -> { min(0) : n >= 1 }, True]"]
    );
    assert_eq!(
        run("typeof (ub { [i] -> i : 0 <= i <= 7 })[0];"),
        ["piecewise quasipolynomial fold"]
    );
    let e = run("ub [n] -> { [i] -> (i^2 + n) : 0 <= i < n };");
    assert!(
        e[0].contains("not supported: ub of a quasi-polynomial of degree 2"),
        "{e:?}"
    );
    let e = run("ub [n] -> { [i] -> i : i >= 0 };");
    assert!(e[0].contains("no upper bound"), "{e:?}");
    let e = run("{ [i] -> floor(i^2) };");
    assert!(
        e[0].contains("column 10") && e[0].contains("quasi-polynomial literal"),
        "{e:?}"
    );
}
