//! `poly liveness` and `poly interp --contract` on the shared liveness
//! kernels and on small kernels.

use liveness::Fold;
use poly::liveness::{interp_contract_command, liveness_text};

fn shared(name: &str) -> (String, String, Vec<String>) {
    let p = testkit::shared_path(&format!("liveness/{name}.c")).expect("shared kernel");
    let src = std::fs::read_to_string(&p).unwrap();
    let params = src
        .lines()
        .find_map(|l| l.split("params:").nth(1))
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    (p.to_string_lossy().into_owned(), src, params)
}

fn values(params: &[String]) -> Vec<(String, i64)> {
    params
        .iter()
        .map(|p| {
            let (n, v) = p.split_once('=').unwrap();
            (n.to_string(), v.parse().unwrap())
        })
        .collect()
}

/// The entry of array `name` in the JSON text: (allocation, before, after).
fn entry(json: &str, name: &str) -> (String, i64, i64) {
    let at = json.find(&format!("\"name\": \"{name}\"")).expect("entry");
    let rest = &json[at..];
    let field = |key: &str| {
        let s = &rest[rest.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4..];
        s[..s.find('\n').unwrap()]
            .trim()
            .trim_end_matches(',')
            .to_string()
    };
    (
        field("allocation"),
        field("cells_before").parse().unwrap(),
        field("cells_after").parse().unwrap(),
    )
}

#[test]
fn shared_kernels_json() {
    let (_, src, p) = shared("jacobi_expanded");
    let j = liveness_text(&src, &values(&p), false, None).unwrap();
    assert_eq!(
        entry(&j, "X"),
        (
            "\"[T, N] -> { X[c0, c1] -> X[c0 mod 2, c1] }\"".into(),
            45,
            18
        )
    );
    assert_eq!(entry(&j, "A"), ("null".into(), 9, 9));
    let (_, src, p) = shared("smooth_rows");
    let j = liveness_text(&src, &values(&p), false, None).unwrap();
    assert_eq!(
        entry(&j, "tmp"),
        ("\"[N, M] -> { tmp[c0, c1] -> tmp[c1] }\"".into(), 40, 8)
    );
    // sequentially, tmp[i][j] is dead once B[i][j + 1] read it: 3 cells do
    let j = liveness_text(&src, &values(&p), true, None).unwrap();
    let (_, before, after) = entry(&j, "tmp");
    assert_eq!(before, 40);
    assert!(after <= 8, "{j}");
    let (_, src, p) = shared("wavefront_diag");
    let j = liveness_text(&src, &values(&p), false, None).unwrap();
    // the canonical basis folds nothing; the basis (i - j, j) keeps one
    // anti-diagonal coordinate: N + M - 1 cells
    assert_eq!(
        entry(&j, "W"),
        ("\"[N, M] -> { W[c0, c1] -> W[c0 - c1] }\"".into(), 42, 12)
    );
}

#[test]
fn contracted_runs_give_the_same_checksums() {
    for k in ["jacobi_expanded", "smooth_rows", "wavefront_diag"] {
        let (path, src, p) = shared(k);
        let plain = scop::commands::interp_source(&src, &p).unwrap();
        let mut args = vec![path, "--contract".to_string()];
        args.extend(p.iter().cloned());
        assert_eq!(interp_contract_command(&args).unwrap(), plain, "{k}");
    }
    let (_, src, _) = shared("jacobi_expanded");
    for (t, n) in [(0, 1), (1, 3), (5, 4), (6, 12)] {
        let p = vec![format!("T={t}"), format!("N={n}")];
        let plain = scop::commands::interp_source(&src, &p).unwrap();
        assert_eq!(
            liveness::interp_contracted(&src, &p).unwrap(),
            plain,
            "T={t} N={n}"
        );
    }
    let (_, src_w, _) = shared("wavefront_diag");
    for (n, m) in [(1, 1), (2, 5), (5, 2), (7, 7)] {
        let p = vec![format!("N={n}"), format!("M={m}")];
        let plain = scop::commands::interp_source(&src_w, &p).unwrap();
        assert_eq!(
            liveness::interp_contracted(&src_w, &p).unwrap(),
            plain,
            "N={n} M={m}"
        );
    }
    let (f, applied) = liveness::contract_kernel(&src).unwrap();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0].folds(), [Fold::Mod(2), Fold::Keep]);
    let _ = f;
}

#[test]
fn a_wrong_contraction_changes_the_checksums() {
    // the check above could fail: folding X's time dimension to 1 cell
    // (or keeping the space dimension only modulo 2) changes A
    let (_, src, p) = shared("jacobi_expanded");
    let plain = scop::commands::interp_source(&src, &p).unwrap();
    for folds in [
        vec![Fold::Drop, Fold::Keep],
        vec![Fold::Mod(2), Fold::Mod(2)],
    ] {
        let mut f = scop::parse_kernel(&src).unwrap();
        let params = ["T".to_string(), "N".to_string()];
        let a = liveness::Allocation::new(&params, "X", folds.clone()).unwrap();
        liveness::apply_allocations(&mut f, &[a]);
        let out = liveness::interp_function(&f, &p).unwrap();
        assert_ne!(out, plain, "{folds:?}");
    }
}

#[test]
fn errors() {
    let bad = "void k(int N, double A[N]) {\n  #pragma omp parallel for\n  A[0] = 1; }";
    let e = liveness_text(bad, &[("N".into(), 3)], false, None).unwrap_err();
    assert!(e.to_string().starts_with("3:3:"), "{e}");
    let (_, src, _) = shared("smooth_rows");
    let e = liveness_text(&src, &[("K".into(), 3)], false, None).unwrap_err();
    assert!(matches!(e, poly::Error::Usage(_)), "{e}");
    let e = liveness_text(&src, &[("N".into(), 3)], false, None).unwrap_err();
    assert!(
        e.to_string().contains("missing value for parameter M"),
        "{e}"
    );
    let e = liveness_text(&src, &[("N".into(), 3), ("M".into(), 4)], false, Some(100)).unwrap_err();
    assert!(e.to_string().contains("budget"), "{e}");
}

const SCALAR: &str = "void k(int N, double A[N], double B[N]) {
  double t;
  for (int i = 0; i < N; i++) {
    t = A[i];
    B[i] = t;
  }
}";

#[test]
fn check_schedule_verdicts() {
    use poly::liveness::check_schedule_text as check;
    // the original schedule is legal
    let orig = "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }";
    assert_eq!(check(SCALAR, orig, None).unwrap(), "legal");
    // distributing the loop keeps every flow but writes t inside its live ranges
    let dist = "{ S0[i] -> [0, i]; S1[i] -> [1, i] }";
    let v = check(SCALAR, dist, None).unwrap();
    assert!(v.starts_with("illegal: live range violated"), "{v}");
    // reversing the statements reverses the flow
    let rev = "{ S0[i] -> [i, 1]; S1[i] -> [i, 0] }";
    let v = check(SCALAR, rev, None).unwrap();
    assert!(v.starts_with("illegal: flow violated"), "{v}");
    // a reversed loop is fine here: every iteration is self-contained
    let back = "[N] -> { S0[i] -> [N - i, 0]; S1[i] -> [N - i, 1] }";
    assert_eq!(check(SCALAR, back, None).unwrap(), "legal");
    // live-in: B[i] = t[i] reads initial values that a hoisted write would clobber
    let li = "void k(int N, double A[N], double B[N]) {
      for (int i = 0; i < N; i++) B[i] = A[i];
      for (int i = 0; i < N; i++) A[i] = 0.0; }";
    assert_eq!(
        check(li, "{ S0[i] -> [0, i]; S1[i] -> [1, i] }", None).unwrap(),
        "legal"
    );
    let v = check(li, "{ S0[i] -> [1, i]; S1[i] -> [0, i] }", None).unwrap();
    assert!(v.starts_with("illegal: live-in violated"), "{v}");
    // live-out: the last write of A[i] must stay last
    let lo = "void k(int N, double A[N]) {
      for (int i = 0; i < N; i++) A[i] = 1.0;
      for (int i = 0; i < N; i++) A[i] = 2.0; }";
    let v = check(lo, "{ S0[i] -> [1, i]; S1[i] -> [0, i] }", None).unwrap();
    assert!(v.starts_with("illegal: live-out violated"), "{v}");
    // shared kernels under their own schedule
    for k in ["jacobi_expanded", "smooth_rows", "wavefront_diag"] {
        let (_, src, _) = shared(k);
        let m = scop::Model::from_source(&src).unwrap();
        let s = m.schedule().to_string();
        assert_eq!(check(&src, &s, None).unwrap(), "legal", "{k}");
    }
    // bad input
    assert!(check(SCALAR, "{ S0[i] -> [i] ", None).is_err());
    assert!(check(SCALAR, "{ S0[i] -> [i, 0] }", None).is_err());
}

/// `poly check-schedule KERNEL.c --scheduled`: the scheduler's schedule
/// (its tree as a union map) checked against the flow and live ranges.
#[test]
fn check_schedule_of_the_scheduler() {
    use poly::liveness::check_schedule_command as cmd;
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for k in ["smooth_rows", "wavefront_diag"] {
        let (path, _, _) = shared(k);
        assert_eq!(cmd(&args(&[&path, "--scheduled"])).unwrap(), "legal", "{k}");
    }
    let (path, _, _) = shared("smooth_rows");
    assert!(cmd(&args(&[&path, "--scheduled", "--bogus"])).is_err());
}
