//! Local arrays (`double tmp[N][M];`) and `#pragma omp parallel for`.

use presburger::UnionMap;

const SMOOTH: &str = "void k(int N, int M, double A[N][M], double B[N][M]) {
  double tmp[N][M];
  for (int i = 0; i < N; i++) {
    #pragma omp parallel for
    for (int j = 0; j < M; j++)
      tmp[i][j] = 2.0 * A[i][j];
    for (int j = 1; j < M - 1; j++)
      B[i][j] = tmp[i][j-1] + tmp[i][j];
  }
}";

#[test]
fn local_array_is_modelled_like_a_parameter_array() {
    let m = scop::Model::from_source(SMOOTH).unwrap();
    let tmp = m.arrays().iter().find(|a| a.name == "tmp").unwrap();
    assert_eq!(tmp.kind, scop::model::ArrayOrigin::LocalArray);
    let want: UnionMap = "[N, M] -> { S0[i, j] -> tmp[i, j] : 0 <= i < N and 0 <= j < M; \
                          S1[i, j] -> B[i, j] : 0 <= i < N and 1 <= j < M - 1 }"
        .parse()
        .unwrap();
    assert!(m.must_writes().is_equal(&want).unwrap());
    assert_eq!(m.params(), ["N", "M"]);
}

#[test]
fn parallel_loop_is_a_schedule_dimension() {
    let m = scop::Model::from_source(SMOOTH).unwrap();
    // S0 -> [i, 0, j]: the j loop (dimension 2) is parallel; S1's is not.
    assert_eq!(m.statements()[0].parallel, [2]);
    assert!(m.statements()[1].parallel.is_empty());
}

#[test]
fn nested_parallel_loops() {
    let src = "void k(int N, double A[N][N]) {
      #pragma omp parallel for
      for (int i = 0; i < N; i++)
        #pragma omp parallel for
        for (int j = 0; j < N; j++)
          A[i][j] = 1.0;
    }";
    let m = scop::Model::from_source(src).unwrap();
    assert_eq!(m.statements()[0].parallel, [0, 1]);
}

#[test]
fn interpreter_runs_local_arrays_and_pragmas() {
    let with = scop::commands::interp_source(SMOOTH, &["N=3".into(), "M=5".into()]).unwrap();
    // The same kernel with `tmp` as a parameter and no pragma computes the same B.
    let plain = SMOOTH
        .replace(
            "double B[N][M]) {\n  double tmp[N][M];",
            "double B[N][M], double tmp[N][M]) {",
        )
        .replace("#pragma omp parallel for", "");
    let without = scop::commands::interp_source(&plain, &["N=3".into(), "M=5".into()]).unwrap();
    let b = |s: &str| s.lines().find(|l| l.starts_with("B ")).unwrap().to_string();
    assert_eq!(b(&with), b(&without));
    assert!(
        !with.contains("tmp "),
        "local arrays are not printed: {with}"
    );
}

fn err(src: &str) -> String {
    scop::Model::from_source(src).unwrap_err().to_string()
}

#[test]
fn malformed_input_is_an_error_with_its_position() {
    let e = err("void k(int N, double A[N]) {\n#pragma omp parallel for\n A[0] = 1; }");
    assert!(e.starts_with("3:2:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n  #pragma omp parallel for private(x)\n for (int i = 0; i < N; i++) A[i] = 1; }");
    assert!(e.starts_with("2:3:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n #pragma omp parallel\n for (int i = 0; i < N; i++) A[i] = 1; }");
    assert!(e.starts_with("2:2:"), "{e}");
    let e = err(
        "void k(int N, double A[N]) {\n for (int i = 0; i < N; i++) { double t[N];\n A[i] = 1; } }",
    );
    assert!(e.starts_with("2:39:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n double t[N] = 0; }");
    assert!(e.starts_with("2:14:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n int t[N]; }");
    assert!(e.starts_with("2:6:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n double A[N]; }");
    assert!(e.starts_with("2:9:"), "{e}");
    let e = err("void k(int N, double A[N]) {\n #pragma omp parallel for\n }");
    assert!(e.starts_with("3:2:"), "{e}");
}

/// The shared liveness kernels (local arrays, pragmas) compiled by the C
/// compiler, sequentially and with OpenMP when available, give the
/// interpreter's checksums.
#[test]
fn liveness_kernels_match_cc() {
    use std::collections::HashMap;
    use std::process::Command;
    let have_cc = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let Some(dir) = testkit::shared_path("liveness") else {
        return;
    };
    if !have_cc {
        eprintln!("note: no `cc` found; skipping");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("scop-local-cc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let kernels = testkit::files_with_suffix(&dir, ".c");
    assert!(kernels.len() >= 3);
    for path in kernels {
        let src = std::fs::read_to_string(&path).unwrap();
        let params: Vec<(String, i64)> = src
            .lines()
            .filter_map(|l| l.split("params:").nth(1))
            .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_string(), v.parse().unwrap())
            })
            .collect();
        let args: Vec<String> = params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let ours = scop::commands::interp_source(&src, &args).unwrap();
        let ints: HashMap<String, i64> = params.into_iter().collect();
        let abs = std::fs::canonicalize(&path).unwrap();
        let driver =
            scop::driver::c_driver(&abs.display().to_string(), &src, &ints, &HashMap::new())
                .unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let c_file = tmp.join(format!("{stem}_driver.c"));
        // kernels may call min/max without defining them
        let defs = "#define min(a, b) ((a) < (b) ? (a) : (b))\n#define max(a, b) ((a) > (b) ? (a) : (b))\n";
        std::fs::write(&c_file, format!("{defs}{driver}")).unwrap();
        for omp in [false, true] {
            let exe = tmp.join(format!("{stem}_{omp}"));
            let mut cmd = Command::new("cc");
            cmd.args(["-O0", "-ffp-contract=off", "-o"])
                .arg(&exe)
                .arg(&c_file)
                .arg("-lm");
            if omp {
                cmd.arg("-fopenmp");
            }
            let out = cmd.output().unwrap();
            if !out.status.success() {
                assert!(
                    omp,
                    "{stem}: cc failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                continue; // no OpenMP support
            }
            let run = Command::new(&exe)
                .env("OMP_NUM_THREADS", "2")
                .output()
                .unwrap();
            assert!(run.status.success(), "{stem}: driver failed");
            assert_eq!(
                ours,
                String::from_utf8_lossy(&run.stdout),
                "{stem} (openmp {omp})"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
