//! Helpers shared by the integration tests: checksum lines compared with
//! the interpreter's at a relative 1e-9 (vectorized loops reassociate
//! reductions; FMA rounds once where the C code rounds twice).
#![allow(dead_code)]

pub fn values(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .map(|l| {
            let (n, v) = l.split_once(' ').expect("NAME VALUE");
            (n.to_string(), v.parse().expect("a number"))
        })
        .collect()
}

pub fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The checksum lines `got` agree with the interpreter's `want` (same
/// arrays, values within [`close`]).
pub fn agree(want: &str, got: &str, what: &str) {
    let (w, g) = (values(want), values(got));
    assert_eq!(w.len(), g.len(), "{what}");
    for ((n, a), (m, b)) in w.iter().zip(&g) {
        assert_eq!(n, m, "{what}");
        assert!(
            close(*a, *b),
            "{what}: {n} {a} (interpreter) vs {b} (compiled)"
        );
    }
}
