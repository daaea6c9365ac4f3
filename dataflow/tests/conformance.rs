//! Runs the dataflow cases of `../shared/conformance/flow.jsonl` through
//! `compute_flow` and compares the four results semantically (the engine's `is_equal`).
//! The case file, the kernel models and the shared folder are read with `testkit`.
//!
//! The shared directory lives beside the repository; when it is missing the
//! test prints a note and passes vacuously.

use dataflow::flow::{compute_flow_reference, compute_may_dependence};
use dataflow::{compute_flow, AccessInfo, Flow};
use presburger::UnionMap;
use testkit::corpus::read_jsonl;
use testkit::json::Json;

fn u(s: &str) -> Result<UnionMap, String> {
    s.parse::<UnionMap>().map_err(|e| format!("parse {s}: {e}"))
}

/// Equal sets (two empty ones whatever their spaces), judged as the
/// conformance op table judges (`testkit::ops::same`).
fn same(got: &UnionMap, want: &str) -> Result<bool, String> {
    testkit::ops::same(got, want).map_err(|e| format!("judging against {want}: {e}"))
}

/// The problem of a flow case.
fn case_info(case: &Json) -> Result<AccessInfo, String> {
    let args = case.get("args").ok_or("no args")?;
    let arg = |k: &str| -> Result<UnionMap, String> {
        match args.get(k) {
            Some(Json::Str(s)) => u(s),
            _ => Ok(UnionMap::empty(Vec::new())),
        }
    };
    Ok(AccessInfo::from_sink(arg("sink")?)
        .with_must_source(arg("must_source")?)
        .with_may_source(arg("may_source")?)
        .with_kill(arg("kill")?)
        .with_schedule(arg("schedule_map")?))
}

fn run_case(case: &Json) -> Result<(), String> {
    let args = case.get("args").ok_or("no args")?;
    let arg = |k: &str| -> Result<UnionMap, String> {
        match args.get(k) {
            Some(Json::Str(s)) => u(s),
            _ => Ok(UnionMap::empty(Vec::new())),
        }
    };
    let info = AccessInfo::from_sink(arg("sink")?)
        .with_must_source(arg("must_source")?)
        .with_may_source(arg("may_source")?)
        .with_kill(arg("kill")?)
        .with_schedule(arg("schedule_map")?);
    let flow = compute_flow(&info).map_err(|e| format!("compute_flow: {e}"))?;
    agrees_with_reference(&info, &flow)?;
    let expect = case.get("expect").ok_or("no expect")?;
    let results = [
        ("must_dependence", &flow.must_dependence),
        ("may_dependence", &flow.may_dependence),
        ("must_no_source", &flow.must_no_source),
        ("may_no_source", &flow.may_no_source),
    ];
    for (k, got) in results {
        let want = expect
            .get(k)
            .and_then(Json::as_str)
            .ok_or("missing expectation")?;
        if !same(got, want)? {
            return Err(format!("{k} differs:\n  got  {got}\n  want {want}"));
        }
    }
    Ok(())
}

/// `compute_may_dependence` gives `compute_flow`'s may dependences, written
/// the same way (the same text, not only the same set).
fn may_alone_is_written_alike(info: &AccessInfo, flow: &Flow) -> Result<(), String> {
    let may = compute_may_dependence(info).map_err(|e| format!("may alone: {e}"))?;
    if may.to_string() != flow.may_dependence.to_string() {
        return Err(format!(
            "may dependences alone differ:\n  alone {may}\n  flow  {}",
            flow.may_dependence
        ));
    }
    Ok(())
}

/// The level-by-level `compute_flow` and the one-lexmax oracle give equal results.
fn agrees_with_reference(info: &AccessInfo, flow: &Flow) -> Result<(), String> {
    let r = compute_flow_reference(info).map_err(|e| format!("reference: {e}"))?;
    for (k, got, want) in [
        ("must_dependence", &flow.must_dependence, &r.must_dependence),
        ("may_dependence", &flow.may_dependence, &r.may_dependence),
        ("must_no_source", &flow.must_no_source, &r.must_no_source),
        ("may_no_source", &flow.may_no_source, &r.may_no_source),
    ] {
        if !same(got, &want.to_string())? {
            return Err(format!(
                "{k} differs from the oracle:\n  got    {got}\n  oracle {want}"
            ));
        }
    }
    Ok(())
}

/// The number of flow.jsonl cases known to pass; the test fails if fewer do.
const PASSING_AT_LEAST: usize = 24;

#[test]
fn flow_jsonl() {
    let Some(dir) = testkit::shared_path("conformance") else {
        println!("note: ../shared/conformance not found, skipping the flow conformance cases");
        return;
    };
    let text = std::fs::read_to_string(dir.join("flow.jsonl")).expect("read flow.jsonl");
    let (mut pass, mut total) = (0, 0);
    for (_, case) in read_jsonl(&text).expect("flow.jsonl is JSON lines") {
        let id = case.get("id").map(Json::to_text).unwrap_or_default();
        total += 1;
        let t = std::time::Instant::now();
        match run_case(&case) {
            Ok(()) => {
                pass += 1;
                println!("ok   {id} ({:.3} s)", t.elapsed().as_secs_f64());
            }
            Err(e) => println!("FAIL {id}: {e}"),
        }
    }
    println!("flow.jsonl: {pass}/{total} passed");
    assert!(
        pass >= PASSING_AT_LEAST.min(total),
        "only {pass} of {total} flow cases pass"
    );
}

/// `compute_may_dependence` on every flow case that `compute_flow` answers:
/// `compute_flow`'s may dependences, written alike.
#[test]
fn may_dependence_alone_on_the_flow_cases() {
    let Some(dir) = testkit::shared_path("conformance") else {
        println!("note: ../shared/conformance not found, skipping the flow conformance cases");
        return;
    };
    let text = std::fs::read_to_string(dir.join("flow.jsonl")).expect("read flow.jsonl");
    let mut checked = 0;
    for (_, case) in read_jsonl(&text).expect("flow.jsonl is JSON lines") {
        let id = case.get("id").map(Json::to_text).unwrap_or_default();
        let Ok(info) = case_info(&case) else { continue };
        let Ok(flow) = compute_flow(&info) else {
            continue;
        };
        if let Err(e) = may_alone_is_written_alike(&info, &flow) {
            panic!("{id}: {e}");
        }
        checked += 1;
    }
    assert!(checked >= PASSING_AT_LEAST, "{checked} cases checked");
}

/// Every shared kernel (`../shared/kernels/*.model.json`: reads as sinks,
/// must-writes as must-sources, the model's schedule): `compute_flow` agrees
/// with the oracle.
#[test]
fn kernels_agree_with_reference() {
    if testkit::kernels::kernels_dir().is_none() {
        println!("note: ../shared/kernels not found, skipping");
        return;
    }
    for m in testkit::kernels::models() {
        let info = AccessInfo::from_sink(m.read)
            .with_must_source(m.must_write)
            .with_may_source(m.may_write)
            .with_schedule(m.schedule);
        let flow = compute_flow(&info).expect("compute_flow");
        if let Err(e) = agrees_with_reference(&info, &flow) {
            panic!("{}.model.json: {e}", m.name);
        }
        if let Err(e) = may_alone_is_written_alike(&info, &flow) {
            panic!("{}.model.json: {e}", m.name);
        }
    }
}

/// The front end's kernels (`scop/tests/kernels`: among them nussinov,
/// whose outer loop counts down, which the level-by-level search maximises
/// in its own instance space with that coordinate negated): `compute_flow`
/// agrees with the oracle, reads and must-writes as the model gives them.
#[test]
fn front_end_kernels_agree_with_reference() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    let mut checked = 0;
    for p in paths {
        let src = std::fs::read_to_string(&p).unwrap();
        let model = scop::Model::from_scop(&scop::build_scop(&src).unwrap()).unwrap();
        let info = AccessInfo::from_sink(model.reads().clone())
            .with_must_source(model.must_writes().clone())
            .with_may_source(model.may_writes().clone())
            .with_schedule(model.schedule().clone());
        let flow = compute_flow(&info).expect("compute_flow");
        if let Err(e) = agrees_with_reference(&info, &flow) {
            panic!("{}: {e}", p.display());
        }
        if let Err(e) = may_alone_is_written_alike(&info, &flow) {
            panic!("{}: {e}", p.display());
        }
        checked += 1;
    }
    assert!(checked >= 13, "{checked}");
}
