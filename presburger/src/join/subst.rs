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
    let build = |r: &[Int], m: &[usize], dest: &[Dest]| -> Vec<Int> {
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
    let div = |d: &Option<Div>, m: &[usize], dest: &[Dest]| {
        d.as_ref().map(|d| Div {
            num: build(&d.num, m, dest),
            den: d.den.clone(),
        })
    };
    let mut divs = Vec::with_capacity(n_left + nx + ny);
    divs.resize(n_left, None);
    divs.extend(x.divs.iter().map(|d| div(d, &mx, dx)));
    divs.extend(y.divs.iter().map(|d| div(d, &my, dy)));
    let used = |i: usize| given.iter().any(|g| g.eq == i);
    let mut eqs = Vec::with_capacity(x.eqs.len() + y.eqs.len() - given.len());
    eqs.extend(
        x.eqs
            .iter()
            .enumerate()
            .filter(|(i, _)| !used(*i))
            .map(|(_, r)| build(r, &mx, dx)),
    );
    eqs.extend(y.eqs.iter().map(|r| build(r, &my, dy)));
    let mut ineqs = Vec::with_capacity(x.ineqs.len() + y.ineqs.len());
    ineqs.extend(x.ineqs.iter().map(|r| build(r, &mx, dx)));
    ineqs.extend(y.ineqs.iter().map(|r| build(r, &my, dy)));
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
