//! The scheduler in the pipeline: every kernel compiled with the affine
//! scheduler's schedule forced agrees with the reference interpreter (one
//! thread and three workers), and the automatic choice takes it exactly
//! where it adds an outer parallel loop without losing vector loops.

mod common;
use common::{agree_at_sizes, both_agree, compiled, kernels};

#[test]
fn kernels_with_the_schedulers_schedule_agree_with_the_interpreter() {
    let mut seed: u64 = 0x853c_49e6_748f_ea9b;
    let mut checked = 0;
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        // a schedule that fails the independent dependence check (over the
        // model's context) is refused: none is today
        let front = lower::front_with(&src, lower::Policy::Scheduler)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(front.schedule.origin, lower::Origin::Scheduler);
        assert!(lower::respects_dependences(&front.model, &front.schedule.map).unwrap());
        let (k, c, pieces) = compiled(&front);
        checked += agree_at_sizes(&front, &(&k, &c, &pieces), &mut seed, 3, (1, 13));
    }
    eprintln!("{checked} runs compared");
    assert!(checked >= 30, "{checked}");
}

#[test]
fn the_automatic_choice_takes_the_scheduler_only_for_outer_parallelism() {
    // trmm's i loop carries a dependence, its j loop does not: the
    // scheduler puts j outside
    let trmm = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels/trmm.c"),
    )
    .unwrap();
    let trmm = trmm.as_str();
    let f = lower::front(trmm).unwrap();
    assert_eq!(
        f.schedule.origin,
        lower::Origin::Scheduler,
        "{}",
        f.schedule.reason
    );
    let sched = lower::schedule(&f).unwrap();
    assert!(lower::parallel_dims(&f.model, &sched, None).unwrap()[0]);
    // a parallel outer loop already: the original stays
    let gemm = "void g(int N, double C[N][N], double A[N][N], double B[N][N]) {
      for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++)
          for (int j = 0; j < N; j++)
            C[i][j] += A[i][k] * B[k][j];
    }";
    let f = lower::front(gemm).unwrap();
    assert_eq!(f.schedule.origin, lower::Origin::Original);
    assert!(
        f.schedule.reason.contains("parallel"),
        "{}",
        f.schedule.reason
    );
    // a recurrence along both loops: nothing to gain
    let seidel = "void s(int N, double A[N][N]) {
      for (int i = 1; i < N; i++)
        for (int j = 1; j < N; j++)
          A[i][j] = A[i - 1][j] + A[i][j - 1];
    }";
    let f = lower::front(seidel).unwrap();
    assert_eq!(f.schedule.origin, lower::Origin::Original);
    assert_eq!(
        lower::front_with(trmm, lower::Policy::Original)
            .unwrap()
            .schedule
            .origin,
        lower::Origin::Original
    );
}

#[test]
fn a_schedule_that_walks_more_arrays_across_rows_is_refused() {
    // lrr_listing1's column nest alone: the scheduler's anti-diagonal
    // schedule (i + j, i) has a parallel outer loop, but its inner loop
    // walks B and C across rows where the original walks C only (3x
    // gcc's CPU time, benches/README.md)
    let src = "void col(int n, double B[n][n], double C[n][n], double t[2 * n - 1]) {
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          t[i + j] = B[i][j];
          C[j][i] = C[j][i] + t[i + j];
        }
    }";
    let f = lower::front(src).unwrap();
    assert_eq!(f.schedule.origin, lower::Origin::Original);
    assert!(
        f.schedule.reason.contains("stride"),
        "{}",
        f.schedule.reason
    );
    let strided = |policy| {
        let f = lower::front_with(src, policy).unwrap();
        let (k, loops) = lower::kernel_and_loops(&f).unwrap();
        lower::compile(&k, &loops).unwrap().strided
    };
    // (the loops as generated, before unrolling) the original runs by
    // transposed 4x4 blocks, which walk no array across rows (its leftover
    // rows and columns do not count), the scheduler's walks B and C
    assert_eq!(strided(lower::Policy::Original), 0);
    assert_eq!(strided(lower::Policy::Scheduler), 2);
    // the original still agrees with the interpreter (one thread and three
    // workers)
    let (k, c, pieces) = compiled(&f);
    for n in [1, 2, 5, 7, 12] {
        let a = vec![format!("n={n}")];
        both_agree(&f, &k, &c, &pieces, &a, &format!("col n={n}"));
    }
}

#[test]
fn a_schedule_that_reverses_a_dependence_is_refused() {
    let src = "void r(int N, double A[N]) {
      for (int i = 1; i < N; i++) A[i] = A[i - 1] + 1;
    }";
    let front = lower::front(src).unwrap();
    let good = lower::original_schedule(&front.model).unwrap();
    assert!(lower::respects_dependences(&front.model, &good).unwrap());
    let bad: presburger::UnionMap = "[N] -> { S0[i] -> [-i] }".parse().unwrap();
    assert!(!lower::respects_dependences(&front.model, &bad).unwrap());
    // all instances at one time: the dependence is not ordered
    let flat: presburger::UnionMap = "[N] -> { S0[i] -> [0] }".parse().unwrap();
    assert!(!lower::respects_dependences(&front.model, &flat).unwrap());
}

#[test]
fn dependences_are_checked_over_the_models_context() {
    // the context says K >= 0 (the extent of B): S2 at time K after S0 at 0
    // is valid, though a negative K would reverse them
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/corpus/c_kernel/sum_products_scalar.c"),
    )
    .unwrap();
    let front = lower::front(&src).unwrap();
    let at = |s2: &str| -> presburger::UnionMap {
        format!("[N, K] -> {{ S0[i] -> [i, 0, 0]; S1[i, k] -> [i, k, 1]; S2[i] -> [i, {s2}, 2] }}")
            .parse()
            .unwrap()
    };
    assert!(lower::respects_dependences(&front.model, &at("K")).unwrap());
    // K - 1 reverses them at K = 0, inside the context
    assert!(!lower::respects_dependences(&front.model, &at("K - 1")).unwrap());
}
