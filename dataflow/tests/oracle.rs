//! `compute_flow` (level by level) against `compute_flow_reference` (one
//! parametric lexmax per sink, the simple formulation) on inputs that
//! exercise the corners of the level-by-level algorithm: non-affine schedules
//! (the composition path), sinks resolved at different levels, may-sources
//! at, after and before the last must-source, kills, simultaneous sources,
//! sinks reading several elements, zero-dimensional schedules and
//! parameters appearing only in the schedule.
//! The shared kernels and conformance cases are compared in `conformance.rs`.

use dataflow::flow::{compute_flow_reference, compute_may_dependence};
use dataflow::{compute_flow, AccessInfo};
use presburger::UnionMap;

fn u(s: &str) -> UnionMap {
    if s.trim().is_empty() {
        return UnionMap::empty(Vec::new());
    }
    s.parse().unwrap_or_else(|e| panic!("parse {s}: {e}"))
}

/// Equal sets, two empty ones whatever their spaces (`testkit::ops::same_set`).
fn same(a: &UnionMap, b: &UnionMap) -> bool {
    testkit::ops::same_set(a, b).unwrap()
}

fn agree(sink: &str, must: &str, may: &str, kill: &str, sched: &str) {
    let info = AccessInfo::from_sink(u(sink))
        .with_must_source(u(must))
        .with_may_source(u(may))
        .with_kill(u(kill))
        .with_schedule(u(sched));
    let f = compute_flow(&info).expect("compute_flow");
    let r = compute_flow_reference(&info).expect("compute_flow_reference");
    // the may dependences alone: the same relation, written alike
    let may = compute_may_dependence(&info).expect("compute_may_dependence");
    assert_eq!(may.to_string(), f.may_dependence.to_string());
    for (what, got, want) in [
        ("must_dependence", &f.must_dependence, &r.must_dependence),
        ("may_dependence", &f.may_dependence, &r.may_dependence),
        ("must_no_source", &f.must_no_source, &r.must_no_source),
        ("may_no_source", &f.may_no_source, &r.may_no_source),
    ] {
        assert!(same(got, want), "{what}: got {got}, oracle {want}");
    }
}

#[test]
fn loop_nest_with_sources_at_several_levels() {
    // for i { S0: s[i] = 0; for j { S1: s[i] += A[j]; S2: t = s[i] } ; S3: B[i] = s[i] + t }
    agree(
        "[n, m] -> { S1[i, j] -> s[i] : 0 <= i < n and 0 <= j < m; S2[i, j] -> s[i] : 0 <= i < n and 0 <= j < m; \
         S3[i] -> s[i] : 0 <= i < n; S3[i] -> t[] : 0 <= i < n; S1[i, j] -> A[j] : 0 <= i < n and 0 <= j < m }",
        "[n, m] -> { S0[i] -> s[i] : 0 <= i < n; S1[i, j] -> s[i] : 0 <= i < n and 0 <= j < m; \
         S2[i, j] -> t[] : 0 <= i < n and 0 <= j < m }",
        "",
        "",
        "{ S0[i] -> [i, 0, 0, 0]; S1[i, j] -> [i, 1, j, 0]; S2[i, j] -> [i, 1, j, 1]; S3[i] -> [i, 2, 0, 0] }",
    );
}

#[test]
fn may_sources_before_at_and_after_the_last_must_source() {
    agree(
        "[n] -> { R[i] -> A[0] : 0 <= i < n }",
        "[n] -> { W[i] -> A[0] : 0 <= i < n and i mod 2 = 0 }",
        "[n] -> { M[i] -> A[0] : 0 <= i < n and i mod 3 = 0; P[i] -> A[0] : 0 <= i < n }",
        "",
        "{ M[i] -> [i, 0]; W[i] -> [i, 1]; P[i] -> [i, 1]; R[i] -> [i, 2] }",
    );
}

#[test]
fn kills_and_must_sources_of_one_statement() {
    agree(
        "[n] -> { R[i, j] -> A[j] : 0 <= i < n and 0 <= j < n }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n }",
        "[n] -> { V[i] -> A[i + 1] : 0 <= i < n }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n and i >= 2; K[] -> A[a] : 0 <= a < 3 }",
        "[n] -> { K[] -> [0, 0, 0]; W[i] -> [1, i, 0]; V[i] -> [1, i, 1]; R[i, j] -> [2, i, j] }",
    );
}

#[test]
fn non_affine_schedules_take_the_composition_path() {
    // Schedules with a division and with a domain constraint.
    agree(
        "[n] -> { R[i] -> A[i - 2] : 0 <= i < n; R[i] -> A[i] : 0 <= i < n }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n }",
        "",
        "",
        "{ W[i] -> [floor(i / 2), i, 0]; R[i] -> [floor(i / 2), i, 1] : i >= 0 }",
    );
}

#[test]
fn simultaneous_sources_and_several_elements_per_sink() {
    agree(
        "[n] -> { R[i] -> A[a] : 0 <= i < n and i - 1 <= a <= i }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n; X[i] -> A[i - 1] : 0 <= i < n }",
        "",
        "",
        "{ W[i] -> [i, 0]; X[i] -> [i, 0]; R[i] -> [i, 1] }",
    );
}

#[test]
fn zero_dimensional_schedule_and_schedule_parameters() {
    agree(
        "{ R[] -> A[0] }",
        "{ W[] -> A[0] }",
        "",
        "",
        "{ R[] -> []; W[] -> [] }",
    );
    agree(
        "{ R[i] -> A[i] : 0 <= i < 10 }",
        "{ W[i] -> A[i] : 0 <= i < 10 }",
        "",
        "",
        "[k] -> { W[i] -> [i + k, 0]; R[i] -> [i, 1] }",
    );
}

#[test]
fn tagged_sinks_with_plain_schedule() {
    agree(
        "[n] -> { [R[i] -> r0[]] -> A[i - 1] : 0 <= i < n; [R[i] -> r1[]] -> A[i] : 0 <= i < n }",
        "[n] -> { [W[i] -> w0[]] -> A[i] : 0 <= i < n }",
        "[n] -> { [R[i] -> r2[]] -> A[i] : 0 <= i < n and i > 3 }",
        "",
        "{ R[i] -> [i, 1]; W[i] -> [i, 0] }",
    );
}

#[test]
fn instances_of_one_statement_at_the_same_time() {
    // W's schedule is not injective: all W[i, j] of one i run at the same time.
    agree(
        "[n] -> { R[i] -> A[0] : 0 <= i < n; R[i] -> B[i] : 0 <= i < n }",
        "[n] -> { W[i, j] -> A[0] : 0 <= i < n and 0 <= j <= i; V[i] -> B[i] : 0 <= i < n }",
        "",
        "",
        "{ W[i, j] -> [i, 0]; V[i] -> [i, 0]; R[i] -> [i, 1] }",
    );
}

#[test]
fn interchanged_loops_maximise_in_schedule_order() {
    // W's loops are interchanged (j outer): its last instance is the one
    // with the largest j, not the largest i.
    agree(
        "[n] -> { R[k] -> s[] : 0 <= k < n; R[k] -> A[k] : 0 <= k < n }",
        "[n] -> { W[i, j] -> s[] : 0 <= i < n and 0 <= j < n - i; W[i, j] -> A[i] : 0 <= i < n and 0 <= j < n - i }",
        "",
        "",
        "{ W[i, j] -> [0, j, i]; R[k] -> [1, k, 0] }",
    );
    agree(
        "[n] -> { R[i, j] -> A[i + j] : 0 <= i < n and 0 <= j < n }",
        "[n] -> { W[i, j] -> A[i + j] : 0 <= i < n and 0 <= j < n }",
        "[n] -> { V[i, j] -> A[i] : 0 <= i < n and 0 <= j < n }",
        "",
        "{ W[i, j] -> [j, 0, i]; V[i, j] -> [j, 1, i]; R[i, j] -> [j, 2, i] }",
    );
}

#[test]
fn sources_ordered_by_their_position_in_a_loop() {
    // At level 0 the kill K runs after W in every iteration, the may-source
    // M between them, P (not affine) after both.
    agree(
        "[n] -> { R[k] -> A[k] : 0 <= k < n; R[k] -> A[0] : 0 <= k < n }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n; W[i] -> A[0] : 0 <= i < n }",
        "[n] -> { M[i] -> A[i] : 0 <= i < n and i mod 3 = 0; P[i] -> A[0] : 5 <= i < n }",
        "[n] -> { K[i] -> A[i] : 0 <= i < n and i mod 2 = 0 }",
        "{ W[i] -> [0, i, 0]; M[i] -> [0, i, 1]; K[i] -> [0, i, 2]; P[i] -> [0, i, 3] : i >= 0; R[k] -> [1, k, 0] }",
    );
}

#[test]
fn reversed_loops_take_the_general_path() {
    agree(
        "[n] -> { R[i] -> A[i + 1] : 0 <= i < n; R[i] -> s[] : 0 <= i < n }",
        "[n] -> { W[i] -> A[i] : 0 <= i < n; W[i] -> s[] : 0 <= i < n }",
        "[n] -> { V[i] -> A[i] : 0 <= i < n and i > 2 }",
        "",
        "{ W[i] -> [-i, 0]; V[i] -> [-i, 1]; R[i] -> [-i, 2] }",
    );
}

#[test]
fn sources_of_one_loop_at_different_depths() {
    // W0 and W1 share the i loop; which one is last depends on whether the
    // inner j loop runs; V reads and writes s in the same instance.
    agree(
        "[n, m] -> { R[k] -> s[] : 0 <= k < n; W1[i, j] -> s[] : 0 <= i < n and 0 <= j < i - m }",
        "[n, m] -> { W0[i] -> s[] : 0 <= i < n; W1[i, j] -> s[] : 0 <= i < n and 0 <= j < i - m }",
        "[n, m] -> { W1[i, j] -> s[] : 0 <= i < n and 0 <= j < i - m and j mod 2 = 0; V[i] -> s[] : 0 <= i < n and i > m }",
        "[n, m] -> { W1[i, j] -> s[] : 0 <= i < n and j = i - m - 1 and i mod 3 = 0 }",
        "{ W0[i] -> [0, i, 0, 0]; W1[i, j] -> [0, i, 1, j]; V[i] -> [0, i, 2, 0]; R[k] -> [1, k, 0, 0] }",
    );
}

#[test]
fn writers_of_one_element_ordered_through_the_element() {
    // S0 and S1 write A[j] in the body of the j loop, S1 after S0: at the
    // level of j their times differ only on a constant dimension once the
    // element fixes j (the level-by-level search orders them statically)
    agree(
        "[n] -> { R[i, j] -> A[j - 1] : 0 <= i < n and 1 <= j < n }",
        "[n] -> { S0[i, j] -> A[j] : 0 <= i < n and 0 <= j < n; \
         S1[i, j] -> A[j] : 0 <= i < n and 0 <= j < n and j mod 2 = 0 }",
        "",
        "",
        "{ S0[i, j] -> [i, j, 0]; S1[i, j] -> [i, j, 1]; R[i, j] -> [i, j, 2] }",
    );
    // S0 writes A[j + 1]: for one element it runs one j earlier than S1,
    // which writes A[j]; a loop counting down; may-sources between them
    agree(
        "[n] -> { R[i, j] -> A[j] : 0 <= i < n and 0 <= j < n }",
        "[n] -> { S0[i, j] -> A[j + 1] : 0 <= i < n and 0 <= j < n; \
         S1[i, j] -> A[j] : 0 <= i < n and 0 <= j < n and i > j }",
        "[n] -> { M[i, j] -> A[j] : 0 <= i < n and 0 <= j < n and j mod 3 = 0 }",
        "",
        "{ S0[i, j] -> [-i, j, 0]; S1[i, j] -> [-i, j, 1]; M[i, j] -> [-i, j, 1]; \
         R[i, j] -> [-i, j + 1, 2] }",
    );
    // the element fixes the instance coordinate only in one disjunct: no
    // static order (the pairwise comparison), the same answer
    agree(
        "[n] -> { R[i, j] -> A[j] : 0 <= i < n and 0 <= j < n }",
        "[n] -> { S0[i, j] -> A[a] : 0 <= i < n and 0 <= j < n and (a = j or a = j + n); \
         S1[i, j] -> A[j] : 0 <= i < n and 0 <= j < n }",
        "",
        "",
        "{ S0[i, j] -> [i, j, 0]; S1[i, j] -> [i, j, 1]; R[i, j] -> [i, j, 2] }",
    );
}

#[test]
fn tiled_strided_loops_rule_out_levels_by_the_element() {
    // for ii (step 4) for i in [ii, ii + 4) for j (step 2):
    //   S0: A[i][j] = A[i][j] + A[i - 1][j] (i even), S1: A[i][j] += 1 (i odd);
    // then for j counting down: S2: A[0][j] = A[1][j]. The element fixes i
    // and j (through pivots free of the strides' locals), and the tile
    // origin ii (the one multiple of 4 in [i - 3, i]): the levels of ii, i
    // and j are ruled out for A[i][j] before any engine call, not those of
    // ii and i for A[i - 1][j]
    let dom = "0 <= ii < n and ii <= i <= ii + 3 and i < n and 0 <= j < m and ii mod 4 = 0 and j mod 2 = 0";
    agree(
        &format!(
            "[n, m] -> {{ S0[ii, i, j] -> A[i, j] : {dom} and i mod 2 = 0; \
             S0[ii, i, j] -> A[i - 1, j] : {dom} and i mod 2 = 0; \
             S1[ii, i, j] -> A[i, j] : {dom} and i mod 2 = 1; \
             S2[j] -> A[1, j] : 0 <= j < m }}"
        ),
        &format!(
            "[n, m] -> {{ S0[ii, i, j] -> A[i, j] : {dom} and i mod 2 = 0; \
             S1[ii, i, j] -> A[i, j] : {dom} and i mod 2 = 1; S2[j] -> A[0, j] : 0 <= j < m }}"
        ),
        "",
        "",
        "{ S0[ii, i, j] -> [0, ii, i, j, 0]; S1[ii, i, j] -> [0, ii, i, j, 1]; S2[j] -> [1, -j, 0, 0, 0] }",
    );
}
