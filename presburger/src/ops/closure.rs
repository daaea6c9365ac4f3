//! Transitive closure and powers of a relation: the path approach.
//!
//! For a relation `R` on one space, each disjunct `B` contributes the
//! *steps* `Δ_B = deltas(B)`. A path of `k_B >= 0` steps taken in `Δ_B`
//! moves by a vector of `k_B · Δ_B` when `Δ_B` is a polyhedron: every
//! constraint `a·δ + c >= 0` of `Δ_B` becomes `a·δ + k_B c >= 0`, which is
//! linear in `(δ, k_B)`. Constraints that involve parameters or integer
//! divisions of `Δ_B` cannot be scaled linearly and are dropped (the steps
//! then over-approximate). The candidate closure is
//!
//! `K = { x -> y : x ∈ dom R, y ∈ ran R, ∃ k_B >= 0, Σ k_B >= 1, y - x ∈ Σ k_B Δ_B }`,
//!
//! which always contains `R^+`. For a union of translations (every `Δ_B` a
//! constant vector) it is the lattice of paths over the deltas, checked at
//! both ends.
//!
//! **Exactness** is proved, never assumed: with the path length `k` as an
//! extra parameter, `K_k` (paths of exactly `k` steps) equals `R^k` for
//! all `k >= 1` iff `K_1 ⊆ R` and `K_{k+1} ⊆ R ∘ K_k` (`R` then `K_k`) for
//! `k >= 1` (induction; `K_k ⊇ R^k` holds by construction). This holds for
//! a single translation on a convex domain, and for unions of translations
//! whenever the domain and range constraints at both ends suffice. When the
//! test fails, the closure is looked for as a fixpoint `T ← T ∪ T∘T` from
//! `T = R` (exact when it stabilizes within a few rounds and a fixed share
//! of the operation budget, e.g. for short bounded chains); otherwise `K` is
//! returned with `is_exact = false`.
//!
//! Fixed powers `R^k` are always exact: the path form `K_k` when the test
//! above succeeds, repeated composition otherwise.
//!
//! ```
//! use presburger::Map;
//! let r: Map = "[n] -> { [i] -> [i + 1] : 0 <= i < n }".parse()?;
//! let (c, exact) = r.transitive_closure()?;
//! assert!(exact);
//! let expect: Map = "[n] -> { [i] -> [j] : 0 <= i < j <= n }".parse()?;
//! assert!(c.is_equal(&expect)?);
//! let r3 = r.power(3)?;
//! assert!(r3.is_equal(&"[n] -> { [i] -> [i + 3] : 0 <= i <= n - 3 }".parse()?)?);
//! # Ok::<(), presburger::Error>(())
//! ```

use crate::basic::BasicMap;
use crate::budget;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::Space;
use crate::structural::need_map;
use crate::union::UnionMap;

/// Rounds of `T ← T ∪ T∘T` tried before giving up on a fixpoint
/// (paths up to `2^ROUNDS` steps).
const FIXPOINT_ROUNDS: usize = 6;

/// The most [`budget`] units the fixpoint may spend (half the enclosing
/// budget when that is smaller): the compositions can grow quickly, and
/// the over-approximation is a valid answer when they do.
const FIXPOINT_OPS: u64 = 2_000_000;

/// The scaled constraints of one kind of step: rows `[c | δ_1..δ_n]`
/// read as `c·k + a·δ (= or >=) 0`.
#[derive(Clone, Debug)]
struct Step {
    eqs: Vec<Vec<Int>>,
    ineqs: Vec<Vec<Int>>,
}

/// How many steps a path takes.
#[derive(Clone, Copy, Debug)]
enum Length {
    /// At least one.
    Positive,
    /// Exactly this many.
    Exactly(u64),
    /// `k + shift` steps where `k >= 1` is the last parameter.
    Param(u64),
}

/// True if the relation's domain and range are the same space (tuple names
/// and nesting; dimension names do not matter).
fn is_endo(space: &Space) -> bool {
    match &space.domain {
        Some(d) => d.without_dim_names() == space.range.without_dim_names(),
        None => false,
    }
}

/// The steps of each disjunct of `r` (see the module documentation).
fn steps(r: &Map) -> Result<Vec<Step>> {
    let n = r.space.n_out();
    let np = r.space.n_param();
    let mut out = Vec::new();
    for b in &r.parts {
        let d = Map::from_basic(b.clone()).deltas()?;
        for s in &d.parts {
            let keep = |row: &[Int]| -> Option<Vec<Int>> {
                let params = &row[1..1 + np];
                let locals = &row[1 + np + n..];
                if params.iter().chain(locals).any(|c| !c.is_zero()) {
                    return None;
                }
                let mut v = vec![row[0].clone()];
                v.extend_from_slice(&row[1 + np..1 + np + n]);
                Some(v)
            };
            out.push(Step {
                eqs: s.eqs.iter().filter_map(keep).collect(),
                ineqs: s.ineqs.iter().filter_map(keep).collect(),
            });
        }
    }
    Ok(out)
}

/// The paths over `steps` of the given length, in `space` (an endo-relation
/// space of dimension `n`; with [`Length::Param`] its last parameter is the
/// length), before the domain and range constraints.
fn paths(space: &Space, steps: &[Step], len: Length) -> BasicMap {
    let n = space.n_out();
    let np = space.n_param();
    let mut b = BasicMap::universe(space.clone());
    let (off_x, off_y) = (1 + np, 1 + np + n);
    let mut ks = Vec::new();
    let mut deltas = Vec::new();
    for _ in steps {
        ks.push(b.add_existential());
        deltas.push((0..n).map(|_| b.add_existential()).collect::<Vec<_>>());
    }
    let len_row = b.row_len();
    let zero = || vec![Int::ZERO; len_row];
    for ((step, &k), d) in steps.iter().zip(&ks).zip(&deltas) {
        let mut r = zero();
        r[k] = Int::ONE;
        b.add_ineq(r); // k >= 0
        let scaled = |row: &[Int]| {
            let mut r = zero();
            r[k] = row[0].clone();
            for (j, &col) in d.iter().enumerate() {
                r[col] = row[1 + j].clone();
            }
            r
        };
        for e in &step.eqs {
            b.add_eq(scaled(e));
        }
        for i in &step.ineqs {
            b.add_ineq(scaled(i));
        }
    }
    for j in 0..n {
        // y_j - x_j - Σ δ_j = 0
        let mut r = zero();
        r[off_y + j] = Int::ONE;
        r[off_x + j] = Int::from(-1);
        for d in &deltas {
            r[d[j]] = Int::from(-1);
        }
        b.add_eq(r);
    }
    let mut total = zero();
    for &k in &ks {
        total[k] = Int::ONE;
    }
    match len {
        Length::Positive => {
            total[0] = Int::from(-1);
            b.add_ineq(total);
        }
        Length::Exactly(m) => {
            total[0] = -Int::from(i128::from(m));
            b.add_eq(total);
        }
        Length::Param(shift) => {
            // Σ k = k + shift, k >= 1
            total[0] = -Int::from(i128::from(shift));
            total[np] = Int::from(-1);
            b.add_eq(total);
            let mut r = zero();
            r[np] = Int::ONE;
            r[0] = Int::from(-1);
            b.add_ineq(r);
        }
    }
    b
}

/// `m` coalesced, without its empty disjuncts.
fn tidy(m: Map) -> Result<Map> {
    let (space, all) = m.coalesce()?.into_space_parts();
    let mut parts = Vec::with_capacity(all.len());
    for b in all {
        if !b.is_empty()? {
            parts.push(b);
        }
    }
    Ok(Map::new(space, parts))
}

/// A parameter name not among `params`, for the path length.
fn fresh_param(params: &[String]) -> String {
    let mut name = "k".to_string();
    while params.contains(&name) {
        name.push('\'');
    }
    name
}

/// The candidate `K` (or `K_k`) of an endo-relation, with the domain and
/// range constraints of `r` at both ends.
fn candidate(r: &Map, steps: &[Step], len: Length) -> Result<Map> {
    let mut space = r.space.clone();
    let (mut dom, mut ran) = (r.domain()?, r.range()?);
    if let Length::Param(_) = len {
        let mut params = r.space.params.to_vec();
        params.push(fresh_param(&params));
        space.params = params.clone().into();
        dom.align_params(&params);
        ran.align_params(&params);
    }
    Map::from_basic(paths(&space, steps, len))
        .simplify_parts()
        .intersect_domain(&dom)?
        .intersect_range(&ran)
}

/// The exactness test of the module documentation.
fn paths_are_exact(r: &Map, steps: &[Step]) -> Result<bool> {
    if !candidate(r, steps, Length::Exactly(1))?.is_subset(r)? {
        return Ok(false);
    }
    let k0 = candidate(r, steps, Length::Param(0))?;
    let k1 = candidate(r, steps, Length::Param(1))?;
    let mut rk = r.clone();
    rk.align_params(&k0.space.params);
    k1.is_subset(&rk.apply_range(&k0)?)
}

/// `T ← T ∪ T∘T` from `t` until it stabilizes: `Some(R^+)` when it does
/// within [`FIXPOINT_ROUNDS`] rounds and [`FIXPOINT_OPS`].
fn fixpoint(t: &UnionMap) -> Result<Option<UnionMap>> {
    let share = budget::remaining().map_or(FIXPOINT_OPS, |r| (r / 2).min(FIXPOINT_OPS));
    let _guard = budget::enter(share);
    let mut t = t.clone();
    for _ in 0..FIXPOINT_ROUNDS {
        let next = match t.apply_range(&t).and_then(|tt| t.union(&tt)) {
            Ok(n) => n,
            Err(Error::BudgetExceeded) => return Ok(None),
            Err(e) => return Err(e),
        };
        match next.is_subset(&t) {
            Ok(true) => return Ok(Some(t)),
            Ok(false) => {}
            Err(Error::BudgetExceeded) => return Ok(None),
            Err(e) => return Err(e),
        }
        t = match next.coalesce() {
            Ok(c) => c,
            Err(Error::BudgetExceeded) => return Ok(None),
            Err(e) => return Err(e),
        };
    }
    Ok(None)
}

impl Map {
    /// The transitive closure `R^+ = ∪_{k >= 1} R^k` and whether it is exact
    /// (otherwise it is a superset of `R^+`). See the [module
    /// documentation](self) for the method and when the answer is exact. A
    /// relation between two different spaces is its own closure.
    pub fn transitive_closure(&self) -> Result<(Map, bool)> {
        need_map(self, "transitive closure")?;
        if !is_endo(&self.space) || self.parts.is_empty() {
            return Ok((self.clone(), true));
        }
        let st = steps(self)?;
        if paths_are_exact(self, &st)? {
            let c = tidy(candidate(self, &st, Length::Positive)?)?;
            return Ok((c, true));
        }
        if let Some(t) = fixpoint(&UnionMap::from_map(self.clone()))? {
            let m = t
                .to_map()?
                .unwrap_or_else(|| Map::empty(self.space.clone()));
            return Ok((m, true));
        }
        Ok((tidy(candidate(self, &st, Length::Positive)?)?, false))
    }

    /// The power `R^k` (`k >= 1`: `k` steps of `R`), exact.
    pub fn power(&self, k: u64) -> Result<Map> {
        need_map(self, "power")?;
        if k == 0 {
            return Err(Error::Invalid(
                "power: the exponent must be at least 1".into(),
            ));
        }
        if k == 1 {
            return Ok(self.clone());
        }
        if !is_endo(&self.space) || self.parts.is_empty() {
            return Ok(Map::empty(self.space.clone()));
        }
        let st = steps(self)?;
        if paths_are_exact(self, &st)? {
            return tidy(candidate(self, &st, Length::Exactly(k))?);
        }
        power_by_squaring(self, k, |a, b| tidy(a.apply_range(b)?))
    }
}

/// `r^k` by repeated squaring with the composition `compose(a, b)` (`a` then `b`).
fn power_by_squaring<T: Clone>(
    r: &T,
    mut k: u64,
    compose: impl Fn(&T, &T) -> Result<T>,
) -> Result<T> {
    let mut base = r.clone();
    let mut acc: Option<T> = None;
    loop {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => compose(&a, &base)?,
            });
        }
        k >>= 1;
        if k == 0 {
            return Ok(acc.expect("k >= 1"));
        }
        base = compose(&base, &base)?;
    }
}

impl UnionMap {
    /// The transitive closure of a union of relations and whether it is
    /// exact. Each relation on one space is closed by
    /// [`Map::transitive_closure`]; relations between different spaces are
    /// then chained by the fixpoint `T ← T ∪ T∘T`. When that does not
    /// stabilize (a cycle through several spaces), the answer is the
    /// over-approximation `domain × range`, not exact.
    pub fn transitive_closure(&self) -> Result<(UnionMap, bool)> {
        if self.is_set() && !self.maps().is_empty() {
            return Err(Error::SpaceMismatch(
                "transitive closure needs a relation, got a set".into(),
            ));
        }
        let mut t = UnionMap::empty(self.params().to_vec());
        let mut exact = true;
        let mut cross = false;
        for m in self.maps() {
            if is_endo(&m.space) {
                let (c, e) = m.transitive_closure()?;
                exact &= e;
                t.add_map(c)?;
            } else {
                cross = true;
                t.add_map(m.clone())?;
            }
        }
        if !cross {
            return Ok((t, exact));
        }
        match fixpoint(&t)? {
            Some(f) => Ok((f, exact)),
            // a cycle through several spaces whose fixpoint is out of reach:
            // every path starts in the domain and ends in the range
            None => Ok((self.domain()?.product_sets(&self.range()?)?, false)),
        }
    }

    /// The power `R^k` (`k >= 1`) of a union of relations, exact.
    pub fn power(&self, k: u64) -> Result<UnionMap> {
        if k == 0 {
            return Err(Error::Invalid(
                "power: the exponent must be at least 1".into(),
            ));
        }
        if self.maps().iter().all(|m| is_endo(&m.space)) {
            let mut out = UnionMap::empty(self.params().to_vec());
            for m in self.maps() {
                out.add_map(m.power(k)?)?;
            }
            return Ok(out);
        }
        power_by_squaring(self, k, |a, b| a.apply_range(b)?.coalesce())
    }
}
