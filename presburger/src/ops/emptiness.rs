//! Emptiness, sampling and membership: cheap tests first (a kept point,
//! a trivially false row, bound propagation), then the exact search.

use std::borrow::Cow;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::guess::{guess, guess_again, guess_simplified, remember_point, Guess, Order};
use crate::int::Int;
use crate::map::Map;
use crate::simplex::integer_sample;
use crate::trace::traced;

impl BasicMap {
    /// Exact integer emptiness.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : 1 <= 2i <= 1 }".parse().unwrap();
    /// assert!(s.is_empty().unwrap());
    /// ```
    pub fn is_empty(&self) -> Result<bool> {
        traced!("is_empty", [self], {
            Ok(sample_of(Cow::Borrowed(self), false)?.is_empty())
        })
    }

    /// An integer point `(params, in, out)` of the basic map, or `None` if it is empty.
    ///
    /// Cheap tests first: the point an earlier call found, if it still
    /// satisfies every constraint; a trivially false row (`None`); a point
    /// found by bound propagation, checked against every constraint (and
    /// kept for later calls). Otherwise the exact search runs
    /// ([`sample_by_search`](Self::sample_by_search)).
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        Ok(sample_of(Cow::Borrowed(self), true)?.point())
    }

    /// [`is_empty`](Self::is_empty) of a basic map the caller no longer
    /// needs (it is simplified in place instead of copied).
    pub(crate) fn into_is_empty(self) -> Result<bool> {
        Ok(sample_of(Cow::Owned(self), false)?.is_empty())
    }

    /// [`sample`](Self::sample) of an already simplified basic map: a
    /// verified guess (bound propagation; simplification may have removed
    /// what blocked it on the original; not the contradictions of
    /// `refute`, which the simplification looked for), else the exact search.
    fn sample_simplified(&self) -> Result<Option<Vec<Int>>> {
        match guess_simplified(self, true, false) {
            Guess::Point(p) => Ok(p),
            Guess::Empty => Ok(None),
            Guess::Unknown => self.search_simplified(),
        }
    }

    /// The exact branch-and-bound search for a point of a simplified basic map.
    pub(crate) fn search_simplified(&self) -> Result<Option<Vec<Int>>> {
        let nv = self.space.n_vars();
        let full = integer_sample(nv + self.n_div(), &self.eqs, &self.ineqs)?;
        Ok(full.map(|mut p| {
            p.truncate(nv);
            p
        }))
    }

    /// The simplified basic map, or `None` if it is empty (exact test).
    ///
    /// The point the cheap tests find is kept on `self` (as
    /// [`is_empty`](Self::is_empty) keeps one): it is a point of the
    /// simplified copy, which the next call on `self` simplifies alike, so
    /// asking again costs one check instead of a new guess.
    pub(crate) fn simplified_nonempty(&self) -> Result<Option<BasicMap>> {
        // (the simplified copy map construction kept, if these are its rows)
        let mut b = match self.kept_simplified() {
            Some(b) => b,
            None => {
                let mut b = self.clone();
                if !b.simplify() {
                    return Ok(None);
                }
                b
            }
        };
        match guess_simplified(&b, false, true) {
            Guess::Point(_) => {
                if let Some(p) = b.hint.get() {
                    self.hint.set(p);
                }
            }
            Guess::Empty => return Ok(None),
            Guess::Unknown => {
                if b.search_simplified()?.is_none() {
                    return Ok(None);
                }
            }
        }
        if b.local_relations_by_lp()? {
            b.simplify();
        }
        Ok(Some(b))
    }

    /// [`simplified_nonempty`](Self::simplified_nonempty), in place.
    pub(crate) fn into_simplified_nonempty(self) -> Result<Option<BasicMap>> {
        let mut b = self;
        // `b` is simplified: search it directly instead of re-simplifying a copy
        if !b.simplify() || b.sample_simplified()?.is_none() {
            return Ok(None);
        }
        if b.local_relations_by_lp()? {
            b.simplify();
        }
        Ok(Some(b))
    }

    /// Make every local explicit (a div with a definition): first by the cheap
    /// rules of [`detect_divs`](Self::detect_divs), then by parametric integer
    /// programming. The result is a union of basic maps equal to `self`.
    pub fn make_divs_explicit(&self) -> Result<Vec<BasicMap>> {
        let mut b = self.clone();
        if !b.simplify() {
            return Ok(vec![]);
        }
        if b.detect_divs() {
            return Ok(vec![b]);
        }
        crate::pip::explicit_divs(&b)
    }

    /// True if an earlier emptiness test or optimum of this basic map
    /// found its current rows without an integer point (kept in its hint:
    /// the check compares the rows with the ones found empty).
    pub(crate) fn known_empty(&self) -> bool {
        self.hint.proves_empty(&self.eqs, &self.ineqs)
    }

    /// Keep the current rows as found without an integer point (after an
    /// exact test), for [`known_empty`](Self::known_empty).
    pub(crate) fn remember_empty(&self) {
        self.hint.set_empty(&self.eqs, &self.ineqs);
    }

    /// True if the rational relaxation is empty (a cheap test: `false` does
    /// not mean there is an integer point).
    pub fn is_rationally_empty(&self) -> Result<bool> {
        Ok(self.rational_tableau()?.is_empty())
    }

    /// The simplex tableau of the rational relaxation (all constraints, the
    /// locals as plain variables); it may be empty.
    pub(crate) fn rational_tableau(&self) -> Result<crate::simplex::Tableau> {
        let mut t = crate::simplex::Tableau::new(self.row_len() - 1);
        for e in &self.eqs {
            t.add_eq(e)?;
            if t.is_empty() {
                return Ok(t);
            }
        }
        for r in &self.ineqs {
            t.add_ineq(r)?;
            if t.is_empty() {
                return Ok(t);
            }
        }
        Ok(t)
    }

    /// True if `(params, in, out)` satisfies the basic map (locals are searched exactly).
    pub fn contains_point(&self, point: &[Int]) -> Result<bool> {
        let nv = self.space.n_vars();
        if point.len() != nv {
            return Err(Error::Invalid(
                "contains_point: wrong number of coordinates".into(),
            ));
        }
        let mut b = self.clone();
        for (k, v) in point.iter().enumerate() {
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1 + k] = Int::ONE;
            row[0] = -v;
            b.eqs.push(row);
        }
        Ok(!b.into_is_empty()?)
    }
}

impl Map {
    /// Simplify every disjunct and drop the empty ones (exact).
    pub fn remove_empty_parts(&self) -> Result<Map> {
        traced!("remove_empty_parts", [self], {
            let mut out = Map::empty(self.space.clone());
            for b in &self.parts {
                if let Some(b) = b.simplified_nonempty()? {
                    out.parts.push(b);
                }
            }
            Ok(out)
        })
    }

    /// Exact integer emptiness.
    pub fn is_empty(&self) -> Result<bool> {
        traced!("is_empty", [self], {
            for b in &self.parts {
                if !b.is_empty()? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// One integer point of the map as a single-point map (parameters fixed too), or `None`.
    pub fn sample_point(&self) -> Result<Option<Map>> {
        traced!("sample", [self], {
            for b in &self.parts {
                if let Some(p) = b.sample()? {
                    let mut pt = BasicMap::universe(self.space.clone());
                    for (k, v) in p.iter().enumerate() {
                        let mut row = vec![Int::ZERO; pt.row_len()];
                        row[1 + k] = Int::ONE;
                        row[0] = -v;
                        pt.eqs.push(row);
                    }
                    return Ok(Some(Map::from_basic(pt)));
                }
            }
            Ok(None)
        })
    }

    /// True if `(params, in, out)` lies in the map.
    pub fn contains_point(&self, point: &[Int]) -> Result<bool> {
        for b in &self.parts {
            if b.contains_point(point)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// What [`sample_of`] found out about a basic map.
#[derive(Clone, Debug)]
enum Sampled {
    /// No integer point.
    Empty,
    /// Not empty, with a point (always when a point was asked for).
    Point(Vec<Int>),
    /// Not empty; the point found by a cheap test was not built.
    NonEmpty,
}

impl Sampled {
    fn is_empty(&self) -> bool {
        matches!(self, Sampled::Empty)
    }

    fn point(self) -> Option<Vec<Int>> {
        match self {
            Sampled::Point(p) => Some(p),
            Sampled::Empty | Sampled::NonEmpty => None,
        }
    }
}

/// Work on numbers beyond `i64` that the solvers' ticks (charged per row,
/// pivot or search node) do not see: simplification combines every row
/// with the others, at a cost growing with the size of the numbers, so
/// each 64-bit word of a big coefficient is charged once per constraint.
/// Zero when every coefficient is small (the usual case), so the budget
/// of ordinary maps is unchanged. Without it, a map with constants of
/// hundreds of digits could spend seconds under a small budget (fuzzing,
/// issue 23).
pub(crate) fn big_number_work(b: &BasicMap) -> u64 {
    let words: u64 = b
        .eqs()
        .iter()
        .chain(b.ineqs())
        .flat_map(|r| r.iter())
        .map(|x| match x {
            Int::Small(_) => 0,
            Int::Big(v) => 1 + v.bits() / 64,
        })
        .sum();
    words * (b.eqs().len() + b.ineqs().len()) as u64
}

/// [`BasicMap::sample`] and [`BasicMap::is_empty`] of a borrowed or owned
/// basic map: the cheap tests first, then a copy (only if borrowed) is
/// simplified and searched. A point is built only if `want_point` (a point
/// the cheap tests find is not built otherwise).
fn sample_of(b: Cow<'_, BasicMap>, want_point: bool) -> Result<Sampled> {
    // an earlier exact test of the same rows (compared, not trusted): before
    // the budget's look at every coefficient, which costs more than this
    // answer (12 k instructions of a 22-row `trace-is_empty-373` against
    // 1 k), and no work on big numbers follows it
    if let Cow::Borrowed(b) = &b {
        match b.hint.proven_empty(&b.eqs, &b.ineqs) {
            Some(true) => return Ok(Sampled::Empty),
            Some(false) if !want_point => return Ok(Sampled::NonEmpty),
            _ => {}
        }
    }
    crate::budget::tick(big_number_work(&b))?;
    // the simplified rows map construction kept (it tried `refute` on these
    // rows too): no `refute` again, and the search takes them instead of
    // simplifying a copy
    let kept = match &b {
        Cow::Borrowed(b) => b.kept_simplified(),
        Cow::Owned(_) => None,
    };
    let first = if kept.is_some() {
        guess_simplified(&b, want_point, true)
    } else {
        guess(&b, want_point, matches!(b, Cow::Borrowed(_)))
    };
    match first {
        Guess::Point(p) => {
            // a point the cheap tests found but did not keep (e.g. by
            // exact propagation, or with locals): the rows are kept as
            // non-empty instead, so that the next test of a borrowed basic
            // map compares them. Only with locals, where the tests are
            // dear: without, they cost about what the copy of the rows
            // would (a first call on a fresh object would pay it for nothing)
            if let Cow::Borrowed(b) = &b {
                if b.n_div() > 0 && b.hint.with_point(|_| ()).is_none() {
                    b.hint.set_nonempty(&b.eqs, &b.ineqs);
                }
            }
            return Ok(match p {
                Some(p) => Sampled::Point(p),
                None => Sampled::NonEmpty,
            });
        }
        Guess::Empty => {
            // kept alike (with locals only) for the next test of the rows
            if let Cow::Borrowed(b) = &b {
                if b.n_div() > 0 {
                    b.remember_empty();
                }
            }
            return Ok(Sampled::Empty);
        }
        Guess::Unknown => {}
    }
    // propagation once more, the parameters last (they then take the
    // bounds the dimensions' values ask of them): on the AST generator's
    // tests of tiled_mix, it finds a point for 26 of the 143 basic maps
    // whose first propagation found none, each of which would otherwise be
    // simplified (~38 k instructions) and searched (~55 k)
    // then from the last column (the range's dimensions first: see
    // `Order::Reversed`): of the corpus's 400 `is_empty` cases, it makes 14
    // (dependence relations ordered across their two sides) 3.5-5x faster
    // on first calls; where it too finds nothing, it costs a few percent
    let remember = matches!(b, Cow::Borrowed(_));
    // (without parameters or equalities, parameters-last is column order,
    // which `guess` has tried: its bounds then meet no congruence)
    let orders: &[Order] = if b.n_param() > 0 || !b.eqs.is_empty() {
        &[Order::ParamsLast, Order::Reversed]
    } else {
        &[Order::Reversed]
    };
    for &order in orders {
        if let Guess::Point(p) = guess_again(&b, want_point, remember, order) {
            return Ok(match p {
                Some(p) => Sampled::Point(p),
                None => Sampled::NonEmpty,
            });
        }
    }
    // a borrowed basic map keeps what the search finds on its copy
    let simplified = kept.is_some();
    let (mut s, original) = match b {
        Cow::Borrowed(b) => {
            if b.known_empty() {
                return Ok(Sampled::Empty);
            }
            (kept.unwrap_or_else(|| b.clone()), Some(b))
        }
        Cow::Owned(b) => (b, None),
    };
    if !simplified && !s.simplify() {
        if let Some(b) = original {
            b.remember_empty();
        }
        return Ok(Sampled::Empty);
    }
    Ok(match s.sample_simplified()? {
        Some(p) => {
            if let Some(b) = original {
                // the next call on the same basic map costs one check (of
                // the point, else of the rows found non-empty)
                if !remember_point(b, &p) {
                    b.hint.set_nonempty(&b.eqs, &b.ineqs);
                }
            }
            Sampled::Point(p)
        }
        None => {
            if let Some(b) = original {
                b.remember_empty();
            }
            Sampled::Empty
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::{budget, Error, Set};

    /// Emptiness charges the budget for big numbers (issue 23: a schedule
    /// check on 35-digit constants spent seconds under a budget of a few
    /// thousand ticks), and only for them.
    #[test]
    fn big_numbers_are_charged() {
        let big = "1".repeat(300);
        let text = format!("{{ [i, j] : i = {big} j + 7 and 0 <= j <= 5 and i >= {big} }}");
        let huge: Set = text.parse().unwrap();
        let small: Set = "{ [i, j] : i = 3j + 7 and 0 <= j <= 5 and i >= 3 }"
            .parse()
            .unwrap();
        let spent = |s: &Set| {
            let outer = budget::enter(u64::MAX);
            assert!(!s.is_empty().unwrap());
            outer.spent()
        };
        assert_eq!(super::big_number_work(&small.basic_maps()[0]), 0);
        let work = super::big_number_work(&huge.basic_maps()[0]);
        assert!(work >= 16, "a 300-digit coefficient is 16 words: {work}");
        assert!(spent(&huge) >= work);
        assert!(spent(&small) < work);
        // a fresh copy (`huge` keeps what its first test found)
        let fresh: Set = text.parse().unwrap();
        assert!(matches!(
            budget::with_budget(work - 1, || fresh.is_empty()),
            Err(Error::BudgetExceeded)
        ));
    }

    /// A repeated test answered by what an earlier one kept (the same rows
    /// found empty or non-empty) does no work on big numbers, so it is not
    /// charged for them: the record is looked at before the coefficients
    /// are (`trace-is_empty-373`: 12 k instructions a call before, for a
    /// pointer comparison).
    #[test]
    fn kept_answers_are_not_charged_for_big_numbers() {
        let big = "1".repeat(300);
        let mut checked = 0;
        for (text, empty) in [
            (format!("{{ [i, j] : exists e : i = {big} j + 2e + 1 and 0 <= j <= 5 and i >= 0 and i >= 2e }}"), false),
            (format!("{{ [i, j] : exists e : i = {big} j + 2e + 1 and 0 <= j <= 5 and i >= {big} and i <= 3e and e <= -1 }}"), true),
            ("{ [i, j] : exists e : 2e = i + 1 and 2i = j and 0 <= i <= 9 and i >= 10 - j }".to_string(), false),
            ("{ [i, j] : exists e : i = 2e + 1 and 2e = j and 3 <= i <= 7 and i >= j + 5 }".to_string(), true),
        ] {
            let s: Set = text.parse().unwrap();
            assert_eq!(s.is_empty().unwrap(), empty, "{text}");
            // an empty set's rows are recorded; a non-empty one may keep a
            // point instead, whose check is charged like any work
            let Some(b) = s.basic_maps().first() else {
                continue; // found empty while parsing: nothing to record
            };
            let recorded = b.hint.proven_empty(&b.eqs, &b.ineqs).is_some();
            let fresh: Set = text.parse().unwrap();
            let work = super::big_number_work(&fresh.basic_maps()[0]);
            // (an empty set without locals decided by the cheap tests is
            // not recorded: deciding it again costs about what a record would)
            assert!(recorded || !empty || work == 0, "{text}");
            if recorded {
                // the answer itself, not only a budget error's absence
                assert_eq!(budget::with_budget(0, || s.is_empty()).unwrap(), empty, "{text}");
                checked += usize::from(work > 0);
            }
            if work > 0 {
                assert!(matches!(
                    budget::with_budget(work - 1, || fresh.is_empty()),
                    Err(Error::BudgetExceeded)
                ));
            }
        }
        assert!(
            checked >= 1,
            "no recorded answer with big numbers was tested"
        );
    }

    /// A non-empty basic map whose point's locals do not carry over
    /// (trace-is_empty-366): the second test compares its rows with the
    /// ones found non-empty instead of searching again; a copy with other
    /// rows does not trust the record.
    #[test]
    fn nonemptiness_is_kept_for_its_rows() {
        let s: Set = "[tsteps, length] -> { [i0, 0, i2, i3, i4, i5, i6, i7, i8, i9, i10] : exists (e0, e1, e2, e3, e4, e5 : 32e4 = e3 and tsteps = 2 and 16e0 - 14 <= 15length <= 16e0 and 32e1 - 31 <= 31length <= 32e1 and 32e2 + 31 <= length <= 32e2 + 62 and 15e3 - 15 <= 16e5 <= 15e3 and 1 <= length <= 1024 and 0 <= i0 <= 1 and 2length >= e3 + 31) }"
            .parse()
            .unwrap();
        let b = &s.basic_maps()[0];
        assert!(!b.is_empty().unwrap());
        let kept = b.hint.get().is_some() || b.hint.proven_empty(&b.eqs, &b.ineqs) == Some(false);
        assert!(kept, "a point or the rows are kept");
        assert!(!b.is_empty().unwrap());
        // a copy (sharing the record) made empty: `i0 >= 2` against `i0 <= 1`
        let mut c = b.clone();
        let mut row = vec![crate::Int::ZERO; c.row_len()];
        row[0] = crate::Int::from(-2);
        row[1 + c.space.n_param()] = crate::Int::ONE;
        c.ineqs.push(row);
        assert_eq!(c.hint.proven_empty(&c.eqs, &c.ineqs), None);
        assert!(c.is_empty().unwrap());
        assert!(!b.is_empty().unwrap());
    }

    /// Points of `{ [i, j] : exists e : rows }` in the box `-4 <= i, j <= 4`
    /// by brute force (`e` in `-40..=40`, wide enough for the pool's rows).
    fn brute_nonempty(rows: &[(i64, i64, i64, i64)]) -> bool {
        (-4..=4i64).any(|i| {
            (-4..=4i64).any(|j| {
                (-40..=40i64).any(|e| {
                    rows.iter()
                        .all(|&(a, b, c, d)| a * i + b * j + c * e + d >= 0)
                })
            })
        })
    }

    /// Points of `[n] -> { [i, j] : exists e : rows }` with `n`, `i`, `j`
    /// in `-4..=4` by brute force (`e` in `-40..=40`).
    fn brute_nonempty_with_param(rows: &[(i64, i64, i64, i64, i64)]) -> bool {
        (-4..=4i64).any(|n| {
            (-4..=4i64).any(|i| {
                (-4..=4i64).any(|j| {
                    (-40..=40i64).any(|e| {
                        rows.iter()
                            .all(|&(a, b, c, d, k)| a * n + b * i + c * j + d * e + k >= 0)
                    })
                })
            })
        })
    }

    /// The second propagation (parameters last) answers where the first
    /// does not, and the answer is right.
    #[test]
    fn parameters_last_decides() {
        let s: Set = "[N, M] -> { [i] : 1 <= i < N and i <= 3 and N >= 1 }"
            .parse()
            .unwrap();
        let b = &s.basic_maps()[0];
        assert!(!b.is_empty().unwrap());
        let p = b.sample().unwrap().expect("a point");
        assert!(b.contains_point(&p).unwrap());
        let s: Set = "[N, M] -> { [i] : 1 <= i < N and i <= 3 and N >= 1 and N <= 1 }"
            .parse()
            .unwrap();
        assert!(s.is_empty().unwrap());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// Emptiness and samples of sets with a parameter (where the second
        /// propagation, parameters last, runs), on fresh objects and again:
        /// the brute-force answer, and a sample is a point.
        #[test]
        fn emptiness_with_parameter_matches_brute_force(
            rows in proptest::collection::vec((-2i64..=2, -2i64..=2, -2i64..=2, -2i64..=2, -5i64..=5), 1..6),
        ) {
            let mut all = vec![(1, 0, 0, 0, 4), (-1, 0, 0, 0, 4), (0, 1, 0, 0, 4), (0, -1, 0, 0, 4),
                               (0, 0, 1, 0, 4), (0, 0, -1, 0, 4), (1, 1, 0, -2, 8), (-1, -1, 0, 2, 8)];
            all.extend(rows.iter().copied());
            let cons: Vec<String> = all.iter()
                .map(|(a, b, c, d, k)| format!("{a}n + {b}i + {c}j + {d}e + {k} >= 0"))
                .collect();
            let text = format!("[n] -> {{ [i, j] : exists e : {} }}", cons.join(" and "));
            let want = !brute_nonempty_with_param(&all);
            let s: Set = text.parse().unwrap();
            proptest::prop_assert_eq!(s.is_empty().unwrap(), want, "{}", text);
            proptest::prop_assert_eq!(s.is_empty().unwrap(), want, "again: {}", text);
            let fresh: Set = text.parse().unwrap();
            for b in fresh.basic_maps() {
                if let Some(p) = b.sample().unwrap() {
                    proptest::prop_assert!(!want, "{}", text);
                    proptest::prop_assert!(b.contains_point(&p).unwrap(), "{:?} {}", p, text);
                }
            }
        }

        /// Emptiness with an existential, asked twice (the second answer
        /// from what the first kept), then on a copy with one more row
        /// (the kept record must not be trusted for other rows): always
        /// the brute-force answer.
        #[test]
        fn repeated_emptiness_matches_brute_force(
            rows in proptest::collection::vec((-3i64..=3, -3i64..=3, -3i64..=3, -6i64..=6), 1..5),
            extra in (-3i64..=3, -3i64..=3, -6i64..=6),
        ) {
            // `e` is tied to `i`, `j` by `|coefficient| <= 3` rows and the box
            let mut all = vec![(1, 0, 0, 4), (-1, 0, 0, 4), (0, 1, 0, 4), (0, -1, 0, 4),
                               (2, 1, -3, 12), (-2, -1, 3, 12)];
            all.extend(rows.iter().copied());
            let text = |rs: &[(i64, i64, i64, i64)]| {
                let cons: Vec<String> = rs.iter().map(|(a, b, c, d)| format!("{a}i + {b}j + {c}e + {d} >= 0")).collect();
                format!("{{ [i, j] : exists e : {} }}", cons.join(" and "))
            };
            let s: Set = text(&all).parse().unwrap();
            let want = !brute_nonempty(&all);
            proptest::prop_assert_eq!(s.is_empty().unwrap(), want, "{}", text(&all));
            proptest::prop_assert_eq!(s.is_empty().unwrap(), want, "again: {}", text(&all));
            for b in s.basic_maps() {
                let mut c = b.clone();
                let mut row = vec![crate::Int::ZERO; c.row_len()];
                row[0] = crate::Int::from(extra.2);
                row[1] = crate::Int::from(extra.0);
                row[2] = crate::Int::from(extra.1);
                c.ineqs.push(row);
                let mut more = all.clone();
                more.push((extra.0, extra.1, 0, extra.2));
                proptest::prop_assert_eq!(c.is_empty().unwrap(), !brute_nonempty(&more), "{} and {:?}", text(&all), extra);
            }
        }
    }
}
