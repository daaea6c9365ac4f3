//! Dependences computed on the engine-built program model
//! ([`dataflow::compute_dependences_of`]) agree with those computed on the
//! shared reference models' relations (`../shared/kernels/NAME.model.json`),
//! and with dependences written out by hand on small kernels.

use std::path::PathBuf;

use dataflow::{compute_dependences, compute_dependences_of, Dependences, MemoryAccesses};
use presburger::UnionMap;

fn u(s: &str) -> UnionMap {
    s.parse().unwrap_or_else(|e| panic!("{e}\n{s}"))
}

/// The string value of `"key": "..."` in a flat JSON object (a small local
/// reader: the reference models only hold strings and string lists).
fn json_str(text: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\": \"");
    let start = text.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return Some(out),
            c => out.push(c),
        }
    }
    None
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

#[test]
fn shared_kernels_model_dependences_match_the_reference_models() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/kernels");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("note: ../shared/kernels not found, skipping");
        return;
    };
    let mut kernels: Vec<PathBuf> = entries
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    kernels.sort();
    let mut checked = 0;
    for c in kernels {
        let Ok(reference) = std::fs::read_to_string(c.with_extension("model.json")) else {
            continue;
        };
        let name = c.display().to_string();
        let model = scop::Model::from_source(&std::fs::read_to_string(&c).unwrap()).unwrap();
        let field = |k: &str| json_str(&reference, k).map(|s| u(&s));
        let empty = UnionMap::empty(Vec::new());
        let acc = MemoryAccesses::new(field("schedule").unwrap())
            .with_reads(field("read").unwrap())
            .with_must_writes(field("must_write").unwrap())
            .with_may_writes(field("may_write").unwrap_or(empty.clone()))
            .with_kills(field("kill").unwrap_or(empty));
        let theirs = compute_dependences(&acc).unwrap();
        let ours = compute_dependences_of(&model).unwrap();
        same_deps(&name, &ours, &theirs);
        checked += 1;
    }
    assert!(
        checked >= 8,
        "expected the 8 shared kernels, checked {checked}"
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
