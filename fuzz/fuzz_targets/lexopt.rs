//! Fuzz target `lexopt`: lexmin/lexmax of generated relations against enumeration
//! (body: `testkit::fuzz::lexopt`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::lexopt(data));
