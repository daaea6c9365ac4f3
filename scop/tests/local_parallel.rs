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
