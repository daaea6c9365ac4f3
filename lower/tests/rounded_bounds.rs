//! Loop bounds with a floor division by a power of two times the same
//! power (`k * floord(x, k)`, `-(k * floord(-x, k))`: a bound rounded to
//! the loop's step) are lowered to `x & -k` and `(x + k - 1) & -k`, and
//! sums, `min`/`max` of sides differing by a constant simplified first
//! (module `affine_fold`): the compiled code computes the interpreter's
//! checksums at random small sizes.

mod common;
use common::compiled;

/// tiled_mix's band: tiles of 4 rows, a window of step 2 clipped at both
/// ends, a guard on the row's parity.
const TILED_BAND: &str = "void tb(int N, int M, double A[N][M], double B[N], double x[M]) {
  for (int ii = 0; ii < N; ii += 4)
    for (int i = ii; i < min(ii + 4, N); i++)
      for (int j = max(0, i - 3); j <= min(M - 1, i + 3); j += 2) {
        if (i % 2 == 0 || j > i)
          A[i][j] = A[i][j] + B[i] * x[j];
        else
          A[i][j] = A[i][j] - 0.5 * x[j];
      }
}";

/// Steps 4 and 8 from bounds that move with the enclosing loop, up and
/// down.
const STEPS: &str = "void st(int N, int M, double A[N][M], double y[N]) {
  for (int i = 0; i < N; i++)
    for (int j = max(0, i - 5); j <= min(M - 1, i + 9); j += 4)
      A[i][j] = A[i][j] + y[i];
  for (int i = 0; i < N; i++)
    for (int j = min(M - 1, 2 * i + 3); j >= max(0, i - 11); j -= 8)
      A[i][j] = 2.0 * A[i][j] - y[i];
}";

/// Compiles `src`, asserts `listed(asm)` and agreement with the
/// interpreter.
fn check(src: &str, seed: u64, listed: fn(&str) -> bool) {
    let front = lower::front(src).unwrap();
    let c = compiled(&front);
    let text = c.1.asm_text();
    assert!(listed(&text), "{text}");
    common::agree_at_random_sizes(&front, &c, seed, 30);
}

#[test]
fn tiled_band_rounds_its_bounds_with_masks() {
    // the bounds round with masks
    check(TILED_BAND, 0x9e37_79b9_7f4a_7c15, |t| t.contains("and "));
}

#[test]
fn steps_of_four_and_eight_agree_with_the_interpreter() {
    // `x - 4 * floord(x - x, 4)` is `x`: no shift by 2 or 3 is left of the
    // divisions by 4 and 8 (the outer bounds' `floord(M - 5, 2)` remain)
    check(STEPS, 0x2545_f491_4f6c_dd1d, |t| {
        !t.lines()
            .any(|l| l.contains("sar ") && (l.ends_with(", 0x2") || l.ends_with(", 0x3")))
    });
}
