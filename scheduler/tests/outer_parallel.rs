//! `Options::outer_parallel` against the full run (its oracle): where the
//! run stops early, the full tree has no coincident outermost band; where
//! it does not, the tree is the same.

use scheduler::{compute_schedule, Error, Options, ScheduleConstraints};

/// The run with and without the early stop agree; `Some(stopped)`.
fn agrees(sc: &ScheduleConstraints, what: &str) -> Option<bool> {
    let full = match compute_schedule(sc, &Options::default()) {
        Ok(s) => s,
        Err(Error::Invalid(_)) => return None,
        Err(e) => panic!("{what}: {e}"),
    };
    let opts = Options {
        outer_parallel: true,
        ..Options::default()
    };
    match compute_schedule(sc, &opts) {
        Err(Error::NoOuterParallel) => {
            assert!(!full.outer_coincident(), "{what}: stopped, but\n{full}");
            Some(true)
        }
        Ok(s) => {
            assert_eq!(s.to_string(), full.to_string(), "{what}");
            Some(false)
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

#[test]
fn the_early_stop_agrees_with_the_full_run_on_handmade_cases() {
    // one component, a carried dependence: the first row is not coincident
    let chain: ScheduleConstraints = "domain: \"[n] -> { S[i] : 0 <= i < n }\"\n\
        validity: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }\"\n\
        coincidence: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }\"\n\
        proximity: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }\""
        .parse()
        .unwrap();
    assert_eq!(agrees(&chain, "chain"), Some(true));
    // a parallel outer row: no stop, the same tree
    let rows: ScheduleConstraints = "domain: \"[n] -> { S[i, j] : 0 <= i, j < n }\"\n\
        validity: \"[n] -> { S[i, j] -> S[i, j + 1] : 0 <= i < n and 0 <= j < n - 1 }\"\n\
        coincidence: \"[n] -> { S[i, j] -> S[i, j + 1] : 0 <= i < n and 0 <= j < n - 1 }\""
        .parse()
        .unwrap();
    assert_eq!(agrees(&rows, "rows"), Some(false));
    // two components, each with a parallel row once distributed (fused,
    // the first row carries the dependence from A to B): no stop
    let two: ScheduleConstraints = "domain: \"[n] -> { A[i] : 0 <= i < n; B[i] : 0 <= i < n }\"\n\
        validity: \"[n] -> { A[i] -> B[j] : 0 <= i < n and 0 <= j < n }\"\n\
        coincidence: \"[n] -> { A[i] -> B[j] : 0 <= i < n and 0 <= j < n }\"\n\
        proximity: \"[n] -> { A[i] -> B[j] : 0 <= i < n and 0 <= j < n }\""
        .parse()
        .unwrap();
    assert_eq!(agrees(&two, "two"), Some(false));
    // two components, one a chain that no row keeps at zero distance, the
    // other free: distributing gains no parallel row in every component,
    // the fused band's first member is not coincident (the root's
    // hopeless-component shortcut decides it)
    let chain_and_free: ScheduleConstraints =
        "domain: \"[n] -> { S[i] : 0 <= i < n; T[i] : 0 <= i < n }\"\n\
        validity: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1; S[i] -> T[i] : 0 <= i < n }\"\n\
        coincidence: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1; S[i] -> T[i] : 0 <= i < n }\"\n\
        proximity: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1; S[i] -> T[i] : 0 <= i < n }\""
            .parse()
            .unwrap();
    assert_eq!(agrees(&chain_and_free, "chain and free"), Some(true));
}

#[test]
fn the_early_stop_agrees_with_the_full_run_on_the_shared_files() {
    let Some(dir) = testkit::shared_path("schedule") else {
        eprintln!("note: shared folder missing, skipped");
        return;
    };
    let (mut n, mut stopped) = (0, 0);
    for sub in ["isl", "kernels", "handmade"] {
        for f in testkit::files_with_suffix(&dir.join(sub), ".sc") {
            let text = std::fs::read_to_string(&f).unwrap();
            let sc: ScheduleConstraints = text.parse().unwrap();
            if let Some(s) = agrees(&sc, &f.display().to_string()) {
                n += 1;
                stopped += usize::from(s);
            }
        }
    }
    eprintln!("{stopped} of {n} runs stopped early");
    assert!(n >= 25 && stopped >= 3, "{stopped} of {n}");
}
