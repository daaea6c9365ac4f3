//! Optimistic assumptions recorded while the model is built.
//!
//! The front end accepts code that is static-control only under conditions
//! on the parameters (Doerfert, Grosser & Hack, "Optimistic loop
//! optimization", CGO'17): subscripts that stay inside the declared inner
//! extents, 32-bit `int` arithmetic that does not wrap, `!=` loops that reach
//! their bound, error paths that do not run. [`crate::build_scop`] records one
//! [`Obligation`] per such condition where it arises, with its
//! [`Sign`]: an *assumption* must hold for the model to be exact, a
//! *restriction* is a set of parameter values that must not occur.
//!
//! An obligation says "wherever the program point `domain` executes, `holds`
//! is true"; its violation set is the parameter projection
//! `params(domain ∖ holds)` ([`violation_set`]). An assumption's assumed
//! context is the complement of its violation set, a restriction's invalid
//! context is the violation set itself. Combining, simplifying and printing
//! them as a run-time check is the `assumptions` crate's job; this module
//! turns the recorded formulas into engine values (the lowering lives in
//! this crate).
//!
//! ```
//! let scop = scop::build_scop(
//!     "void k(long n, long s, double A[][10]) {
//!        for (long i = 0; i < n; i++) A[i][s] = 0; }").unwrap();
//! let o = &scop.optimistic.obligations[0];
//! assert_eq!(o.kind, scop::assume::Kind::Inbounds);
//! let v = scop::assume::violation_set(&scop, o).unwrap();
//! let want: presburger::Set = "[n, s] -> { : n >= 1 and (s < 0 or s >= 10) }".parse().unwrap();
//! assert!(v.is_equal(&want).unwrap());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use presburger::{Int, Set, Space, Tuple};

use crate::affine::{AVar, Affine, Formula};
use crate::ast::IntTy;
use crate::error::{Error, Pos};
use crate::lower::{formula_to_map, Columns};
use crate::model::Scop;

/// Whether a condition must hold or must not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sign {
    /// The model is exact only where the condition holds.
    Assumption,
    /// The model is exact only where the violation set does not hold.
    Restriction,
}

/// What an obligation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A subscript stays within an inner extent (after delinearization).
    Inbounds,
    /// An `int`/`unsigned` value of executed code is representable (no
    /// wrapping), including conversions between signed and unsigned.
    Wrapping,
    /// C's truncating `/` and `%` agree with the model's floor semantics
    /// (the dividend is non-negative).
    Division,
    /// A `!=` loop reaches its bound (no infinite or wrapping loop).
    Termination,
    /// An error path (a call of an unknown function) does not run.
    ErrorPath,
}

impl Kind {
    /// The sign of obligations of this kind.
    pub fn sign(self) -> Sign {
        match self {
            Kind::Inbounds => Sign::Assumption,
            _ => Sign::Restriction,
        }
    }
    /// Name in remarks and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Inbounds => "Inbounds",
            Kind::Wrapping => "Wrapping",
            Kind::Division => "Division",
            Kind::Termination => "Termination",
            Kind::ErrorPath => "ErrorPath",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One recorded condition: wherever `domain` (over `vars` and the
/// parameters) executes, `holds` must be true.
#[derive(Debug, Clone, PartialEq)]
pub struct Obligation {
    /// What it is about (its sign is `kind.sign()`).
    pub kind: Kind,
    /// Where in the source it arises.
    pub pos: Pos,
    /// The variables of `domain` and `holds` other than parameters.
    pub vars: Vec<String>,
    /// Where the program point executes.
    pub domain: Formula,
    /// What must be true there.
    pub holds: Formula,
    /// A short description (`A[i][j + s]`, `i + 1`, ...).
    pub what: String,
}

/// A pointer or array parameter as the alias check sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayParam {
    /// Its name.
    pub name: String,
    /// Declared `restrict`.
    pub restrict: bool,
    /// Extents of the dimensions after the outermost (after
    /// delinearization for pointers), affine in the parameters.
    pub inner: Vec<Affine>,
}

/// One term `coef · params[0] · params[1] ··· iterator` of a polynomial
/// integer expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monomial {
    /// The constant factor.
    pub coef: i64,
    /// The parameter factors (with repetition).
    pub params: Vec<String>,
    /// At most one iterator factor.
    pub iterator: Option<String>,
}

/// A range obligation on a value that is not affine (a product of
/// parameters and an iterator, as in `A[i * m + j]` in `int`): wherever
/// `domain` executes, `lo <= Σ monomials <= hi`. Not a Presburger
/// condition on the parameters; the `assumptions` crate bounds it by the
/// iterators' ranges and checks it at run time.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeObligation {
    /// What it is about (a restriction: wrapping or division).
    pub kind: Kind,
    /// Where in the source it arises.
    pub pos: Pos,
    /// The iterators of `domain`.
    pub vars: Vec<String>,
    /// Where the value is computed.
    pub domain: Formula,
    /// The value.
    pub value: Vec<Monomial>,
    /// Its least admissible value.
    pub lo: i128,
    /// Its greatest admissible value (`None`: no upper limit).
    pub hi: Option<i128>,
    /// A short description.
    pub what: String,
}

/// Everything the optimistic front end records besides the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Optimistic {
    /// The C type of each integer parameter.
    pub param_types: BTreeMap<String, IntTy>,
    /// The pointer and array parameters in signature order.
    pub array_params: Vec<ArrayParam>,
    /// The recorded obligations, in the order they arose.
    pub obligations: Vec<Obligation>,
    /// The range obligations of non-affine values.
    pub ranges: Vec<RangeObligation>,
    /// Conditions that could not be expressed (an `int` expression that
    /// is not a polynomial with at most one iterator a term, such as
    /// `i * j`, whose wrapping cannot be bounded): position and reason.
    pub unmodelled: Vec<(Pos, String)>,
}

/// The recorded obligations combined (unsimplified): assumed and invalid
/// contexts within the type context, and the obligations that are not
/// trivial there.
#[derive(Debug, Clone)]
pub struct Combined {
    /// What the parameters' C types allow.
    pub context: Set,
    /// The conjunction of the assumptions (the universe when there are none).
    pub assumed: Set,
    /// The union of the restrictions, within the context.
    pub invalid: Set,
    /// The non-trivial obligations (index into
    /// [`Optimistic::obligations`]) with their violation sets within the
    /// context.
    pub effective: Vec<(usize, Set)>,
}

/// The type context: each integer parameter within its C type.
pub fn type_context(scop: &Scop) -> Result<Set, Error> {
    let mut b = presburger::BasicMap::universe(param_space(scop));
    for (k, p) in scop.params.iter().enumerate() {
        let ty = scop
            .optimistic
            .param_types
            .get(p)
            .copied()
            .unwrap_or(IntTy::Int);
        let mut lo = vec![Int::from(0); b.row_len()];
        lo[b.off_param() + k] = Int::from(1);
        lo[0] = Int::from(-ty.lowest());
        let mut hi = vec![Int::from(0); b.row_len()];
        hi[b.off_param() + k] = Int::from(-1);
        hi[0] = Int::from(ty.highest());
        b.add_ineq(lo);
        b.add_ineq(hi);
    }
    Ok(Set::from_basic(b))
}

/// Combines the recorded obligations: an assumption removes its violation
/// set from the assumed context, a restriction adds it to the invalid one
/// (the two are kept apart, never complemented into one); violation sets
/// empty within the type context are dropped.
///
/// ```
/// let scop = scop::build_scop(
///     "void k(int n, double *A) { for (int i = n; i != 0; i -= 2) A[i] = 0; }").unwrap();
/// let c = scop::assume::combine(&scop).unwrap();
/// let want: presburger::Set = "[n] -> { : -2147483648 <= n <= 2147483647 and (n < 0 or n mod 2 = 1) }".parse().unwrap();
/// assert!(c.invalid.is_equal(&want).unwrap());
/// assert_eq!(c.effective.len(), 1);
/// ```
pub fn combine(scop: &Scop) -> Result<Combined, Error> {
    Ok(combine_and_runs(scop)?.0)
}

/// [`combine`] and [`domain_params`] together: obligations of one
/// statement and the statement itself share their domain, whose points are
/// computed once ([`Lowered`]).
pub fn combine_and_runs(scop: &Scop) -> Result<(Combined, Set), Error> {
    let mut lowered = Lowered::default();
    let combined = combine_with(scop, &mut lowered)?;
    let runs = domain_params_with(scop, &mut lowered)?;
    Ok((combined, runs))
}

fn combine_with<'a>(scop: &'a Scop, lowered: &mut Lowered<'a>) -> Result<Combined, Error> {
    let context = type_context(scop)?;
    let mut assumed = Set::universe(context.space().clone());
    let mut invalid = Set::empty(context.space().clone());
    let mut effective = Vec::new();
    // Obligations repeat (the inner subscripts `[j][k]` of `A[i + 1][j][k]`,
    // `A[i][j][k]`, ... in one statement): each violation set is computed
    // once, and added once per sign (again it would change nothing).
    let mut seen: Vec<(&Obligation, Option<Set>, Vec<Sign>)> = Vec::new();
    for (k, o) in scop.optimistic.obligations.iter().enumerate() {
        let same = |p: &Obligation| p.vars == o.vars && p.domain == o.domain && p.holds == o.holds;
        let at = match seen.iter().position(|(p, _, _)| same(p)) {
            Some(at) => at,
            None => {
                let v = lowered.violation_set(scop, o)?.intersect(&context)?;
                let v = if v.is_empty()? {
                    None
                } else {
                    Some(v.coalesce()?)
                };
                seen.push((o, v, Vec::new()));
                seen.len() - 1
            }
        };
        let (_, Some(v), signs) = &mut seen[at] else {
            continue;
        };
        let sign = o.kind.sign();
        if !signs.contains(&sign) {
            signs.push(sign);
            match sign {
                Sign::Assumption => assumed = assumed.subtract(v)?,
                Sign::Restriction => invalid = invalid.union(v)?,
            }
        }
        effective.push((k, v.clone()));
    }
    Ok(Combined {
        context,
        assumed,
        invalid: invalid.coalesce()?,
        effective,
    })
}

fn param_space(scop: &Scop) -> Space {
    Space::params_only(Arc::<[String]>::from(scop.params.clone()))
}

/// `params(domain ∖ holds)`: the parameter values for which the obligation
/// is violated at some executed instance.
pub fn violation_set(scop: &Scop, o: &Obligation) -> Result<Set, Error> {
    let bad = Formula::and(vec![o.domain.clone(), o.holds.negate()]);
    over_vars(scop, &o.vars, &bad)
}

/// `params(f)` for a formula over `vars` and the parameters.
fn over_vars(scop: &Scop, vars: &[String], f: &Formula) -> Result<Set, Error> {
    Ok(points(scop, vars, f)?.params())
}

/// The points `[params] -> { [vars] : f }` of a formula.
pub fn points(scop: &Scop, vars: &[String], f: &Formula) -> Result<Set, Error> {
    let params: Arc<[String]> = scop.params.clone().into();
    let space = Space::set(params, Arc::new(Tuple::flat(None, vars.to_vec())));
    let cols = Columns::for_domain(&space, vars);
    formula_to_map(f, &space, &cols)
}

/// The parameter values for which some statement instance runs.
pub fn domain_params(scop: &Scop) -> Result<Set, Error> {
    domain_params_with(scop, &mut Lowered::default())
}

fn domain_params_with<'a>(scop: &'a Scop, lowered: &mut Lowered<'a>) -> Result<Set, Error> {
    let mut out = Set::empty(param_space(scop));
    for s in &scop.statements {
        out = out.union(&lowered.points(scop, &s.iterators, &s.domain)?.params())?;
    }
    Ok(out)
}

/// The points of domains (over their variables), each lowered once: the
/// obligations of a statement and the statement share their domain.
#[derive(Default)]
struct Lowered<'a> {
    done: Vec<(&'a [String], &'a Formula, Set)>,
}

impl<'a> Lowered<'a> {
    /// [`points`] of `domain`, computed once per variables and domain.
    fn points(
        &mut self,
        scop: &Scop,
        vars: &'a [String],
        domain: &'a Formula,
    ) -> Result<Set, Error> {
        if let Some((_, _, p)) = self
            .done
            .iter()
            .find(|(v, d, _)| *v == vars && *d == domain)
        {
            return Ok(p.clone());
        }
        let p = points(scop, vars, domain)?;
        self.done.push((vars, domain, p.clone()));
        Ok(p)
    }

    /// [`violation_set`], with the domain's points shared: where the
    /// negated condition is a disjunction that the conjunction
    /// `domain ∧ ¬holds` keeps last (after the domain's own conjuncts, in
    /// their order), lowering the conjunction intersects the domain's
    /// points with the disjunction's, which is what is done here with the
    /// domain's points computed once (the same set, written the same way).
    fn violation_set(&mut self, scop: &Scop, o: &'a Obligation) -> Result<Set, Error> {
        let neg = o.holds.negate();
        let bad = Formula::and(vec![o.domain.clone(), neg.clone()]);
        if !domain_then(&o.domain, &neg, &bad) {
            return over_vars(scop, &o.vars, &bad);
        }
        let d = self.points(scop, &o.vars, &o.domain)?;
        Ok(d.intersect(&points(scop, &o.vars, &neg)?)?.params())
    }
}

/// `bad` (`domain ∧ neg` as [`Formula::and`] writes it) is the domain's
/// conjuncts in their order and then `neg`, a disjunction; the domain is a
/// conjunction or a single condition other than a disjunction.
fn domain_then(domain: &Formula, neg: &Formula, bad: &Formula) -> bool {
    let (Formula::Or(_), Formula::And(parts)) = (neg, bad) else {
        return false;
    };
    let Some((last, first)) = parts.split_last() else {
        return false;
    };
    if last != neg {
        return false;
    }
    match domain {
        Formula::And(ds) => first == ds.as_slice(),
        Formula::Or(_) | Formula::True | Formula::False => false,
        d => first.len() == 1 && &first[0] == d,
    }
}

/// The cells of `array` that some statement accesses, as a set of index
/// tuples `[params] -> { [i0, ..., ik] }`, and whether one of them is
/// written.
pub fn accessed_cells(scop: &Scop, array: &str) -> Result<Option<(Set, bool)>, Error> {
    let params: Arc<[String]> = scop.params.clone().into();
    let mut out: Option<Set> = None;
    let mut written = false;
    // (the read and the write of `A[i] += ...`, and statements of one loop
    // body, often access the same cells: each image once)
    let mut seen: Vec<(&[String], &Formula, &[Affine])> = Vec::new();
    for s in &scop.statements {
        for a in s.accesses.iter().filter(|a| a.array == array) {
            written |= a.kind != crate::model::AccessKind::Read;
            let key = (s.iterators.as_slice(), &s.domain, a.index.as_slice());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let k = a.index.len();
            let cells: Vec<String> = (0..k).map(|d| format!("__cell{d}")).collect();
            let mut vars = s.iterators.clone();
            vars.extend(cells.iter().cloned());
            let mut parts = vec![s.domain.clone()];
            for (c, e) in cells.iter().zip(&a.index) {
                parts.push(Formula::Eq(Affine::var(c).sub(e)));
            }
            let space = Space::set(params.clone(), Arc::new(Tuple::flat(None, vars.clone())));
            let cols = Columns::for_domain(&space, &vars);
            let m = formula_to_map(&Formula::and(parts), &space, &cols)?;
            // keep the cells: project out the iterators (the first dimensions)
            let img = m.project_out(0, s.iterators.len())?;
            out = Some(match out {
                None => img,
                Some(o) => o.union(&img)?,
            });
        }
    }
    Ok(out.map(|o| (o, written)))
}

/// `f` with `var` replaced by `by` (used for the previous iteration of a
/// loop: the test of `i` runs where `i - step` was an iteration).
pub fn substitute(f: &Formula, var: &str, by: &Affine) -> Formula {
    match f {
        Formula::True | Formula::False => f.clone(),
        Formula::Ge(a) => Formula::Ge(subst_affine(a, var, by)),
        Formula::Eq(a) => Formula::Eq(subst_affine(a, var, by)),
        Formula::Mod(a, m, r) => Formula::Mod(subst_affine(a, var, by), *m, *r),
        Formula::ModRange(a, m, lo, hi) => {
            Formula::ModRange(subst_affine(a, var, by), *m, *lo, *hi)
        }
        Formula::Range {
            lo,
            var: v,
            hi,
            strict,
        } => {
            let [l, h] = Formula::range_constraints(lo, v, hi, *strict);
            Formula::and(vec![
                Formula::Ge(subst_affine(&l, var, by)),
                Formula::Ge(subst_affine(&h, var, by)),
            ])
        }
        Formula::And(fs) => Formula::and(fs.iter().map(|g| substitute(g, var, by)).collect()),
        Formula::Or(fs) => Formula::or(fs.iter().map(|g| substitute(g, var, by)).collect()),
    }
}

fn subst_affine(a: &Affine, var: &str, by: &Affine) -> Affine {
    let mut out = Affine::constant(a.constant);
    for (v, &c) in &a.terms {
        let t = match v {
            AVar::Name(n) if n == var => by.scale(c),
            AVar::Name(n) => Affine::var(n).scale(c),
            AVar::Div(num, d) => {
                let mut x = Affine::constant(0);
                x.terms
                    .insert(AVar::Div(Box::new(subst_affine(num, var, by)), *d), c);
                x
            }
        };
        out = out.add(&t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_obligations_combine_as_each_one_alone() {
        // the inner subscripts `[j]` of A[i + 1][j], A[i][j], A[i - 1][j] are
        // one obligation three times; `i + 1` and `i - 1` wrap apart
        let scop = crate::build_scop(
            "void k(int n, int m, int s, double A[][8], double B[][8]) {
               for (int i = 1; i < n; i++)
                 for (int j = 0; j < m; j++)
                   B[i][j + s] = A[i + 1][j + s] + A[i][j + s] + A[i - 1][j + s]; }",
        )
        .unwrap();
        let obligations = &scop.optimistic.obligations;
        let repeated = (1..obligations.len()).any(|k| {
            obligations[..k].iter().any(|p| {
                p.vars == obligations[k].vars
                    && p.domain == obligations[k].domain
                    && p.holds == obligations[k].holds
            })
        });
        assert!(repeated, "the kernel should repeat an obligation");
        let c = combine(&scop).unwrap();
        // the oracle: every obligation's violation set on its own
        let mut assumed = Set::universe(c.context.space().clone());
        let mut invalid = Set::empty(c.context.space().clone());
        let mut effective = Vec::new();
        for (k, o) in obligations.iter().enumerate() {
            let v = violation_set(&scop, o)
                .unwrap()
                .intersect(&c.context)
                .unwrap();
            if v.is_empty().unwrap() {
                continue;
            }
            match o.kind.sign() {
                Sign::Assumption => assumed = assumed.subtract(&v).unwrap(),
                Sign::Restriction => invalid = invalid.union(&v).unwrap(),
            }
            effective.push((k, v));
        }
        assert!(c.assumed.is_equal(&assumed).unwrap());
        assert!(c.invalid.is_equal(&invalid).unwrap());
        assert!(!c
            .assumed
            .is_equal(&Set::universe(c.context.space().clone()))
            .unwrap());
        assert_eq!(c.effective.len(), effective.len());
        for ((k, v), (k2, v2)) in c.effective.iter().zip(&effective) {
            assert_eq!(k, k2);
            assert!(v.is_equal(v2).unwrap());
        }
    }

    #[test]
    fn shared_domains_give_the_sets_of_separate_lowering() {
        // tiled_mix: domains with disjunctions (an `if`, a strided `j`)
        // shared by several wrapping obligations and by the statements
        let scop = crate::build_scop(include_str!("../tests/kernels/tiled_mix.c")).unwrap();
        let mut lowered = Lowered::default();
        let mut shared = 0;
        for o in &scop.optimistic.obligations {
            let neg = o.holds.negate();
            let bad = Formula::and(vec![o.domain.clone(), neg.clone()]);
            shared += usize::from(domain_then(&o.domain, &neg, &bad));
            let fast = lowered.violation_set(&scop, o).unwrap();
            let slow = violation_set(&scop, o).unwrap();
            // the same set, written the same way
            assert_eq!(fast.to_string(), slow.to_string(), "{}", o.what);
            assert!(fast.is_equal(&slow).unwrap());
        }
        assert!(shared > 3, "the kernel should share domains");
        let runs = domain_params_with(&scop, &mut lowered).unwrap();
        let mut want = Set::empty(param_space(&scop));
        for s in &scop.statements {
            want = want
                .union(&over_vars(&scop, &s.iterators, &s.domain).unwrap())
                .unwrap();
        }
        assert_eq!(runs.to_string(), want.to_string());
        let (c, r) = combine_and_runs(&scop).unwrap();
        assert!(r.is_equal(&want).unwrap());
        assert!(c
            .invalid
            .is_equal(&combine(&scop).unwrap().invalid)
            .unwrap());
    }
}
