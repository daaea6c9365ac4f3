//! Guard splitting (`split`: prologue, guard-free middle, epilogue; modulo
//! guards unrolled away) and the unrolling of loops that write down
//! columns (`unroll`), on kernels made for them: the compiled code (one
//! function, and the pieces on three workers) must compute the
//! interpreter's checksums at random small sizes, including sizes where the
//! middle is empty or shorter than one unrolled step.

mod common;
use common::compiled;

const GUARDS: &str = "void guards(int N, int M, double a, double A[N], double B[N]) {
  for (int i = 0; i < N; i++) {
    if (i % 3 != 1 && !(i == 2))
      B[i] = A[i] * A[i] + B[i] / (i + 1);
    else
      B[i] = B[i] - a * A[i];
    if (i % 2 == 0 && i > 3 && i < N - 2)
      A[i] = A[i] + B[i];
    if (i >= M || i == N - 1)
      A[i] = A[i] * 0.5;
  }
}";

const BAND: &str = "void band(int n, double A[n][n], double x[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j >= i && j % 4 == 1)
        A[i][j] = A[i][j] + x[j];
      else if (j < n - i)
        A[i][j] = A[i][j] * 0.75;
    }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    if (!(i > 2 && i < n - 3))
      s += x[i];
  for (int i = 0; i < n; i++)
    x[i] = x[i] + s;
}";

const COLUMNS: &str =
    "void columns(int n, int m, double A[n][m], double C[m][n], double t[n + m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t[i + j] = A[i][j];
      C[j][i] = C[j][i] + t[i + j];
    }
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      C[j][i] = C[j][i - 1] * 0.5 + A[i][j];
  for (int i = 0; i < (n + m) / 2; i++) {
    double u = t[i];
    t[i] = t[n + m - 1 - i];
    t[n + m - 1 - i] = u;
  }
}";

fn check(src: &str, shape: &str, hi: u64) {
    let front = lower::front(src).unwrap();
    let built = compiled(&front);
    let notes = built.1.notes.join("\n");
    assert!(notes.contains(shape), "{notes}");
    common::agree_at_random_sizes(&front, &built, 0x2545_f491_4f6c_dd1d, hi);
}

#[test]
fn split_guards_agree_with_the_interpreter() {
    // the middle of the `i` loop runs in steps of 6 (moduli 3 and 2)
    check(GUARDS, "scalar (step 6)", 30);
}

#[test]
fn split_band_and_reduction_agree_with_the_interpreter() {
    // the inner `j` loop in steps of 4; the reduction's middle vectorized
    check(BAND, "scalar (step 4)", 25);
    let front = lower::front(BAND).unwrap();
    let (_, c, _) = compiled(&front);
    assert!(
        c.notes.iter().any(|n| n.contains("vectorized")),
        "{:?}",
        c.notes
    );
}

#[test]
fn unrolled_column_writes_agree_with_the_interpreter() {
    check(COLUMNS, "scalar (step 4)", 20);
    // the second column nest (it reads C[j][i - 1]: not by transposed
    // blocks) and the reversal; the first nest runs by transposed blocks
    let front = lower::front(COLUMNS).unwrap();
    let (_, c, _) = compiled(&front);
    let unrolled = c.notes.iter().filter(|n| n.contains("step 4")).count();
    assert_eq!(unrolled, 2, "{:?}", c.notes);
    let blocks = c.notes.iter().filter(|n| n.contains("transposes")).count();
    assert_eq!(blocks, 1, "{:?}", c.notes);
}

/// Loops of steps 2 and 3 whose guards mix atoms on the loop's iterator
/// with atoms on the enclosing one (`i % 3 == 0`, unswitched) and
/// thresholds (`j > i + 2`, `j < N - i`: split into ranges of the step's
/// progression).
const STEPS: &str = "void steps(int N, int M, double A[N][M], double x[M]) {
  for (int i = 0; i < N; i++)
    for (int j = 1; j < M; j += 3) {
      if (i % 3 == 0 || j > i + 2)
        A[i][j] = A[i][j] + x[j];
      else if (j < N - i)
        A[i][j] = A[i][j] * 0.5;
    }
  for (int i = 0; i < N; i++)
    for (int j = max(0, i - 3); j <= min(M - 1, i + 3); j += 2) {
      if (i % 2 == 0 || j > i)
        A[i][j] = A[i][j] + x[j];
      else
        A[i][j] = A[i][j] - 0.5 * x[j];
    }
}";

#[test]
fn split_loops_of_larger_steps_agree_with_the_interpreter() {
    // sizes from empty loops to middles of several steps, with the
    // thresholds before, inside and after the loops' ranges
    check(STEPS, "scalar (step 3)", 24);
    let front = lower::front(STEPS).unwrap();
    let (_, c, _) = compiled(&front);
    // the `j` loops' guards are gone from their unswitched versions
    let guarded = c.notes.iter().filter(|n| n.contains("guarded")).count();
    let loops = c
        .notes
        .iter()
        .filter(|n| n.contains("step 2") || n.contains("step 3"))
        .count();
    assert!(loops >= 4 && guarded < loops, "{:?}", c.notes);
}
