//! Tests of unions.

use super::*;
use proptest::prelude::*;

/// Parts of several spaces (some sharing one, with other parameters).
const PARTS: &[&str] = &[
    "[n] -> { A[i] : 0 <= i < n }",
    "[n] -> { A[i] : i = n + 3 }",
    "[m] -> { B[i, j] : i <= j <= m }",
    "{ B[i] : i >= 2 }",
    "[n] -> { A[i] -> B[j] : j = i + n }",
    "{ [i] -> [j] : j = 2i }",
    "[m] -> { C[] : m >= 0 }",
    "[n, m] -> { A[i] -> A[j] : j > i + m - n }",
];

/// The simple way to add a map (the oracle of `add_map`'s shortcut for
/// parts in order): binary search, then insert or concatenate.
fn add_by_search(u: &mut UnionMap, mut m: Map) {
    if m.space.params != u.params {
        let params = merge_params_shared(&u.params, &m.space.params);
        u.align_params_shared(&params);
        m.align_params_shared(&params);
    }
    let maps = Arc::make_mut(&mut u.maps);
    match maps.binary_search_by(|x| {
        (&x.space.domain, &x.space.range).cmp(&(&m.space.domain, &m.space.range))
    }) {
        Ok(k) => maps[k].parts.extend(m.into_parts()),
        Err(k) => maps.insert(k, m),
    }
}

fn same(a: &UnionMap, b: &UnionMap) -> bool {
    a.params == b.params
        && a.maps.len() == b.maps.len()
        && a.maps.iter().zip(b.maps.iter()).all(|(x, y)| {
            x.space == y.space
                && x.parts.len() == y.parts.len()
                && x.parts.iter().zip(&y.parts).all(|(p, q)| {
                    p.space == q.space && p.eqs == q.eqs && p.ineqs == q.ineqs && p.divs == q.divs
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// `add_map` (with its shortcut for parts in order) builds what the
    /// binary search alone builds, in any order of the parts; `each`
    /// (with its shortcut for answers in their part's space) gives what
    /// collecting the answers with `add_map` gives.
    #[test]
    fn add_map_and_each_match_the_search(picks in prop::collection::vec(0..PARTS.len(), 0..8)) {
        let maps: Vec<Map> = picks.iter().map(|&k| PARTS[k].parse().unwrap()).collect();
        let mut fast = UnionMap::empty(Arc::from(Vec::<String>::new()));
        let mut slow = fast.clone();
        for m in &maps {
            fast.add_map(m.clone()).unwrap();
            add_by_search(&mut slow, m.clone());
        }
        prop_assert!(same(&fast, &slow), "{:?}", picks);
        let ordered = fast.maps.windows(2).all(|w| {
            (&w[0].space.domain, &w[0].space.range) < (&w[1].space.domain, &w[1].space.range)
        });
        prop_assert!(ordered, "{:?}", picks);
        for f in [Map::coalesce as fn(&Map) -> Result<Map>, |m: &Map| Ok(m.clone()),
                  |m: &Map| if m.is_set() { Ok(m.clone()) } else { m.reverse() }] {
            let each = fast.each(f).unwrap();
            let collected = UnionMap::collect(&fast.params, fast.maps.iter().map(f)).unwrap();
            prop_assert!(same(&each, &collected), "{:?}", picks);
        }
    }
}

/// Maps for the coalesce tests: some that coalescing changes (fusable,
/// contained or duplicate disjuncts, rows to normalise), some it leaves.
const TO_COALESCE: &[&str] = &[
    "[n] -> { A[i] : 0 <= i < 5; A[i] : 5 <= i < 10 }",
    "[n] -> { A[i] : 0 <= i <= 3; A[i] : 1 <= i <= 2 }",
    "{ B[i] : 2i >= 4 }",
    "{ B[i] : i >= 2; B[i] : i >= 2 }",
    "[m] -> { A[i] -> B[j] : j = i and 0 <= i <= m; A[i] -> B[j] : j = i and i > m }",
    "[n] -> { A[i] -> B[j] : j = i + n }",
    "{ C[i] : exists (e : i = 2e) }",
];

/// One step on a union: add a map (of `PARTS` or `TO_COALESCE`), replace
/// the union by its coalesced form, by a copy, or extend its parameters.
#[derive(Debug, Clone)]
enum Step {
    Add(usize),
    Coalesce,
    Copy,
    Params,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0..PARTS.len() + TO_COALESCE.len()).prop_map(Step::Add),
        Just(Step::Coalesce),
        Just(Step::Copy),
        Just(Step::Params),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// The kept answer of `coalesce` (see `union/memo.rs`) is what
    /// coalescing part by part gives, after any sequence of writes to the
    /// union, of copies and of coalesces (the answer coalesced again, the
    /// operand coalesced again after it was changed).
    #[test]
    fn kept_coalesce_matches_computing_it(steps in prop::collection::vec(step(), 0..12)) {
        let mut u = UnionMap::empty(Arc::from(Vec::<String>::new()));
        let mut kept: Vec<UnionMap> = Vec::new();
        for s in &steps {
            match s {
                Step::Add(k) => {
                    let text = PARTS.iter().chain(TO_COALESCE).nth(*k).unwrap();
                    u.add_map(text.parse().unwrap()).unwrap();
                }
                Step::Coalesce => {
                    kept.push(u.clone());
                    u = u.coalesce().unwrap();
                }
                Step::Copy => u = u.clone(),
                Step::Params => {
                    let mut p = u.params.to_vec();
                    p.push(format!("p{}", p.len()));
                    u.align_params(&p);
                }
            }
            for x in std::iter::once(&u).chain(&kept) {
                let oracle = x.coalesce_each().unwrap();
                for _ in 0..2 {
                    let c = x.coalesce().unwrap();
                    prop_assert!(same(&c, &oracle), "{:?}: {} vs {}", steps, c, oracle);
                    let again = c.coalesce().unwrap();
                    prop_assert!(same(&again, &c.coalesce_each().unwrap()), "{:?}", steps);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// `union` (one merge of the sorted parts, a side without parts
    /// answered by the other side) builds what collecting both sides'
    /// parts with `add_map` builds.
    #[test]
    fn union_matches_adding(
        left in prop::collection::vec(0..PARTS.len() + TO_COALESCE.len(), 0..6),
        right in prop::collection::vec(0..PARTS.len() + TO_COALESCE.len(), 0..6),
    ) {
        let build = |picks: &[usize]| {
            let mut u = UnionMap::empty(Arc::from(Vec::<String>::new()));
            for &k in picks {
                let text = PARTS.iter().chain(TO_COALESCE).nth(k).unwrap();
                u.add_map(text.parse().unwrap()).unwrap();
            }
            u
        };
        let (a, b) = (build(&left), build(&right));
        let fast = a.union(&b).unwrap();
        let slow = a.union_by_adding(&b).unwrap();
        prop_assert!(same(&fast, &slow), "{:?} {:?}: {} vs {}", left, right, fast, slow);
    }
}
