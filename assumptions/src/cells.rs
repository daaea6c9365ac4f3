//! The cells of an array parameter that the kernel accesses, for the alias
//! checks: the image of each access's statement domain under its
//! subscripts.
//!
//! Accesses with the same iterators and subscripts in several statements
//! (`A[i][j]` in the two branches of an `if`) have one image: that of the
//! union of their domains. When the domains share conjuncts `C` (the loop
//! bounds) and differ by conditions that together cover `C` (a test and its
//! negation), the union is `C` itself, decided exactly by one emptiness
//! test (`C ∧ ¬R₁ ∧ ... ∧ ¬Rₙ = ∅`); the image of `C` has fewer disjuncts
//! than the union of the branches' images, and its parametric lexmin and
//! lexmax are much cheaper (the lexicographic optimum of a union compares
//! every pair of its disjuncts' pieces). Otherwise each domain's image is
//! taken apart; so it is, without the test, when the domains differ by a
//! loop's bounds (statements of different loops, as in fdtd-2d, where the
//! test would cost more than it saves). The set is the same either way:
//! [`scop::assume::accessed_cells`], one image per statement, is the
//! reference. An image is the domain's points under the subscripts (as a
//! map) where they have no division; else the points of the domain and
//! the subscripts' equalities together, the iterators projected out.

use std::sync::Arc;

use presburger::{Aff, Int, Map, MultiAff, Set, Space, Tuple};
use scop::affine::{AVar, Affine, Formula};
use scop::model::AccessKind;
use scop::Scop;

use crate::error::Result;

/// Accesses with the same iterators and subscripts, and their statements'
/// domains (each once).
struct Group<'a> {
    iterators: &'a [String],
    index: &'a [Affine],
    domains: Vec<&'a Formula>,
}

/// Most conjuncts the differing parts of a group's domains may have in all
/// (the emptiness test negates them: a disjunction per part).
const MAX_DIFFERING: usize = 12;

/// The cells of `array` that some statement accesses, as a set of index
/// tuples `[params] -> { [i0, ..., ik] }`, and whether one of them is
/// written (the same set as [`scop::assume::accessed_cells`]).
pub fn accessed_cells(scop: &Scop, array: &str) -> Result<Option<(Set, bool)>> {
    accessed_cells_with(scop, array, &mut Shared::default())
}

/// What the cells of several arrays of one kernel share: the points of a
/// domain (over its iterators), and whether a group's domains cover their
/// common part (the same loops hold accesses to several arrays).
#[derive(Default)]
pub struct Shared {
    points: Vec<(Vec<String>, Formula, Set)>,
    common: Vec<(Vec<String>, Vec<Formula>, Option<Formula>)>,
}

impl Shared {
    /// [`scop::assume::points`] of `domain`, once per iterators and domain.
    fn points(&mut self, scop: &Scop, iterators: &[String], domain: &Formula) -> Result<Set> {
        if let Some((_, _, p)) = self
            .points
            .iter()
            .find(|(v, d, _)| v == iterators && d == domain)
        {
            return Ok(p.clone());
        }
        let p = scop::assume::points(scop, iterators, domain)?;
        self.points
            .push((iterators.to_vec(), domain.clone(), p.clone()));
        Ok(p)
    }
}

/// [`accessed_cells`] with what earlier arrays computed (`shared`).
pub fn accessed_cells_with(
    scop: &Scop,
    array: &str,
    shared: &mut Shared,
) -> Result<Option<(Set, bool)>> {
    let mut groups: Vec<Group> = Vec::new();
    let mut written = false;
    for s in &scop.statements {
        for a in s.accesses.iter().filter(|a| a.array == array) {
            written |= a.kind != AccessKind::Read;
            let same = |g: &&mut Group| {
                g.iterators == s.iterators.as_slice() && g.index == a.index.as_slice()
            };
            match groups.iter_mut().find(same) {
                Some(g) if g.domains.contains(&&s.domain) => {}
                Some(g) => g.domains.push(&s.domain),
                None => groups.push(Group {
                    iterators: &s.iterators,
                    index: &a.index,
                    domains: vec![&s.domain],
                }),
            }
        }
    }
    let mut out: Option<Set> = None;
    for g in &groups {
        let key: Vec<Formula> = g.domains.iter().map(|d| (*d).clone()).collect();
        let common = match shared
            .common
            .iter()
            .find(|(v, ds, _)| v == g.iterators && *ds == key)
        {
            Some((_, _, c)) => c.clone(),
            None => {
                let c = covered_common_part(scop, g)?;
                shared
                    .common
                    .push((g.iterators.to_vec(), key.clone(), c.clone()));
                c
            }
        };
        let domains = match common {
            Some(c) => vec![c],
            None => key,
        };
        for d in domains {
            let img = image(scop, g.iterators, g.index, d, shared)?;
            out = Some(match out {
                None => img,
                Some(o) => o.union(&img)?,
            });
        }
    }
    Ok(out.map(|o| (o, written)))
}

fn conjuncts(f: &Formula) -> Vec<&Formula> {
    match f {
        Formula::And(fs) => fs.iter().collect(),
        f => vec![f],
    }
}

/// The conjuncts `C` common to all the group's domains, when the domains'
/// union is `C` (no point of `C` lies outside every domain).
fn covered_common_part(scop: &Scop, g: &Group) -> Result<Option<Formula>> {
    let Some((first, others)) = g.domains.split_first() else {
        return Ok(None);
    };
    if others.is_empty() {
        return Ok(None);
    }
    let split: Vec<Vec<&Formula>> = others.iter().map(|d| conjuncts(d)).collect();
    let common: Vec<&Formula> = conjuncts(first)
        .into_iter()
        .filter(|c| split.iter().all(|s| s.contains(c)))
        .collect();
    if common.is_empty() {
        return Ok(None);
    }
    let rests: Vec<Vec<&Formula>> = g
        .domains
        .iter()
        .map(|d| {
            conjuncts(d)
                .into_iter()
                .filter(|c| !common.contains(c))
                .collect()
        })
        .collect();
    // (domains that differ by a loop's bounds are statements of different
    // loops, rarely covering their common part: the test is not worth it;
    // the branches of an `if` share their loops)
    let loop_bound = |c: &&Formula| matches!(c, Formula::Range { .. });
    if rests.iter().map(Vec::len).sum::<usize>() > MAX_DIFFERING
        || rests.iter().flatten().any(loop_bound)
    {
        return Ok(None);
    }
    let common = Formula::and(common.into_iter().cloned().collect());
    let mut outside = vec![common.clone()];
    outside.extend(
        rests
            .into_iter()
            .map(|r| Formula::and(r.into_iter().cloned().collect()).negate()),
    );
    let uncovered = scop::assume::points(scop, g.iterators, &Formula::and(outside))?;
    Ok(if uncovered.is_empty()? {
        Some(common)
    } else {
        None
    })
}

/// `[params] -> { [cells] : exists iterators in domain with cells = index }`.
fn image(
    scop: &Scop,
    iterators: &[String],
    index: &[Affine],
    domain: Formula,
    shared: &mut Shared,
) -> Result<Set> {
    let cells: Vec<String> = (0..index.len()).map(|d| format!("__cell{d}")).collect();
    if let Some(access) = access_map(scop, iterators, index, &cells)? {
        // the domain's points under the subscripts (cheaper than the
        // points of the domain and the subscripts' equalities together,
        // then projected)
        let points = shared.points(scop, iterators, &domain)?;
        return Ok(points.apply(&access)?);
    }
    let mut vars = iterators.to_vec();
    vars.extend(cells.iter().cloned());
    let mut parts = vec![domain];
    for (c, e) in cells.iter().zip(index) {
        parts.push(Formula::Eq(Affine::var(c).sub(e)));
    }
    let points = scop::assume::points(scop, &vars, &Formula::and(parts))?;
    Ok(points.project_out(0, iterators.len())?)
}

/// `[params] -> { [iterators] -> [cells] : cells = index }` when the
/// subscripts are affine in the iterators and parameters (no division).
fn access_map(
    scop: &Scop,
    iterators: &[String],
    index: &[Affine],
    cells: &[String],
) -> Result<Option<Map>> {
    let params: Arc<[String]> = scop.params.clone().into();
    let (np, ni) = (scop.params.len(), iterators.len());
    let dom = Arc::new(Tuple::flat(None, iterators.to_vec()));
    let dspace = Space::set(params.clone(), dom.clone());
    let mut affs = Vec::with_capacity(index.len());
    for e in index {
        let mut row = vec![Int::ZERO; 1 + np + ni];
        row[0] = Int::from(e.constant);
        for (v, c) in &e.terms {
            let AVar::Name(n) = v else {
                return Ok(None);
            };
            // (an iterator shadows a parameter of the same name, as in
            // the columns of `scop::assume::points`)
            let col = match iterators.iter().rposition(|x| x == n) {
                Some(k) => 1 + np + k,
                None => match scop.params.iter().position(|p| p == n) {
                    Some(k) => 1 + k,
                    None => return Ok(None),
                },
            };
            row[col] = &row[col] + &Int::from(*c);
        }
        affs.push(Aff::from_row(&dspace, row, Int::ONE)?);
    }
    let space = Space::map(params, dom, Arc::new(Tuple::flat(None, cells.to_vec())));
    Ok(Some(MultiAff::new(space, affs)?.to_map()))
}
