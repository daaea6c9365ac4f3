//! Property tests: the engine against the brute-force oracle on random
//! bounded sets and maps (see `testkit::strategies`). Every generated set lies
//! in the oracle's box, so enumeration sees all of its points.

use presburger::{budget, Error, Map};
use proptest::prelude::*;
use proptest::test_runner::Config;
use testkit::gen::Generated;
use testkit::oracle::{self, Universe};
use testkit::strategies;

/// Work budget per engine call: running out is a skip, not a failure.
const BUDGET: u64 = 500_000;

/// 64 cases per property (`PROPTEST_CASES` overrides), no persistence files.
fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// With `TESTKIT_TRACE` set, print each input (to find a hanging case).
fn trace(g: &Generated) {
    if std::env::var_os("TESTKIT_TRACE").is_some() {
        eprintln!("input: {}", g.text);
    }
}

/// Run an engine call under the budget; `None` if it ran out, a test
/// failure for any other error.
fn run<T>(
    what: &str,
    f: impl FnOnce() -> presburger::Result<T>,
) -> Result<Option<T>, TestCaseError> {
    match budget::with_budget(BUDGET, f) {
        Ok(v) => Ok(Some(v)),
        Err(Error::BudgetExceeded) => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!("{what}: engine error {e}"))),
    }
}

fn check_same(
    what: &str,
    got: &Map,
    want: &[bool],
    u: &Universe,
    inputs: &[&Generated],
) -> Result<(), TestCaseError> {
    let g = oracle::membership(got, u);
    if let Some((p, eng, brute)) = oracle::first_difference(&g, want, u) {
        let ins: Vec<&str> = inputs.iter().map(|x| x.text.as_str()).collect();
        return Err(TestCaseError::fail(format!(
            "{what}: at {p:?} engine says {eng}, brute force {brute}\ninputs: {ins:#?}\nresult: {got}"
        )));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn binary_ops_match_brute_force((ga, gb) in strategies::set_pair()) {
        let (a, b) = (ga.map(), gb.map());
        let u = Universe::of(ga.shape);
        let ma = oracle::membership(&a, &u);
        let mb = oracle::membership(&b, &u);
        let zip = |f: fn(bool, bool) -> bool| -> Vec<bool> { ma.iter().zip(&mb).map(|(&x, &y)| f(x, y)).collect() };
        if let Some(r) = run("intersect", || a.intersect(&b))? {
            check_same("intersect", &r, &zip(|x, y| x && y), &u, &[&ga, &gb])?;
        }
        if let Some(r) = run("union", || a.union(&b))? {
            check_same("union", &r, &zip(|x, y| x || y), &u, &[&ga, &gb])?;
        }
        if let Some(r) = run("subtract", || a.subtract(&b))? {
            check_same("subtract", &r, &zip(|x, y| x && !y), &u, &[&ga, &gb])?;
        }
    }

    #[test]
    fn complement_matches_brute_force(ga in strategies::set()) {
        let a = ga.map();
        let u = Universe::of(ga.shape);
        let want: Vec<bool> = oracle::membership(&a, &u).into_iter().map(|x| !x).collect();
        if let Some(r) = run("complement", || a.complement())? {
            check_same("complement", &r, &want, &u, &[&ga])?;
        }
    }

    #[test]
    fn is_empty_and_sample_match_brute_force(ga in strategies::set()) {
        let a = ga.map();
        let u = Universe::of(ga.shape);
        let pts = oracle::points_of(&a, &u);
        if let Some(e) = run("is_empty", || a.is_empty())? {
            prop_assert_eq!(e, pts.is_empty(), "is_empty of {}", ga.text);
        }
        if let Some(s) = run("sample", || a.sample_point())? {
            match s {
                None => prop_assert!(pts.is_empty(), "no sample but {} has {:?}", ga.text, pts[0]),
                Some(s) => {
                    let sp = oracle::points_of(&s, &u);
                    prop_assert_eq!(sp.len(), 1, "sample {} of {} is not one point", s, ga.text);
                    prop_assert!(pts.contains(&sp[0]), "sample {:?} not in {}", sp[0], ga.text);
                }
            }
        }
    }

    #[test]
    fn lexmin_lexmax_match_brute_force(ga in strategies::set()) {
        check_lexopt(&ga)?;
    }

    #[test]
    fn relation_lexmin_lexmax_match_brute_force(gm in strategies::map()) {
        check_lexopt(&gm)?;
    }

    #[test]
    fn projection_matches_brute_force(ga in strategies::set(), which in 0usize..3) {
        let a = ga.map();
        let u = Universe::of(ga.shape);
        let np = ga.shape.n_param();
        let k = which % ga.shape.n_out;
        let Some(r) = run("project_out", || a.project_out(k, 1))? else { return Ok(()) };
        let ur = Universe { n_dims: u.n_dims - 1, ..u };
        let mut want = vec![false; ur.size()];
        let index: std::collections::HashMap<Vec<i64>, usize> = ur.points().into_iter().enumerate().map(|(i, p)| (p, i)).collect();
        for p in oracle::points_of(&a, &u) {
            let mut q = p.clone();
            q.remove(np + k);
            want[index[&q]] = true;
        }
        check_same("project_out", &r, &want, &ur, &[&ga])?;
    }

    #[test]
    fn coalesce_and_gist_preserve_the_set((ga, gb) in strategies::set_pair()) {
        let (a, b) = (ga.map(), gb.map());
        let u = Universe::of(ga.shape);
        let ma = oracle::membership(&a, &u);
        if let Some(c) = run("coalesce", || a.coalesce())? {
            check_same("coalesce", &c, &ma, &u, &[&ga])?;
        }
        if let Some(g) = run("gist", || a.gist(&b))? {
            // gist(A, B) ∩ B = A ∩ B, checked pointwise inside B
            let mb = oracle::membership(&b, &u);
            let got: Vec<bool> = oracle::membership(&g, &u).iter().zip(&mb).map(|(&x, &y)| x && y).collect();
            let want: Vec<bool> = ma.iter().zip(&mb).map(|(&x, &y)| x && y).collect();
            if let Some((p, eng, brute)) = oracle::first_difference(&got, &want, &u) {
                return Err(TestCaseError::fail(format!(
                    "gist: at {p:?} (in B) engine says {eng}, brute force {brute}\nA = {}\nB = {}\ngist = {g}", ga.text, gb.text
                )));
            }
        }
    }

    #[test]
    fn reverse_domain_range_match_brute_force(gm in strategies::map()) {
        let m = gm.map();
        let s = gm.shape;
        let (np, ni, no) = (s.n_param(), s.n_in, s.n_out);
        let u = Universe::of(s);
        let pts = oracle::points_of(&m, &u);
        // reverse
        if let Some(r) = run("reverse", || m.reverse())? {
            let swap = |p: &[i64]| -> Vec<i64> {
                let mut q = p[..np].to_vec();
                q.extend_from_slice(&p[np + ni..]);
                q.extend_from_slice(&p[np..np + ni]);
                q
            };
            let ur = Universe { ..u };
            let want: Vec<bool> = ur.points().iter().map(|q| oracle::member(&m, &swap_back(q, np, no))).collect();
            check_same("reverse", &r, &want, &ur, &[&gm])?;
            for p in &pts {
                prop_assert!(oracle::member(&r, &swap(p)), "reverse misses {:?}", swap(p));
            }
        }
        // domain and range
        for (what, keep) in [("domain", 0..ni), ("range", ni..ni + no)] {
            let Some(r) = run(what, || if what == "domain" { m.domain() } else { m.range() })? else { continue };
            let ud = Universe { n_dims: keep.len(), ..u };
            let index: std::collections::HashMap<Vec<i64>, usize> = ud.points().into_iter().enumerate().map(|(i, p)| (p, i)).collect();
            let mut want = vec![false; ud.size()];
            for p in &pts {
                let mut q = p[..np].to_vec();
                q.extend_from_slice(&p[np + keep.start..np + keep.end]);
                want[index[&q]] = true;
            }
            check_same(what, &r, &want, &ud, &[&gm])?;
        }
    }

    #[test]
    fn apply_matches_brute_force((gm, gs) in strategies::map_and_domain_set()) {
        let (m, s) = (gm.map(), gs.map());
        let sh = gm.shape;
        let (np, ni, no) = (sh.n_param(), sh.n_in, sh.n_out);
        let u = Universe::of(sh);
        let Some(r) = run("apply", || s.apply(&m))? else { return Ok(()) };
        let ur = Universe { n_dims: no, ..u };
        let index: std::collections::HashMap<Vec<i64>, usize> = ur.points().into_iter().enumerate().map(|(i, p)| (p, i)).collect();
        let mut want = vec![false; ur.size()];
        for p in oracle::points_of(&m, &u) {
            if oracle::member(&s, &p[..np + ni]) {
                let mut q = p[..np].to_vec();
                q.extend_from_slice(&p[np + ni..]);
                want[index[&q]] = true;
            }
        }
        check_same("apply", &r, &want, &ur, &[&gm, &gs])?;
    }
}

/// lexmin and lexmax (of a set for each parameter value, of a relation for
/// each parameter value and domain point) against enumeration.
fn check_lexopt(g: &Generated) -> Result<(), TestCaseError> {
    trace(g);
    let a = g.map();
    let u = Universe::of(g.shape);
    let prefix_len = g.shape.n_param() + g.shape.n_in;
    for max in [false, true] {
        let what = if max { "lexmax" } else { "lexmin" };
        let Some(r) = run(what, || if max { a.lexmax() } else { a.lexmin() })? else {
            continue;
        };
        let want = oracle::lexopt_by_prefix(&a, &u, prefix_len, max);
        let mut got = std::collections::BTreeMap::new();
        for p in oracle::points_of(&r, &u) {
            if let Some(old) = got.insert(p[..prefix_len].to_vec(), p.clone()) {
                return Err(TestCaseError::fail(format!(
                    "{what} of {} has two points {old:?} and {p:?} for one prefix: {r}",
                    g.text
                )));
            }
        }
        if got != want {
            let diff = want
                .iter()
                .find(|(k, v)| got.get(*k) != Some(*v))
                .map(|(k, v)| (k.clone(), Some(v.clone()), got.get(k).cloned()))
                .or_else(|| {
                    got.iter()
                        .find(|(k, _)| !want.contains_key(*k))
                        .map(|(k, v)| (k.clone(), None, Some(v.clone())))
                });
            return Err(TestCaseError::fail(format!(
                "{what} of {}: first difference (prefix, brute force, engine) = {diff:?}\nresult: {r}",
                g.text
            )));
        }
    }
    Ok(())
}

/// `q` is a point of the reversed map (params, out, in): the point of the original.
fn swap_back(q: &[i64], np: usize, no: usize) -> Vec<i64> {
    let mut p = q[..np].to_vec();
    p.extend_from_slice(&q[np + no..]);
    p.extend_from_slice(&q[np..np + no]);
    p
}

/// The generator only writes text the engine parses, in every shape.
#[test]
fn generator_output_parses_in_every_shape() {
    use testkit::gen::{generate_from, Shape};
    let mut n = 0;
    for param in [false, true] {
        for (ni, no) in [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (2, 1)] {
            for seed in 0u32..40 {
                let bytes: Vec<u8> = (0..96u32)
                    .map(|k| (seed.wrapping_mul(2654435761).wrapping_add(k * 40503) >> 7) as u8)
                    .collect();
                let g = generate_from(&bytes, Shape::map(param, ni, no));
                let m = g.map();
                assert_eq!(m.space().n_param(), usize::from(param), "{}", g.text);
                assert_eq!(m.space().n_out(), no, "{}", g.text);
                n += 1;
            }
        }
    }
    assert_eq!(n, 2 * 6 * 40);
    // the all-zero input is a single point at the origin
    let g = generate_from(&[], Shape::set(false, 2));
    assert_eq!(g.text, "{ [x, y] : (0 <= x <= 0 and 0 <= y <= 0) }");
}
