//! The lowest and highest accessed cell of an array as one affine point,
//! guessed from the disjuncts' bounds and verified exactly, for accessed
//! cells that are not a union of boxes ([`crate::extremes`]): triangles,
//! strides, bounds on a coordinate in terms of the one before.
//!
//! **Guess.** In each disjunct, coordinate after coordinate (the earlier
//! ones fixed at their guessed values), the lexmin takes the value of an
//! equality `x_d = v` or else the largest lower bound `x_d >= l` among the
//! constraints with coefficient ±1 on `x_d` and none on later coordinates
//! or existentials, when the bounds' parameter parts are all equal (they
//! compare by constants); other constraints are ignored (a stride, a
//! bound through an existential). The candidates of the disjuncts must
//! compare by constants too; the smallest is the guess `f`. The lexmax is
//! the same with the upper bounds.
//!
//! **Verification** (exact, so a wrong guess only costs the tests):
//!
//! 1. no cell of any disjunct lies lexicographically before `f(p)` (one
//!    emptiness test per disjunct and coordinate, as in
//!    [`crate::extremes`]);
//! 2. at every parameter value where some disjunct has a cell, `f(p)` is a
//!    cell: with `W` the union of `{p : f(p) ∈ D}` over the disjuncts `D`
//!    whose candidate is `f`, every disjunct's parameter domain lies in
//!    `W` (one part of `W` whose constraints every disjunct implies by its
//!    own, else emptiness tests against a single winner without
//!    existentials, else an inclusion of parameter sets).
//!
//! Then at each `p` where a cell is accessed, `f(p)` is one (2) and none is
//! smaller (1): `f` is the lexmin there, which is all the alias check uses
//! (it tests `accessed` first). Otherwise the answer is `None` and the
//! caller takes the parametric lexmin. `Set::lexmin_pw_multi_aff` is the
//! oracle in the tests.

use presburger::{BasicMap, Int, Map, MultiAff, Set, Space};

use crate::error::Result;
use crate::extremes::{
    covered, dominated, extreme_point, negated, param_part, plainly_within, point_value, widened,
};

/// The lexmin (`max` false) or lexmax of `cells` as one affine point of
/// the parameters, exact wherever `cells` is non-empty; `None` when the
/// guess is not verified (see the module documentation).
pub fn guessed_extreme(cells: &Set, max: bool) -> Result<Option<MultiAff>> {
    let params = cells.space().params.clone();
    let n = cells.space().n_out();
    let guesses: Vec<Option<Vec<Vec<Int>>>> =
        cells.basic_maps().iter().map(|b| guess(b, max)).collect();
    let Some(best) = extreme_point(guesses.iter().flatten(), max) else {
        return Ok(None);
    };
    // 1. no cell beyond the point
    for b in cells.basic_maps() {
        if !dominated(b, best, max)? {
            return Ok(None);
        }
    }
    // 2. the point is a cell wherever there is one
    let pspace = Space::params_only(params.clone());
    let mut winners = Map::empty(pspace.clone());
    for (b, g) in cells.basic_maps().iter().zip(&guesses) {
        if g.as_ref() == Some(best) {
            for w in at_point(b, best)?.basic_maps() {
                winners.add_basic(w.clone())?;
            }
        }
    }
    // (first a single winner whose constraints every disjunct implies
    // plainly, then the exact tests)
    let plainly = winners
        .basic_maps()
        .iter()
        .any(|w| cells.basic_maps().iter().all(|b| plainly_within(b, w)));
    if !plainly {
        for b in cells.basic_maps() {
            if !covered(b, &winners)? {
                return Ok(None);
            }
        }
    }
    point_value(&pspace, n, best).map(Some)
}

/// `{ p : f(p) ∈ b }`.
fn at_point(b: &BasicMap, point: &[Vec<Int>]) -> Result<Map> {
    let off = b.off_out();
    let mut t = b.clone();
    for (d, f) in point.iter().enumerate() {
        // x_d - f_d = 0
        let mut row = widened(b, &negated(f.clone()));
        row[off + d] = Int::ONE;
        t.add_eq(row);
    }
    Ok(Map::from_basic(t).params().simplify_parts())
}

/// The candidate extreme of one disjunct (rows `[c | params]` per cell
/// coordinate); `None` when a coordinate has no usable bound on the
/// extreme side or two that do not compare by constants.
fn guess(b: &BasicMap, max: bool) -> Option<Vec<Vec<Int>>> {
    if b.n_in() > 0 {
        return None;
    }
    let (np, n, off) = (b.n_param(), b.n_out(), b.off_out());
    let mut point: Vec<Vec<Int>> = Vec::with_capacity(n);
    for d in 0..n {
        // coefficient ±1 on x_d, none on later coordinates or locals
        // (which follow the coordinates): `Some(positive)`
        let usable = |r: &[Int]| -> Option<bool> {
            let c = &r[off + d];
            let pos = *c == Int::ONE;
            if !pos && *c != -Int::ONE {
                return None;
            }
            if r[off + d + 1..].iter().any(|x| !x.is_zero()) {
                return None;
            }
            Some(pos)
        };
        // the rest of the row with the earlier coordinates at their values
        let rest = |r: &[Int]| -> Vec<Int> {
            let mut s = param_part(r, np);
            for (k, f) in point.iter().enumerate() {
                let c = &r[off + k];
                if !c.is_zero() {
                    for (a, v) in s.iter_mut().zip(f) {
                        a.add_mul(c, v);
                    }
                }
            }
            s
        };
        // x + rest = 0: x = -rest; -x + rest = 0: x = rest
        let fixed = b
            .eqs()
            .iter()
            .find_map(|r| usable(r).map(|pos| if pos { negated(rest(r)) } else { rest(r) }));
        if let Some(v) = fixed {
            point.push(v);
            continue;
        }
        let mut chosen: Option<Vec<Int>> = None;
        for r in b.ineqs() {
            // x + rest >= 0: x >= -rest (a lower bound); -x + rest >= 0:
            // x <= rest (an upper bound)
            match usable(r) {
                Some(pos) if pos != max => {
                    let bound = if pos { negated(rest(r)) } else { rest(r) };
                    chosen = match chosen {
                        None => Some(bound),
                        Some(c) if c[1..] != bound[1..] => return None,
                        // the tightest: the smallest upper bound, the
                        // largest lower one
                        Some(c) => Some(if (bound[0] < c[0]) == max { bound } else { c }),
                    };
                }
                _ => {}
            }
        }
        point.push(chosen?);
    }
    Some(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guessed point against the engine's parametric extreme at every
    /// parameter value of a grid where the set is non-empty.
    pub(crate) fn agrees(s: &str, max: bool) -> bool {
        let cells: Set = s.parse().unwrap();
        let Some(fast) = guessed_extreme(&cells, max).unwrap() else {
            return false;
        };
        crate::extremes::tests::same_on_grid(&cells, &fast, max);
        true
    }

    #[test]
    fn triangles_and_strides_take_the_guess() {
        for (s, max) in [
            ("[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }", false),
            ("[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }", true),
            ("[n] -> { [i, j] : 0 <= i < n and i <= j < n }", true),
            ("[n] -> { [i, j] : 0 <= i < n and i <= j < n }", false),
            // tiled_mix's x: the last cell is M - 1 (the third disjunct's
            // stride starts there)
            (
                "[N, M] -> { [c] : exists (e0 : c = 2e0 and N >= 1 and 0 <= c < M and c <= 6 and c <= N + 2); \
                 [c] : exists (e0 : 0 <= c <= N + 2e0 - 4 and 0 <= e0 <= 3 and 2e0 < c < M); \
                 [c] : exists (e0 : c = M + 3e0 - 1 and 0 <= c < M) }",
                true,
            ),
            // tiled_mix's A: the first cell (0, 0)
            (
                "[N, M] -> { [a, b] : exists (e0 : b = 2e0 and 0 <= a < N and 0 <= b < M and a - 3 <= b <= a + 3 and a <= 3); \
                 [a, b] : exists (e0 : b = a + 2e0 - 3 and 4 <= a < N and 0 <= b < M and a - 3 <= b <= a + 3) }",
                false,
            ),
            // an equality through the earlier coordinate
            ("[n] -> { [i, j] : 0 <= i < n and j = i + 2 }", true),
        ] {
            assert!(agrees(s, max), "{s} {max}");
        }
    }

    #[test]
    fn wrong_guesses_are_refused() {
        for (s, max) in [
            // a stride that misses the bound (n odd)
            ("[n] -> { [i] : exists e : i = 2e and 0 <= i <= n }", true),
            // the bound through an existential is the tighter one
            (
                "[n] -> { [i] : exists e : 0 <= i <= n and i <= 2e and 0 <= e <= 3 }",
                true,
            ),
            // two upper bounds that do not compare by constants
            ("[n, m] -> { [i] : 0 <= i <= n and i <= m }", true),
            // a parameter domain not covered (the winner is empty at n = 0)
            (
                "[n] -> { [i] : 0 <= i <= 5 and n >= 1; [i] : 1 <= i <= 5 }",
                false,
            ),
            // piecewise: (0, 1) where m >= 2, else (1, 0)
            (
                "[n, m] -> { [i, j] : 1 <= i < n and 0 <= j < 5; [i, j] : i = 0 and 1 <= j < m }",
                false,
            ),
        ] {
            let cells: Set = s.parse().unwrap();
            assert!(guessed_extreme(&cells, max).unwrap().is_none(), "{s} {max}");
        }
    }
}
