//! `poly delicm`: DeLICM on a C kernel, and the conflict-test protocol.
//!
//! - `poly delicm KERNEL.c`: the transformed model as JSON (the keys of
//!   `poly scop`, plus `mapped`, `forwarded`, `rejected` and `statistics`,
//!   whose `scheduler` entry says what `poly schedule` finds before and
//!   after: outer parallel members and permutable depth of its outermost
//!   band);
//!   `--forward` forwards operand trees first (the readers' tags change);
//!   `--known` lets a copy of an element live in that element while it
//!   holds the same value (the stored copy becomes the source of the
//!   element's later reads).
//! - `poly delicm --conflicts FILE.jsonl`: one line `ID conflict` or
//!   `ID ok` per case of the shared protocol (`shared/delicm/README.md`).
//! - `poly interp KERNEL.c --delicm NAME=VALUE...`: checksums of the
//!   transformed program ([`interp_command`]; `--forward`, `--known` as
//!   above).
//!
//! ```
//! let case = r#"{"id": "c4", "existing": {"occupied": "{ Dom[i] : i != 0 }", "unused": null, "written": "{}"}, "proposed": {"occupied": "{ Dom[0] }", "unused": null, "written": "{}"}}"#;
//! assert_eq!(poly::delicm::conflict_lines(case), "c4 ok\n");
//! ```

use scop::json::Json as Out;

use crate::error::{Error, Result};
use crate::json::Json;

impl From<delicm::Error> for Error {
    fn from(e: delicm::Error) -> Error {
        match e {
            delicm::Error::Engine(e) => Error::Set(e),
            delicm::Error::BudgetExceeded => Error::Set(presburger::Error::BudgetExceeded),
            delicm::Error::Front(e) => Error::Front(e),
            delicm::Error::Dataflow(e) => Error::Dataflow(e),
            delicm::Error::Invalid(m) => Error::Usage(m),
        }
    }
}

fn side(case: &Json, key: &str) -> std::result::Result<delicm::Side, String> {
    let s = case.get(key).ok_or_else(|| format!("no `{key}`"))?;
    let field = |f: &str| -> std::result::Result<Option<&str>, String> {
        match s.get(f) {
            None | Some(Json::Null) => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| format!("`{key}.{f}` is not a string")),
        }
    };
    delicm::Side::parse(field("occupied")?, field("unused")?, field("written")?)
        .map_err(|e| format!("{key}: {e}"))
}

/// Answers for the cases of a JSON-lines text: `ID conflict` / `ID ok`
/// lines; a case that cannot be read gives `ID error: ...` (line number
/// when it has no id).
pub fn conflict_lines(text: &str) -> String {
    let mut out = String::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case = match Json::parse(line) {
            Ok(c) => c,
            Err(e) => {
                out.push_str(&format!(
                    "line-{} error: JSON at offset {}: expected {}\n",
                    n + 1,
                    e.offset,
                    e.expected
                ));
                continue;
            }
        };
        let id = case
            .get("id")
            .and_then(Json::as_str)
            .map_or(format!("line-{}", n + 1), str::to_string);
        let answer = side(&case, "existing").and_then(|e| {
            let p = side(&case, "proposed")?;
            presburger::budget::with_budget(delicm::DEFAULT_BUDGET, || delicm::conflict(&e, &p))
                .map_err(|e| e.to_string())
        });
        match answer {
            Ok(true) => out.push_str(&format!("{id} conflict\n")),
            Ok(false) => out.push_str(&format!("{id} ok\n")),
            Err(e) => out.push_str(&format!("{id} error: {e}\n")),
        }
    }
    out
}

/// What the scheduler makes of a model: `{"outer_parallel": N,
/// "permutable_depth": N}` for the outermost band of the schedule `poly
/// schedule` computes (leading coincident members; members if the band is
/// permutable, else 1), or `{"error": ...}` when it fails or runs out of
/// its budget.
fn scheduled(model: &scop::Model) -> Out {
    let run = || -> Result<(usize, usize)> {
        let sc = crate::schedule::model_constraints(model, false)?;
        let s = presburger::budget::with_budget(200_000_000, || {
            scheduler::compute_schedule(&sc, &scheduler::Options::default())
        })
        .map_err(|error| Error::Schedule {
            file: "kernel".into(),
            error,
        })?;
        Ok(outermost_band(&s.root))
    };
    match run() {
        Ok((par, depth)) => Out::Obj(vec![
            ("outer_parallel".into(), Out::Int(par as i64)),
            ("permutable_depth".into(), Out::Int(depth as i64)),
        ]),
        Err(e) => Out::Obj(vec![("error".into(), Out::str(e.to_string()))]),
    }
}

/// `(leading coincident members, permutable depth)` of the outermost band
/// reached through single-child sequences and sets (`(0, 0)` when the
/// statements are split first).
fn outermost_band(node: &scheduler::Node) -> (usize, usize) {
    match node {
        scheduler::Node::Band(b) => {
            let par = b.coincident.iter().take_while(|c| **c).count();
            let depth = if b.permutable { b.members.len() } else { 1 };
            (par, depth)
        }
        scheduler::Node::Sequence(f) | scheduler::Node::Set(f) if f.len() == 1 => {
            outermost_band(&f[0].child)
        }
        _ => (0, 0),
    }
}

/// The transformed model of a kernel as the JSON document of `poly delicm`.
pub fn delicm_json(src: &str, options: &delicm::Options) -> Result<Out> {
    let t = delicm::transform(src, options)?;
    let mut json = t.model.to_json();
    let mapped = t
        .mapped
        .iter()
        .map(|m| {
            Out::Obj(vec![
                ("scalar".into(), Out::str(&m.scalar)),
                ("array".into(), Out::str(&m.array)),
                ("map".into(), Out::str(m.map.to_string())),
            ])
        })
        .collect();
    let rejected = t
        .rejected
        .iter()
        .map(|(s, a, why)| {
            Out::Obj(vec![
                ("scalar".into(), Out::str(s)),
                ("array".into(), Out::str(a)),
                ("reason".into(), Out::str(why)),
            ])
        })
        .collect();
    let st = delicm::statistics(&t)?;
    let dims = |v: &[usize]| Out::Arr(v.iter().map(|&d| Out::Int(d as i64)).collect());
    let stats = Out::Obj(vec![
        (
            "scalar_dependences_before".into(),
            Out::Int(st.scalar_dependences_before as i64),
        ),
        (
            "scalar_dependences_after".into(),
            Out::Int(st.scalar_dependences_after as i64),
        ),
        (
            "scalar_dependences_removed".into(),
            Out::Int(st.scalar_dependences_before as i64 - st.scalar_dependences_after as i64),
        ),
        (
            "parallel_dims_before".into(),
            dims(&st.parallel_dims_before),
        ),
        ("parallel_dims_after".into(), dims(&st.parallel_dims_after)),
        (
            "permutable_depth_before".into(),
            Out::Int(st.permutable_depth_before as i64),
        ),
        (
            "permutable_depth_after".into(),
            Out::Int(st.permutable_depth_after as i64),
        ),
        ("budget_exhausted".into(), Out::Bool(t.budget_exhausted)),
        (
            "scheduler".into(),
            Out::Obj(vec![
                ("before".into(), scheduled(&t.original)),
                ("after".into(), scheduled(&t.model)),
            ]),
        ),
    ]);
    let forwarded = t
        .forwarded
        .iter()
        .map(|f| {
            Out::Obj(vec![
                ("scalar".into(), Out::str(&f.scalar)),
                ("from".into(), Out::str(&f.from)),
                ("into".into(), Out::str(&f.into)),
                ("expression".into(), Out::str(&f.expression)),
            ])
        })
        .collect();
    if let Out::Obj(kv) = &mut json {
        kv.push(("mapped".into(), Out::Arr(mapped)));
        kv.push(("forwarded".into(), Out::Arr(forwarded)));
        kv.push(("rejected".into(), Out::Arr(rejected)));
        kv.push(("statistics".into(), stats));
    }
    Ok(json)
}

fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{path}: {e}")))
}

/// The options `--forward` and `--known` among `args` (removed from it).
fn options(args: &[String]) -> (delicm::Options, Vec<&String>) {
    let mut o = delicm::Options::default();
    let mut rest = Vec::new();
    for a in args {
        match a.as_str() {
            "--forward" => o.forward = true,
            "--known" => o.known_values = true,
            _ => rest.push(a),
        }
    }
    (o, rest)
}

/// `poly delicm KERNEL.c [--forward] [--known]` or
/// `poly delicm --conflicts FILE.jsonl`.
pub fn delicm_command(args: &[String]) -> Result<String> {
    if let [flag, path] = args {
        if flag == "--conflicts" {
            return Ok(conflict_lines(&read(path)?));
        }
    }
    let (o, rest) = options(args);
    match rest.as_slice() {
        [path] if !path.starts_with('-') => Ok(delicm_json(&read(path)?, &o)?.pretty()),
        _ => Err(Error::Usage(
            "poly delicm KERNEL.c [--forward] [--known] | poly delicm --conflicts FILE.jsonl"
                .into(),
        )),
    }
}

/// `poly interp KERNEL.c --delicm [--forward] [--known] NAME=VALUE...`:
/// runs the transformed program; one `NAME CHECKSUM` line per array
/// parameter, as `poly interp`.
pub fn interp_command(args: &[String]) -> Result<String> {
    let (options, rest) = options(args);
    let rest: Vec<&String> = rest.into_iter().filter(|a| *a != "--delicm").collect();
    let Some((path, assignments)) = rest.split_first() else {
        return Err(Error::Usage(
            "poly interp FILE.c --delicm NAME=VALUE...".into(),
        ));
    };
    let t = delicm::transform(&read(path)?, &options)?;
    let assignments: Vec<String> = assignments.iter().map(|a| a.to_string()).collect();
    Ok(scop::commands::interp_function(&t.function, &assignments)?)
}
