//! Fuzz target `brute_force`: engine vs brute-force enumeration in a small box
//! (body: `testkit::fuzz::brute_force`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::brute_force(data));
