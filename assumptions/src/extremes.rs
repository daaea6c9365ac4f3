//! The lowest and highest accessed cell of an array as one affine point,
//! without a parametric lexmin or lexmax, when the accessed cells are a
//! union of *boxes*.
//!
//! A box is a disjunct without existentials in which every constraint
//! involves at most one cell coordinate, with coefficient ±1 (the image of
//! a rectangular loop nest under subscripts `i + c`: the stencils and
//! sweeps of most kernels). In a box the coordinates are independent: at
//! parameters `p` where it is non-empty, its lexmin is the point of its
//! coordinates' lower bounds (an equality's value where there is one),
//! when each coordinate has exactly one; and it is non-empty exactly where
//! every lower bound is at most every upper bound of the same coordinate
//! and its parameter constraints hold (Fourier–Motzkin elimination of one
//! coordinate at a time, exact with unit coefficients).
//!
//! The lexmin `f_j` of each box `B_j` is an affine point of the
//! parameters. When the comparison of every two points is decided by
//! constants (at the first coordinate where they differ, the parameter
//! parts are equal), some point `f` is lexicographically smallest; with
//! `W` the boxes whose point is `f`, the lexmin of the union is `f`
//! wherever the union is non-empty, provided every box's parameter domain
//! lies in the union of the domains of `W` (then at any `p` where some box
//! is non-empty a box of `W` is too, with its point `f(p)`, and no box has
//! a smaller one). Otherwise (no box with a point, an undecided
//! comparison, a domain not covered, a disjunct below that is not bounded
//! as follows) the answer is `None` and the caller takes the parametric
//! lexmin. The lexmax is the same with the upper bounds.
//!
//! Disjuncts that are not boxes (existentials, a coordinate bounded by
//! another), and boxes with several bounds on the extreme side of a
//! coordinate, have no point: they are bounded by emptiness tests instead,
//! no cell lexicographically beyond `f` (one test per coordinate `d`:
//! equal to `f` before `d`, beyond it at `d`) and no cell at parameters
//! outside the winners' domains (one test per violated constraint of a
//! single winner's domain, an inclusion of parameter sets otherwise).
//!
//! The point is the exact lexmin (lexmax) at every parameter value where
//! some cell is accessed, which is all the alias check uses (the check
//! tests `accessed` first); `Set::lexmin_pw_multi_aff` is the oracle in
//! the tests.

use std::cmp::Ordering;

use presburger::{Aff, BasicMap, Int, Map, MultiAff, Set, Space, Tuple};

use crate::error::Result;

/// One box: per cell coordinate its chosen bound (a row `[c | params]`, the
/// coordinate's value at the extreme) and the parameter constraints under
/// which the box is non-empty.
struct BoxExtreme {
    point: Vec<Vec<Int>>,
    domain: BasicMap,
}

/// The lexmin (`max` false) or lexmax of `cells` as one affine point of
/// the parameters, exact wherever `cells` is non-empty; `None` when no box
/// of the cells has a point that is provably the extreme of all (see the
/// module documentation).
pub fn box_extreme(cells: &Set, max: bool) -> Result<Option<MultiAff>> {
    let params = cells.space().params.clone();
    let n = cells.space().n_out();
    let boxes: Vec<Option<BoxExtreme>> =
        cells.basic_maps().iter().map(|b| box_of(b, max)).collect();
    // the extreme point of the boxes, decided by constants
    let better = better_order(max);
    let Some(best) = extreme_point(boxes.iter().flatten().map(|x| &x.point), max) else {
        return Ok(None);
    };
    let pspace = Space::params_only(params.clone());
    let mut winners = Map::empty(pspace.clone());
    for x in boxes.iter().flatten().filter(|x| &x.point == best) {
        winners.add_basic(x.domain.clone())?;
    }
    for (b, x) in cells.basic_maps().iter().zip(&boxes) {
        match x {
            Some(x) if &x.point == best => {}
            // a box whose point compares by constants: below the best
            // one; its domain must lie in the winners'
            Some(x) if compare(&x.point, best).is_some() => {
                if compare(&x.point, best) == Some(better)
                    || !Map::from_basic(x.domain.clone()).is_subset(&winners)?
                {
                    return Ok(None);
                }
            }
            // another disjunct: no cell beyond the point, and cells only
            // where a winner has some
            _ => {
                if !dominated(b, best, max)? || !covered(b, &winners)? {
                    return Ok(None);
                }
            }
        }
    }
    point_value(&pspace, n, best).map(Some)
}

/// The order of a point better than another: greater for a maximum.
pub(crate) fn better_order(max: bool) -> Ordering {
    if max {
        Ordering::Greater
    } else {
        Ordering::Less
    }
}

/// The extreme (the maximum if `max`) of `points` (rows `[c | params]`
/// per coordinate), decided by constants; `None` if there is no point or
/// two of them do not compare by constants.
pub(crate) fn extreme_point<'a>(
    points: impl IntoIterator<Item = &'a Vec<Vec<Int>>>,
    max: bool,
) -> Option<&'a Vec<Vec<Int>>> {
    let mut best: Option<&Vec<Vec<Int>>> = None;
    for p in points {
        best = match best {
            None => Some(p),
            Some(b) => match compare(p, b)? {
                o if o == better_order(max) => Some(p),
                _ => Some(b),
            },
        };
    }
    best
}

/// The point of `n` coordinates whose values are the rows `[c | params]`
/// of `point`, as a function of the parameters of `pspace` (a parameter
/// space).
pub(crate) fn point_value(pspace: &Space, n: usize, point: &[Vec<Int>]) -> Result<MultiAff> {
    let affs = point
        .iter()
        .map(|row| Aff::from_row(pspace, row.clone(), Int::ONE))
        .collect::<presburger::Result<Vec<_>>>()?;
    let space = Space::set(pspace.params.clone(), Tuple::anonymous(n));
    Ok(MultiAff::new(space, affs)?)
}

/// `[c | params]` extended with zeros to a row of `b`.
pub(crate) fn widened(b: &BasicMap, r: &[Int]) -> Vec<Int> {
    let mut row = vec![Int::ZERO; b.row_len()];
    row[..r.len()].clone_from_slice(r);
    row
}

/// Whether no cell of `b` lies lexicographically beyond `point` (after it
/// for the lexmax, before it for the lexmin): for each coordinate `d`, no
/// cell equal to the point before `d` and beyond it at `d`.
pub(crate) fn dominated(b: &BasicMap, point: &[Vec<Int>], max: bool) -> Result<bool> {
    let off = b.off_out();
    for d in 0..point.len() {
        if bounded_at(b, point, d, max) {
            continue;
        }
        let mut t = b.clone();
        for (k, f) in point[..d].iter().enumerate() {
            // x_k - f_k = 0
            let mut row = widened(b, &negated(f.clone()));
            row[off + k] = Int::ONE;
            t.add_eq(row);
        }
        // x_d - f_d - 1 >= 0 (lexmax) or f_d - x_d - 1 >= 0 (lexmin)
        let mut row = if max {
            widened(b, &negated(point[d].clone()))
        } else {
            widened(b, &point[d])
        };
        row[off + d] = if max { Int::ONE } else { -Int::ONE };
        row[0] = &row[0] - &Int::ONE;
        t.add_ineq(row);
        if !Map::from_basic(t).is_empty()? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `b` has cells only at parameters where one of `winners` (boxes'
/// parameter domains) is non-empty.
pub(crate) fn covered(b: &BasicMap, winners: &Map) -> Result<bool> {
    let [w] = winners.basic_maps() else {
        return Ok(Map::from_basic(b.clone()).params().is_subset(winners)?);
    };
    if w.n_div() > 0 {
        // (the negation of a constraint on an existential is not one
        // constraint)
        return Ok(Map::from_basic(b.clone()).params().is_subset(winners)?);
    }
    // b meets no violated constraint of the one winner
    let mut violated: Vec<Vec<Int>> = Vec::new();
    for e in w.eqs() {
        // e >= 1 or -e >= 1
        let mut up = e.to_vec();
        up[0] = &up[0] - &Int::ONE;
        let mut down = negated(e.to_vec());
        down[0] = &down[0] - &Int::ONE;
        violated.extend([up, down]);
    }
    for c in w.ineqs() {
        // -c - 1 >= 0
        let mut v = negated(c.to_vec());
        v[0] = &v[0] - &Int::ONE;
        violated.push(v);
    }
    for v in violated {
        // b ∧ v >= 0 is empty where b implies -v - 1 >= 0
        let mut q = negated(v.clone());
        q[0] = &q[0] - &Int::ONE;
        if implies(b, &q) {
            continue;
        }
        let mut t = b.clone();
        t.add_ineq(widened(b, &v));
        if !Map::from_basic(t).is_empty()? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A cheap sufficient test for [`covered`] with the one winner `w` (a
/// parameter domain): `w` has no locals and `b` implies each of its
/// constraints ([`implies`]). `false` says nothing.
pub(crate) fn plainly_within(b: &BasicMap, w: &BasicMap) -> bool {
    w.n_div() == 0
        && w.eqs()
            .iter()
            .all(|e| implies(b, e) && implies(b, &negated(e.to_vec())))
        && w.ineqs().iter().all(|c| implies(b, c))
}

/// A cheap sufficient test for one step of [`dominated`]: whether a
/// constraint of `b` on `x_d` and earlier coordinates (none on later ones
/// or on locals), with the earlier coordinates at `point`, bounds `x_d` by
/// `f_d` on the extreme side by constants (`x_d <= g` with `g <= f_d` for
/// the lexmax, `x_d >= g` with `g >= f_d` for the lexmin); then no cell
/// equal to the point before `d` lies beyond it at `d`. `false` says
/// nothing.
fn bounded_at(b: &BasicMap, point: &[Vec<Int>], d: usize, max: bool) -> bool {
    let (np, off) = (b.n_param(), b.off_out());
    let f = &point[d];
    // `s · x_d + rest >= 0` with the wanted sign `s` (-1: x_d <= rest for
    // the lexmax; 1: x_d >= -rest for the lexmin)
    let want = if max { -Int::ONE } else { Int::ONE };
    let bounds = |r: &[Int]| -> bool {
        if r[off + d] != want || r[off + d + 1..].iter().any(|x| !x.is_zero()) {
            return false;
        }
        if r[1 + np..off].iter().any(|x| !x.is_zero()) {
            return false;
        }
        let mut rest = param_part(r, np);
        for (k, v) in point[..d].iter().enumerate() {
            let c = &r[off + k];
            if !c.is_zero() {
                for (a, x) in rest.iter_mut().zip(v) {
                    a.add_mul(c, x);
                }
            }
        }
        if max {
            // x_d <= rest <= f_d
            rest[1..] == f[1..] && rest[0] <= f[0]
        } else {
            // x_d >= -rest >= f_d, i.e. rest + f_d <= 0 by constants
            rest[1..]
                .iter()
                .zip(&f[1..])
                .all(|(a, b)| (a + b).is_zero())
                && (&rest[0] + &f[0]) <= Int::ZERO
        }
    };
    b.ineqs().iter().any(|r| bounds(r))
        || b.eqs()
            .iter()
            .any(|e| bounds(e) || bounds(&negated(e.to_vec())))
}

/// A cheap sufficient test for one step of [`covered`]: whether `b`
/// implies `q >= 0` (`q` a row `[c | params]`) by a parameter constraint
/// of its own, or by the sum of a lower and an upper bound of one
/// coordinate (`x >= l`, `x <= u`: `u - l >= 0`), whose parameter part is
/// `q`'s and whose constant is at most `q`'s. `false` says nothing.
fn implies(b: &BasicMap, q: &[Int]) -> bool {
    let (np, n, off) = (b.n_param(), b.n_out(), b.off_out());
    let weaker = |r: &[Int]| r[1..] == q[1..] && r[0] <= q[0];
    let mut rows: Vec<(&[Int], bool)> = b.ineqs().iter().map(|r| (r, false)).collect();
    rows.extend(b.eqs().iter().map(|e| (e, true)));
    // per coordinate, the parameter parts of `x + a >= 0` and `-x + u >= 0`
    let mut lower: Vec<Vec<Vec<Int>>> = vec![Vec::new(); n];
    let mut upper: Vec<Vec<Vec<Int>>> = vec![Vec::new(); n];
    for (r, eq) in rows {
        if r[1 + np..off].iter().any(|x| !x.is_zero())
            || r[b.off_div()..].iter().any(|x| !x.is_zero())
        {
            continue;
        }
        let p = param_part(r, np);
        match coordinate(r, off, n) {
            Some(None) => {
                if weaker(&p) || (eq && weaker(&negated(p.clone()))) {
                    return true;
                }
            }
            Some(Some((d, pos))) => {
                let (same, other) = if pos {
                    (&mut lower, &mut upper)
                } else {
                    (&mut upper, &mut lower)
                };
                if eq {
                    other[d].push(negated(p.clone()));
                }
                same[d].push(p);
            }
            None => {}
        }
    }
    lower
        .iter()
        .zip(&upper)
        .any(|(ls, us)| ls.iter().any(|l| us.iter().any(|u| weaker(&sum(l, u)))))
}

/// The lexicographic order of two points when decided by constants: at
/// the first coordinate where they differ the parameter parts are equal.
pub(crate) fn compare(a: &[Vec<Int>], b: &[Vec<Int>]) -> Option<Ordering> {
    for (x, y) in a.iter().zip(b) {
        if x == y {
            continue;
        }
        if x[1..] != y[1..] {
            return None;
        }
        return Some(x[0].cmp(&y[0]));
    }
    Some(Ordering::Equal)
}

/// The cell coordinate of a row (`Some(None)` for a parameter constraint;
/// `None` when it involves two coordinates or one with a coefficient other
/// than ±1).
fn coordinate(row: &[Int], off: usize, n: usize) -> Option<Option<(usize, bool)>> {
    let mut found = None;
    for d in 0..n {
        let c = &row[off + d];
        if c.is_zero() {
            continue;
        }
        if found.is_some() {
            return None;
        }
        let pos = *c == Int::ONE;
        if !pos && *c != -Int::ONE {
            return None;
        }
        found = Some((d, pos));
    }
    Some(found)
}

/// `[c | params]` of a row (the coordinates' columns dropped).
pub(crate) fn param_part(row: &[Int], np: usize) -> Vec<Int> {
    row[..1 + np].to_vec()
}

pub(crate) fn negated(row: Vec<Int>) -> Vec<Int> {
    row.into_iter().map(|x| -x).collect()
}

fn sum(a: &[Int], b: &[Int]) -> Vec<Int> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// The extreme point and the parameter domain of a box; `None` when `b` is
/// not a box or a coordinate has no single extreme bound.
fn box_of(b: &BasicMap, max: bool) -> Option<BoxExtreme> {
    if b.n_div() > 0 || b.n_in() > 0 {
        return None;
    }
    let (np, n, off) = (b.n_param(), b.n_out(), b.off_out());
    let mut domain = BasicMap::universe(Space::params_only(b.space().params.clone()));
    // per coordinate: its value where an equality fixes it (`[c | params]`),
    // lower bounds `x >= l`, upper bounds `x <= u` (as `l`, `u`)
    let mut value: Vec<Option<Vec<Int>>> = vec![None; n];
    let mut lower: Vec<Vec<Vec<Int>>> = vec![Vec::new(); n];
    let mut upper: Vec<Vec<Vec<Int>>> = vec![Vec::new(); n];
    for r in b.eqs() {
        match coordinate(r, off, n)? {
            None => domain.add_eq(param_part(r, np)),
            Some((d, pos)) => {
                // x = -rest (coefficient 1) or x = rest (coefficient -1)
                let v = if pos {
                    negated(param_part(r, np))
                } else {
                    param_part(r, np)
                };
                match &value[d] {
                    // a second equality: the two values agree
                    Some(w) => domain.add_eq(sum(w, &negated(v))),
                    None => value[d] = Some(v),
                }
            }
        }
    }
    for r in b.ineqs() {
        match coordinate(r, off, n)? {
            None => domain.add_ineq(param_part(r, np)),
            // x + rest >= 0: x >= -rest
            Some((d, true)) => lower[d].push(negated(param_part(r, np))),
            // -x + rest >= 0: x <= rest
            Some((d, false)) => upper[d].push(param_part(r, np)),
        }
    }
    let mut point = Vec::with_capacity(n);
    for d in 0..n {
        match &value[d] {
            Some(v) => {
                for l in &lower[d] {
                    domain.add_ineq(sum(v, &negated(l.clone())));
                }
                for u in &upper[d] {
                    domain.add_ineq(sum(u, &negated(v.clone())));
                }
                point.push(v.clone());
            }
            None => {
                for l in &lower[d] {
                    for u in &upper[d] {
                        domain.add_ineq(sum(u, &negated(l.clone())));
                    }
                }
                let bounds = if max { &upper[d] } else { &lower[d] };
                match bounds.as_slice() {
                    [only] => point.push(only.clone()),
                    _ => return None,
                }
            }
        }
    }
    Some(BoxExtreme { point, domain })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The fast point against the engine's parametric extreme at every
    /// parameter value of a grid where the set is non-empty.
    fn agrees(s: &str, max: bool) -> bool {
        let cells: Set = s.parse().unwrap();
        let Some(fast) = box_extreme(&cells, max).unwrap() else {
            return false;
        };
        same_on_grid(&cells, &fast, max);
        true
    }

    /// Asserts that `fast` is the engine's parametric lexmin (lexmax) of
    /// `cells` at every parameter value of a grid where `cells` is
    /// non-empty, and that there is such a value.
    pub(crate) fn same_on_grid(cells: &Set, fast: &MultiAff, max: bool) {
        let s = cells.to_string();
        let want = if max {
            cells.lexmax_pw_multi_aff().unwrap()
        } else {
            cells.lexmin_pw_multi_aff().unwrap()
        };
        let np = cells.space().n_param();
        let grid: Vec<Vec<Int>> = (0..7i64.pow(np as u32))
            .map(|k| {
                (0..np)
                    .map(|q| Int::from((k / 7i64.pow(q as u32)) % 7 - 2))
                    .collect()
            })
            .collect();
        let mut seen = 0;
        for p in &grid {
            let piece = want
                .pieces()
                .iter()
                .find(|(dom, _)| dom.contains_point(p).unwrap());
            match piece {
                Some((_, ma)) => {
                    seen += 1;
                    assert_eq!(
                        fast.eval(p).unwrap(),
                        ma.eval(p).unwrap(),
                        "{s} at {p:?}: {fast} against {want}"
                    );
                }
                None => {}
            }
        }
        assert!(seen > 0, "{s}: empty on the grid");
    }

    #[test]
    fn stencil_images_take_the_shortcut() {
        // heat-3d's A: the 7-point stencil's images (all on one domain)
        let s = "[T, N] -> { [i, j, k] : T >= 1 and 2 <= i <= N - 1 and 1 <= j <= N - 2 and 1 <= k <= N - 2; \
                 [i, j, k] : T >= 1 and 0 <= i <= N - 3 and 1 <= j <= N - 2 and 1 <= k <= N - 2; \
                 [i, j, k] : T >= 1 and 1 <= i <= N - 2 and 0 <= j <= N - 3 and 1 <= k <= N - 2; \
                 [i, j, k] : T >= 1 and 1 <= i <= N - 2 and 1 <= j <= N - 2 and 2 <= k <= N - 1 }";
        assert!(agrees(s, false));
        assert!(agrees(s, true));
    }

    #[test]
    fn winners_may_cover_the_domain_together() {
        // fdtd-2d's hz: the lexmax (NX - 1, NY - 1) comes from two boxes,
        // neither of which is non-empty wherever the union is
        let s = "[NX, NY] -> { [i, j] : 1 <= i <= NX - 1 and 0 <= j <= NY - 1; \
                 [i, j] : 0 <= i <= NX - 1 and 1 <= j <= NY - 1; \
                 [i, j] : 0 <= i <= NX - 2 and 0 <= j <= NY - 2 }";
        assert!(agrees(s, true));
        // its lexmin is piecewise ((0, 1) where NX = 1, (1, 0) where NY = 1)
        let cells: Set = s.parse().unwrap();
        assert!(box_extreme(&cells, false).unwrap().is_none());
        assert!(cells.lexmin_pw_multi_aff().unwrap().pieces().len() > 1);
    }

    #[test]
    fn fixed_coordinates_and_equalities() {
        let s = "[n, m] -> { [i, j] : i = 3 and 0 <= j < m and n >= 1; [i, j] : 0 <= i <= 3 and j = m - 1 and m >= 1 }";
        assert!(agrees(s, true));
        assert!(agrees(s, false));
    }

    #[test]
    fn other_disjuncts_are_bounded_by_emptiness_tests() {
        // tiled_mix's B: a box with one upper bound (N - 1), one with two
        // (N - 1 and 3: no point for the lexmax), a strided disjunct
        let s = "[N] -> { [c] : 0 <= c < N and c <= 3; [c] : N - 2 <= c < N and c >= 0; \
                 [c] : exists e : c = 2e and 0 <= c < N }";
        assert!(agrees(s, true));
        assert!(agrees(s, false));
        let s = "[N, M] -> { [i, j] : 0 <= i < N and 0 <= j < M; \
                 [i, j] : exists e : j = 2e and 0 <= i < N and 0 <= j <= i and j < M }";
        assert!(agrees(s, true));
        assert!(agrees(s, false));
    }

    #[test]
    fn other_sets_take_the_parametric_extreme() {
        for (s, max) in [
            // a domain not covered by the smallest point's box: piecewise
            (
                "[n] -> { [i, j] : i = 0 and 1 <= j <= 5 and n >= 1; [i, j] : 0 <= i < n and 0 <= j <= 5 and n >= 2 }",
                false,
            ),
            // two lower bounds of one coordinate (a max)
            ("[n] -> { [i] : i >= 0 and i >= n - 3 and i <= n }", false),
            // a coordinate bounded by another (a triangle)
            ("[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }", false),
            // an existential (a stride)
            ("[n] -> { [i] : 0 <= i < n and exists e : i = 2e }", true),
            // an order that depends on the parameters
            ("[n, m] -> { [i] : 0 <= i <= n; [i] : 0 <= i <= m }", true),
            // a strided disjunct reaching beyond the box's point (n even)
            ("[n] -> { [i] : 0 <= i < n; [i] : exists e : i = 2e and 0 <= i <= n }", true),
            // a strided disjunct where the box is empty (n < 5)
            ("[n] -> { [i] : 0 <= i < n and n >= 5; [i] : exists e : i = 2e and 0 <= i < n }", true),
        ] {
            let cells: Set = s.parse().unwrap();
            assert!(box_extreme(&cells, max).unwrap().is_none(), "{s}");
        }
    }
}
