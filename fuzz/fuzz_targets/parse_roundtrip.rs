//! Fuzz target `parse_roundtrip`: isl notation: no panic; print ∘ parse is a fixed point
//! (body: `testkit::fuzz::parse_roundtrip`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::parse_roundtrip(data));
