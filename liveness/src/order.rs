//! Happens-before orders on statement instances.
//!
//! An [`Order`] is a strict partial order `≺` on the instances of a program
//! (a [`UnionMap`] `{ S[i] -> T[j] : S[i] ≺ T[j] }`) together with its
//! *incomparable* pairs `{ a -> b : a ≠ b, neither a ≺ b nor b ≺ a }`. The
//! triangle test only ever asks "not (a ≺ b)", which is
//! `b ≺ a or a = b or a ∥ b`: keeping the incomparable pairs explicit avoids a
//! complement in the instance space.
//!
//! - [`Order::sequential`]: the lexicographic order of the model's schedule
//!   (the C order); nothing is incomparable.
//! - [`Order::parallel`]: the same, except that two instances of statements
//!   sharing a `#pragma omp parallel for` loop at schedule dimension `d`,
//!   agreeing on dimensions `0..d` and differing at `d`, are incomparable.
//! - [`Order::from_relation`]: any strict partial order given as a relation
//!   on a domain; the incomparable pairs are computed by difference.

use presburger::{Builder, Map, Space, Tuple, UnionMap, UnionSet};

use crate::error::{Error, Result};

/// A strict partial order on statement instances. See the
/// [crate documentation](crate).
#[derive(Debug, Clone)]
pub struct Order {
    domain: UnionSet,
    before: UnionMap,
    incomparable: UnionMap,
}

/// `{ [t] -> [t'] : t_j = t'_j (j < k), t_k < t'_k }` (`less`) or with
/// `t_k != t'_k` (`!less`), on anonymous time vectors of dimension `n`.
fn level_map(params: &[String], n: usize, k: usize, less: bool) -> Result<Map> {
    let space = Space::map(params.to_vec(), Tuple::anonymous(n), Tuple::anonymous(n));
    let b = Builder::new(&space);
    let mut eqs = Vec::new();
    for j in 0..k {
        eqs.push(b.eq(&b.in_dim(j)?, &b.out_dim(j)?)?);
    }
    let (x, y) = (b.in_dim(k)?, b.out_dim(k)?);
    let mut lt = eqs.clone();
    lt.push(b.lt(&x, &y)?);
    let m = b.map(lt)?;
    if less {
        return Ok(m);
    }
    let mut gt = eqs;
    gt.push(b.gt(&x, &y)?);
    Ok(m.union(&b.map(gt)?)?)
}

impl Order {
    /// The sequential C order of `model` (its original schedule).
    pub fn sequential(model: &scop::Model) -> Result<Order> {
        Order::from_schedule(model, false)
    }

    /// The order of `model` under its `#pragma omp parallel for` loops
    /// ([`scop::program::Statement::parallel`]).
    pub fn parallel(model: &scop::Model) -> Result<Order> {
        Order::from_schedule(model, true)
    }

    fn from_schedule(model: &scop::Model, parallel: bool) -> Result<Order> {
        let params = model.params().to_vec();
        let stmts = model.statements();
        let mut scheds = Vec::new();
        let mut depth = None;
        for s in stmts {
            let m = s.schedule.intersect_domain(&s.domain)?;
            let n = m.space().n_out();
            if depth.is_some_and(|d| d != n) {
                return Err(Error::Unsupported(
                    "statements with schedules of different dimensions".into(),
                ));
            }
            depth = Some(n);
            scheds.push(UnionMap::from_map(m));
        }
        let n = depth.unwrap_or(0);
        let empty = || UnionMap::empty(params.clone());
        let union_of = |keep: &dyn Fn(usize) -> bool| -> Result<UnionMap> {
            let mut u = empty();
            for (k, s) in scheds.iter().enumerate() {
                if keep(k) {
                    u = u.union(s)?;
                }
            }
            Ok(u)
        };
        let all = union_of(&|_| true)?;
        let all_rev = all.reverse()?;
        let mut before = empty();
        let mut incomparable = empty();
        for k in 0..n {
            let is_par = |i: usize| parallel && stmts[i].parallel.contains(&k);
            let lt = UnionMap::from_map(level_map(&params, n, k, true)?);
            let par = union_of(&|i| is_par(i))?;
            if par.maps().is_empty() {
                before = before.union(&all.apply_range(&lt)?.apply_range(&all_rev)?)?;
                continue;
            }
            let rest = union_of(&|i| !is_par(i))?;
            before = before.union(&rest.apply_range(&lt)?.apply_range(&all_rev)?)?;
            before = before.union(&par.apply_range(&lt)?.apply_range(&rest.reverse()?)?)?;
            let ne = UnionMap::from_map(level_map(&params, n, k, false)?);
            incomparable =
                incomparable.union(&par.apply_range(&ne)?.apply_range(&par.reverse()?)?)?;
        }
        Ok(Order {
            domain: model.domain().clone(),
            before: before.coalesce()?,
            incomparable: incomparable.coalesce()?,
        })
    }

    /// A strict partial order `before` on the instances of `domain`: it must
    /// be irreflexive and transitive (checked: `before ∘ before ⊆ before`;
    /// give the transitive closure of a covering relation), else an `Err`.
    pub fn from_relation(domain: &UnionSet, before: &UnionMap) -> Result<Order> {
        let before = before.intersect_domain(domain)?.intersect_range(domain)?;
        if !before.intersect(&domain.identity()?)?.is_empty()? {
            return Err(Error::Usage(
                "a happens-before relation must be irreflexive".into(),
            ));
        }
        if !before.apply_range(&before)?.is_subset(&before)? {
            return Err(Error::Usage(
                "a happens-before relation must be transitive (give its transitive closure)".into(),
            ));
        }
        let all = domain.product_sets(domain)?;
        let incomparable = all
            .subtract(&before)?
            .subtract(&before.reverse()?)?
            .subtract(&domain.identity()?)?;
        Ok(Order {
            domain: domain.clone(),
            before,
            incomparable: incomparable.coalesce()?,
        })
    }

    /// The instances ordered.
    pub fn domain(&self) -> &UnionSet {
        &self.domain
    }

    /// `{ a -> b : a ≺ b }`.
    pub fn before(&self) -> &UnionMap {
        &self.before
    }

    /// `{ a -> b : a ≠ b, neither a ≺ b nor b ≺ a }` (symmetric).
    pub fn incomparable(&self) -> &UnionMap {
        &self.incomparable
    }

    /// `{ a -> b : not (a ≺ b) }` over the domain: `b ≺ a`, `a = b` or `a ∥ b`.
    pub fn not_before(&self) -> Result<UnionMap> {
        Ok(self
            .not_before_nor_equal()?
            .union(&self.domain.identity()?)?)
    }

    /// `{ a -> b : not (a ≺ b) and a ≠ b }`: `b ≺ a` or `a ∥ b`.
    pub fn not_before_nor_equal(&self) -> Result<UnionMap> {
        Ok(self.before.reverse()?.union(&self.incomparable)?)
    }
}
