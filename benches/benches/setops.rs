//! subtract, complement and coalesce on union sets: the first cases of each op
//! in `../shared/conformance/medium.jsonl` (skipped when it is missing).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use testkit::corpus::read_cases;
use testkit::ops::{prepare, run};

fn setops(c: &mut Criterion) {
    let path = testkit::shared_dir().join("conformance/medium.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} missing, skipping", path.display());
        return;
    };
    let cases = read_cases(&text).expect("case file");
    let mut g = c.benchmark_group("setops");
    for op in ["subtract", "complement", "coalesce"] {
        for case in cases.iter().filter(|c| c.op == op).take(4) {
            let p = prepare(case).expect("inputs parse");
            g.bench_with_input(BenchmarkId::new(op, &case.id), &p, |b, p| {
                b.iter(|| black_box(run(p).is_ok()))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = setops
}
criterion_main!(benches);
