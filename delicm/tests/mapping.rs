//! The greedy mapping on kernels: the shared kernels map what their header
//! expects; every mapping keeps the value flow, the last writers and the
//! interpreter's results; illegal proposals are refused; an exhausted
//! budget changes nothing.

use delicm::{map_scalars, Transformed, DEFAULT_BUDGET};
use scop::ast::Function;

mod common;
use common::checksums;

fn must_flow(m: &scop::Model) -> presburger::UnionMap {
    let acc = dataflow::MemoryAccesses::from_model_tagged(m).unwrap();
    dataflow::compute_dependences(&acc).unwrap().must_flow
}

/// The properties every result must have.
fn sound(t: &Transformed, original: &Function, params: &[(&str, i64)]) {
    assert!(t.original.domain().is_equal(t.model.domain()).unwrap());
    assert!(t
        .original
        .tagged_reads()
        .domain()
        .unwrap()
        .is_equal(&t.model.tagged_reads().domain().unwrap())
        .unwrap());
    assert!(must_flow(&t.original)
        .is_equal(&must_flow(&t.model))
        .unwrap());
    // live-out values: untagged live-out writes of the original arrays are the same
    let live = |m: &scop::Model| {
        let d = dataflow::compute_dependences_of(m).unwrap();
        let arrays: Vec<String> = m
            .arrays()
            .iter()
            .filter(|a| !a.sizes.is_empty())
            .map(|a| a.name.clone())
            .collect();
        let mut out = presburger::UnionMap::empty(m.params().to_vec());
        for x in d.live_out.maps() {
            if x.space()
                .range
                .name
                .as_ref()
                .is_some_and(|n| arrays.contains(n))
            {
                out.add_map(x.clone()).unwrap();
            }
        }
        out
    };
    assert!(live(&t.original).is_equal(&live(&t.model)).unwrap());
    assert_eq!(
        checksums(original, params),
        checksums(&t.function, params),
        "interpreter results differ"
    );
}

fn run(src: &str, params: &[(&str, i64)]) -> Transformed {
    let t = map_scalars(src, DEFAULT_BUDGET).unwrap();
    assert!(!t.budget_exhausted);
    sound(&t, &scop::parse_kernel(src).unwrap(), params);
    t
}

fn pairs(t: &Transformed) -> Vec<(String, String)> {
    t.mapped
        .iter()
        .map(|m| (m.scalar.clone(), m.array.clone()))
        .collect()
}

fn header(src: &str) -> (Vec<(String, String)>, Vec<(String, i64)>) {
    let mut expect = Vec::new();
    let mut params = Vec::new();
    for l in src.lines().take(10) {
        if let Some(r) = l.trim().strip_prefix("// delicm-expect:") {
            for p in r.split(',').filter(|p| !p.trim().is_empty()) {
                let (s, a) = p.split_once("->").unwrap();
                expect.push((s.trim().to_string(), a.trim().to_string()));
            }
        }
        if let Some(r) = l.trim().strip_prefix("// params:") {
            for p in r.split_whitespace() {
                let (n, v) = p.split_once('=').unwrap();
                params.push((n.to_string(), v.parse().unwrap()));
            }
        }
    }
    (expect, params)
}

#[test]
fn shared_kernels_map_what_they_expect() {
    let Some(dir) = testkit::shared_path("delicm") else {
        eprintln!("note: ../shared/delicm missing; skipped");
        return;
    };
    let files = testkit::files_with_suffix(&dir, ".c");
    assert!(files.len() >= 3);
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let (expect, params) = header(&src);
        let p: Vec<(&str, i64)> = params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let t = run(&src, &p);
        let got = pairs(&t);
        for e in &expect {
            assert!(got.contains(e), "{}: {e:?} not in {got:?}", f.display());
        }
        // the mapped scalars are gone from the accesses
        for (s, _) in &expect {
            assert!(t.model.accesses().iter().all(|a| &a.array != s));
        }
    }
}

#[test]
fn other_kernels_keep_their_meaning() {
    let Some(dir) = testkit::shared_path("kernels") else {
        return;
    };
    for f in testkit::files_with_suffix(&dir, ".c") {
        let src = std::fs::read_to_string(&f).unwrap();
        let m = scop::Model::from_source(&src).unwrap();
        let params: Vec<(&str, i64)> = m.params().iter().map(|p| (p.as_str(), 5)).collect();
        let t = run(&src, &params);
        // nothing to map without local scalars
        if m.arrays().iter().all(|a| !a.sizes.is_empty()) {
            assert!(t.mapped.is_empty(), "{}", f.display());
        }
    }
}

const LIVE_IN: &str = "void k(int N, int K, double A[K], double C[N]) { double s;
  for (int i = 0; i < N; i++) { s = 0; for (int k = 0; k < K; k++) s = s + A[k]; C[i] = s + C[i]; } }";
const CARRIED: &str = "void k(int N, double A[N], double C[N]) { double s;
  for (int i = 0; i < N; i++) { s = s * 0.5 + A[i]; C[i] = s; } }";
const REREAD: &str = "void k(int N, double A[N], double B[N], double D[N]) {
  for (int i = 0; i < N; i++) { double s = A[i] * 2; B[i] = s; D[i] = B[i] + s; } }";
const TWO_STORES: &str = "void k(int N, int M, double A[N][M], double B[N], double C[N]) {
  for (int i = 0; i < N; i++) { double t = 0; for (int j = 0; j < M; j++) t += A[i][j]; B[i] = t; C[i] = t * 2; } }";
const OUTSIDE: &str = "void k(int N, double A[N], double C[N]) { double s = 0;
  for (int i = 0; i < N; i++) { s = s + A[i]; C[i] = s; } }";
const READ_LATER: &str = "void k(int N, double A[N], double C[N], double D[N]) {
  for (int i = 0; i < N; i++) { double s = A[i]; s = s * s; C[i] = s; }
  for (int i = 0; i < N; i++) D[i] = C[N - 1 - i]; }";
const SHIFTED: &str = "void k(int N, double A[N], double C[N]) {
  for (int i = 1; i < N; i++) { double s = A[i] + C[i - 1]; C[i] = s; } }";

#[test]
fn illegal_proposals_are_refused() {
    // C[i] is read by its own store: the scalar's lifetime would clobber it
    let t = run(LIVE_IN, &[("N", 5), ("K", 3)]);
    assert!(t.mapped.is_empty());
    assert!(t
        .rejected
        .iter()
        .any(|(s, a, why)| s == "s" && a == "C" && why.contains("conflict")));
    // the scalar carries a value across iterations: the value flow would change
    let t = run(CARRIED, &[("N", 5)]);
    assert!(t.mapped.is_empty());
    // the scalar is accessed outside the store's loop: no proposal
    let t = run(OUTSIDE, &[("N", 5)]);
    assert!(t.mapped.is_empty());
}

#[test]
fn first_fit_takes_the_first_legal_store() {
    // B[i] = s is overwritten while s is still live (read by D's store): D is taken
    let t = run(REREAD, &[("N", 5)]);
    assert_eq!(pairs(&t), [("s".to_string(), "D".to_string())]);
    assert!(t.rejected.iter().any(|(s, a, _)| s == "s" && a == "B"));
    let t = run(TWO_STORES, &[("N", 4), ("M", 3)]);
    assert_eq!(pairs(&t), [("t".to_string(), "C".to_string())]);
    let t = run(READ_LATER, &[("N", 6)]);
    assert_eq!(pairs(&t), [("s".to_string(), "C".to_string())]);
    let want: presburger::UnionMap =
        "[N] -> { [S0[i] -> R0[]] -> C[i] : 0 <= i < N; [S1[i] -> R2[]] -> C[i] : 0 <= i < N; \
         [S1[i] -> R3[]] -> C[i] : 0 <= i < N; [S1[i] -> R4[]] -> C[i] : 0 <= i < N; \
         [S2[i] -> R6[]] -> C[i] : 0 <= i < N }"
            .parse()
            .unwrap();
    assert!(
        t.mapped[0].map.is_equal(&want).unwrap(),
        "{}",
        t.mapped[0].map
    );
    let t = run(SHIFTED, &[("N", 6)]);
    assert_eq!(pairs(&t), [("s".to_string(), "C".to_string())]);
}

#[test]
fn exhausted_budget_changes_nothing() {
    let src = std::fs::read_to_string(
        testkit::shared_path("delicm/sum_products_scalar.c")
            .unwrap_or_else(|| std::path::PathBuf::from("/nonexistent")),
    )
    .unwrap_or_else(|_| TWO_STORES.to_string());
    let t = map_scalars(&src, 50).unwrap();
    assert!(t.budget_exhausted);
    assert!(t.mapped.is_empty());
    assert!(t
        .model
        .tagged_reads()
        .is_equal(t.original.tagged_reads())
        .unwrap());
    assert_eq!(t.function, scop::parse_kernel(&src).unwrap());
}

#[test]
fn bad_input_is_an_error_with_a_position() {
    let e = map_scalars(
        "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = ; }",
        DEFAULT_BUDGET,
    )
    .unwrap_err();
    assert!(e.to_string().contains(':'), "{e}");
}

/// The scalar a store keeps comes before the temporaries of its operand
/// chain: `s` (stored into `C[i]`) gets `C[i]`, although `t` is declared
/// first and could take it alone.
#[test]
fn stored_scalars_before_their_operand_chains() {
    let src = "void k(int N, int K, double A[N][K], double C[N]) {
  double t;
  double s;
  for (int i = 0; i < N; i++) {
    s = 0.0;
    for (int k = 0; k < K; k++) {
      t = A[i][k] * A[i][k];
      s = s + t;
    }
    C[i] = s;
  }
}";
    for p in [
        [("N", 0), ("K", 0)],
        [("N", 3), ("K", 2)],
        [("N", 4), ("K", 5)],
    ] {
        let t = run(src, &p);
        assert_eq!(pairs(&t), vec![("s".to_string(), "C".to_string())], "{t}");
    }
}
