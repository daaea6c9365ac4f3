//! The sources of a dataflow problem and their schedules.

use std::sync::Arc;

use super::super::Timing;
use crate::error::Result;
use std::cmp::Ordering;

use presburger::relation::AffineSchedule;
use presburger::{BasicMap, Int, Map, Tuple};

/// The kind of a source access.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Must,
    Kill,
    May,
}

/// A source access part with its schedule.
pub(super) struct Source<'a> {
    pub(super) kind: Kind,
    pub(super) access: &'a Map,
    pub(super) sched: Sched,
    /// Per time dimension, the time of the instances accessing an element
    /// `a` as an affine function of it, `[constant | params | a]`, where
    /// the schedule and the access determine it, and equalities every
    /// element accessed satisfies (see [`element_times`]).
    pub(super) elem_time: Option<ElementTimes>,
}

/// The times of a source's instances as functions of the element they
/// access ([`element_times`]).
#[derive(Clone)]
pub(super) struct ElementTimes {
    /// Per time dimension, `[constant | params | a]` where determined.
    times: Vec<Option<Vec<i128>>>,
    /// Per time dimension `κ ± x_d` whose coordinate `x_d` the element
    /// determines without being an affine function of it (a [`Window`]):
    /// `κ`, whether negated, and the window. Two equal ones are equal
    /// times for one element.
    windows: Vec<Option<(Vec<i128>, bool, Window)>>,
    /// Equalities `[constant | params | a]` of every element accessed.
    eqs: Vec<Vec<i128>>,
}

impl<'a> Source<'a> {
    /// A source with its times as functions of its element
    /// ([`element_times`] of `access` and `sched`).
    pub(super) fn new(
        kind: Kind,
        access: &'a Map,
        sched: Sched,
        elem_time: Option<ElementTimes>,
    ) -> Source<'a> {
        Source {
            kind,
            access,
            sched,
            elem_time,
        }
    }

    /// True if both sources are accesses of one statement.
    pub(super) fn same_statement(&self, other: &Source) -> bool {
        self.access.space().domain == other.access.space().domain
    }

    /// The order of the times of `self` and `other` (accesses of one
    /// array) on dimensions `l..`, for the instances accessing one element:
    /// decided at their first dimension where the times, as functions of
    /// the element ([`element_times`]), differ by a constant (`Greater`:
    /// `self` always later); `None` when a dimension that is not such a
    /// function, or whose functions differ by more than a constant, comes
    /// first. It extends [`AffineSchedule::compare_from`] (which takes
    /// only the dimensions that do not depend on the instance): a time
    /// dimension that follows an instance coordinate equal to an element
    /// coordinate (`i` in `A[i][j]`) has the same value for both.
    ///
    /// The difference of two such functions counts as a constant when it
    /// is one on the elements both sources access (modulo the equalities
    /// of [`ElementTimes`]: `A[i][i + 1]` accessed by `x_j = x_i + 1`
    /// gives `x_j` as `a_0 + 1`, another access `A[i][j]` gives `a_1`).
    pub(super) fn compare_from(&self, other: &Source, l: usize) -> Option<Ordering> {
        let (a, b) = (self.elem_time.as_ref()?, other.elem_time.as_ref()?);
        let eqs: Vec<&Vec<i128>> = a.eqs.iter().chain(&b.eqs).collect();
        for k in l..a.times.len().min(b.times.len()) {
            let (x, y) = (a.times[k].as_ref()?, b.times[k].as_ref()?);
            match constant_difference(x, y, &eqs)?.cmp(&0) {
                Ordering::Equal => {}
                o => return Some(o),
            }
        }
        None
    }
}

/// Per time dimension of `sched` (of the [`Sched::follows`] form), the
/// time of the instances of `access` (`x -> A[a]`) as an affine function
/// of the element `a`: `[constant | params | a]`. A dimension that does
/// not depend on the instance is its constant; one that follows the
/// coordinate `x_d` (`±x_d + κ`) is a function of `a` when the equalities
/// of every disjunct of `access` determine `x_d` as the same affine
/// function of `a` and the parameters ([`coordinates_by_element`]).
/// `None` for the other dimensions (and the whole when the schedule is not
/// of that form, the access has no disjunct or a value is past `i64`).
pub(super) fn element_times(access: &Map, sched: &Sched) -> Option<ElementTimes> {
    let (affine, follows) = (sched.affine.as_ref()?, sched.follows.as_ref()?);
    let np = affine.n_param();
    let (n_in, n_out) = (access.space().n_in(), access.space().n_out());
    if access.basic_maps().is_empty() || n_in != affine.n_in() || access.space().n_param() != np {
        return None;
    }
    let mut coords: Option<Vec<Option<Vec<i128>>>> = None;
    let mut wins: Option<Vec<Option<Window>>> = None;
    // (the equalities of the elements of one disjunct; with several, none)
    let mut eqs = Vec::new();
    for b in access.basic_maps() {
        let (here, elem_eqs) = coordinates_by_element(b, np, n_in, n_out)?;
        if access.basic_maps().len() == 1 {
            eqs = elem_eqs;
        }
        let w = windows(b, np, n_in, n_out, &here);
        wins = Some(match wins {
            None => w,
            Some(c) => c
                .into_iter()
                .zip(w)
                .map(|(x, y)| if x == y { x } else { None })
                .collect(),
        });
        coords = Some(match coords {
            None => here,
            Some(c) => c
                .into_iter()
                .zip(here)
                .map(|(x, y)| if x == y { x } else { None })
                .collect(),
        });
    }
    let (coords, wins) = (coords?, wins?);
    let small = |v: &Int| v.to_i64().map(i128::from);
    let mut out = Vec::with_capacity(follows.len());
    let mut windows = Vec::with_capacity(follows.len());
    for (k, f) in follows.iter().enumerate() {
        let kappa: Vec<i128> = affine.row(k)[..1 + np]
            .iter()
            .map(small)
            .collect::<Option<_>>()?;
        windows.push(match f {
            Some((d, down)) if coords[*d].is_none() => {
                wins[*d].clone().map(|w| (kappa.clone(), *down, w))
            }
            _ => None,
        });
        out.push(match f {
            None => {
                let mut v = kappa;
                v.resize(1 + np + n_out, 0);
                Some(v)
            }
            // κ + s·x_d, s = ±1, with x_d = f(params, a)
            Some((d, down)) => coords[*d].as_ref().map(|fd| {
                let s: i128 = if *down { -1 } else { 1 };
                let mut v: Vec<i128> = fd.iter().map(|c| s * c).collect();
                for (x, kap) in v.iter_mut().zip(&kappa) {
                    *x += kap;
                }
                v
            }),
        });
    }
    Some(ElementTimes {
        times: out,
        windows,
        eqs,
    })
}

impl ElementTimes {
    /// Whether instances with these times (of a source) may run before
    /// instances with the times `later` (of a sink) *at level `l`* (equal
    /// times on the first `l` dimensions, smaller on dimension `l`) when
    /// both access one element: `false` when, as functions of the element
    /// (modulo both sets of element equalities), the times differ by a
    /// nonzero constant on a dimension before `l`, or the source's is at
    /// least the sink's on dimension `l`. It extends
    /// [`AffineSchedule::may_precede_at`] (constant dimensions) to the
    /// dimensions that follow an instance coordinate fixed by the element.
    pub(super) fn may_precede_at(&self, later: &ElementTimes, l: usize) -> bool {
        let eqs: Vec<&Vec<i128>> = self.eqs.iter().chain(&later.eqs).collect();
        let diff = |k: usize| -> Option<i128> {
            let (x, y) = (self.times.get(k)?.as_ref()?, later.times.get(k)?.as_ref()?);
            constant_difference(x, y, &eqs)
        };
        // (equal windows: the same coordinate for one element)
        let diff = |k: usize| -> Option<i128> {
            diff(k).or_else(|| {
                let (x, y) = (
                    self.windows.get(k)?.as_ref()?,
                    later.windows.get(k)?.as_ref()?,
                );
                (x == y).then_some(0)
            })
        };
        !((0..l).any(|k| diff(k).is_some_and(|d| d != 0)) || diff(l).is_some_and(|d| d >= 0))
    }
}

/// `x - y` (two time functions of the element, same layout) when it is a
/// constant modulo the equalities `eqs` ([`constant_modulo`]).
fn constant_difference(x: &[i128], y: &[i128], eqs: &[&Vec<i128>]) -> Option<i128> {
    if x.len() != y.len() {
        return None;
    }
    let d: Vec<i128> = x
        .iter()
        .zip(y)
        .map(|(p, q)| p.checked_sub(*q))
        .collect::<Option<_>>()?;
    constant_modulo(d, eqs)
}

/// The value of `d` (`[constant | params | a]`) on the points of the
/// equalities `eqs` when it is a constant there (shown by eliminating the
/// non-constant columns of `d` with the equalities), times a positive
/// factor: its sign is the sign of the constant; `None` otherwise (or on
/// an overflow).
fn constant_modulo(mut d: Vec<i128>, eqs: &[&Vec<i128>]) -> Option<i128> {
    let mut rows: Vec<Vec<i128>> = eqs.iter().map(|r| (*r).clone()).collect();
    for col in 1..d.len() {
        let Some(p) = rows
            .iter()
            .position(|r| r.get(col).is_some_and(|v| *v != 0))
        else {
            continue;
        };
        let piv = rows.swap_remove(p);
        let (f, sign) = (piv[col].abs(), piv[col].signum());
        let reduce = |r: &mut Vec<i128>| -> Option<()> {
            let g = r[col];
            if g != 0 {
                for (x, y) in r.iter_mut().zip(&piv) {
                    *x = f
                        .checked_mul(*x)?
                        .checked_sub(sign.checked_mul(g)?.checked_mul(*y)?)?;
                }
            }
            Some(())
        };
        reduce(&mut d)?;
        for r in rows.iter_mut() {
            reduce(r)?;
        }
    }
    d[1..].iter().all(|v| *v == 0).then_some(d[0])
}

/// Per instance coordinate `x_d` of the disjunct `b` of an access
/// `x -> A[a]` (`n_in` coordinates, `n_out` element coordinates): `x_d` as
/// an affine function `[constant | params | a]` of the element with
/// integer coefficients, when the equalities of `b` determine it so (`x_d`
/// of `A[x_d + 1]`, or through an equality between coordinates); `None`
/// per coordinate otherwise, and for the whole on a value past `i64` or
/// an overflow; then the equalities of the element, `[constant | params |
/// a]`.
#[allow(clippy::type_complexity)]
fn coordinates_by_element(
    b: &BasicMap,
    np: usize,
    n_in: usize,
    n_out: usize,
) -> Option<(Vec<Option<Vec<i128>>>, Vec<Vec<i128>>)> {
    let (off_in, off_out) = (b.off_in(), b.off_out());
    let small = |v: &Int| v.to_i64().map(i128::from);
    let mut rows: Vec<Vec<i128>> = b
        .eqs()
        .iter()
        .map(|r| r.iter().map(small).collect::<Option<Vec<i128>>>())
        .collect::<Option<_>>()?;
    // fraction-free elimination on the instance coordinates
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    let mut r = 0;
    for d in 0..n_in {
        let col = off_in + d;
        // (a pivot without locals where there is one: `x_d - a_0 = 0`
        // rather than `x_d = 2e`, which would leave `x_d` undetermined)
        let without_locals = |i: &usize| rows[*i][off_out + n_out..].iter().all(|&v| v == 0);
        let mut found = (r..rows.len()).filter(|&i| rows[i][col] != 0);
        let Some(p) = found.clone().find(without_locals).or_else(|| found.next()) else {
            continue;
        };
        rows.swap(r, p);
        for i in 0..rows.len() {
            if i == r || rows[i][col] == 0 {
                continue;
            }
            let (f, g) = (rows[r][col], rows[i][col]);
            let row: Vec<i128> = rows[i]
                .iter()
                .zip(&rows[r])
                .map(|(x, y)| f.checked_mul(*x)?.checked_sub(g.checked_mul(*y)?))
                .collect::<Option<_>>()?;
            let g = row.iter().fold(0i128, |g, &v| gcd(g, v));
            rows[i] = if g > 1 {
                row.iter().map(|v| v / g).collect()
            } else {
                row
            };
        }
        pivots.push((r, d));
        r += 1;
    }
    let mut out = vec![None; n_in];
    for (r, d) in pivots {
        let row = &rows[r];
        let p = row[off_in + d];
        let others_in = (0..n_in).any(|k| k != d && row[off_in + k] != 0);
        let locals = row[off_out + n_out..].iter().any(|&v| v != 0);
        let rest = row[..1 + np].iter().chain(&row[off_out..off_out + n_out]);
        if others_in || locals || rest.clone().any(|v| v % p != 0) {
            continue;
        }
        // p·x_d + rest = 0
        out[d] = Some(rest.map(|v| -v / p).collect());
    }
    // the rows left after the elimination hold no instance coordinate:
    // equalities of the element (those without locals)
    let elem_eqs = rows[r..]
        .iter()
        .filter(|row| row[off_out + n_out..].iter().all(|&v| v == 0))
        .map(|row| {
            row[..1 + np]
                .iter()
                .chain(&row[off_out..off_out + n_out])
                .copied()
                .collect()
        })
        .collect();
    Some((out, elem_eqs))
}

/// A coordinate `x` that the element determines without being an affine
/// function of it: `x ≡ residue (mod stride)` and `low <= x <= low +
/// width` with `width < stride`, `low` affine in `[constant | params |
/// a]`: at most one value of the residue lies in the window (a tile's
/// origin `ii = 4e` with `ii <= i <= ii + 3` and `i` fixed by the
/// element). Instances with equal windows accessing one element have the
/// same coordinate.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Window {
    low: Vec<i128>,
    width: i128,
    stride: i128,
    residue: i128,
}

/// Per instance coordinate of the disjunct `b` not given by `coords` (the
/// affine functions of the element of [`coordinates_by_element`]), its
/// [`Window`] where the rows show one: an equality `±x + t·e + c = 0` with
/// one local `e` (`|t| >= 2`, nothing else), and a lower and an upper
/// bound `±x + r >= 0` (no locals, other coordinates only those of
/// `coords`) a constant less than `|t|` apart. `None` elsewhere (and on an
/// overflow).
fn windows(
    b: &BasicMap,
    np: usize,
    n_in: usize,
    n_out: usize,
    coords: &[Option<Vec<i128>>],
) -> Vec<Option<Window>> {
    let mut out = vec![None; n_in];
    if b.n_div() == 0 {
        return out;
    }
    let (off_in, off_out) = (b.off_in(), b.off_out());
    let off_loc = off_out + n_out;
    let small = |v: &Int| v.to_i64().map(i128::from);
    let row_of = |r: &[Int]| r.iter().map(small).collect::<Option<Vec<i128>>>();
    // (rows past i64 are left out: they show no window)
    let eqs: Vec<Vec<i128>> = b.eqs().iter().filter_map(row_of).collect();
    let ineqs: Vec<Vec<i128>> = b.ineqs().iter().filter_map(row_of).collect();
    for (d, c) in coords.iter().enumerate() {
        if c.is_some() {
            continue;
        }
        let col = off_in + d;
        // the stride and residue
        let stride = eqs.iter().find_map(|r| {
            let sigma = r[col];
            let only_x = (0..n_in).all(|k| k == d || r[off_in + k] == 0);
            let locals: Vec<i128> = r[off_loc..].iter().copied().filter(|v| *v != 0).collect();
            let rest_zero = r[1..off_in]
                .iter()
                .chain(&r[off_out..off_loc])
                .all(|v| *v == 0);
            match locals.as_slice() {
                [t] if sigma.abs() == 1 && only_x && rest_zero && t.abs() >= 2 => {
                    let m = t.abs();
                    Some((m, (-sigma * r[0]).rem_euclid(m)))
                }
                _ => None,
            }
        });
        let Some((stride, residue)) = stride else {
            continue;
        };
        // the bounds, in `[constant | params | a]`
        let (mut lows, mut ups) = (Vec::new(), Vec::new());
        for r in &ineqs {
            let sigma = r[col];
            if sigma.abs() != 1 || r[off_loc..].iter().any(|v| *v != 0) {
                continue;
            }
            // r without x: [c | params] + a-part + the other coordinates substituted
            let mut rest: Vec<i128> = r[..1 + np].to_vec();
            rest.extend_from_slice(&r[off_out..off_loc]);
            let mut ok = true;
            for k in (0..n_in).filter(|&k| k != d && r[off_in + k] != 0) {
                let Some(f) = &coords[k] else {
                    ok = false;
                    break;
                };
                for (x, y) in rest.iter_mut().zip(f) {
                    match r[off_in + k].checked_mul(*y).and_then(|v| x.checked_add(v)) {
                        Some(v) => *x = v,
                        None => ok = false,
                    }
                }
            }
            if !ok {
                continue;
            }
            if sigma == 1 {
                // x + rest >= 0: x >= -rest
                lows.push(rest.iter().map(|v| -v).collect::<Vec<i128>>());
            } else {
                // -x + rest >= 0: x <= rest
                ups.push(rest);
            }
        }
        out[d] = lows.iter().find_map(|low| {
            ups.iter().find_map(|up| {
                let w: Vec<i128> = up
                    .iter()
                    .zip(low)
                    .map(|(u, l)| u.checked_sub(*l))
                    .collect::<Option<_>>()?;
                (w[1..].iter().all(|v| *v == 0) && 0 <= w[0] && w[0] < stride).then(|| Window {
                    low: low.clone(),
                    width: w[0],
                    stride,
                    residue,
                })
            })
        });
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The schedule of one statement (domain tuple): as a relation, its inverse,
/// and, when it is an affine function, that function.
#[derive(Clone)]
pub(super) struct Sched {
    pub(super) map: Map,
    pub(super) inv: Map,
    pub(super) affine: Option<AffineSchedule>,
    /// Distinct instances always have distinct times.
    pub(super) injective: bool,
    /// [`AffineSchedule::signed_unit_coordinates`]: the times compare as
    /// the instance coordinates (negated where they first appear with
    /// coefficient -1) in the order of their first appearance.
    pub(super) follows: Option<Vec<Option<(usize, bool)>>>,
}

impl Sched {
    fn new(map: Map) -> Result<Sched> {
        let affine = AffineSchedule::from_map(&map);
        let injective = affine.as_ref().is_some_and(AffineSchedule::is_injective);
        let follows = affine
            .as_ref()
            .and_then(AffineSchedule::signed_unit_coordinates);
        let inv = map.reverse()?;
        Ok(Sched {
            map,
            inv,
            affine,
            injective,
            follows,
        })
    }
}

/// The schedule lookup of a normalised timing, all parameters aligned to `params`.
pub(super) struct Schedules(Vec<(Arc<Tuple>, Sched)>);

impl Schedules {
    pub(super) fn new(tm: &Timing, params: &[String]) -> Result<Schedules> {
        let mut out = Vec::new();
        for m in tm.sched.maps() {
            let mut m = m.clone();
            m.align_params(params);
            let dom = m.space().domain.clone().expect("relation");
            out.push((dom, Sched::new(m)?));
        }
        Ok(Schedules(out))
    }

    pub(super) fn of(&self, domain: &Tuple) -> &Sched {
        let found = self.0.iter().find(|(d, _)| **d == *domain);
        &found.expect("Timing covers every access domain").1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(s: &str) -> Sched {
        Sched::new(s.parse().unwrap()).unwrap()
    }

    fn times(access: &str, s: &Sched) -> ElementTimes {
        element_times(&access.parse().unwrap(), s).expect("times of the element")
    }

    /// In a tiled, strided loop (`ii = 4e`, `i = 2e'`) the element still
    /// fixes `i` and `j` (the pivot for `i` is `i - a0 = 0`, not `i = 2e'`):
    /// a source writing the sink's element `A[i][j]` cannot precede it at
    /// the levels of `i` and `j`, one writing `A[i - 1][j]` can at that of
    /// `i` (not past it); the tile level stays open.
    #[test]
    fn element_times_rule_out_levels_through_strided_coordinates() {
        let s = sched("[n] -> { S[ii, i, j] -> [0, ii, i, j, 0] }");
        let dom =
            "0 <= ii < n and ii <= i <= ii + 3 and 0 <= j < n and ii mod 4 = 0 and i mod 2 = 0";
        let sink = times(&format!("[n] -> {{ S[ii, i, j] -> A[i, j] : {dom} }}"), &s);
        let same = times(&format!("[n] -> {{ S[ii, i, j] -> A[i, j] : {dom} }}"), &s);
        let prev = times(
            &format!("[n] -> {{ S[ii, i, j] -> A[i + 1, j] : {dom} }}"),
            &s,
        );
        // the tile origin is the one multiple of 4 in [i - 3, i]: equal too
        let open: Vec<bool> = (0..5).map(|l| same.may_precede_at(&sink, l)).collect();
        assert_eq!(open, [false; 5]);
        // the source writes A[i + 1][j] at i' = a0 - 1: one i earlier
        let open: Vec<bool> = (0..5).map(|l| prev.may_precede_at(&sink, l)).collect();
        assert_eq!(open, [false, true, true, false, false]);
        // the other way round it runs one i later: never before
        let open: Vec<bool> = (0..5).map(|l| sink.may_precede_at(&prev, l)).collect();
        assert_eq!(open, [false, true, false, false, false]);
        // a window as wide as the stride holds two multiples of 4: the tile
        // level stays open
        let wide = dom.replace("i <= ii + 3", "i <= ii + 4");
        let a = times(&format!("[n] -> {{ S[ii, i, j] -> A[i, j] : {wide} }}"), &s);
        let open: Vec<bool> = (0..5).map(|l| a.may_precede_at(&a, l)).collect();
        assert_eq!(open, [false, true, false, false, false]);
        // so does a coordinate bounded by one that the element does not fix
        let free = "[n] -> { S[ii, i, j] -> A[j, j] : 0 <= ii < n and ii <= i <= ii + 3 and 0 <= j < n and ii mod 4 = 0 }";
        let a = times(free, &s);
        let open: Vec<bool> = (0..5).map(|l| a.may_precede_at(&a, l)).collect();
        assert_eq!(open, [false, true, true, false, false]);
    }
}
