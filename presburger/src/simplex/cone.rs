//! Rounding inside a full-dimensional recession cone.

use super::tableau::{Tableau, MINUS_ONE};
use crate::error::{Error, Result};
use crate::int::Int;

/// The sample point of the first `k` variables of `t` over a common
/// denominator: `(numerators, denominator)`.
fn scaled_sample(t: &Tableau, k: usize) -> (Vec<Int>, Int) {
    let mut den = Int::ONE;
    for j in 0..k {
        den = den.lcm(&t.sample_value(j).1);
    }
    let num = (0..k)
        .map(|j| {
            let (a, b) = t.sample_value(j);
            &a * &den.div_exact(&b)
        })
        .collect();
    (num, den)
}

/// An integer point of `{ z : rows·(1, z) >= 0 }` whose recession cone has
/// no implicit equality (except rows constant in `z`), starting from the
/// rational sample of `t`.
pub(super) fn round_in_cone<R: AsRef<[Int]>>(
    k: usize,
    rows: &[R],
    t: &Tableau,
) -> Result<Vec<Int>> {
    // interior direction d: a·d >= 1 for every non-constant row
    let mut td = Tableau::new(k);
    for r in rows {
        let r = r.as_ref();
        if r[1..].iter().all(Int::is_zero) {
            continue;
        }
        td.add_ineq_parts(&MINUS_ONE, &r[1..])?;
    }
    if td.is_empty() {
        return Err(Error::Invalid(
            "integer feasibility: recession cone has no interior".into(),
        ));
    }
    let (d, _) = scaled_sample(&td, k);
    // rational sample x0 = num_j / den (common denominator)
    let (x0, den) = scaled_sample(t, k);
    // t >= (||a||_1 / 2 - (a·x0 + b)) / (a·d), all scaled by 2·den
    let mut steps = Int::ZERO;
    for r in rows {
        let r = r.as_ref();
        if r[1..].iter().all(Int::is_zero) {
            continue;
        }
        let mut ax = &r[0] * &den;
        let mut ad = Int::ZERO;
        let mut norm = Int::ZERO;
        for j in 0..k {
            ax.add_mul(&r[1 + j], &x0[j]);
            ad.add_mul(&r[1 + j], &d[j]);
            norm = &norm + &r[1 + j].abs();
        }
        // need: 2·(ax + den·t·ad) >= den·norm
        let need = &(&den * &norm) - &(&ax * &Int::from(2));
        if need.is_pos() {
            let q = need.div_ceil(&(&(&den * &ad) * &Int::from(2)));
            if q > steps {
                steps = q;
            }
        }
    }
    // point = round((x0 + den·steps·d) / den)
    let two = Int::from(2);
    let point: Vec<Int> = (0..k)
        .map(|j| {
            let num = Int::combine(&Int::ONE, &x0[j], &(&den * &steps), &d[j]);
            // floor(num/den + 1/2) = floor((2·num + den) / (2·den))
            Int::combine(&two, &num, &Int::ONE, &den).div_floor(&(&two * &den))
        })
        .collect();
    debug_assert!(rows.iter().all(|r| {
        let r = r.as_ref();
        let mut v = r[0].clone();
        for j in 0..k {
            v.add_mul(&r[1 + j], &point[j]);
        }
        !v.is_neg()
    }));
    Ok(point)
}
