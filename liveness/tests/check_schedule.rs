//! `check_schedule` against the brute-force check on enumerated flows
//! (`reference::Run::schedule_violation`) at small parameter values.

use liveness::reference::Run;
use liveness::{check_schedule, Verdict};
use presburger::{Int, UnionMap};

const SCALAR: &str = "void k(int N, double A[N], double B[N]) {
  double t;
  for (int i = 0; i < N; i++) {
    t = A[i];
    B[i] = t;
  }
}";

const TWO: &str = "void k(int N, double A[N], double B[N]) {
  for (int i = 1; i < N; i++)
    B[i] = A[i - 1];
  for (int i = 0; i < N; i++)
    A[i] = 2.0 * B[i];
}";

const LOCAL: &str = "void k(int N, double A[N], double B[N]) {
  double t[N];
  for (int i = 0; i < N; i++)
    t[i] = A[i];
  for (int i = 1; i < N; i++)
    B[i] = t[i - 1] + t[i];
}";

/// The time of every enumerated instance under `sched`.
fn times(run: &Run, sched: &UnionMap, params: &[(&str, i64)]) -> Vec<Vec<i64>> {
    let fns: Vec<_> = sched
        .maps()
        .iter()
        .map(|m| {
            let name = m.space().domain.as_ref().unwrap().name.clone().unwrap();
            (
                name,
                m.lexmin_pw_multi_aff().unwrap(),
                m.space().params.clone(),
            )
        })
        .collect();
    run.instances()
        .iter()
        .map(|(s, its)| {
            let (_, f, ps) = fns.iter().find(|(n, _, _)| n == s).expect("scheduled");
            let point: Vec<Int> = ps
                .iter()
                .map(|p| params.iter().find(|(n, _)| n == p).unwrap().1)
                .chain(its.iter().copied())
                .map(Int::from)
                .collect();
            let v = f.eval(&point).unwrap().expect("in the domain");
            v.iter().map(|x| x.to_string().parse().unwrap()).collect()
        })
        .collect()
}

fn compare(src: &str, schedules: &[&str]) {
    let m = scop::Model::from_source(src).unwrap();
    for text in schedules {
        let sched: UnionMap = text.parse().unwrap();
        let verdict = check_schedule(&m, &sched).unwrap();
        let mut kinds = Vec::new();
        for n in 0..=5 {
            let params = [("N", n)];
            let run = Run::new(src, &params, false).unwrap();
            let t = times(&run, &sched, &params);
            kinds.push(run.schedule_violation(&t));
        }
        match &verdict {
            Verdict::Legal => assert!(kinds.iter().all(Option::is_none), "{text}: {kinds:?}"),
            Verdict::Illegal { kind, .. } => {
                assert!(
                    kinds.contains(&Some(*kind)),
                    "{text}: {verdict} vs {kinds:?}"
                )
            }
        }
    }
}

#[test]
fn scalar_reuse() {
    compare(
        SCALAR,
        &[
            "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }",
            "{ S0[i] -> [0, i]; S1[i] -> [1, i] }",
            "{ S0[i] -> [i, 1]; S1[i] -> [i, 0] }",
            "[N] -> { S0[i] -> [N - i, 0]; S1[i] -> [N - i, 1] }",
            "{ S0[i] -> [2i, 0]; S1[i] -> [2i + 1, 0] }",
            "{ S0[i] -> [i, 0]; S1[i] -> [i + 1, 0] }",
        ],
    );
}

#[test]
fn two_loops_and_live_out() {
    compare(
        TWO,
        &[
            "{ S0[i] -> [0, i]; S1[i] -> [1, i] }",
            "{ S0[i] -> [1, i]; S1[i] -> [0, i] }",
            "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }",
            "{ S0[i] -> [i, 1]; S1[i] -> [i, 0] }",
            "{ S0[i] -> [i, 0]; S1[i] -> [i + 1, 1] }",
            "[N] -> { S0[i] -> [0, N - i]; S1[i] -> [1, N - i] }",
        ],
    );
}

#[test]
fn local_array() {
    compare(
        LOCAL,
        &[
            "{ S0[i] -> [0, i]; S1[i] -> [1, i] }",
            "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }",
            "{ S0[i] -> [i + 1, 0]; S1[i] -> [i, 1] }",
            "{ S0[i] -> [i, 1]; S1[i] -> [i, 0] }",
            "[N] -> { S0[i] -> [0, N - i]; S1[i] -> [1, N - i] }",
            "[N] -> { S0[i] -> [1, i]; S1[i] -> [0, i] }",
        ],
    );
}

#[test]
fn overwrites_and_live_out() {
    let src = "void k(int N, double A[N]) {
      for (int i = 0; i < N; i++) A[i] = 1.0;
      for (int i = 0; i < N; i++) A[i] = 2.0;
    }";
    compare(
        src,
        &[
            "{ S0[i] -> [0, i]; S1[i] -> [1, i] }",
            "{ S0[i] -> [1, i]; S1[i] -> [0, i] }",
            "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }",
            "{ S0[i] -> [i, 1]; S1[i] -> [i - 1, 0] }",
        ],
    );
    let m = scop::Model::from_source(src).unwrap();
    let v = check_schedule(&m, &"{ S0[i] -> [1, i]; S1[i] -> [0, i] }".parse().unwrap()).unwrap();
    assert!(v.to_string().starts_with("illegal: live-out"), "{v}");
}

/// A schedule is judged only for parameter values of the model's context:
/// `B[K]` makes `K >= 0` part of it, so `S2` at time `K` is after every
/// `S1[i, k]` with `k < K` and after `S0[i]` (at `K < 0` the kernel does not
/// run), while `S2` at `K - 1` runs before `S0[i]` at `K = 0`.
#[test]
fn judged_inside_the_context() {
    let src = include_str!("../../fuzz/corpus/c_kernel/sum_products_scalar.c");
    let m = scop::Model::from_source(src).unwrap();
    let check = |s: &str| check_schedule(&m, &s.parse().unwrap()).unwrap().to_string();
    let ok = "[K] -> { S0[i] -> [i, 0, 0]; S1[i, k] -> [i, k, 1]; S2[i] -> [i, K, 2] }";
    assert_eq!(check(ok), "legal");
    let bad = "[K] -> { S0[i] -> [i, 0, 0]; S1[i, k] -> [i, k, 1]; S2[i] -> [i, K - 1, 2] }";
    assert!(check(bad).starts_with("illegal: flow"), "{}", check(bad));
}
