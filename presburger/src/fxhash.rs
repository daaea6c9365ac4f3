//! A small, fast, deterministic hasher for the engine's internal hash maps
//! (rows of coefficients as keys). The multiply-rotate scheme of Firefox's
//! "FxHash"; not resistant to adversarial keys, which internal maps over a
//! single set's own constraints do not need.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher state.
#[derive(Default, Clone, Copy, Debug)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.add(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_equal_hashes_and_lookup_works() {
        let mut m: FxHashMap<Vec<i64>, usize> = FxHashMap::default();
        for i in 0..1000i64 {
            m.insert(vec![i, -i, i * i], i as usize);
        }
        for i in 0..1000i64 {
            assert_eq!(m.get(&vec![i, -i, i * i]), Some(&(i as usize)));
        }
        assert_eq!(m.get(&vec![1, 1, 1]), None);
    }
}
