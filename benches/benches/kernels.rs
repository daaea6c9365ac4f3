//! Per shared kernel (`../shared/kernels/*.model.json`): parametric lexmax of
//! the last-writer relation `{ sink -> source : same element, source before
//! sink }`, and the full dataflow analysis (`dataflow::compute_flow`).

use std::time::Duration;

use benches::{flow_info, models, writer_relation};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use dataflow::compute_flow;

fn last_writer(c: &mut Criterion) {
    let mut g = c.benchmark_group("lexmax_last_writer");
    for m in models() {
        let r = writer_relation(&m).expect("writer relation");
        g.bench_with_input(BenchmarkId::from_parameter(&m.name), &r, |b, r| {
            b.iter(|| black_box(r.lexmax().expect("lexmax")))
        });
    }
    g.finish();
}

fn flow(c: &mut Criterion) {
    let mut g = c.benchmark_group("dataflow");
    for m in models() {
        let info = flow_info(&m);
        g.bench_with_input(BenchmarkId::from_parameter(&m.name), &info, |b, info| {
            b.iter(|| black_box(compute_flow(info).expect("compute_flow")))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = last_writer, flow
}
criterion_main!(benches);
