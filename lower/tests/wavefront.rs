//! Skewed unroll-and-jam of recurrences (`wave` module) and the carried
//! values of several stores to one array (`forward`): the pairs it must
//! take (seidel's nine points, a lag of two columns, two statements), the
//! pairs it must leave (a skew beyond the limit, an outer loop without
//! dependences), at every size 0..=13 of both loops; the checksums must be
//! the interpreter's exactly (scalar code: the same operations in the same
//! order on every element).

/// The code `poly run` would run, its loops as text, and a checker against
/// the interpreter.
fn compiled(src: &str) -> (lower::Front, lower::Kernel, lower::Compiled, String) {
    let front = lower::front_with(src, lower::Policy::Original).unwrap();
    let (k, node, copies) = lower::prepare(&front).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    (front, k, c, node.to_string())
}

fn agree_everywhere(src: &str, jammed: bool, extra: &[&str]) -> lower::Compiled {
    let (front, k, c, loops) = compiled(src);
    assert_eq!(loops.contains("+= 4"), jammed, "{loops}");
    for n in 0..=13 {
        for m in 0..=13 {
            let mut a = vec![format!("n={n}"), format!("m={m}")];
            a.extend(extra.iter().map(|s| s.to_string()));
            let want = scop::commands::interp_function(&front.function, &a).unwrap();
            let got = lower::run(&c, &k, &front.function, &a, 1, &mut |_, _| {}).unwrap();
            assert_eq!(want, got.checksums, "{a:?}\n{loops}");
        }
    }
    c
}

/// How many vector registers carry values across iterations, summed over
/// the loops.
fn carried(c: &lower::Compiled) -> usize {
    c.notes
        .iter()
        .filter_map(|n| {
            let (_, rest) = n.split_once("; ")?;
            rest.split_whitespace().next()?.parse::<usize>().ok()
        })
        .sum()
}

#[test]
fn seidel_rows_run_together() {
    let c = agree_everywhere(
        "void k(int T, int n, int m, double A[n][m]) {
  for (int t = 0; t < T; t++)
    for (int i = 1; i <= n - 2; i++)
      for (int j = 1; j <= m - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
}",
        true,
        &["T=3"],
    );
    // the four rows' previous results stay in registers (a forwarded and a
    // stored register each) in the middle loop
    assert!(carried(&c) >= 8, "{:?}", c.notes);
}

#[test]
fn a_lag_of_two_columns_skews_by_three() {
    // A[i-1][j+2]: the least skew that keeps it is 2; the jam takes 3
    agree_everywhere(
        "void k(int n, int m, double A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 1; j < m - 2; j++)
      A[i][j] = A[i][j-1] * 0.5 + A[i-1][j+2];
}",
        true,
        &[],
    );
}

#[test]
fn two_statements_keep_their_order() {
    agree_everywhere(
        "void k(int n, int m, double A[n][m], double B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      B[i][j] = A[i][j-1] + A[i-1][j+1];
      A[i][j] = B[i][j] * 0.25 + A[i+1][j] - B[i-1][j+1];
    }
}",
        true,
        &[],
    );
}

#[test]
fn a_skew_beyond_the_limit_is_left_alone() {
    // A[i-1][j+5] needs a skew of 5
    agree_everywhere(
        "void k(int n, int m, double A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 1; j < m - 5; j++)
      A[i][j] = A[i][j-1] * 0.5 + A[i-1][j+5];
}",
        false,
        &[],
    );
}

#[test]
fn rows_above_and_below_on_both_sides() {
    // a flow (1, -1) from A[i-1][j+1], an anti (1, -1) to A[i+1][j-1], a
    // flow (1, 3) from A[i-1][j-3]: skew 1 keeps them all, the jam takes 2
    agree_everywhere(
        "void k(int n, int m, double A[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 3; j < m - 1; j++)
      A[i][j] = A[i][j-1] + A[i+1][j-1] - A[i-1][j+1] + A[i-1][j-3];
}",
        true,
        &[],
    );
}

#[test]
fn a_parallel_outer_loop_is_left_alone() {
    agree_everywhere(
        "void k(int n, int m, double A[n][m], double B[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m; j++)
      A[i][j] = A[i][j-1] * 0.5 + B[i][j];
}",
        false,
        &[],
    );
}

#[test]
fn a_dependence_four_columns_back_is_left_alone() {
    // the j loop carries A[i][j-4] only: four iterations at once keep it
    agree_everywhere(
        "void k(int n, int m, double A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 4; j < m; j++)
      A[i][j] = A[i][j-4] * 0.5 + A[i-1][j];
}",
        false,
        &[],
    );
}
