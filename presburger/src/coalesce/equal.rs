//! Exact equality of maps with cached disjunct data, refuting by sample
//! points before proving inclusion both ways.

use super::part::{Part, Sample};
use crate::basic::BasicMap;
use crate::error::Result;
use crate::map::Map;
use crate::syntactic::{point_excluded, syntactically_contains};

impl Map {
    /// Exact equality, as [`Map::is_equal`] (its test oracle), with cached
    /// disjunct data: disjuncts syntactically contained in a disjunct of the
    /// other side (e.g. identical ones) are settled at once; then a sample
    /// point of an unsettled disjunct outside every disjunct of the other
    /// side refutes (tried for both sides before any proof); then the
    /// remaining disjuncts are proved contained as [`Map::is_subset`] does,
    /// with the simplified disjuncts, points and tableaux shared by both
    /// directions.
    pub(crate) fn is_equal_fast(&self, other: &Map) -> Result<bool> {
        let (a, b) = self.aligned_ref(other, "is_equal")?;
        // syntactic containment holds for any rows: try the rows as given
        let settled = |xs: &[BasicMap], ys: &[BasicMap]| -> Vec<bool> {
            xs.iter()
                .map(|p| ys.iter().any(|q| syntactically_contains(q, p)))
                .collect()
        };
        let (sa, sb) = (settled(&a.parts, &b.parts), settled(&b.parts, &a.parts));
        if sa.iter().chain(&sb).all(|s| *s) {
            return Ok(true);
        }
        // the simplified disjuncts, made when first needed and shared by
        // both directions (with their points and tableaux)
        let mut xa = Side::new(&a);
        let mut xb = Side::new(&b);
        // refute before proving, in both directions: a point of an
        // unsettled disjunct outside every disjunct of the other side (found
        // and checked on the rows as given: no simplification needed)
        if xa.refuted(&sa, &b)? || xb.refuted(&sb, &a)? {
            return Ok(false);
        }
        Ok(side_subset(&mut xa, &sa, &mut xb)? && side_subset(&mut xb, &sb, &mut xa)?)
    }
}

/// A disjunct of a [`Side`], simplified when first needed.
enum Simplified {
    /// Not simplified yet.
    Pending,
    /// Empty (found by simplification or an exact test).
    Empty,
    /// The simplified disjunct.
    Part(Part),
}

impl Simplified {
    fn part(&self) -> Option<&Part> {
        match self {
            Simplified::Part(p) => Some(p),
            Simplified::Pending | Simplified::Empty => None,
        }
    }
}

/// The disjuncts of a map, each simplified when first needed.
struct Side<'a> {
    raw: &'a Map,
    parts: Vec<Simplified>,
    /// Points of the disjuncts as given.
    pts: Vec<Sample>,
}

impl<'a> Side<'a> {
    fn new(raw: &'a Map) -> Side<'a> {
        Side {
            raw,
            parts: (0..raw.parts.len()).map(|_| Simplified::Pending).collect(),
            pts: vec![Sample::Unknown; raw.parts.len()],
        }
    }

    /// Disjunct `i` simplified (`None` if simplification finds it empty);
    /// it takes over the point of the unsimplified disjunct (same set).
    fn get(&mut self, i: usize) -> Option<&mut Part> {
        if let Simplified::Pending = self.parts[i] {
            let mut b = self.raw.parts[i].clone();
            self.parts[i] = match b.simplify() {
                true => Simplified::Part(Part {
                    b,
                    pt: self.pts[i].clone(),
                    tab: None,
                }),
                false => Simplified::Empty,
            };
        }
        match &mut self.parts[i] {
            Simplified::Part(p) => Some(p),
            Simplified::Pending | Simplified::Empty => None,
        }
    }

    /// Some disjunct not marked in `done` has an integer point (sampled on
    /// its rows as given) outside every disjunct of `other`.
    fn refuted(&mut self, done: &[bool], other: &Map) -> Result<bool> {
        for i in 0..done.len() {
            if done[i] {
                continue;
            }
            if let Sample::Unknown = self.pts[i] {
                let pt = self.raw.parts[i].sample()?;
                if pt.is_none() {
                    // empty (exact test): contained in anything, no need
                    // to simplify it later
                    self.parts[i] = Simplified::Empty;
                }
                self.pts[i] = Sample::from_answer(pt);
            }
            if let Sample::Point(x) = &self.pts[i] {
                if other.parts.iter().all(|q| point_excluded(q, x)) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// All simplified, non-trivially-empty disjuncts.
    fn all(&mut self) -> Vec<&Part> {
        for i in 0..self.parts.len() {
            self.get(i);
        }
        self.parts.iter().filter_map(Simplified::part).collect()
    }
}

/// `x ⊆ y` (the disjuncts marked in `done` are known to be in `y`), as
/// [`Map::is_subset`] decides it (syntactic containment, then a point of
/// the disjunct outside every disjunct of `y`, then LP containment in one
/// disjunct, then the difference), with the simplified disjuncts, points
/// and tableaux cached across calls.
fn side_subset(x: &mut Side, done: &[bool], y: &mut Side) -> Result<bool> {
    'p: for i in 0..done.len() {
        if done[i] {
            continue;
        }
        // empty by simplification: contained
        let Some(p) = x.get(i) else {
            continue;
        };
        let ys = y.all();
        if ys.iter().any(|q| syntactically_contains(&q.b, &p.b)) {
            continue;
        }
        // (the point of `p` was checked against `y`'s disjuncts as given)
        if p.point()?.is_none() {
            continue;
        }
        for q in &ys {
            if p.lp_contained_in(&q.b)? {
                continue 'p;
            }
        }
        if !Map::from_basic(p.b.clone()).is_subset(y.raw)? {
            return Ok(false);
        }
    }
    Ok(true)
}
