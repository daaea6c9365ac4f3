//! Prefetching ahead in short innermost loops over rows far apart
//! (`State::prefetch_ahead`): the first and last elements of the row
//! window the loop will touch `PREFETCH_AHEAD` enclosing iterations later,
//! with its first value and bound evaluated there. The prefetched
//! addresses may lie outside the arrays near the end of the enclosing loop
//! (a prefetch never faults), so the compiled code must still compute the
//! interpreter's checksums at small sizes, where most of them do.

mod common;
use common::compiled;

/// A band near the diagonal whose window moves along the row with it
/// (tiled_mix's shape: step 2, a guard, a window clipped at both ends).
const BAND: &str = "void band(int N, int M, double A[N][M], double B[N], double x[M]) {
  for (int i = 0; i < N; i++)
    for (int j = max(0, i - 3); j <= min(M - 1, i + 3); j += 2) {
      if (i % 2 == 0 || j > i)
        A[i][j] = A[i][j] + B[i] * x[j];
      else
        A[i][j] = A[i][j] - 0.5 * x[j];
    }
}";

/// The band from its fourth row on: every window starts at `i - 3` or
/// `i + 1` and ends at `min(M - 1, i + 3)`.
const BAND_FROM_3: &str = "void band(int N, int M, double A[N][M], double x[M]) {
  for (int i = 3; i < N; i++)
    for (int j = i - 3; j <= min(M - 1, i + 3); j += 2) {
      if (i % 2 == 0 || j > i)
        A[i][j] = A[i][j] + x[j];
      else
        A[i][j] = A[i][j] - 0.5 * x[j];
    }
}";

/// Rows of one array read along a column of another: the column walk's
/// group moves by one element with the enclosing loop (no prefetch), the
/// row group by a row (its start prefetched; the window is the same in
/// every row).
const ROWS: &str = "void rows(int n, int m, double A[n][m], double C[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[j][i] = C[j][i] + A[i][j];
}";

fn prefetches(c: &lower::Compiled) -> usize {
    c.asm_text().matches("prefetcht0").count()
}

fn agree_at_random_sizes(src: &str, hi: u64) {
    let front = lower::front(src).unwrap();
    common::agree_at_random_sizes(&front, &compiled(&front), 0x9e37_79b9_7f4a_7c15, hi);
}

#[test]
fn band_windows_are_prefetched_at_both_ends() {
    let front = lower::front(BAND).unwrap();
    let (_, c, _) = compiled(&front);
    // every innermost loop over A's rows prefetches its later window's
    // start, and the loops of the rows from 4 on (`S1`'s, and the two
    // versions of `S0`'s unswitched on `i % 2 == 0`) its end as well (the
    // first rows' loops, bounded by `max(0, ..)` expressions, leave no
    // registers for the end's shift)
    let loops = c.notes.len();
    assert!(loops >= 3, "{:?}", c.notes);
    assert!(prefetches(&c) >= loops + 3, "{}", c.asm_text());
    agree_at_random_sizes(BAND, 40);
}

#[test]
fn short_band_window_ends_are_known_at_compile_time() {
    // the later window's end `min(M - 1, i + 11)` against the current
    // start `i + 1` (or `i - 3`): at most 10 (14), a shift known at compile
    // time, so no prefetch address is computed from a shift register
    // scaled by the addressing mode (`[t+rcx*8]`); both ends prefetched
    let front = lower::front(BAND_FROM_3).unwrap();
    let (_, c, _) = compiled(&front);
    let asm = c.asm_text();
    let scaled = asm
        .lines()
        .filter(|l| l.contains("prefetcht0") && l.contains("*8"))
        .count();
    assert_eq!(scaled, 0, "{asm}");
    assert_eq!(c.notes.len(), 3, "{:?}", c.notes);
    assert_eq!(prefetches(&c), 2 * c.notes.len(), "{asm}");
    agree_at_random_sizes(BAND_FROM_3, 40);
}

#[test]
fn fixed_windows_prefetch_the_row_group_once() {
    // the window does not move with `i`: A's row start only, C's column
    // walk (one element per row) not at all
    // the nest runs by 4x4 transposed blocks (no innermost loop, no
    // prefetch), then its leftover columns (A's four rows i..i+3: four
    // groups, each prefetched once) and leftover rows (one group)
    let front = lower::front(ROWS).unwrap();
    let (_, c, _) = compiled(&front);
    let blocks = c.notes.iter().filter(|n| n.contains("register transposes"));
    assert_eq!(blocks.count(), 1, "{:?}", c.notes);
    assert_eq!(c.notes.len(), 3, "{:?}", c.notes);
    assert_eq!(prefetches(&c), 4 + 1, "{:?}\n{}", c.notes, c.asm_text());
    agree_at_random_sizes(ROWS, 30);
}

/// A row written from the row before it (stencil_diag's shape): the
/// vectorized row loop's main trip prefetches the two lines its stores
/// cover in the next row (an index register holding the row's bytes),
/// and the code still computes the interpreter's checksums.
const NEXT_ROW: &str = "void next_row(int n, double A[n][n]) {
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n - 1; j++)
      A[i][j] = A[i-1][j-1] + A[i-1][j] + A[i-1][j+1];
}";

/// One loop: nothing encloses it, no next row.
const ONE_LOOP: &str = "void one_loop(int n, double A[n], double B[n]) {
  for (int j = 0; j < n; j++)
    A[j] = B[j] * 2.0;
}";

/// Prefetches through an index register (`[p+r*1]`, `[p+r*1+0x40]`).
fn indexed_prefetches(c: &lower::Compiled) -> Vec<String> {
    c.asm_text()
        .lines()
        .filter(|l| l.contains("prefetcht0") && l.contains("*1"))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn vector_loops_prefetch_the_next_row_they_write() {
    let front = lower::front(NEXT_ROW).unwrap();
    let (_, c, _) = compiled(&front);
    assert!(
        c.notes.iter().any(|n| n.contains("vectorized")),
        "{:?}",
        c.notes
    );
    // the main trip's pair `[p+r*1]`, `[p+r*1+0x40]` (the prefetches
    // ahead at the loop's entry index by a temporary holding an invariant)
    let p = indexed_prefetches(&c);
    let addr = |l: &String| {
        l.rsplit_once('[')
            .map(|(_, a)| a.trim_end_matches(']').to_string())
    };
    let addrs: Vec<String> = p.iter().filter_map(addr).collect();
    let pairs = addrs
        .iter()
        .filter(|a| addrs.contains(&format!("{a}+0x40")))
        .count();
    assert_eq!(pairs, 1, "{}", c.asm_text());
    agree_at_random_sizes(NEXT_ROW, 60);
    let front = lower::front(ONE_LOOP).unwrap();
    let (_, c, _) = compiled(&front);
    assert!(
        c.notes.iter().any(|n| n.contains("vectorized")),
        "{:?}",
        c.notes
    );
    assert!(indexed_prefetches(&c).is_empty(), "{}", c.asm_text());
}
