//! Propagation on machine integers with incremental row sums and bit sets.

use std::sync::Arc;

#[cfg(doc)]
use super::exact::guess_point_exact;
#[cfg(doc)]
use super::guess_again;
use crate::basic::BasicMap;
#[cfg(doc)]
use crate::hint::Hint;
use crate::int::Int;

/// Outcome of [`guess_point_small`].
#[derive(Debug, PartialEq)]
pub(super) enum Small {
    /// A checked point (built only if asked for).
    Point(Option<Vec<Int>>),
    /// A constraint without columns is violated.
    Empty,
    /// Propagation found no point.
    NoGuess,
    /// Too many rows or columns, a coefficient is not an `i64`, or a sum or
    /// value does not fit: nothing is known.
    Overflow,
}

/// No bound yet (never a bound or a value: those are `> i64::MIN`).
const NONE: i64 = i64::MIN;

/// The most rows (constraints and defined locals) and columns of
/// [`guess_point_small`]; larger basic maps use [`guess_point_exact`].
const MAX_ROWS: usize = 64;
const MAX_COLS: usize = 32;

/// The largest modulus whose congruence [`Propagation::bound_value`] meets
/// (by trying at most that many values).
const MAX_MODULUS: i128 = 64;

#[inline]
pub(super) fn small(x: &Int) -> Option<i64> {
    match x {
        Int::Small(v) => Some(*v),
        Int::Big(_) => None,
    }
}

/// A value or bound, if it is a proper `i64` (not the `NONE` sentinel).
#[inline]
fn fit(v: Option<i64>) -> Result<i64, Small> {
    v.filter(|&v| v != NONE).ok_or(Small::Overflow)
}

/// The rule of the [module documentation](self) on machine integers, for
/// at most 64 rows and 32 columns (else [`Small::Overflow`]).
///
/// State: per row `k` (equalities, inequalities, then the numerators of the
/// defined locals) the sum `r[0] + Σ_{valued c} r[c]·val[c]` and the bit
/// set of its columns with a coefficient; per column the bit set of its
/// rows; one bit set of the valued columns. Giving column `c` a value visits
/// only the rows of `c`. A row whose open columns (with a coefficient and
/// no value) drop to one is ready for that column, and its bound is final
/// (only that column could still change the sum), so it is folded into the
/// column's `exact`, `lo` or `hi` at once. The decisions are those of
/// [`guess_point_exact`], which recomputes them at every visit.
///
/// With `remember`, a point found becomes `b`'s [`Hint`](crate::hint::Hint).
#[inline]
pub(super) fn guess_point_small(b: &BasicMap, want_point: bool, remember: bool) -> Small {
    guess_point_small_in(b, want_point, remember, Order::Columns)
}

/// The order in which propagation visits the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Column order: parameters, dimensions, locals (the rule of the
    /// [module documentation](super)).
    Columns,
    /// The dimensions and locals first (in column order), then the
    /// parameters: a parameter then takes the bound that the dimensions'
    /// values ask of it (`1 <= i < N and i <= 3 and N >= 1`: `i = 1`, then
    /// `N = 2`; in column order `N = 1` first, then no `i`).
    ParamsLast,
    /// The columns from the last (the range's dimensions first, then the
    /// domain's, then the parameters), and after each value the visit
    /// starts again from the first of them: the first column in this order
    /// that has a bound takes it. In a relation an order constraint between
    /// the two sides (`o2 < p`, with `o2 = s`) then has its range side
    /// valued as soon as it can be and the domain side takes the bound it
    /// asks (`s = 0`, `o2 = 0`, then `p = 1`); in column order `p` takes
    /// its own lower bound `0` first, and no `o2` is left
    /// (`trace-is_empty-106`).
    Reversed,
}

/// [`guess_point_small`], visiting the columns in `order`.
#[inline]
pub(super) fn guess_point_small_in(
    b: &BasicMap,
    want_point: bool,
    remember: bool,
    order: Order,
) -> Small {
    let n = b.row_len();
    let nk = b.eqs.len() + b.ineqs.len() + b.divs.len();
    if n > MAX_COLS || nk > MAX_ROWS {
        return Small::Overflow;
    }
    let mut p = Propagation {
        b,
        n,
        ne: b.eqs.len(),
        nr: b.eqs.len() + b.ineqs.len(),
        sum: [0; MAX_ROWS],
        row_cols: [0; MAX_ROWS],
        col_rows: [0; MAX_COLS],
        valued: 1,
        val: [0; MAX_COLS],
        exact: [NONE; MAX_COLS],
        lo: [NONE; MAX_COLS],
        hi: [NONE; MAX_COLS],
    };
    let r = p.run(want_point, order).unwrap_or_else(|e| e);
    if remember && matches!(r, Small::Point(_)) {
        b.hint.set(Arc::from(&p.val[1..n]));
    }
    r
}

/// The state of [`guess_point_small`].
struct Propagation<'a> {
    b: &'a BasicMap,
    /// Row length (columns, the constant included).
    n: usize,
    /// Equalities, then inequalities end here.
    ne: usize,
    nr: usize,
    /// Per row: the constant plus the valued columns' terms.
    sum: [i64; MAX_ROWS],
    /// Per row: bit `c` set if column `c >= 1` has a coefficient.
    row_cols: [u64; MAX_ROWS],
    /// Per column: bit `k` set if row `k` has a coefficient in it.
    col_rows: [u64; MAX_COLS],
    /// Bit `c` set once column `c` has a value (the constant, column 0, has 1).
    valued: u64,
    val: [i64; MAX_COLS],
    exact: [i64; MAX_COLS],
    lo: [i64; MAX_COLS],
    hi: [i64; MAX_COLS],
}

impl Propagation<'_> {
    /// Row `k`: a constraint, or a defined local's numerator.
    #[inline]
    fn row(&self, k: usize) -> &[Int] {
        let b = self.b;
        if k < self.ne {
            &b.eqs[k]
        } else if k < self.nr {
            &b.ineqs[k - self.ne]
        } else {
            &b.divs[k - self.nr].as_ref().expect("a defined local").num
        }
    }

    /// Whether column `c` is a local with a definition.
    #[inline]
    fn is_defined(&self, c: usize) -> bool {
        let off = self.n - self.b.divs.len();
        c >= off && self.b.divs[c - off].is_some()
    }

    /// Record row `k` (`r`) in the bit sets and its constant in `sum`.
    fn enter(&mut self, k: usize, r: &[Int]) -> Result<(), Small> {
        let r = &r[..self.n];
        self.sum[k] = small(&r[0]).ok_or(Small::Overflow)?;
        let mut cols = 0u64;
        for (c, a) in r.iter().enumerate().skip(1) {
            match a {
                Int::Small(0) => {}
                Int::Small(_) => cols |= 1 << c,
                Int::Big(_) => return Err(Small::Overflow),
            }
        }
        self.row_cols[k] = cols;
        // the same bits, by column
        let mut rest = cols;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.col_rows[c] |= 1 << k;
        }
        Ok(())
    }

    #[inline]
    fn run(&mut self, want_point: bool, order: Order) -> Result<Small, Small> {
        let b = self.b;
        let (n, ne, nr) = (self.n, self.ne, self.nr);
        for (k, r) in b.eqs.iter().enumerate() {
            self.enter(k, r)?;
        }
        for (k, r) in b.ineqs.iter().enumerate() {
            self.enter(ne + k, r)?;
        }
        for (k, d) in b.divs.iter().enumerate() {
            if let Some(d) = d {
                small(&d.den).ok_or(Small::Overflow)?;
                self.enter(nr + k, &d.num)?;
            }
        }
        for k in 0..nr {
            let cols = self.row_cols[k];
            if cols == 0 && (self.sum[k] < 0 || (k < ne && self.sum[k] != 0)) {
                return Ok(Small::Empty);
            }
            if cols.count_ones() == 1 {
                self.ready(k, cols.trailing_zeros() as usize)?;
            }
        }
        let all: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        // the columns in the order of visit
        let mut cols = [0u8; MAX_COLS];
        let np = b.n_param();
        match order {
            Order::Columns => (1..n).for_each(|c| cols[c - 1] = c as u8),
            Order::ParamsLast => (1 + np..n)
                .chain(1..1 + np)
                .enumerate()
                .for_each(|(k, c)| cols[k] = c as u8),
            Order::Reversed => (1..n)
                .rev()
                .enumerate()
                .for_each(|(k, c)| cols[k] = c as u8),
        }
        let cols = &cols[..n - 1];
        // (each round values at least one column, or stops)
        let restart = order == Order::Reversed;
        // (column order is the rule `guess_point_exact` repeats)
        let meet_congruences = order != Order::Columns;
        for _ in 0..n {
            let mut progress = false;
            for c in cols.iter().map(|&c| usize::from(c)) {
                if self.valued & (1 << c) != 0 {
                    continue;
                }
                let v = if self.is_defined(c) {
                    let k = nr + c - (n - b.divs.len());
                    if self.row_cols[k] & !self.valued != 0 {
                        continue;
                    }
                    let d = b.divs[k - nr].as_ref().expect("a defined local");
                    let den = small(&d.den).expect("checked small");
                    fit(Some(self.sum[k].div_euclid(den)))?
                } else if self.exact[c] != NONE {
                    self.exact[c]
                } else if self.lo[c] != NONE {
                    self.bound_value(c, self.lo[c], 1, meet_congruences)
                } else if self.hi[c] != NONE {
                    self.bound_value(c, self.hi[c], -1, meet_congruences)
                } else {
                    continue;
                };
                self.fix(c, v)?;
                progress = true;
                if restart {
                    break;
                }
            }
            if !progress {
                let mut free = cols.iter().map(|&c| usize::from(c));
                match free.find(|&c| self.valued & (1 << c) == 0 && !self.is_defined(c)) {
                    Some(c) => self.fix(c, 0)?, // stays 0
                    None => break,
                }
            }
        }
        if self.valued != all {
            return Ok(Small::NoGuess);
        }
        // every column is valued: `sum` is each row's value at the point
        if self.sum[..ne].iter().any(|&s| s != 0) || self.sum[ne..nr].iter().any(|&s| s < 0) {
            return Ok(Small::NoGuess);
        }
        let off = n - b.divs.len();
        let point = want_point.then(|| self.val[1..off].iter().map(|&v| Int::from(v)).collect());
        Ok(Small::Point(point))
    }

    /// The value column `c` takes from its bound `v`: `v` itself in column
    /// order (the rule that [`guess_point_exact`] repeats); with
    /// `meet_congruences` (the orders of [`guess_again`]), `v` moved by
    /// `step` (+1 from a lower bound, -1 from an upper one) to the first
    /// value at which each equality of `c` with one other open column `e`
    /// can still be solved for `e` in integers:
    /// `a_c·v + s ≡ 0 (mod |a_e|)`, for `|a_e|` up to [`MAX_MODULUS`]. A
    /// congruence (`t mod 2 = 0`: `t = 2e`) then no longer fails at the
    /// bound (`5 <= t`: `t = 6`, not 5). `v` itself when no such equality
    /// asks more (the point is checked whole at the end, so any value is
    /// sound).
    fn bound_value(&self, c: usize, v: i64, step: i64, meet_congruences: bool) -> i64 {
        if !meet_congruences {
            return v;
        }
        let eqs = if self.ne == 64 {
            u64::MAX
        } else {
            (1u64 << self.ne) - 1
        };
        let mut rows = self.col_rows[c] & eqs;
        let mut v = v;
        while rows != 0 {
            let k = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let open = self.row_cols[k] & !self.valued & !(1 << c);
            if open.count_ones() != 1 {
                continue;
            }
            let r = self.row(k);
            let (Some(ac), Some(ae)) = (small(&r[c]), small(&r[open.trailing_zeros() as usize]))
            else {
                continue;
            };
            let m = i128::from(ae).abs();
            if m <= 1 || m > MAX_MODULUS {
                continue;
            }
            let s = i128::from(self.sum[k]);
            let solvable = |t: i64| (i128::from(ac) * i128::from(t) + s).rem_euclid(m) == 0;
            if let Some(t) = (0..m as i64)
                .filter_map(|j| v.checked_add(j * step))
                .find(|&t| t != NONE && solvable(t))
            {
                v = t;
            }
        }
        v
    }

    /// Fold row `k`, ready for column `c`, into `c`'s bounds.
    fn ready(&mut self, k: usize, c: usize) -> Result<(), Small> {
        let a = small(&self.row(k)[c]).expect("checked small");
        let s = self.sum[k];
        if k < self.ne {
            // a·v + s = 0
            match s.checked_rem(a) {
                Some(0) => {}
                Some(_) => return Err(Small::NoGuess),
                None => return Err(Small::Overflow),
            }
            self.exact[c] = fit(s.checked_div(a).and_then(i64::checked_neg))?;
        } else if a > 0 {
            // a·v + s >= 0: v >= ceil(-s / a) = -floor(s / a)
            let l = fit(s.div_euclid(a).checked_neg())?;
            if self.lo[c] == NONE || l > self.lo[c] {
                self.lo[c] = l;
            }
        } else {
            // v <= floor(s / -a)
            let h = fit(a.checked_neg().map(|m| s.div_euclid(m)))?;
            if self.hi[c] == NONE || h < self.hi[c] {
                self.hi[c] = h;
            }
        }
        Ok(())
    }

    /// Give column `c` the value `v`: update the sums of its rows, and fold
    /// the constraint rows that become ready.
    fn fix(&mut self, c: usize, v: i64) -> Result<(), Small> {
        self.valued |= 1 << c;
        self.val[c] = v;
        let mut rows = self.col_rows[c];
        while rows != 0 {
            let k = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if v != 0 {
                let a = small(&self.row(k)[c]).expect("checked small");
                let t = a.checked_mul(v).and_then(|t| t.checked_add(self.sum[k]));
                self.sum[k] = t.ok_or(Small::Overflow)?;
            }
            let open = self.row_cols[k] & !self.valued;
            if k < self.nr && open != 0 && open & (open - 1) == 0 {
                self.ready(k, open.trailing_zeros() as usize)?;
            }
        }
        Ok(())
    }
}
