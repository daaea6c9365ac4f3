//! A parameter domain (`[n] -> { : ... }`) as an operand of a union's
//! intersection, domain intersection or gist restricts the parameters of
//! every part of the other operand, on either side, as in isl (issue 21,
//! item 1); every other space pairs with its own space only. Regression
//! cases with isl's answers (islpy), and brute force over small boxes.

use presburger::{Map, UnionMap};
use proptest::prelude::*;
use testkit::gen::Shape;
use testkit::oracle::{member, Universe};
use testkit::strategies::{of_shape, shape};

fn u(s: &str) -> UnionMap {
    s.parse().unwrap()
}

fn assert_same(got: &UnionMap, want: &str) {
    assert!(got.is_equal(&u(want)).unwrap(), "got {got}, want {want}");
}

#[test]
fn intersecting_with_a_parameter_domain_restricts_the_parameters() {
    let s = u("[n] -> { [i] : 0 <= i <= n and n <= 3 }");
    let p = u("[n] -> { : n >= 2 }");
    // isl: [n] -> { [i] : 2 <= n <= 3 and 0 <= i <= n }
    let want = "[n] -> { [i] : 2 <= n <= 3 and 0 <= i <= n }";
    assert_same(&s.intersect(&p).unwrap(), want);
    assert_same(&p.intersect(&s).unwrap(), want);
    let m = u("[n] -> { A[i] -> B[j] : 0 <= i <= n and n <= 3; C[i] -> C[i + 1] : i < n }");
    let want = "[n] -> { A[i] -> B[j] : 2 <= n <= 3 and 0 <= i <= n; C[i] -> C[i + 1] : i < n and n >= 2 }";
    assert_same(&m.intersect(&p).unwrap(), want);
    assert_same(&p.intersect(&m).unwrap(), want);
    assert_same(&m.intersect_domain(&p).unwrap(), want);
    // a parameter domain with other parts is a union like any other
    let pu = u("[n] -> { : n >= 2; [i] : i >= 1 }");
    assert_same(
        &s.intersect(&pu).unwrap(),
        "[n] -> { [i] : 1 <= i <= n and n <= 3 }",
    );
    // parameters the operands do not share are aligned
    assert_same(
        &s.intersect(&u("[m] -> { : m >= 7 }")).unwrap(),
        "[n, m] -> { [i] : 0 <= i <= n and n <= 3 and m >= 7 }",
    );
}

#[test]
fn gist_in_a_parameter_domain_keeps_the_set_inside_it() {
    let s = u("[n] -> { [i] : 0 <= i <= n and n >= 2 }");
    let p = u("[n] -> { : n >= 2 }");
    let g = s.gist(&p).unwrap();
    assert_same(
        &g.intersect(&p).unwrap(),
        &s.intersect(&p).unwrap().to_string(),
    );
    // isl: [n] -> { [i] : 0 <= i <= n }
    assert_same(&g, "[n] -> { [i] : 0 <= i <= n }");
    // a part without a context part does not meet the context: left out, as in isl
    assert_same(&s.gist(&u("{ A[i] }")).unwrap(), "{ }");
}

/// A random parameter domain: the parameters of a random one-dimensional set.
fn params() -> impl Strategy<Value = UnionMap> {
    of_shape(Shape::set(true, 1)).prop_map(|g| UnionMap::from_map(g.map()).params_set().unwrap())
}

/// The value of the parameter domain `p` at `n`.
fn params_hold(p: &UnionMap, n: i64) -> bool {
    p.maps().iter().any(|m| member(m, &[n]))
}

fn check(x: &Map, p: &UnionMap, universe: &Universe) {
    let part = |v: &UnionMap| -> Map {
        v.maps()
            .iter()
            .find(|m| m.space().tuples_match(x.space()))
            .cloned()
            .unwrap_or_else(|| Map::empty(x.space().clone()))
    };
    let ux = UnionMap::from_map(x.clone());
    let both = [ux.intersect(p).unwrap(), p.intersect(&ux).unwrap()];
    let gist = ux.gist(p).unwrap();
    for pt in universe.points() {
        let n = pt[0];
        let want = member(x, &pt) && params_hold(p, n);
        for r in &both {
            assert_eq!(member(&part(r), &pt), want, "{x} * {p} at {pt:?}: got {r}");
        }
        if params_hold(p, n) {
            assert_eq!(
                member(&part(&gist), &pt),
                member(x, &pt),
                "{x} % {p} at {pt:?}: got {gist}"
            );
        }
        if !x.is_set() {
            let r = ux.intersect_domain(p).unwrap();
            assert_eq!(
                member(&part(&r), &pt),
                want,
                "domain of {x} * {p} at {pt:?}: got {r}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Sets and maps with a parameter `n`, intersected with a parameter domain on
    /// either side, and their gist in it, against brute force.
    #[test]
    fn parameter_domains_restrict_the_parameters(
        (x, p) in (any::<bool>(), 1usize..=2)
            .prop_flat_map(|(map, dims)| shape(map, dims))
            .prop_filter("with the parameter", |s| s.param)
            .prop_flat_map(|s| (of_shape(s), params()))
    ) {
        let universe = Universe::of(x.shape);
        check(&x.map(), &p, &universe);
    }
}
