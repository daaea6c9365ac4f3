//! Pivots on big numbers charge the operation budget by the size of the
//! numbers (`matrix::big_cost`), not only by the tableau's shape: the same
//! problem with huge constants spends more, and a budget that the small
//! version fits in is not enough for the huge one (a fuzz finding: a
//! schedule with 100-digit constants took 145 s of CPU under `poly
//! schedule`'s default budget).

use presburger::{budget, Map, Set};

/// The budget `f` spends (unbounded outer budget).
fn spent<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let b = budget::enter(u64::MAX / 2);
    let r = f();
    let s = b.spent();
    drop(b);
    (r, s)
}

/// A parametric lexmin whose constants are `c` (same shape for every `c`).
fn problem(c: &str) -> Map {
    format!(
        "[n, m] -> {{ [i] -> [j, k] : j >= i + {c} and j >= 2i - n and k >= j - m + {c} \
         and k >= i + j - {c} and 3j + 2k <= 7n + m + {c} and j <= 5m + i }}"
    )
    .parse()
    .unwrap()
}

#[test]
fn lexmin_charges_big_numbers() {
    let (small, s_small) = spent(|| problem("7").lexmin().unwrap());
    let huge = "1000000000000000000000000000000000000000000000000000000000007";
    let (big, s_big) = spent(|| problem(huge).lexmin().unwrap());
    assert!(!small.is_empty().unwrap() && !big.is_empty().unwrap());
    assert!(
        s_big > s_small + 100,
        "huge constants charged {s_big}, small ones {s_small}"
    );
    // the small problem's budget is not enough for the huge one
    let r = budget::with_budget(s_small + 1, || problem(huge).lexmin());
    assert!(r.is_err(), "the huge problem fit the small one's budget");
    assert!(budget::with_budget(s_small + 1, || problem("7").lexmin()).is_ok());
}

#[test]
fn lp_charges_big_numbers() {
    let shape = |c: &str| -> Set {
        format!(
            "{{ [i, j, k] : i >= {c} and j >= i - {c} and k >= i + j and 2i + 3j + 5k <= 11 * {c} + 13 \
             and i + j + k >= 3 }}"
        )
        .parse()
        .unwrap()
    };
    let (_, s_small) = spent(|| shape("3").lexmax());
    let huge = "99999999999999999999999999999999999999999999999999999999999";
    let (r, s_big) = spent(|| shape(huge).lexmax());
    assert!(r.is_ok());
    assert!(
        s_big > s_small,
        "huge constants charged {s_big}, small ones {s_small}"
    );
}
