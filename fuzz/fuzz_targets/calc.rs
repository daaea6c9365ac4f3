//! Fuzz target `calc`: the calculator language: no internal error, one output line per value or error
//! (body: `testkit::fuzz::calc`, given the calculator of the `calc` crate).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::calc(data, |script, out| {
    let summary = calc::run_script(script, true, out).expect("writing to a vector cannot fail");
    summary.values + summary.errors
}));
