//! Basic relations: conjunctions of affine constraints with local variables.
//!
//! A [`BasicMap`] is `{ x : exists l : E·(1, x, l) = 0 and I·(1, x, l) >= 0 }`
//! where `x` are the parameters and dimensions of its [`Space`] and `l` the
//! *local variables*. Each constraint is a row `[c | params | in | out | locals]`
//! of exact integers ([`Int`]); the constant comes first.
//!
//! A local either has a definition `floor(num / den)` ([`Div`], an *integer
//! division*) or is a plain existential (`None`).
//!
//! Invariants:
//! - every row has length [`BasicMap::row_len`];
//! - the constraints alone define the set: a div's definition is extra
//!   knowledge, never needed to decide membership. When a div is added, its
//!   two defining inequalities `num - den·q >= 0` and
//!   `-num + den·q + den - 1 >= 0` are added too;
//! - a definition is *consistent*: for every solution `(x, l)` of the
//!   constraints, a defined local equals `floor(num(x, l) / den)`;
//! - a div's numerator refers only to locals with smaller index.
//!
//! ```
//! use presburger::{BasicMap, Int, Space, Tuple};
//! // { [i] : 0 <= i <= 10 and i = 2*floor(i/2) }
//! let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(1)));
//! b.add_ineq(vec![Int::from(0), Int::from(1)]);
//! b.add_ineq(vec![Int::from(10), Int::from(-1)]);
//! let q = b.add_div(vec![Int::from(0), Int::from(1)], Int::from(2));
//! let mut row = vec![Int::from(0); b.row_len()];
//! row[1] = Int::from(1);
//! row[q] = Int::from(-2);
//! b.add_eq(row);
//! assert_eq!(b.n_div(), 1);
//! ```

use crate::int::{gcd_slice, Int};
use crate::matrix::{normalize_eq, normalize_ineq, RowStatus};
use crate::rows::Rows;
use crate::space::Space;

/// The definition `floor(num / den)` of a local variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Div {
    /// Numerator row, `[c | params | in | out | locals]` (same length as a constraint row).
    pub num: Vec<Int>,
    /// Positive denominator.
    pub den: Int,
}

impl Div {
    /// The two defining inequalities of the local `q = floor(num / den)` at
    /// column `col`: `num - den·q >= 0` and `-num + den·q + den - 1 >= 0`
    /// (`num` may mention `q`'s column only with coefficient 0).
    pub fn bounds(&self, col: usize) -> [Vec<Int>; 2] {
        let mut lo = self.num.clone();
        lo[col] = &lo[col] - &self.den;
        let mut hi: Vec<Int> = self.num.iter().map(|v| -v).collect();
        hi[col] = &hi[col] + &self.den;
        hi[0] = &(&hi[0] + &self.den) - &Int::ONE;
        [lo, hi]
    }
}

/// A conjunction of affine constraints over a space, with local variables.
/// See the [module documentation](self).
#[derive(Clone)]
pub struct BasicMap {
    pub(crate) space: Space,
    pub(crate) divs: crate::divs::Divs,
    pub(crate) eqs: crate::rows::Rows,
    pub(crate) ineqs: crate::rows::Rows,
    /// A point found by an earlier emptiness test or sample, re-checked
    /// before any use (so it may go stale without harm); not part of the
    /// value: `Debug` and the operations ignore it.
    pub(crate) hint: crate::hint::Hint,
}

impl std::fmt::Debug for BasicMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BasicMap")
            .field("space", &self.space)
            .field("divs", &self.divs)
            .field("eqs", &self.eqs)
            .field("ineqs", &self.ineqs)
            .finish()
    }
}

impl BasicMap {
    /// All points of the space.
    pub fn universe(space: Space) -> BasicMap {
        BasicMap {
            space,
            divs: Default::default(),
            eqs: Default::default(),
            ineqs: Default::default(),
            hint: Default::default(),
        }
    }

    /// No point of the space (the single constraint `-1 >= 0`).
    pub fn empty(space: Space) -> BasicMap {
        let mut b = BasicMap::universe(space);
        let mut row = vec![Int::ZERO; b.row_len()];
        row[0] = Int::from(-1);
        b.ineqs.push(row);
        b
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Number of parameters.
    pub fn n_param(&self) -> usize {
        self.space.n_param()
    }
    /// Number of domain dimensions (0 for a set).
    pub fn n_in(&self) -> usize {
        self.space.n_in()
    }
    /// Number of range (set) dimensions.
    pub fn n_out(&self) -> usize {
        self.space.n_out()
    }
    /// Number of local variables.
    pub fn n_div(&self) -> usize {
        self.divs.len()
    }
    /// Column of the first parameter (1: column 0 is the constant).
    pub fn off_param(&self) -> usize {
        1
    }
    /// Column of the first domain dimension.
    pub fn off_in(&self) -> usize {
        1 + self.n_param()
    }
    /// Column of the first range dimension.
    pub fn off_out(&self) -> usize {
        1 + self.n_param() + self.n_in()
    }
    /// Column of the first local variable.
    pub fn off_div(&self) -> usize {
        1 + self.space.n_vars()
    }
    /// Length of a constraint row: constant, variables, locals.
    pub fn row_len(&self) -> usize {
        1 + self.space.n_vars() + self.divs.len()
    }

    /// The equality constraints (`row · (1, x, l) = 0`).
    pub fn eqs(&self) -> &crate::rows::Rows {
        &self.eqs
    }
    /// The inequality constraints (`row · (1, x, l) >= 0`).
    pub fn ineqs(&self) -> &crate::rows::Rows {
        &self.ineqs
    }
    /// Every constraint as inequalities `row >= 0` (or `-row >= 0` where
    /// the flag is set): each equality twice, once negated, then the
    /// inequalities.
    pub(crate) fn as_inequalities(&self) -> impl Iterator<Item = (&[Int], bool)> {
        self.eqs
            .iter()
            .flat_map(|e| [(e, false), (e, true)])
            .chain(self.ineqs.iter().map(|r| (r, false)))
    }
    /// Whether the two are written alike: the same space, divisions and
    /// rows in the same order (isl's "plain" equality; then they are equal,
    /// and an answer about one is an answer about the other).
    pub fn plain_is_equal(&self, other: &BasicMap) -> bool {
        self.space == other.space
            && self.divs == other.divs
            && self.eqs == other.eqs
            && self.ineqs == other.ineqs
    }
    /// The local variables' definitions (`None` for an existential).
    pub fn divs(&self) -> &[Option<Div>] {
        &self.divs
    }

    /// Add the equality `row · (1, x, l) = 0`.
    ///
    /// # Panics
    /// If the row length is not [`row_len`](Self::row_len) (a programming error).
    pub fn add_eq(&mut self, row: Vec<Int>) {
        assert_eq!(row.len(), self.row_len(), "constraint row length");
        self.eqs.push(row);
    }

    /// Add the inequality `row · (1, x, l) >= 0`.
    ///
    /// # Panics
    /// If the row length is not [`row_len`](Self::row_len) (a programming error).
    pub fn add_ineq(&mut self, row: Vec<Int>) {
        assert_eq!(row.len(), self.row_len(), "constraint row length");
        self.ineqs.push(row);
    }

    /// Add an existentially quantified local variable; returns its column.
    pub fn add_existential(&mut self) -> usize {
        self.push_local(None)
    }

    /// Add the local `q = floor(num / den)` (with `num` of the current row
    /// length, `den > 0`) and its two defining inequalities; returns its column.
    ///
    /// # Panics
    /// If `den <= 0` or the row length is wrong (programming errors).
    pub fn add_div(&mut self, num: Vec<Int>, den: Int) -> usize {
        assert!(den.is_pos(), "div denominator must be positive");
        assert_eq!(num.len(), self.row_len(), "div numerator length");
        let mut num = num;
        num.push(Int::ZERO);
        let def = Div { num, den };
        let col = self.push_local(Some(def.clone()));
        self.ineqs.extend(def.bounds(col));
        col
    }

    fn push_local(&mut self, def: Option<Div>) -> usize {
        let col = self.row_len();
        self.eqs.insert_columns(col, 1);
        self.ineqs.insert_columns(col, 1);
        for d in self.divs.iter_mut().flatten() {
            d.num.push(Int::ZERO);
        }
        self.divs.push(def);
        col
    }

    /// True if a constraint is trivially violated (e.g. `-1 >= 0`, or `2x = 1`:
    /// the gcd of an equality's coefficients does not divide its constant); a cheap,
    /// incomplete test. Use [`is_empty`](Self::is_empty) for the exact answer.
    pub fn is_obviously_empty(&self) -> bool {
        let n = self.row_len();
        self.ineqs
            .iter()
            .any(|r| r[0].is_neg() && r[1..n].iter().all(Int::is_zero))
            || self.eqs.iter().any(|r| eq_has_no_integer_root(&r[..n]))
    }

    /// True if the basic map has no constraints and no locals.
    pub fn is_universe_syntactically(&self) -> bool {
        self.eqs.is_empty() && self.ineqs.is_empty() && self.divs.is_empty()
    }

    /// Insert `n` zero columns at column `pos` of every row and div numerator.
    pub(crate) fn insert_cols(&mut self, pos: usize, n: usize) {
        if n == 0 {
            return;
        }
        self.eqs.insert_columns(pos, n);
        self.ineqs.insert_columns(pos, n);
        for d in self.divs.iter_mut().flatten() {
            d.num.splice(pos..pos, std::iter::repeat_n(Int::ZERO, n));
        }
    }

    /// Permute and embed the columns: column `k` of the old rows moves to
    /// column `map[k]` of rows of length `new_len` (column 0 must map to 0).
    pub(crate) fn remap_cols(&mut self, map: &[usize], new_len: usize) {
        let f = |r: &[Int]| remap_row(r, map, new_len);
        self.eqs = remap_rows(&self.eqs, map, new_len);
        self.ineqs = remap_rows(&self.ineqs, map, new_len);
        for d in self.divs.iter_mut().flatten() {
            d.num = f(&d.num);
        }
    }

    /// The conjunction of `self` and `other` (same space and parameters),
    /// where the first `n_shared` locals of both are the same variables:
    /// rows `[c | vars | self's locals | other's other locals]`. Every row
    /// is built once, straight at its final length.
    pub(crate) fn conjoin(&self, other: &BasicMap, n_shared: usize) -> BasicMap {
        debug_assert!(self.space.params == other.space.params);
        let base = self.off_div();
        let na = self.n_div();
        let keep = base + n_shared; // columns other shares with self
        let new_len = self.row_len() + other.n_div() - n_shared;
        // (each into a row of zeros of the new length) self's rows padded
        // with zeros for other's locals; other's rows: shared columns stay,
        // its own locals move after self's
        let widen = |o: &mut [Int], r: &[Int]| o[..r.len()].clone_from_slice(r);
        let lift = |o: &mut [Int], r: &[Int]| {
            o[..keep].clone_from_slice(&r[..keep]);
            o[base + na..].clone_from_slice(&r[keep..]);
        };
        let div = |d: &Option<Div>, f: &dyn Fn(&mut [Int], &[Int])| {
            d.as_ref().map(|d| {
                let mut num = vec![Int::ZERO; new_len];
                f(&mut num, &d.num);
                Div {
                    num,
                    den: d.den.clone(),
                }
            })
        };
        let mut divs = Vec::with_capacity(na + other.n_div() - n_shared);
        divs.extend(self.divs.iter().map(|d| div(d, &widen)));
        divs.extend(other.divs[n_shared..].iter().map(|d| div(d, &lift)));
        // the rows, built in place
        let rows = |mine: &Rows, theirs: &Rows| {
            let mut out = Rows::with_capacity(mine.len() + theirs.len(), new_len);
            let mut w = out.writer();
            for r in mine {
                w.push_with(new_len, |o| widen(o, r));
            }
            for r in theirs {
                w.push_with(new_len, |o| lift(o, r));
            }
            out
        };
        BasicMap {
            space: self.space.clone(),
            divs: divs.into(),
            eqs: rows(&self.eqs, &other.eqs),
            ineqs: rows(&self.ineqs, &other.ineqs),
            hint: Default::default(),
        }
    }

    /// Divide every constraint by the gcd of its variable coefficients,
    /// tightening inequality constants (`floor`), and detect trivially false
    /// rows. Returns `false` if a row is trivially false (the rows are then
    /// left as they are: the callers empty the basic map).
    pub(crate) fn normalize_rows(&mut self) -> bool {
        // decided read-only first: rows shared with a copy (see `Rows`) are
        // written (so copied) only if one of them changes
        use crate::matrix::is_normal_row;
        let first_eq = self.eqs.iter().position(|r| !is_normal_row(r));
        let first_ineq = self.ineqs.iter().position(|r| !is_normal_row(r));
        if first_eq.is_none() && first_ineq.is_none() {
            return true;
        }
        // a contradiction is also found read-only (a normal row is never
        // one): rows about to be emptied are not written
        let n = self.row_len();
        if let Some(i) = first_eq {
            if self
                .eqs
                .iter()
                .skip(i)
                .any(|r| !is_normal_row(r) && eq_has_no_integer_root(r))
            {
                return false;
            }
        }
        if let Some(i) = first_ineq {
            if self
                .ineqs
                .iter()
                .skip(i)
                .any(|r| r[0].is_neg() && r[1..n].iter().all(Int::is_zero))
            {
                return false;
            }
        }
        // (normalisation leaves a normal row as it is: from the first other one on)
        if let Some(i) = first_eq {
            for r in self.eqs.iter_mut().skip(i) {
                let status = normalize_eq(r);
                debug_assert_ne!(status, RowStatus::Infeasible);
            }
        }
        if let Some(i) = first_ineq {
            for r in self.ineqs.iter_mut().skip(i) {
                let status = normalize_ineq(r);
                debug_assert_ne!(status, RowStatus::Infeasible);
            }
        }
        true
    }

    /// [`normalize_rows`](Self::normalize_rows) as first written (every
    /// row normalised once one needs it, the answer from the statuses): the
    /// oracle of its test.
    #[cfg(test)]
    pub(crate) fn normalize_rows_reference(&mut self) -> bool {
        if self
            .eqs
            .iter()
            .chain(self.ineqs.iter())
            .all(|r| crate::matrix::is_normal_row(r))
        {
            return true;
        }
        let mut ok = true;
        for r in self.eqs.iter_mut() {
            ok &= normalize_eq(r) != RowStatus::Infeasible;
        }
        for r in self.ineqs.iter_mut() {
            ok &= normalize_ineq(r) != RowStatus::Infeasible;
        }
        ok
    }
}

/// The row `r` with column `k` moved to `map[k]` (columns mapped to the same
/// place are added), in a row of length `new_len`.
pub(crate) fn remap_row(r: &[Int], map: &[usize], new_len: usize) -> Vec<Int> {
    let mut out = vec![Int::ZERO; new_len];
    remap_into(&mut out, r, map);
    out
}

/// [`remap_row`] into `out` (zeros).
fn remap_into(out: &mut [Int], r: &[Int], map: &[usize]) {
    for (k, v) in r.iter().enumerate() {
        if !v.is_zero() {
            let o = &mut out[map[k]];
            *o = if o.is_zero() { v.clone() } else { &*o + v };
        }
    }
}

/// [`remap_row`] of every row of `rows`, built in place.
pub(crate) fn remap_rows(rows: &Rows, map: &[usize], new_len: usize) -> Rows {
    let mut out = Rows::with_capacity(rows.len(), new_len);
    remap_onto(rows, map, new_len, &mut out.writer());
    out
}

/// [`gather_row`] of every row of `rows`, built in place.
pub(crate) fn gather_rows(rows: &Rows, src: &[usize]) -> Rows {
    let mut out = Rows::with_capacity(rows.len(), src.len());
    gather_onto(rows, src, &mut out.writer());
    out
}

/// [`gather_row`] of every row of `rows`, appended to `out`.
pub(crate) fn gather_onto(rows: &Rows, src: &[usize], out: &mut crate::RowsWriter<'_>) {
    for r in rows {
        out.push_iter(gathered(r, src));
    }
}

/// [`remap_row`] of every row of `rows`, appended to `out`.
pub(crate) fn remap_onto(
    rows: &Rows,
    map: &[usize],
    new_len: usize,
    out: &mut crate::RowsWriter<'_>,
) {
    for r in rows {
        out.push_with(new_len, |o| remap_into(o, r, map));
    }
}

/// The sources of an injective column map (see [`remap_row`]): entry `j`
/// is the old column that moves to new column `j`, or [`NO_SOURCE`]; `None`
/// if two old columns move to one new column (then only `remap_row`, which
/// adds them, will do).
pub(crate) fn sources(map: &[usize], new_len: usize) -> Option<Vec<usize>> {
    let mut src = vec![NO_SOURCE; new_len];
    for (k, &j) in map.iter().enumerate() {
        if src[j] != NO_SOURCE {
            return None;
        }
        src[j] = k;
    }
    Some(src)
}

/// A new column that no old column moves to (see [`sources`]).
pub(crate) const NO_SOURCE: usize = usize::MAX;

/// Up to this many columns, [`SourceBuffer`] keeps a column map on the stack.
const STACK_COLUMNS: usize = 64;

/// Room for the sources of `n` new columns ([`NO_SOURCE`] each at first):
/// on the stack up to [`STACK_COLUMNS`] (the usual basic map; the structural
/// operations move every disjunct's columns, and an allocation there costs
/// about what gathering a short row does), else on the heap.
pub(crate) struct SourceBuffer {
    stack: [usize; STACK_COLUMNS],
    heap: Vec<usize>,
}

impl SourceBuffer {
    pub(crate) fn new() -> SourceBuffer {
        SourceBuffer {
            stack: [NO_SOURCE; STACK_COLUMNS],
            heap: Vec::new(),
        }
    }

    /// The first `n` entries, all [`NO_SOURCE`] (a buffer is taken once).
    pub(crate) fn take(&mut self, n: usize) -> &mut [usize] {
        if n <= STACK_COLUMNS {
            &mut self.stack[..n]
        } else {
            self.heap = vec![NO_SOURCE; n];
            &mut self.heap
        }
    }
}

/// [`remap_row`] by the [`sources`] of an injective map: each entry of the
/// new row read off its old column (zero where there is none), in one pass
/// and one allocation of the final length.
pub(crate) fn gather_row(r: &[Int], src: &[usize]) -> Vec<Int> {
    gathered(r, src).collect()
}

/// The entries of [`gather_row`], one by one.
pub(crate) fn gathered<'a>(r: &'a [Int], src: &'a [usize]) -> impl Iterator<Item = Int> + 'a {
    src.iter().map(|&k| {
        if k == NO_SOURCE {
            Int::ZERO
        } else {
            r[k].clone()
        }
    })
}

/// True if the equality row `r` (`[c | coefficients]`) has no integer
/// solution because the gcd of its coefficients does not divide its
/// constant (`0 = c` with `c != 0` included).
fn eq_has_no_integer_root(r: &[Int]) -> bool {
    let g = gcd_slice(&r[1..]);
    if g.is_zero() {
        !r[0].is_zero()
    } else {
        !g.is_one() && !r[0].is_divisible_by(&g)
    }
}
