//! `scheduler::compute_schedule` on the shared schedule-constraints files
//! (`../shared/schedule/**/*.sc`); compare with `benches/isl_schedule.py`
//! (islpy's `ScheduleConstraints.compute_schedule` on the same files).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use scheduler::{compute_schedule, Options, ScheduleConstraints};

fn files() -> Vec<(String, ScheduleConstraints)> {
    let Some(dir) = testkit::shared_path("schedule") else {
        eprintln!("note: shared folder missing, nothing to bench");
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in ["isl", "kernels", "handmade"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        let mut paths: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "sc"))
        {
            let text = std::fs::read_to_string(&p).expect("read");
            let sc: ScheduleConstraints = text.parse().expect("constraints");
            let name = format!("{sub}/{}", p.file_stem().unwrap().to_string_lossy());
            out.push((name, sc));
        }
    }
    out
}

fn schedule(c: &mut Criterion) {
    let mut g = c.benchmark_group("schedule");
    let opts = Options::default();
    for (name, sc) in files() {
        g.bench_with_input(BenchmarkId::from_parameter(&name), &sc, |b, sc| {
            b.iter(|| black_box(compute_schedule(sc, &opts).expect("schedule")))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_millis(600));
    targets = schedule
}
criterion_main!(benches);
