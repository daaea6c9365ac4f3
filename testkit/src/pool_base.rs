// The base constraint pool of the property tests. This file has the one
// copy: `testkit::pool` includes it, and so does `presburger/src/testing.rs`
// for the engine's unit tests of private modules (which cannot link against
// testkit: it would bring a second copy of the engine). Plain items only,
// no `use` and no inner attributes, so that `include!` works in both places.

/// The constraints over `i`, `j` that the property tests' pools start from
/// (bounds, a diagonal, a skewed bound, two equalities); each test appends
/// its own with [`pool_with`].
pub const BASE_POOL: [&str; 9] = [
    "i >= -3",
    "i <= 4",
    "j >= -2",
    "j <= 3",
    "i + j >= 0",
    "i - j <= 2",
    "2i + j <= 5",
    "i = j",
    "i = 2",
];

/// [`BASE_POOL`] followed by `extra`.
pub fn pool_with(extra: &[&'static str]) -> Vec<&'static str> {
    BASE_POOL.iter().chain(extra).copied().collect()
}

/// One extra constraint, as isl text, of the hand-written strategies of
/// the engine's lexmin/lexmax tests: over `lin`, the sum of `a*name` for
/// the non-zero coefficients `a` of `coefs` (`None` when all are zero), by
/// `kind`: 0, `lin + c = 0`; 1, `lin + c` a multiple of `m` (through an
/// existential); 2, `(lin) mod m = 1`; otherwise `lin + c >= 0`.
pub fn extra_constraint(
    coefs: &[i64],
    names: &[impl std::fmt::Display],
    c: i64,
    kind: u8,
    m: i64,
) -> Option<String> {
    let lin: Vec<String> = coefs
        .iter()
        .zip(names)
        .filter(|(a, _)| **a != 0)
        .map(|(a, v)| format!("{a}*{v}"))
        .collect();
    if lin.is_empty() {
        return None;
    }
    let lin = lin.join(" + ");
    Some(match kind {
        0 => format!("{lin} + {c} = 0"),
        1 => format!("exists (e : {lin} + {c} = {m}*e)"),
        2 => format!("({lin}) mod {m} = 1"),
        _ => format!("{lin} + {c} >= 0"),
    })
}
