//! Peeling of a first iteration fixed by a statement's disjunct: a
//! statement with one disjunct at `c0 = 0` and others at `c0 >= 4`
//! (tiled_mix's first tile once the coalescer fused another statement's
//! tiles) gets the tile `c0 = 0` scanned on its own before the loop over
//! the other tiles, instead of `c0 == 0` guards inside the loop; a
//! statement that only runs at the first iteration keeps its guard.
//! The instances are checked against the schedule's order.

use ast::{generate_with_options, parse_map_input, run};

const FIXED_FIRST_TILE: &str = "[N] -> { \
S[t, j] -> [t, j, 0] : t = 0 and 0 <= j < N; \
S[t, j] -> [t, j, 0] : exists (a : t = 4a and a >= 1 and t <= j <= t + 3 and j < N); \
T[t, j] -> [t, j, 1] : exists (a : t = 4a and t >= 0 and t <= j <= t + 3 and j < N) } \
[N] -> { : } { }";

/// The instances of [`FIXED_FIRST_TILE`] in schedule order.
fn expected(n: i64) -> Vec<(String, Vec<i64>)> {
    let mut out = Vec::new();
    let mut t = 0;
    while t < n {
        for j in 0..n {
            let s = if t == 0 { j < n } else { j >= t && j <= t + 3 };
            if s {
                out.push(("S".to_string(), vec![t, j]));
            }
            if j >= t && j <= t + 3 {
                out.push(("T".to_string(), vec![t, j]));
            }
        }
        t += 4;
    }
    out
}

#[test]
fn a_first_tile_fixed_by_a_disjunct_is_peeled() {
    let i = parse_map_input(FIXED_FIRST_TILE).unwrap();
    let c = generate_with_options(&i.schedule, &i.context, &i.loops).unwrap();
    let text = c.to_c();
    assert!(text.contains("for (int c0 = 4; "), "{text}");
    assert!(text.contains("c0 += 4"), "{text}");
    assert!(!text.contains("c0 == 0"), "{text}");
    for n in -1..15 {
        let t = run(&c, &[("N".into(), n)], 100_000).unwrap();
        assert_eq!(t, expected(n), "N = {n}\n{text}");
    }
}

#[test]
fn a_statement_only_at_the_first_iteration_keeps_its_guard() {
    let i = parse_map_input("{ B[i] -> [i, 0] : 0 <= i < 10; A[] -> [0, 1] } { : } { }").unwrap();
    let c = generate_with_options(&i.schedule, &i.context, &i.loops).unwrap();
    let text = c.to_c();
    assert!(text.contains("for (int c0 = 0; "), "{text}");
    assert!(text.contains("c0 == 0"), "{text}");
    let mut want: Vec<(String, Vec<i64>)> = (0..10).map(|i| ("B".to_string(), vec![i])).collect();
    want.insert(1, ("A".to_string(), vec![]));
    assert_eq!(run(&c, &[], 100_000).unwrap(), want, "{text}");
}
