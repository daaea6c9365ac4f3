//! Fuzz target `calc`: the calculator language: no internal error, one output line per value or error
//! (body: `testkit::fuzz::calc`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::calc(data));
