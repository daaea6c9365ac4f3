//! Dependences computed on the engine-built program model
//! ([`dataflow::compute_dependences_of`]) agree with those computed on the
//! model's JSON text of the same kernels, read back (the comparison with the shared
//! reference models' relations is in `cli/tests/deps.rs`, where a JSON
//! reader is at hand), and with dependences written out by hand on small
//! kernels.

use std::path::PathBuf;

use dataflow::{compute_dependences, compute_dependences_of, Dependences, MemoryAccesses};
use presburger::UnionMap;

fn u(s: &str) -> UnionMap {
    s.parse().unwrap_or_else(|e| panic!("{e}\n{s}"))
}

fn same(what: &str, a: &UnionMap, b: &UnionMap) {
    assert!(
        a.is_equal(b).unwrap(),
        "{what} differs\n ours:      {a}\n reference: {b}"
    );
}

fn same_deps(name: &str, ours: &Dependences, theirs: &Dependences) {
    same(&format!("{name}: flow"), &ours.flow, &theirs.flow);
    same(
        &format!("{name}: must flow"),
        &ours.must_flow,
        &theirs.must_flow,
    );
    same(&format!("{name}: anti"), &ours.anti, &theirs.anti);
    same(&format!("{name}: output"), &ours.output, &theirs.output);
    same(&format!("{name}: live-in"), &ours.live_in, &theirs.live_in);
    same(
        &format!("{name}: live-out"),
        &ours.live_out,
        &theirs.live_out,
    );
}

/// The kernels of the shared folder (if present) and of the front end's tests.
fn kernels() -> Vec<PathBuf> {
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels");
    let mut out = testkit::shared_kernel_sources();
    if out.is_empty() {
        println!("note: the shared kernels were not found, skipping them");
    }
    out.extend(testkit::files_with_suffix(&own, ".c"));
    out
}

/// The model route (engine values, no text) gives the same dependences as
/// the text route (the relations of `poly scop`'s JSON, parsed, then
/// `compute_dependences`).
#[test]
fn model_dependences_match_the_text_route() {
    let mut checked = 0;
    for c in kernels() {
        let name = c.display().to_string();
        let scop = scop::build_scop(&std::fs::read_to_string(&c).unwrap()).unwrap();
        let model = scop::Model::from_scop(&scop).unwrap();
        let json = testkit::json::Json::parse(&model.to_json().pretty()).unwrap();
        let t = |key: &str| u(json.get(key).and_then(|v| v.as_str()).unwrap());
        let acc = MemoryAccesses::new(t("schedule"))
            .with_reads(t("read"))
            .with_must_writes(t("must_write"));
        let theirs = compute_dependences(&acc).unwrap();
        let ours = compute_dependences_of(&model).unwrap();
        same_deps(&name, &ours, &theirs);
        checked += 1;
    }
    assert!(
        checked >= 13,
        "expected at least the front end's 13 kernels, checked {checked}"
    );
}

#[test]
fn hand_written_dependences() {
    // A prefix sum: each iteration reads the previous one's value.
    let m = scop::Model::from_source(
        "void k(int N, double A[N]) {\n  for (int i = 1; i < N; i++)\n    A[i] = A[i] + A[i - 1];\n}",
    )
    .unwrap();
    let d = compute_dependences_of(&m).unwrap();
    same(
        "flow",
        &d.flow,
        &u("[N] -> { S0[i] -> S0[i + 1] : 1 <= i < N - 1 }"),
    );
    same("must flow", &d.must_flow, &d.flow);
    // S0[i] reads A[i - 1] and A[i]; no later iteration writes either.
    same("anti", &d.anti, &u("[N] -> {  }"));
    same("output", &d.output, &u("[N] -> {  }"));
    same(
        "live-in",
        &d.live_in,
        &u("[N] -> { S0[i] -> A[i] : 1 <= i < N; S0[1] -> A[0] : N >= 2 }"),
    );
    same(
        "live-out",
        &d.live_out,
        &u("[N] -> { S0[i] -> A[i] : 1 <= i < N }"),
    );

    // A scalar reduction followed by a use: s is overwritten by each S0.
    let m = scop::Model::from_source(
        "void k(int N, double A[N], double B[N]) {\n  double s;\n  for (int i = 0; i < N; i++) {\n    s = A[i];\n    B[i] = s * s;\n  }\n}",
    )
    .unwrap();
    let d = compute_dependences_of(&m).unwrap();
    same(
        "flow",
        &d.flow,
        &u("[N] -> { S0[i] -> S1[i] : 0 <= i < N }"),
    );
    same(
        "anti",
        &d.anti,
        &u("[N] -> { S1[i] -> S0[i + 1] : 0 <= i < N - 1 }"),
    );
    same(
        "output",
        &d.output,
        &u("[N] -> { S0[i] -> S0[i + 1] : 0 <= i < N - 1 }"),
    );
    same(
        "live-in",
        &d.live_in,
        &u("[N] -> { S0[i] -> A[i] : 0 <= i < N }"),
    );
    same(
        "live-out",
        &d.live_out,
        &u("[N] -> { S1[i] -> B[i] : 0 <= i < N; S0[N - 1] -> s[] : N > 0 }"),
    );
}

#[test]
fn tagged_accesses_tell_references_apart() {
    // Two reads of the same element in one statement: tags separate them.
    let m = scop::Model::from_source(
        "void k(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = 1;\n  for (int i = 0; i < N; i++)\n    B[i] = A[i] * A[i];\n}",
    )
    .unwrap();
    let acc = MemoryAccesses::from_model_tagged(&m).unwrap();
    let d = compute_dependences(&acc).unwrap();
    same(
        "tagged flow",
        &d.flow,
        &u("[N] -> { [S0[i] -> R0[]] -> [S1[i] -> R2[]] : 0 <= i < N; [S0[i] -> R0[]] -> [S1[i] -> R3[]] : 0 <= i < N }"),
    );
    let plain = compute_dependences_of(&m).unwrap();
    same("untagged", &d.untagged().unwrap().flow, &plain.flow);
}

#[test]
fn another_schedule_gives_other_dependences() {
    // The prefix sum run backwards: no value flows, every read of A[i - 1]
    // happens before S0[i - 1] overwrites it.
    let m = scop::Model::from_source(
        "void k(int N, double A[N]) {\n  for (int i = 1; i < N; i++)\n    A[i] = A[i] + A[i - 1];\n}",
    )
    .unwrap();
    let m = m.with_schedule(u("[N] -> { S0[i] -> [-i] }")).unwrap();
    let d = compute_dependences_of(&m).unwrap();
    same("flow", &d.flow, &u("[N] -> {  }"));
    same(
        "anti",
        &d.anti,
        &u("[N] -> { S0[i] -> S0[i - 1] : 2 <= i < N }"),
    );
    same("output", &d.output, &u("[N] -> {  }"));
    same(
        "live-in",
        &d.live_in,
        &u("[N] -> { S0[i] -> A[i] : 1 <= i < N; S0[i] -> A[i - 1] : 1 <= i < N }"),
    );
}

/// `ordering_dependences` (two flow analyses without may-writes, no
/// read-write filter) is the union of `compute_dependences`' flow, anti and
/// output dependences, on every kernel and on accesses with may-writes
/// (where it needs the third analysis).
#[test]
fn ordering_dependences_are_flow_anti_and_output() {
    let check = |name: &str, acc: &MemoryAccesses| {
        let d = compute_dependences(acc).unwrap();
        let all = d.flow.union(&d.anti).unwrap().union(&d.output).unwrap();
        same(
            &format!("{name}: ordering"),
            &dataflow::ordering_dependences(acc).unwrap(),
            &all,
        );
    };
    let mut checked = 0;
    for c in kernels() {
        let name = c.display().to_string();
        let model = scop::Model::from_source(&std::fs::read_to_string(&c).unwrap()).unwrap();
        check(&name, &MemoryAccesses::from_model(&model));
        checked += 1;
    }
    assert!(checked >= 13, "checked {checked}");
    // may-writes: a conditional write between a must-write and a read,
    // and reads after both
    let sched = u("{ W[i] -> [i, 0]; C[i] -> [i, 1]; R[i] -> [i, 2] }");
    let acc = MemoryAccesses::new(sched)
        .with_must_writes(u("[n] -> { W[i] -> A[i] : 0 <= i < n }"))
        .with_may_writes(u("[n] -> { C[i] -> A[i - 1] : 1 <= i < n }"))
        .with_reads(u(
            "[n] -> { R[i] -> A[i - 1] : 1 <= i < n; C[i] -> A[i] : 0 <= i < n }",
        ));
    let d = compute_dependences(&acc).unwrap();
    assert!(!d.output.is_empty().unwrap() && !d.anti.is_empty().unwrap());
    check("may-writes", &acc);
}

/// `ordering_dependences` (which asks each flow analysis for its may
/// dependences alone) gives, written alike, the union of the may
/// dependences of the full analyses it stands for: reads from writes,
/// writes from writes and reads, and with may-writes, writes from writes.
#[test]
fn ordering_dependences_are_the_may_dependences_of_the_full_analyses() {
    let mut checked = 0;
    for c in kernels() {
        let name = c.display().to_string();
        let model = scop::Model::from_source(&std::fs::read_to_string(&c).unwrap()).unwrap();
        for acc in [
            MemoryAccesses::from_model(&model),
            MemoryAccesses::from_model_tagged(&model).unwrap(),
        ] {
            let writes = acc.must_writes.union(&acc.may_writes).unwrap();
            let full = |sink: &UnionMap, may: &UnionMap| {
                let info = dataflow::AccessInfo::from_sink(sink.clone())
                    .with_kill(acc.kills.clone())
                    .with_schedule(acc.schedule.clone())
                    .with_must_source(acc.must_writes.clone())
                    .with_may_source(may.clone());
                dataflow::compute_flow(&info).unwrap().may_dependence
            };
            let mut want = full(&acc.reads, &acc.may_writes)
                .union(&full(&writes, &acc.reads))
                .unwrap();
            if !acc.may_writes.is_empty().unwrap() {
                want = want.union(&full(&writes, &acc.may_writes)).unwrap();
            }
            let got = dataflow::ordering_dependences(&acc).unwrap();
            assert_eq!(got.to_string(), want.to_string(), "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 26, "{checked}");
}
