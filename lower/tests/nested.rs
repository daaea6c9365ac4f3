//! Parallel loops inside sequential loops (`lower::Nest`): the driver runs
//! the sequential loops, each parallel instance runs on the workers with a
//! barrier after it, the statements outside the parallel loops once, in
//! order. Checked against the interpreter (relative 1e-9) on every kernel
//! at random small sizes with 1, 2 and 3 workers, every instance on the
//! team (threshold 0).

mod common;
use common::{agree, kernels, sizes_in_bounds};

/// The pieces `poly run` compiles for several threads.
fn pieces(front: &lower::Front) -> (lower::Kernel, Vec<lower::Piece>) {
    let (k, node, copies) = lower::prepare(front).unwrap();
    let par = |n: &ast::Node, l: usize| front.parallel_in(n, l);
    let p = lower::compile_pieces(&k, &node, &par, &copies).unwrap();
    (k, p)
}

fn parallel_leaves(p: &[lower::Piece]) -> usize {
    p.iter()
        .filter_map(|x| x.nested.as_ref())
        .map(|n| n.leaves.iter().filter(|l| l.parallel).count())
        .sum()
}

fn run(
    front: &lower::Front,
    k: &lower::Kernel,
    p: &[lower::Piece],
    a: &[String],
    repeat: usize,
    threads: usize,
    threshold: u128,
) -> String {
    let cx = lower::RunContext {
        kernel: k,
        function: &front.function,
        assignments: a,
        repeat,
        threads,
        min_threaded_ns: threshold,
    };
    lower::run_pieces(p, &cx, &mut |_, _| {}).unwrap().checksums
}

#[test]
fn nests_on_one_two_and_three_workers_agree_with_the_interpreter() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut nested = Vec::new();
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let front = lower::front(&src).unwrap();
        let (k, p) = pieces(&front);
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if parallel_leaves(&p) > 0 {
            nested.push(name.clone());
        }
        let mut tried = 0;
        while tried < 3 {
            tried += 1;
            let Some((a, _)) = sizes_in_bounds(&front, &mut seed, 1, 14) else {
                continue;
            };
            let want = scop::commands::interp_function(&front.function, &a).unwrap();
            for threads in 1..=3 {
                let got = run(&front, &k, &p, &a, 1, threads, 0);
                agree(&want, &got, &format!("{name} {a:?} on {threads} workers"));
            }
        }
    }
    // the time-iterated stencils have their sweeps on the workers
    // (heat_3d's sweeps are fused, on one thread: `choice`, `fuse`)
    for must in ["jacobi_1d", "fdtd_2d"] {
        assert!(nested.iter().any(|n| n == must), "{must} in {nested:?}");
    }
}

#[test]
fn statements_between_parallel_loops_run_once_in_order() {
    // per k: a scalar and C[k] updated once (run twice, the checksums
    // would differ), then a parallel sweep over the trailing block whose
    // bounds depend on k, then x[k] reads what the sweep wrote
    let src = "void tri(int N, double A[N][N], double x[N], double C[N]) {
      double s = 0.0;
      for (int k = 0; k < N; k++) {
        s = s + x[k];
        C[k] = C[k] * 2.0 + s;
        for (int i = k + 1; i < N; i++)
          for (int j = k + 1; j < N; j++)
            A[i][j] = A[i][j] - A[i][k] * A[k][j] / (A[k][k] + N);
        x[k] = x[k] + A[N - 1][N - 1];
      }
    }";
    let front = lower::front_with(src, lower::Policy::Original).unwrap();
    let (k, p) = pieces(&front);
    assert!(parallel_leaves(&p) >= 1);
    for n in [1, 2, 5, 17, 40] {
        let a = [format!("N={n}")];
        let want = scop::commands::interp_function(&front.function, &a).unwrap();
        for threads in 1..=3 {
            agree(
                &want,
                &run(&front, &k, &p, &a, 1, threads, 0),
                &format!("N={n} T={threads}"),
            );
        }
    }
}

#[test]
fn a_parallel_loop_two_sequential_loops_deep_is_split() {
    // t and s carry dependences (B feeds A back); i does not
    let src = "void two(int T, int S, int N, double A[N], double B[N]) {
      for (int t = 0; t < T; t++)
        for (int s = 0; s < S; s++) {
          for (int i = 1; i < N - 1; i++)
            B[i] = 0.25 * (A[i - 1] + 2.0 * A[i] + A[i + 1]) + s;
          for (int i = 1; i < N - 1; i++)
            A[i] = B[i] - 0.125 * t;
        }
    }";
    let front = lower::front_with(src, lower::Policy::Original).unwrap();
    let (k, p) = pieces(&front);
    assert_eq!(parallel_leaves(&p), 2);
    assert!(p
        .iter()
        .any(|x| x.nested.as_ref().is_some_and(|n| n.depth == 2)));
    for (t, s, n) in [(3, 4, 30), (1, 1, 3), (2, 5, 101)] {
        let a = [format!("T={t}"), format!("S={s}"), format!("N={n}")];
        let want = scop::commands::interp_function(&front.function, &a).unwrap();
        for threads in 2..=3 {
            agree(
                &want,
                &run(&front, &k, &p, &a, 1, threads, 0),
                &format!("{a:?}"),
            );
        }
    }
}

#[test]
fn many_short_instances_and_the_run_time_choice_agree() {
    // jacobi_1d with many time steps: thousands of jobs for the team; with
    // a positive threshold the runs alternate between one function and the
    // nest (each run from fresh inputs, the last one's checksums printed)
    let src = "void jacobi_1d(int T, int N, double A[N], double B[N]) {
      for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
          B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1]);
        for (int i = 1; i < N - 1; i++)
          A[i] = 0.33333 * (B[i-1] + B[i] + B[i+1]);
      }
    }";
    let front = lower::front(src).unwrap();
    let (k, p) = pieces(&front);
    assert_eq!(parallel_leaves(&p), 2);
    for (t, n) in [(700, 40), (50, 3000)] {
        let a = [format!("T={t}"), format!("N={n}")];
        let want = scop::commands::interp_function(&front.function, &a).unwrap();
        for threads in 2..=3 {
            for (repeat, threshold) in [(1, 0), (4, 1), (3, 1_000_000)] {
                let got = run(&front, &k, &p, &a, repeat, threads, threshold);
                agree(
                    &want,
                    &got,
                    &format!("{a:?} T={threads} threshold {threshold}"),
                );
            }
        }
    }
}
