//! Helpers shared by the integration tests: checksum lines compared with
//! the interpreter's at a relative 1e-9 (vectorized loops reassociate
//! reductions; FMA rounds once where the C code rounds twice).
#![allow(dead_code)]

pub fn values(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .map(|l| {
            let (n, v) = l.split_once(' ').expect("NAME VALUE");
            (n.to_string(), v.parse().expect("a number"))
        })
        .collect()
}

pub fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The checksum lines `got` agree with the interpreter's `want` (same
/// arrays, values within [`close`]).
pub fn agree(want: &str, got: &str, what: &str) {
    let (w, g) = (values(want), values(got));
    assert_eq!(w.len(), g.len(), "{what}");
    for ((n, a), (m, b)) in w.iter().zip(&g) {
        assert_eq!(n, m, "{what}");
        assert!(
            close(*a, *b),
            "{what}: {n} {a} (interpreter) vs {b} (compiled)"
        );
    }
}

/// The shared kernels and the front end's test kernels (`*.c`), sorted; a
/// missing folder is noted and skipped.
pub fn kernels() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for dir in [
        root.join("../shared/kernels"),
        root.join("scop/tests/kernels"),
    ] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            // (issue 21) under CI a missing shared folder is a failure, not a skip
            assert!(
                !matches!(std::env::var("CI").as_deref(), Ok("true" | "1")),
                "the shared test data {} is missing, and CI is set: tests that need it fail under CI instead of passing vacuously (put `shared` beside the repository)",
                dir.display()
            );
            eprintln!("note: {} is missing", dir.display());
            continue;
        };
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "c") {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// Sizes for the parameters of `front`'s model, each drawn from
/// `lo ..= hi` by a linear congruential step of `seed`.
pub fn random_sizes(front: &lower::Front, seed: &mut u64, lo: u64, hi: u64) -> Vec<String> {
    front
        .model
        .params()
        .iter()
        .map(|p| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("{p}={}", lo + (*seed >> 33) % (hi - lo + 1))
        })
        .collect()
}

/// Integer and double values of parsed assignments.
pub type Values = (
    std::collections::HashMap<String, i64>,
    std::collections::HashMap<String, f64>,
);

/// [`random_sizes`] with their parsed values, or `None` when an access of
/// the model is out of bounds at them.
pub fn sizes_in_bounds(
    front: &lower::Front,
    seed: &mut u64,
    lo: u64,
    hi: u64,
) -> Option<(Vec<String>, Values)> {
    let assignments = random_sizes(front, seed, lo, hi);
    let (ints, dbls) = lower::parse_assignments(&front.function, &assignments).unwrap();
    lower::accesses_in_bounds(&front.model, &ints)
        .unwrap()
        .then_some((assignments, (ints, dbls)))
}

/// The one-function code `c` and the pieces `pieces` (on three workers)
/// compute the interpreter's checksums at `assignments`.
pub fn both_agree(
    front: &lower::Front,
    k: &lower::Kernel,
    c: &lower::Compiled,
    pieces: &[lower::Piece],
    assignments: &[String],
    what: &str,
) {
    let want = scop::commands::interp_function(&front.function, assignments).unwrap();
    let got = lower::run(c, k, &front.function, assignments, 1, &mut |_, _| {}).unwrap();
    agree(&want, &got.checksums, what);
    let cx = lower::RunContext {
        kernel: k,
        function: &front.function,
        assignments,
        repeat: 1,
        threads: 3,
        min_threaded_ns: 0,
    };
    let got = lower::run_pieces(pieces, &cx, &mut |_, _| {}).unwrap();
    agree(&want, &got.checksums, &format!("{what} (3 workers)"));
}

/// The compiled code (one function and pieces) agrees with the interpreter
/// at up to 40 random sizes in `0..=hi` drawn from `seed`; at least 20 of
/// them must fit the kernel's bounds.
pub fn agree_at_random_sizes(
    front: &lower::Front,
    (k, c, pieces): &(lower::Kernel, lower::Compiled, Vec<lower::Piece>),
    mut seed: u64,
    hi: u64,
) {
    let runs = agree_at_sizes(front, &(k, c, pieces), &mut seed, 40, (0, hi));
    assert!(runs >= 20, "{runs} runs");
}

/// The compiled code agrees with the interpreter ([`both_agree`]) at up to
/// `tries` random sizes in `lo..=hi` drawn from `seed`; the number of sizes
/// that fit the kernel's bounds (and were compared).
pub fn agree_at_sizes(
    front: &lower::Front,
    (k, c, pieces): &(&lower::Kernel, &lower::Compiled, &Vec<lower::Piece>),
    seed: &mut u64,
    tries: usize,
    (lo, hi): (u64, u64),
) -> usize {
    let mut runs = 0;
    for _ in 0..tries {
        let Some((assignments, _)) = sizes_in_bounds(front, seed, lo, hi) else {
            continue;
        };
        let what = format!("{} {assignments:?}", k.name);
        both_agree(front, k, c, pieces, &assignments, &what);
        runs += 1;
    }
    runs
}

/// `front` prepared and compiled as `poly run` does: one function, and the
/// pieces whose parallel outer loops are split among workers.
pub fn compiled(front: &lower::Front) -> (lower::Kernel, lower::Compiled, Vec<lower::Piece>) {
    let (k, node, copies) = lower::prepare(front).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap_or_else(|e| panic!("{}: {e}", k.name));
    let par = |n: &ast::Node, l: usize| front.parallel_in(n, l);
    let pieces = lower::compile_pieces(&k, &node, &par, &copies).unwrap();
    (k, c, pieces)
}
