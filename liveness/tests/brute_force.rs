//! The symbolic conflicts, allocations and counts against the brute-force
//! oracle (`liveness::reference`) at small parameter values, on the shared
//! kernels and on kernels written for the corner cases.

use std::collections::BTreeSet;

use liveness::reference::Run;
use liveness::{analyze, Allocation};
use presburger::Int;

/// Local array reused per iteration (sequential: no conflict at all).
const REUSE: &str = "void k(int N, double A[N], double B[N]) {
  double t[N];
  for (int i = 0; i < N; i++) {
    t[i] = A[i];
    B[i] = t[i] * t[i];
  }
}";

/// The same loop, parallel: the iterations' live values all conflict.
const REUSE_PAR: &str = "void k(int N, double A[N], double B[N]) {
  double t[N];
  #pragma omp parallel for
  for (int i = 0; i < N; i++) {
    t[i] = A[i];
    B[i] = t[i] * t[i];
  }
}";

/// A local read before it is written (START values), dead writes, `+=`.
const LIVE_IN: &str = "void k(int N, double A[N], double B[N]) {
  double t[N];
  for (int i = 0; i < N; i++)
    B[i] = t[i];
  for (int i = 0; i < N; i++)
    t[i] = A[i];
  for (int i = 0; i < N; i++)
    t[i] = 2.0 * A[i];
  for (int i = 1; i < N; i++)
    B[i] += t[i - 1];
}";

/// Nested parallel loops, a condition, a compound assignment.
const NESTED: &str = "void k(int N, int M, double A[N][M], double C[N]) {
  double u[N][M];
  #pragma omp parallel for
  for (int i = 0; i < N; i++)
    #pragma omp parallel for
    for (int j = 0; j < M; j++)
      u[i][j] = A[i][j] + 1.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (j <= i)
        C[i] += u[i][j] * u[i][M - 1 - j];
}";

/// A time loop with a rolling buffer and a parallel space loop.
const ROLLING: &str = "void k(int T, int N, double A[N]) {
  double X[T + 1][N];
  for (int i = 0; i < N; i++)
    X[0][i] = A[i];
  for (int t = 0; t < T; t++) {
    #pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      X[t + 1][i] = X[t][i - 1] + X[t][i + 1];
    X[t + 1][0] = X[t][0];
    X[t + 1][N - 1] = X[t][N - 1];
  }
  for (int i = 0; i < N; i++)
    A[i] = X[T][i];
}";

/// Batches of skewed wavefronts through one 3-d local array: only the
/// greedy reduced basis finds the single coordinate `j - k` (the canonical
/// basis keeps two).
const BATCHED_WAVEFRONT: &str =
    "void k(int B, int N, int M, double top[B][M], double left[B][N], double out[B][M]) {
  double W[B][N][M];
  for (int b = 0; b < B; b++) {
    for (int j = 0; j < M; j++)
      W[b][0][j] = top[b][j];
    for (int i = 1; i < N; i++)
      W[b][i][0] = left[b][i];
    for (int d = 2; d <= N + M - 2; d++) {
      #pragma omp parallel for
      for (int i = max(1, d - M + 1); i <= min(N - 1, d - 1); i++)
        W[b][i][d - i] = 0.5 * (W[b][i - 1][d - i] + W[b][i][d - i - 1]);
    }
    for (int j = 0; j < M; j++)
      out[b][j] = W[b][N - 1][j];
  }
}";

/// A time-expanded 3-d sweep through a 4-d local array (two time steps
/// live at once).
const EXPANDED_4D: &str = "void k(int T, int N, double A[N][N][N], double B[N][N][N]) {
  double X[T + 1][N][N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        X[0][i][j][k] = A[i][j][k];
  for (int t = 0; t < T; t++) {
    #pragma omp parallel for
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        X[t + 1][i][j][0] = X[t][i][j][0];
    #pragma omp parallel for
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        for (int k = 1; k < N; k++)
          X[t + 1][i][j][k] = X[t][i][j][k - 1] + X[t][i][j][k];
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        B[i][j][k] = X[T][i][j][k];
}";

fn shared(name: &str) -> String {
    let p = testkit::shared_path(&format!("liveness/{name}.c")).expect("shared kernel");
    std::fs::read_to_string(p).unwrap()
}

fn image(a: &Allocation, x: &[i64]) -> Vec<i64> {
    a.image(x)
}

fn check(src: &str, params: &[&str], values: &[Vec<i64>], sequential: bool) {
    let a = analyze(src, sequential).unwrap();
    for vals in values {
        let named: Vec<(&str, i64)> = params.iter().copied().zip(vals.iter().copied()).collect();
        let run = Run::new(src, &named, !sequential).unwrap();
        let truth = run.conflicts();
        let cells = run.cells();
        for r in &a.arrays {
            let mine: BTreeSet<&Vec<i64>> = cells
                .iter()
                .filter(|c| c.0 == r.name)
                .map(|c| &c.1)
                .collect();
            let (before, after) = r.allocation.count(&r.cells, &named).unwrap();
            assert_eq!(before as usize, mine.len(), "{} cells at {vals:?}", r.name);
            let images: BTreeSet<Vec<i64>> = mine.iter().map(|x| image(&r.allocation, x)).collect();
            assert_eq!(
                after as usize,
                images.len(),
                "{} storage at {vals:?}",
                r.name
            );
            let mut count = 0;
            for x in &mine {
                for y in &mine {
                    if x == y {
                        continue;
                    }
                    let key = (
                        (r.name.clone(), (*x).clone()),
                        (r.name.clone(), (*y).clone()),
                    );
                    let want = truth.contains(&key);
                    let point: Vec<Int> = vals
                        .iter()
                        .chain(x.iter())
                        .chain(y.iter())
                        .map(|&v| Int::from(v))
                        .collect();
                    let got = r.conflict.contains_point(&point).unwrap();
                    assert_eq!(
                        got, want,
                        "{}: {x:?} {y:?} at {vals:?} (seq {sequential})",
                        r.name
                    );
                    if want {
                        count += 1;
                        assert_ne!(
                            image(&r.allocation, x),
                            image(&r.allocation, y),
                            "{}",
                            r.name
                        );
                    }
                }
            }
            // nothing outside the written cells
            let fixed =
                (0..vals.len()).fold(r.conflict.clone(), |m, k| m.fix_var(k, &Int::from(vals[k])));
            assert_eq!(
                fixed.card().unwrap().to_string(),
                count.to_string(),
                "{} at {vals:?}",
                r.name
            );
        }
    }
}

fn grid(ranges: &[std::ops::RangeInclusive<i64>]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for r in ranges {
        out = out
            .into_iter()
            .flat_map(|v| r.clone().map(move |x| [v.clone(), vec![x]].concat()))
            .collect();
    }
    out
}

#[test]
fn reuse_sequential_and_parallel() {
    for seq in [true, false] {
        check(REUSE, &["N"], &grid(&[0..=4]), seq);
        check(REUSE_PAR, &["N"], &grid(&[0..=4]), seq);
    }
    let a = analyze(REUSE, false).unwrap();
    let t = a.arrays.iter().find(|x| x.name == "t").unwrap();
    assert!(t.conflict.is_empty().unwrap());
    let a = analyze(REUSE_PAR, false).unwrap();
    let t = a.arrays.iter().find(|x| x.name == "t").unwrap();
    assert!(t.allocation.is_identity());
}

#[test]
fn live_in_dead_writes_compound() {
    for seq in [true, false] {
        check(LIVE_IN, &["N"], &grid(&[0..=4]), seq);
    }
}

#[test]
fn nested_parallel_with_condition() {
    for seq in [true, false] {
        check(NESTED, &["N", "M"], &grid(&[0..=3, 0..=3]), seq);
    }
}

#[test]
fn rolling_buffer() {
    for seq in [true, false] {
        check(ROLLING, &["T", "N"], &grid(&[0..=3, 1..=5]), seq);
    }
    let a = analyze(ROLLING, false).unwrap();
    let x = a.arrays.iter().find(|x| x.name == "X").unwrap();
    assert_eq!(
        x.allocation.to_string(),
        "[T, N] -> { X[c0, c1] -> X[c0 mod 2, c1] }"
    );
}

#[test]
fn batched_wavefront_in_three_dimensions() {
    check(
        BATCHED_WAVEFRONT,
        &["B", "N", "M"],
        &grid(&[1..=2, 1..=4, 1..=4]),
        false,
    );
    let a = analyze(BATCHED_WAVEFRONT, false).unwrap();
    let w = a.arrays.iter().find(|x| x.name == "W").unwrap();
    assert_eq!(
        w.allocation.to_string(),
        "[B, N, M] -> { W[c0, c1, c2] -> W[c1 - c2] }"
    );
    let counts = w
        .allocation
        .count(&w.cells, &[("B", 3), ("N", 6), ("M", 7)])
        .unwrap();
    assert_eq!(counts, (126, 12));
    // the contracted program computes the same values
    let p: Vec<String> = ["B=3", "N=6", "M=7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let f = scop::parse_kernel(BATCHED_WAVEFRONT).unwrap();
    assert_eq!(
        liveness::interp_contracted(BATCHED_WAVEFRONT, &p).unwrap(),
        liveness::interp_function(&f, &p).unwrap()
    );
}

#[test]
fn time_expanded_in_four_dimensions() {
    check(EXPANDED_4D, &["T", "N"], &grid(&[0..=2, 1..=2]), false);
    let a = analyze(EXPANDED_4D, false).unwrap();
    let x = a.arrays.iter().find(|x| x.name == "X").unwrap();
    assert_eq!(
        x.allocation.to_string(),
        "[T, N] -> { X[c0, c1, c2, c3] -> X[c0 mod 2, c1, c2, c3] }"
    );
    let p: Vec<String> = ["T=3", "N=4"].iter().map(|s| s.to_string()).collect();
    let f = scop::parse_kernel(EXPANDED_4D).unwrap();
    assert_eq!(
        liveness::interp_contracted(EXPANDED_4D, &p).unwrap(),
        liveness::interp_function(&f, &p).unwrap()
    );
}

#[test]
fn shared_kernels() {
    check(
        &shared("jacobi_expanded"),
        &["T", "N"],
        &grid(&[0..=3, 1..=5]),
        false,
    );
    check(
        &shared("jacobi_expanded"),
        &["T", "N"],
        &grid(&[1..=2, 2..=4]),
        true,
    );
    check(
        &shared("smooth_rows"),
        &["N", "M"],
        &grid(&[0..=3, 0..=4]),
        false,
    );
    check(
        &shared("smooth_rows"),
        &["N", "M"],
        &grid(&[1..=2, 1..=4]),
        true,
    );
    check(
        &shared("wavefront_diag"),
        &["N", "M"],
        &grid(&[1..=4, 1..=4]),
        false,
    );
    check(
        &shared("wavefront_diag"),
        &["N", "M"],
        &grid(&[1..=3, 1..=3]),
        true,
    );
}

#[test]
fn across_arrays() {
    use liveness::{conflicts_all, LiveRanges, Order};
    let srcs = [
        REUSE.to_string(),
        REUSE_PAR.to_string(),
        LIVE_IN.to_string(),
        shared("smooth_rows"),
    ];
    let params: [&[&str]; 4] = [&["N"], &["N"], &["N"], &["N", "M"]];
    for (src, ps) in srcs.iter().zip(params) {
        let m = scop::Model::from_source(src).unwrap();
        let seq = Order::sequential(&m).unwrap();
        let r = LiveRanges::of(&m, &seq).unwrap();
        let all = conflicts_all(&Order::parallel(&m).unwrap(), &r).unwrap();
        let ranges: Vec<std::ops::RangeInclusive<i64>> = ps.iter().map(|_| 0..=3).collect();
        for vals in grid(&ranges) {
            let named: Vec<(&str, i64)> = ps.iter().copied().zip(vals.iter().copied()).collect();
            let run = Run::new(src, &named, true).unwrap();
            let truth = run.conflicts_all();
            // every enumerated pair is in the symbolic relation, and the counts agree
            for ((a, x), (b, y)) in &truth {
                let part = all
                    .maps()
                    .iter()
                    .find(|mp| {
                        mp.space().domain.as_ref().unwrap().name.as_deref() == Some(a.as_str())
                            && mp.space().range.name.as_deref() == Some(b.as_str())
                    })
                    .unwrap_or_else(|| panic!("{a} -> {b} missing"));
                let point: Vec<Int> = vals
                    .iter()
                    .chain(x)
                    .chain(y)
                    .map(|&v| Int::from(v))
                    .collect();
                assert!(
                    part.contains_point(&point).unwrap(),
                    "{a}{x:?} {b}{y:?} at {vals:?}"
                );
            }
            let mut n = 0usize;
            for mp in all.maps() {
                let fixed =
                    (0..vals.len()).fold(mp.clone(), |m, k| m.fix_var(k, &Int::from(vals[k])));
                n += fixed.card().unwrap().to_string().parse::<usize>().unwrap();
            }
            assert_eq!(n, truth.len(), "at {vals:?}");
        }
    }
}
