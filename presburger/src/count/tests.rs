//! Counting against enumeration: the issue's examples, and random small
//! parametric sets (1-3 dimensions, 1-2 parameters, divisions, unions,
//! existentials) at many parameter values.

use super::reference::{card_by_enumeration, card_map_by_enumeration, sum_by_enumeration};
use super::*;
use proptest::prelude::*;

fn count_text(s: &str) -> String {
    let set: Set = s.parse().unwrap();
    card(&set).unwrap().to_string()
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// `card(set)` equals enumeration at every parameter value of `grid`.
/// Work limit of one count in these tests: some random parametric sets
/// (a congruence beside a parametric cut, e.g. `x0` even and
/// `3x1 >= 2 + 2x0 + p1` in a box of side `p0`) exhaust any budget today,
/// and without one they would run for many minutes.
const COUNT_BUDGET: u64 = 50_000_000;

fn check_set(set: &Set, grid: &[Vec<i64>]) {
    let c = match crate::budget::with_budget(COUNT_BUDGET, || card(set)) {
        // periods above 65536 are refused (see eliminate)
        Err(Error::Invalid(e)) if e == super::eliminate::PERIOD_TOO_LARGE => return,
        // a clear error, not a wrong answer; see COUNT_BUDGET
        Err(Error::BudgetExceeded) => return,
        r => r.unwrap(),
    };
    for p in grid {
        let want = card_by_enumeration(set, &ints(p)).unwrap();
        let got = c.eval(&ints(p)).unwrap();
        assert_eq!(got, Rat::from(want), "{set} at {p:?}: card = {c}");
    }
}

fn grid(n_param: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n_param {
        out = out
            .into_iter()
            .flat_map(|v| {
                (lo..=hi).map(move |x| {
                    let mut v = v.clone();
                    v.push(x);
                    v
                })
            })
            .collect();
    }
    out
}

#[test]
fn issue_examples() {
    assert_eq!(
        count_text("[n] -> { [i] : 0 <= i < n }"),
        "[n] -> { n : n >= 1 }"
    );
    assert_eq!(
        count_text("[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }"),
        "[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }"
    );
    let start = std::time::Instant::now();
    assert_eq!(
        count_text("{ [i, j, k] : 0 <= i, j, k and i + j + k <= 100000 }"),
        "{ 166676666850001 }" // C(100003, 3)
    );
    assert!(start.elapsed().as_secs_f64() < 1.0, "{:?}", start.elapsed());
    assert_eq!(count_text("{ [i] : 1 = 0 }"), "{ 0 }");
    assert_eq!(
        count_text("[n] -> { [i] : 0 <= 2i <= n }"),
        "[n] -> { (1 + floor((n)/2)) : n >= 0 }"
    );
}

#[test]
fn unbounded_is_an_error() {
    let s: Set = "[n] -> { [i] : i >= n }".parse().unwrap();
    let e = card(&s).unwrap_err().to_string();
    assert!(e.contains("unbounded"), "{e}");
}

#[test]
fn fixed_examples_match_enumeration() {
    for s in [
        "[n] -> { [i] : 0 <= i < n or 2n <= i < 3n }",
        "[n] -> { [i] : 0 <= i < n or n - 3 <= i < 2n }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and i + j mod 2 = 0 }",
        "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 2i + 3j <= n + m }",
        "[n] -> { [i, j] : exists e : 0 <= i <= n and 0 <= j <= i and i + j = 3e }",
        "[n] -> { [i] : exists e : 0 <= e <= n and 2e <= i <= 2e + 1 and i <= n }",
        "[n] -> { [i, j, k] : 0 <= k <= j <= i <= n }",
        "[n] -> { [i, j] : 0 <= 3i <= n and 0 <= 2j <= i + n }",
        "[n, m] -> { [i] : 0 <= i and 3i <= n and 2i <= m }",
        "[n] -> { [i] : n <= 5i <= 3n + 4 }",
        "[n] -> { [i, j] : 0 <= i <= 4 and 0 <= j <= 4 and (i - n) mod 3 = 0 and (j + i) mod 2 = 1 }",
    ] {
        let set: Set = s.parse().unwrap();
        check_set(&set, &grid(set.space().n_param(), -3, 9));
    }
}

#[test]
fn card_of_maps_per_domain_point() {
    for s in [
        "[n] -> { [i] -> [j] : i <= j < n }",
        "[n] -> { [i] -> [j, k] : 0 <= j <= i and 0 <= k < n and j + k <= i + 1 }",
        "{ [i] -> [j] : 0 <= j <= 10 and j mod 3 = i mod 3 }",
        "[n] -> { A[i] -> B[j] : 0 <= i < n and 2j >= i and j <= n; A[i] -> B[j] : j = i + 20 }",
    ] {
        let m: Map = s.parse().unwrap();
        let c = card_map(&m).unwrap();
        let np = m.space().n_param();
        for p in grid(np + 1, -2, 8) {
            let want = card_map_by_enumeration(&m, &ints(&p)).unwrap();
            assert_eq!(
                c.eval(&ints(&p)).unwrap(),
                Rat::from(want),
                "{m} at {p:?}: {c}"
            );
        }
    }
    let m: Map = "[n] -> { [i] -> [j] : i <= j < n }".parse().unwrap();
    assert_eq!(
        card_map(&m).unwrap().to_string(),
        "[n] -> { [i] -> (n - i) : i < n }"
    );
}

#[test]
fn sum_of_counts() {
    // summing a relation's per-point count over the domain counts the relation
    let m: Map = "[n] -> { [i] -> [j] : 0 <= i < n and 0 <= j <= i and (i + j) mod 3 = 0 }"
        .parse()
        .unwrap();
    let per_point = card_map(&m).unwrap();
    let total = sum(&per_point).unwrap();
    for n in -2..12 {
        let p = ints(&[n]);
        let want = sum_by_enumeration(&per_point, &p, 14).unwrap();
        assert_eq!(total.eval(&p).unwrap(), want, "at n = {n}: {total}");
    }
    // the sum of i^2 over 0 <= i < n
    let s: Set = "[n] -> { [i] : 0 <= i < n }".parse().unwrap();
    let sp = s.space().clone();
    let i = QuasiPolynomial::affine(sp, &ints(&[0, 0, 1])).unwrap();
    let sq = PwQPolynomial::from_piece(s, i.mul(&i).unwrap()).unwrap();
    let total = sum(&sq).unwrap();
    assert_eq!(
        total.to_string(),
        "[n] -> { (1/6 * n - 1/2 * n^2 + 1/3 * n^3) : n >= 1 }"
    );
}

/// A random constraint text over dims `x0..` and params `p0..`.
fn constraint() -> impl Strategy<Value = (Vec<i64>, Vec<i64>, i64, u8)> {
    (
        prop::collection::vec(-3i64..=3, 3),
        prop::collection::vec(-2i64..=2, 2),
        -4i64..=6,
        0u8..6,
    )
}

fn lin(coefs: &[i64], names: &[String]) -> String {
    let mut out = String::new();
    for (c, n) in coefs.iter().zip(names) {
        if *c != 0 {
            out.push_str(&format!(" + {c}*{n}"));
        }
    }
    out
}

/// A random parametric set: a bounding box that depends on `p0`, plus
/// random rows; kind selects an inequality, a congruence, an existential
/// stride, or an equality.
fn disjunct(nd: usize, np: usize, rows: &[(Vec<i64>, Vec<i64>, i64, u8)]) -> String {
    let xs: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
    let ps: Vec<String> = (0..np).map(|k| format!("p{k}")).collect();
    let mut cs: Vec<String> = xs.iter().map(|x| format!("-2 <= {x} <= p0 + 1")).collect();
    let mut ex = Vec::new();
    for (k, (a, b, c, kind)) in rows.iter().enumerate() {
        let e = format!("{c}{}{}", lin(&a[..nd], &xs), lin(&b[..np], &ps));
        cs.push(match kind {
            0..=2 => format!("{e} >= 0"),
            3 => format!("({e}) mod {} = {}", 2 + (c.rem_euclid(3)), c.rem_euclid(2)),
            4 => {
                ex.push(format!("e{k}"));
                format!("0 <= {e} - 3*e{k} <= 1")
            }
            _ => format!("{e} = 0"),
        });
    }
    let body = cs.join(" and ");
    if ex.is_empty() {
        body
    } else {
        format!("exists {} : {body}", ex.join(", "))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_sets_match_enumeration(
        nd in 1usize..=2,
        np in 1usize..=2,
        rows1 in prop::collection::vec(constraint(), 1..=2),
        rows2 in prop::collection::vec(constraint(), 0..=1),
        union in any::<bool>(),
    ) {
        let xs: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
        let ps: Vec<String> = (0..np).map(|k| format!("p{k}")).collect();
        let mut text = format!("[{}] -> {{ [{}] : {}", ps.join(", "), xs.join(", "), disjunct(nd, np, &rows1));
        if union {
            text.push_str(&format!("; [{}] : {}", xs.join(", "), disjunct(nd, np, &rows2)));
        }
        text.push_str(" }");
        let set: Set = text.parse().unwrap();
        let g = if np == 1 { grid(1, -3, 7) } else { grid(2, -2, 4) };
        check_set(&set, &g);
    }
}

/// Unions whose later disjunct contains or cuts an earlier one with a
/// congruence or an equality: counted at once (both exhausted the budget
/// when the polyhedron was split by the stride's complement).
#[test]
fn unions_with_strides_are_made_disjoint_cheaply() {
    for text in [
        "[p0] -> { [x0, x1] : -2 <= x0 <= p0 + 1 and -2 <= x1 <= p0 + 1 and (1 + 3*x0 + 2*x1 + 2*p0) mod 3 = 1 and (-3 - x0 + 3*x1 + 2*p0) mod 2 = 1; [x0, x1] : -2 <= x0 <= p0 + 1 and -2 <= x1 <= p0 + 1 }",
        "[p0] -> { [x0, x1] : exists e1 : -2 <= x0 <= p0 + 1 and -2 <= x1 <= p0 + 1 and -2 - x0 - 2*x1 + p0 = 0 and 0 <= -x0 + 3*x1 + 2*p0 - 3*e1 <= 1; [x0, x1] : -2 <= x0 <= p0 + 1 and -2 <= x1 <= p0 + 1 and -1 - 3*x0 + x1 + 2*p0 >= 0 }",
    ] {
        let set: Set = text.parse().unwrap();
        let c = crate::budget::with_budget(2_000_000, || card(&set)).unwrap();
        for p in grid(1, -4, 9) {
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            assert_eq!(c.eval(&ints(&p)).unwrap(), Rat::from(want), "{set} at {p:?}");
        }
    }
}

/// Moduli, strides and equality coefficients above the residue-splitting
/// limit: equalities compressed by a unimodular change of variables,
/// divisions of a large period lifted to variables; the answers carry the
/// large periods as floor terms.
#[test]
fn large_moduli_and_coefficients_match_enumeration() {
    for s in [
        "[n] -> { [i] : 0 <= i < n and i mod 100 = 0 }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j and 97j = 3i }",
        "[n] -> { [i, j] : 0 <= i, j < n and (i + 3j) mod 100 = 7 }",
        "[n] -> { [i, j] : 0 <= i, j < n and (i + 3j) mod 100 = 0 }",
        "[n] -> { [i] : 0 <= i < n and i mod 1024 = 3 }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j and 100j <= i }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j and 100j <= 3i }",
        "[n] -> { [i, j] : 0 <= i <= n and 0 <= j <= n and 71i + 73j = 3n }",
    ] {
        let set: Set = s.parse().unwrap();
        let c = crate::budget::with_budget(COUNT_BUDGET, || card(&set)).unwrap();
        for n in (-3..40).chain([
            97, 98, 99, 100, 101, 199, 200, 201, 299, 300, 301, 350, 1023, 1024, 1027, 1100,
        ]) {
            // enumeration of a square of side 300 takes a second
            let dims = set.space().n_vars() - set.space().n_param();
            if dims > 1 && n > 210 {
                continue;
            }
            let p = ints(&[n]);
            let want = card_by_enumeration(&set, &p).unwrap();
            assert_eq!(c.eval(&p).unwrap(), Rat::from(want), "{set} at {n}: {c}");
        }
    }
}

/// A random set over `x0..` (a box `0 <= x <= p0 + 1`) with one constraint
/// of a large period `m` (65..): a congruence, an equality with two large
/// coefficients, an existential stride, or a bound with a large
/// coefficient.
fn large_period_set(nd: usize, kind: u8, m: i64, a: &[i64], c: i64) -> String {
    let xs: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
    let e = format!("{c}{} + {}*p0", lin(&a[..nd], &xs), a[2]);
    let mut cs: Vec<String> = xs.iter().map(|x| format!("0 <= {x} <= p0 + 1")).collect();
    let mut ex = "";
    cs.push(match kind {
        0 => format!("({e}) mod {m} = {}", c.rem_euclid(m)),
        1 => format!("{m}*x{} = {e}", nd - 1),
        2 => {
            ex = "exists e : ";
            format!("{m}*e <= {e} <= {m}*e + {}", c.rem_euclid(3))
        }
        _ => format!("{m}*x{} <= {e}", nd - 1),
    });
    format!(
        "[p0] -> {{ [{}] : {ex}{} }}",
        xs.join(", "),
        cs.join(" and ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Periods above the residue-splitting limit: counted exactly, checked
    /// at parameter values on both sides of multiples of the period.
    #[test]
    fn large_periods_match_enumeration(
        nd in 1usize..=2,
        kind in 0u8..4,
        m in 65i64..=130,
        a in prop::collection::vec(-3i64..=3, 3),
        c in -5i64..=5,
    ) {
        let text = large_period_set(nd, kind, m, &a, c);
        let set: Set = text.parse().unwrap();
        // a congruence of modulus ~100 beside a unit coefficient and a
        // parametric box takes seconds to assemble (see the crate doc); a
        // budget error is a clear error, not a wrong answer
        let c = match crate::budget::with_budget(4 * COUNT_BUDGET, || card(&set)) {
            Err(Error::BudgetExceeded) => return Ok(()),
            r => r.unwrap(),
        };
        for p in [-2, 0, 1, 2, 5, m - 2, m - 1, m, m + 1, 2 * m + 3, 3 * m - 1] {
            let want = card_by_enumeration(&set, &ints(&[p])).unwrap();
            prop_assert_eq!(c.eval(&ints(&[p])).unwrap(), Rat::from(want), "{} at {}: {}", set, p, c);
        }
    }
}

/// A count whose pieces are expensive to assemble (a congruence of modulus
/// 98 beside unit and small coefficients: the domains carry nested
/// divisions) ends promptly with the budget error under a small budget,
/// and the quasi-polynomial work (products, substitutions) is charged: a
/// tiny budget stops it at once.
#[test]
fn expensive_counts_respect_the_budget() {
    let text = "[p0] -> { [x0, x1] : 0 <= x0 <= p0 + 1 and 0 <= x1 <= p0 + 1 and (-3 - x0 - 3x1 - p0) mod 98 = 95 }";
    let set: Set = text.parse().unwrap();
    for ops in [1_000, 100_000, 2_000_000] {
        match crate::budget::with_budget(ops, || card(&set)) {
            Err(Error::BudgetExceeded) => {}
            r => {
                let c = r.unwrap();
                for p in [-2, 0, 5, 97, 98, 200] {
                    let want = card_by_enumeration(&set, &ints(&[p])).unwrap();
                    assert_eq!(
                        c.eval(&ints(&[p])).unwrap(),
                        Rat::from(want),
                        "{set} at {p}: {c}"
                    );
                }
            }
        }
    }
    let r = crate::budget::with_budget(1_000, || card(&set));
    assert_eq!(r.unwrap_err(), Error::BudgetExceeded);
}

/// A congruence of modulus near 100 beside a unit or small coefficient
/// (issue 21): the equality is compressed with an LLL-reduced lattice
/// basis, so these count within a small budget (they exhausted the batch
/// budget of 250 million, or took seconds, before).
#[test]
fn moduli_near_100_beside_unit_coefficients() {
    for s in [
        "[n] -> { [i, j] : 0 <= i, j < n and (i + 98j) mod 100 = 0 }",
        "[n] -> { [i, j] : 0 <= i < n and 0 <= j < 2n and (2i + 98j) mod 97 = 0 }",
        "[n] -> { [i] : 0 <= i < n and (3i) mod 98 = 1 }",
        "[n] -> { [i, j] : 0 <= i, j < n and (i + 3j) mod 100 = 0 }",
        "[n] -> { [i, j] : 0 <= i, j < n and (i + 98j + n) mod 100 = 3 }",
        "[n] -> { [i, j, k] : 0 <= i, j, k < n and (i + 3j + 98k) mod 99 = 3 }",
        "[p0] -> { [x0, x1] : 0 <= x0 <= p0 + 1 and 0 <= x1 <= p0 + 1 and (-3 - x0 - 3x1 - p0) mod 98 = 95 }",
    ] {
        let set: Set = s.parse().unwrap();
        let c = crate::budget::with_budget(20_000_000, || card(&set)).unwrap();
        let dims = set.space().n_vars() - set.space().n_param();
        for n in (-2..12).chain([40, 96, 97, 98, 99, 100, 101, 150, 199, 200, 201, 257]) {
            if dims > 2 && n > 40 || dims > 1 && n > 201 {
                continue;
            }
            let p = ints(&[n]);
            let want = card_by_enumeration(&set, &p).unwrap();
            assert_eq!(c.eval(&p).unwrap(), Rat::from(want), "{set} at {n}: {c}");
        }
    }
}

/// A box `0 <= x < p0` (or `2p0`) cut by `(a.x + b.p0 + c) mod m = r`.
fn congruence_set(nd: usize, m: i64, a: &[i64], b: i64, c: i64, r: i64, wide: bool) -> String {
    let xs: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
    let mut cs: Vec<String> = xs
        .iter()
        .enumerate()
        .map(|(k, x)| {
            let up = if wide && k == 0 { "2p0" } else { "p0" };
            format!("0 <= {x} < {up}")
        })
        .collect();
    cs.push(format!(
        "({c}{} + {b}*p0) mod {m} = {}",
        lin(&a[..nd], &xs),
        r.rem_euclid(m)
    ));
    format!("[p0] -> {{ [{}] : {} }}", xs.join(", "), cs.join(" and "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Random moduli 2..128 with coefficients up to 100, half of them small
    /// or units (the families of `benches/count_mod_families.py` with one
    /// parameter): exact at parameter values around multiples of the modulus.
    #[test]
    fn random_congruences_match_enumeration(
        nd in 1usize..=2,
        m in 2i64..=128,
        big in prop::collection::vec(-100i64..=100, 2),
        small in prop::collection::vec(-3i64..=3, 2),
        pick in prop::collection::vec(any::<bool>(), 2),
        b in -3i64..=3,
        c in -5i64..=5,
        r in 0i64..128,
        wide in any::<bool>(),
    ) {
        let a: Vec<i64> = (0..2).map(|k| if pick[k] { big[k] } else { small[k] }).collect();
        let text = congruence_set(nd, m, &a, b, c, r, wide);
        let set: Set = text.parse().unwrap();
        let f = match crate::budget::with_budget(COUNT_BUDGET, || card(&set)) {
            Err(Error::BudgetExceeded) => return Ok(()),
            r => r.unwrap(),
        };
        for p in [-1, 0, 1, 2, 5, 13, m - 1, m, m + 1, 2 * m + 3] {
            if nd > 1 && p > 80 {
                continue;
            }
            let want = card_by_enumeration(&set, &ints(&[p])).unwrap();
            prop_assert_eq!(f.eval(&ints(&[p])).unwrap(), Rat::from(want), "{} at {}: {}", set, p, f);
        }
    }
}

/// Moduli and equality coefficients above 65536 (refused before): the
/// compressed equality's reduced basis keeps the rows small.
#[test]
fn periods_above_65536_match_enumeration() {
    for (s, big) in [
        ("[n] -> { [i] : 0 <= i < n and i mod 70000 = 3 }", true),
        ("[n] -> { [i] : 0 <= i < n and (3i) mod 1000000 = 1 }", true),
        (
            "[n] -> { [i, j] : 0 <= i, j < n and (i + 70001j) mod 70000 = 0 }",
            false,
        ),
        (
            "[n] -> { [i, j] : 0 <= i, j < n and (i + 3j) mod 70000 = 5 }",
            false,
        ),
        ("[n] -> { [i, j] : 0 <= i, j < n and 70001i = 3j }", false),
    ] {
        let set: Set = s.parse().unwrap();
        let c = crate::budget::with_budget(20_000_000, || card(&set)).unwrap();
        let mut ns: Vec<i64> = (-2..60).chain([99, 100, 101, 150]).collect();
        if big {
            ns.extend([
                69_999, 70_000, 70_003, 70_004, 140_005, 333_334, 333_335, 333_336,
            ]);
        }
        for n in ns {
            let p = ints(&[n]);
            let want = card_by_enumeration(&set, &p).unwrap();
            assert_eq!(c.eval(&p).unwrap(), Rat::from(want), "{set} at {n}: {c}");
        }
    }
}

/// The congruence families `benches/count_mod_families.py` left in error
/// or slow in session 11 (issue 21): a congruence's coefficients are
/// reduced modulo its quotient's (`83 ≡ -1 (mod 7)`), and a unit
/// coefficient on a box side beside a parameter is solved directly (the
/// compression skewed the box); each answers within a small budget.
#[test]
fn parameters_inside_congruences_match_enumeration() {
    for (s, m) in [
        ("[m] -> { [i, j] : 0 <= i < m and 0 <= j < m and (i + 46j - 94m) mod 74 = 1 }", 74),
        ("[n, m] -> { [i, j, k] : 0 <= i < m and 0 <= j < m and 0 <= k < n and (3i + 83j - 66k) mod 7 = 3 }", 7),
        ("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (70i - j) mod 41 = 6 }", 41),
        ("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < n and (1 + 57i + 68j - 39m) mod 122 = 102 }", 122),
        ("[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < n and (-3 + 15i + 2j + k - m) mod 7 = 3 }", 7),
    ] {
        let set: Set = s.parse().unwrap();
        let np = set.space().n_param();
        let nd = set.space().n_vars() - np;
        let c = crate::budget::with_budget(20_000_000, || card(&set)).unwrap();
        let vals = [0, 1, 2, 5, 13, m - 1, m, m + 1, 2 * m + 3];
        for &p in &vals {
            for &q in &vals[..if np > 1 { vals.len() } else { 1 }] {
                let pt: Vec<i64> = [p, q][..np].to_vec();
                if pt.iter().any(|&v| v.pow(nd as u32) > 20_000) {
                    continue;
                }
                let want = card_by_enumeration(&set, &ints(&pt)).unwrap();
                assert_eq!(c.eval(&ints(&pt)).unwrap(), Rat::from(want), "{set} at {pt:?}: {c}");
            }
        }
    }
}

/// `[p0, p1] -> { [xs] : 0 <= x_k < uppers_k and (c + a·xs + b0·p0 + b1·p1)
/// mod m = r mod m }` and its count under a fifth of the count budget (`None`
/// when that runs out: the property tests skip such cases).
fn congruence_in_box(
    xs: &[String],
    uppers: &[&str],
    c: i64,
    a: &[i64],
    b: &[i64],
    m: i64,
    r: i64,
) -> Option<(Set, PwQPolynomial)> {
    let mut cs: Vec<String> = xs
        .iter()
        .zip(uppers)
        .map(|(x, u)| format!("0 <= {x} < {u}"))
        .collect();
    cs.push(format!(
        "({c}{} + {}*p0 + {}*p1) mod {m} = {}",
        lin(a, xs),
        b[0],
        b[1],
        r % m
    ));
    let text = format!(
        "[p0, p1] -> {{ [{}] : {} }}",
        xs.join(", "),
        cs.join(" and ")
    );
    let set: Set = text.parse().unwrap();
    match crate::budget::with_budget(COUNT_BUDGET / 5, || card(&set)) {
        Err(Error::BudgetExceeded) => None,
        r => Some((set, r.unwrap())),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Two or three dimensions in boxes of sides `p0`, `p1`, with both
    /// parameters inside a congruence of modulus 2..40 (coefficients up to
    /// 60, or units): exact against enumeration at small parameter values.
    #[test]
    fn parameters_in_random_congruences_match_enumeration(
        nd in 2usize..=3,
        m in 2i64..=40,
        a in prop::collection::vec(prop_oneof![-60i64..=60, -1i64..=1], 3),
        b in prop::collection::vec(-60i64..=60, 2),
        sides in prop::collection::vec(any::<bool>(), 3),
        c in -5i64..=5,
        r in 0i64..40,
    ) {
        let xs: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
        let uppers: Vec<&str> = sides[..nd].iter().map(|&s| if s { "p0" } else { "p1" }).collect();
        let (set, f) = match congruence_in_box(&xs, &uppers, c, &a[..nd], &b, m, r) {
            Some(counted) => counted,
            None => return Ok(()),
        };
        for p in [[0, 3], [1, 1], [2, 5], [5, 2], [7, 7], [m, m - 1], [m + 1, 3]] {
            if nd > 2 && p.iter().any(|&v| v > 20) {
                continue;
            }
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            prop_assert_eq!(f.eval(&ints(&p)).unwrap(), Rat::from(want), "{} at {:?}: {}", set, p, f);
        }
    }
}

/// Two-dimensional congruences of large modulus whose lattice has no short
/// vector with a unit coordinate (Euclid's floor sums after a modular
/// inverse gives a box side a unit coefficient), and the choice of the
/// shorter method for one whose lattice has such a vector (issue 21).
#[test]
fn euclid_floor_sums_match_enumeration() {
    for (s, m) in [
        ("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (5i - 3j) mod 101 = 6 }", 101),
        ("[n, m] -> { [i, j] : 0 <= i < 2n and 0 <= j < m and (-3 + 96i + 3j + 81n - 23m) mod 61 = 53 }", 61),
        ("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (3 + 85i - 70j) mod 121 = 54 }", 121),
        ("[n] -> { [i, j] : 0 <= i < n and 0 <= j < 2n and (7i + 11j + n) mod 1009 = 5 }", 1009),
    ] {
        let set: Set = s.parse().unwrap();
        let np = set.space().n_param();
        let c = crate::budget::with_budget(20_000_000, || card(&set)).unwrap();
        let vals = [0, 1, 2, 5, 13, 40, m - 1, m, m + 1, 2 * m + 3];
        for &p in &vals {
            for &q in &vals[..if np > 1 { vals.len() } else { 1 }] {
                let pt: Vec<i64> = [p, q][..np].to_vec();
                if pt.iter().any(|&v| v > 260) {
                    continue;
                }
                let want = card_by_enumeration(&set, &ints(&pt)).unwrap();
                assert_eq!(c.eval(&ints(&pt)).unwrap(), Rat::from(want), "{set} at {pt:?}: {c}");
            }
        }
    }
    // compressed (`i = 2a, j = a + 50b`) rather than solved directly: 491
    // characters, not 4219
    let set: Set = "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (i + 98j + n) mod 100 = 3 }"
        .parse()
        .unwrap();
    let c = card(&set).unwrap();
    assert!(c.to_string().len() < 1000, "{c}");
    for n in [0i64, 1, 3, 50, 99, 100, 101, 203] {
        let want = card_by_enumeration(&set, &ints(&[n])).unwrap();
        assert_eq!(
            c.eval(&ints(&[n])).unwrap(),
            Rat::from(want),
            "n = {n}: {c}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Two dimensions in boxes of sides `p0`, `2·p0` or `p1`, cut by a
    /// congruence of modulus 65..160 with large coefficients (and the
    /// parameters inside it or not): exact against enumeration.
    #[test]
    fn large_two_dimensional_congruences_match_enumeration(
        m in 65i64..=160,
        a in prop::collection::vec(-100i64..=100, 2),
        b in prop::collection::vec(prop_oneof![Just(0i64), -100i64..=100], 2),
        sides in prop::collection::vec(0u8..3, 2),
        c in -5i64..=5,
        r in 0i64..160,
    ) {
        let xs = ["x0".to_string(), "x1".to_string()];
        let uppers: Vec<&str> = sides.iter().map(|&s| ["p0", "2p0", "p1"][s as usize]).collect();
        let (set, f) = match congruence_in_box(&xs, &uppers, c, &a, &b, m, r) {
            Some(counted) => counted,
            None => return Ok(()),
        };
        for p in [[0, 3], [1, 1], [5, 2], [13, 40], [m - 1, m], [m, 1], [m + 1, 2 * m + 3], [150, 7]] {
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            prop_assert_eq!(f.eval(&ints(&p)).unwrap(), Rat::from(want), "{} at {:?}: {}", set, p, f);
        }
    }
}

/// Three-dimensional congruences of modulus above 16 without a unit
/// coefficient in parametric boxes, which exhausted the batch budget
/// (issue 21, `benches/count_mod_families.py` seeds 1 and 2): a side is
/// given a unit coefficient by a modular inverse and solved directly, the
/// quotient summed without chambers, the next side by Euclid's floor sums
/// and the last by residue classes.
#[test]
fn three_dimensional_congruences_in_boxes_match_enumeration() {
    for (s, m) in [
        ("[n, m] -> { [i, j, k] : 0 <= i < 2m and 0 <= j < n and 0 <= k < m and (-4 - 43i - 14j + 86k - 88m) mod 23 = 3 }", 23),
        ("[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < n and (5 + 3i - 33j + 59k - 3m) mod 42 = 6 }", 42),
        ("[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < 2m and 0 <= k < 2m and (3 - 2i - 2j + 18k - 2m) mod 67 = 45 }", 67),
    ] {
        let set: Set = s.parse().unwrap();
        let c = crate::budget::with_budget(40_000_000, || card(&set)).unwrap();
        let vals = [0, 1, 2, 5, 13, m - 1, m, m + 1];
        for &p in &vals {
            for &q in &vals {
                if 4 * p * q * q.max(p) > 60_000 {
                    continue;
                }
                let pt = [p, q];
                let want = card_by_enumeration(&set, &ints(&pt)).unwrap();
                assert_eq!(c.eval(&ints(&pt)).unwrap(), Rat::from(want), "{set} at {pt:?}");
            }
        }
    }
}

/// Regression (session 15): a congruence of modulus 117 over three box
/// sides with both parameters inside it, whose count's pieces all lie in a
/// few parameter domains. Their quasi-polynomials (thousands of floor
/// terms each) were added one by one, each addition re-indexing the
/// growing sum: 55 s of CPU, the benchmark's 120-s timeout under load; the
/// sums are now made in one pass per domain (`QuasiPolynomial::sum_all`),
/// about 5 s. Exact against enumeration, within the batch budget.
#[test]
fn many_long_summands_add_up_in_one_pass() {
    let set: Set = "[n, m] -> { [i, j, k] : 0 <= i < m and 0 <= j < m and 0 <= k < n and (-2 + 2i + 11j - 23k + 46n + 49m) mod 117 = 43 }"
        .parse()
        .unwrap();
    let c = crate::budget::with_budget(250_000_000, || card(&set)).unwrap();
    for pt in [
        [0, 0],
        [1, 1],
        [5, 13],
        [13, 5],
        [116, 2],
        [2, 118],
        [30, 40],
    ] {
        let want = card_by_enumeration(&set, &ints(&pt)).unwrap();
        assert_eq!(c.eval(&ints(&pt)).unwrap(), Rat::from(want), "at {pt:?}");
    }
}

/// `QuasiPolynomial::sum_all` agrees with additions one by one, shared
/// divisions (written with different indices in each summand) included.
#[test]
fn sums_in_one_pass_match_sums_one_by_one() {
    use super::qpoly::QuasiPolynomial;
    let set: Set = "[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and (3i + 5j + n) mod 7 = 2 }"
        .parse()
        .unwrap();
    let f = card(&set).unwrap();
    let g = card(
        &"[n, m] -> { [i] : 0 <= 2i < n + m and (i + m) mod 3 = 1 }"
            .parse::<Set>()
            .unwrap(),
    )
    .unwrap();
    let mut qs: Vec<QuasiPolynomial> = f
        .pieces()
        .iter()
        .chain(g.pieces())
        .map(|(_, q)| q.clone())
        .collect();
    qs.push(qs[0].scale(&Rat::from(-2)));
    let space = qs[0].space().clone();
    let all = QuasiPolynomial::sum_all(space, &qs).unwrap();
    let mut acc = qs[0].clone();
    for q in &qs[1..] {
        acc = acc.add(q).unwrap();
    }
    assert!(all.divs.len() <= acc.divs.len(), "{all} / {acc}");
    for n in -3..12 {
        for m in -3..12 {
            let pt = ints(&[n, m]);
            assert_eq!(
                all.eval(&pt).unwrap(),
                acc.eval(&pt).unwrap(),
                "at {n}, {m}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Three dimensions in boxes of sides `p0`, `2·p0` or `p1`, cut by a
    /// congruence of modulus 17..48 with large coefficients (the parameters
    /// inside it or not): exact against enumeration.
    #[test]
    fn three_dimensional_congruences_match_enumeration(
        m in 17i64..=48,
        a in prop::collection::vec(-100i64..=100, 3),
        b in prop::collection::vec(prop_oneof![Just(0i64), -100i64..=100], 2),
        sides in prop::collection::vec(0u8..3, 3),
        c in -5i64..=5,
        r in 0i64..48,
    ) {
        let xs: Vec<String> = (0..3).map(|k| format!("x{k}")).collect();
        let uppers: Vec<&str> = sides.iter().map(|&s| ["p0", "2p0", "p1"][s as usize]).collect();
        let (set, f) = match congruence_in_box(&xs, &uppers, c, &a, &b, m, r) {
            Some(counted) => counted,
            None => return Ok(()),
        };
        for p in [[0, 3], [1, 1], [2, 5], [5, 2], [7, 13], [m - 1, 3], [m, 1], [m + 1, 2]] {
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            prop_assert_eq!(f.eval(&ints(&p)).unwrap(), Rat::from(want), "{} at {:?}: {}", set, p, f);
        }
    }
}

/// Issue 21, `benches/count_mod_families.py` seeds 2 and 3: one-parameter
/// congruences of modulus 95 and 120 over three box sides. The summation
/// splits the last variable into residue classes, each with nested floors
/// (307,089 and 103,010 characters); the answer is printed in its periodic
/// normal form (module `periodic`): one coefficient table over `n mod 95`
/// per monomial, a few thousand characters, exact against enumeration.
#[test]
fn one_parameter_congruences_print_in_periodic_form() {
    for (s, m) in [
        ("[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < 2n and 0 <= k < n and (4 + 18i - 40j + 2k) mod 95 = 18 }", 95),
        ("[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n and (5 - i + 5j - 59k + 48n) mod 120 = 66 }", 120),
    ] {
        let set: Set = s.parse().unwrap();
        let c = crate::budget::with_budget(100_000_000, || card(&set)).unwrap();
        let text = c.to_string();
        assert!(text.len() < 20_000, "{} chars: {}", text.len(), &text[..200]);
        for p in [0, 1, 2, 3, 7, 13, 30, m - 1, m, m + 1] {
            let want = card_by_enumeration(&set, &ints(&[p])).unwrap();
            assert_eq!(c.eval(&ints(&[p])).unwrap(), Rat::from(want), "{set} at {p}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Three dimensions in boxes of sides `p0`, `2·p0` or `p1`, cut by a
    /// congruence of modulus 51..128 whose coefficients are large, small,
    /// negative or zero (the parameters' too): exact against enumeration
    /// (long answers are printed in their periodic normal form).
    #[test]
    fn large_moduli_in_three_dimensional_boxes_match_enumeration(
        m in 51i64..=128,
        a in prop::collection::vec(prop_oneof![-3i64..=3, -100i64..=100], 3),
        b in prop::collection::vec(prop_oneof![Just(0i64), -3i64..=3, -100i64..=100], 2),
        sides in prop::collection::vec(0u8..3, 3),
        c in -5i64..=5,
        r in 0i64..128,
    ) {
        let xs: Vec<String> = (0..3).map(|k| format!("x{k}")).collect();
        let uppers: Vec<&str> = sides.iter().map(|&s| ["p0", "2p0", "p1"][s as usize]).collect();
        let (set, f) = match congruence_in_box(&xs, &uppers, c, &a, &b, m, r) {
            Some(counted) => counted,
            None => return Ok(()),
        };
        for p in [[0, 3], [1, 1], [2, 5], [5, 2], [7, 13], [m - 1, 3], [m, 1], [m + 1, 2], [3, m + 2], [2 * m + 3, 1]] {
            let size: i64 = sides.iter().map(|&s| [p[0], 2 * p[0], p[1]][s as usize].max(0)).product();
            if size > 150_000 {
                continue;
            }
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            prop_assert_eq!(f.eval(&ints(&p)).unwrap(), Rat::from(want), "{} at {:?}: {}", set, p, f);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// Two parameters in independent divisions (issue 21): two or three box
    /// sides of `p0`, `p1` or `2·p1` cut by a congruence of modulus 17..64
    /// with both parameters in it, so that the period lattice's quotient is
    /// not cyclic (`Z/M × Z/M` for a prime `M` and coefficients prime to
    /// it). The periodic form of every piece (whatever its length) agrees
    /// with the piece at points below, around and beyond the period, and
    /// the count agrees with enumeration.
    #[test]
    fn two_parameter_periodic_forms_match(
        m in 17i64..=64,
        dims in 2usize..=3,
        a in prop::collection::vec(prop_oneof![-3i64..=3, -100i64..=100], 3),
        b in prop::collection::vec(prop_oneof![-100i64..=-1, 1i64..=100], 2),
        sides in prop::collection::vec(0u8..3, 3),
        c in -5i64..=5,
        r in 0i64..64,
    ) {
        let xs: Vec<String> = (0..dims).map(|k| format!("x{k}")).collect();
        let uppers: Vec<&str> = sides[..dims].iter().map(|&s| ["p0", "p1", "2p1"][s as usize]).collect();
        let (set, f) = match congruence_in_box(&xs, &uppers, c, &a[..dims], &b, m, r) {
            Some(counted) => counted,
            None => return Ok(()),
        };
        let probes = [-3 * m - 1, -5, 0, 1, 2, m - 1, m, 2 * m + 5, 7 * m + 3];
        for (_, q) in f.pieces() {
            let g = crate::budget::with_budget(COUNT_BUDGET, || super::periodic::periodic_form(q));
            if let Ok(Some(g)) = g {
                for n0 in probes {
                    for n1 in probes {
                        let pt = ints(&[n0, n1 + n0 % 3]);
                        prop_assert_eq!(q.eval(&pt).unwrap(), g.eval(&pt).unwrap(), "{} at {:?}: {} vs {}", set, pt, q, g);
                    }
                }
            }
        }
        for p in [[0, 3], [1, 1], [2, 5], [5, 2], [7, 13], [m - 1, 3], [m, 1], [m + 1, 2], [3, m + 2]] {
            let size: i64 = sides[..dims].iter().map(|&s| [p[0], p[1], 2 * p[1]][s as usize].max(0)).product();
            if size > 150_000 {
                continue;
            }
            let want = card_by_enumeration(&set, &ints(&p)).unwrap();
            prop_assert_eq!(f.eval(&ints(&p)).unwrap(), Rat::from(want), "{} at {:?}: {}", set, p, f);
        }
    }
}
