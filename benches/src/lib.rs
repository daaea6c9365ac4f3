//! Benchmark support code: see `benches/README.md`.
#![forbid(unsafe_code)]
