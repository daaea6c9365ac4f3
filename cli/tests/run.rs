//! `poly run` and `poly compile` through the binary: the checksum lines
//! equal `poly interp`'s, the time line follows, unsupported kernels fall
//! back to the interpreter with a note, every `--emit` stage prints.

use std::process::Command;

fn poly(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn kernel(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("poly_run_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, src).unwrap();
    p.to_string_lossy().into_owned()
}

const SUM: &str = "void sum(int N, double A[N], double s[1]) {
  for (int i = 0; i < N; i++)
    s[0] = s[0] + A[i] * A[i];
}";

#[test]
fn run_prints_the_interpreters_checksums_and_a_time() {
    let k = kernel("sum.c", SUM);
    let (want, _, ok) = poly(&["interp", &k, "N=1000"]);
    assert!(ok);
    let (got, err, ok) = poly(&["run", &k, "N=1000", "--repeat", "3"]);
    assert!(ok, "{err}");
    let notes: Vec<&str> = err.lines().collect();
    assert!(
        notes.len() == 3
            && notes[0].starts_with("poly run: the original schedule for ")
            && notes[1] == "poly run: run-time check holds, running the optimized program"
            && notes[2].starts_with("poly run: CPU time per run, median ")
            && notes[2].ends_with(" ns in all threads"),
        "{err}"
    );
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), 3);
    // the reduction is vectorized: equal to a relative 1e-9
    for (a, b) in want.lines().zip(&lines) {
        let (x, y): (f64, f64) = (
            a.split(' ').nth(1).unwrap().parse().unwrap(),
            b.split(' ').nth(1).unwrap().parse().unwrap(),
        );
        assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{a} vs {b}");
    }
    assert!(
        lines[2].starts_with("time ") && lines[2][5..].parse::<u128>().is_ok(),
        "{got}"
    );
}

#[test]
fn the_fma_control_runs_beside_the_kernel() {
    let k = kernel("sum_control.c", SUM);
    let (plain, _, ok) = poly(&["run", &k, "N=1000", "--repeat", "3"]);
    assert!(ok);
    let (got, err, ok) = poly(&["run", &k, "N=1000", "--repeat", "3", "--fma-control"]);
    assert!(ok, "{err}");
    // the same checksums; the control's line last on standard error
    let sums = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("time "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(sums(&got), sums(&plain));
    let last = err.lines().last().unwrap_or("");
    let rest = last
        .strip_prefix("poly run: FMA control (6x8 micro-kernel on first-level panels after each run, same thread): median ")
        .unwrap_or_else(|| panic!("{err}"));
    let (median, range) = rest.split_once(" GFLOP/s of CPU time (").unwrap();
    let (lo, hi) = range.trim_end_matches(')').split_once('-').unwrap();
    let [median, lo, hi]: [f64; 3] = [median, lo, hi].map(|x| x.parse().unwrap());
    assert!(0.0 < lo && lo <= median && median <= hi, "{last}");
    // an unknown option is still refused
    let (_, err, ok) = poly(&["run", &k, "N=10", "--fma"]);
    assert!(!ok && err.contains("unknown option `--fma`"), "{err}");
}

#[test]
fn unsupported_or_out_of_bounds_kernels_run_in_the_interpreter() {
    let k = kernel(
        "div.c",
        "void d(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = A[i] + i / N; }",
    );
    let (want, _, _) = poly(&["interp", &k, "N=7"]);
    let (got, err, ok) = poly(&["run", &k, "N=7"]);
    assert!(ok && err.contains("interpreter"), "{err}");
    assert!(got.starts_with(&want));
    // A[i + 1] leaves A at i = N - 1: the interpreter reports it
    let k = kernel(
        "oob.c",
        "void o(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = A[i + 1]; }",
    );
    let (_, err, ok) = poly(&["run", &k, "N=7"]);
    assert!(!ok && err.contains("interpreter"), "{err}");
}

#[test]
fn compile_prints_every_stage() {
    let k = kernel("sum2.c", SUM);
    for stage in ["model", "deps", "schedule", "ast", "c", "asm"] {
        let (out, err, ok) = poly(&["compile", &k, "--emit", stage]);
        assert!(ok && !out.is_empty(), "{stage}: {err}");
    }
    let (asm, _, _) = poly(&["compile", &k]);
    assert!(asm.contains("vfmadd231pd") && asm.contains("ret"), "{asm}");
    let (c, _, _) = poly(&["compile", &k, "--emit", "c"]);
    assert!(
        c.contains("void sum(int N, double A[N], double s[1])"),
        "{c}"
    );
    let (_, err, ok) = poly(&["compile", &k, "--emit", "nothing"]);
    assert!(!ok && err.contains("unknown stage"));
}

#[test]
fn run_versions_on_the_run_time_check() {
    // an early return: the model (without it) is exact only while it does
    // not run, i.e. for n <= m + 1
    let k = kernel(
        "early.c",
        "void early(int n, int m, double A[16]) {
           for (int i = 0; i < n; i++) {
             if (i > m)
               return;
             A[i] = A[i] + 1.0;
           }
         }",
    );
    for (m, optimized) in [("9", true), ("3", false)] {
        let m = format!("m={m}");
        let (want, _, ok) = poly(&["interp", &k, "n=10", &m]);
        assert!(ok);
        let (got, err, ok) = poly(&["run", &k, "n=10", &m]);
        assert!(ok, "{err}");
        assert!(got.starts_with(&want), "{m}: {got} vs {want}");
        let note = if optimized {
            "run-time check holds, running the optimized program"
        } else {
            "run-time check failed, running the original program"
        };
        assert!(err.contains(note), "{m}: {err}");
    }
}

#[test]
fn the_schedule_in_use_is_printed_and_said_on_standard_error() {
    let k = concat!(env!("CARGO_MANIFEST_DIR"), "/../scop/tests/kernels/trmm.c");
    // the scheduler's (j outside): chosen automatically, printed as used
    let (out, err, ok) = poly(&["compile", &k, "--emit", "schedule"]);
    assert!(ok && err.contains("the scheduler's schedule for "), "{err}");
    assert!(out.contains("S0[i, j, k] -> [j, i, k"), "{out}");
    let (out, err, ok) = poly(&[
        "compile",
        &k,
        "--emit",
        "schedule",
        "--schedule",
        "original",
        "--threads",
        "3",
    ]);
    assert!(
        ok && err.contains("the original schedule for 3 threads (requested)"),
        "{err}"
    );
    assert!(out.contains("S0[i, j, k] -> [i, j,"), "{out}");
    let (_, err, ok) = poly(&["compile", &k, "--schedule", "best"]);
    assert!(!ok && err.contains("unknown schedule `best`"), "{err}");
    // a choice that ends at the scheduler's work limit says so (cholesky's
    // scheduler run is past the limit), with what the original covers
    let t = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scop/tests/kernels/cholesky.c"
    );
    let (_, err, ok) = poly(&["compile", t, "--emit", "schedule"]);
    assert!(
        ok && err.contains("the original puts 1 of 5 statements under a parallel outer loop")
            && err.contains("stopped at its compile-time work limit"),
        "{err}"
    );
    let (_, err, ok) = poly(&["compile", t, "--verbose"]);
    assert!(!ok && err.contains("unknown option `--verbose`"), "{err}");
    // a scheduler run that stops early (no parallel outer loop can exist:
    // nussinov) says why without being asked
    let t = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scop/tests/kernels/nussinov.c"
    );
    let (_, err, ok) = poly(&["compile", t, "--emit", "schedule"]);
    assert!(
        ok && err.contains("the scheduler's outer loops are not parallel either"),
        "{err}"
    );
    // heat-3d's sweeps fuse for one thread only; poly compile and poly run
    // say the same for the same thread count
    let h = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scop/tests/kernels/heat_3d.c"
    );
    for (threads, fused) in [("1", true), ("2", false), ("4", false)] {
        let (_, compiled, ok) = poly(&["compile", h, "--emit", "schedule", "--threads", threads]);
        assert!(ok, "{compiled}");
        assert_eq!(compiled.contains("with fused loops"), fused, "{compiled}");
        let on = if threads == "1" {
            "1 thread (".to_string()
        } else {
            format!("{threads} threads (")
        };
        assert!(compiled.contains(&on), "{compiled}");
        let (_, ran, ok) = poly(&["run", h, "TSTEPS=2", "N=6", "--threads", threads]);
        assert!(ok, "{ran}");
        assert_eq!(
            ran.lines().next().unwrap().replace("poly run:", ""),
            compiled
                .lines()
                .next()
                .unwrap()
                .replace("poly compile:", ""),
        );
    }
    // both orders compute the interpreter's values, on two workers too
    let (want, _, _) = poly(&["interp", &k, "M=37", "N=29"]);
    for s in ["auto", "original", "scheduler"] {
        let (got, err, ok) = poly(&[
            "run",
            &k,
            "M=37",
            "N=29",
            "--schedule",
            s,
            "--threads",
            "2",
            "--repeat",
            "2",
        ]);
        assert!(ok, "{err}");
        // the k loop is scalar in every order: the same sums bit for bit
        let got: Vec<&str> = got.lines().take(2).collect();
        assert_eq!(got, want.lines().collect::<Vec<_>>(), "{s}");
    }
}
