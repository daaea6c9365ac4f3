//! Fuzz target `simplify`: coalesce, gist and hulls keep the meaning (membership in a box)
//! (body: `testkit::fuzz::simplify`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::simplify(data));
