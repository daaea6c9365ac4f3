//! `poly schedule`: output format, errors, and the shared checker.

use std::process::Command;

fn poly() -> Command {
    Command::new(env!("CARGO_BIN_EXE_poly"))
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("poly-schedule-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn prints_a_yaml_tree() {
    let f = write(
        "ok.sc",
        "# two statements\ndomain: \"[n] -> { A[i] : 0 <= i < n; B[i] : 0 <= i < n }\"\n\
         validity: \"[n] -> { A[i] -> B[i] : 0 <= i < n }\"\n",
    );
    let out = poly().arg("schedule").arg(&f).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("domain: \"[n] -> { A[i] : 0 <= i < n; B[i] : 0 <= i < n }\"\nchild:\n"),
        "{text}"
    );
    assert!(text.contains("  sequence:\n"), "{text}");
}

#[test]
fn bad_input_is_an_error_with_position() {
    let f = write("bad.sc", "domain: \"{ S[i] }\"\nproxmity: \"{ }\"\n");
    let out = poly().arg("schedule").arg(&f).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2, column 1") && err.contains("unknown key"),
        "{err}"
    );
    let out = poly()
        .args(["schedule", "/nonexistent.sc"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn the_shared_checker_passes_every_file() {
    let Some(dir) = testkit::shared_path("schedule") else {
        eprintln!("note: shared folder missing, skipped");
        return;
    };
    let has_islpy = Command::new("python3")
        .args(["-c", "import islpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_islpy {
        eprintln!("note: python3 with islpy missing, skipped");
        return;
    }
    let cmd = format!("{} schedule", env!("CARGO_BIN_EXE_poly"));
    let out = Command::new("python3")
        .arg(dir.join("check.py"))
        .arg(&cmd)
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" passed, 0 failed"), "{text}");
}

#[test]
fn kernels_are_scheduled_from_their_dependences() {
    let Some(dir) = testkit::shared_path("kernels") else {
        eprintln!("note: shared folder missing, skipped");
        return;
    };
    for k in ["gemm", "jacobi_1d", "lrr_listing1", "atax"] {
        let src = std::fs::read_to_string(dir.join(format!("{k}.c"))).unwrap();
        for lrr in [false, true] {
            let sc = poly::schedule::kernel_constraints(&src, lrr).unwrap();
            assert!(!sc.validity.maps().is_empty(), "{k}");
            let s = scheduler::compute_schedule(&sc, &scheduler::Options::default()).unwrap();
            let np = sc.params().len();
            scheduler::check::verify(&sc, &s, &vec![3; np], 4)
                .unwrap_or_else(|e| panic!("{k}: {e}\n{s}"));
        }
    }
    let f = dir.join("gemm.c");
    let out = poly()
        .args(["schedule", "--live-range-reordering"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("coincident: [ 1, 1"));
}

#[test]
fn calc_schedule_respecting_minimizing() {
    use std::io::Write;
    let mut child = poly()
        .args(["calc", "--batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"D := [n] -> { A[i] : 0 <= i < n; B[i] : 0 <= i < n };\nV := [n] -> { B[i] -> A[i + 1] : 0 <= i < n - 1; A[i] -> B[i] : 0 <= i < n };\n\
              S := schedule D respecting V minimizing V;\nS;\nschedule := 2; schedule + 1;\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("[n] -> { "), "{text}");
    assert!(
        lines[0].contains("A[i] -> [") && lines[0].contains("B[i] -> ["),
        "{text}"
    );
    // a variable named `schedule` still works
    assert_eq!(lines.last().copied(), Some("3"), "{text}");
}

#[test]
fn fallback_original_prints_the_kernel_schedule_when_the_budget_runs_out() {
    let k = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scop/tests/kernels/cholesky.c"
    );
    let out = poly()
        .args(["schedule", "--budget", "1000", k])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("budget"));
    let out = poly()
        .args(["schedule", "--budget", "1000", "--fallback-original", k])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("printing the original schedule"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("permutable: 0"), "{text}");
    // with the default budget the scheduler's own schedule, and no note
    let out = poly()
        .args(["schedule", "--fallback-original", k])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a constraints file has no original schedule
    let f = write("fb.sc", "domain: \"{ S[i] : 0 <= i < 4 }\"\n");
    let out = poly()
        .arg("schedule")
        .arg("--fallback-original")
        .arg(&f)
        .output()
        .unwrap();
    assert!(!out.status.success());
}
