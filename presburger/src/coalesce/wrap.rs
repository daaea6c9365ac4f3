//! Wrapping a row of one disjunct around another of its rows so that it
//! holds on a second disjunct (the *wrapping* of integer set coalescing).
//!
//! For a row `r ≥ 0` of `x` that does not hold on `y` and another row
//! `s ≥ 0` of `x`, the rows `r + λ·s` (`λ ≥ 0`) all hold on `x`; they turn
//! around the ridge `r = s = 0`. The smallest `λ` for which `r + λ·s ≥ 0`
//! holds on the rational relaxation of `y` is the largest ratio `-r/s`
//! over `y` where `r < 0`, a linear-fractional program solved by
//! Dinkelbach's iteration: minimise `r + λ·s` over `y`; at a negative
//! minimum with the minimiser `p`, `λ := -r(p)/s(p)` (which grows), until
//! the minimum is `≥ 0`. At each step the minimiser is a vertex of `y`'s
//! relaxation and the ratio grows strictly, so it ends; it gives up when
//! `s(p) ≤ 0` (no `λ` helps at `p`), when unbounded, or after a few steps.
//! E.g. `o2 ≤ j` on `o1 = i, j - 1 ≤ o2 ≤ j` wrapped around `o1 ≤ i` over
//! `o1 = i - 1, j - 1 ≤ o2 ≤ j + 1` gives `o2 ≤ i + j - o1`.

use super::as_ineqs;
use super::fuse::Cut;
use super::part::Part;
use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;

/// At most this many (cut row, other row) pairs are tried per disjunct.
const MAX_PAIRS: usize = 48;
/// Dinkelbach steps per pair.
const MAX_STEPS: usize = 6;

/// Push to `out` each row of `cuts` (rows of `x` not valid on `y`)
/// wrapped around each other row of `x` ([`wrap`]) when that succeeds.
/// Every pushed row holds on `x` and on `y`.
pub(super) fn wrapped_rows(
    x: &BasicMap,
    cuts: &[Cut],
    y: &mut Part,
    out: &mut Vec<Vec<Int>>,
) -> Result<()> {
    let rows = as_ineqs(x);
    if cuts.len() * rows.len() > MAX_PAIRS {
        return Ok(());
    }
    for (r, _) in cuts {
        for s in &rows {
            if s == r || is_opposite(r, s) {
                continue;
            }
            crate::budget::tick(1)?;
            if let Some(c) = wrap(r, s, y)? {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    Ok(())
}

/// `r + s` is a constant: wrapping around `s` only scales `r`.
fn is_opposite(r: &[Int], s: &[Int]) -> bool {
    r[1..].iter().zip(&s[1..]).all(|(a, b)| (a + b).is_zero())
}

/// The row `q·r + p·s` (normalised) with the smallest `λ = p/q ≥ 0` for
/// which it holds on the rational relaxation of `y` (see the module
/// documentation), or `None`.
pub(super) fn wrap(r: &[Int], s: &[Int], y: &mut Part) -> Result<Option<Vec<Int>>> {
    let (mut p, mut q) = (Int::ZERO, Int::ONE);
    for _ in 0..MAX_STEPS {
        let mut c: Vec<Int> = r
            .iter()
            .zip(s)
            .map(|(a, b)| Int::combine(&q, a, &p, b))
            .collect();
        let Some((vn, _)) = y.min(&c)? else {
            return Ok(None);
        };
        if !vn.is_neg() {
            if p.is_zero() || c[1..].iter().all(Int::is_zero) {
                return Ok(None);
            }
            crate::matrix::normalize_ineq(&mut c);
            return Ok(Some(c));
        }
        // the minimiser: the sample point the LP left in the tableau
        let pt = y.tab_sample()?;
        let (rn, rd) = eval_rational(r, &pt);
        let (sn, sd) = eval_rational(s, &pt);
        if !sn.is_pos() {
            return Ok(None);
        }
        // λ' = -(rn/rd) / (sn/sd)
        let mut np = -&(&rn * &sd);
        let mut nq = &rd * &sn;
        let g = np.gcd(&nq);
        if !g.is_zero() {
            np = np.div_exact(&g);
            nq = nq.div_exact(&g);
        }
        // λ' > λ, or no progress
        if &np * &q <= &p * &nq {
            return Ok(None);
        }
        (p, q) = (np, nq);
    }
    Ok(None)
}

/// `row · (1, x)` at the rational point `x = (num_k / den_k)`, as a
/// fraction with a positive denominator.
fn eval_rational(row: &[Int], x: &[(Int, Int)]) -> (Int, Int) {
    let mut den = Int::ONE;
    for ((_, d), a) in x.iter().zip(&row[1..]) {
        if !a.is_zero() {
            den = den.lcm(d);
        }
    }
    let mut num = &row[0] * &den;
    for ((n, d), a) in x.iter().zip(&row[1..]) {
        if !a.is_zero() {
            num.add_mul(a, &(n * &den.div_exact(d)));
        }
    }
    (num, den)
}
