//! Runs the isl-derived conformance cases of `../shared/conformance` through
//! the engine and compares answers semantically (the engine's own `is_equal`),
//! with the corpus reader and op table of `testkit` (`testkit::ops`).
//!
//! The shared directory lives beside the repository; when it is missing the
//! test prints a note and passes vacuously.

use std::collections::BTreeMap;
use testkit::corpus::read_cases;
use testkit::ops::{check_within, Verdict};

/// Passed cases, run cases, and a line per failure (with its verdict).
fn run_file(name: &str) -> (usize, usize, Vec<(String, Verdict)>) {
    let Some(path) = testkit::shared_path(&format!("conformance/{name}")) else {
        eprintln!("note: ../shared/conformance not found; skipping {name}");
        return (0, 0, vec![]);
    };
    let text = std::fs::read_to_string(path).unwrap();
    let cases = read_cases(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut by_op: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut fails = Vec::new();
    let (mut pass, mut total) = (0, 0);
    for case in &cases {
        let (id, op) = (&case.id, &case.op);
        if let Ok(f) = std::env::var("CASE") {
            if !f.split(',').any(|x| x == id) {
                continue;
            }
        }
        if std::env::var("TRACE").is_ok() {
            eprintln!("start {id} {op}");
        }
        let t0 = std::time::Instant::now();
        // the operation runs within 20M operations; the judge has budgets of its own
        let verdict = check_within(case, 20_000_000);
        let ms = t0.elapsed().as_millis();
        let ent = by_op.entry(op.clone()).or_default();
        ent.1 += 1;
        total += 1;
        if verdict == Verdict::Right {
            ent.0 += 1;
            pass += 1;
        } else {
            fails.push((format!("{id} ({op}, {ms} ms): {verdict:?}"), verdict));
        }
        if ms > 2000 {
            eprintln!("slow: {id} ({op}) {ms} ms");
        }
    }
    for (op, (p, t)) in &by_op {
        eprintln!("{name} {op:18} {p}/{t}");
    }
    (pass, total, fails)
}

/// Runs a case file. Every answer the engine gives must be right; a case
/// may only fail by running out of the operation budget (reported), and at
/// least `min_pass` cases must pass (the count reached when this was written:
/// raise it as the engine gets faster).
fn check(name: &str, min_pass: usize) {
    let (pass, total, fails) = run_file(name);
    if total == 0 {
        return;
    }
    for (f, _) in fails.iter().take(60) {
        eprintln!("FAIL {f}");
    }
    eprintln!("{name}: {pass} passed, {} failed", total - pass);
    let wrong: Vec<&String> = fails
        .iter()
        .filter(|(_, v)| *v != Verdict::OutOfBudget)
        .map(|(f, _)| f)
        .collect();
    assert!(
        wrong.is_empty(),
        "wrong answers or unexpected errors in {name}: {wrong:#?}"
    );
    assert!(
        pass >= min_pass,
        "{name}: only {pass} cases passed, expected at least {min_pass}"
    );
}

#[test]
fn small() {
    check("small.jsonl", 400);
}

#[test]
fn medium() {
    check("medium.jsonl", 400);
}

#[test]
fn bignum() {
    check("bignum.jsonl", 400);
}

#[test]
fn maps() {
    check("maps.jsonl", 400);
}
