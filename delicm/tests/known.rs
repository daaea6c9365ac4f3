//! Known-value reuse: a copy of an element may live in that element while
//! it still holds the same value; any other value in between is refused.
//! Every transformed program computes the original arrays (interpreter).

use delicm::{transform, Options, DEFAULT_BUDGET};

mod common;
use common::checksums;

fn with_known(src: &str, known: bool) -> delicm::Transformed {
    transform(
        src,
        &Options {
            budget: DEFAULT_BUDGET,
            forward: false,
            known_values: known,
        },
    )
    .unwrap()
}

fn mapped(t: &delicm::Transformed) -> Vec<(String, String)> {
    t.mapped
        .iter()
        .map(|m| (m.scalar.clone(), m.array.clone()))
        .collect()
}

fn same_results(src: &str, t: &delicm::Transformed, params: &[&[(&str, i64)]]) {
    let f = scop::parse_kernel(src).unwrap();
    for p in params {
        assert_eq!(checksums(&f, p), checksums(&t.function, p), "{p:?}\n{t}");
    }
}

/// `s` copies `A[i]`, which is read again while `s` lives and overwritten
/// by the store that reads `s`.
const COPY_READ_AGAIN: &str = "void k(int N, int M, double A[N], double B[N][M]) {
  double s;
  for (int i = 0; i < N; i++) {
    s = A[i];
    for (int j = 0; j < M; j++)
      B[i][j] = A[i] * j + s;
    A[i] = s * 0.5;
  }
}";

#[test]
fn a_copy_shares_the_element_that_holds_its_value() {
    let plain = with_known(COPY_READ_AGAIN, false);
    assert!(mapped(&plain).is_empty(), "{plain}");
    assert!(plain.rejected.iter().any(|(s, a, _)| s == "s" && a == "A"));
    let t = with_known(COPY_READ_AGAIN, true);
    assert_eq!(mapped(&t), vec![("s".to_string(), "A".to_string())], "{t}");
    same_results(
        COPY_READ_AGAIN,
        &t,
        &[
            &[("N", 0), ("M", 0)],
            &[("N", 3), ("M", 1)],
            &[("N", 5), ("M", 4)],
        ],
    );
    // the scalar's dependences are gone
    let st = delicm::statistics(&t).unwrap();
    assert!(st.scalar_dependences_before > 0);
    assert_eq!(st.scalar_dependences_after, 0);
}

/// The element is overwritten with another value while `s` lives.
const OVERWRITTEN_MEANWHILE: &str = "void k(int N, double A[N], double B[N]) {
  double s;
  for (int i = 0; i < N; i++) {
    s = A[i];
    B[i] = A[i];
    A[i] = 3.0;
    B[i] += A[i] + s;
    A[i] = s * 0.5;
  }
}";

/// `s` copies the next element, not the one it would live in.
const OTHER_ELEMENT: &str = "void k(int N, double A[N], double B[N]) {
  double s;
  for (int i = 0; i < N - 1; i++) {
    s = A[i + 1];
    B[i] = A[i] + s;
    A[i] = s * 0.5;
  }
}";

/// `s` is computed, not copied.
const COMPUTED: &str = "void k(int N, double A[N], double B[N]) {
  double s;
  for (int i = 0; i < N; i++) {
    s = A[i] + 1.0;
    B[i] = A[i] + s;
    A[i] = s * 0.5;
  }
}";

#[test]
fn other_values_are_refused() {
    for (src, copy) in [
        (OVERWRITTEN_MEANWHILE, true),
        (OTHER_ELEMENT, true),
        (COMPUTED, false),
    ] {
        let t = with_known(src, true);
        // copies are refused by the test with known contents
        assert_eq!(
            t.rejected
                .iter()
                .any(|(s, a, why)| s == "s" && a == "A" && why.contains("known values")),
            copy,
            "{t}"
        );
        assert!(
            !mapped(&t).contains(&("s".to_string(), "A".to_string())),
            "{src}\n{t}"
        );
        assert!(
            t.rejected.iter().any(|(s, a, _)| s == "s" && a == "A"),
            "{t}"
        );
        same_results(src, &t, &[&[("N", 1)], &[("N", 4)]]);
    }
}

#[test]
fn the_shared_kernels_are_unchanged_by_the_option() {
    let Some(dir) = testkit::shared_path("delicm") else {
        return;
    };
    for f in testkit::files_with_suffix(&dir, ".c") {
        let src = std::fs::read_to_string(&f).unwrap();
        let (a, b) = (with_known(&src, false), with_known(&src, true));
        assert_eq!(mapped(&a), mapped(&b), "{}", f.display());
    }
}
