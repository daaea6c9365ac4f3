//! Sums of floors of a summation variable in closed form (Euclid's
//! floor-sum reduction).
//!
//! `Σ_{x=0}^{N-1} floor((a·x + b)/m)` for constants `a`, `m > 0` and a
//! symbolic count `N >= 0` and offset `b` (affine expressions in the other
//! variables and divisions) is reduced exactly, as in Euclid's algorithm:
//!
//! * `a = q·m + a'` (`0 <= a' < m`) gives `q·N(N-1)/2` plus the sum with `a'`;
//! * `b = floor(b/m)·m + b'` (`0 <= b' < m`) gives `N·floor(b/m)` plus the
//!   sum with `b'`;
//! * with `0 <= a', b' < m` and `a' > 0`, counting the lattice points under
//!   the line the other way (the roles of `a` and `m` swapped) gives
//!   `Σ_{y=0}^{N'-1} floor((m·y + B)/a')` with `Y = a'·N + b'`,
//!   `N' = floor(Y/m)`, `B = Y - m·N'`;
//! * `a' = 0` ends it (`floor(b'/m) = 0`).
//!
//! Every step is an identity for all `N >= 0` (an empty sum gives zero on
//! both sides), so no case split is needed: the result is a quadratic
//! polynomial in `O(log m)` nested divisions, where splitting the variable
//! into `m` residue classes would give `m` pieces. Summing a variable out
//! of a summand linear in such divisions (with coefficients free of the
//! variable) uses this in every chamber; the oracle is enumeration (tests).

use super::piece::Builder;
use super::rat::Rat;
use crate::error::Result;
use crate::int::Int;

/// A sum of products of affine expressions (over a builder's columns).
pub(crate) type Products = Vec<(Rat, Vec<Vec<Int>>)>;

/// `Σ_i c_i·e_i` over the builder's current width.
fn combine(bld: &Builder, terms: &[(&Int, &[Int])], c: i64) -> Vec<Int> {
    let mut out = vec![Int::ZERO; bld.width()];
    out[0] = Int::from(c);
    for (k, e) in terms {
        for (o, v) in out.iter_mut().zip(e.iter()) {
            o.add_mul(k, v);
        }
    }
    out
}

/// `Σ_{x=0}^{n-1} floor((a·x + b)/m)` (valid when `n >= 0`) as products of
/// expressions of `bld`, whose divisions it extends; charged to the budget.
pub(crate) fn floor_sum(
    bld: &mut Builder,
    n: Vec<Int>,
    a: Int,
    b: Vec<Int>,
    m: Int,
) -> Result<Products> {
    debug_assert!(m.is_pos());
    let one = Int::ONE;
    let (mut n, mut a, mut b, mut m) = (n, a, b, m);
    let mut out: Products = Vec::new();
    loop {
        crate::budget::tick(1)?;
        let q = a.div_floor(&m);
        if !q.is_zero() {
            a = &a - &(&q * &m);
            // q·N(N-1)/2
            let n1 = combine(bld, &[(&one, &n)], -1);
            let n0 = combine(bld, &[(&one, &n)], 0);
            out.push((Rat::new(q, Int::from(2)).unwrap(), vec![n0, n1]));
        }
        let fb = bld.div(&b, &m);
        if fb.iter().any(|v| !v.is_zero()) {
            let n0 = combine(bld, &[(&one, &n)], 0);
            let neg_m = -&m;
            b = combine(bld, &[(&one, &b), (&neg_m, &fb)], 0);
            out.push((Rat::one(), vec![n0, fb]));
        }
        if a.is_zero() {
            return Ok(out);
        }
        // the points under the line counted by rows: Y = a·N + b
        let y = combine(bld, &[(&a, &n), (&one, &b)], 0);
        let n2 = bld.div(&y, &m);
        let neg_m = -&m;
        b = combine(bld, &[(&one, &y), (&neg_m, &n2)], 0);
        n = n2;
        std::mem::swap(&mut a, &mut m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of an expression at `x` (variables, then divisions in
    /// order, each evaluated from its definition).
    fn eval(bld: &Builder, vars: &[i64], e: &[Int]) -> Int {
        let mut cols: Vec<Int> = vars.iter().map(|&v| Int::from(v)).collect();
        for (num, den) in &bld.divs {
            let mut s = num[0].clone();
            for (c, v) in cols.iter().enumerate() {
                s.add_mul(&num[1 + c], v);
            }
            cols.push(s.div_floor(den));
        }
        let mut s = e[0].clone();
        for (c, v) in cols.iter().enumerate() {
            if let Some(k) = e.get(1 + c) {
                s.add_mul(k, v);
            }
        }
        s
    }

    #[test]
    fn floor_sums_match_direct_sums() {
        // two variables n, p: N = n, b = c0 + c1·p
        for (a, m, c0, c1) in [
            (69i64, 101i64, -2i64, 1i64),
            (-32, 101, 5, -3),
            (5, 3, 0, 0),
            (0, 7, 3, 2),
            (1, 1, 0, 1),
            (96, 61, -3, 81),
            (-85, 97, 4, -21),
            (13, 1024, 100, 7),
        ] {
            let mut bld = Builder::new(2);
            let n = bld.unit(1);
            let mut b = bld.unit(2);
            b[1] = Int::ZERO;
            b[2] = Int::from(c1);
            b[0] = Int::from(c0);
            let terms = floor_sum(&mut bld, n, Int::from(a), b, Int::from(m)).unwrap();
            for nv in 0..40i64 {
                for pv in -5..6i64 {
                    let want: i64 = (0..nv).map(|x| (a * x + c0 + c1 * pv).div_euclid(m)).sum();
                    let mut got = Rat::zero();
                    for (c, fs) in &terms {
                        let mut t = c.clone();
                        for f in fs {
                            t = t.mul(&Rat::from(eval(&bld, &[nv, pv], f)));
                        }
                        got = got.add(&t);
                    }
                    assert_eq!(got, Rat::from(Int::from(want)), "a {a} m {m} n {nv} p {pv}");
                }
            }
        }
    }
}
