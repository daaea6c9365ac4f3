//! Fuzz target `c_kernel`: the C front end never panics or hangs
//! (body: `testkit::fuzz::c_kernel`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::c_kernel(data));
