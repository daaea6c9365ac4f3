//! A simplified, non-empty disjunct with the data the pairwise questions of
//! coalescing and equality share: one integer point and the tableau of its
//! rational relaxation.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::matrix::eval;
use crate::syntactic::{point_excluded, syntactically_contains};

use super::implied::implied_by_two;

/// A simplified, non-empty disjunct with data cached for the pairwise
/// questions of [`Map::coalesce`] and [`Map::is_equal_fast`]: one integer
/// point of it and (built when first needed) the simplex tableau of its
/// rational relaxation, shared by every LP asked about this disjunct.
pub(crate) struct Part {
    pub(super) b: BasicMap,
    /// An integer point `(params, in, out)` of `b`, once looked for.
    pub(super) pt: Sample,
    /// The rational relaxation of `b` (locals as rational unknowns).
    pub(super) tab: Option<crate::simplex::Tableau>,
}

/// What is known of the integer points of a disjunct.
#[derive(Clone, Debug)]
pub(crate) enum Sample {
    /// Not looked for yet (or undecided).
    Unknown,
    /// No integer point.
    Empty,
    /// An integer point `(params, in, out)`.
    Point(Vec<Int>),
}

impl Sample {
    /// The point, if one is known.
    pub(super) fn point(&self) -> Option<&[Int]> {
        match self {
            Sample::Point(p) => Some(p),
            Sample::Unknown | Sample::Empty => None,
        }
    }

    /// From an exact answer: a point, or `None` if empty.
    pub(super) fn from_answer(p: Option<Vec<Int>>) -> Sample {
        match p {
            Some(p) => Sample::Point(p),
            None => Sample::Empty,
        }
    }
}

/// At most this many rows of the other disjunct are tried by
/// `Part::sampled_point_outside`.
const MAX_SAMPLED_ROWS: usize = 8;

impl Part {
    pub(super) fn new(b: BasicMap) -> Part {
        Part {
            b,
            pt: Sample::Unknown,
            tab: None,
        }
    }

    /// The non-empty disjuncts of `m`, simplified as by
    /// [`Map::remove_empty_parts`] (with its LP detection of relations
    /// between locals), so that they are exactly its disjuncts.
    ///
    /// A disjunct written exactly as an earlier one (same divisions and rows
    /// in the same order) is left out before any work: coalescing would find
    /// it contained in whatever kept disjunct contains its first copy.
    pub(super) fn all(m: &Map) -> Result<Vec<Part>> {
        let mut out = Vec::with_capacity(m.parts.len());
        for (i, b) in m.parts.iter().enumerate() {
            if m.parts[..i].iter().any(|a| same_rows(a, b)) {
                continue;
            }
            // the exact emptiness test's point is not returned: a point is
            // looked for again when one is needed (usually a cheap guess)
            if let Some(b) = b.simplified_nonempty()? {
                out.push(Part::new(b));
            }
        }
        Ok(out)
    }

    /// Simplify a disjunct with locals again once it is final (fused, its
    /// redundant rows removed): a division whose other rows were redundant
    /// is left constrained by its own floor rows only, which `simplify`
    /// removes (as `Part::all` does for an input disjunct), and a fusion
    /// keeps the divisions of both disjuncts. So coalescing the answer again
    /// leaves it as it is. The cached point stays a point (the same set).
    pub(super) fn resimplify_locals(&mut self) -> Result<()> {
        if self.b.n_div() == 0 {
            return Ok(());
        }
        let mut b = self.b.clone();
        if b.simplify() && !b.plain_is_equal(&self.b) {
            self.b = b;
            self.tab = None;
        }
        Ok(())
    }

    /// Replace the disjunct by an equal one whose locals all have
    /// definitions, when [`BasicMap::detect_divs`] finds them (it adds only
    /// rows that keep the set: a choice of the existentials' values) or
    /// else [`BasicMap::make_divs_explicit`] gives one disjunct; left as it
    /// is otherwise. The cached point stays a point of it.
    pub(super) fn define_existentials(&mut self) -> Result<()> {
        let all_defined = |b: &BasicMap| b.divs.iter().all(Option::is_some);
        if all_defined(&self.b) {
            return Ok(());
        }
        let mut b = self.b.clone();
        if b.detect_divs() && b.simplify() && all_defined(&b) {
            self.b = b;
            self.tab = None;
            return Ok(());
        }
        let mut v = self.b.make_divs_explicit()?;
        if v.len() == 1 && all_defined(&v[0]) {
            let mut b = v.pop().expect("one");
            if b.simplify() && all_defined(&b) {
                self.b = b;
                self.tab = None;
            }
        }
        Ok(())
    }

    /// An integer point of the disjunct, or `None` if it is empty (exact).
    /// When the tableau is already built:
    /// - the rational relaxation is empty: empty;
    /// - the tableau's sample point (a solution of the relaxation) is
    ///   integral and satisfies every row (checked): a point; the locals'
    ///   values are witnesses, and the constraints alone define the set;
    /// - otherwise [`BasicMap::sample`].
    pub(super) fn point(&mut self) -> Result<Option<&[Int]>> {
        if matches!(self.pt, Sample::Unknown) {
            // the tableau costs about as much as a failed guess and search:
            // use it only when it is already built
            let found = match self.tab.is_some() {
                true => self.rational_point()?,
                false => Sample::Unknown,
            };
            self.pt = match found {
                Sample::Unknown => Sample::from_answer(self.b.sample()?),
                decided => decided,
            };
        }
        Ok(self.pt.point())
    }

    /// [`Sample::Empty`] if the relaxation is empty, a verified integral
    /// sample point of the tableau, or [`Sample::Unknown`] if undecided.
    pub(super) fn rational_point(&mut self) -> Result<Sample> {
        let n = self.b.row_len();
        let t = self.tab()?;
        if t.is_empty() {
            return Ok(Sample::Empty);
        }
        let mut v = Vec::with_capacity(n);
        v.push(Int::ONE);
        for k in 0..n - 1 {
            let (num, den) = t.sample_value(k);
            if !num.is_divisible_by(&den) {
                return Ok(Sample::Unknown);
            }
            v.push(num.div_exact(&den));
        }
        let ok = self.b.eqs.iter().all(|e| eval(e, &v[1..]).is_zero())
            && self.b.ineqs.iter().all(|r| !eval(r, &v[1..]).is_neg());
        if !ok {
            return Ok(Sample::Unknown);
        }
        v.truncate(1 + self.b.space.n_vars());
        v.remove(0);
        Ok(Sample::Point(v))
    }

    pub(super) fn into_map(space: crate::Space, parts: Vec<Part>) -> Map {
        Map::new(space, parts.into_iter().map(|p| p.b).collect())
    }

    pub(super) fn tab(&mut self) -> Result<&mut crate::simplex::Tableau> {
        if self.tab.is_none() {
            self.tab = Some(self.b.rational_tableau()?);
        }
        Ok(self.tab.as_mut().expect("just built"))
    }

    /// The sample point of the tableau (after [`min`](Self::min): a
    /// minimiser), every column but the constant, as fractions with
    /// positive denominators.
    pub(super) fn tab_sample(&mut self) -> Result<Vec<(Int, Int)>> {
        let n = self.b.row_len() - 1;
        let t = self.tab()?;
        Ok((0..n)
            .map(|k| {
                let (num, den) = t.sample_value(k);
                if den.is_neg() {
                    (-num, -den)
                } else {
                    (num, den)
                }
            })
            .collect())
    }

    /// The minimum of `row · (1, x, l)` over the rational relaxation, as
    /// `(num, den)`, or `None` if unbounded. Only for a non-empty relaxation.
    pub(super) fn min(&mut self, row: &[Int]) -> Result<Option<(Int, Int)>> {
        let t = self.tab()?;
        if t.is_empty() {
            // no optimum; callers read `None` as "not proved"
            return Ok(None);
        }
        // `minimize` leaves the tableau describing the same polyhedron
        Ok(match t.minimize(row)? {
            crate::simplex::Opt::Value(n, d) => Some((n, d)),
            crate::simplex::Opt::Unbounded => None,
        })
    }

    /// True if the row `r ≥ 0` holds at every integer point of the
    /// disjunct (for a disjunct with locals: at every solution `(x, l)` of
    /// its constraints, which is what a row over its columns means; the
    /// constraints alone define the set), with the rational minimum of `r`
    /// over the relaxation when the LP found one.
    ///
    /// - one row of the disjunct implies `r` (`implied_by_one_row`): valid,
    ///   without an LP (no minimum);
    /// - LP: `r` takes integer values at integer points, so a rational
    ///   minimum `> -1` means `r ≥ 0` at all of them: valid.
    /// - the cached point (completed by the divisions' values) violates
    ///   `r`, or the LP's minimiser rounded down is a point of the
    ///   disjunct that violates it: not valid.
    /// - otherwise the exact test: the disjunct with `r ≤ -1` is empty.
    ///
    /// Without `exact`, the last test is left out and an undecided row
    /// counts as not valid (for disjuncts with divisions, where the exact
    /// test is costly and a row wrongly taken as not valid only costs a
    /// fusion).
    pub(super) fn validity(
        &mut self,
        r: &[Int],
        exact: bool,
    ) -> Result<(bool, Option<(Int, Int)>)> {
        if implied_by_one_row(&self.b, r) {
            return Ok((true, None));
        }
        let m = self.min(r)?;
        if let Some((n, d)) = &m {
            if n > &-d {
                return Ok((true, m));
            }
        }
        if let Some(x) = self.full_point()? {
            if eval(r, &x).is_neg() {
                return Ok((false, m));
            }
        }
        if m.is_some() && self.rounded_minimiser_violates(r) {
            return Ok((false, m));
        }
        if !exact {
            // only rows whose rational minimum is above minus the largest
            // denominator of a division (a row over rationally relaxed
            // divisions may dip that far below an integer-valid bound)
            let big = self.b.divs.iter().flatten().map(|d| d.den.clone()).max();
            let near = match (&m, big) {
                (Some((n, d)), Some(big)) => n > &-&(d * &big),
                _ => false,
            };
            if !near {
                return Ok((false, m));
            }
        }
        let mut t = self.b.clone();
        let mut neg: Vec<Int> = r.iter().map(|v| -v).collect();
        neg[0] = &neg[0] - &Int::ONE;
        t.ineqs.push(neg);
        Ok((t.is_empty()?, m))
    }

    /// Whether the sample point of the tableau (after [`min`](Self::min)
    /// of `r`: its minimiser), its variables rounded down and its divisions
    /// at their values, is a point of the disjunct where `r < 0` (every
    /// local must be a division; `false` proves nothing).
    fn rounded_minimiser_violates(&self, r: &[Int]) -> bool {
        let Some(t) = &self.tab else {
            return false;
        };
        let n = self.b.space.n_vars();
        let mut v: Vec<Int> = (0..n)
            .map(|k| {
                let (num, den) = t.sample_value(k);
                num.div_floor(&den)
            })
            .collect();
        for d in &self.b.divs {
            let Some(d) = d else {
                return false;
            };
            let q = eval(&d.num, &v).div_floor(&d.den);
            v.push(q);
        }
        eval(r, &v).is_neg()
            && self.b.eqs.iter().all(|e| eval(e, &v).is_zero())
            && self.b.ineqs.iter().all(|q| !eval(q, &v).is_neg())
    }

    /// The disjunct's point with the values of its locals appended, when
    /// every local is a division (`None` if some local is a plain
    /// existential or the disjunct is empty). By the consistency invariant
    /// this is a solution of the constraints.
    pub(super) fn full_point(&mut self) -> Result<Option<Vec<Int>>> {
        if self.b.divs.iter().any(Option::is_none) {
            return Ok(None);
        }
        let Some(x) = self.point()? else {
            return Ok(None);
        };
        let mut v = x.to_vec();
        for d in self.b.divs.iter().flatten() {
            let q = eval(&d.num, &v).div_floor(&d.den);
            v.push(q);
        }
        Ok(Some(v))
    }

    /// Exact `self ⊆ q`, trying cheap tests before [`Map::is_subset`]:
    /// - syntactic containment (`syntactically_contains`): contained;
    /// - `self`'s point is proved outside `q` (`point_excluded`): not contained;
    /// - same row layout and every row of `q` has a rational minimum `> -1`
    ///   over `self`'s relaxation: contained. At an integer point `(x, l)` of
    ///   `self` each row of `q` is an integer `> -1`, so `(x, l)` satisfies
    ///   all of `q`'s rows and `x ∈ q` with the witnesses `l` for `q`'s
    ///   locals (the constraints alone define a basic map).
    /// - when `q`'s locals are all divisions: each row of `q` holds at
    ///   every integer point of `self` with `q`'s divisions at their values
    ///   ([`subset_by_rows`](Self::subset_by_rows));
    /// - otherwise the inclusion test.
    pub(super) fn is_subset_of(&mut self, q: &mut Part) -> Result<bool> {
        Ok(match self.cheap_subset_of(q)? {
            Some(v) => v,
            None if self.sampled_point_outside(&q.b)? => false,
            None => match self.subset_by_rows(q)? {
                Some(v) => v,
                None => Map::from_basic(self.b.clone()).is_subset(&Map::from_basic(q.b.clone()))?,
            },
        })
    }

    /// `self ⊆ q` decided row by row: `self` with the divisions of `q` it
    /// lacks (`align::rows_over`) and every division's defining rows is
    /// inside `q` iff it satisfies every row of `q` over the same columns
    /// (`cover::satisfies_all`; `self`'s plain existentials stay free).
    /// `None` when some local of `q` is a plain existential or its
    /// divisions cannot be carried over.
    pub(super) fn subset_by_rows(&mut self, q: &Part) -> Result<Option<bool>> {
        let Some((mut p2, rows)) = super::align::rows_over(&self.b, &q.b) else {
            return Ok(None);
        };
        force_divs(&mut p2);
        let t = p2.rational_tableau()?;
        let rows: Vec<&[Int]> = rows.iter().map(|r| &r[..]).collect();
        Ok(Some(super::cover::satisfies_all(&p2, t, &rows)?))
    }

    /// Whether an integer point of `self` beyond one of `q`'s rows (`r <=
    /// -1`, for the first few rows whose rational minimum over `self` allows
    /// it) is proved outside `q` (by `q`'s division definitions): a witness
    /// that `self ⊄ q` found by a few samples instead of the difference.
    /// `false` proves nothing.
    pub(super) fn sampled_point_outside(&mut self, q: &BasicMap) -> Result<bool> {
        if q.row_len() != self.b.row_len()
            || !crate::map::same_params(&q.space.params, &self.b.space.params)
        {
            return Ok(false);
        }
        let rows = q.as_inequalities();
        let mut tried = 0;
        for (r, negate) in rows {
            if tried == MAX_SAMPLED_ROWS {
                break;
            }
            let r: Vec<Int> = if negate {
                r.iter().map(|v| -v).collect()
            } else {
                r.to_vec()
            };
            if let Some((n, d)) = self.min(&r)? {
                if n > -&d {
                    continue;
                }
            }
            crate::budget::tick(1)?;
            tried += 1;
            let mut beyond = self.b.clone();
            let mut neg: Vec<Int> = r.iter().map(|v| -v).collect();
            neg[0] = &neg[0] - &Int::ONE;
            beyond.ineqs.push(neg);
            if let Some(x) = beyond.sample()? {
                if point_excluded(q, &x) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The cheap tests of [`is_subset_of`](Self::is_subset_of): `None` when
    /// they do not decide.
    pub(super) fn cheap_subset_of(&mut self, q: &Part) -> Result<Option<bool>> {
        if syntactically_contains(&q.b, &self.b) {
            return Ok(Some(true));
        }
        match self.point()? {
            // empty: contained in anything
            None => return Ok(Some(true)),
            Some(x) if point_excluded(&q.b, x) => return Ok(Some(false)),
            _ => {}
        }
        Ok(if self.lp_contained_in(&q.b)? {
            Some(true)
        } else {
            None
        })
    }

    /// The LP test of [`is_subset_of`](Self::is_subset_of).
    pub(super) fn lp_contained_in(&mut self, q: &BasicMap) -> Result<bool> {
        if q.row_len() != self.b.row_len()
            || !crate::map::same_params(&q.space.params, &self.b.space.params)
        {
            return Ok(false);
        }
        for e in &q.eqs {
            let neg: Vec<Int> = e.iter().map(|v| -v).collect();
            for r in [e, &neg] {
                match self.min(r)? {
                    Some((n, d)) if n > -&d => {}
                    _ => return Ok(false),
                }
            }
        }
        for r in &q.ineqs {
            match self.min(r)? {
                Some((n, d)) if n > -&d => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// [`BasicMap::remove_redundancies`] with fewer tableaux; the same rows
    /// are removed. Inequality `k` is tested in order against all the other
    /// rows still present, as there:
    /// - it is the only bound of some column in its direction (every other
    ///   inequality has a zero or opposite coefficient, every equality
    ///   involving the column has a column of its own to compensate):
    ///   moving along that column keeps the other rows satisfied and makes
    ///   row `k` negative, so it is not redundant (the disjunct is
    ///   non-empty);
    /// - from the point the disjunct keeps (its hint, checked), a step along
    ///   one column makes row `k` negative before any other row
    ///   (`step_leaves_row`): not redundant;
    /// - it is a non-negative combination of at most two other rows plus a
    ///   non-negative constant (`implied::implied_by_two`): redundant (the
    ///   LP below would find a minimum `≥ 0`);
    /// - its rational minimum over the whole relaxation `P` is `> 0`: it is
    ///   redundant. If the other rows allowed a point `y` with `r_k(y) < 0`,
    ///   the segment from `y` to a point of `P` would cross `r_k = 0` at a
    ///   point satisfying every row, i.e. a point of `P` with `r_k = 0`.
    ///   Removing a redundant row leaves `P` unchanged, so the one tableau
    ///   of `P` serves for every row (tried only when that tableau is
    ///   already built for other LPs);
    /// - otherwise the LP of `remove_redundancies`: minimize `r_k` over the
    ///   other rows; redundant iff the minimum is `≥ 0`. The tableau of the
    ///   equalities and the kept rows before `k` is built incrementally
    ///   (when some row first needs it) and copied for each such test.
    pub(super) fn remove_redundant_rows(&mut self) -> Result<()> {
        let n = self.b.row_len();
        // the tableau of the equalities and of the kept rows before `k`,
        // built when first needed and then brought up to date
        let mut prefix: Option<(crate::simplex::Tableau, usize)> = None;
        let mut k = 0;
        while k < self.b.ineqs.len() {
            crate::budget::tick(1)?;
            if only_bound_in_some_column(&self.b, k) {
                k += 1;
                continue;
            }
            if implied_by_two(&self.b, k) {
                self.b.ineqs.remove(k);
                continue;
            }
            if let Some(x) = self.b.hint.get() {
                if step_leaves_row(&self.b, k, &x) {
                    k += 1;
                    continue;
                }
            }
            // only with the tableau of `P` at hand (built for other LPs)
            if self.tab.is_some() {
                let r = self.b.ineqs[k].to_vec();
                if matches!(self.min(&r)?, Some((num, _)) if num.is_pos()) {
                    self.b.ineqs.remove(k);
                    continue;
                }
            }
            let (pre, upto) = match &mut prefix {
                Some(p) => p,
                None => {
                    let mut t = crate::simplex::Tableau::new(n - 1);
                    for e in &self.b.eqs {
                        t.add_eq(e)?;
                    }
                    prefix.insert((t, 0))
                }
            };
            if pre.is_empty() {
                // cannot happen for a non-empty disjunct; as the original
                return Ok(());
            }
            for r in self.b.ineqs.iter().take(k).skip(*upto) {
                pre.add_ineq(r)?;
            }
            *upto = k;
            let mut t = pre.clone();
            for r in self.b.ineqs.iter().skip(k + 1) {
                t.add_ineq(r)?;
            }
            if t.is_empty() {
                return Ok(());
            }
            let redundant = match t.minimize(&self.b.ineqs[k])? {
                crate::simplex::Opt::Value(num, _) => !num.is_neg(),
                crate::simplex::Opt::Unbounded => false,
            };
            if redundant {
                self.b.ineqs.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}

/// Inequality `k` of `b` is the only bound of some column in its direction
/// (see [`Part::remove_redundant_rows`]): every other inequality has a zero
/// or opposite coefficient there, and every equality involving the column
/// also involves a column of its own (in no other row), which moves along
/// to keep it satisfied. Then a ray from any point of the relaxation keeps
/// every other row satisfied and makes row `k` negative.
pub(super) fn only_bound_in_some_column(b: &BasicMap, k: usize) -> bool {
    let r = &b.ineqs[k];
    (1..b.row_len()).any(|c| {
        let s = r[c].signum();
        s != 0
            && b.ineqs
                .iter()
                .enumerate()
                .all(|(i, o)| i == k || o[c].signum() * s <= 0)
            && b.eqs
                .iter()
                .enumerate()
                .all(|(ie, e)| e[c].is_zero() || has_own_column(b, ie, c))
    })
}

/// Equality `ie` of `b` has a non-zero column other than `c` that no other
/// row of `b` involves.
fn has_own_column(b: &BasicMap, ie: usize, c: usize) -> bool {
    let e = &b.eqs[ie];
    (1..b.row_len()).any(|d| {
        d != c
            && !e[d].is_zero()
            && b.ineqs.iter().all(|o| o[d].is_zero())
            && b.eqs
                .iter()
                .enumerate()
                .all(|(j, f)| j == ie || f[d].is_zero())
    })
}

/// Add to `b` the defining rows of its divisions that it lacks, so that
/// every solution has its divisions at their values (plain existentials
/// stay free).
pub(super) fn force_divs(b: &mut BasicMap) {
    let off = b.off_div();
    let mut add = Vec::new();
    for (k, d) in b.divs.iter().enumerate() {
        let Some(d) = d else {
            continue;
        };
        for r in d.bounds(off + k) {
            if !b.ineqs.contains(&r) && !add.contains(&r) {
                add.push(r);
            }
        }
    }
    if !add.is_empty() {
        b.ineqs.extend(add);
    }
}

/// `r ≥ 0` follows from a single row of `b` (over the same columns): an
/// inequality with the same coefficients and a constant at most `r`'s, or
/// an equality whose coefficients are `r`'s or their negation with the
/// constant (negated alike) at most `r`'s; or `r` has no variable and a
/// non-negative constant. The per-row rule of `syntactically_contains`.
pub(super) fn implied_by_one_row(b: &BasicMap, r: &[Int]) -> bool {
    if r.len() != b.row_len() {
        return false;
    }
    let (c, a) = (&r[0], &r[1..]);
    if a.iter().all(Int::is_zero) {
        return !c.is_neg();
    }
    let opposite = |x: &[Int], y: &[Int]| x.iter().zip(y).all(|(u, v)| (u + v).is_zero());
    b.ineqs.iter().any(|f| f[1..] == *a && f[0] <= *c)
        || b.eqs
            .iter()
            .any(|f| (f[1..] == *a && f[0] <= *c) || (opposite(&f[1..], a) && -&f[0] <= *c))
}

/// `a` and `b` have the same divisions and the same rows in the same order
/// (so they are the same set, and simplify alike).
fn same_rows(a: &BasicMap, b: &BasicMap) -> bool {
    a.ineqs == b.ineqs && a.eqs == b.eqs && a.divs == b.divs && a.space == b.space
}

/// `x` (every column but the constant) is a point of `b`, and a step from it
/// along some column makes inequality `k` negative while every other row
/// still holds (the other inequalities that the step decreases are less
/// tight at `x`, relative to their coefficients; equalities involving the
/// column compensate through a column of their own, as in
/// [`only_bound_in_some_column`]). Then the point after the step satisfies
/// every other row and violates row `k`: it is not redundant.
pub(super) fn step_leaves_row(b: &BasicMap, k: usize, x: &[i64]) -> bool {
    let n = b.row_len();
    if x.len() + 1 != n {
        return false;
    }
    let value = |r: &[Int]| -> Option<i128> {
        let mut s = i128::from(r[0].to_i64()?);
        for (a, &v) in r[1..].iter().zip(x) {
            if !a.is_zero() {
                s = s.checked_add(i128::from(a.to_i64()?).checked_mul(i128::from(v))?)?;
            }
        }
        Some(s)
    };
    let Some(vals) = b
        .ineqs
        .iter()
        .map(|r| value(r))
        .collect::<Option<Vec<i128>>>()
    else {
        return false;
    };
    if vals.iter().any(|&v| v < 0) || !b.eqs.iter().all(|e| value(e) == Some(0)) {
        return false;
    }
    let r = &b.ineqs[k];
    (1..n).any(|c| {
        let Some(akc) = r[c].to_i64().filter(|&a| a != 0) else {
            return false;
        };
        let s = akc.signum();
        // row k reaches 0 after vals[k] / |akc|; row i after vals[i] / |aic|
        let moves_first = |(i, o): (usize, &[Int])| {
            i == k
                || match o[c].to_i64() {
                    Some(aic) if aic.signum() * s <= 0 => true,
                    Some(aic) => vals[k]
                        .checked_mul(i128::from(aic.abs()))
                        .zip(vals[i].checked_mul(i128::from(akc.abs())))
                        .is_some_and(|(l, rr)| l < rr),
                    None => false,
                }
        };
        b.ineqs.iter().enumerate().all(moves_first)
            && b.eqs
                .iter()
                .enumerate()
                .all(|(ie, e)| e[c].is_zero() || has_own_column(b, ie, c))
    })
}
