//! Disjuncts that repeat an earlier disjunct of their map (the same
//! constraints, as the corpus's unions often hold: `S0[i] -> B[i] : X;
//! S0[i] -> B[i] : X`). What an operation makes of such a disjunct, moved
//! and simplified alike, is what it made of the earlier one: it is taken
//! from there (a copy shares the rows) instead of being computed again.
//! Every step is a function of the disjunct's constraints (the moves, the
//! substitutions, [`BasicMap::simplify`]), so the answer is the same, row
//! for row and in the same order; the tests compare it with the disjuncts
//! computed one by one.

use crate::basic::BasicMap;

/// True if `a` and `b` have the same space and constraints (storages that
/// are shared compared without reading them).
pub(crate) fn same_constraints(a: &BasicMap, b: &BasicMap) -> bool {
    // (the counts first: most disjuncts that differ differ there)
    a.eqs.len() == b.eqs.len()
        && a.ineqs.len() == b.ineqs.len()
        && a.n_div() == b.n_div()
        && (a.eqs.shares(&b.eqs) || a.eqs == b.eqs)
        && (a.ineqs.shares(&b.ineqs) || a.ineqs == b.ineqs)
        && a.divs == b.divs
        && a.space == b.space
}

/// For each part, the first earlier part with the same constraints (which
/// repeats none itself); empty, without allocating, when no part repeats
/// an earlier one (then every part is computed as usual).
pub(crate) fn repeats(parts: &[BasicMap]) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    for k in 1..parts.len() {
        if let Some(j) = parts[..k]
            .iter()
            .position(|p| same_constraints(p, &parts[k]))
        {
            if out.is_empty() {
                out.resize(parts.len(), None);
            }
            out[k] = Some(j);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;
    use proptest::prelude::*;

    fn same(a: &Map, b: &Map) -> bool {
        a.space == b.space
            && a.parts.len() == b.parts.len()
            && a.parts.iter().zip(&b.parts).all(|(x, y)| {
                x.space == y.space
                    && x.divs == y.divs
                    && x.eqs.iter().eq(y.eqs.iter())
                    && x.ineqs.iter().eq(y.ineqs.iter())
            })
    }

    /// Disjuncts of `{ [i, j] -> [k, l] }`, some empty once simplified.
    const POOL: &[&str] = &[
        "k = i + 1 and 0 <= i < n",
        "l = j and j >= 0",
        "k = 2i and l = floor((i + j)/2)",
        "exists e : k = 3e + j and 0 <= e <= n",
        "i >= 0 and i < 0",
        "k + l = n and k >= 0",
        "l = j - 1 and k = i",
    ];

    fn map(picks: &[usize]) -> Map {
        let parts: Vec<String> = picks
            .iter()
            .map(|&k| format!("[i, j] -> [k, l] : {}", POOL[k]))
            .collect();
        let text = if parts.is_empty() {
            "[n] -> { [i, j] -> [k, l] : 1 = 0 }".to_string()
        } else {
            format!("[n] -> {{ {} }}", parts.join("; "))
        };
        text.parse().unwrap()
    }

    /// `m` with each disjunct alone.
    fn alone(m: &Map) -> Vec<Map> {
        m.parts
            .iter()
            .map(|b| Map::new(m.space.clone(), vec![b.clone()]))
            .collect()
    }

    /// The answers for each disjunct alone, concatenated.
    fn one_by_one(m: &Map, op: impl Fn(&Map) -> Map) -> Map {
        let answers: Vec<Map> = alone(m).iter().map(&op).collect();
        Map::new(
            answers
                .first()
                .map_or_else(|| op(m).space.clone(), |a| a.space.clone()),
            answers.into_iter().flat_map(|a| a.into_parts()).collect(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        /// With repeated disjuncts, `reverse`, `domain`, `range`, `params`
        /// and `apply_range` give the disjuncts computed one by one (one
        /// pair at a time for `apply_range`), row for row.
        #[test]
        fn repeated_disjuncts_give_the_answers_one_by_one(
            l in prop::collection::vec(0..POOL.len(), 0..4),
            r in prop::collection::vec(0..POOL.len(), 0..4),
            copies in prop::collection::vec((0..4usize, 0..4usize), 0..3),
        ) {
            // repeats of some disjuncts, at some places
            let with_copies = |picks: &[usize]| {
                let mut p = picks.to_vec();
                for &(from, to) in &copies {
                    if !p.is_empty() {
                        let v = p[from % p.len()];
                        p.insert(to % (p.len() + 1), v);
                    }
                }
                p
            };
            let a = map(&with_copies(&l));
            let b = map(&with_copies(&r));
            prop_assert!(same(&a.reverse().unwrap(), &one_by_one(&a, |m| m.reverse().unwrap())));
            prop_assert!(same(&a.domain().unwrap(), &one_by_one(&a, |m| m.domain().unwrap())));
            prop_assert!(same(&a.range().unwrap(), &one_by_one(&a, |m| m.range().unwrap())));
            prop_assert!(same(&a.params(), &one_by_one(&a, |m| m.params())));
            let c = a.apply_range(&b).unwrap();
            let mut pairs = Vec::new();
            for x in alone(&a) {
                for y in alone(&b) {
                    pairs.extend(x.apply_range(&y).unwrap().into_parts());
                }
            }
            let by_pairs = Map::new(c.space.clone(), pairs);
            prop_assert!(same(&c, &by_pairs), "{} then {}", a, b);
        }
    }

    /// Repeats are found (so that the comparison above compares something),
    /// and only repeats.
    #[test]
    fn repeats_found() {
        let m = map(&[0, 1, 0, 2, 1, 0]);
        assert_eq!(
            repeats(&m.parts),
            vec![None, None, Some(0), None, Some(1), Some(0)]
        );
        assert!(repeats(&map(&[0, 1, 2]).parts).is_empty());
    }
}
