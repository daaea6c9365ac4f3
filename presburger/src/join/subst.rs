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

use crate::basic::{BasicMap, Div};
use crate::int::Int;
use crate::rows::Rows;
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
///
/// With `skip_copies`, an inequality of `y` equal, once moved, to one built
/// before it is not added (the usual `y`'s bounds on the middle, which the
/// substitution turns into `x`'s own: `0 <= a < n` with `a = i`). The set
/// is the same, and so is what [`BasicMap::simplify`] makes of the basic
/// map: rows equal before simplification stay equal through every step
/// that precedes its first removal of duplicates (each changes rows one
/// by one, by their values: normalisation, elimination of equalities'
/// pivots), and that removal keeps one row per direction, at its first
/// place, with the tightest constant (so a later copy of a row changes
/// nothing). The tests compare both ways row for row after simplification.
pub(crate) fn join_pair_given(
    x: &BasicMap,
    y: &BasicMap,
    space: &Space,
    dx: &[Dest],
    dy: &[Dest],
    n_exist: usize,
    given: &[Given],
    skip_copies: bool,
) -> (BasicMap, usize) {
    let nv = space.n_vars();
    let (nx, ny) = (x.n_div(), y.n_div());
    // (`given` names distinct variables, see [`given`])
    let n_left = n_exist - given.len();
    let first_local = 1 + nv + n_left;
    let new_len = first_local + nx + ny;
    let lx = Layout {
        dest: dx,
        nv,
        locals: first_local,
        given,
    };
    let ly = Layout {
        dest: dy,
        nv,
        locals: first_local + nx,
        given,
    };
    // `r` moved into `out` (cleared first), each given variable's
    // coefficient spread over its value's columns (`x`'s, by `lx`)
    // `out` holds zeros
    let build_into = |out: &mut [Int], r: &[Int], l: &Layout| {
        for (c, v) in r.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            let Some(m) = l.column(c) else {
                // v·m with m = value: v·value, over x's columns
                for (j, w) in &l.value(c).value {
                    let j = lx.column(*j).expect("a value has no shared variable");
                    out[j].add_mul(v, w);
                }
                continue;
            };
            let o = &mut out[m];
            *o = if o.is_zero() { v.clone() } else { &*o + v };
        }
    };
    let build = |r: &[Int], l: &Layout| -> Vec<Int> {
        let mut out = vec![Int::ZERO; new_len];
        build_into(&mut out, r, l);
        out
    };
    let div = |d: &Option<Div>, l: &Layout| {
        d.as_ref().map(|d| Div {
            num: build(&d.num, l),
            den: d.den.clone(),
        })
    };
    let mut divs = Vec::with_capacity(n_left + nx + ny);
    divs.resize(n_left, None);
    divs.extend(x.divs.iter().map(|d| div(d, &lx)));
    divs.extend(y.divs.iter().map(|d| div(d, &ly)));
    let used = |i: usize| given.iter().any(|g| g.eq == i);
    let mut eqs = Rows::with_capacity(x.eqs.len() + y.eqs.len() - given.len(), new_len);
    let mut w = eqs.writer();
    for (_, r) in x.eqs.iter().enumerate().filter(|(i, _)| !used(*i)) {
        w.push_with(new_len, |o| build_into(o, r, &lx));
    }
    for r in y.eqs.iter() {
        w.push_with(new_len, |o| build_into(o, r, &ly));
    }
    let mut ineqs = Rows::with_capacity(x.ineqs.len() + y.ineqs.len(), new_len);
    let mut w = ineqs.writer();
    for r in x.ineqs.iter() {
        w.push_with(new_len, |o| build_into(o, r, &lx));
    }
    // `y`'s inequalities built in place, dropped again if a copy of an
    // earlier row (see `skip_copies` above)
    for r in y.ineqs.iter() {
        w.push_with(new_len, |o| build_into(o, r, &ly));
        let last = w.len() - 1;
        if skip_copies && (0..last).any(|i| w.row(i) == w.row(last)) {
            w.truncate(last);
        }
    }
    let z = BasicMap {
        space: space.clone(),
        divs: divs.into(),
        eqs,
        ineqs,
        hint: Default::default(),
    };
    debug_assert!(z.check_lengths());
    (z, n_left)
}

/// Where the columns of one operand go in [`join_pair_given`]'s layout.
struct Layout<'a> {
    /// Where the operand's variables go.
    dest: &'a [Dest],
    /// The number of variables of the joined space.
    nv: usize,
    /// The new column of the operand's first local.
    locals: usize,
    /// The shared variables given (distinct).
    given: &'a [Given],
}

impl Layout<'_> {
    /// The new column of old column `c`, `None` for a given shared
    /// variable: the shared variables left keep their order, after the
    /// variables of the space.
    fn column(&self, c: usize) -> Option<usize> {
        if c == 0 {
            return Some(0);
        }
        match self.dest.get(c - 1) {
            Some(Dest::Var(k)) => Some(1 + k),
            Some(&Dest::Exist(k)) => {
                if self.given.iter().any(|g| g.k == k) {
                    return None;
                }
                let before = self.given.iter().filter(|g| g.k < k).count();
                Some(1 + self.nv + k - before)
            }
            None => Some(self.locals + (c - 1 - self.dest.len())),
        }
    }

    /// The given variable of old column `c` (one [`column`](Self::column)
    /// calls given).
    fn value(&self, c: usize) -> &Given {
        let Dest::Exist(k) = self.dest[c - 1] else {
            unreachable!("only shared variables are given")
        };
        self.given
            .iter()
            .find(|g| g.k == k)
            .expect("a given variable")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;
    use proptest::prelude::*;

    /// Pieces of `{ [i, j] -> [k] }` (most give the middle `k`) and of
    /// `{ [k] -> [l] }` whose bounds on `k` become copies of the first's
    /// once `k` is substituted (`k >= 1` with `k = i + 1` is `i >= 0`).
    const LEFT: &[&str] = &[
        "k = i + 1",
        "k = j",
        "-k = 2i - n",
        "i >= 0",
        "j <= n",
        "i < n",
        "exists e : j = 2e",
        "k = floor((i + j)/3)",
        "2k = i",
    ];
    const RIGHT: &[&str] = &[
        "k >= 1",
        "k <= n",
        "k >= 0",
        "k <= n + 1",
        "l = k + 2",
        "0 <= l <= k",
        "exists f : l = 3f + k",
        "l = floor(k/2)",
        "k >= 1",
    ];

    fn text(pool: &[&str], picks: &[usize]) -> String {
        let c: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
        if c.is_empty() {
            "true".to_string()
        } else {
            c.join(" and ")
        }
    }

    /// Every pair of `a`'s and `b`'s parts joined with and without leaving
    /// out the copies, substituted and simplified: the same rows (and the
    /// same set before simplification); returns how many rows were left out.
    fn compare(a: &Map, b: &Map) -> usize {
        let c = a.apply_range_reference(b).unwrap();
        let space = c.space().clone();
        let da = [Dest::Var(0), Dest::Var(1), Dest::Var(2), Dest::Exist(0)];
        let db = [Dest::Var(0), Dest::Exist(0), Dest::Var(3)];
        let mut skipped = 0;
        for x in a.basic_maps() {
            let g = given(x, &da, 1);
            if g.is_empty() {
                continue;
            }
            for y in b.basic_maps() {
                let (mut fast, nf) = join_pair_given(x, y, &space, &da, &db, 1, &g, true);
                let (mut slow, ns) = join_pair_given(x, y, &space, &da, &db, 1, &g, false);
                assert_eq!(nf, ns);
                assert!(fast.check_lengths());
                skipped += slow.ineqs.len() - fast.ineqs.len();
                let one = |b: &BasicMap| Map::new(space.clone(), vec![b.clone()]);
                assert!(one(&fast).is_equal(&one(&slow)).unwrap(), "{a} then {b}");
                crate::join::substitute_shared_existentials(&mut fast, nf);
                crate::join::substitute_shared_existentials(&mut slow, ns);
                let (kf, ks) = (fast.simplify(), slow.simplify());
                assert_eq!(kf, ks, "{a} then {b}");
                assert!(
                    fast.plain_is_equal(&slow),
                    "{a} then {b}\n{fast:?}\n{slow:?}"
                );
            }
        }
        skipped
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

        /// Leaving out the inequalities that became copies changes nothing
        /// that simplification makes of a joined pair, row for row.
        #[test]
        fn copies_left_out_change_no_simplified_row(
            l in prop::collection::vec(prop::collection::vec(0..LEFT.len(), 0..5), 1..3),
            r in prop::collection::vec(prop::collection::vec(0..RIGHT.len(), 0..4), 1..3),
        ) {
            let parts = |pool: &[&str], picks: &[Vec<usize>], s: &str| -> String {
                picks.iter().map(|p| format!("{s} : {}", text(pool, p))).collect::<Vec<_>>().join("; ")
            };
            let a: Map = format!("[n] -> {{ {} }}", parts(LEFT, &l, "[i, j] -> [k]")).parse().unwrap();
            let b: Map = format!("[n] -> {{ {} }}", parts(RIGHT, &r, "[k] -> [l]")).parse().unwrap();
            compare(&a, &b);
        }
    }

    /// Copies are left out where expected (so that the comparison above
    /// compares something).
    #[test]
    fn copies_are_left_out() {
        let a: Map = "[n] -> { [i, j] -> [k] : k = i + 1 and i >= 0 and i < n }"
            .parse()
            .unwrap();
        let b: Map = "[n] -> { [k] -> [l] : k >= 1 and k <= n and l = k + 2 }"
            .parse()
            .unwrap();
        assert_eq!(compare(&a, &b), 2);
    }
}
