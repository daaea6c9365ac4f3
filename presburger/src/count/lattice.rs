//! Changes of summation variables that keep residue periods small.
//!
//! * *Equality compression.* An equality `a·x_S + e = 0` over summation
//!   variables `x_S` (and kept variables and divisions free of `x_S` in
//!   `e`) is solved by a unimodular change of coordinates `x_S = U·z` with
//!   `a·U = (0, .., 0, g)`, `g = gcd(a)` (column operations of Euclid's
//!   algorithm, i.e. a Hermite normal form of the row): the last new
//!   variable is then `z = -e / g`, one value, and the equality becomes the
//!   condition that `g` divides `e`. A unimodular map is a bijection of the
//!   integer points, so the sum is unchanged; a large coefficient no longer
//!   means many residue classes. The kernel columns of `U` are LLL-reduced
//!   and the particular solution reduced modulo them (module `reduce`), so
//!   the rows in `z` have small coefficients.
//! * *Narrow strides.* A pair of rows `0 <= f - m·e <= k` of small width
//!   `k` with a large coefficient (an existential stride) is split into the
//!   `k + 1` equalities `f - m·e = i`, which the compression solves; lifting
//!   the division of period `m` instead multiplies the pieces.
//! * *Lifting divisions.* A division `q = floor(f / m)` that depends on the
//!   variable to sum becomes a summation variable of its own, with the
//!   rows `0 <= f - m·q <= m - 1`: the points with `q` are in bijection
//!   with those without, and the variable under the division is summed
//!   next without splitting it into `m` residue classes.

use super::piece::{Builder, Piece};
use crate::error::Result;
use crate::int::Int;

/// For each division of `p`, the variables it depends on (directly or
/// through earlier divisions).
pub(crate) fn div_dependences(p: &Piece) -> Vec<Vec<bool>> {
    let off = 1 + p.n_var;
    let mut deps: Vec<Vec<bool>> = Vec::with_capacity(p.divs.len());
    for (num, _) in &p.divs {
        let mut d: Vec<bool> = (0..p.n_var).map(|v| !num[1 + v].is_zero()).collect();
        for (j, dj) in deps.iter().enumerate() {
            if !num[off + j].is_zero() {
                for (a, b) in d.iter_mut().zip(dj) {
                    *a |= *b;
                }
            }
        }
        deps.push(d);
    }
    deps
}

/// A unimodular matrix `U` (rows and columns indexed like `a`) with
/// `a·U = (0, .., 0, g)`, `g > 0` the gcd of `a` (not all zero).
pub(crate) fn hermite_column(a: &[Int]) -> (Vec<Vec<Int>>, Int) {
    let s = a.len();
    let mut a = a.to_vec();
    let mut u: Vec<Vec<Int>> = (0..s)
        .map(|r| (0..s).map(|c| Int::from(i64::from(r == c))).collect())
        .collect();
    loop {
        let nz: Vec<usize> = (0..s).filter(|&k| !a[k].is_zero()).collect();
        if nz.len() <= 1 {
            break;
        }
        let p = *nz.iter().min_by_key(|&&k| a[k].abs()).unwrap();
        for &j in &nz {
            if j == p {
                continue;
            }
            let q = a[j].div_floor(&a[p]);
            a[j] = &a[j] - &(&q * &a[p]);
            for row in u.iter_mut() {
                row[j] = &row[j] - &(&q * &row[p]);
            }
        }
    }
    let p = (0..s).find(|&k| !a[k].is_zero()).expect("a non-zero row");
    a.swap(p, s - 1);
    for row in u.iter_mut() {
        row.swap(p, s - 1);
    }
    if a[s - 1].is_neg() {
        a[s - 1] = -&a[s - 1];
        for row in u.iter_mut() {
            row[s - 1] = -&row[s - 1];
        }
    }
    (u, a.pop().unwrap())
}

/// `u` (from [`hermite_column`]) with its kernel columns (all but the
/// last) replaced by an LLL-reduced basis of the same lattice and its last
/// column by a short representative modulo that lattice: still unimodular
/// with the same row image `(0, .., 0, g)`, and the rows in the new
/// variables have small coefficients (see `reduce`).
fn reduced(u: Vec<Vec<Int>>) -> Result<Vec<Vec<Int>>> {
    let s = u.len();
    let mut cols: Vec<Vec<Int>> = (0..s)
        .map(|c| u.iter().map(|r| r[c].clone()).collect())
        .collect();
    let mut last = cols.pop().expect("a non-empty row");
    super::reduce::lll(&mut cols)?;
    super::reduce::size_reduce(&mut last, &cols);
    cols.push(last);
    Ok((0..s)
        .map(|r| cols.iter().map(|c| c[r].clone()).collect())
        .collect())
}

/// An equality of `p` over the summation variables (from `n_keep`) with a
/// coefficient above 16 there (units beside it included), whose divisions
/// do not depend on them: its index and those variables.
fn compressible(p: &Piece, n_keep: usize, choice: &Choice) -> Option<(usize, Vec<usize>)> {
    let deps = div_dependences(p);
    let off = 1 + p.n_var;
    p.eqs.iter().enumerate().find_map(|(i, r)| {
        let s: Vec<usize> = (n_keep..p.n_var).filter(|&v| !r[1 + v].is_zero()).collect();
        // a small coefficient is solved directly, its divisibility condition
        // split into few residue classes (see `eliminate`): the change of
        // variables would skew the other rows
        let small = Int::from(super::eliminate::LARGE_PERIOD as i64);
        // (no upper limit: the reduced basis keeps the rows' numbers small,
        // a coefficient above 65536 included)
        if s.is_empty() || s.iter().all(|&v| r[1 + v].abs() <= small) {
            return None;
        }
        // a unit coefficient on a variable with bounds of its own (a box
        // side `0 <= k < n`, free of the other summation variables) is
        // solved directly: its bounds become bounds of the congruence's
        // quotient, summed without chambers, and the other variables keep
        // their box, which the compression would skew
        let own_bounds = |v: usize| own_bounds(p, v, n_keep);
        // a two-dimensional congruence one of whose box sides has a unit
        // coefficient (given by `unit_congruence`) is solved directly, its
        // other side then summed by residue classes or Euclid's floor sums,
        // or compressed: which answer is shorter depends on the lattice and
        // the box (`(5i - 3j) mod 101`: no short lattice vector has a unit
        // coordinate, the compression is a slanted polytope with ~1500
        // pieces; `(i + 98j + n) mod 100` compressed is `i = 2a, j = a +
        // 50b`, 491 characters, 4219 solved directly), so the count is made
        // both ways (see `Choice`)
        // a congruence over three or more box sides one of which has (or
        // is given by `unit_congruence`) a unit coefficient is solved
        // directly, its quotient summed without chambers, one side by
        // Euclid's floor sums and the last by residue classes (see
        // `Choice`): its compression is a slanted parallelepiped whose
        // summation splits into chambers and residue classes of every
        // side, `O(c^2)` terms for a modulus `c`
        if let Some((sides, _)) = box_congruence(p, i, n_keep) {
            if sides.iter().any(|&v| r[1 + v].abs().is_one()) {
                choice.seen.set(true);
                if !choice.compress {
                    return None;
                }
            }
        }
        if let Some(two) = two_dim_congruence(p, i, n_keep) {
            if two
                .sides
                .iter()
                .any(|&v| r[1 + v].abs().is_one() && own_bounds(v))
            {
                choice.seen.set(true);
                if !choice.compress {
                    return None;
                }
            }
            let free = deps
                .iter()
                .enumerate()
                .all(|(k, d)| r[off + k].is_zero() || s.iter().all(|&v| !d[v]));
            return free.then_some((i, s));
        }
        // (when the congruence has a parameter or three dimensions, whose
        // compression skews every row, and the periods this leaves are
        // split into residue classes, not lifted: `(i + 3j) mod 100` or
        // `(i - 2j) mod 100` alone compress into shorter answers)
        let skews = s.len() >= 4 || r[1..1 + n_keep].iter().any(|c| !c.is_zero());
        let quotient = s.iter().copied().find(|&e| {
            p.ineqs.iter().all(|q| q[1 + e].is_zero())
                && p.eqs.iter().filter(|q| !q[1 + e].is_zero()).count() == 1
        });
        let short_periods = |v: usize| {
            quotient.is_some_and(|e| {
                let c = r[1 + e].abs();
                s.iter().filter(|&&u| u != v && u != e).all(|&u| {
                    let per = c.div_exact(&c.gcd(&r[1 + u]));
                    per <= Int::from(super::eliminate::MAX_PERIOD)
                })
            })
        };
        if skews
            && s.iter()
                .any(|&v| r[1 + v].abs().is_one() && own_bounds(v) && short_periods(v))
        {
            return None;
        }
        let free = deps
            .iter()
            .enumerate()
            .all(|(k, d)| r[off + k].is_zero() || s.iter().all(|&v| !d[v]));
        free.then_some((i, s))
    })
}

/// A choice between two exact methods that a count makes both ways,
/// keeping the shorter answer: a two-dimensional congruence of modulus
/// above 16 with a box side whose coefficient is (or is made, by a modular
/// inverse) a unit is solved directly (`compress` false, the first way:
/// cheap in two dimensions) or compressed.
#[derive(Debug, Default)]
pub(crate) struct Choice {
    /// Compress such congruences.
    pub(crate) compress: bool,
    /// Whether a summation met such a congruence.
    pub(crate) seen: std::cell::Cell<bool>,
}

/// Whether summation variable `v` has bounds of its own: every row with
/// `v` is free of the other summation variables (a box side `0 <= k < n`),
/// and no division depends on it.
fn own_bounds(p: &Piece, v: usize, n_keep: usize) -> bool {
    p.ineqs
        .iter()
        .all(|q| q[1 + v].is_zero() || (n_keep..p.n_var).all(|u| u == v || q[1 + u].is_zero()))
        && p.divs.iter().all(|(num, _)| num[1 + v].is_zero())
}

/// Summation variable `e` occurs in equality `i` only (the quotient of a
/// `mod`): in no other row, division or summand term.
fn alone(p: &Piece, i: usize, e: usize) -> bool {
    p.ineqs.iter().all(|r| r[1 + e].is_zero())
        && p.eqs
            .iter()
            .enumerate()
            .all(|(k, r)| k == i || r[1 + e].is_zero())
        && p.divs.iter().all(|(num, _)| num[1 + e].is_zero())
        && p.poly.terms.keys().all(|x| x[e] == 0)
}

/// A congruence `a·x + b·y + .. = c·e` over two summation variables (and
/// kept variables) with its quotient `e` and `|c| > 16`.
struct TwoDim {
    /// The two variables `x`, `y`.
    sides: [usize; 2],
    /// The quotient `e`.
    quotient: usize,
}

/// The summation variables of congruence `i` other than its quotient, and
/// the quotient `e` (the variable of largest coefficient `|c| > 16` that
/// occurs in no other row), when the row has `ok(n)` summation variables.
fn large_quotient(
    p: &Piece,
    i: usize,
    n_keep: usize,
    ok: impl Fn(usize) -> bool,
) -> Option<(Vec<usize>, usize)> {
    let r = &p.eqs[i];
    let s: Vec<usize> = (n_keep..p.n_var).filter(|&v| !r[1 + v].is_zero()).collect();
    if !ok(s.len()) {
        return None;
    }
    let e = *s
        .iter()
        .filter(|&&v| alone(p, i, v))
        .max_by_key(|&&v| r[1 + v].abs())?;
    if r[1 + e].abs() <= Int::from(super::eliminate::LARGE_PERIOD as i64) {
        return None;
    }
    Some((s.into_iter().filter(|&v| v != e).collect(), e))
}

fn two_dim_congruence(p: &Piece, i: usize, n_keep: usize) -> Option<TwoDim> {
    let (sides, e) = large_quotient(p, i, n_keep, |n| n == 3)?;
    Some(TwoDim {
        sides: [sides[0], sides[1]],
        quotient: e,
    })
}

/// The box sides of a congruence `a·x + .. = c·e` over three or more
/// summation variables `x` each with bounds of its own (see `own_bounds`),
/// with its quotient `e` (`|c| > 16`, in no other row).
fn box_congruence(p: &Piece, i: usize, n_keep: usize) -> Option<(Vec<usize>, usize)> {
    let (sides, e) = large_quotient(p, i, n_keep, |n| n >= 4)?;
    sides
        .iter()
        .all(|&v| own_bounds(p, v, n_keep))
        .then_some((sides, e))
}

/// `p` with a two-dimensional congruence (see `compressible`) without a
/// unit coefficient multiplied by the inverse, modulo `c`, of a box side's
/// coefficient, so that side has a unit coefficient and is solved
/// directly: `(5i - 3j) mod 101` is `(-32i + j) mod 101` (`3·34 ≡ 1`), a
/// bijection since the quotient occurs nowhere else. Not when `choice`
/// compresses. `true` if a row changed.
pub(crate) fn unit_congruence(p: &mut Piece, n_keep: usize, choice: &Choice) -> bool {
    for i in 0..p.eqs.len() {
        let Some(two) = two_dim_congruence(p, i, n_keep) else {
            continue;
        };
        let r = &p.eqs[i];
        if two.sides.iter().any(|&v| r[1 + v].abs().is_one()) {
            continue;
        }
        let e = two.quotient;
        let c = r[1 + e].abs();
        let Some(v) = two
            .sides
            .iter()
            .copied()
            .filter(|&v| own_bounds(p, v, n_keep) && r[1 + v].gcd(&c).is_one())
            .min_by_key(|&v| (r[1 + v].abs(), v))
        else {
            continue;
        };
        choice.seen.set(true);
        if choice.compress {
            continue;
        }
        let Some(inv) = inverse_mod(&r[1 + v], &c) else {
            continue;
        };
        p.eqs[i] = times_inverse(r, e, &inv, &c);
        return true;
    }
    for i in 0..p.eqs.len() {
        if let Some(b) = box_congruence(p, i, n_keep) {
            if unit_side(p, i, &b, choice) {
                return true;
            }
        }
    }
    false
}

/// Congruence `i` over the box `sides` multiplied by the inverse, modulo
/// its quotient's coefficient `c`, of the smallest side coefficient prime
/// to `c`, so that side has a unit coefficient (a bijection: the quotient
/// occurs nowhere else). Not when `choice` compresses, nor when a side has
/// a unit coefficient already. `true` if the row changed.
fn unit_side(p: &mut Piece, i: usize, (sides, e): &(Vec<usize>, usize), choice: &Choice) -> bool {
    let e = *e;
    let r = &p.eqs[i];
    if sides.iter().any(|&v| r[1 + v].abs().is_one()) {
        return false;
    }
    let c = r[1 + e].abs();
    let Some(v) = sides
        .iter()
        .copied()
        .filter(|&v| r[1 + v].gcd(&c).is_one())
        .min_by_key(|&v| (r[1 + v].abs(), v))
    else {
        return false;
    };
    choice.seen.set(true);
    if choice.compress {
        return false;
    }
    let Some(inv) = inverse_mod(&r[1 + v], &c) else {
        return false;
    };
    p.eqs[i] = times_inverse(r, e, &inv, &c);
    true
}

/// Congruence row `r` (quotient column `1 + e`, coefficient `±c`)
/// multiplied by `inv` modulo `c`: every other entry replaced by the
/// representative of `inv·x` in `[-c/2, c/2)`, the quotient's kept.
fn times_inverse(r: &[Int], e: usize, inv: &Int, c: &Int) -> Vec<Int> {
    let half = c.div_floor(&Int::from(2));
    r.iter()
        .enumerate()
        .map(|(col, x)| {
            if col == 1 + e {
                x.clone()
            } else {
                &(&(inv * x) + &half).mod_floor(c) - &half
            }
        })
        .collect()
}

/// The inverse of `a` modulo `m > 1` in `[0, m)`, if `gcd(a, m) = 1`.
fn inverse_mod(a: &Int, m: &Int) -> Option<Int> {
    // extended Euclid on (a mod m, m)
    let (mut r0, mut r1) = (a.mod_floor(m), m.clone());
    let (mut s0, mut s1) = (Int::ONE, Int::ZERO);
    while !r1.is_zero() {
        let q = r0.div_floor(&r1);
        let r2 = &r0 - &(&q * &r1);
        let s2 = &s0 - &(&q * &s1);
        (r0, r1) = (r1, r2);
        (s0, s1) = (s1, s2);
    }
    r0.is_one().then(|| s0.mod_floor(m))
}

/// `p` with one equality over its summation variables solved by a
/// unimodular change of those variables (one variable fewer); `None` if no
/// equality qualifies. The result is `Some(None)` for an empty piece.
pub(crate) fn compress_equality(
    p: &Piece,
    n_keep: usize,
    choice: &Choice,
) -> Result<Option<Option<Piece>>> {
    let Some((i, s)) = compressible(p, n_keep, choice) else {
        return Ok(None);
    };
    crate::budget::tick(1)?;
    let row = &p.eqs[i];
    let a: Vec<Int> = s.iter().map(|&v| row[1 + v].clone()).collect();
    let (u, g) = hermite_column(&a);
    let u = reduced(u)?;
    let gone = *s.last().unwrap();
    let new_index = |v: usize| if v < gone { v } else { v - 1 };
    let deps = div_dependences(p);
    let in_s = |v: usize| s.contains(&v);
    let mut b = Builder::new(p.n_var - 1);
    let nv = p.n_var;
    let mut images: Vec<Vec<Int>> = vec![Vec::new(); nv + p.divs.len()];
    for v in (0..nv).filter(|&v| !in_s(v)) {
        images[v] = b.unit(1 + new_index(v));
    }
    // divisions free of the compressed variables keep their meaning
    let dependent: Vec<bool> = deps.iter().map(|d| s.iter().any(|&v| d[v])).collect();
    for (k, (num, den)) in p.divs.iter().enumerate() {
        if !dependent[k] {
            let e = b.subst(num, &images);
            images[nv + k] = b.div(&e, den);
        }
    }
    // g·z + rest = 0
    let mut rest = row.clone();
    for &v in &s {
        rest[1 + v] = Int::ZERO;
    }
    let neg: Vec<Int> = b.subst(&rest, &images).iter().map(|v| -v).collect();
    let z_last = if g.is_one() { neg } else { b.div(&neg, &g) };
    // x_S = K·z + u_last·z_last, where z_last is an integer combination of
    // columns (constant, kept variables, divisions): each column's vector
    // `u_last·c` is reduced modulo the kernel lattice on its own (a shift
    // of `z` by an integer multiple of that column, a bijection), so a
    // parameter's coefficients stay small too
    let ns = s.len();
    let kernel: Vec<Vec<Int>> = (0..ns - 1)
        .map(|c| (0..ns).map(|r| u[r][c].clone()).collect())
        .collect();
    let mut part = vec![vec![Int::ZERO; b.width()]; ns];
    for (col, x) in z_last.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        let mut v: Vec<Int> = (0..ns).map(|r| &u[r][ns - 1] * x).collect();
        super::reduce::size_reduce(&mut v, &kernel);
        for (r, y) in v.into_iter().enumerate() {
            part[r][col] = y;
        }
    }
    for (r, &v) in s.iter().enumerate() {
        let mut e = std::mem::take(&mut part[r]);
        for (c, &w) in s[..ns - 1].iter().enumerate() {
            let col = 1 + new_index(w);
            e[col] = &e[col] + &u[r][c];
        }
        images[v] = e;
    }
    for (k, (num, den)) in p.divs.iter().enumerate() {
        if dependent[k] {
            let e = b.subst(num, &images);
            images[nv + k] = b.div(&e, den);
        }
    }
    let mut out = Vec::new();
    super::eliminate::finish_with(p, b, &images, None, &mut out)?;
    Ok(Some(out.pop()))
}

/// `p` with an equality that is a congruence in disguise made small: a
/// summation variable `e` that occurs in one equality only (a `mod`'s
/// quotient), with the smallest coefficient `c` there, absorbs the other
/// coefficients' multiples of `c` (`e := e - Σ q_v·x_v`, a unimodular
/// change of variables that touches no other row), so `(3i + 83j - 66k)
/// mod 7` becomes `(3i - j + 4k) mod 7` and is solved directly instead of
/// being compressed as a large coefficient. `true` if a coefficient shrank.
pub(crate) fn reduce_congruence(p: &mut Piece, n_keep: usize) -> bool {
    let off = 1 + p.n_var;
    let mut changed = false;
    for i in 0..p.eqs.len() {
        let row = &p.eqs[i];
        let alone = |v: usize| {
            p.ineqs.iter().all(|r| r[1 + v].is_zero())
                && p.eqs
                    .iter()
                    .enumerate()
                    .all(|(k, r)| k == i || r[1 + v].is_zero())
                && p.divs.iter().all(|(num, _)| num[1 + v].is_zero())
                && p.poly.terms.keys().all(|x| x[v] == 0)
        };
        let Some(e) = (n_keep..p.n_var)
            .filter(|&v| !row[1 + v].is_zero() && alone(v))
            .min_by_key(|&v| row[1 + v].abs())
        else {
            continue;
        };
        let c = row[1 + e].abs();
        if c.is_one() {
            continue;
        }
        let half = c.div_floor(&Int::from(2));
        let mut row = row.clone();
        // every column but `e`'s: the constant, variables and divisions
        // (a multiple of `c` on any of them moves into `e`)
        for col in (0..off + p.divs.len()).filter(|&col| col != 1 + e) {
            // the representative in [-c/2, c/2)
            let r = &(&row[col] + &half).mod_floor(&c) - &half;
            if r.abs() < row[col].abs() {
                row[col] = r;
                changed = true;
            }
        }
        p.eqs[i] = row;
    }
    changed
}

/// The widest pair of opposite inequalities `0 <= r <= k` that is split
/// into the equalities `r = 0, .., r = k`.
const MAX_NARROW: i64 = 7;

/// `p` split into the pieces `r = i` (`i = 0 .. k`) for a pair of opposite
/// inequalities `0 <= r <= k` of small width `k` (an existential stride's
/// `0 <= f - m·e <= k`) whose row has a large coefficient on a summation
/// variable: each piece has an equality that [`compress_equality`] solves
/// without residue classes. `None` if no pair qualifies.
pub(crate) fn split_narrow(p: &Piece, n_keep: usize) -> Result<Option<Vec<Piece>>> {
    let large = Int::from(super::eliminate::LARGE_PERIOD as i64);
    let found = p.ineqs.iter().enumerate().find_map(|(i, r)| {
        let coefs = &r[1 + n_keep..1 + p.n_var];
        if !coefs.iter().any(|a| a.abs() > large) {
            return None;
        }
        p.ineqs.iter().enumerate().find_map(|(j, o)| {
            let opposite = o[1..].iter().zip(&r[1..]).all(|(x, y)| *x == -y);
            let k = &r[0] + &o[0];
            (opposite && !k.is_neg() && k <= Int::from(MAX_NARROW)).then(|| (i, j, k))
        })
    });
    let Some((i, j, k)) = found else {
        return Ok(None);
    };
    let k = k.to_i64().expect("a width up to MAX_NARROW");
    let mut out = Vec::new();
    for v in 0..=k {
        crate::budget::tick(1)?;
        let mut q = p.clone();
        let mut eq = p.ineqs[i].clone();
        eq[0] = &eq[0] - &Int::from(v);
        q.ineqs = p
            .ineqs
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != i && t != j)
            .map(|(_, r)| r.clone())
            .collect();
        q.eqs.push(eq);
        if q.tidy()? {
            out.push(q);
        }
    }
    Ok(Some(out))
}

/// `p` with the divisions that depend on variable `w` made variables
/// (after the others, in division order), each bounded by its definition.
pub(crate) fn lift_divisions(p: &Piece, w: usize) -> Result<Option<Piece>> {
    crate::budget::tick(1)?;
    let deps = div_dependences(p);
    let lifted: Vec<usize> = (0..p.divs.len()).filter(|&k| deps[k][w]).collect();
    let nv = p.n_var;
    let mut b = Builder::new(nv + lifted.len());
    let mut images: Vec<Vec<Int>> = (0..nv).map(|v| b.unit(1 + v)).collect();
    for (k, (num, den)) in p.divs.iter().enumerate() {
        let e = b.subst(num, &images);
        match lifted.iter().position(|&l| l == k) {
            Some(t) => {
                let q = b.unit(1 + nv + t);
                // 0 <= e - den·q <= den - 1
                let mut lo = e.clone();
                lo.resize(b.width(), Int::ZERO);
                for (x, y) in lo.iter_mut().zip(&q) {
                    *x = &*x - &(den * y);
                }
                let mut hi: Vec<Int> = lo.iter().map(|v| -v).collect();
                hi[0] = &hi[0] + &(den - &Int::ONE);
                b.add_ineq(lo);
                b.add_ineq(hi);
                images.push(q);
            }
            None => {
                let img = b.div(&e, den);
                images.push(img);
            }
        }
    }
    let mut out = Vec::new();
    super::eliminate::finish_with(p, b, &images, None, &mut out)?;
    Ok(out.pop())
}

#[cfg(test)]
mod tests {
    use super::super::rat::Rat;
    use super::*;

    /// The determinant by Gaussian elimination over the rationals.
    fn det(m: &[Vec<Int>]) -> Rat {
        let n = m.len();
        let mut a: Vec<Vec<Rat>> = m
            .iter()
            .map(|r| r.iter().map(|x| Rat::from(x.clone())).collect())
            .collect();
        let mut d = Rat::one();
        for c in 0..n {
            let Some(p) = (c..n).find(|&r| !a[r][c].is_zero()) else {
                return Rat::zero();
            };
            if p != c {
                a.swap(p, c);
                d = d.neg();
            }
            d = d.mul(&a[c][c]);
            for r in c + 1..n {
                let f = a[r][c].div(&a[c][c]).unwrap();
                for k in c..n {
                    let v = a[r][k].sub(&f.mul(&a[c][k]));
                    a[r][k] = v;
                }
            }
        }
        d
    }

    #[test]
    fn hermite_column_is_unimodular_and_reduces_the_row() {
        for a in [
            vec![3i64, -97],
            vec![100, 1],
            vec![6, 10, 15],
            vec![0, -4],
            vec![1024],
        ] {
            let ai: Vec<Int> = a.iter().map(|&x| Int::from(x)).collect();
            let (u, g) = hermite_column(&ai);
            let s = a.len();
            for c in 0..s {
                let mut v = Int::ZERO;
                for r in 0..s {
                    v.add_mul(&ai[r], &u[r][c]);
                }
                let want = if c + 1 == s { g.clone() } else { Int::ZERO };
                assert_eq!(v, want, "{a:?}");
            }
            let g0 = ai.iter().fold(Int::ZERO, |x, y| x.gcd(y));
            assert_eq!(g, g0);
            // |det U| = 1 (fraction-free elimination over the rationals)
            let d = det(&u);
            assert!(d == Rat::one() || d == Rat::from(-1), "{a:?}: det {d:?}");
        }
    }
}
