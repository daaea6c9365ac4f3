//! `poly codegen` end to end: the printed C for a small input, and errors
//! with positions for malformed input.

use std::process::Command;

fn poly(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .expect("run poly");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("poly-codegen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn sequence_of_two_loops() {
    let f = write(
        "seq.in",
        "[n] -> { A[i] -> [0, i] : 0 <= i < n; B[i] -> [1, i] : 0 <= i < n }\n[n] -> { : n >= 0 }\n{ }\n",
    );
    let (ok, out, err) = poly(&["codegen", &f]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "for (int c1 = 0; c1 <= n - 1; c1 += 1)\n  A(c1);\nfor (int c1 = 0; c1 <= n - 1; c1 += 1)\n  B(c1);\n"
    );
}

#[test]
fn stride_and_substitution() {
    let f = write(
        "shift.in",
        "{ A[i] -> [2i]: 0 <= i < 10; B[i] -> [2i+1] : 0 <= i < 10 }\n{ : }\n{ }\n",
    );
    let (ok, out, err) = poly(&["codegen", &f]);
    assert!(ok, "{err}");
    // the interleaved stride is split: one loop, A before B inside (isl's code)
    assert_eq!(
        out,
        "for (int c0 = 0; c0 <= 9; c0 += 1) {\n  A(c0);\n  B(c0);\n}\n"
    );
}

#[test]
fn malformed_input_is_an_error_with_position() {
    let f = write("bad.in", "{ A[i] -> [i] : 0 <= i < }\n{ : }\n");
    let (ok, _, err) = poly(&["codegen", &f]);
    assert!(!ok);
    assert!(err.contains("line 1"), "{err}");
    let f = write("short.in", "{ A[i] -> [i] : 0 <= i < 5 }\n");
    let (ok, _, err) = poly(&["codegen", &f]);
    assert!(!ok);
    assert!(err.contains("parse error"), "{err}");
}
