//! # `assumptions`: optimistic assumptions and the run-time check
//!
//! Real loop code is often static-control only under conditions on its
//! parameters. Following Doerfert, Grosser & Hack ("Optimistic loop
//! optimization", CGO'17), the front end models such code anyway and
//! records, where each condition arises, an obligation with its sign
//! ([`scop::assume`]): in-bounds subscripts of the inner dimensions after
//! delinearization are *assumptions* (must hold); `int`/`unsigned`
//! wrapping of executed expressions, truncating division of negative
//! values, `!=` loops that step over their bound and error paths are
//! *restrictions* (must not hold). This crate turns them into
//!
//! - the **context**: the values the parameters' C types allow;
//! - the **assumed** context: the conjunction of the assumptions, kept
//!   apart from the
//! - **invalid** context: the union of the restrictions (never complemented:
//!   complementing a union of projections with existentials is expensive
//!   and unreadable);
//! - the **run-time check**: a C expression over the parameters (and the
//!   base addresses of arrays that may alias) that is true exactly on
//!   `assumed ∧ ¬invalid ∧ no-alias`, evaluated in `__int128` with a proven
//!   bound on every intermediate value ([`cexpr`]).
//!
//! ## Pipeline
//!
//! 1. Each obligation "wherever `Dom` executes, `S` holds" becomes the
//!    violation set `params(Dom ∖ S)` (the front end lowers it); an
//!    assumption removes it from the assumed context, a restriction adds
//!    it to the invalid one. Violation sets that are empty within the
//!    context are dropped (trivial).
//! 2. Both contexts are intersected with the type context. The assumed
//!    context is then simplified (gist) under the parameters for which some
//!    statement runs and no restriction holds: where nothing runs, nothing
//!    the model says matters, and where a restriction holds the check is
//!    false anyway. (Only assumptions are simplified with the statement
//!    domains: a restriction may describe parameters for which the model's
//!    domains are wrong, e.g. a `!=` loop that never stops.) The invalid
//!    context is simplified under the type context. Both are coalesced.
//! 3. Caps: more than [`Limits::max_disjuncts`] disjuncts or
//!    [`Limits::max_params`] parameters drop the model with
//!    [`Error::TooComplex`]. A model whose assumptions can never hold
//!    where it runs is reported as infeasible ([`Assumptions::feasible`]).
//! 4. Alias checks ([`alias`]): for every pair of non-`restrict` array
//!    parameters, one of them written, the accessed ranges from the
//!    parametric lexmin and lexmax of the accessed cells must not overlap
//!    (one affine point each where the cells are a union of boxes that
//!    decides them by constants, [`extremes`], or where a point guessed
//!    from the bounds is verified, [`guessed`]; the cells' extremes are
//!    computed once per array).
//! 5. Non-affine values ([`bounds`]): an `int` value such as the
//!    linearized subscript `i * m + j` cannot wrap where its bounds,
//!    computed from the iterators' parametric ranges, stay in the type; a
//!    run-time condition beside the two contexts (it is not a Presburger
//!    set).
//!
//! The check is one value ([`term`]): printed, the C expression of `poly
//! assumptions`; evaluated in 64-bit arithmetic where an overflow fails
//! safe, what `poly run` decides with ([`choose`]).
//!
//! ```
//! let scop = scop::build_scop(
//!     "void k(long n, long m, long s, double A[][10]) {
//!        for (long i = 0; i < n; i++)
//!          for (long j = 0; j < m; j++)
//!            A[i][j + s] = 0; }").unwrap();
//! let a = assumptions::analyze(&scop, &assumptions::Limits::default()).unwrap();
//! let want: presburger::Set = "[n, m, s] -> { : s >= 0 and m + s <= 10 }".parse().unwrap();
//! let ctx = a.context.intersect(&"[n, m, s] -> { : n > 0 and m > 0 }".parse().unwrap()).unwrap();
//! assert!(a.assumed.intersect(&ctx).unwrap().is_equal(&want.intersect(&ctx).unwrap()).unwrap());
//! assert!(a.invalid.is_empty().unwrap());
//! assert!(a.check.contains("(__int128)s"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod alias;
pub mod bounds;
pub mod cells;
pub mod cexpr;
mod error;
pub mod extremes;
pub mod guessed;
pub mod reference;
pub mod term;

use presburger::Set;
use scop::assume::{Kind, Sign};
use scop::Scop;
use std::collections::BTreeMap;

pub use alias::AliasPair;
pub use bounds::RangeCheck;
pub use error::{Error, Result};
pub use term::{Cond, Term, Values};

/// Caps on the size of what is checked at run time.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Most disjuncts of the assumed or the invalid context.
    pub max_disjuncts: usize,
    /// Most parameters the check may mention.
    pub max_params: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_disjuncts: 16,
            max_params: 24,
        }
    }
}

/// One recorded obligation that is not trivial, for remarks.
#[derive(Debug, Clone)]
pub struct Remark {
    /// Its kind (the sign is `kind.sign()`).
    pub kind: Kind,
    /// Where it arises.
    pub pos: scop::Pos,
    /// What it is about.
    pub what: String,
    /// For an assumption the parameters where it holds (gisted like the
    /// assumed context), for a restriction where it is violated (gisted
    /// with the type context).
    pub set: Set,
}

impl std::fmt::Display for Remark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = match self.kind.sign() {
            Sign::Assumption => "assumption",
            Sign::Restriction => "restriction",
        };
        write!(
            f,
            "{}:{}: {} {sign}: {} ({})",
            self.pos.line, self.pos.col, self.kind, self.set, self.what
        )
    }
}

/// The assumptions of a kernel's model and its run-time check.
#[derive(Debug, Clone)]
pub struct Assumptions {
    /// What the parameters' C types allow.
    pub context: Set,
    /// The conjunction of the assumptions (simplified).
    pub assumed: Set,
    /// The union of the restrictions (simplified).
    pub invalid: Set,
    /// Per kind: the assumed set of an assumption kind, the invalid set of
    /// a restriction kind.
    pub kinds: BTreeMap<Kind, Set>,
    /// One remark per non-trivial obligation, in source order.
    pub remarks: Vec<Remark>,
    /// The alias checks.
    pub alias: Vec<AliasPair>,
    /// The run-time conditions of non-affine values (in the check, not in
    /// the assumed or invalid context).
    pub ranges: Vec<RangeCheck>,
    /// False when the assumptions never hold where the kernel runs.
    pub feasible: bool,
    /// The run-time check, a C expression (`runtime` printed).
    pub check: String,
    /// The run-time check as a value: `poly run` evaluates it
    /// ([`Assumptions::holds_at`]).
    pub runtime: Cond,
}

/// Computes the assumed and invalid contexts and the run-time check of a
/// kernel's model.
pub fn analyze(scop: &Scop, limits: &Limits) -> Result<Assumptions> {
    if let Some((pos, reason)) = scop.optimistic.unmodelled.first() {
        return Err(Error::Unmodelled {
            pos: *pos,
            reason: reason.clone(),
        });
    }
    if scop.params.len() > limits.max_params {
        return Err(Error::TooComplex {
            what: "the number of parameters".into(),
            size: scop.params.len(),
            cap: limits.max_params,
        });
    }
    let (combined, runs) = scop::assume::combine_and_runs(scop)?;
    let context = combined.context.clone();
    let universe = Set::universe(context.space().clone());
    let mut kinds: BTreeMap<Kind, Set> = BTreeMap::new();
    let mut remarks = Vec::new();
    for (k, v) in &combined.effective {
        let o = &scop.optimistic.obligations[*k];
        let set = match o.kind.sign() {
            Sign::Assumption => universe.subtract(v)?,
            Sign::Restriction => v.clone(),
        };
        let e = kinds.entry(o.kind).or_insert_with(|| match o.kind.sign() {
            Sign::Assumption => universe.clone(),
            Sign::Restriction => Set::empty(context.space().clone()),
        });
        *e = match o.kind.sign() {
            Sign::Assumption => e.intersect(&set)?,
            Sign::Restriction => e.union(&set)?,
        };
        remarks.push(Remark {
            kind: o.kind,
            pos: o.pos,
            what: o.what.clone(),
            set,
        });
    }
    let (assumed, invalid) = (combined.assumed, combined.invalid);
    let runs = runs.intersect(&context)?;
    let invalid = invalid.intersect(&context)?.coalesce()?;
    let (feasible, assumption_context) = if kinds.keys().any(|k| k.sign() == Sign::Assumption) {
        let valid_runs = runs.subtract(&invalid)?;
        let feasible = runs.is_empty()? || !valid_runs.intersect(&assumed)?.is_empty()?;
        // assumptions matter only where the model runs and no restriction holds
        let assumption_context = if valid_runs.is_empty()? {
            context.clone()
        } else {
            valid_runs.coalesce()?
        };
        (feasible, assumption_context)
    } else {
        // Without an effective assumption the assumed context is the
        // universe (nothing was subtracted from it), whose gist is the
        // universe under any context, and nothing else is gisted with the
        // assumption context: the runs outside the invalid context are
        // not needed, only whether there are some (an inclusion test is
        // cheaper than the difference).
        let feasible = runs.is_empty()? || !runs.is_subset(&invalid)?;
        (feasible, context.clone())
    };
    let assumed = assumed.gist(&assumption_context)?.coalesce()?;
    // (obligations that repeat share their violation set: each is gisted
    // once per sign)
    let mut gisted: Vec<(Sign, Set, Set)> = Vec::new();
    for r in &mut remarks {
        let sign = r.kind.sign();
        if let Some((_, _, g)) = gisted
            .iter()
            .find(|(s, m, _)| *s == sign && m.plain_is_equal(&r.set))
        {
            r.set = g.clone();
            continue;
        }
        let within = match sign {
            Sign::Assumption => &assumption_context,
            Sign::Restriction => &context,
        };
        let g = r.set.gist(within)?.coalesce()?;
        gisted.push((sign, std::mem::replace(&mut r.set, g.clone()), g));
    }
    let invalid = invalid.gist(&context)?.coalesce()?;
    for (s, what) in [
        (&assumed, "the assumed context's disjuncts"),
        (&invalid, "the invalid context's disjuncts"),
    ] {
        if s.basic_maps().len() > limits.max_disjuncts {
            return Err(Error::TooComplex {
                what: what.into(),
                size: s.basic_maps().len(),
                cap: limits.max_disjuncts,
            });
        }
    }
    for (k, s) in kinds.iter_mut() {
        let within = match k.sign() {
            Sign::Assumption => &assumption_context,
            Sign::Restriction => &context,
        };
        *s = s.gist(within)?.coalesce()?;
    }
    let params = cexpr::Params {
        types: scop.optimistic.param_types.clone(),
    };
    let alias = alias::alias_pairs(scop, &params)?;
    let ranges = bounds::range_checks(scop, &params)?;
    let runtime = match (
        cexpr::set_condition(&assumed, &params)?,
        cexpr::set_condition(&invalid, &params)?,
        &alias,
        &ranges,
    ) {
        (Some(a), Some(i), Some(pairs), Some(ranges)) if feasible => {
            let mut parts = vec![a, Cond::not(i)];
            parts.extend(ranges.iter().map(|r| r.check.clone()));
            parts.extend(pairs.iter().map(|p| p.check.clone()));
            Cond::and(parts)
        }
        // a literal beyond 64 bits, or assumptions that never hold
        _ => Cond::Const(false),
    };
    Ok(Assumptions {
        context,
        assumed,
        invalid,
        kinds,
        remarks,
        alias: alias.unwrap_or_default(),
        ranges: ranges.unwrap_or_default(),
        feasible,
        check: runtime.to_string(),
        runtime,
    })
}

impl Assumptions {
    /// Whether the run-time check holds at these parameter values and base
    /// addresses: false when it does not, and when its 64-bit evaluation
    /// overflows or misses a value (fail safe).
    pub fn holds_at(&self, values: &Values) -> bool {
        self.runtime.holds(values)
    }
}

/// Which code computes what the original program does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// The run-time check holds: the model is exact at these values and
    /// code derived from it (optimized, compiled) may run.
    Optimized,
    /// The original program must run; the reason, for a note.
    Original(String),
}

/// Versioning: analyzes the kernel's assumptions and evaluates the
/// run-time check at `values` (64-bit signed arithmetic, overflow fails
/// safe). A model whose assumptions cannot be computed (not expressible,
/// over a cap) or never hold chooses the original program too.
///
/// ```
/// use assumptions::{choose, Choice, Limits, Values};
/// let scop = scop::build_scop(
///     "void k(int n, int s, double *restrict A) {
///        for (int i = 0; i < n; i++) A[i + s] = 1.0; }").unwrap();
/// let at = |n: i64, s: i64| Values { params: [("n".into(), n), ("s".into(), s)].into(), ..Default::default() };
/// assert_eq!(choose(&scop, &Limits::default(), &at(10, 5)), Choice::Optimized);
/// // i + s wraps in int
/// assert!(matches!(choose(&scop, &Limits::default(), &at(10, i32::MAX as i64)), Choice::Original(_)));
/// ```
pub fn choose(scop: &Scop, limits: &Limits, values: &Values) -> Choice {
    match analyze(scop, limits) {
        Ok(a) => decide(&a, values),
        Err(e) => Choice::Original(format!("no run-time check ({e})")),
    }
}

/// [`choose`] with the analysis made already ([`analyze`]'s answer, which
/// does not depend on `values`).
pub fn decide(a: &Assumptions, values: &Values) -> Choice {
    if !a.feasible {
        return Choice::Original("the model's assumptions never hold".into());
    }
    match a.runtime.eval(values) {
        Some(true) => Choice::Optimized,
        Some(false) => Choice::Original("run-time check failed".into()),
        None => Choice::Original(
            "run-time check overflows 64-bit arithmetic or misses a value (fail safe)".into(),
        ),
    }
}
