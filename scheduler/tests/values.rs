//! Schedules of C kernels compute the same values as the original program:
//! with and without live-range reordering, every read sees the same write and
//! every element ends with the same value, checked by running the accesses in
//! both orders at small parameter values (`check::verify_values`).

use scheduler::{check, compute_schedule, constraints_from_accesses, Accesses, Options};
use std::path::PathBuf;

fn kernels() -> Vec<PathBuf> {
    let mut v = testkit::shared_kernel_sources();
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels");
    v.extend(testkit::files_with_suffix(&own, ".c"));
    v.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/live_in_out.c"));
    v
}

fn schedule_of(src: &str, lrr: bool) -> (Accesses, scheduler::Schedule) {
    let model = scop::Model::from_source(src).expect("kernel parses");
    let acc = Accesses::from_model(&model);
    let sc = constraints_from_accesses(&acc, lrr).expect("constraints");
    let s = compute_schedule(&sc, &Options::default()).expect("schedule");
    (acc, s)
}

#[test]
fn kernel_schedules_keep_the_values() {
    let mut checked = 0;
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        for lrr in [false, true] {
            let (acc, s) = schedule_of(&src, lrr);
            let np = acc.domain.params().len();
            for v in [2, 3] {
                let params = vec![v; np];
                check::verify_values(&s, &acc, &params, 10).unwrap_or_else(|e| {
                    panic!("{} (lrr {lrr}) at {params:?}: {e}\n{s}", path.display())
                });
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} runs");
}

/// Without the forced dependences, live-range reordering put the write of
/// `A` (never read again, live-out) before the read of its live-in value.
#[test]
fn live_in_reads_stay_before_writes_and_live_out_writes_stay_last() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/live_in_out.c");
    let src = std::fs::read_to_string(path).unwrap();
    let (acc, s) = schedule_of(&src, true);
    for n in [1, 2, 3, 4] {
        check::verify_values(&s, &acc, &[n], 8).unwrap();
    }
}

/// The oracle rejects a schedule that computes other values.
#[test]
fn the_value_oracle_rejects_a_reversed_loop() {
    let src = "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1] + 1.0; }";
    let model = scop::Model::from_source(src).unwrap();
    let acc = Accesses::from_model(&model);
    let sc: scheduler::ScheduleConstraints =
        "domain: \"[N] -> { S0[i] : 1 <= i < N }\"".parse().unwrap();
    let mut opts = Options::default();
    opts.maximize_coincidence = true;
    // no dependences: any order is "valid" for the constraints, so reverse it by hand
    let s = compute_schedule(&sc, &opts).unwrap();
    check::verify_values(&s, &acc, &[4], 8).unwrap();
    let rev: scheduler::ScheduleConstraints = "domain: \"[N] -> { S0[i] : 1 <= i < N }\"\nvalidity: \"[N] -> { S0[i] -> S0[i - 1] : 2 <= i < N }\""
        .parse()
        .unwrap();
    let r = compute_schedule(&rev, &opts).unwrap();
    assert!(check::verify_values(&r, &acc, &[4], 8).is_err());
}

/// When the budget runs out, `compute_schedule` fails and
/// `compute_schedule_or` returns the original schedule, which keeps the values.
#[test]
fn budget_fallback_is_the_original_schedule() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels/cholesky.c");
    let model = scop::Model::from_source(&std::fs::read_to_string(path).unwrap()).unwrap();
    let acc = Accesses::from_model(&model);
    let sc = constraints_from_accesses(&acc, false).unwrap();
    let opts = Options {
        budget: Some(1_000),
        ..Options::default()
    };
    assert!(matches!(
        compute_schedule(&sc, &opts),
        Err(scheduler::Error::Budget)
    ));
    let original = scheduler::Schedule::from_union_map(model.domain(), model.schedule()).unwrap();
    let (s, outcome) = scheduler::compute_schedule_or(&sc, &opts, original).unwrap();
    assert_eq!(outcome, scheduler::Outcome::BudgetFallback);
    assert!(
        s.to_union_map()
            .unwrap()
            .is_equal(&model.schedule().intersect_domain(model.domain()).unwrap())
            .unwrap()
            || s.to_union_map()
                .unwrap()
                .is_equal(model.schedule())
                .unwrap()
    );
    for n in [2, 3] {
        check::verify(&sc, &s, &[n], 8).unwrap();
        check::verify_values(&s, &acc, &[n], 8).unwrap();
    }
    // with enough budget the scheduler's own schedule comes back
    let (_, outcome) = scheduler::compute_schedule_or(&sc, &Options::default(), s).unwrap();
    assert_eq!(outcome, scheduler::Outcome::Computed);
}

#[test]
fn a_schedule_that_is_not_affine_is_refused() {
    let d: presburger::UnionSet = "[N] -> { S[i] : 0 <= i < N }".parse().unwrap();
    let not_affine: presburger::UnionMap = "[N] -> { S[i] -> [t] : 0 <= t <= i }".parse().unwrap();
    assert!(scheduler::Schedule::from_union_map(&d, &not_affine).is_err());
    let missing: presburger::UnionMap = "[N] -> { T[i] -> [i] }".parse().unwrap();
    assert!(scheduler::Schedule::from_union_map(&d, &missing).is_err());
    let ok: presburger::UnionMap = "[N] -> { S[i] -> [N - i] }".parse().unwrap();
    let s = scheduler::Schedule::from_union_map(&d, &ok).unwrap();
    let want = ok.intersect_domain(&d).unwrap();
    let got = s.to_union_map().unwrap();
    assert!(
        got.is_equal(&want).unwrap() || got.is_equal(&ok).unwrap(),
        "{got}"
    );
}

/// Parameter values with negative entries: all `-1`, each parameter `-1`
/// with the others `2`, and all `2`.
fn with_negatives(np: usize) -> Vec<Vec<i64>> {
    let mut out = vec![vec![-1; np], vec![2; np]];
    for k in 0..np {
        let mut p = vec![2; np];
        p[k] = -1;
        out.push(p);
    }
    out
}

/// A schedule respects the dependences at every parameter value of the
/// context, negative ones included. With the model's context (array
/// extents non-negative) a negative extent never runs and the check is
/// vacuous; without a context the schedule must keep the values there too
/// (`S2[i] -> [i, K]` after `S0[i] -> [i, 0]`, valid for `K >= 0`, runs
/// `S2` first when `K < 0`).
#[test]
fn schedules_keep_the_values_at_negative_parameters() {
    let mut checked = 0;
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let model = scop::Model::from_source(&src).expect("kernel parses");
        let mut acc = Accesses::from_model(&model);
        for context in [Some(model.context().clone()), None] {
            acc.context = context;
            let sc = constraints_from_accesses(&acc, false).expect("constraints");
            let s = compute_schedule(&sc, &Options::default()).expect("schedule");
            for params in with_negatives(acc.domain.params().len()) {
                check::verify_values(&s, &acc, &params, 6).unwrap_or_else(|e| {
                    panic!(
                        "{} (context {:?}) at {params:?}: {e}\n{s}",
                        path.display(),
                        acc.context.as_ref().map(|c| c.to_string())
                    )
                });
                let p: Vec<presburger::Int> = params.iter().map(|&v| v.into()).collect();
                let inside = match &acc.context {
                    Some(c) => c.contains_point(&p).unwrap(),
                    None => true,
                };
                checked += usize::from(inside && params.iter().any(|&v| v < 0));
            }
        }
    }
    assert!(checked >= 40, "only {checked} runs at negative values");
}
