//! Replays the stored fuzz corpus (`fuzz/corpus/<target>/*`) through the
//! fuzz-target bodies, so regressions found by fuzzing are caught by a plain
//! `cargo test` (and by CI without cargo-fuzz). The `calc` target needs the
//! calculator, so its corpus is replayed by the `calc` crate's tests (`calc/tests/calc.rs`).

use testkit::fuzz::{corpus, replay, run, TARGETS};

#[test]
fn parse_roundtrip_corpus() {
    replay("parse_roundtrip", |d| run("parse_roundtrip", d));
}

#[test]
fn set_identities_corpus() {
    replay("set_identities", |d| run("set_identities", d));
}

#[test]
fn brute_force_corpus() {
    replay("brute_force", |d| run("brute_force", d));
}

#[test]
fn lexopt_corpus() {
    replay("lexopt", |d| run("lexopt", d));
}

#[test]
fn simplify_corpus() {
    replay("simplify", |d| run("simplify", d));
}

#[test]
fn c_kernel_corpus() {
    replay("c_kernel", |d| run("c_kernel", d));
}

#[test]
fn interp_corpus() {
    replay("interp", |d| run("interp", d));
}

/// The `interp` check is not vacuous: on the kernels of its corpus, the
/// executed instances are compared with the domains at most of the
/// parameter values, and the early-return kernel is compared only where
/// its `return;` does not run (the model is exact there).
#[test]
fn interp_compares_instances() {
    let mut compared = 0;
    let mut points = 0;
    for (name, data) in corpus("interp") {
        let n = testkit::fuzz::interp_checks(&data);
        let src = String::from_utf8(data).unwrap();
        let np = scop::parse_kernel(&src)
            .map(|f| {
                f.params
                    .iter()
                    .filter(|p| matches!(p.kind, scop::ast::ParamKind::Int(_)))
                    .count()
            })
            .unwrap_or(0);
        assert!(n <= testkit::fuzz::param_points(np).len(), "{name}");
        compared += n;
        points += testkit::fuzz::param_points(np).len();
    }
    assert!(
        2 * compared > points,
        "compared at {compared} of {points} parameter values"
    );
    let early = corpus("interp")
        .into_iter()
        .find(|(n, _)| n == "opt_early.c")
        .unwrap()
        .1;
    // (n, m) at (0, 0), (1, 1), (2, 2), (3, 3) and (1, 2): i > m never holds for i < n,
    // the model is exact; at (3, 1) the return runs (at i = 2 > 1)
    assert_eq!(testkit::fuzz::interp_checks(&early), 5);
}

#[test]
fn schedule_constraints_corpus() {
    replay("schedule_constraints", |d| run("schedule_constraints", d));
}

#[test]
fn codegen_input_corpus() {
    replay("codegen_input", |d| run("codegen_input", d));
}

/// Every target file in `fuzz/fuzz_targets/` is listed in `TARGETS` and has a corpus.
#[test]
fn every_target_has_a_corpus() {
    let dir = testkit::workspace_dir().join("fuzz/fuzz_targets");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = TARGETS.iter().map(|t| t.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
    for t in TARGETS {
        assert!(!corpus(t).is_empty(), "no corpus for {t}");
    }
}
