//! Inequalities tightened over the integers before the search: a row
//! `g·f(u) + c(p) >= 0` whose unknowns' coefficients share a factor `g > 1`
//! holds at an integer point exactly when `f(u) + floor(c(p)/g) >= 0`.
//!
//! When `c` depends on the parameters, `floor(c/g)` is a new context
//! division, added only for rows bounding a narrow band (below). This is
//! what ends the search on thin strips: after the
//! equalities are solved as a lattice, a pair `l(p) <= g·f(z) <= l(p) + k`
//! with `k < g` (a congruence of the parameters in disguise) leaves the
//! rational relaxation a long segment with no integer point, and cuts at
//! its end move the vertex by a bounded step each, so their number grows
//! with the parameters and the search never ends. Tightened, the pair
//! reads `-floor(l/g) <= f(z) <= floor((l + k)/g)`: its faces are integral
//! and the context decides directly whether the band holds an integer.

use crate::basic::BasicMap;
use crate::int::{gcd_slice, Int};

/// Tighten the rows `[ctx part | unknowns]` whose unknowns have a common
/// factor (see the module documentation): always when the remainder of
/// their context part is a constant (no division needed), and with a new
/// context division (an equal one is reused; every row gets a zero column
/// for it) when the row bounds a narrow band ([`narrow_band_rows`]). The
/// rows describe the same integer points.
pub(super) fn tighten_rows(ctx: &mut BasicMap, rows: &mut [Vec<Int>]) {
    let narrow = narrow_band_rows(ctx.row_len(), rows);
    for k in 0..rows.len() {
        let n_ctx = ctx.row_len();
        let g = gcd_slice(&rows[k][n_ctx..]);
        if g.is_zero() || g.is_one() {
            continue;
        }
        // c = g·Q + R with R reduced coefficient-wise into [0, g), so that
        // floor(c/g) = Q + floor(R/g): the row becomes f + Q + floor(R/g)
        // (the division in the same normal form as the cuts' divisions)
        let rem: Vec<Int> = rows[k][..n_ctx].iter().map(|v| v.mod_floor(&g)).collect();
        let parametric = rem[1..].iter().any(|v| !v.is_zero());
        if parametric && !narrow[k] {
            continue;
        }
        {
            let row = &mut rows[k];
            for (v, r) in row[..n_ctx].iter_mut().zip(&rem) {
                *v = (&*v - r).div_exact(&g);
            }
            for v in row[n_ctx..].iter_mut() {
                *v = v.div_exact(&g);
            }
        }
        if !parametric {
            continue; // floor(R/g) = 0: a constant remainder only
        }
        let h = gcd_slice(&rem).gcd(&g);
        let num: Vec<Int> = rem.iter().map(|v| v.div_exact(&h)).collect();
        let den = g.div_exact(&h);
        let col = match find_div(ctx, &num, &den) {
            Some(col) => col,
            None => {
                let col = ctx.add_div(num, den);
                for r in rows.iter_mut() {
                    r.insert(n_ctx, Int::ZERO);
                }
                col
            }
        };
        rows[k][col] = &rows[k][col] + &Int::ONE;
    }
}

/// The rows that bound a narrow band: with the partner row of opposite
/// unknowns' direction, `g_r·f + c_r >= 0` and `-g_s·f + c_s >= 0` (`f`
/// primitive) leave `f` an interval of width `(g_s·c_r + g_r·c_s)/(g_r·g_s)`;
/// when the parameters cancel in that width and it is below 1, `f` has at
/// most one integer value, which exists only for some parameters (a
/// congruence of the parameters). Wider bands, or bands whose width depends
/// on the parameters, are left to the cuts (tightening them would add
/// divisions to answers that need none).
fn narrow_band_rows(n_ctx: usize, rows: &[Vec<Int>]) -> Vec<bool> {
    let gs: Vec<Int> = rows.iter().map(|r| gcd_slice(&r[n_ctx..])).collect();
    let mut narrow = vec![false; rows.len()];
    for r in 0..rows.len() {
        for s in r + 1..rows.len() {
            let (gr, gsv) = (&gs[r], &gs[s]);
            if gr.is_zero() || gsv.is_zero() || gr.is_one() && gsv.is_one() {
                continue;
            }
            // opposite directions: gs·(unknowns of r) = -gr·(unknowns of s)
            let opposite = rows[r][n_ctx..]
                .iter()
                .zip(&rows[s][n_ctx..])
                .all(|(a, b)| (a * gsv) == -(b * gr));
            if !opposite {
                continue;
            }
            let width: Vec<Int> = rows[r][..n_ctx]
                .iter()
                .zip(&rows[s][..n_ctx])
                .map(|(cr, cs)| &(cr * gsv) + &(cs * gr))
                .collect();
            if width[1..].iter().all(Int::is_zero) && width[0] < gr * gsv {
                narrow[r] = true;
                narrow[s] = true;
            }
        }
    }
    narrow
}

/// The column of a division of `ctx` equal to `floor(num/den)`.
fn find_div(ctx: &BasicMap, num: &[Int], den: &Int) -> Option<usize> {
    let off = ctx.off_div();
    ctx.divs.iter().enumerate().find_map(|(k, d)| {
        let d = d.as_ref()?;
        (&d.den == den
            && d.num[..num.len()] == num[..]
            && d.num[num.len()..].iter().all(Int::is_zero))
        .then_some(off + k)
    })
}

#[cfg(test)]
mod tests {
    use super::tighten_rows;
    use crate::basic::BasicMap;
    use crate::int::Int;
    use crate::matrix::eval;
    use crate::space::{Space, Tuple};
    use proptest::prelude::*;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// The context columns `[1 | n | divs]` at `n`.
    fn ctx_point(ctx: &BasicMap, n: i64) -> Vec<Int> {
        let mut cols = ints(&[1, n]);
        for d in ctx.divs.iter().flatten() {
            let v = eval(&d.num[..cols.len()], &cols[1..]).div_floor(&d.den);
            cols.push(v);
        }
        cols
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

        /// Every row, tightened or not, holds at exactly the integer points
        /// of a box where the original row holds (rows `[1, n | u0, u1]`: a
        /// band `l(n) <= g·f(u) <= l(n) + k`, `k < g`, and a free row).
        #[test]
        fn tightened_rows_keep_the_integer_points(
            f in (-2i64..=2, -2i64..=2).prop_filter("non-zero", |f| *f != (0, 0)),
            g in 1i64..=4,
            gs in 1i64..=3,
            (c0, b, k) in (-5i64..=5, -3i64..=3, 0i64..4),
            free in (-4i64..=4, -3i64..=3, -4i64..=4, -4i64..=4),
        ) {
            // g·f + c0 + b·n >= 0 and gs·(-g·f) + gs·(k - c0 - b·n) >= 0:
            // the second one scaled, the band's width k/g (narrow if k < g)
            let rows0 = vec![
                ints(&[c0, b, g * f.0, g * f.1]),
                ints(&[gs * (k - c0), -gs * b, -gs * g * f.0, -gs * g * f.1]),
                ints(&[free.0, free.1, free.2, free.3]),
            ];
            let mut ctx = BasicMap::universe(Space::set(Vec::<String>::new(), Tuple::anonymous(1)));
            let mut rows = rows0.clone();
            tighten_rows(&mut ctx, &mut rows);
            let n_ctx = ctx.row_len();
            for n in -6i64..=6 {
                let cols = ctx_point(&ctx, n);
                for u0 in -5i64..=5 {
                    for u1 in -5i64..=5 {
                        for (old, new) in rows0.iter().zip(&rows) {
                            let was = eval(old, &ints(&[n, u0, u1])).signum() >= 0;
                            let mut p = cols.clone();
                            p.extend(ints(&[u0, u1]));
                            prop_assert_eq!(p.len(), n_ctx + 2);
                            let is = eval(new, &p[1..]).signum() >= 0;
                            prop_assert_eq!(was, is, "{:?} -> {:?} at n = {}, u = ({}, {})", old, new, n, u0, u1);
                        }
                    }
                }
            }
            // a narrow band with a parametric remainder gets its division
            if k < g && g > 1 && b % g != 0 {
                prop_assert!(ctx.n_div() > 0, "{:?} -> {:?}", rows0, rows);
            }
        }
    }
}
