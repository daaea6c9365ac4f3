//! Replays the stored fuzz corpus (`fuzz/corpus/<target>/*`) through the
//! fuzz-target bodies, so regressions found by fuzzing are caught by a plain
//! `cargo test` (and by CI without cargo-fuzz).

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).expect("readable corpus file"),
            )
        })
        .collect();
    files.sort();
    files
}

fn replay(target: &str) {
    let files = corpus(target);
    assert!(
        files.len() >= 10,
        "fuzz/corpus/{target} should hold at least 10 seeds, has {}",
        files.len()
    );
    for (name, data) in &files {
        let r = std::panic::catch_unwind(|| testkit::fuzz::run(target, data));
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!(
                "fuzz target {target} fails on fuzz/corpus/{target}/{name}: {}",
                msg.unwrap_or_default()
            );
        }
    }
}

#[test]
fn parse_roundtrip_corpus() {
    replay("parse_roundtrip");
}

#[test]
fn calc_corpus() {
    replay("calc");
}

#[test]
fn set_identities_corpus() {
    replay("set_identities");
}

#[test]
fn brute_force_corpus() {
    replay("brute_force");
}

#[test]
fn every_target_has_a_corpus() {
    for t in testkit::fuzz::TARGETS {
        assert!(!corpus(t).is_empty(), "no corpus for {t}");
    }
}
