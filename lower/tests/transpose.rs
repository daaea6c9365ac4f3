//! Column nests by 4×4 blocks with register transposes (`transpose`
//! module): the nests it must take, at every size 0..=13 of both loops and
//! at random small sizes, and nests it must refuse (a dependence the block
//! order would violate, a read that is not forwarded, a producer reading
//! what the nest writes, bounds of the inner loop moving with the outer);
//! the checksums must equal the interpreter's either way.

mod common;
use common::agree;

/// Notes of the code `poly run` would run, and a checker against the
/// interpreter at the given assignments.
fn compiled(src: &str) -> (lower::Front, lower::Kernel, lower::Compiled) {
    let front = lower::front_with(src, lower::Policy::Original).unwrap();
    let (k, node, copies) = lower::prepare(&front).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    (front, k, c)
}

fn check(front: &lower::Front, k: &lower::Kernel, c: &lower::Compiled, assignments: &[String]) {
    let want = scop::commands::interp_function(&front.function, assignments).unwrap();
    let got = lower::run(c, k, &front.function, assignments, 1, &mut |_, _| {}).unwrap();
    agree(&want, &got.checksums, &assignments.join(" "));
}

fn blocks(c: &lower::Compiled) -> usize {
    c.notes
        .iter()
        .filter(|n| n.contains("register transposes"))
        .count()
}

/// Every `n`, `m` in `0..=13`, then 30 random pairs in `0..=40`.
fn sizes(extra: &[&str]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for n in 0..=13 {
        for m in 0..=13 {
            let mut a = vec![format!("n={n}"), format!("m={m}")];
            a.extend(extra.iter().map(|s| s.to_string()));
            out.push(a);
        }
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..30 {
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % 41
        };
        let (n, m) = (next(), next());
        let mut a = vec![format!("n={n}"), format!("m={m}")];
        a.extend(extra.iter().map(|s| s.to_string()));
        out.push(a);
    }
    out
}

fn agree_everywhere(src: &str, want_blocks: usize, extra: &[&str]) {
    let (front, k, c) = compiled(src);
    assert_eq!(blocks(&c), want_blocks, "{:?}\n{src}", c.notes);
    if want_blocks > 0 {
        let asm = c.asm_text();
        assert!(
            asm.contains("vunpcklpd") && asm.contains("vunpckhpd"),
            "{asm}"
        );
    }
    for a in sizes(extra) {
        check(&front, &k, &c, &a);
    }
}

#[test]
fn lrr_column_nest_by_blocks() {
    // lrr_listing1's second nest on a rectangle: t's reads forwarded, t's
    // final values (row n-1 and column 0 of B) kept
    agree_everywhere(
        "void k(int n, int m, double B[n][m], double C[m][n], double t[n + m + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t[i + j] = B[i][j];
      C[j][i] = C[j][i] + t[i + j];
    }
}",
        1,
        &[],
    );
}

#[test]
fn computed_producers_several_consumers_offsets() {
    // a producer with a lane read, two transposed reads (one at an
    // offset), a consumer with a lane read, two consumers (the second reads the first's element),
    // loops starting at 2 and 1, an enclosing loop
    agree_everywhere(
        "void k(int n, int m, double A[m + 2][n + 3], double B[n + 2][m + 2],
       double D[m + 2][n + 3], double C[m + 2][n + 3], double E[m + 3][n + 4],
       double t[n + m + 4], double u[n + m + 4]) {
  for (int r = 0; r < 2; r++)
    for (int i = 2; i < n + 2; i++)
      for (int j = 1; j < m + 1; j++) {
        t[i + j] = 0.5 * B[i][j] - A[j][i];
        u[i - j + m] = B[i][j + 1] / 4.0;
        C[j][i] = C[j][i] * 0.25 + t[i + j] * D[j][i];
        E[j + 1][i + 1] = C[j][i] - t[i + j] + u[i - j + m];
      }
}",
        1,
        &[],
    );
}

#[test]
fn no_producers_a_double_parameter() {
    agree_everywhere(
        "void k(int n, int m, double a, double B[n][m], double C[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[j][i] = C[j][i] + a * (2.0 * B[i][j]);
}",
        1,
        &["a=-1.375"],
    );
}

#[test]
fn refused_nests_keep_their_results() {
    let refused = [
        // t read at another element than this iteration wrote: the
        // previous row's value (a flow dependence across rows)
        "void k(int n, int m, double B[n][m], double C[m][n], double t[n + m + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t[i + j] = B[i][j];
      C[j][i] = C[j][i] + t[i + j + 1];
    }
}",
        // t read before this iteration writes it
        "void k(int n, int m, double B[n][m], double C[m][n], double t[n + m + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[j][i] = C[j][i] + t[i + j];
      t[i + j] = B[i][j];
    }
}",
        // the producer reads what the nest writes
        "void k(int n, int m, double B[n][m], double C[m][n], double t[n + m + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t[i + j] = C[j][i];
      C[j][i] = B[i][j] + t[i + j];
    }
}",
        // a consumer reads its array at another element (dependences
        // between iterations)
        "void k(int n, int m, double B[n][m], double C[m + 1][n + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[j][i] = C[j + 1][i] + B[i][j];
}",
        // the written element is the same for several iterations (rank 1)
        "void k(int n, int m, double B[n][m], double x[n + m + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      x[i + j] = x[i + j] + B[i][j];
}",
        // a triangle: the inner bounds move with the outer loop
        "void k(int n, int m, double B[n][n], double C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      C[j][i] = C[j][i] + B[i][j];
}",
        // nothing contiguous along the inner loop to transpose
        "void k(int n, int m, double B[m][n], double C[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[j][i] = C[j][i] + B[j][i];
}",
    ];
    for src in refused {
        let (front, k, c) = compiled(src);
        assert_eq!(blocks(&c), 0, "{:?}\n{src}", c.notes);
        for a in sizes(&[]).into_iter().step_by(7) {
            check(&front, &k, &c, &a);
        }
    }
}
