//! Fuzz target `codegen_input`: AST generation inputs (.in maps, .st trees): no panic; generated code runs
//! (body: `testkit::fuzz::codegen_input`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| testkit::fuzz::codegen_input(data));
