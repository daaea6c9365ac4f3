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
