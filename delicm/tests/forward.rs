//! Operand-tree forwarding and the before/after statistics.

use delicm::{statistics, transform, Options, Transformed};

mod common;
use common::checksums;

fn forwarded(src: &str, params: &[(&str, i64)]) -> Transformed {
    let t = transform(
        src,
        &Options {
            forward: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(!t.budget_exhausted, "{src}");
    let f0 = scop::parse_kernel(src).unwrap();
    for n in [
        params.to_vec(),
        params.iter().map(|(k, v)| (*k, v + 3)).collect(),
    ] {
        assert_eq!(checksums(&f0, &n), checksums(&t.function, &n), "{src}");
    }
    t
}

fn what(t: &Transformed) -> Vec<(String, String, String)> {
    t.forwarded
        .iter()
        .map(|f| (f.scalar.clone(), f.from.clone(), f.into.clone()))
        .collect()
}

fn s(a: &str, b: &str, c: &str) -> (String, String, String) {
    (a.into(), b.into(), c.into())
}

#[test]
fn copies_and_expressions_are_forwarded() {
    let t = forwarded(
        "void k(int N, double A[N], double B[N]) { double s;
           for (int i = 0; i < N; i++) { s = A[i] + i; B[i] = s * s; } }",
        &[("N", 5)],
    );
    assert_eq!(what(&t), [s("s", "S0", "S1")]);
    assert_eq!(t.forwarded[0].expression, "(A[i] + i)");
    // chains: S0 into S1, then S1 (now free of s) into S2
    let t = forwarded(
        "void k(int N, double A[N], double B[N]) {
           for (int i = 0; i < N; i++) { double s = A[i]; s = s * 2; B[i] = s + 1; } }",
        &[("N", 5)],
    );
    assert_eq!(what(&t), [s("s", "S0", "S1"), s("s", "S1", "S2")]);
}

#[test]
fn clobbered_loads_other_loops_and_several_definitions_are_not_forwarded() {
    // A[i] is overwritten between the definition and the use
    let t = forwarded(
        "void k(int N, double A[N], double B[N]) { double s;
           for (int i = 0; i < N; i++) { s = A[i]; A[i] = 1; B[i] = s; } }",
        &[("N", 5)],
    );
    assert!(what(&t).is_empty());
    // the iterator of the definition's loop is not the reader's
    let t = forwarded(
        "void k(int N, double B[N]) { double s;
           for (int i = 0; i < N; i++) s = i;
           for (int i = 0; i < N; i++) B[i] = s; }",
        &[("N", 5)],
    );
    assert!(what(&t).is_empty());
    // two definitions reach the read
    let t = forwarded(
        "void k(int N, double A[N], double B[N]) { double s;
           for (int i = 0; i < N; i++) { s = A[i]; if (i > 2) s = 2 * A[i]; B[i] = s; } }",
        &[("N", 6)],
    );
    assert!(!what(&t).iter().any(|f| f.2 == "S2"), "{:?}", what(&t));
    // the value comes from an earlier iteration
    let t = forwarded(
        "void k(int N, double A[N], double B[N]) { double s = 0;
           for (int i = 0; i < N; i++) { B[i] = s; s = A[i]; } }",
        &[("N", 5)],
    );
    assert!(what(&t).is_empty());
}

#[test]
fn statistics_on_the_shared_kernels() {
    let Some(dir) = testkit::shared_path("delicm") else {
        return;
    };
    for f in testkit::files_with_suffix(&dir, ".c") {
        let src = std::fs::read_to_string(&f).unwrap();
        for forward in [false, true] {
            let t = transform(
                &src,
                &Options {
                    forward,
                    ..Options::default()
                },
            )
            .unwrap();
            let st = statistics(&t).unwrap();
            assert!(st.scalar_dependences_before > 0, "{}", f.display());
            assert_eq!(st.scalar_dependences_after, 0, "{}: {st}", f.display());
            assert!(st.parallel_dims_before.is_empty(), "{}: {st}", f.display());
            assert!(!st.parallel_dims_after.is_empty(), "{}: {st}", f.display());
        }
    }
}

#[test]
fn parallel_dims_by_hand() {
    let m = scop::Model::from_source(
        "void k(int N, int M, double A[N][M]) {
           for (int i = 0; i < N; i++) for (int j = 1; j < M; j++) A[i][j] = A[i][j - 1]; }",
    )
    .unwrap();
    // schedule [i, j]: i parallel, j carries the dependence
    let s = m.schedule().to_string();
    let dims = delicm::parallel_dims(&m).unwrap();
    assert_eq!(dims, [0], "{s}");
    assert_eq!(delicm::permutable_depth(&m).unwrap(), 2);
    // distance (1, -1): j is parallel under i, the band stops after i
    let m = scop::Model::from_source(
        "void k(int N, int M, double A[N][M]) {
           for (int i = 1; i < N; i++) for (int j = 0; j < M - 1; j++) A[i][j] = A[i - 1][j + 1]; }",
    )
    .unwrap();
    assert_eq!(delicm::parallel_dims(&m).unwrap(), [1]);
    assert_eq!(delicm::permutable_depth(&m).unwrap(), 1);
}

#[test]
fn forwarding_chains_stay_small() {
    // every statement doubles its predecessor: forwarding stops at the size limit
    let mut body = String::from("double s0 = A[i];");
    for k in 1..12 {
        body.push_str(&format!(" double s{k} = s{} * s{};", k - 1, k - 1));
    }
    let src = format!(
        "void k(int N, double A[N], double B[N]) {{ for (int i = 0; i < N; i++) {{ {body} B[i] = s11; }} }}"
    );
    let t = forwarded(&src, &[("N", 3)]);
    assert!(
        !t.forwarded.is_empty() && t.forwarded.len() < 12,
        "{}",
        t.forwarded.len()
    );
    for f in &t.forwarded {
        assert!(f.expression.len() < 2000);
    }
}
