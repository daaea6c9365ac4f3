//! Strides of loops over unions whose parts carry divisions: tiled_mix's
//! tile loop (`ii += 4`, `scop/tests/kernels/tiled_mix.c`) stays a loop of
//! step 4 once the coalescer fuses the tile `ii = 0` with the tiles
//! `ii >= 4` into one disjunct with divisions, and the point loop inside
//! starts at the tile (`c1 = c0`, not at the least of the parts' bounds);
//! the instances are checked against the kernel's loop nest.

use ast::{generate_with_options, parse_map_input, run};

const TILED_MIX: &str = "[N, M] -> { \
S0[ii, i, j] -> [ii, i, j, 0] : exists (e0, e1, e2 : i = 2e2 and j = 2e1 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and i < N and 0 <= j < M and i - 3 <= j <= i + 3 and i <= 3); \
S0[ii, i, j] -> [ii, i, j, 0] : exists (e0, e1 : j = 2e1 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and i < N and 0 <= j < M and i < j <= i + 3 and i <= 3); \
S0[ii, i, j] -> [ii, i, j, 0] : exists (e0, e1, e2 : i = 2e2 and j = i + 2e1 - 3 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and 4 <= i < N and 0 <= j < M and i - 3 <= j <= i + 3); \
S0[ii, i, j] -> [ii, i, j, 0] : exists (e0, e1 : j = i + 2e1 - 3 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and 4 <= i < N and 0 <= j < M and i < j <= i + 3); \
S1[ii, i, j] -> [ii, i, j, 1] : exists (e0, e1, e2 : j = 2e2 and i = 2e1 + 1 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and i < N and 0 <= j < M and i - 3 <= j <= i and i <= 3); \
S1[ii, i, j] -> [ii, i, j, 1] : exists (e0, e1, e2 : j = i + 2e2 - 3 and i = 2e1 + 1 and ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and 4 <= i < N and 0 <= j < M and i - 3 <= j <= i) } \
[N, M] -> { : } { }";

/// The kernel's loop nest: the statement instances in execution order.
fn kernel(n: i64, m: i64) -> Vec<(String, Vec<i64>)> {
    let mut out = Vec::new();
    let mut ii = 0;
    while ii < n {
        for i in ii..(ii + 4).min(n) {
            let mut j = (i - 3).max(0);
            while j <= (m - 1).min(i + 3) {
                let s = if i % 2 == 0 || j > i { "S0" } else { "S1" };
                out.push((s.to_string(), vec![ii, i, j]));
                j += 2;
            }
        }
        ii += 4;
    }
    out
}

#[test]
fn the_tile_loop_of_tiled_mix_keeps_its_stride() {
    let i = parse_map_input(TILED_MIX).unwrap();
    let c = generate_with_options(&i.schedule, &i.context, &i.loops).unwrap();
    let text = c.to_c();
    assert!(text.contains("c0 += 4"), "{text}");
    assert!(!text.contains("% 4"), "{text}");
    assert!(text.contains("for (int c1 = c0; "), "{text}");
    for n in -1..11 {
        for m in -1..9 {
            let t = run(&c, &[("N".into(), n), ("M".into(), m)], 100_000).unwrap();
            assert_eq!(t, kernel(n, m), "N = {n}, M = {m}\n{text}");
        }
    }
}
