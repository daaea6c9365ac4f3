//! Body of the `interp` fuzz target: the reference interpreter against the
//! polyhedral model of the same C kernel.
//!
//! For a kernel the front end accepts, at a few small parameter values
//! ([`param_points`]), the interpreter runs the kernel counting the
//! executed instances of each statement ([`scop::interp::run_traced`]).
//! Where the model is exact (no optimistic assumption of the front end is
//! violated at those values, [`model_is_exact`]), the instances must be
//! exactly the points of the statements' domains: as many per statement as
//! the domain has points at those values (`Map::card` with the parameters
//! fixed), each one in its domain, none twice, and in increasing order of
//! the original schedule.
//!
//! Legal ends of a run (not findings): a run-time error of the interpreter
//! (an out-of-bounds subscript, a signed overflow, a division by zero, an
//! error path that runs: undefined behaviour in C, or an assumption of the
//! model that does not hold) and the operation budget running out (the
//! interpreter charges loop iterations, expression nodes and array
//! elements; the engine its usual work). Any other interpreter error on an
//! accepted kernel (a semantic or usage error) is a disagreement between
//! the front end and the interpreter: a finding.

use std::collections::HashMap;

use presburger::{budget, BasicMap, Error, Int, Map, Set};
use scop::affine::Formula;
use scop::ast::ParamKind;
use scop::model::SchedDim;

use super::{text, BUDGET, FRONT_END_BUDGET};

/// Budget of one interpreter run (loop iterations, expression nodes and
/// array elements): small kernels at parameter values up to 3 need a few
/// thousand ticks; a loop with a huge trip count ends here.
pub const INTERP_BUDGET: u64 = 100_000;

/// Budget of everything `interp` does after building the model, over all
/// parameter values together (runs, exactness checks, counts).
pub const INTERP_INPUT_BUDGET: u64 = 1_000_000;

/// At most this many executed instances are tested for membership in
/// their domain at one parameter value (each is an emptiness test).
const MEMBERSHIP_CHECKS: usize = 256;

/// The parameter values (one per integer parameter of the signature) at
/// which [`interp`] runs a kernel with `np` integer parameters: all at 0,
/// 1, 2 and 3, then (with two or more) unequal values 1, 2, 3, 1, 2, ...
/// and 3, 1, 2, 3, 1, ... (the first parameter above the second, then
/// below it).
pub fn param_points(np: usize) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = (0..4).map(|v| vec![v; np]).collect();
    if np > 1 {
        out.push((0..np).map(|k| 1 + (k % 3) as i64).collect());
        out.push((0..np).map(|k| 1 + ((k + 2) % 3) as i64).collect());
    }
    out
}

/// The interpreter against the model (module documentation).
///
/// # Panics
/// When the interpreter panics or fails with an error other than a run-time
/// error or the budget, or when the executed instances differ from the
/// model's domains where the model is exact.
pub fn interp(data: &[u8]) {
    interp_checks(data);
}

/// [`interp`], returning at how many parameter values the executed
/// instances were compared with the domains (runs that end in an error,
/// values where the model is not exact and checks that ran out of budget
/// are not counted): the corpus replay asserts the check is not vacuous.
///
/// # Panics
/// As [`interp`].
pub fn interp_checks(data: &[u8]) -> usize {
    let Some(src) = text(data, 4000) else {
        return 0;
    };
    let Ok(model) = budget::with_budget(FRONT_END_BUDGET, || scop::Model::from_source(src)) else {
        return 0;
    };
    let f = scop::parse_kernel(src)
        .unwrap_or_else(|e| panic!("{src:?} has a model but does not parse: {e}"));
    let names: Vec<String> = f
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Int(_)))
        .map(|p| p.name.clone())
        .collect();
    budget::with_budget(INTERP_INPUT_BUDGET, || {
        let mut compared = 0;
        for values in param_points(names.len()) {
            if budget::remaining() == Some(0) {
                break;
            }
            let ints: HashMap<String, i64> = names.iter().cloned().zip(values).collect();
            compared += usize::from(check_at(src, &model, &f, &ints));
        }
        compared
    })
}

/// One parameter value: run, then compare where the model is exact; true
/// if the comparison ran to its end.
fn check_at(
    src: &str,
    model: &scop::Model,
    f: &scop::ast::Function,
    ints: &HashMap<String, i64>,
) -> bool {
    let run = budget::with_budget(INTERP_BUDGET, || {
        let mut st = scop::interp::initial_state(f, ints, &HashMap::new())?;
        scop::interp::run_traced(f, &mut st)
    });
    let trace = match run {
        Ok(t) => t,
        Err(scop::Error::Runtime { .. }) | Err(scop::Error::Engine(Error::BudgetExceeded)) => {
            return false
        }
        Err(e) => panic!("the interpreter fails on the accepted kernel {src:?} at {ints:?}: {e}"),
    };
    let scop = model.source();
    let at = |params: &[String]| -> Vec<Int> {
        params
            .iter()
            .map(|p| {
                Int::from(*ints.get(p).unwrap_or_else(|| {
                    panic!("{src:?}: model parameter {p} is no integer parameter")
                }))
            })
            .collect()
    };
    match model_is_exact(scop, &at(&scop.params)) {
        Ok(true) => {}
        Ok(false) | Err(Error::BudgetExceeded) => return false,
        Err(e) => panic!("{src:?} at {ints:?}: checking the assumptions: {e}"),
    }
    let stmts = model.statements();
    let mut count = vec![0u64; stmts.len()];
    for (k, its) in &trace {
        let Some(c) = count.get_mut(*k) else {
            panic!(
                "{src:?} at {ints:?}: the trace names statement {k} of {}",
                stmts.len()
            )
        };
        *c += 1;
        assert_eq!(
            its.len(),
            stmts[*k].iterators.len(),
            "{src:?} at {ints:?}: instance {its:?} of {}",
            stmts[*k].name
        );
    }
    for (k, s) in stmts.iter().enumerate() {
        let params = at(&s.domain.space().params);
        let fixed = fix_params(&s.domain, &params);
        match budget::with_budget(BUDGET, || fixed.card()) {
            Ok(n) => assert_eq!(
                n,
                Int::from(count[k] as i64),
                "{src:?} at {ints:?}: {} has {n} points in its domain {}, the interpreter ran it {} times",
                s.name,
                s.domain,
                count[k]
            ),
            Err(Error::BudgetExceeded) => return false,
            Err(e) => panic!(
                "{src:?} at {ints:?}: the interpreter ran {} {} times, its domain {} gives {e}",
                s.name, count[k], s.domain
            ),
        }
    }
    // The counts agree; with every instance in its domain and none twice,
    // the executed instances are the domains' points.
    let mut seen: Vec<&(usize, Vec<i64>)> = trace.iter().collect();
    seen.sort();
    if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
        panic!("{src:?} at {ints:?}: instance {:?} ran twice", w[0]);
    }
    for (k, its) in trace.iter().take(MEMBERSHIP_CHECKS) {
        let s = &stmts[*k];
        let mut point = at(&s.domain.space().params);
        point.extend(its.iter().map(|&v| Int::from(v)));
        match budget::with_budget(BUDGET, || s.domain.contains_point(&point)) {
            Ok(true) => {}
            Ok(false) => panic!(
                "{src:?} at {ints:?}: the interpreter ran {}{its:?}, outside its domain {}",
                s.name, s.domain
            ),
            Err(Error::BudgetExceeded) => return false,
            Err(e) => panic!("{src:?}: membership in {}: {e}", s.domain),
        }
    }
    // Execution order is the original schedule's order.
    let time = |(k, its): &(usize, Vec<i64>)| -> Vec<i64> {
        let s = &scop.statements[*k];
        s.schedule
            .iter()
            .map(|d| match d {
                SchedDim::Const(c) => *c,
                SchedDim::Iter(v, sign) => {
                    let j = s
                        .iterators
                        .iter()
                        .position(|x| x == v)
                        .unwrap_or_else(|| panic!("{src:?}: schedule of {} names {v}", s.name));
                    sign * its[j]
                }
            })
            .collect()
    };
    for w in trace.windows(2) {
        assert!(
            time(&w[0]) < time(&w[1]),
            "{src:?} at {ints:?}: {:?} ran before {:?}, against the schedule",
            w[0],
            w[1]
        );
    }
    true
}

/// `set` with its parameters fixed to `params`.
fn fix_params(set: &Set, params: &[Int]) -> Set {
    let mut out = set.clone();
    for (k, v) in params.iter().enumerate() {
        out = out.fix_var(k, v);
    }
    out
}

/// Whether the model is exact at the parameter values `params` (in the
/// order of `scop.params`): no recorded obligation (assumption or
/// restriction) is violated there, no range obligation of a non-affine
/// value either, and no condition went unmodelled.
pub fn model_is_exact(scop: &scop::Scop, params: &[Int]) -> Result<bool, Error> {
    let o = &scop.optimistic;
    if !o.unmodelled.is_empty() {
        return Ok(false);
    }
    let engine = |e: scop::Error| match e {
        scop::Error::Engine(e) => e,
        e => Error::Invalid(e.to_string()),
    };
    for ob in &o.obligations {
        let bad = Formula::and(vec![ob.domain.clone(), ob.holds.negate()]);
        let points = budget::with_budget(BUDGET, || scop::assume::points(scop, &ob.vars, &bad))
            .map_err(engine)?;
        if !budget::with_budget(BUDGET, || fix_params(&points, params).is_empty())? {
            return Ok(false);
        }
    }
    for r in &o.ranges {
        let points = budget::with_budget(BUDGET, || scop::assume::points(scop, &r.vars, &r.domain))
            .map_err(engine)?;
        let fixed = fix_params(&points, params);
        // With the parameters fixed, the value is affine in the iterators.
        let b = BasicMap::universe(fixed.space().clone());
        let mut value = vec![Int::from(0); b.row_len()];
        for m in &r.value {
            let mut c = Int::from(m.coef);
            for p in &m.params {
                let k = scop.params.iter().position(|x| x == p).ok_or_else(|| {
                    Error::Invalid(format!("range obligation names {p}, no parameter"))
                })?;
                c = &c * &params[k];
            }
            let col = match &m.iterator {
                None => 0,
                Some(v) => {
                    let j = r.vars.iter().position(|x| x == v).ok_or_else(|| {
                        Error::Invalid(format!("range obligation names {v}, no iterator"))
                    })?;
                    b.off_out() + j
                }
            };
            value[col] = &value[col] + &c;
        }
        // below lo: lo - value - 1 >= 0; above hi: value - hi - 1 >= 0
        let mut outside = Map::empty(fixed.space().clone());
        let mut below = b.clone();
        let int = |v: i128| {
            i64::try_from(v)
                .map(Int::from)
                .map_err(|_| Error::Invalid(format!("range bound {v} beyond 64 bits")))
        };
        let mut row: Vec<Int> = value.iter().map(|v| -v).collect();
        row[0] = &(&row[0] + &int(r.lo)?) - &Int::ONE;
        below.add_ineq(row);
        outside = outside.union(&Map::from_basic(below))?;
        if let Some(hi) = r.hi {
            let mut above = b;
            let mut row = value.clone();
            row[0] = &(&row[0] - &int(hi)?) - &Int::ONE;
            above.add_ineq(row);
            outside = outside.union(&Map::from_basic(above))?;
        }
        let holds = budget::with_budget(BUDGET, || {
            fixed.intersect(&outside).and_then(|m| m.is_empty())
        })?;
        if !holds {
            return Ok(false);
        }
    }
    Ok(true)
}
