//! Gist: the constraints of each disjunct that the context (with the
//! disjunct's other constraints) implies are removed, and the disjuncts that
//! do not meet the context are dropped.
//!
//! Whether a row is implied is first tried on rational relaxations
//! ([`Kept`]: one tableau per context disjunct, built once per disjunct and
//! extended by the rows kept), which proves many rows implied with one
//! linear program each; only the rows it leaves open take the exact integer
//! test (the simple algorithm, kept whole as [`Map::gist_by_emptiness`],
//! the oracle). A row proved implied is one the exact test removes too, so
//! both give the same rows.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::simplex::{Opt, Tableau};
use crate::trace::traced;

impl Map {
    /// A map equal to `self` inside `context`, with constraints implied by the context removed.
    pub fn gist(&self, context: &Map) -> Result<Map> {
        traced!("gist", [self, context], { gist_with(self, context, true) })
    }

    /// [`gist`](Self::gist) deciding every row by an exact emptiness test
    /// (the simple version, kept as the test oracle of the linear
    /// programming shortcut).
    #[doc(hidden)]
    pub fn gist_by_emptiness(&self, context: &Map) -> Result<Map> {
        gist_with(self, context, false)
    }
}

fn gist_with(m: &Map, context: &Map, fast: bool) -> Result<Map> {
    let (a, c) = m.aligned(context, "gist")?;
    // the context without its empty disjuncts, each simplified, and each
    // disjunct of `a` simplified: the copies kept by their rows
    // (`crate::memo`) when the same objects were asked before
    let mut kept_parts = Vec::with_capacity(c.parts.len());
    for q in &c.parts {
        kept_parts.extend(crate::memo::simplified_nonempty(q)?);
    }
    let c = Map::new(c.space.clone(), kept_parts);
    let mut out = Map::empty(a.space.clone());
    for b in &a.parts {
        let Some(mut b) = crate::memo::simplified(b) else {
            continue;
        };
        let protected = div_constraints(&b);
        // the shortcut needs the context's disjuncts in b's parameter layout
        let mut kept = None;
        let mut meets = None;
        if fast
            && c.parts
                .iter()
                .all(|q| crate::map::same_params(&q.space.params, &b.space.params))
        {
            let (k, m) = Kept::new(&b, &protected, &c.parts)?;
            kept = Some(k);
            meets = m;
        }
        let meets = match meets {
            Some(m) => m,
            None => !Map::from_basic(b.clone()).intersect(&c)?.is_empty()?,
        };
        if !meets {
            continue;
        }
        let mut k = 0;
        while k < b.ineqs.len() {
            if protected.iter().any(|p| p[..] == b.ineqs[k]) {
                k += 1;
                continue;
            }
            crate::budget::tick(1)?;
            let proved = match &mut kept {
                Some(kept) => kept.implies(&b.ineqs[k])?,
                None => false,
            };
            let implied = match proved {
                true => true,
                false => {
                    let mut viol = b.clone();
                    let row = viol.ineqs.remove(k);
                    let mut neg: Vec<Int> = row.iter().map(|v| -v).collect();
                    neg[0] = &neg[0] - &Int::ONE;
                    viol.ineqs.push(neg);
                    Map::from_basic(viol).intersect(&c)?.is_empty()?
                }
            };
            if implied {
                b.ineqs.remove(k);
            } else {
                if let Some(kept) = &mut kept {
                    kept.add(&b.ineqs[k])?;
                }
                k += 1;
            }
        }
        out.parts.push(b);
    }
    Ok(out)
}

/// The rational relaxations of `q ∩ E ∩ K` for each disjunct `q` of the
/// context, where `E` is a disjunct's equalities and division bounds (never
/// removed) and `K` the inequalities kept so far: while a disjunct's rows
/// are visited in order, `E ∩ K` holds a subset of the rows of the disjunct
/// without the visited row (the rows kept before it; the later rows are
/// left out), so its relaxation contains every point the exact test asks
/// about.
struct Kept {
    /// One tableau per context disjunct (empty when that disjunct does not
    /// meet `E`), over the conjunction's columns: the disjunct's, then the
    /// context disjunct's locals.
    tabs: Vec<Tableau>,
    row: Vec<Int>,
}

impl Kept {
    /// The relaxations for disjunct `b` (with its division bounds
    /// `protected`) in `context`, and whether `b` meets the context when
    /// the relaxations of `b ∩ q` tell: `Some(false)` when all are empty
    /// (no rational point, so no integer one), `Some(true)` when one has an
    /// integral sample (a vertex: an integer point of the rows of `b ∩ q`,
    /// locals included), `None` otherwise.
    fn new(
        b: &BasicMap,
        protected: &[Vec<Int>],
        context: &[BasicMap],
    ) -> Result<(Kept, Option<bool>)> {
        let mut e = b.clone();
        e.ineqs.retain(|r| protected.iter().any(|p| p[..] == *r));
        let mut kept = Kept {
            tabs: Vec::with_capacity(context.len()),
            row: Vec::new(),
        };
        let mut meets = Some(false);
        for q in context {
            let t = e.conjoin(q, 0).rational_tableau()?;
            if meets != Some(true) && !t.is_empty() {
                let mut whole = t.clone();
                for r in b
                    .ineqs
                    .iter()
                    .filter(|r| !protected.iter().any(|p| p[..] == **r))
                {
                    kept.row.clear();
                    kept.row.extend_from_slice(r);
                    kept.row.resize(whole.n_var() + 1, Int::ZERO);
                    whole.add_ineq(&kept.row)?;
                    if whole.is_empty() {
                        break;
                    }
                }
                if !whole.is_empty() {
                    meets = if whole.fractional_var().is_none() {
                        Some(true)
                    } else {
                        None
                    };
                }
            }
            kept.tabs.push(t);
        }
        Ok((kept, meets))
    }

    /// `r` in the layout of tableau `t` (padded with zeros for the context
    /// disjunct's locals).
    fn padded(&mut self, r: &[Int], t: usize) -> &[Int] {
        self.row.clear();
        self.row.extend_from_slice(r);
        self.row.resize(self.tabs[t].n_var() + 1, Int::ZERO);
        &self.row
    }

    /// True if every integer point of each context disjunct and `E ∩ K`
    /// satisfies `r`: its rational minimum over every relaxation is above
    /// `-1` (the row takes integer values at integer points) or the
    /// relaxation is empty. `false` means "not proved".
    fn implies(&mut self, r: &[Int]) -> Result<bool> {
        for t in 0..self.tabs.len() {
            if self.tabs[t].is_empty() {
                continue;
            }
            let row = self.padded(r, t).to_vec();
            match self.tabs[t].minimize(&row)? {
                Opt::Value(num, den) if num > -&den => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// Add the kept row `r` to every relaxation.
    fn add(&mut self, r: &[Int]) -> Result<()> {
        for t in 0..self.tabs.len() {
            if self.tabs[t].is_empty() {
                continue;
            }
            let row = self.padded(r, t).to_vec();
            self.tabs[t].add_ineq(&row)?;
        }
        Ok(())
    }
}

fn div_constraints(b: &BasicMap) -> Vec<Vec<Int>> {
    let mut out = Vec::new();
    let off = b.off_div();
    for (k, d) in b.divs.iter().enumerate() {
        if let Some(d) = d {
            out.extend(d.bounds(off + k));
        }
    }
    out
}
