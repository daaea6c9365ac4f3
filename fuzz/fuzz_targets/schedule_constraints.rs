//! Fuzz target `schedule_constraints`: schedule-constraints files: no panic; schedules valid by brute force
//! (body: `testkit::fuzz::schedule_constraints`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::schedule_constraints(data));
