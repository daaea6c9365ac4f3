//! Non-parametric lexmin of sparse bounded polytopes (dimension 2 to 12,
//! 2d extra constraints), and emptiness of dependence-style intersections
//! (source before sink, same element; depth 1 to 3; non-empty, empty by
//! parity, empty by order): repeated on one parsed relation (`is_empty_dependence`)
//! and decided from scratch on each disjunct (`decide_dependence`).

use std::time::Duration;

use benches::{dependence, dependence_disjuncts, sparse_polytope};
use criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use presburger::{BasicMap, UnionMap};

fn lexmin(c: &mut Criterion) {
    let mut g = c.benchmark_group("lexmin_polytope");
    for d in [2usize, 4, 6, 8, 10, 12] {
        let s: UnionMap = sparse_polytope(d, 42 + d as u64)
            .parse()
            .expect("polytope parses");
        g.bench_with_input(BenchmarkId::from_parameter(d), &s, |b, s| {
            b.iter(|| black_box(s.lexmin().expect("bounded")))
        });
    }
    g.finish();
}

fn emptiness(c: &mut Criterion) {
    let mut g = c.benchmark_group("is_empty_dependence");
    for depth in 1..=3 {
        for (parity, what) in [(0, "nonempty"), (1, "empty"), (2, "empty_by_order")] {
            let r: UnionMap = dependence(depth, parity).parse().expect("relation parses");
            g.bench_with_input(BenchmarkId::new(what, depth), &r, |b, r| {
                b.iter(|| black_box(r.is_empty().expect("decidable")))
            });
        }
    }
    g.finish();
}

/// Deciding emptiness from scratch: `BasicMap::is_empty` on each disjunct
/// of the same relations, parsed afresh (outside the timing) for every call,
/// so nothing is cached and no parser has settled anything.
fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("decide_dependence");
    for depth in 1..=3 {
        for (parity, what) in [(0, "nonempty"), (1, "empty"), (2, "empty_by_order")] {
            let texts = dependence_disjuncts(depth, parity);
            let parse = || -> Vec<BasicMap> {
                texts.iter().map(|t| t.parse().expect("disjunct")).collect()
            };
            g.bench_function(BenchmarkId::new(what, depth), |b| {
                b.iter_batched(
                    parse,
                    // returned, so that criterion drops the basic maps outside the timing
                    |bs| {
                        (
                            black_box(bs.iter().all(|b| b.is_empty().expect("decidable"))),
                            bs,
                        )
                    },
                    BatchSize::SmallInput,
                )
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = lexmin, emptiness, decide
}
criterion_main!(benches);
