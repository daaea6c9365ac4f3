//! Inputs outside the subset give an `Err` with a position and a reason;
//! nothing panics on arbitrary input.

mod common;

/// (source, expected line, expected column, substring of the message)
const CORPUS: &[(&str, usize, usize, &str)] = &[
    (
        "void k(int N, double A[N]) {\n  int i = 0;\n  while (i < N) A[i] = 0;\n}",
        3,
        3,
        "`while`",
    ),
    (
        "void k(int N, double A[N]) {\n  while (N) A[0] = 0;\n}",
        2,
        3,
        "`while`",
    ),
    (
        "void k(int N, double A[N][N]) {\n  for (int i = 0; i < N; i++)\n    for (int j = 0; j < N; j++)\n      A[i*j][0] = 1;\n}",
        4,
        9,
        "non-affine product",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    *(A + i) = 1;\n}",
        3,
        5,
        "pointer dereference",
    ),
    (
        "void k(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    B[i] = *(A + i);\n}",
        3,
        12,
        "pointer dereference",
    ),
    (
        "void k(int N, double **A) {\n  A[0] = 1;\n}",
        1,
        22,
        "pointer parameters",
    ),
    (
        "void k(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    B[i] = A + i;\n}",
        3,
        12,
        "array `A` used as a value",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++) {\n    A[i] = 1;\n",
        2,
        31,
        "unbalanced",
    ),
    (
        "void k(int N, double A[N]) {\n  A[0] = 1;\n}\n}",
        4,
        1,
        "expected a function definition",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    Q[i] = 1;\n}",
        3,
        5,
        "unknown array `Q`",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = Z[i];\n}",
        3,
        12,
        "unknown array `Z`",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N * N; i++)\n    A[0] = 1;\n}",
        2,
    23,
        "non-affine product",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    if (A[i] > 0)\n      A[i] = 1;\n}",
        3,
        9,
        "data-dependent",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = foo(i);\n}",
        3,
        12,
        "call to `foo`",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = i > 2 ? 1.0 : 2.0;\n}",
        3,
        18,
        "?:",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++) {\n    A[i] = 1;\n    break;\n  }\n}",
        4,
        5,
        "`break`",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = A[i][0];\n}",
        3,
        12,
        "subscripts",
    ),
    (
        "void k(int N, double A[N][N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = 0;\n}",
        3,
        5,
        "partial subscript",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i != N - i; i++)\n    A[i] = 0;\n}",
        2,
        19,
        "loop condition",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i *= 2)\n    A[i] = 0;\n}",
        2,
        26,
        "loop step",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    N = 3;\n}",
        3,
        5,
        "assignment to `N`",
    ),
    (
        "void k(int N, float A[N]) {\n}",
        1,
        15,
        "`float`",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = \"x\";\n}",
        3,
        12,
        "string",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[i]++;\n}",
        3,
        9,
        "increments",
    ),
    (
        "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++)\n    A[A[i]] = 0;\n}",
        3,
        7,
        "data-dependent",
    ),
    (
        "int k(int N, double A[N]) {\n  return 0;\n}",
        1,
        1,
        "must return `void`",
    ),
    ("", 1, 1, "no kernel function"),
];

#[test]
fn corpus_of_bad_inputs() {
    let mut bad = Vec::new();
    for (src, line, col, what) in CORPUS {
        if let Err(e) = scop::build_scop(src) {
            let m = e.to_string();
            if !m.contains(what) || (e.line(), e.col()) != (*line, *col) {
                bad.push(format!("{m:?} vs {line}:{col} {what:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    for (src, line, col, what) in CORPUS {
        let err = match scop::build_scop(src) {
            Ok(_) => panic!("accepted:\n{src}"),
            Err(e) => e,
        };
        let msg = err.to_string();
        assert!(
            msg.contains(what),
            "{msg:?} should mention {what:?} for\n{src}"
        );
        assert_eq!((err.line(), err.col()), (*line, *col), "{msg} for\n{src}");
        assert!(msg.starts_with(&format!("{line}:{col}:")), "{msg}");
        // The interpreter refuses the same inputs.
        assert!(scop::commands::interp_source(src, &["N=3".into()]).is_err());
    }
}

#[test]
fn unsupported_errors_name_the_construct() {
    let err = scop::build_scop("void k(int N) { do { } while (1); }").unwrap_err();
    match err {
        scop::Error::Unsupported { construct, .. } => assert_eq!(construct, "do"),
        e => panic!("unexpected {e:?}"),
    }
}

#[test]
fn runtime_errors_are_errors() {
    // Out-of-bounds write: the extent is N but the loop goes to N.
    let src = "void k(int N, double A[N]) {\n  for (int i = 0; i <= N; i++)\n    A[i] = 1;\n}";
    let err = scop::commands::interp_source(src, &["N=4".into()]).unwrap_err();
    assert_eq!((err.line(), err.col()), (3, 5));
    assert!(err.to_string().contains("outside"));
}

use testkit::Lcg;

fn must_not_panic(src: &str, run: bool) {
    let r = std::panic::catch_unwind(|| {
        let built = scop::build_scop(src);
        if let Ok(scop) = &built {
            // the engine-built model and its printing never panic either
            if let Ok(m) = scop::Model::from_scop(scop) {
                assert!(m.to_string().contains("Domain := "));
                assert!(m.to_json().pretty().contains("\"domain\": \""));
            }
        }
        if run && built.is_ok() {
            let _ = scop::commands::interp_source(src, &["N=3".into(), "M=3".into(), "n=3".into()]);
        }
    });
    assert!(r.is_ok(), "panicked on input:\n{src}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(42);
    let alphabet: Vec<char> =
        "void int double for if else ( ) [ ] { } ; , = + - * / % < > ! & | ? : . 0 1 2 9 e E i j N A x \n\t\"'#\\"
            .chars()
            .collect();
    for _ in 0..3000 {
        let len = rng.below(80) as usize;
        let s: String = (0..len)
            .map(|_| {
                if rng.below(8) == 0 {
                    char::from_u32(rng.below(0x2FF) as u32).unwrap_or('x')
                } else {
                    alphabet[rng.below(alphabet.len() as u64) as usize]
                }
            })
            .collect();
        must_not_panic(&s, false);
    }
}

#[test]
fn truncated_and_mutated_kernels_never_panic() {
    let mut rng = Lcg(7);
    for path in common::all_kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let chars: Vec<char> = src.chars().collect();
        // Every prefix (parse only) and some with interpretation.
        for cut in 0..chars.len() {
            let prefix: String = chars[..cut].iter().collect();
            must_not_panic(&prefix, cut % 97 == 0);
        }
        // Delete, duplicate or replace single characters.
        for _ in 0..200 {
            let mut c = chars.clone();
            let k = rng.below(c.len().max(1) as u64) as usize;
            match rng.below(3) {
                0 => {
                    c.remove(k);
                }
                1 => c.insert(k, c[k]),
                _ => {
                    c[k] = ";{}()[]+-*/<>=!0ij"
                        .chars()
                        .nth(rng.below(18) as usize)
                        .unwrap()
                }
            }
            let s: String = c.into_iter().collect();
            must_not_panic(&s, false);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "void k(int N, double A[N]) {{ A[0] = {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(scop::build_scop(&deep).is_err());
    let long = format!(
        "void k(int N, double A[N]) {{ A[0] = 1{}; }}",
        " + 1".repeat(20000)
    );
    assert!(scop::build_scop(&long).is_err());
    let blocks = format!(
        "void k(int N) {{ {} {} }}",
        "{".repeat(5000),
        "}".repeat(5000)
    );
    assert!(scop::build_scop(&blocks).is_err());
}

#[test]
fn shadowing_is_rejected_but_sibling_redeclaration_is_fine() {
    let shadow = "void k(int N, double A[N]) {\n  double s = 0;\n  for (int i = 0; i < N; i++) {\n    double s = A[i];\n    A[i] = s;\n  }\n  A[0] = s;\n}";
    let e = scop::build_scop(shadow).unwrap_err();
    assert_eq!((e.line(), e.col()), (4, 12));
    assert!(e.to_string().contains("shadowing"));
    let siblings = "void k(int N, double A[N]) {\n  for (int i = 0; i < N; i++) {\n    double s = A[i];\n    A[i] = s * s;\n  }\n  for (int i = 0; i < N; i++) {\n    double s = A[i];\n    A[i] = s + s;\n  }\n}";
    let scop = scop::build_scop(siblings).unwrap();
    assert_eq!(scop.statements.len(), 4);
    assert_eq!(scop.arrays.iter().filter(|a| a.name == "s").count(), 1);
}

#[test]
fn isl_names_do_not_clash() {
    let src =
        "void k(int e0, int i0, double A[i0]) {\n  for (int i = 0; i < i0; i += 2) A[i] = e0;\n}";
    let model = scop::Model::from_source(src).unwrap();
    assert_eq!(
        model.domain().to_string(),
        "[e0, i0] -> { S0[i] : exists (e1 : i = 2e1 and 0 <= i < i0) }"
    );
    assert_eq!(
        model.arrays()[0].extent.to_string(),
        "[e0, i0] -> { A[ii0] : 0 <= ii0 < i0 }"
    );
    // the printed texts read back as the same relations
    let domain: presburger::UnionMap = model.domain().to_string().parse().unwrap();
    assert!(domain.is_equal(model.domain()).unwrap());
    let extent: presburger::Set = model.arrays()[0].extent.to_string().parse().unwrap();
    assert!(extent.is_equal(&model.arrays()[0].extent).unwrap());
    let bad = scop::build_scop("void k(int and, double A[and]) { A[0] = 1; }").unwrap_err();
    assert!(bad.to_string().contains("isl"));
}
