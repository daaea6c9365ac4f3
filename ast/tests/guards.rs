//! Guards in front of loops: a condition on the outer dimensions that the
//! body's own loops enforce is not printed (isl's code for gemm has no
//! `if (nj >= 1)`), one they do not enforce stays; the instances are checked
//! against enumeration at small parameter values.

use ast::{generate_with_options, parse_map_input, run};

fn code(input: &str) -> ast::Node {
    let i = parse_map_input(input).unwrap();
    generate_with_options(&i.schedule, &i.context, &i.loops).unwrap()
}

/// The instances `(name, i, j)` of `S`/`T` in lexicographic order of their
/// times, by enumeration.
fn expected(n: i64, m: i64, with_t: bool, cond: impl Fn(i64, i64, i64, i64) -> bool) -> usize {
    let mut count = 0;
    for i in 0..n.max(0) {
        for j in 0..m.max(0) {
            if cond(i, j, n, m) {
                count += 1;
            }
        }
        if with_t {
            count += 1;
        }
    }
    count
}

#[test]
fn a_guard_the_inner_loop_enforces_is_dropped() {
    let c = code("[n, m] -> { S[i, j] -> [i, j] : 0 <= i < n and 0 <= j < m } [n, m] -> { : } { }");
    assert_eq!(c.counts(), (2, 0, 1), "{c}");
    for n in -1..4 {
        for m in -1..4 {
            let t = run(&c, &[("n".into(), n), ("m".into(), m)], 1000).unwrap();
            assert_eq!(
                t.len(),
                expected(n, m, false, |_, _, _, _| true),
                "n = {n}, m = {m}\n{c}"
            );
        }
    }
}

#[test]
fn a_guard_the_inner_loops_do_not_enforce_stays() {
    // `p >= 1` bounds nothing inside: without the guard S would run for p <= 0
    let c = code(
        "[n, m, p] -> { S[i, j] -> [i, j] : 0 <= i < n and 0 <= j < m and p >= 1 } [n, m, p] -> { : } { }",
    );
    assert!(c.to_c().contains("p >= 1"), "{c}");
    // T runs in the outer loop itself: the inner loop's bounds say nothing about it
    let c2 = code("[n, m] -> { S[i, j] -> [i, 0, j] : 0 <= i < n and 0 <= j < m; T[i] -> [i, 1, 0] : 0 <= i < n } [n, m] -> { : } { }");
    for (code, with_p) in [(&c, true), (&c2, false)] {
        for n in -1..4 {
            for m in -1..4 {
                for p in [0, 1] {
                    let params = [("n".into(), n), ("m".into(), m), ("p".into(), p)];
                    let t = run(code, &params, 1000).unwrap();
                    let want = if with_p {
                        if p >= 1 {
                            expected(n, m, false, |_, _, _, _| true)
                        } else {
                            0
                        }
                    } else {
                        expected(n, m, true, |_, _, _, _| true)
                    };
                    assert_eq!(t.len(), want, "n = {n}, m = {m}, p = {p}\n{code}");
                }
            }
        }
    }
}

#[test]
fn a_guard_implied_by_the_loop_stride_is_dropped() {
    // the outer loop steps by 4 from 0: T's `ii mod 4 = 0` (an existential
    // of T's own) and `i < N` (the inner loop's bound) are implied there,
    // only `i` even and `i >= 4` are tested
    let c = code(
        "[N] -> { S[ii, i] -> [ii, i, 0] : exists (e0 : ii = 4e0 and 0 <= ii < N and ii <= i <= ii + 3 and i < N); \
         T[ii, i] -> [ii, i, 1] : exists (e0, e1 : ii = 4e0 and i = 2e1 and 0 <= ii < N and ii <= i <= ii + 3 and 4 <= i < N) } \
         [N] -> { : } { }",
    );
    let text = c.to_c();
    assert_eq!(c.counts(), (2, 1, 2), "{text}");
    assert!(!text.contains("% 4") && !text.contains("N >="), "{text}");
    for n in -1..12 {
        let mut want = Vec::new();
        for ii in (0..n.max(0)).step_by(4) {
            for i in ii..(ii + 4).min(n) {
                want.push(("S".to_string(), vec![ii, i]));
                if i % 2 == 0 && i >= 4 {
                    want.push(("T".to_string(), vec![ii, i]));
                }
            }
        }
        let t = run(&c, &[("N".into(), n)], 10_000).unwrap();
        assert_eq!(t, want, "N = {n}\n{text}");
    }
}

#[test]
fn a_guard_implied_by_every_part_of_the_loop_bounds_is_dropped() {
    // the loop over the union runs from min(0, 3) = 0: T's `i >= 0` holds
    // in it though no row is common to both parts' lower bounds
    let c = code(
        "[n, m] -> { S[i] -> [i, 0] : 3 <= i < n; T[i] -> [i, 1] : exists (e : i = 3e + 1 and 0 <= i < m) } \
         [n, m] -> { : } { }",
    );
    let text = c.to_c();
    assert!(!text.contains(">= 0"), "{text}");
    for n in -1..8 {
        for m in -1..8 {
            let mut want = Vec::new();
            for i in 0..n.max(m).max(0) {
                if 3 <= i && i < n {
                    want.push(("S".to_string(), vec![i]));
                }
                if i % 3 == 1 && i < m {
                    want.push(("T".to_string(), vec![i]));
                }
            }
            let t = run(&c, &[("n".into(), n), ("m".into(), m)], 10_000).unwrap();
            assert_eq!(t, want, "n = {n}, m = {m}\n{text}");
        }
    }
}
