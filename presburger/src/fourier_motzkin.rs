//! Cheap proofs of emptiness by bounded Fourier–Motzkin elimination.
//!
//! The scheduler's Farkas problems (30–60 columns, 50–170 inequalities)
//! are often empty for a reason a few eliminations expose: a column bounded
//! by `L <= x <= U` gives `L <= U`, which with the other rows contradicts.
//! An LP or the integer search finds it too, but at a cost that grows with
//! the whole system; eliminating the columns with few bounds first is
//! cheap when the system is sparse.
//!
//! [`refute_by_elimination`] works on the inequalities and on each equality
//! as two inequalities (definitions of locals are left out: a relaxation),
//! on machine integers:
//!
//! 1. every row is divided by the gcd of its coefficients, its constant
//!    rounded down (every column is an integer unknown), and of parallel
//!    rows the tightest is kept;
//! 2. a row without coefficients must be true (`c >= 0`), and two rows with
//!    opposite coefficients `a·x + c >= 0`, `-a·x + c' >= 0` need `c + c' >= 0`;
//!    with `c + c' = 0` they are an equality;
//! 3. an equality is substituted first: a column `x` of it (a unit
//!    coefficient if it has one, then the column in the fewest rows) is
//!    eliminated by combining every other row with the one of the two that
//!    bounds `x` on the other side, which adds no row (the combinations of
//!    two other rows are implied by these); an equality with a unit
//!    coefficient on a column in no other row only defines that column and
//!    is left out from the start (after Gaussian elimination every equality
//!    is such a definition);
//! 4. otherwise the column whose elimination adds the fewest rows
//!    (`p·q - p - q` for `p` lower and `q` upper bounds; a column bounded on
//!    one side only is dropped with its rows) is eliminated: every pair of a
//!    lower and an upper bound gives their positive combination without the
//!    column, normalized as in 1 and checked as in 2.
//!
//! Each derived row is a non-negative combination of rows (rounded as
//! integers allow), so every integer point satisfies it: a contradiction
//! proves that there is no integer point; `false` only means "no proof".
//! The elimination stops when every column would add more than
//! [`MAX_GROWTH`] rows, when the rows outnumber [`MAX_ROWS`], or on an
//! `i64` overflow (no proof, no panic).
//!
//! The lexicographic optimum of a set without parameters tries it when its
//! search, on a budget proportional to the system's size, runs out
//! (`lexopt::points`): the elimination costs about as much as reading the
//! rows a few times, work thrown away on a set with a point, which most
//! searches settle within that budget.
//!
//! ```
//! use presburger::Set;
//! // j is bounded by i + 1 <= j <= k, and k <= i: no point
//! let s: Set = "{ [i, j, k] : i + 1 <= j <= k and k <= i and 0 <= i <= 10 }".parse().unwrap();
//! assert!(s.lexmin().unwrap().is_empty().unwrap());
//! ```

use crate::basic::BasicMap;
use crate::fxhash::FxHashMap;
use crate::int::Int;
use crate::opposite_key::key;
use crate::refute::gcd_of;

/// The largest number of rows one elimination may add (`p·q - p - q`).
pub(crate) const MAX_GROWTH: i64 = 4;

/// No elimination is tried once the live rows outnumber this.
pub(crate) const MAX_ROWS: usize = 400;

/// True if bounded Fourier–Motzkin elimination of the inequalities of `b`
/// (see the [module documentation](self)) reaches a contradiction: `b` has
/// no integer point.
pub(crate) fn refute_by_elimination(b: &BasicMap) -> bool {
    let mut sys = System::new(b.row_len(), b.ineqs.len() + 2 * b.eqs.len());
    match sys.load(b).and_then(|()| sys.eliminate_all()) {
        Ok(()) => false,
        Err(Stop::Contradiction) => true,
        Err(Stop::Overflow) => false,
    }
}

/// `r` (negated with `negate`) as machine integers in `out`, or
/// [`Stop::Overflow`] if an entry (or its negation) does not fit.
fn small_row(r: &[Int], negate: bool, out: &mut Vec<i64>) -> Result<(), Stop> {
    out.clear();
    for x in r {
        let Int::Small(x) = x else {
            return Err(Stop::Overflow);
        };
        out.push(if negate { fit(x.checked_neg())? } else { *x });
    }
    Ok(())
}

/// Why adding or combining rows stopped.
#[derive(Debug)]
enum Stop {
    /// The rows have no integer point.
    Contradiction,
    /// A value does not fit in an `i64`: no proof.
    Overflow,
}

/// A checked machine operation's result, or [`Stop::Overflow`].
#[inline]
fn fit<T>(v: Option<T>) -> Result<T, Stop> {
    v.ok_or(Stop::Overflow)
}

/// The inequalities `row·(1, x) >= 0`, normalized and without parallel
/// duplicates, with per-column counts of lower and upper bounds.
///
/// The rows are stored one after the other in one buffer, each with the
/// linear key of its coefficients ([`key`]: the key of `-a` is the negation
/// of that of `a`), so a row's opposite is looked up without a negated
/// copy and a row is keyed once, not again when it is eliminated.
struct System {
    n: usize,
    /// Every row ever added, `n` entries each; eliminated ones are marked dead.
    data: Vec<i64>,
    /// The key of each row's coefficients.
    keys: Vec<u64>,
    live: Vec<bool>,
    n_live: usize,
    /// Rows with a positive (lower bounds) and negative (upper bounds)
    /// coefficient, per column.
    lower: Vec<i64>,
    upper: Vec<i64>,
    /// The live row of each direction, by its key (a collision only
    /// leaves a duplicate in place).
    by_key: FxHashMap<u64, usize>,
    /// Opposite rows whose constants sum to zero (an equality), to be
    /// substituted before any column is eliminated (see [`System::substitute`]).
    pairs: Vec<(usize, usize)>,
    /// Where a combination is built before it is added.
    scratch: Vec<i64>,
}

impl System {
    /// No rows yet, with room for `2·rows` of `n` entries.
    fn new(n: usize, rows: usize) -> System {
        System {
            n,
            data: Vec::with_capacity(2 * rows * n),
            keys: Vec::with_capacity(2 * rows),
            live: Vec::with_capacity(2 * rows),
            n_live: 0,
            lower: vec![0; n],
            upper: vec![0; n],
            by_key: FxHashMap::default(),
            pairs: Vec::new(),
            scratch: Vec::with_capacity(n),
        }
    }

    /// Add the rows of `b`: its inequalities, then each equality as two
    /// inequalities (`add` pairs them), unless a column with a unit
    /// coefficient is in no other row: then the equality only defines that
    /// column (integral wherever the others are), and eliminating the column
    /// would drop it (as after Gaussian elimination, where every equality's
    /// pivot is such a column).
    fn load(&mut self, b: &BasicMap) -> Result<(), Stop> {
        let n = self.n;
        let mut row = Vec::with_capacity(n);
        for r in &b.ineqs {
            small_row(r, false, &mut row)?;
            self.add(&mut row, None)?;
        }
        let mut in_eqs = vec![0u32; n];
        for r in &b.eqs {
            for (c, v) in r.iter().enumerate().skip(1) {
                in_eqs[c] += u32::from(!v.is_zero());
            }
        }
        for r in &b.eqs {
            let defines = (1..n).any(|c| {
                matches!(r[c], Int::Small(1 | -1))
                    && in_eqs[c] == 1
                    && self.lower[c] + self.upper[c] == 0
            });
            if !defines {
                for negate in [false, true] {
                    small_row(r, negate, &mut row)?;
                    self.add(&mut row, None)?;
                }
            }
        }
        Ok(())
    }

    /// Row `k`.
    #[inline]
    fn row(&self, k: usize) -> &[i64] {
        &self.data[k * self.n..(k + 1) * self.n]
    }

    /// Add a row (normalized here, in place), unless a parallel row is as
    /// tight. `known` is the [`key`] of its coefficients before
    /// normalization, if the caller has it (a combination's is the same
    /// combination of its rows' keys: the key is linear).
    fn add(&mut self, row: &mut [i64], known: Option<u64>) -> Result<(), Stop> {
        let g = gcd_of(&row[1..]);
        if g == 0 {
            return if row[0] < 0 {
                Err(Stop::Contradiction)
            } else {
                Ok(())
            };
        }
        if g != 1 {
            row[0] = row[0].div_euclid(g);
            row[1..].iter_mut().for_each(|v| *v /= g);
        }
        let coeffs = &row[1..];
        let h = match known {
            // the coefficients were divided by g: so is the key (mod 2^64),
            // by multiplying with g's inverse when g is odd
            Some(h) if g == 1 => h,
            Some(h) if g % 2 == 1 => h.wrapping_mul(inverse_mod_2_64(g as u64)),
            _ => key(coeffs),
        };
        debug_assert_eq!(h, key(coeffs));
        // the live opposite row, if the two make an equality
        let mut opposite = None;
        if let Some(&k) = self.by_key.get(&h.wrapping_neg()) {
            let other = self.row(k);
            if self.live[k]
                && other[1..]
                    .iter()
                    .zip(coeffs)
                    .all(|(a, b)| a.checked_neg() == Some(*b))
            {
                match fit(other[0].checked_add(row[0]))? {
                    s if s < 0 => return Err(Stop::Contradiction),
                    0 => opposite = Some(k),
                    _ => {}
                }
            }
        }
        if let Some(&k) = self.by_key.get(&h) {
            if self.live[k] && self.row(k)[1..] == *coeffs {
                let at = k * self.n;
                if row[0] < self.data[at] {
                    self.data[at] = row[0];
                }
                // (the kept constant is this row's: a looser one would have
                // contradicted the opposite row when either was added)
                if let Some(o) = opposite {
                    self.pairs.push((o, k));
                }
                return Ok(());
            }
        }
        if let Some(o) = opposite {
            self.pairs.push((o, self.keys.len()));
        }
        for (c, &a) in row.iter().enumerate().skip(1) {
            if a > 0 {
                self.lower[c] += 1;
            } else if a < 0 {
                self.upper[c] += 1;
            }
        }
        self.by_key.insert(h, self.keys.len());
        self.data.extend_from_slice(row);
        self.keys.push(h);
        self.live.push(true);
        self.n_live += 1;
        Ok(())
    }

    /// Mark row `k` eliminated.
    fn kill(&mut self, k: usize) {
        self.live[k] = false;
        self.n_live -= 1;
        let n = self.n;
        for (c, &a) in self.data[k * n..(k + 1) * n].iter().enumerate().skip(1) {
            if a > 0 {
                self.lower[c] -= 1;
            } else if a < 0 {
                self.upper[c] -= 1;
            }
        }
        let h = self.keys[k];
        if self.by_key.get(&h) == Some(&k) {
            self.by_key.remove(&h);
        }
    }

    /// The column to eliminate next: the fewest rows added, then the
    /// lowest column; `None` if every column would add too many.
    fn pick(&self) -> Option<usize> {
        let mut best: Option<(i64, usize)> = None;
        for c in 1..self.n {
            let (p, q) = (self.lower[c], self.upper[c]);
            if p + q == 0 {
                continue;
            }
            let growth = p * q - p - q;
            if growth <= MAX_GROWTH && best.is_none_or(|(g, _)| growth < g) {
                best = Some((growth, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Substitute equalities and eliminate columns until a contradiction
    /// (`Err(Stop::Contradiction)`) or no column is cheap enough (`Ok`).
    fn eliminate_all(&mut self) -> Result<(), Stop> {
        loop {
            match self.next_pair() {
                Some((e, f)) => self.substitute(e, f)?,
                None => {
                    if self.n_live > MAX_ROWS {
                        return Ok(());
                    }
                    let Some(c) = self.pick() else {
                        return Ok(());
                    };
                    self.eliminate(c)?;
                }
            }
            if crate::budget::tick(1).is_err() {
                return Ok(());
            }
        }
    }

    /// The next recorded pair of opposite rows that are both still live
    /// (a live row is never changed but for a tighter constant, which
    /// would have contradicted its opposite: the pair is still an equality).
    fn next_pair(&mut self) -> Option<(usize, usize)> {
        while let Some((e, f)) = self.pairs.pop() {
            if self.live[e] && self.live[f] {
                return Some((e, f));
            }
        }
        None
    }

    /// Eliminate a column of the equality made by the opposite rows `e` and
    /// `f`: Fourier–Motzkin elimination of a column `c` of `e` in which every
    /// other row is combined with whichever of the two bounds `c` on the
    /// other side (`|e_c|·r - sign(e_c)·r_c·e`, without column `c`), and the
    /// pair with each other gives `0 >= 0`; the combinations of two other
    /// rows are implied by these and left out, so no row is added. The
    /// column is one with a unit coefficient in `e` if there is one, then the
    /// one in the fewest rows.
    fn substitute(&mut self, e: usize, f: usize) -> Result<(), Stop> {
        let n = self.n;
        let eq: Vec<i64> = self.row(e).to_vec();
        let c = (1..n)
            .filter(|&c| eq[c] != 0)
            .min_by_key(|&c| (eq[c].unsigned_abs() != 1, self.lower[c] + self.upper[c], c))
            .expect("an equality has a coefficient (a constant row is never kept)");
        let rows: Vec<usize> = (0..self.keys.len())
            .filter(|&k| k != e && k != f && self.live[k] && self.data[k * n + c] != 0)
            .collect();
        self.kill(e);
        self.kill(f);
        for &k in &rows {
            self.kill(k);
        }
        let (a, key_e) = (eq[c], self.keys[e]);
        let mut row = std::mem::take(&mut self.scratch);
        let mut added = Ok(());
        for &k in &rows {
            let r = self.row(k);
            let g = gcd_of(&[a, r[c]]);
            // x·r - s·y·e with x = |a|/g > 0, s·y = sign(a)·r_c/g
            let x = fit(a.checked_abs())? / g;
            let sy = if a > 0 {
                r[c] / g
            } else {
                fit((r[c] / g).checked_neg())?
            };
            row.clear();
            for (&u, &v) in r.iter().zip(&eq) {
                let s = fit(u.checked_mul(x))?;
                row.push(if v == 0 {
                    s
                } else {
                    fit(s.checked_sub(fit(v.checked_mul(sy))?))?
                });
            }
            debug_assert_eq!(row[c], 0);
            let h = self.keys[k]
                .wrapping_mul(x as u64)
                .wrapping_sub(key_e.wrapping_mul(sy as u64));
            added = self.add(&mut row, Some(h));
            if added.is_err() {
                break;
            }
        }
        self.scratch = row;
        added
    }

    /// Replace the rows with a coefficient on column `c` by the
    /// combinations of each lower with each upper bound.
    fn eliminate(&mut self, c: usize) -> Result<(), Stop> {
        let n = self.n;
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        for k in 0..self.keys.len() {
            if self.live[k] {
                let a = self.data[k * n + c];
                if a > 0 {
                    lo.push(k);
                } else if a < 0 {
                    hi.push(k);
                }
            }
        }
        for &k in lo.iter().chain(&hi) {
            self.kill(k);
        }
        let mut row = std::mem::take(&mut self.scratch);
        let added = self.combine_all(c, &lo, &hi, &mut row);
        self.scratch = row;
        added
    }

    /// Add each combination of a row of `lo` with a row of `hi` without
    /// column `c`, built in `row`.
    fn combine_all(
        &mut self,
        c: usize,
        lo: &[usize],
        hi: &[usize],
        row: &mut Vec<i64>,
    ) -> Result<(), Stop> {
        for &i in lo {
            for &j in hi {
                // y·lo + x·hi with x = lo[c] / g, y = -hi[c] / g: no column c
                let (a, b) = (self.row(i), self.row(j));
                let g = gcd_of(&[a[c], b[c]]);
                let (x, y) = (a[c] / g, fit(b[c].checked_neg())? / g);
                row.clear();
                for (&u, &v) in a.iter().zip(b) {
                    // (the rows are sparse: a shared zero costs no product)
                    if u == 0 && v == 0 {
                        row.push(0);
                        continue;
                    }
                    let s = fit(u.checked_mul(y))?;
                    row.push(fit(s.checked_add(fit(v.checked_mul(x))?))?);
                }
                debug_assert_eq!(row[c], 0);
                let h = self.keys[i]
                    .wrapping_mul(y as u64)
                    .wrapping_add(self.keys[j].wrapping_mul(x as u64));
                self.add(row, Some(h))?;
            }
        }
        Ok(())
    }
}

/// The inverse of the odd `g` modulo 2^64 (Newton's iteration: each step
/// doubles the number of correct low bits, from 3 for `g` itself).
fn inverse_mod_2_64(g: u64) -> u64 {
    debug_assert!(g % 2 == 1);
    let mut x = g;
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(g.wrapping_mul(x)));
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use proptest::prelude::*;

    fn basic(text: &str) -> BasicMap {
        let b: BasicMap = text.parse().unwrap();
        assert!(!b.is_obviously_empty(), "kept as written: {text}");
        b
    }

    #[test]
    fn refutes_by_elimination() {
        // j between i + 1 and k, and k <= i
        assert!(refute_by_elimination(&basic(
            "{ [i, j, k] : i + 1 <= j and j <= k and k <= i }"
        )));
        // a chain through two eliminations, with integer rounding:
        // 2j >= 2i + 1 means j >= i + 1
        assert!(refute_by_elimination(&basic(
            "{ [i, j, k, l] : 2j >= 2i + 1 and k >= j and l >= k and l <= i }"
        )));
        // rationally non-empty, but not over the integers: 2j + 1 <= 2i <= 2j + 1
        assert!(refute_by_elimination(&basic(
            "{ [i, j, k] : 2i >= 2j + 1 and 2i <= 2j + 1 + k and k <= 0 }"
        )));
        // no proof: non-empty; and empty for a reason beyond the inequalities
        assert!(!refute_by_elimination(&basic(
            "{ [i, j, k] : i + 1 <= j and j <= k and k <= i + 1 }"
        )));
        // an equality is its two inequalities, each rounded: 2j + 1 = 0
        // gives j >= 0 and j <= -1
        let lattice = basic("{ [i, j] : i = 2j + 1 and 0 <= i <= 0 }");
        assert!(refute_by_elimination(&lattice));
        assert_eq!(lattice.sample_by_search().unwrap(), None);
        // opposite rows make an equality (k = i + j), substituted into the
        // others: then i >= k means j <= 0, against j >= 1. Every column is
        // in too many rows for a plain elimination (growth 11 > MAX_GROWTH)
        let chain = "{ [i, j, k] : i + j <= k <= i + j and i >= k and j >= 1 and \
                     -10 <= i <= 10 and -10 <= j <= 10 and -10 <= k <= 10 and \
                     -30 <= i + j + k <= 30 and -30 <= i - j + k <= 30 }";
        assert!(refute_by_elimination(&basic(chain)));
        // no proof: non-empty with an equality (k = i + j)
        assert!(!refute_by_elimination(&basic(
            "{ [i, j, k] : i + j <= k <= i + j and 0 <= i <= 3 and 0 <= j <= 3 }"
        )));
        // coefficients beyond i64: no proof, no panic; i64::MIN: no panic
        assert!(!refute_by_elimination(&basic(
            "{ [i] : i >= 100000000000000000000 and i <= 0 }"
        )));
        let min = "-9223372036854775808";
        let b = basic(&format!(
            "{{ [i, j] : {min} i + j >= 0 and 9223372036854775807 i - j >= 0 and j >= 1 and i <= 3 }}"
        ));
        if refute_by_elimination(&b) {
            assert_eq!(b.sample_by_search().unwrap(), None);
        }
    }

    /// A random system of inequalities over `[i, j, k]` (coefficients in
    /// -3..=3, constants in -6..=6), within the box `-4 <= i, j, k <= 4`
    /// when `boxed`.
    fn system(rows: &[(i64, i64, i64, i64)], boxed: bool) -> String {
        let mut cons: Vec<String> = rows
            .iter()
            .map(|&(c, a, b, d)| format!("{c} + {a}i + {b}j + {d}k >= 0"))
            .collect();
        if boxed {
            cons.push("-4 <= i <= 4 and -4 <= j <= 4 and -4 <= k <= 4".into());
        }
        format!("{{ [i, j, k] : {} }}", cons.join(" and "))
    }

    /// Integer points of a boxed system by enumeration.
    fn enumerate(rows: &[(i64, i64, i64, i64)]) -> bool {
        let r = -4..=4;
        r.clone().any(|i| {
            r.clone().any(|j| {
                r.clone().any(|k| {
                    rows.iter()
                        .all(|&(c, a, b, d)| c + a * i + b * j + d * k >= 0)
                })
            })
        })
    }

    #[test]
    fn inverses_mod_2_64() {
        for g in (1..2000u64)
            .step_by(2)
            .chain([u64::MAX, i64::MAX as u64, 0x9E37_79B9_7F4A_7C15])
        {
            assert_eq!(g.wrapping_mul(inverse_mod_2_64(g)), 1, "{g}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

        /// With equalities (given as such, or as opposite rows): a
        /// refutation is never wrong, against enumeration on the box.
        #[test]
        fn elimination_with_equalities_is_sound(
            rows in prop::collection::vec((-6i64..=6, -3i64..=3, -3i64..=3, -3i64..=3), 1..7),
            eqs in prop::collection::vec((-4i64..=4, -2i64..=2, -2i64..=2, -2i64..=2), 1..3),
            as_pairs in any::<bool>(),
        ) {
            let mut text = system(&rows, true);
            text.truncate(text.len() - 2);
            for &(c, a, b, d) in &eqs {
                let e = format!("{c} + {a}i + {b}j + {d}k");
                if as_pairs {
                    text.push_str(&format!(" and {e} >= 0 and -({e}) >= 0"));
                } else {
                    text.push_str(&format!(" and {e} = 0"));
                }
            }
            text.push_str(" }");
            let all: Vec<_> = rows
                .iter()
                .copied()
                .chain(eqs.iter().flat_map(|&(c, a, b, d)| [(c, a, b, d), (-c, -a, -b, -d)]))
                .collect();
            let m: Map = text.parse().unwrap();
            for b in m.basic_maps() {
                if refute_by_elimination(b) {
                    prop_assert!(!enumerate(&all), "{}", text);
                }
            }
        }

        /// A refutation is never wrong: against enumeration on a box, and
        /// against the exact search on unbounded systems.
        #[test]
        fn elimination_is_sound(
            rows in prop::collection::vec((-6i64..=6, -3i64..=3, -3i64..=3, -3i64..=3), 1..9),
            boxed in any::<bool>(),
        ) {
            let text = system(&rows, boxed);
            let m: Map = text.parse().unwrap();
            for b in m.basic_maps() {
                if refute_by_elimination(b) {
                    prop_assert_eq!(b.sample_by_search().unwrap(), None, "{}", text);
                    if boxed {
                        prop_assert!(!enumerate(&rows), "{}", text);
                    }
                }
            }
        }
    }
}
