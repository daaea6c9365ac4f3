//! Fuzz target `set_identities`: set-algebra identities on fuzzer-built sets
//! (body: `testkit::fuzz::set_identities`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::set_identities(data));
