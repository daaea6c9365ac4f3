//! Fuzz target `interp`: the reference interpreter against the model's instance counts
//! (body: `testkit::fuzz::interp`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::interp(data));
