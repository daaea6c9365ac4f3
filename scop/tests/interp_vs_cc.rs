//! The interpreter's checksums equal those of the kernel compiled by the
//! machine's C compiler (skipped when no `cc` is available).

mod common;

use std::collections::HashMap;
use std::process::Command;

fn have_cc() -> bool {
    Command::new("cc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Compiles the C driver of a kernel (at `kernel_path`, text `src`) with
/// `cc` in `dir` and returns what it prints.
fn run_with_cc(
    dir: &std::path::Path,
    stem: &str,
    kernel_path: &str,
    src: &str,
    ints: &HashMap<String, i64>,
) -> String {
    let driver = scop::driver::c_driver(kernel_path, src, ints, &HashMap::new()).unwrap();
    let c_file = dir.join(format!("{stem}_driver.c"));
    let exe = dir.join(format!("{stem}_driver"));
    std::fs::write(&c_file, driver).unwrap();
    let out = Command::new("cc")
        .args(["-O0", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .arg("-lm")
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "{stem}: cc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run driver");
    assert!(run.status.success(), "{stem}: driver failed");
    String::from_utf8_lossy(&run.stdout).to_string()
}

#[test]
fn interpreter_matches_cc() {
    if !have_cc() {
        eprintln!("note: no `cc` found; skipping the interpreter-vs-C comparison");
        return;
    }
    let dir = std::env::temp_dir().join(format!("scop-interp-vs-cc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kernels = common::all_kernels();
    assert!(kernels.len() >= 6, "kernels found: {}", kernels.len());
    for path in kernels {
        let p = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let params = common::param_values(&src);
        let args: Vec<String> = std::iter::once(p.clone())
            .chain(params.iter().map(|(n, v)| format!("{n}={v}")))
            .collect();
        let ours = scop::interp_command(&args).unwrap_or_else(|e| panic!("{p}: {e}"));
        let ints: HashMap<String, i64> = params.into_iter().collect();
        let abs = std::fs::canonicalize(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let theirs = run_with_cc(&dir, &stem, &abs.display().to_string(), &src, &ints);
        assert_eq!(ours, theirs, "{p}: interpreter vs cc");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kernels of the optimistic subset (pointers with linearized subscripts,
/// `[]` parameters, `long`/`unsigned` iterators, `!=` loops): the pointers
/// get the extent the interpreter's run reaches.
#[test]
fn optimistic_kernels_match_cc() {
    if !have_cc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("scop-interp-vs-cc-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kernels = [
        ("lin", "void lin(long n, long m, double *A, double B[][8]) {\n  for (long i = 0; i < n; i++)\n    for (unsigned j = 0; j < 8; j++)\n      A[i * m + j] = A[i * m + j] + B[i][j] * 2.0;\n}\n", vec![("n", 3), ("m", 9)]),
        ("down", "void down(int n, double *restrict A, double *B) {\n  for (int i = n; i != 0; i -= 2)\n    A[i] = B[i - 1] + A[i];\n}\n", vec![("n", 10)]),
        // unsigned arithmetic wraps modulo 2^32: (i - n) % 16 stays in 0..16
        ("uwrap", "void uwrap(unsigned n, double A[16], double B[16]) {\n  for (unsigned i = 0; i < 16; i++)\n    A[(i - n) % 16] = A[(i - n) % 16] + B[i] * (i - n);\n}\n", vec![("n", 5)]),
        // long arithmetic beyond 32 bits
        ("lsum", "void lsum(long n, double A[4], double B[4]) {\n  for (long i = n; i < n + 3; i++)\n    A[i - n] = A[i - n] + B[i - n] * (i * 3);\n}\n", vec![("n", 3_000_000_000)]),
        // an early return ends the kernel
        ("early", "void early(int n, int m, double A[16], double B[16]) {\n  for (int i = 0; i < n; i++) {\n    if (i > m)\n      return;\n    A[i] = A[i] + B[i];\n  }\n  B[0] = 1.0;\n}\n", vec![("n", 10), ("m", 4)]),
    ];
    for (name, src, params) in kernels {
        let path = dir.join(format!("{name}.c"));
        std::fs::write(&path, src).unwrap();
        let args: Vec<String> = std::iter::once(path.display().to_string())
            .chain(params.iter().map(|(n, v)| format!("{n}={v}")))
            .collect();
        let ours = scop::interp_command(&args).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ints: HashMap<String, i64> = params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let theirs = run_with_cc(&dir, name, &path.display().to_string(), src, &ints);
        assert_eq!(ours, theirs, "{name}: interpreter vs cc");
        assert!(ours.lines().count() == 2, "{name}: {ours}");
        assert!(
            !ours.contains("nan") && !ours.contains("inf"),
            "{name}: {ours}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scalar_parameters_can_be_overridden() {
    let src = "void k(int N, double a, double b, double A[N]) {\n  for (int i = 0; i < N; i++) A[i] = a * 10 + b;\n}";
    let default = scop::commands::interp_source(src, &["N=3".into()]).unwrap();
    let given =
        scop::commands::interp_source(src, &["N=3".into(), "a=1.5".into(), "b=1.75".into()])
            .unwrap();
    assert_eq!(default, given);
    let other = scop::commands::interp_source(src, &["N=3".into(), "b=0".into()]).unwrap();
    assert_ne!(default, other);
    // a = 1.5, b = 1.75: each element is 16.75; weights 1 + 2 + 3.
    assert_eq!(
        default,
        format!("A {}\n", scop::interp::format_c_exp(16.75 * 6.0, 12))
    );
}

#[test]
fn interp_usage_errors() {
    let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 0; }";
    assert!(scop::commands::interp_source(src, &[]).is_err());
    assert!(scop::commands::interp_source(src, &["N".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["N=x".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["Q=1".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["N=-5".into()]).is_err());
    assert!(scop::interp_command(&[]).is_err());
    assert!(scop::interp_command(&["/nonexistent/file.c".into()]).is_err());
    assert!(scop::scop_command(&[]).is_err());
}

/// The statement instances (statement number, iterator values) that the
/// interpreter runs on kernel `src` at the integer parameter values `ints`,
/// in execution order.
fn trace_of(src: &str, ints: &HashMap<String, i64>) -> Vec<(usize, Vec<i64>)> {
    let f = scop::parse_kernel(src).unwrap();
    let mut st = scop::interp::initial_state(&f, ints, &HashMap::new()).unwrap();
    scop::interp::run_traced(&f, &mut st).unwrap()
}

/// Asserts that kernel `src` has two statements in its model and, with
/// its loop bound parameter `n` at 2, runs statement 0 then statement 1 at
/// iteration 0, then both at iteration 1.
fn assert_two_statements_twice(src: &str, n: &str) {
    assert_eq!(scop::build_scop(src).unwrap().statements.len(), 2);
    let ints: HashMap<String, i64> = [(n.to_string(), 2)].into_iter().collect();
    assert_eq!(
        trace_of(src, &ints),
        vec![(0, vec![0]), (1, vec![0]), (0, vec![1]), (1, vec![1])]
    );
}

/// The instances the interpreter executes are exactly the points of the
/// model's iteration domains, and they run in increasing schedule order.
#[test]
fn model_agrees_with_execution() {
    for path in common::all_kernels() {
        let p = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let scop = scop::build_scop(&src).unwrap();
        let params = common::param_values(&src);
        let ints: HashMap<String, i64> = params.iter().cloned().collect();
        let trace = trace_of(&src, &ints);
        // Schedule order.
        let time = |(s, it): &(usize, Vec<i64>)| -> Vec<i64> {
            let stmt = &scop.statements[*s];
            stmt.schedule
                .iter()
                .map(|d| match d {
                    scop::model::SchedDim::Const(c) => *c,
                    scop::model::SchedDim::Iter(v, k) => {
                        k * it[stmt.iterators.iter().position(|x| x == v).unwrap()]
                    }
                })
                .collect()
        };
        for w in trace.windows(2) {
            assert!(time(&w[0]) < time(&w[1]), "{p}: {:?} then {:?}", w[0], w[1]);
        }
        // Domains: enumerate a box around the parameter values.
        let hi = params.iter().map(|(_, v)| *v).max().unwrap_or(0) + 2;
        let mut points = Vec::new();
        for (k, s) in scop.statements.iter().enumerate() {
            let n = s.iterators.len();
            let mut pt = vec![-2i64; n];
            'outer: loop {
                let val = |name: &str| {
                    ints.get(name)
                        .copied()
                        .or_else(|| s.iterators.iter().position(|x| x == name).map(|j| pt[j]))
                };
                if s.domain.eval(&val) == Some(true) {
                    points.push((k, pt.clone()));
                }
                let mut j = n;
                loop {
                    if j == 0 {
                        break 'outer;
                    }
                    j -= 1;
                    pt[j] += 1;
                    if pt[j] <= hi {
                        break;
                    }
                    pt[j] = -2;
                }
            }
        }
        let mut executed = trace.clone();
        executed.sort();
        points.sort();
        assert_eq!(executed, points, "{p}: executed instances vs domains");
    }
}

/// The trace numbers statements as the model does: the assignments of a
/// branch that holds an error path (a call of an unknown function) are not
/// statements of the model, so they take no number either.
#[test]
fn trace_numbers_statements_as_the_model() {
    let src = "void k(int n, double A[8], double B[8]) {\n  for (int i = 0; i < n; i++) {\n    if (i > 7) { A[i] = 0.0; abort(); } else B[i] = 1.0;\n    A[i] = B[i];\n  }\n}\n";
    // S0 is `B[i] = 1.0`, S1 is `A[i] = B[i]`
    assert_two_statements_twice(src, "n");
}

/// A local's scope begins at its declarator (C 6.2.1): an initializer may
/// read the variable it initializes (its indeterminate value, zero or the
/// previous iteration's value in the interpreter). The front end accepts
/// `double t = t;` as a statement that reads and writes `t`; the interpreter
/// ran it as a read of an unknown variable (found by the `interp` fuzz
/// target).
#[test]
fn initializer_reads_its_own_variable() {
    let src = "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++) {\n    double t = t + 1.0;\n    A[i] = t;\n  }\n}\n";
    assert_two_statements_twice(src, "N");
    // t counts 1, 2, 3: the value of the previous iteration
    let out = scop::commands::interp_source(src, &["N=3".into()]).unwrap();
    let want = 1.0 * 1.0 + 2.0 * 2.0 + 3.0 * 3.0;
    assert_eq!(out, format!("A {}\n", scop::interp::format_c_exp(want, 12)));
}

/// Names are resolved on every path, also in a branch the model drops: an
/// error path (a call of an unknown function, an early `return`) runs up
/// to its call in the interpreter, so an undeclared or misused name there
/// is an error of the front end, with its position (found by the `interp`
/// fuzz target: a `#` line swallowed an `else`, leaving `table[i][j] =
/// fma;x(...)` in a branch that the call made an error path).
#[test]
fn names_on_error_paths_are_resolved() {
    let found = include_str!("../../fuzz/corpus/interp/regress-name-on-error-path-found");
    let small = include_str!("../../fuzz/corpus/interp/regress-name-on-error-path.c");
    let wrap = |body: &str| {
        format!("void k(int N, double s, double A[N], double *P) {{\n  for (int i = 0; i < N; i++) {{\n{body}\n  }}\n}}\n")
    };
    let cases = [
        (found.to_string(), 16, 25, "unknown variable `fma`"),
        (small.to_string(), 4, 14, "unknown variable `fma`"),
        (
            wrap("    if (i > 1) { A[i] = t; return; }"),
            3,
            25,
            "unknown variable `t`",
        ),
        (
            wrap("    if (i > 1) ; else { A[i] = A[u]; abort(); }"),
            3,
            34,
            "unknown variable `u`",
        ),
        (
            wrap("    if (i > 1) { B[i] = 1.0; abort(); }"),
            3,
            18,
            "unknown array `B`",
        ),
        (
            wrap("    if (i > 1) { s = A; abort(); }"),
            3,
            22,
            "array `A` used as a value",
        ),
        (
            wrap("    if (i > 1) { s = A[i][i]; abort(); }"),
            3,
            22,
            "`A` has 1 dimension(s) but 2 subscripts",
        ),
        (
            wrap("    if (i > 1) { N = 1.0; abort(); }"),
            3,
            18,
            "assignment to `N`",
        ),
        (
            wrap("    if (i > 1) { s = A[A[i]]; abort(); }"),
            3,
            24,
            "data-dependent value `A[...]`",
        ),
        (
            wrap("    if (i > 1) { { double t; } s = t; abort(); }"),
            3,
            36,
            "unknown variable `t`",
        ),
        (
            wrap("    if (i > 1) { s = P[i] % 2; abort(); }"),
            3,
            22,
            "`%` needs integer operands",
        ),
    ];
    for (src, line, col, msg) in cases {
        let e = scop::build_scop(&src).unwrap_err();
        assert!(
            matches!(
                e,
                scop::Error::Semantic { .. } | scop::Error::Unsupported { .. }
            ) && e.to_string().contains(msg),
            "{src}: {e}"
        );
        assert_eq!((e.line(), e.col()), (line, col), "{src}: {e}");
    }
    // the finding: the interpreter reaches the name before the call
    let e = scop::commands::interp_source(found, &["N=2".into()]).unwrap_err();
    assert!(e.to_string().contains("unknown variable `fma`"), "{e}");
    // declared names on an error path are fine, the branch's own included
    let ok = wrap("    if (i > 1) { double t = s + A[i] + P[i]; s = t; abort(); }");
    assert_eq!(scop::build_scop(&ok).unwrap().statements.len(), 0);
}

/// The run respects the operation budget: a loop that would run for long
/// ends with the engine's budget error, and a small budget suffices for a
/// small run.
#[test]
fn interpreter_respects_the_budget() {
    let src = "void k(int n, double A[1]) {\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      ;\n}\n";
    let big = || scop::commands::interp_source(src, &["n=2000000000".into()]);
    let e = presburger::budget::with_budget(10_000, big).unwrap_err();
    assert_eq!(e, scop::Error::Engine(presburger::Error::BudgetExceeded));
    let small = || scop::commands::interp_source(src, &["n=10".into()]);
    assert!(presburger::budget::with_budget(10_000, small).is_ok());
    // allocating an array is charged by its elements
    let arr = "void k(int n, double A[n][n]) { }";
    let a = || scop::commands::interp_source(arr, &["n=1000".into()]);
    assert!(presburger::budget::with_budget(10_000, a).is_err());
    assert!(presburger::budget::with_budget(2_000_000, a).is_ok());
}

/// Signed integer overflow is undefined behaviour: the interpreter reports
/// it with its position instead of computing in a wider type.
#[test]
fn signed_overflow_is_reported() {
    let body = "void k(int n, double A[2]) {\n  for (int i = 0; i < 2; i++)\n    A[i] = A[i] + (n + i) * 1.0;\n}\n";
    let ok = scop::commands::interp_source(body, &["n=2147483646".into()]);
    assert!(ok.is_ok(), "{ok:?}");
    let e = scop::commands::interp_source(body, &["n=2147483647".into()]).unwrap_err();
    assert!(e.to_string().contains("signed integer overflow"), "{e}");
    assert_eq!((e.line(), e.col()), (3, 20), "{e}");
    // the increment after the last iteration overflows
    let inc =
        "void k(int n, double A[1]) {\n  for (int i = n; i <= n; i++)\n    A[0] = A[0] + 1.0;\n}\n";
    assert!(scop::commands::interp_source(inc, &["n=5".into()]).is_ok());
    let e = scop::commands::interp_source(inc, &["n=2147483647".into()]).unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
    // the same sum in long is fine, and unsigned wraps
    let long = "void k(long n, double A[1]) {\n  for (long i = n; i <= n; i++)\n    A[0] = A[0] + (n + 1) * 1.0;\n}\n";
    let out = scop::commands::interp_source(long, &["n=2147483647".into()]).unwrap();
    let uns = "void k(unsigned n, double A[1]) {\n  for (unsigned i = 0; i < 1; i++)\n    A[0] = A[0] + (n + 1);\n}\n";
    let wrapped = scop::commands::interp_source(uns, &["n=4294967295".into()]).unwrap();
    let zero = scop::commands::interp_source(
        uns.replace("(n + 1)", "0").as_str(),
        &["n=4294967295".into()],
    )
    .unwrap();
    assert_eq!(wrapped, zero, "4294967295u + 1 is 0");
    assert_ne!(out, wrapped);
    // a parameter value outside its type is a usage error
    assert!(scop::commands::interp_source(uns, &["n=-1".into()]).is_err());
}

/// `return;` ends the kernel where it runs (an error path in the model).
#[test]
fn early_return_ends_the_kernel() {
    let src = "void k(int n, int m, double A[8]) {\n  for (int i = 0; i < n; i++) {\n    if (i >= m) return;\n    A[i] = 0.0;\n  }\n  A[7] = 0.0;\n  return;\n}\n";
    let full = "void k(int n, int m, double A[8]) {\n  for (int i = 0; i < n; i++)\n    A[i] = 0.0;\n  A[7] = 0.0;\n}\n";
    let part =
        "void k(int n, int m, double A[8]) {\n  for (int i = 0; i < 3; i++)\n    A[i] = 0.0;\n}\n";
    let run = |s: &str, m: i64| {
        scop::commands::interp_source(s, &["n=5".into(), format!("m={m}")]).unwrap()
    };
    assert_eq!(run(src, 9), run(full, 9));
    assert_eq!(run(src, 3), run(part, 3));
    // the model drops the branch; the trailing `return;` is no exit
    let scop = scop::build_scop(src).unwrap();
    assert_eq!(scop.statements.len(), 2);
    let o = &scop.optimistic.obligations;
    assert_eq!(
        o.iter()
            .filter(|o| o.kind == scop::assume::Kind::ErrorPath)
            .count(),
        1
    );
    let e = scop::build_scop("void k(int n, double A[8]) { return 1; }").unwrap_err();
    assert!(e.to_string().contains("return"), "{e}");
}
