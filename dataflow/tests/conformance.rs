//! Runs the dataflow cases of `../shared/conformance/flow.jsonl` through
//! `compute_flow` and compares the four results semantically (the engine's `is_equal`).
//!
//! The shared directory lives beside the repository; when it is missing the
//! test prints a note and passes vacuously.

use dataflow::flow::compute_flow_reference;
use dataflow::{compute_flow, AccessInfo, Flow};
use presburger::UnionMap;
use std::path::PathBuf;

/// A tiny JSON reader for the case files (objects, arrays, strings, null, numbers).
#[allow(dead_code)]
#[derive(Debug, Clone)]
enum Json {
    Null,
    Str(String),
    Num(String),
    Bool(bool),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, k: &str) -> Option<&Json> {
        match self {
            Json::Obj(v) => v.iter().find(|(a, _)| a == k).map(|(_, b)| b),
            _ => None,
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            Json::Num(s) => s,
            _ => "",
        }
    }
}

fn parse_json(s: &str) -> Json {
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    value(&b, &mut i)
}

fn ws(b: &[char], i: &mut usize) {
    while *i < b.len() && b[*i].is_whitespace() {
        *i += 1;
    }
}

fn value(b: &[char], i: &mut usize) -> Json {
    ws(b, i);
    match b[*i] {
        '{' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                ws(b, i);
                if b[*i] == '}' {
                    *i += 1;
                    break;
                }
                let Json::Str(k) = value(b, i) else {
                    panic!("key")
                };
                ws(b, i);
                assert_eq!(b[*i], ':');
                *i += 1;
                let x = value(b, i);
                v.push((k, x));
                ws(b, i);
                if b[*i] == ',' {
                    *i += 1;
                }
            }
            Json::Obj(v)
        }
        '[' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                ws(b, i);
                if b[*i] == ']' {
                    *i += 1;
                    break;
                }
                v.push(value(b, i));
                ws(b, i);
                if b[*i] == ',' {
                    *i += 1;
                }
            }
            Json::Arr(v)
        }
        '"' => {
            *i += 1;
            let mut s = String::new();
            while b[*i] != '"' {
                if b[*i] == '\\' {
                    *i += 1;
                    match b[*i] {
                        'n' => s.push('\n'),
                        't' => s.push('\t'),
                        c => s.push(c),
                    }
                } else {
                    s.push(b[*i]);
                }
                *i += 1;
            }
            *i += 1;
            Json::Str(s)
        }
        'n' => {
            *i += 4;
            Json::Null
        }
        't' => {
            *i += 4;
            Json::Bool(true)
        }
        'f' => {
            *i += 5;
            Json::Bool(false)
        }
        _ => {
            let st = *i;
            while *i < b.len() && (b[*i] == '-' || b[*i].is_ascii_digit()) {
                *i += 1;
            }
            Json::Num(b[st..*i].iter().collect())
        }
    }
}

fn shared() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    p.exists().then_some(p)
}

fn u(s: &str) -> Result<UnionMap, String> {
    s.parse::<UnionMap>().map_err(|e| format!("parse {s}: {e}"))
}

fn same(got: &UnionMap, want: &str) -> Result<bool, String> {
    let w = u(want)?;
    if got.is_empty().map_err(|e| e.to_string())? && w.is_empty().map_err(|e| e.to_string())? {
        return Ok(true);
    }
    got.is_equal(&w).map_err(|e| e.to_string())
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
        let want = expect.get(k).ok_or("missing expectation")?.str();
        if !same(got, want)? {
            return Err(format!("{k} differs:\n  got  {got}\n  want {want}"));
        }
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
    let Some(dir) = shared() else {
        println!("note: ../shared/conformance not found, skipping the flow conformance cases");
        return;
    };
    let text = std::fs::read_to_string(dir.join("flow.jsonl")).expect("read flow.jsonl");
    let (mut pass, mut total) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_json(line);
        let id = case
            .get("id")
            .map(|j| j.str().to_string())
            .unwrap_or_default();
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

/// Every shared kernel (`../shared/kernels/*.model.json`: reads as sinks,
/// must-writes as must-sources, the model's schedule): `compute_flow` agrees
/// with the oracle.
#[test]
fn kernels_agree_with_reference() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/kernels");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("note: ../shared/kernels not found, skipping");
        return;
    };
    let mut names: Vec<PathBuf> = entries
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".model.json"))
        .collect();
    names.sort();
    for path in names {
        let m = parse_json(&std::fs::read_to_string(&path).expect("read model"));
        let field = |k: &str| match m.get(k) {
            Some(Json::Str(s)) => u(s).expect("isl text"),
            _ => UnionMap::empty(Vec::new()),
        };
        let info = AccessInfo::from_sink(field("read"))
            .with_must_source(field("must_write"))
            .with_may_source(field("may_write"))
            .with_schedule(field("schedule"));
        let flow = compute_flow(&info).expect("compute_flow");
        if let Err(e) = agrees_with_reference(&info, &flow) {
            panic!("{}: {e}", path.display());
        }
    }
}
