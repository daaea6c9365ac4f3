//! DeLICM per kernel: zones, conflict tests and the greedy mapping
//! (`map_scalars`, parsing included) on the shared DeLICM kernels, and the
//! conflict-test protocol on the shared cases.
//!
//!     cargo bench -p delicm

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn kernels(c: &mut Criterion) {
    let Some(dir) = testkit::shared_path("delicm") else {
        eprintln!("note: ../shared/delicm missing; nothing to measure");
        return;
    };
    let mut g = c.benchmark_group("delicm");
    g.sample_size(10).measurement_time(Duration::from_secs(1));
    for f in testkit::files_with_suffix(&dir, ".c") {
        let src = std::fs::read_to_string(&f).unwrap();
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        g.bench_function(format!("map_scalars/{name}"), |b| {
            b.iter(|| delicm::map_scalars(&src, delicm::DEFAULT_BUDGET).unwrap())
        });
    }
    if let Some(p) = testkit::shared_path("delicm/conflicts.jsonl") {
        let text = std::fs::read_to_string(p).unwrap();
        let cases: Vec<(delicm::Side, delicm::Side)> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let c = testkit::json::Json::parse(l).unwrap();
                let side = |k: &str| {
                    let s = c.get(k).unwrap();
                    let f = |f: &str| s.get(f).and_then(testkit::json::Json::as_str);
                    delicm::Side::parse(f("occupied"), f("unused"), f("written")).unwrap()
                };
                (side("existing"), side("proposed"))
            })
            .collect();
        g.bench_function("conflicts/all_shared_cases", |b| {
            b.iter(|| {
                cases
                    .iter()
                    .filter(|(e, p)| delicm::conflict(e, p).unwrap())
                    .count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
