//! The rows of a projected disjunct built in one pass (the step of
//! [`Map::domain`](crate::Map::domain) and [`Map::range`](crate::Map::range)
//! before simplification).
//!
//! The simple way moves every row into the new layout with the projected
//! variables as existentials ([`BasicMap::transform`]), then substitutes
//! away the existentials that a unit equality gives
//! ([`substitute_shared_existentials`]): each row is copied at full width,
//! then the substituted columns are cut out of it. Most projected
//! variables of the corpus are *given alone*: one equality mentions the
//! variable, with coefficient ±1, and no other projected variable and no
//! local; no other row and no division mentions it. The substitution then
//! only drops that equality and the column (it eliminates the variable from
//! no other row, and no other step of it touches the equality or the
//! column, see [`project_part`]). Here those equalities are not copied and
//! those columns are cut as the rows are copied; the other projected
//! variables are left to `substitute_shared_existentials` as before. The
//! rows are the simple way's, value for value and in the same order (the
//! tests compare them).

use super::Dest;
use crate::basic::{gather_row, BasicMap, Div};
use crate::int::Int;
use crate::join::substitute_shared_existentials;
use crate::space::Space;

/// A column not copied (see [`project_part`]).
const DROPPED: usize = usize::MAX;

/// `b.transform(space, dest, n_exist)` followed by
/// `substitute_shared_existentials(_, n_exist)`: the same basic map, row
/// for row.
///
/// Why a variable given alone (see the [module documentation](self)) may
/// be dropped first: the substitution takes the projected columns in
/// order and, for each, the first equality with a unit coefficient there.
/// For a column `c` given alone by equality `e`, that is `e` (the only row
/// mentioning `c`; no division mentions it). `e` mentions no other
/// projected column, so no earlier or later pivot is `e`, and no pivot
/// changes `e` (each eliminates its own column, zero in `e`) or puts `c`
/// into another row (no other pivot mentions `c`). So `e` is removed
/// unchanged and eliminates `c` from no row, whatever the order: the other
/// columns' substitutions run exactly as they would with `e` and `c`
/// there, and the column is cut out at the end.
pub(crate) fn project_part(b: &BasicMap, space: &Space, dest: &[Dest], n_exist: usize) -> BasicMap {
    debug_assert_eq!(dest.len(), b.space.n_vars());
    let off = b.off_div();
    let projected = |c: usize| c >= 1 && c < off && matches!(dest[c - 1], Dest::Exist(_));
    // the equality giving the projected variable of old column `c` alone,
    // if any
    let given_alone = |c: usize| -> Option<usize> {
        if b.ineqs.iter().any(|r| !r[c].is_zero())
            || b.divs.iter().flatten().any(|d| !d.num[c].is_zero())
        {
            return None;
        }
        let mut mentions = b.eqs.iter().enumerate().filter(|(_, r)| !r[c].is_zero());
        let (Some((i, r)), None) = (mentions.next(), mentions.next()) else {
            return None;
        };
        (matches!(r[c], Int::Small(1 | -1))
            && r[off..].iter().all(Int::is_zero)
            && (1..off).all(|j| j == c || !projected(j) || r[j].is_zero()))
        .then_some(i)
    };
    // the equality giving each projected variable alone, if any (by its
    // existential index, from the last old variable moved there): the list
    // allocated at the first one found (most disjuncts of the corpus's
    // `range` have none, and go the simple way without allocating here)
    let mut given_by: Vec<Option<usize>> = Vec::new();
    for (k, d) in dest.iter().enumerate() {
        let Dest::Exist(e) = *d else { continue };
        match given_alone(1 + k) {
            Some(i) => {
                if given_by.is_empty() {
                    given_by.resize(n_exist, None);
                }
                given_by[e] = Some(i);
            }
            None => {
                if let Some(g) = given_by.get_mut(e) {
                    *g = None;
                }
            }
        }
    }
    let n_given = given_by.iter().filter(|g| g.is_some()).count();
    if n_given == 0 {
        let mut t = b.transform(space.clone(), dest, n_exist);
        substitute_shared_existentials(&mut t, n_exist);
        return t;
    }
    // the layout: [1 | vars of space | the projected variables not given,
    // in order | locals]
    let nv = space.n_vars();
    let n_left = n_exist - n_given;
    let mut left_index = vec![DROPPED; n_exist];
    let mut next = 0;
    for (e, g) in given_by.iter().enumerate() {
        if g.is_none() {
            left_index[e] = next;
            next += 1;
        }
    }
    let new_len = 1 + nv + n_left + b.n_div();
    // the source (old column) of each new column (none for a fresh
    // existential: zero there)
    let mut buffer = crate::basic::SourceBuffer::new();
    let src = buffer.take(new_len);
    src[0] = 0;
    for (k, d) in dest.iter().enumerate() {
        match *d {
            Dest::Var(j) => src[1 + j] = 1 + k,
            Dest::Exist(e) => {
                if left_index[e] != DROPPED {
                    src[1 + nv + left_index[e]] = 1 + k;
                }
            }
        }
    }
    for k in 0..b.n_div() {
        src[1 + nv + n_left + k] = off + k;
    }
    let gather = |r: &[Int]| gather_row(r, &src);
    let dropped_eq = |i: usize| given_by.contains(&Some(i));
    let mut eqs = crate::Rows::with_capacity(b.eqs.len() - n_given, new_len);
    let mut w = eqs.writer();
    for (_, r) in b.eqs.iter().enumerate().filter(|(i, _)| !dropped_eq(*i)) {
        w.push_iter(crate::basic::gathered(r, &src));
    }
    let ineqs = crate::basic::gather_rows(&b.ineqs, &src);
    // (no division before or after: the empty list shared)
    let divs: crate::divs::Divs = if n_left == 0 && b.divs.is_empty() {
        b.divs.clone()
    } else {
        let mut divs = Vec::with_capacity(n_left + b.n_div());
        divs.resize(n_left, None);
        divs.extend(b.divs.iter().map(|d| {
            d.as_ref().map(|d| Div {
                num: gather(&d.num),
                den: d.den.clone(),
            })
        }));
        divs.into()
    };
    let mut t = BasicMap {
        space: space.clone(),
        divs,
        eqs,
        ineqs,
        hint: Default::default(),
    };
    debug_assert!(t.check_lengths());
    substitute_shared_existentials(&mut t, n_left);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;
    use proptest::prelude::*;

    /// Constraints of relations `[n] -> { [i, j] -> [k, l, m] }`: unit
    /// equalities giving an output alone or not (another output, a local,
    /// a second equality, an inequality or a division mentioning it),
    /// non-unit ones, existentials, divisions.
    const POOL: &[&str] = &[
        "k = i + 1",
        "l = j - n",
        "m = 2i",
        "k = -i + 3j",
        "l = k + i",
        "2m = i + j",
        "m = i + n",
        "exists e : l = 2e + i",
        "k = floor((i + j)/3)",
        "m = floor((i + l)/2)",
        "l <= i + n",
        "0 <= i <= 5",
        "j >= n - 3",
        "(i + m) mod 3 = 1",
        "k + m = j",
        "exists f : 3f <= i <= 3f + 2 and f >= j",
    ];

    fn relation(picks: &[usize]) -> Map {
        crate::testing::pooled_map(&POOL, picks, "[i, j] -> [k, l, m]")
    }

    /// The layouts of `domain` and `range` of `{ [i, j] -> [k, l, m] }`
    /// with one parameter, and one with the projected variables not in a
    /// block and not in order.
    fn layouts(m: &Map) -> Vec<(Space, Vec<Dest>, usize)> {
        let s = m.space();
        vec![
            (
                s.domain_space(),
                vec![
                    Dest::Var(0),
                    Dest::Var(1),
                    Dest::Var(2),
                    Dest::Exist(0),
                    Dest::Exist(1),
                    Dest::Exist(2),
                ],
                3,
            ),
            (
                s.range_space(),
                vec![
                    Dest::Var(0),
                    Dest::Exist(0),
                    Dest::Exist(1),
                    Dest::Var(1),
                    Dest::Var(2),
                    Dest::Var(3),
                ],
                2,
            ),
            (
                s.domain_space(),
                vec![
                    Dest::Var(0),
                    Dest::Exist(3),
                    Dest::Var(1),
                    Dest::Exist(1),
                    Dest::Var(2),
                    Dest::Exist(0),
                ],
                4,
            ),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

        /// Row for row the simple way (transform, then the substitution),
        /// with and without simplifying the operand first.
        #[test]
        fn one_pass_projection_is_transform_then_substitution(
            picks in prop::collection::vec(0..POOL.len(), 0..6),
            raw in any::<bool>(),
        ) {
            let m = relation(&picks);
            // the parsed rows, and the same simplified
            let mut parts: Vec<BasicMap> = m.basic_maps().to_vec();
            if !raw {
                parts.retain_mut(|b| b.simplify());
            }
            for b in &parts {
                for (space, dest, n_exist) in layouts(&m) {
                    let fast = project_part(b, &space, &dest, n_exist);
                    let mut slow = b.transform(space.clone(), &dest, n_exist);
                    substitute_shared_existentials(&mut slow, n_exist);
                    prop_assert!(fast.plain_is_equal(&slow), "{:?} {:?}\n{:?}\n{:?}", picks, dest, fast, slow);
                }
            }
        }
    }

    /// Hand-picked: a variable given alone, one mentioned by a second
    /// equality, one in an inequality, one in a division.
    #[test]
    fn given_alone_and_not() {
        for text in [
            "[n] -> { [i, j] -> [k, l, m] : k = i + 1 and l = j and m = n }",
            "[n] -> { [i, j] -> [k, l, m] : k = i + 1 and k = j and m = n and l <= i }",
            "[n] -> { [i, j] -> [k, l, m] : k = i + l and l = j + 1 and m >= 0 }",
            "[n] -> { [i, j] -> [k, l, m] : k = floor((i + l)/2) and l = 2j and m = -i }",
        ] {
            let m: Map = text.parse().unwrap();
            for b in m.basic_maps() {
                for (space, dest, n_exist) in layouts(&m) {
                    let fast = project_part(b, &space, &dest, n_exist);
                    let mut slow = b.transform(space.clone(), &dest, n_exist);
                    substitute_shared_existentials(&mut slow, n_exist);
                    assert!(
                        fast.plain_is_equal(&slow),
                        "{text} {dest:?}\n{fast:?}\n{slow:?}"
                    );
                }
            }
        }
    }
}
