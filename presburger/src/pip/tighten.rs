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
