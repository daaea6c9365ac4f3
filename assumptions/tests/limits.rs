//! Infeasible models, caps, and what stays outside the subset.

use assumptions::{analyze, Error, Limits};

#[test]
fn assumptions_that_never_hold_make_an_infeasible_model() {
    // the subscript 10 is always outside the inner extent 10
    let scop = scop::build_scop(
        "void k(long n, double A[][10]) { for (long i = 0; i < n; i++) A[i][10] = 0; }",
    )
    .unwrap();
    let a = analyze(&scop, &Limits::default()).unwrap();
    assert!(!a.feasible);
    assert_eq!(a.check, "0");
    // nothing runs for n <= 0, which the assumed context still allows
    let p: presburger::Set = "[n] -> { : n <= 0 }".parse().unwrap();
    assert!(p.is_subset(&a.assumed).unwrap() || a.assumed.is_empty().unwrap());
}

#[test]
fn caps_drop_the_model_with_a_reason() {
    let scop = scop::build_scop(
        "void k(int n, int m, double A[][10]) { for (int i = 0; i < n; i++) A[i][m] = 0; }",
    )
    .unwrap();
    let tight = Limits {
        max_disjuncts: 16,
        max_params: 1,
    };
    match analyze(&scop, &tight) {
        Err(e @ Error::TooComplex { .. }) => assert!(e.to_string().contains("parameters")),
        other => panic!("expected a cap error, got {other:?}"),
    }
    let a = analyze(&scop, &Limits::default()).unwrap();
    assert!(a.feasible);
}

#[test]
fn non_affine_int_subscripts_are_checked_at_run_time() {
    // `i * m` and `i * m + j` in 32-bit int: their wrapping is not an
    // affine condition; the check bounds them by the iterators' ranges
    let scop = scop::build_scop(
        "void k(int n, int m, double *A) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) A[i * m + j] = 0; }",
    )
    .unwrap();
    let a = analyze(&scop, &Limits::default()).unwrap();
    assert_eq!(a.ranges.len(), 2, "{:?}", a.ranges);
    assert!(a.invalid.is_empty().unwrap());
    let at = |n: i64, m: i64| assumptions::Values {
        params: [("n".into(), n), ("m".into(), m)].into(),
        ..Default::default()
    };
    // the largest value is (n - 1) * m + m - 1 = n * m - 1
    assert!(a.holds_at(&at(1000, 1000)));
    assert!(a.holds_at(&at(2, 1 << 30)));
    assert!(!a.holds_at(&at(3, 1 << 30)));
    assert!(a.holds_at(&at(46341, 46340)));
    assert!(!a.holds_at(&at(46341, 46341)));
    // nothing runs
    assert!(a.holds_at(&at(0, i32::MAX as i64)));
    assert!(a.check.contains("2147483647"), "{}", a.check);
}

#[test]
fn non_polynomial_int_arithmetic_is_reported_not_guessed() {
    // a product of two iterators in int: not bounded by one iterator's range
    let scop = scop::build_scop(
        "void k(int n, double A[][4]) { for (int i = 0; i < n; i++) for (int j = 0; j < 4; j++) A[i][j] = i * j; }",
    )
    .unwrap();
    match analyze(&scop, &Limits::default()) {
        Err(e @ Error::Unmodelled { .. }) => assert!(e.to_string().starts_with("1:")),
        other => panic!("expected an unmodelled error, got {other:?}"),
    }
}

#[test]
fn outside_the_subset_is_an_error_with_a_position() {
    for (src, what) in [
        ("void k(long n, double **A) { }", "pointer"),
        ("void k(long n, double *A) { for (long i = 0; i < n; i++) A[i][i] = 0; }", "one"),
        ("void k(long n, long m, long p, double *A) { for (long i = 0; i < n; i++) A[i * m + i * p] = 0; }", "chain"),
        ("void k(long n, double *A) { for (long i = 0; i != n - i; i++) A[i] = 0; }", "`!=`"),
        ("void k(long n, double *A) { for (long i = 0; i < n; i++) A[i] = \"x\"; }", "string"),
    ] {
        let e = scop::build_scop(src).expect_err(src);
        assert!(e.to_string().contains(what), "{src}: {e}");
        assert!(e.line() >= 1, "{src}");
    }
}

#[test]
fn the_check_of_restrictions_and_assumptions_together() {
    let scop = scop::build_scop(
        "void k(long n, int s, double A[][10]) { for (long i = 0; i < n; i++) for (int j = 0; j < 5; j++) A[i][j + s] = 1.0; }",
    )
    .unwrap();
    let a = analyze(&scop, &Limits::default()).unwrap();
    assert!(a.check.contains("&&"), "{}", a.check);
    assert_eq!(
        a.remarks
            .iter()
            .filter(|r| r.kind == scop::assume::Kind::Inbounds)
            .count(),
        1
    );
    assert!(a
        .remarks
        .iter()
        .any(|r| r.kind == scop::assume::Kind::Wrapping));
    assert!(
        a.remarks[0].to_string().contains("assumption")
            || a.remarks[0].to_string().contains("restriction")
    );
}
