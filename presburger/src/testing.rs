//! The base constraint pool of the property tests, for the unit tests of
//! this crate's private modules (`refute`, `guess`). The one copy is
//! `testkit/src/pool_base.rs`: the unit tests cannot link against testkit
//! (that would be a second copy of this crate, with other types), so the
//! file is included here. Oracles and the other fixtures live in `testkit`,
//! for the integration tests.

include!("../../testkit/src/pool_base.rs");

/// A small deterministic generator (xorshift) for the unit tests' random
/// inputs: a fixed seed gives the same cases on every run.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// A value in `0..n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `[n] -> { TUPLES : c and ... }` with the constraints `picks` of `pool`
/// (`true` for none): the random relations of the unit tests' pools.
pub(crate) fn pooled_map(pool: &[&str], picks: &[usize], tuples: &str) -> crate::Map {
    let c: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
    let body = if c.is_empty() {
        "true".to_string()
    } else {
        c.join(" and ")
    };
    format!("[n] -> {{ {tuples} : {body} }}").parse().unwrap()
}
