//! `lower::run_adaptive`: the kernel as one function on the calling
//! thread while it is short, else as pieces on the team. Whichever runs,
//! the arrays are refilled before each run and the last run's checksums
//! must be the interpreter's: with the threshold 0 the first run is the
//! one function and the later ones the pieces on three workers (every
//! parallel loop on the team from its first instance), with the largest
//! threshold every run is the one function.

mod common;
use common::{agree, compiled};

/// Kernels with parallel loops: top-level ones (tiled_mix, gemm's
/// contraction) and inside a time loop (jacobi_1d's sweeps, a nest).
const NAMES: [&str; 4] = ["tiled_mix", "jacobi_1d", "gemm", "fdtd_2d"];

#[test]
fn one_function_then_pieces_compute_the_interpreters_checksums() {
    let mut ran = 0;
    for path in common::kernels() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if !NAMES.contains(&name.as_str()) {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let front = lower::front(&src).unwrap();
        let (k, c, pieces) = compiled(&front);
        assert!(
            pieces.iter().any(|p| p.parallel || p.nested.is_some()),
            "{name}: no parallel loop"
        );
        for n in [7, 12] {
            let assignments: Vec<String> = front
                .model
                .params()
                .iter()
                .map(|p| format!("{p}={n}"))
                .collect();
            let (ints, _) = lower::parse_assignments(&front.function, &assignments).unwrap();
            if !lower::accesses_in_bounds(&front.model, &ints).unwrap() {
                continue;
            }
            let want = scop::commands::interp_function(&front.function, &assignments).unwrap();
            for threshold in [0, u128::MAX] {
                let cx = lower::RunContext {
                    kernel: &k,
                    function: &front.function,
                    assignments: &assignments,
                    repeat: 3,
                    threads: 3,
                    min_threaded_ns: 0,
                };
                let got = lower::run_adaptive(&c, &pieces, &cx, threshold, &mut |_, _| {}).unwrap();
                agree(
                    &want,
                    &got.checksums,
                    &format!("{name} n={n} threshold {threshold}"),
                );
                ran += 1;
            }
        }
    }
    assert!(ran >= 8, "{ran} runs");
}
