//! The engine trace corpus of issue 22 (`benches/corpus/trace.jsonl`, the
//! operations the pipeline performs on the kernels, recorded with the
//! `trace` feature of `presburger`) and its derived complement and
//! equality cases (`benches/corpus/derived.jsonl`, `benches/trace_derive.py`):
//! one benchmark per op, each running every case of that op once (inputs
//! parsed beforehand).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use testkit::corpus::trace_corpus;
use testkit::ops::{prepare, run, Prepared};

fn trace(c: &mut Criterion) {
    let cases = trace_corpus();
    let mut ops: Vec<&str> = cases.iter().map(|c| c.op.as_str()).collect();
    ops.sort();
    ops.dedup();
    let mut g = c.benchmark_group("trace");
    for op in ops {
        let prepared: Vec<Prepared> = cases
            .iter()
            .filter(|c| c.op == op)
            .map(|c| prepare(c).expect("inputs parse"))
            .collect();
        g.bench_function(op, |b| {
            b.iter(|| {
                for p in &prepared {
                    black_box(run(p).is_ok());
                }
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = trace
}
criterion_main!(benches);
