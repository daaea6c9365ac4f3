//! Cross-checks between the symbolic forms: Live × Write against the
//! classic Live × Live overlap (sequential order), and the general partial
//! order given as a relation against the schedule-derived orders.

use liveness::{conflicts, conflicts_live_live, LiveRanges, Order};

const KERNELS: &[&str] = &[
    "void k(int N, double A[N], double B[N]) {
      double t[N];
      for (int i = 0; i < N; i++) { t[i] = A[i]; B[i] = t[i] * t[i]; } }",
    "void k(int N, double A[N], double B[N]) {
      double t[N];
      for (int i = 0; i < N; i++) B[i] = t[i];
      for (int i = 0; i < N; i++) t[i] = A[i];
      for (int i = 0; i < N; i++) t[i] = 2.0 * A[i];
      for (int i = 1; i < N; i++) B[i] += t[i - 1]; }",
    "void k(int N, int M, double A[N][M], double C[N]) {
      double u[N][M];
      #pragma omp parallel for
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          u[i][j] = A[i][j] + 1.0;
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          if (j <= i) C[i] += u[i][j] * u[i][M - 1 - j]; }",
];

fn sources() -> Vec<String> {
    let mut v: Vec<String> = KERNELS.iter().map(|s| s.to_string()).collect();
    for k in ["jacobi_expanded", "smooth_rows", "wavefront_diag"] {
        let p = testkit::shared_path(&format!("liveness/{k}.c")).expect("shared kernel");
        v.push(std::fs::read_to_string(p).unwrap());
    }
    v
}

#[test]
fn live_write_equals_live_live_sequentially() {
    for src in sources() {
        let m = scop::Model::from_source(&src).unwrap();
        let seq = Order::sequential(&m).unwrap();
        let r = LiveRanges::of(&m, &seq).unwrap();
        let a = conflicts(&m, &seq, &r).unwrap();
        let b = conflicts_live_live(&m, &seq, &r).unwrap();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.name, y.name);
            assert!(
                x.conflict.is_equal(&y.conflict).unwrap(),
                "{}: {} vs {}",
                x.name,
                x.conflict,
                y.conflict
            );
        }
    }
}

#[test]
fn general_order_agrees_with_schedule_orders() {
    for src in sources() {
        let m = scop::Model::from_source(&src).unwrap();
        let seq = Order::sequential(&m).unwrap();
        let r = LiveRanges::of(&m, &seq).unwrap();
        for o in [seq.clone(), Order::parallel(&m).unwrap()] {
            let g = Order::from_relation(m.domain(), o.before()).unwrap();
            assert!(g.incomparable().is_equal(o.incomparable()).unwrap());
            let a = conflicts(&m, &o, &r).unwrap();
            let b = conflicts(&m, &g, &r).unwrap();
            for (x, y) in a.iter().zip(&b) {
                assert!(x.conflict.is_equal(&y.conflict).unwrap(), "{}", x.name);
            }
        }
    }
}

#[test]
fn parallel_conflicts_contain_sequential_ones() {
    for src in sources() {
        let m = scop::Model::from_source(&src).unwrap();
        let seq = Order::sequential(&m).unwrap();
        let r = LiveRanges::of(&m, &seq).unwrap();
        let a = conflicts(&m, &seq, &r).unwrap();
        let b = conflicts(&m, &Order::parallel(&m).unwrap(), &r).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert!(x.conflict.is_subset(&y.conflict).unwrap(), "{}", x.name);
        }
    }
}

#[test]
fn irreflexive_orders_only() {
    let m = scop::Model::from_source(KERNELS[0]).unwrap();
    let bad: presburger::UnionMap = "[N] -> { S0[i] -> S0[i] }".parse().unwrap();
    assert!(Order::from_relation(m.domain(), &bad).is_err());
}

#[test]
fn orders_must_be_transitive() {
    let m = scop::Model::from_source(KERNELS[1]).unwrap();
    // a covering relation is not a partial order: S0 -> S1 -> S2 without S0 -> S2
    let cover: presburger::UnionMap = "[N] -> { S0[i] -> S1[i]; S1[i] -> S2[i] }".parse().unwrap();
    assert!(Order::from_relation(m.domain(), &cover).is_err());
    let closed: presburger::UnionMap = "[N] -> { S0[i] -> S1[i]; S1[i] -> S2[i]; S0[i] -> S2[i] }"
        .parse()
        .unwrap();
    assert!(Order::from_relation(m.domain(), &closed).is_ok());
}

/// A partial order given through the API (only `S0[i] ≺ S1[i]`: the
/// iterations are independent) gives the conflicts of the same loop marked
/// `#pragma omp parallel for`.
#[test]
fn a_relation_order_equals_the_pragma_order() {
    let seq = scop::Model::from_source(KERNELS[0]).unwrap();
    let par_src = KERNELS[0].replace("for (int i", "#pragma omp parallel for\n      for (int i");
    let par = scop::Model::from_source(&par_src).unwrap();
    let rel: presburger::UnionMap = "[N] -> { S0[i] -> S1[i] }".parse().unwrap();
    let mine = Order::from_relation(seq.domain(), &rel).unwrap();
    let ranges = LiveRanges::of(&seq, &Order::sequential(&seq).unwrap()).unwrap();
    let a = conflicts(&seq, &mine, &ranges).unwrap();
    let pr = LiveRanges::of(&par, &Order::sequential(&par).unwrap()).unwrap();
    let b = conflicts(&par, &Order::parallel(&par).unwrap(), &pr).unwrap();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!(
            x.conflict.is_equal(&y.conflict).unwrap(),
            "{}: {} vs {}",
            x.name,
            x.conflict,
            y.conflict
        );
    }
    let t = a.iter().find(|x| x.name == "t").unwrap();
    assert!(!t.conflict.is_empty().unwrap());
}
