//! The join of two basic maps with the shared variables that the first
//! operand's equalities give substituted while the rows are built (the
//! usual composition `S[i] -> A[i + 1]` then `A[a] -> T[..]`: the middle
//! `a` is `i + 1`, read off `S`'s equality).
//!
//! [`join_pair`](crate::join::join_pair) builds every row at full width
//! with a column per shared variable, and
//! [`substitute_shared_existentials`](crate::join::substitute_shared_existentials)
//! then eliminates the variables that a unit equality gives and cuts their
//! columns out of every row. Here a shared variable `m` that an equality of
//! the first operand gives as `m = f` (a unit coefficient on `m`, no other
//! shared variable and no local in it) has no column: each row's
//! coefficient on `m` is spread over `f`'s columns as the row is built, and
//! that equality is left out (it became `0 = 0`). The set is the same
//! (each substitution adds a multiple of an equality that holds on every
//! point); the variables left are then handled as before. The simple way,
//! `join_pair` then the substitution, is the oracle of the tests
//! (`Map::apply_range_reference`).

use crate::basic::{gather_row, BasicMap, Div, NO_SOURCE};
use crate::int::Int;
use crate::space::Space;
use crate::structural::Dest;

/// A shared variable given by an equality of the first operand: existential
/// `k`, equal to `value` (the non-zero entries of a row over that operand's
/// columns, without shared variables and locals), from equality `eq`.
pub(crate) struct Given {
    k: usize,
    eq: usize,
    value: Vec<(usize, Int)>,
}

/// The shared variables (`Dest::Exist(k)` of `dest`) that an equality of
/// `x` gives: one with a unit coefficient on that variable, no other shared
/// variable and no local of `x`; the first such equality per variable.
pub(crate) fn given(x: &BasicMap, dest: &[Dest], n_exist: usize) -> Vec<Given> {
    let off = x.off_div();
    let mut out: Vec<Given> = Vec::new();
    let shared = |c: usize| c >= 1 && c < off && matches!(dest[c - 1], Dest::Exist(_));
    for (i, r) in x.eqs.iter().enumerate() {
        if r[off..].iter().any(|v| !v.is_zero()) {
            continue;
        }
        let mut cols = (1..off).filter(|&c| shared(c) && !r[c].is_zero());
        let (Some(col), None) = (cols.next(), cols.next()) else {
            continue;
        };
        let Dest::Exist(k) = dest[col - 1] else {
            continue;
        };
        if !matches!(r[col], Int::Small(1 | -1)) || out.iter().any(|g| g.k == k) {
            continue;
        }
        // r[col]·m + rest = 0, r[col] = ±1: m = -r[col]·rest
        let s = -&r[col];
        let value = (0..off)
            .filter(|&c| c != col && !r[c].is_zero())
            .map(|c| (c, &s * &r[c]))
            .collect();
        out.push(Given { k, eq: i, value });
        if out.len() == n_exist {
            break;
        }
    }
    out
}

/// The join of `x` and `y` as [`join_pair`](crate::join::join_pair) builds
/// it, with the shared variables `given` (by `x`'s equalities, see
/// [`given`]) substituted: columns `[1 | vars of space | the other shared
/// variables, in order | x's locals | y's locals]`. Returns the basic map
/// and its number of shared existentials left.
pub(crate) fn join_pair_given(
    x: &BasicMap,
    y: &BasicMap,
    space: &Space,
    dx: &[Dest],
    dy: &[Dest],
    n_exist: usize,
    given: &[Given],
) -> (BasicMap, usize) {
    join_pair_given_by(x, y, space, dx, dy, n_exist, given, true)
}

/// [`join_pair_given`]; with `gather`, each row is read off its sources in
/// one pass (every new column but the given variables' has at most one old
/// column, when no two old columns meet) and the given variables' values
/// are added after; without, each row is a zero row that every old entry
/// is added into (the simple version, the oracle of the tests: the same
/// values, integer sums in another order).
#[allow(clippy::too_many_arguments)]
fn join_pair_given_by(
    x: &BasicMap,
    y: &BasicMap,
    space: &Space,
    dx: &[Dest],
    dy: &[Dest],
    n_exist: usize,
    given: &[Given],
    gather: bool,
) -> (BasicMap, usize) {
    let nv = space.n_vars();
    let (nx, ny) = (x.n_div(), y.n_div());
    // the new index of each shared variable left, None for a given one
    let mut left = vec![Some(0); n_exist];
    for g in given {
        left[g.k] = None;
    }
    let mut n_left = 0;
    for l in left.iter_mut().filter(|l| l.is_some()) {
        *l = Some(n_left);
        n_left += 1;
    }
    let first_local = 1 + nv + n_left;
    let new_len = first_local + nx + ny;
    const GIVEN: usize = usize::MAX;
    let columns = |dest: &[Dest], locals: std::ops::Range<usize>| -> Vec<usize> {
        let mut m = Vec::with_capacity(1 + dest.len() + locals.len());
        m.push(0);
        m.extend(dest.iter().map(|d| match *d {
            Dest::Var(k) => 1 + k,
            Dest::Exist(k) => left[k].map_or(GIVEN, |j| 1 + nv + j),
        }));
        m.extend(locals);
        m
    };
    let mx = columns(dx, first_local..first_local + nx);
    let my = columns(dy, first_local + nx..new_len);
    // the given value of each shared variable, by its index
    let mut value_of: Vec<Option<&[(usize, Int)]>> = vec![None; n_exist];
    for g in given {
        value_of[g.k] = Some(&g.value);
    }
    // the sources of the new columns (`NO_SOURCE` for none) and the given
    // columns of each operand, or `None` if two old columns meet
    let sources_of = |m: &[usize]| -> Option<(Vec<usize>, Vec<usize>)> {
        let mut src = vec![NO_SOURCE; new_len];
        let mut given_cols = Vec::new();
        for (c, &j) in m.iter().enumerate() {
            if j == GIVEN {
                given_cols.push(c);
            } else if src[j] != NO_SOURCE {
                return None;
            } else {
                src[j] = c;
            }
        }
        Some((src, given_cols))
    };
    let (sx, sy) = if gather {
        (sources_of(&mx), sources_of(&my))
    } else {
        (None, None)
    };
    type Sources = Option<(Vec<usize>, Vec<usize>)>;
    let build = |r: &[Int], m: &[usize], s: &Sources, dest: &[Dest]| -> Vec<Int> {
        if let Some((src, given_cols)) = s {
            let mut out = gather_row(r, src);
            for &c in given_cols {
                let v = &r[c];
                if v.is_zero() {
                    continue;
                }
                let Dest::Exist(k) = dest[c - 1] else {
                    unreachable!("only shared variables are given")
                };
                for (j, w) in value_of[k].expect("given") {
                    out[mx[*j]].add_mul(v, w);
                }
            }
            return out;
        }
        let mut out = vec![Int::ZERO; new_len];
        for (c, v) in r.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            if m[c] != GIVEN {
                let o = &mut out[m[c]];
                *o = if o.is_zero() { v.clone() } else { &*o + v };
                continue;
            }
            let Dest::Exist(k) = dest[c - 1] else {
                unreachable!("only shared variables are given")
            };
            // v·m with m = value: v·value, over x's columns
            for (j, w) in value_of[k].expect("given") {
                out[mx[*j]].add_mul(v, w);
            }
        }
        out
    };
    let div = |d: &Option<Div>, m: &[usize], s: &Sources, dest: &[Dest]| {
        d.as_ref().map(|d| Div {
            num: build(&d.num, m, s, dest),
            den: d.den.clone(),
        })
    };
    let mut divs = Vec::with_capacity(n_left + nx + ny);
    divs.resize(n_left, None);
    divs.extend(x.divs.iter().map(|d| div(d, &mx, &sx, dx)));
    divs.extend(y.divs.iter().map(|d| div(d, &my, &sy, dy)));
    let used = |i: usize| given.iter().any(|g| g.eq == i);
    let mut eqs = Vec::with_capacity(x.eqs.len() + y.eqs.len() - given.len());
    eqs.extend(
        x.eqs
            .iter()
            .enumerate()
            .filter(|(i, _)| !used(*i))
            .map(|(_, r)| build(r, &mx, &sx, dx)),
    );
    eqs.extend(y.eqs.iter().map(|r| build(r, &my, &sy, dy)));
    let mut ineqs = Vec::with_capacity(x.ineqs.len() + y.ineqs.len());
    ineqs.extend(x.ineqs.iter().map(|r| build(r, &mx, &sx, dx)));
    ineqs.extend(y.ineqs.iter().map(|r| build(r, &my, &sy, dy)));
    let z = BasicMap {
        space: space.clone(),
        divs: divs.into(),
        eqs: eqs.into(),
        ineqs: ineqs.into(),
        hint: Default::default(),
    };
    debug_assert!(z.check_lengths());
    (z, n_left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;
    use proptest::prelude::*;

    /// Pieces of `[n] -> { [i, j] -> [k, l] }` (the first operand: unit
    /// equalities giving the middle `k, l` or not, a big coefficient whose
    /// products leave 64 bits, divisions, existentials) and of
    /// `[n] -> { [k, l] -> [p] }`.
    const LEFT: &[&str] = &[
        "k = i + 1",
        "l = j - n",
        "k = 3000000000000000000i + j",
        "l = k + i",
        "2k = i + j",
        "exists e : l = 2e + i",
        "k = floor((i + j)/3)",
        "0 <= i <= 5",
        "k + l >= n",
    ];
    const RIGHT: &[&str] = &[
        "p = k + l",
        "p = 3000000000000000000k - 2",
        "0 <= p <= l",
        "exists f : k = 3f + p",
        "p = floor((k + n)/2)",
        "2p >= 3000000000000000000l",
    ];

    fn relation(pool: &[&str], picks: &[usize], tuples: &str) -> Map {
        let c: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
        let body = if c.is_empty() {
            "true".to_string()
        } else {
            c.join(" and ")
        };
        format!("[n] -> {{ {tuples} : {body} }}").parse().unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

        /// The rows read off their sources are the rows added up into
        /// zero rows, value for value (apply_range's layout: params, a's
        /// input, b's output; the middle `k, l` shared).
        #[test]
        fn gathered_rows_are_the_added_ones(
            l in prop::collection::vec(0..LEFT.len(), 0..5),
            r in prop::collection::vec(0..RIGHT.len(), 0..4),
        ) {
            let a = relation(LEFT, &l, "[i, j] -> [k, l]");
            let b = relation(RIGHT, &r, "[k, l] -> [p]");
            let space = a.apply_range(&b).unwrap().space().clone();
            let da = [Dest::Var(0), Dest::Var(1), Dest::Var(2), Dest::Exist(0), Dest::Exist(1)];
            let db = [Dest::Var(0), Dest::Exist(0), Dest::Exist(1), Dest::Var(3)];
            for x in a.basic_maps() {
                let g = given(x, &da, 2);
                for y in b.basic_maps() {
                    let (fast, nf) = join_pair_given_by(x, y, &space, &da, &db, 2, &g, true);
                    let (slow, ns) = join_pair_given_by(x, y, &space, &da, &db, 2, &g, false);
                    prop_assert_eq!(nf, ns);
                    prop_assert!(fast.divs == slow.divs
                        && fast.eqs.iter().eq(slow.eqs.iter())
                        && fast.ineqs.iter().eq(slow.ineqs.iter()),
                        "{:?} {:?}\n{:?}\n{:?}", l, r, fast, slow);
                }
            }
        }
    }
}
