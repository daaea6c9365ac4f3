//! Hand-written cases for the corner cases of isl's `compute_flow` semantics
//! (expected answers computed with isl 0.27): kills, may-sources, several
//! sources at the same time, sinks without a source, tagged accesses,
//! non-single-valued sinks and strided domains.

use dataflow::deps::{compute_dependences, MemoryAccesses};
use dataflow::flow::compute_flow_reference;
use dataflow::{compute_flow, AccessInfo, Flow};
use presburger::UnionMap;

fn u(s: &str) -> UnionMap {
    s.parse().unwrap_or_else(|e| panic!("parse {s}: {e}"))
}

fn flow(sink: &str, must: &str, may: &str, kill: &str, sched: &str) -> Flow {
    let info = AccessInfo::from_sink(u(sink))
        .with_must_source(u(must))
        .with_may_source(u(may))
        .with_kill(u(kill))
        .with_schedule(u(sched));
    let f = compute_flow(&info).expect("compute_flow");
    // The level-by-level algorithm agrees with the one-lexmax oracle.
    let r = compute_flow_reference(&info).expect("compute_flow_reference");
    eq(
        &f.must_dependence,
        &r.must_dependence.to_string(),
        "oracle must_dependence",
    );
    eq(
        &f.may_dependence,
        &r.may_dependence.to_string(),
        "oracle may_dependence",
    );
    eq(
        &f.must_no_source,
        &r.must_no_source.to_string(),
        "oracle must_no_source",
    );
    eq(
        &f.may_no_source,
        &r.may_no_source.to_string(),
        "oracle may_no_source",
    );
    f
}

fn eq(got: &UnionMap, want: &str, what: &str) {
    // equal sets, two empty ones whatever their spaces
    let same = testkit::ops::same_set(got, &u(want)).unwrap();
    assert!(same, "{what}: got {got}, want {want}");
}

fn check(f: &Flow, must: &str, may: &str, must_ns: &str, may_ns: &str) {
    eq(&f.must_dependence, must, "must_dependence");
    eq(&f.may_dependence, may, "may_dependence");
    eq(&f.must_no_source, must_ns, "must_no_source");
    eq(&f.may_no_source, may_ns, "may_no_source");
}

#[test]
fn two_must_sources_at_the_same_time_are_may() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 2 }",
        "{ W1[i] -> A[0] : 0 <= i < 2; W2[i] -> A[0] : 0 <= i < 2 }",
        "{ }",
        "{ }",
        "{ R[i] -> [i, 1]; W1[i] -> [i, 0]; W2[i] -> [i, 0] }",
    );
    check(
        &f,
        "{ }",
        "{ W2[i] -> R[i] : 0 <= i <= 1; W1[i] -> R[i] : 0 <= i <= 1 }",
        "{ }",
        "{ }",
    );
}

#[test]
fn may_source_at_the_time_of_the_must_source_demotes_it() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 2 }",
        "{ W1[i] -> A[0] : 0 <= i < 2 }",
        "{ W2[i] -> A[0] : 0 <= i < 2 }",
        "{ }",
        "{ R[i] -> [i, 1]; W1[i] -> [i, 0]; W2[i] -> [i, 0] }",
    );
    check(
        &f,
        "{ }",
        "{ W2[i] -> R[i] : 0 <= i <= 1; W1[i] -> R[i] : 0 <= i <= 1 }",
        "{ }",
        "{ }",
    );
}

#[test]
fn kills_stop_flow_and_are_no_sources() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 3 }",
        "{ W1[i] -> A[0] : i = 0 }",
        "{ }",
        "{ K[i] -> A[0] : i = 1 }",
        "{ R[i] -> [i, 1]; W1[i] -> [i, 0]; K[i] -> [i, 0] }",
    );
    check(&f, "{ W1[0] -> R[0] }", "{ W1[0] -> R[0] }", "{ }", "{ }");
}

#[test]
fn kill_then_may_source() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 3 }",
        "{ }",
        "{ W1[i] -> A[0] : i = 0 or i = 2 }",
        "{ K[i] -> A[0] : i = 1 }",
        "{ R[i] -> [i, 2]; W1[i] -> [i, 1]; K[i] -> [i, 0] }",
    );
    check(
        &f,
        "{ }",
        "{ W1[2] -> R[2]; W1[0] -> R[0] }",
        "{ }",
        "{ R[0] -> A[0] }",
    );
}

#[test]
fn kill_at_the_time_of_the_must_source() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 3 }",
        "{ W1[i] -> A[0] : 0 <= i < 3 }",
        "{ }",
        "{ K[i] -> A[0] : i = 1 }",
        "{ R[i] -> [i, 1]; W1[i] -> [i, 0]; K[i] -> [i, 0] }",
    );
    check(
        &f,
        "{ W1[2] -> R[2]; W1[0] -> R[0] }",
        "{ W1[i] -> R[i] : 0 <= i <= 2 }",
        "{ }",
        "{ }",
    );
}

#[test]
fn sink_reading_several_elements() {
    let f = flow(
        "{ R[i] -> A[j] : 0 <= i < 3 and 0 <= j < 3 }",
        "{ W[i] -> A[i] : 0 <= i < 3 }",
        "{ }",
        "{ }",
        "{ R[i] -> [i, 1]; W[i] -> [i, 0] }",
    );
    let dep = "{ W[i] -> R[i'] : i >= 0 and i < i' <= 2; W[i] -> R[i] : 0 <= i <= 2 }";
    let ns = "{ R[i] -> A[j] : 0 <= i <= 2 and j > i and 0 <= j <= 2 }";
    check(&f, dep, dep, ns, ns);
}

#[test]
fn only_may_sources() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 3 }",
        "{ }",
        "{ W[i] -> A[0] : 0 <= i < 3 }",
        "{ }",
        "{ R[i] -> [i, 1]; W[i] -> [i, 0] }",
    );
    check(
        &f,
        "{ }",
        "{ W[i] -> R[i'] : i >= 0 and i <= i' <= 2 }",
        "{ }",
        "{ R[i] -> A[0] : 0 <= i <= 2 }",
    );
}

#[test]
fn source_at_the_time_of_the_sink_is_not_before_it() {
    let f = flow(
        "{ R[i] -> A[0] : 0 <= i < 3 }",
        "{ W[i] -> A[0] : 0 <= i < 3 }",
        "{ }",
        "{ }",
        "{ R[i] -> [i, 0]; W[i] -> [i, 0] }",
    );
    let dep = "{ W[i] -> R[i + 1] : 0 <= i <= 1 }";
    check(&f, dep, dep, "{ R[0] -> A[0] }", "{ R[0] -> A[0] }");
}

#[test]
fn tagged_accesses() {
    let f = flow(
        "[n] -> { [R[i] -> r0[]] -> A[i - 1] : 0 <= i < n; [R[i] -> r1[]] -> A[i] : 0 <= i < n }",
        "[n] -> { [W[i] -> w0[]] -> A[i] : 0 <= i < n }",
        "{ }",
        "{ }",
        "[n] -> { [R[i] -> r0[]] -> [i, 1]; [R[i] -> r1[]] -> [i, 1]; [W[i] -> w0[]] -> [i, 0] }",
    );
    let dep = "[n] -> { [W[i] -> w0[]] -> [R[i + 1] -> r0[]] : 0 <= i <= n - 2; [W[i] -> w0[]] -> [R[i] -> r1[]] : 0 <= i < n }";
    let ns = "[n] -> { [R[0] -> r0[]] -> A[-1] : n > 0 }";
    check(&f, dep, dep, ns, ns);
}

#[test]
fn tagged_accesses_with_an_untagged_schedule() {
    let f = flow(
        "[n] -> { [R[i] -> r0[]] -> A[i - 1] : 0 <= i < n; [R[i] -> r1[]] -> A[i] : 0 <= i < n }",
        "[n] -> { [W[i] -> w0[]] -> A[i] : 0 <= i < n }",
        "{ }",
        "{ }",
        "{ R[i] -> [i, 1]; W[i] -> [i, 0] }",
    );
    let dep = "[n] -> { [W[i] -> w0[]] -> [R[i + 1] -> r0[]] : 0 <= i <= n - 2; [W[i] -> w0[]] -> [R[i] -> r1[]] : 0 <= i < n }";
    check(
        &f,
        dep,
        dep,
        "[n] -> { [R[0] -> r0[]] -> A[-1] : n > 0 }",
        "[n] -> { [R[0] -> r0[]] -> A[-1] : n > 0 }",
    );
}

#[test]
fn strided_domains_with_a_may_source() {
    let f = flow(
        "[n] -> { R[i] -> A[0] : 0 <= i < n and i mod 3 = 0 }",
        "[n] -> { W[i] -> A[0] : 0 <= i < n and i mod 2 = 0 }",
        "[n] -> { M[i] -> A[0] : 0 <= i < n and i = 4 }",
        "{ }",
        "{ R[i] -> [i, 2]; W[i] -> [i, 0]; M[i] -> [i, 1] }",
    );
    let dep = "[n] -> { W[i] -> R[i'] : i' >= i and 0 <= i' <= 6 + i and i' < n and (((i) mod 6 = 0 and (i') mod 6 = 0 and i' <= 5 + i) or ((-2 + i) mod 6 = 0 and (3 + i') mod 6 = 0 and i' > i and 6*floor((i')/6) < i')) }";
    check(&f, dep, dep, "{ }", "{ }");
}

#[test]
fn memory_dependences_of_a_reduction() {
    // for i: s = s + A[i]   (S[i] reads s and A[i], writes s)
    let acc = MemoryAccesses::new(u("{ S[i] -> [i] }"))
        .with_reads(u(
            "[n] -> { S[i] -> s[] : 0 <= i < n; S[i] -> A[i] : 0 <= i < n }",
        ))
        .with_must_writes(u("[n] -> { S[i] -> s[] : 0 <= i < n }"));
    let d = compute_dependences(&acc).unwrap();
    let chain = "[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }";
    eq(&d.flow, chain, "flow");
    eq(&d.must_flow, chain, "must_flow");
    eq(&d.anti, chain, "anti");
    eq(&d.output, chain, "output");
    eq(
        &d.live_in,
        "[n] -> { S[0] -> s[] : n > 0; S[i] -> A[i] : 0 <= i < n }",
        "live_in",
    );
    eq(
        &d.live_out,
        "[n] -> { S[n - 1] -> s[] : n > 0 }",
        "live_out",
    );
    let t = d.untagged().unwrap();
    eq(&t.flow, chain, "untagged flow");
}

#[test]
fn missing_schedule_is_an_error() {
    let info = AccessInfo::from_sink(u("{ R[i] -> A[i] }")).with_schedule(u("{ W[i] -> [i] }"));
    assert!(compute_flow(&info).is_err());
}
