//! Versioning (issue 19): at random parameter values, whenever the
//! run-time check holds (and the accesses fit the arrays, `poly run`'s
//! other condition) the compiled code gives the interpreter's checksums;
//! whenever the parameters make the model wrong — the original program
//! overflows a signed `int`, runs an error path, leaves an inner extent or
//! steps over the bound of a `!=` loop — the check is false.

use std::collections::HashMap;

use assumptions::Choice;

/// Kernels with `int` parameters (what `lower` compiles) and an
/// assumption or restriction each.
const KERNELS: [(&str, &str); 5] = [
    // inner extent 10: j + s must stay in 0..10 (an assumption)
    (
        "rows",
        "void rows(int n, int m, int s, double A[n][10], double B[n][10]) {
           for (int i = 0; i < n; i++)
             for (int j = 0; j < m; j++)
               A[i][j + s] = A[i][j + s] + 2.0 * B[i][j];
         }",
    ),
    // i + s must not overflow int (a restriction)
    (
        "wrap",
        "void wrap(int n, int s, double A[64]) {
           for (int i = 0; i < n; i++)
             A[i] = A[i] + (i + s) * 0.5;
         }",
    ),
    // the error path must not run (a restriction)
    (
        "error",
        "void error(int n, int m, double A[64]) {
           for (int i = 0; i < n; i++) {
             if (i > m)
               abort();
             A[i] = A[i] * 3.0;
           }
         }",
    ),
    // the error path returns early
    (
        "early",
        "void early(int n, int m, double A[64]) {
           for (int i = 0; i < n; i++) {
             if (i * 2 > m)
               return;
             A[i] = A[i] + 1.0;
           }
         }",
    ),
    // an increment that wraps at the top of int
    (
        "top",
        "void top(int n, int s, double A[8]) {
           for (int i = s; i <= n; i++)
             A[0] = A[0] + 1.0;
         }",
    ),
];

/// Values drawn around the interesting places: small, near the extents
/// and near the top of `int`.
fn draw(seed: &mut u64) -> i64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = (*seed >> 33) as i64;
    let top = i32::MAX as i64;
    match (*seed >> 13) % 4 {
        0 | 1 => r % 14 - 3,
        2 => r % 70,
        _ => top - r % 6,
    }
}

/// Why the interpreter's run shows the model wrong, if it does.
fn model_wrong(e: &str) -> bool {
    e.contains("signed integer overflow")
        || e.contains("error path")
        // an inner subscript (the outermost extent is not modelled)
        || (e.contains("subscript ") && !e.contains("subscript 0 "))
}

#[test]
fn the_check_chooses_code_that_computes_what_the_original_does() {
    let mut seed = 0x5eed_1234_u64;
    for (name, src) in KERNELS {
        let front = lower::front(src).unwrap();
        let (k, node, copies) = lower::prepare(&front).unwrap();
        let code = lower::compile_jammed(&k, &node, &copies).unwrap();
        let params: Vec<String> = front
            .function
            .params
            .iter()
            .filter(|p| matches!(p.kind, scop::ast::ParamKind::Int(_)))
            .map(|p| p.name.clone())
            .collect();
        let (mut optimized, mut original, mut wrong, mut compared) = (0, 0, 0, 0);
        for _ in 0..60 {
            let mut ints: HashMap<String, i64> = params
                .iter()
                .map(|p| (p.clone(), draw(&mut seed)))
                .collect();
            if name == "top" {
                // a few iterations, sometimes ending at the top of int
                let s = ints["n"] - draw(&mut seed).rem_euclid(5);
                ints.insert("s".into(), s);
            }
            let args: Vec<String> = ints.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let Ok(state) = scop::interp::initial_state(&front.function, &ints, &HashMap::new())
            else {
                continue; // negative or huge extents: no program to run
            };
            let reference = scop::commands::interp_function(&front.function, &args);
            let choice = lower::version(&front, &state).unwrap();
            // an early return is no error: the model (the kernel without
            // it) is wrong where the return changes the result
            if name == "early" {
                let model = src.replace("return;", ";");
                let f = scop::parse_kernel(&model).unwrap();
                if scop::commands::interp_function(&f, &args).ok()
                    != reference.as_ref().ok().cloned()
                {
                    wrong += 1;
                    assert!(
                        matches!(choice, Choice::Original(_)),
                        "{name} at {args:?}: the early return runs but the check holds"
                    );
                }
            }
            if let Err(e) = &reference {
                if model_wrong(&e.to_string()) {
                    wrong += 1;
                    assert!(
                        matches!(choice, Choice::Original(_)),
                        "{name} at {args:?}: the model is wrong ({e}) but the check holds"
                    );
                }
            }
            match choice {
                Choice::Original(_) => original += 1,
                Choice::Optimized => {
                    optimized += 1;
                    if !lower::accesses_in_bounds(&front.model, &ints).unwrap() {
                        continue; // poly run uses the interpreter
                    }
                    let want = reference.unwrap_or_else(|e| {
                        panic!("{name} at {args:?}: check holds, in bounds, but the original fails: {e}")
                    });
                    let got =
                        lower::run(&code, &k, &front.function, &args, 1, &mut |_, _| {}).unwrap();
                    assert_eq!(got.checksums, want, "{name} at {args:?}");
                    compared += 1;
                }
            }
        }
        assert!(
            compared > 0 && original > 0 && wrong > 0,
            "{name}: {optimized} optimized ({compared} compared), {original} original, {wrong} wrong models"
        );
    }
}

#[test]
fn a_not_equal_loop_that_steps_over_its_bound_runs_the_original() {
    let src = "void ne(int n, double A[128]) {
      for (int i = 0; i != n; i += 2)
        A[i] = A[i] + 1.0;
    }";
    let front = lower::front(src).unwrap();
    for n in -3..40 {
        let ints: HashMap<String, i64> = [("n".to_string(), n)].into();
        let state = scop::interp::initial_state(&front.function, &ints, &HashMap::new()).unwrap();
        // C reaches n exactly when it is even and not negative; otherwise
        // i runs on until it overflows
        let reaches = n >= 0 && n % 2 == 0;
        assert_eq!(
            lower::version(&front, &state).unwrap() == Choice::Optimized,
            reaches,
            "n = {n}"
        );
    }
}
