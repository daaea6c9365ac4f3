//! `poly deps`: the dependences of a C kernel, through the program model.
//!
//! On every shared kernel the printed relations equal (`is_equal`) those
//! that `dataflow::compute_dependences` gives on the relations of the shared
//! reference model (`../shared/kernels/NAME.model.json`); small kernels are
//! checked against dependences written out by hand; the binary's output and
//! errors are checked end to end.

use std::path::PathBuf;
use std::process::Command;

use dataflow::{compute_dependences, MemoryAccesses};
use poly::deps::deps_text;
use poly::Error;
use presburger::UnionMap;
use testkit::json::Json;

fn u(s: &str) -> UnionMap {
    s.parse().unwrap_or_else(|e| panic!("{e}\n{s}"))
}

/// The labelled relations of `poly deps` output, in order.
fn relations(text: &str) -> Vec<(String, UnionMap)> {
    text.lines()
        .map(|l| {
            let (label, rel) = l.split_once(" := ").expect("label := relation;");
            let rel = rel.strip_suffix(';').expect("ends with ;");
            (label.to_string(), u(rel))
        })
        .collect()
}

fn check(src: &str, params: &[(String, i64)], want: &[(&str, &str)]) {
    let got = relations(&deps_text(src, params, false).unwrap());
    let labels: Vec<&str> = got.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["flow", "anti", "output", "live_in", "live_out"]);
    for ((label, rel), (wl, wr)) in got.iter().zip(want) {
        assert_eq!(label, wl);
        assert!(
            rel.is_equal(&u(wr)).unwrap(),
            "{label}:\n got  {rel}\n want {wr}"
        );
    }
}

#[test]
fn shared_kernels_match_the_reference_models() {
    let kernels = testkit::shared_kernel_sources();
    if kernels.is_empty() {
        println!("note: the shared kernels were not found, skipping");
        return;
    }
    let mut checked = 0;
    for c in kernels {
        let Ok(reference) = std::fs::read_to_string(c.with_extension("model.json")) else {
            continue;
        };
        let name = c.display().to_string();
        let reference = Json::parse(&reference).unwrap();
        let field = |k: &str| reference.get(k).and_then(Json::as_str).map(u);
        let empty = UnionMap::empty(Vec::new());
        let acc = MemoryAccesses::new(field("schedule").unwrap())
            .with_reads(field("read").unwrap())
            .with_must_writes(field("must_write").unwrap())
            .with_may_writes(field("may_write").unwrap_or(empty.clone()))
            .with_kills(field("kill").unwrap_or(empty));
        let d = compute_dependences(&acc).unwrap();
        let text = deps_text(&std::fs::read_to_string(&c).unwrap(), &[], false).unwrap();
        let got = relations(&text);
        for ((label, rel), want) in
            got.iter()
                .zip([&d.flow, &d.anti, &d.output, &d.live_in, &d.live_out])
        {
            assert!(
                rel.is_equal(want).unwrap(),
                "{name}: {label}\n poly deps: {rel}\n reference: {want}"
            );
        }
        // deterministic
        assert_eq!(
            text,
            deps_text(&std::fs::read_to_string(&c).unwrap(), &[], false).unwrap()
        );
        checked += 1;
    }
    assert!(
        checked >= 8,
        "expected the 8 shared kernels, checked {checked}"
    );
}

#[test]
fn hand_written_kernels() {
    // A copy: no dependences at all; every read is live-in, every write live-out.
    check(
        "void copy(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    B[i] = A[i];\n}",
        &[],
        &[
            ("flow", "[N] -> { }"),
            ("anti", "[N] -> { }"),
            ("output", "[N] -> { }"),
            ("live_in", "[N] -> { S0[i] -> A[i] : 0 <= i < N }"),
            ("live_out", "[N] -> { S0[i] -> B[i] : 0 <= i < N }"),
        ],
    );
    // Two statements in sequence, the second reading what the first wrote
    // one element to the left, then overwriting A.
    check(
        "void two(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    B[i] = A[i];\n  for (int i = 1; i < N; i++)\n    A[i] = B[i - 1];\n}",
        &[],
        &[
            ("flow", "[N] -> { S0[i] -> S1[i + 1] : 0 <= i < N - 1 }"),
            ("anti", "[N] -> { S0[i] -> S1[i] : 1 <= i < N }"),
            ("output", "[N] -> { }"),
            ("live_in", "[N] -> { S0[i] -> A[i] : 0 <= i < N }"),
            (
                "live_out",
                "[N] -> { S0[i] -> B[i] : 0 <= i < N; S1[i] -> A[i] : 1 <= i < N }",
            ),
        ],
    );
    // A time loop over a scalar, with the parameter fixed.
    check(
        "void acc(int T, double s) {\n  for (int t = 0; t < T; t++)\n    s = s * 2;\n}",
        &[("T".to_string(), 3)],
        &[
            (
                "flow",
                "[T] -> { S0[0] -> S0[1] : T = 3; S0[1] -> S0[2] : T = 3 }",
            ),
            (
                "anti",
                "[T] -> { S0[0] -> S0[1] : T = 3; S0[1] -> S0[2] : T = 3 }",
            ),
            (
                "output",
                "[T] -> { S0[0] -> S0[1] : T = 3; S0[1] -> S0[2] : T = 3 }",
            ),
            ("live_in", "[T] -> { S0[0] -> s[] : T = 3 }"),
            ("live_out", "[T] -> { S0[2] -> s[] : T = 3 }"),
        ],
    );
}

#[test]
fn tagged_output_keeps_references() {
    let src =
        "void k(int N, double A[N]) {\n  for (int i = 1; i < N; i++)\n    A[i] = A[i - 1];\n}";
    let got = relations(&deps_text(src, &[], true).unwrap());
    assert!(got[0]
        .1
        .is_equal(&u(
            "[N] -> { [S0[i] -> R0[]] -> [S0[i + 1] -> R1[]] : 1 <= i < N - 1 }"
        ))
        .unwrap());
}

#[test]
fn errors_keep_their_type() {
    // the front end's error, with its position
    match deps_text("void k(int N) {\n  while (N) {}\n}", &[], false) {
        Err(Error::Front(e)) => {
            assert_eq!((e.line(), e.col()), (2, 3));
            assert!(Error::Front(e).to_string().contains("while"));
        }
        other => panic!("expected a front-end error, got {other:?}"),
    }
    // a parameter that does not exist is the front end's usage error
    let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }";
    assert!(matches!(
        deps_text(src, &[("M".into(), 3)], false),
        Err(Error::Front(scop::Error::Usage { message })) if message.contains("`M`")
    ));
    // the engine's and the analysis' errors convert without losing their type
    let e: Error = presburger::Error::BudgetExceeded.into();
    assert_eq!(e, Error::Set(presburger::Error::BudgetExceeded));
    assert_eq!(e.to_string(), "operation budget exceeded");
    let e: Error = dataflow::Error::Engine(presburger::Error::BudgetExceeded).into();
    assert!(matches!(
        &e,
        Error::Dataflow(dataflow::Error::Engine(presburger::Error::BudgetExceeded))
    ));
    assert!(std::error::Error::source(&e).is_some());
}

fn poly(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .expect("run poly");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_binary_prints_five_labelled_lines() {
    let dir = std::env::temp_dir().join(format!("poly-deps-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("k.c");
    std::fs::write(
        &good,
        "void k(int N, double A[N]) {\n  for (int i = 1; i < N; i++)\n    A[i] = A[i - 1];\n}\n",
    )
    .unwrap();
    let (ok, out, err) = poly(&["deps", good.to_str().unwrap(), "--param", "N=4"]);
    assert!(ok, "{err}");
    let rels = relations(&out);
    assert_eq!(rels.len(), 5);
    // the output is a calculator script defining the five relations
    let mut calc = Vec::new();
    calc::run_script(&format!("{out}flow;\n"), true, &mut calc).unwrap();
    let calc = String::from_utf8(calc).unwrap();
    assert!(u(calc.trim()).is_equal(&rels[0].1).unwrap(), "{calc}");
    assert!(rels[0]
        .1
        .is_equal(&u(
            "[N] -> { S0[1] -> S0[2] : N = 4; S0[2] -> S0[3] : N = 4 }"
        ))
        .unwrap());

    let bad = dir.join("bad.c");
    std::fs::write(&bad, "void k(int N) {\n  for (;;) {}\n}\n").unwrap();
    let (ok, out, err) = poly(&["deps", bad.to_str().unwrap()]);
    assert!(!ok && out.is_empty());
    assert!(err.starts_with("error: 2:"), "{err}");

    let (ok, _, err) = poly(&["deps", dir.join("missing.c").to_str().unwrap()]);
    assert!(!ok && err.contains("missing.c"), "{err}");
    let (ok, _, err) = poly(&["deps", good.to_str().unwrap(), "--param", "N"]);
    assert!(!ok && err.contains("NAME=VALUE"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_shows_poly_deps() {
    let mut out = Vec::new();
    poly::demo::run_demo(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("$ poly deps trmv.c"));
    let flow = text
        .lines()
        .find_map(|l| l.strip_prefix("flow := "))
        .expect("a flow line");
    let want = u("[n] -> { S0[i, j] -> S0[i, j + 1] : 0 <= j < i < n }");
    assert!(u(flow.trim_end_matches(';')).is_equal(&want).unwrap());
}

#[test]
fn the_model_as_isl_is_a_calculator_script() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels");
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    kernels.sort();
    assert!(!kernels.is_empty());
    for c in kernels {
        let p = c.display().to_string();
        let script = scop::scop_command(&[p.clone(), "--isl".to_string()]).unwrap();
        let model = scop::Model::from_source(&std::fs::read_to_string(&c).unwrap()).unwrap();
        // every line defines a variable; asking for the reads gives the model's reads
        let mut out = Vec::new();
        calc::run_script(&format!("{script}\nRead;\n"), true, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains("error"), "{p}: {out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{p}: {out}");
        assert!(u(lines[0]).is_equal(model.reads()).unwrap(), "{p}");
    }
}
