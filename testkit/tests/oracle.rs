//! The oracle's fast membership test ([`testkit::oracle::Tester`]) decides
//! exactly what the plain search ([`testkit::oracle::contains`]) decides, at
//! every point of the box (one by one and all at once), on generated sets and on engine results with
//! existentials (complement, subtraction), and on maps whose coefficients
//! do not fit in machine integers (the fallback).

use presburger::{budget, Int, Map};
use proptest::prelude::*;
use proptest::test_runner::Config;
use testkit::oracle::{contains, Tester, Universe};
use testkit::strategies;

fn agree(m: &Map, u: &Universe) {
    let t = Tester::new(m);
    let pts = u.points();
    let all = t.membership(u);
    let mut k = 0;
    u.for_each_point(|p| {
        assert_eq!(p, &pts[k][..], "for_each_point order");
        let q: Vec<Int> = p.iter().map(|&v| Int::from(v)).collect();
        let want = contains(m, &q);
        assert_eq!(t.member(p), want, "{m} at {p:?}");
        assert_eq!(all[k], want, "membership of {m} at {p:?}");
        k += 1;
    });
    assert_eq!(k, u.size());
}

proptest! {
    #![proptest_config(Config { cases: 24, failure_persistence: None, ..Config::default() })]

    #[test]
    fn tester_agrees_with_search((a, b) in strategies::set_pair()) {
        let u = Universe::of(a.shape);
        let (a, b) = (a.map(), b.map());
        agree(&a, &u);
        agree(&b, &u);
        for r in [
            budget::with_budget(200_000, || a.subtract(&b)),
            budget::with_budget(200_000, || a.complement()),
        ]
        .into_iter()
        .flatten()
        {
            agree(&r, &u);
        }
    }
}

#[test]
fn tester_narrows_existentials_and_falls_back_on_big_coefficients() {
    let u = Universe {
        n_param: 0,
        n_dims: 2,
        param_bound: 0,
        dim_bound: 6,
    };
    for text in [
        "{ [x, y] : exists (e : 3e <= x + y <= 3e + 1 and 2e >= y - 4) }",
        "{ [x, y] : exists (e, f : x = 2e + 3f and y = e - f and -2 <= f <= 2) }",
        "{ [x, y] : exists (e : 5e = x + 2y) }",
        "{ [x, y] : 100000000000000000000 * x <= 200000000000000000000 * y + 1 }",
        "{ [x, y] : exists (e : 9223372036854775807 * e = x * 9223372036854775807) }",
    ] {
        let m: Map = text.parse().unwrap();
        agree(&m, &u);
    }
}
