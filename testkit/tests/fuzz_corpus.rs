//! Replays the stored fuzz corpus (`fuzz/corpus/<target>/*`) through the
//! fuzz-target bodies, so regressions found by fuzzing are caught by a plain
//! `cargo test` (and by CI without cargo-fuzz). The `calc` target needs the
//! calculator, so its corpus is replayed by the `calc` crate's tests (`calc/tests/calc.rs`).

use testkit::fuzz::{corpus, replay, run, TARGETS};

#[test]
fn parse_roundtrip_corpus() {
    replay("parse_roundtrip", |d| run("parse_roundtrip", d));
}

#[test]
fn set_identities_corpus() {
    replay("set_identities", |d| run("set_identities", d));
}

#[test]
fn brute_force_corpus() {
    replay("brute_force", |d| run("brute_force", d));
}

#[test]
fn every_target_has_a_corpus() {
    for t in TARGETS {
        assert!(!corpus(t).is_empty(), "no corpus for {t}");
    }
}
