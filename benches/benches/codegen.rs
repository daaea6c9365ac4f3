//! AST generation (`ast` crate) on the shared `isl_codegen` inputs
//! (`../shared/codegen/cases`): one benchmark per input that `ast`
//! handles within a small budget (`codegen/NAME`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn inputs() -> Vec<(String, PathBuf)> {
    let Some(dir) = testkit::shared_path("codegen/cases") else {
        return vec![];
    };
    let mut out = Vec::new();
    for d in [dir.clone(), dir.join("pldi2012")] {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        for p in v {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "in" || ext == "st" {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, p));
            }
        }
    }
    out
}

fn generate(path: &PathBuf) -> Option<ast::Node> {
    let text = std::fs::read_to_string(path).ok()?;
    presburger::budget::with_budget(200_000_000, || {
        if path.extension().is_some_and(|e| e == "st") {
            ast::generate_tree(&ast::parse_tree(&text).ok()?).ok()
        } else {
            let i = ast::parse_map_input(&text).ok()?;
            ast::generate(&i.schedule, &i.context).ok()
        }
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("codegen");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_millis(500));
    for (name, path) in inputs() {
        let t = Instant::now();
        if generate(&path).is_none() || t.elapsed() > Duration::from_secs(1) {
            continue; // unsupported or too slow for a short run
        }
        g.bench_function(&name, |b| b.iter(|| generate(&path)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
