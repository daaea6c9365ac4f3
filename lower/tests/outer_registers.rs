//! Registers for the iterators of enclosing loops (module `regs`), the
//! prefetch shifts known at compile time, and comparisons of variables
//! where they live: the code must still compute the interpreter's
//! checksums, and the listing must show the register use.

mod common;
use common::compiled;

/// tiled_mix's band nest: tiles of four rows, two short innermost loops
/// per row (step 2, a guard), plenty of registers left for the row loops.
const TILED: &str = "void tiled(int N, int M, double A[N][M], double B[N], double x[M]) {
  for (int ii = 0; ii < N; ii += 4)
    for (int i = ii; i < min(ii + 4, N); i++)
      for (int j = max(0, i - 3); j <= min(M - 1, i + 3); j += 2) {
        if (i % 2 == 0 || j > i)
          A[i][j] = A[i][j] + B[i] * x[j];
        else
          A[i][j] = A[i][j] - 0.5 * x[j];
      }
}";

/// Seven row groups in the innermost loop: no registers left for the row
/// loop, whose iterator stays in the frame.
const MANY: &str = "void many(int n, double A[n][n], double B[n][n], double C[n][n],
    double D[n][n], double E[n][n], double F[n][n], double G[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = B[i][j] + C[i][j] + D[i][j] + E[i][j] + F[i][j] + G[i][j];
}";

/// Guards comparing two iterators with differences -1, 0, 1 and others,
/// an iterator with a constant, a parameter, and low-bit tests with
/// offsets.
const GUARDS: &str = "void guards(int N, double A[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      if (j >= i + 1) A[i][j] += 1.0;
      if (j + 1 <= i) A[i][j] += 2.0;
      if (j - 1 < i) A[i][j] += 4.0;
      if (j > i - 1) A[i][j] += 8.0;
      if (j == i) A[i][j] += 16.0;
      if (N - j >= 3) A[i][j] += 32.0;
      if (5 - j < i) A[i][j] += 64.0;
      if (j + 2 > i) A[i][j] += 128.0;
      if ((i + j + 1) % 2 == 0) A[i][j] += 256.0;
      if ((j + 3) % 2 == 0) A[i][j] += 512.0;
      if ((j + 4) % 4 == 0) A[i][j] += 1024.0;
    }
}";

/// A frame slot updated in place: an enclosing loop's iterator advanced
/// in the frame.
fn frame_iterators(c: &lower::Compiled) -> usize {
    c.asm_text()
        .lines()
        .filter(|l| l.contains("add QWORD PTR [rsp"))
        .count()
}

#[test]
fn band_rows_keep_their_iterators_in_registers() {
    let front = lower::front(TILED).unwrap();
    let all = compiled(&front);
    let asm = all.1.asm_text();
    assert_eq!(frame_iterators(&all.1), 0, "{asm}");
    // in the tiles after the first, the prefetch shifts are known (the
    // first element 8 rows on lies 8 elements on, the window at most 6
    // long): no window test; the first tile's loops start at column 0, so
    // their windows' length may depend on the row: at most one test for
    // each of its two original loops (its `S0` loop now runs as unswitched
    // versions, of which one keeps a test)
    assert!(asm.contains("prefetcht0"), "{asm}");
    let tests = asm
        .lines()
        .filter(|l| l.contains("cmp") && l.ends_with(", 0x10"))
        .count();
    assert!(tests <= 2, "{asm}");
    common::agree_at_random_sizes(&front, &all, 0x2545_f491_4f6c_dd1d, 40);
}

#[test]
fn innermost_loops_keep_registers_first() {
    let front = lower::front(MANY).unwrap();
    let all = compiled(&front);
    assert!(
        all.1.notes.iter().any(|n| n.contains("vectorized")),
        "{:?}",
        all.1.notes
    );
    assert_eq!(frame_iterators(&all.1), 1, "{}", all.1.asm_text());
    common::agree_at_random_sizes(&front, &all, 0x9e37_79b9_7f4a_7c15, 30);
}

#[test]
fn guards_compare_variables_in_place() {
    let front = lower::front(GUARDS).unwrap();
    let all = compiled(&front);
    common::agree_at_random_sizes(&front, &all, 0x1234_5678_9abc_def1, 30);
}
