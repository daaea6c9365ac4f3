//! The context of a branch of the search: a basic set over the parameters
//! (and the divisions cuts added), known points of it, and its rational
//! relaxation; the sign of a row constant over the context.

use crate::basic::BasicMap;
use crate::budget;
use crate::error::Result;
use crate::int::Int;
use crate::matrix::eval;
use crate::simplex::{Opt, Tableau};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    Pos,
    Neg,
    Mixed,
}

pub(super) struct Ctx {
    pub(super) bset: BasicMap,
    pub(super) samples: Vec<Vec<Int>>,
    /// The rational relaxation of `bset` (variables `[vars | divs]`), built on
    /// first use and dropped when a division is added. Queries optimise on it
    /// without copying: the basis moves, the represented polyhedron does not.
    pub(super) relaxation: Option<Tableau>,
    /// At most this many divisions in `bset` (cuts add them); a branch that
    /// needs more gives the search up (see [`solve_limited`](super::solve::solve_limited)).
    pub(super) max_divs: Option<usize>,
}

impl Ctx {
    /// Is there an integer point of the context with `row · (1, vars, divs) >= 0`?
    pub(super) fn has(&mut self, row: &[Int]) -> Result<bool> {
        for s in &self.samples {
            if eval(row, s).signum() >= 0 {
                return Ok(true);
            }
        }
        self.search(row)
    }

    /// [`has`](Self::has) for a row that no known point satisfies.
    pub(super) fn search(&mut self, row: &[Int]) -> Result<bool> {
        // rational test first: `row` takes integer values at integer points,
        // so if its rational maximum is negative there is no integer point;
        // and if the maximising vertex is integral, it is one
        if self.relaxation.is_none() {
            self.relaxation = Some(self.bset.rational_tableau()?);
        }
        let t = self.relaxation.as_mut().expect("built above");
        if t.is_empty() {
            return Ok(false);
        }
        if let Opt::Value(num, _) = t.maximize(row)? {
            if num.is_neg() {
                return Ok(false);
            }
        }
        if let Some(p) = integral_vertex(t) {
            if eval(row, &p).signum() >= 0 {
                self.samples.push(p);
                return Ok(true);
            }
        }
        let b = &self.bset;
        let n = b.space.n_vars() + b.n_div();
        budget::tick(1 + (n * (b.ineqs.len() + 1)) as u64)?;
        match crate::simplex::integer_sample_with(n, &b.eqs, &b.ineqs, Some(row))? {
            Some(p) => {
                self.samples.push(p);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    pub(super) fn sign(&mut self, konst: &[Int]) -> Result<Sign> {
        // konst = [M | 1 | vars | divs]
        if konst[0].is_pos() {
            return Ok(Sign::Pos);
        }
        if konst[0].is_neg() {
            return Ok(Sign::Neg);
        }
        let f = &konst[1..];
        // a constant has its own sign (the context is never empty)
        if f[1..].iter().all(Int::is_zero) {
            return Ok(if f[0].is_neg() { Sign::Neg } else { Sign::Pos });
        }
        // known points showing both signs settle it without a search
        let (mut seen_neg, mut seen_pos) = (false, false);
        for s in &self.samples {
            if eval(f, s).is_neg() {
                seen_neg = true;
            } else {
                seen_pos = true;
            }
            if seen_neg && seen_pos {
                return Ok(Sign::Mixed);
            }
        }
        // (no known point has the sign looked for: search directly; a point
        // found for one sign cannot have the other)
        let can_neg = seen_neg || {
            let mut negf: Vec<Int> = f.iter().map(|v| -v).collect();
            negf[0] = &negf[0] - &Int::ONE;
            self.search(&negf)?
        };
        if !can_neg {
            return Ok(Sign::Pos);
        }
        let can_pos = seen_pos || self.search(f)?;
        Ok(if can_pos { Sign::Mixed } else { Sign::Neg })
    }

    /// Split the context on the sign of the affine form `f`: returns the
    /// part where `f >= 0` (a copy) and keeps in `self` the part where
    /// `f < 0` (`-f - 1 >= 0`, restricted in place: one copy per split).
    pub(super) fn split(&mut self, f: Vec<Int>) -> Result<Ctx> {
        let mut negf: Vec<Int> = f.iter().map(|v| -v).collect();
        negf[0] = &negf[0] - &Int::ONE;
        let mut pos = Ctx {
            bset: self.bset.clone(),
            samples: self
                .samples
                .iter()
                .filter(|s| eval(&f, s).signum() >= 0)
                .cloned()
                .collect(),
            relaxation: self.relaxation.clone(),
            max_divs: self.max_divs,
        };
        if let Some(t) = &mut pos.relaxation {
            t.add_ineq(&f)?;
        }
        pos.bset.ineqs.push(f);
        self.samples.retain(|s| eval(&negf, s).signum() >= 0);
        if let Some(t) = &mut self.relaxation {
            t.add_ineq(&negf)?;
        }
        self.bset.ineqs.push(negf);
        Ok(pos)
    }
}

/// The tableau's current sample point, if all its coordinates are integers.
pub(super) fn integral_vertex(t: &Tableau) -> Option<Vec<Int>> {
    (0..t.n_var())
        .map(|k| {
            let (num, den) = t.sample_value(k);
            num.is_divisible_by(&den).then(|| num.div_exact(&den))
        })
        .collect()
}
