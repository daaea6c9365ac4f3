//! `poly compile --emit c`: the C function printed for every kernel is
//! compiled by gcc (when present) behind a harness with the interpreter's
//! input convention; its checksums must equal the interpreter's.

use std::path::Path;
use std::process::Command;

use lower::ParamClass;

#[test]
fn emitted_c_compiles_and_agrees_with_the_interpreter() {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("note: gcc is absent; skipped");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir().join(format!("lower_c_emit_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    for d in [
        root.join("../shared/kernels"),
        root.join("scop/tests/kernels"),
    ] {
        // (issue 21) under CI a missing shared folder is a failure, not a skip
        assert!(
            d.exists() || !matches!(std::env::var("CI").as_deref(), Ok("true" | "1")),
            "the shared test data {} is missing, and CI is set: tests that need it fail under CI instead of passing vacuously (put `shared` beside the repository)",
            d.display()
        );
        if let Ok(rd) = std::fs::read_dir(&d) {
            paths.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "c")),
            );
        }
    }
    paths.sort();
    for path in paths {
        let src = std::fs::read_to_string(&path).unwrap();
        let front = lower::front(&src).unwrap();
        let (k, node) = lower::kernel_and_loops(&front).unwrap();
        let mut text = lower::c_function(&k, &front.function, &node).unwrap();
        let values: Vec<(String, i64)> = front
            .model
            .params()
            .iter()
            .enumerate()
            .map(|(i, p)| (p.clone(), 4 + i as i64 * 2))
            .collect();
        let get = |n: &str| values.iter().find(|(p, _)| p == n).map(|(_, v)| *v);
        // the harness: the convention of `poly interp`
        text.push_str("\n#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n");
        let (mut nd, mut na, mut call) = (0, 0, Vec::new());
        let mut sums = String::new();
        for (name, class) in &k.params {
            match class {
                ParamClass::Int => {
                    text.push_str(&format!("  int {name} = {};\n", get(name).unwrap()))
                }
                ParamClass::Double => {
                    text.push_str(&format!("  double {name} = 1.5 + 0.25 * {nd};\n"));
                    nd += 1;
                }
                ParamClass::Array => {
                    let len: i64 = k.arrays[name]
                        .sizes
                        .iter()
                        .map(|s| s.eval(&get).unwrap())
                        .product();
                    text.push_str(&format!(
                        "  double *{name} = malloc(sizeof(double) * {});\n  for (long h_x = 0; h_x < {len}; h_x++) {name}[h_x] = ((h_x * 7 + {na} * 13) % 101) / 101.0 + 0.5;\n",
                        len.max(1)
                    ));
                    sums.push_str(&format!(
                        "  {{ double h_s = 0; for (long h_x = 0; h_x < {len}; h_x++) h_s += {name}[h_x] * (1 + h_x % 7); printf(\"{name} %.12e\\n\", h_s); }}\n"
                    ));
                    na += 1;
                }
            }
            call.push(if *class == ParamClass::Array {
                format!("(void *){name}")
            } else {
                name.clone()
            });
        }
        text.push_str(&format!(
            "  {}({});\n{sums}  return 0;\n}}\n",
            k.name,
            call.join(", ")
        ));
        let c = dir.join(format!("{}.c", k.name));
        let exe = dir.join(&k.name);
        std::fs::write(&c, &text).unwrap();
        let out = Command::new("gcc")
            .args(["-O1", "-ffp-contract=off", "-o"])
            .arg(&exe)
            .arg(&c)
            .arg("-lm")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: gcc failed:\n{}\n{text}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        let got = String::from_utf8_lossy(&run.stdout).to_string();
        let assignments: Vec<String> = values.iter().map(|(p, v)| format!("{p}={v}")).collect();
        let want = scop::commands::interp_function(&front.function, &assignments).unwrap();
        for (a, b) in want.lines().zip(got.lines()) {
            let (n1, x) = a.split_once(' ').unwrap();
            let (n2, y) = b.split_once(' ').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert_eq!(n1, n2);
            assert!(
                x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
                "{}: {a} vs {b}",
                path.display()
            );
        }
        assert_eq!(
            want.lines().count(),
            got.lines().count(),
            "{}: {got}",
            path.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
