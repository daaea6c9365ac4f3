//! The engine trace corpus of issue 22 (`benches/corpus/trace.jsonl`, the
//! operations the pipeline performs on the kernels, recorded with the
//! `trace` feature of `presburger`) and its derived complement and
//! equality cases (`benches/corpus/derived.jsonl`, `benches/trace_derive.py`):
//! one benchmark per op, each running every case of that op once (inputs
//! parsed beforehand).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use testkit::corpus::read_cases;
use testkit::ops::{prepare, run, Prepared};

fn trace(c: &mut Criterion) {
    let mut cases = Vec::new();
    for name in ["trace.jsonl", "derived.jsonl"] {
        let path = format!("{}/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("a corpus file of benches/corpus");
        cases.extend(read_cases(&text).expect("case file"));
    }
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
