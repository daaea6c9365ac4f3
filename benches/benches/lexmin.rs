//! Non-parametric lexmin of sparse bounded polytopes (dimension 2 to 12,
//! 2d extra constraints), and emptiness of dependence-style intersections
//! (source before sink, same element; depth 1 to 3; non-empty, empty by
//! parity, empty by order).

use std::time::Duration;

use benches::{dependence, sparse_polytope};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use presburger::UnionMap;

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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = lexmin, emptiness
}
criterion_main!(benches);
