//! The interpreter's checksums equal those of the kernel compiled by the
//! machine's C compiler (skipped when no `cc` is available).

mod common;

use std::collections::HashMap;
use std::process::Command;

fn have_cc() -> bool {
    Command::new("cc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn interpreter_matches_cc() {
    if !have_cc() {
        eprintln!("note: no `cc` found; skipping the interpreter-vs-C comparison");
        return;
    }
    let dir = std::env::temp_dir().join(format!("scop-interp-vs-cc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kernels = common::all_kernels();
    assert!(kernels.len() >= 6, "kernels found: {}", kernels.len());
    for path in kernels {
        let p = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let params = common::param_values(&src);
        let args: Vec<String> = std::iter::once(p.clone())
            .chain(params.iter().map(|(n, v)| format!("{n}={v}")))
            .collect();
        let ours = scop::interp_command(&args).unwrap_or_else(|e| panic!("{p}: {e}"));
        let ints: HashMap<String, i64> = params.into_iter().collect();
        let abs = std::fs::canonicalize(&path).unwrap();
        let driver =
            scop::driver::c_driver(&abs.display().to_string(), &src, &ints, &HashMap::new())
                .unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let c_file = dir.join(format!("{stem}_driver.c"));
        let exe = dir.join(format!("{stem}_driver"));
        std::fs::write(&c_file, driver).unwrap();
        let out = Command::new("cc")
            .args(["-O0", "-ffp-contract=off", "-o"])
            .arg(&exe)
            .arg(&c_file)
            .arg("-lm")
            .output()
            .expect("run cc");
        assert!(
            out.status.success(),
            "{p}: cc failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().expect("run driver");
        assert!(run.status.success(), "{p}: driver failed");
        let theirs = String::from_utf8_lossy(&run.stdout).to_string();
        assert_eq!(ours, theirs, "{p}: interpreter vs cc");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scalar_parameters_can_be_overridden() {
    let src = "void k(int N, double a, double b, double A[N]) {\n  for (int i = 0; i < N; i++) A[i] = a * 10 + b;\n}";
    let default = scop::commands::interp_source(src, &["N=3".into()]).unwrap();
    let given =
        scop::commands::interp_source(src, &["N=3".into(), "a=1.5".into(), "b=1.75".into()])
            .unwrap();
    assert_eq!(default, given);
    let other = scop::commands::interp_source(src, &["N=3".into(), "b=0".into()]).unwrap();
    assert_ne!(default, other);
    // a = 1.5, b = 1.75: each element is 16.75; weights 1 + 2 + 3.
    assert_eq!(
        default,
        format!("A {}\n", scop::interp::format_c_exp(16.75 * 6.0, 12))
    );
}

#[test]
fn interp_usage_errors() {
    let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 0; }";
    assert!(scop::commands::interp_source(src, &[]).is_err());
    assert!(scop::commands::interp_source(src, &["N".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["N=x".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["Q=1".into()]).is_err());
    assert!(scop::commands::interp_source(src, &["N=-5".into()]).is_err());
    assert!(scop::interp_command(&[]).is_err());
    assert!(scop::interp_command(&["/nonexistent/file.c".into()]).is_err());
    assert!(scop::scop_command(&[]).is_err());
}
