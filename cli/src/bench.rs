//! `poly bench CASES.jsonl [--min-ms N]`: time engine operations on
//! conformance-format cases (`../shared/conformance/*.jsonl`).
//!
//! Every input of every case is parsed first. Then, for each case, the
//! operation runs once and its answer is checked against `expect` (a
//! mismatch prints `ID OP WRONG`), and the operation alone is timed,
//! repeated until at least N ms (default 10) have passed: one line
//! `ID OP NANOSECONDS` with the median time per call. Cases whose op is
//! not supported print `ID OP UNSUPPORTED`. The exit status is non-zero
//! when some answer was wrong.
//!
//! The ops map onto the engine as in the conformance test of the
//! `presburger` crate: `UnionMap` methods, `lexmin_map` is `lexmin` on a
//! relation, `compose` is `apply_range`, `apply` is `args[1].apply(args[0])`
//! reversed (the set is the first argument), `project` projects out one set
//! dimension.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use presburger::{Int, UnionMap};

use crate::error::Error;
use crate::json::Json;

/// The ops `poly bench` knows.
pub const OPS: &[&str] = &[
    "lexmin",
    "lexmax",
    "lexmin_map",
    "lexmax_map",
    "is_empty",
    "subtract",
    "coalesce",
    "union",
    "intersect",
    "complement",
    "is_equal",
    "is_subset",
    "sample",
    "gist",
    "project",
    "card",
    "reverse",
    "domain",
    "range",
    "deltas",
    "compose",
    "apply",
    "is_single_valued",
    "is_injective",
];

/// One case of a conformance file.
#[derive(Clone, Debug)]
pub struct Case {
    /// Case id.
    pub id: String,
    /// Operation name.
    pub op: String,
    /// Arguments as text.
    pub args: Vec<String>,
    /// Expected answer as text (`true`, an isl set, `error`, ...).
    pub expect: String,
}

/// The answer of one operation.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A set or relation.
    Set(UnionMap),
    /// A truth value.
    Bool(bool),
    /// A count.
    Int(Int),
}

/// A case with its inputs parsed.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The case.
    pub case: Case,
    /// Parsed set/map arguments (non-set arguments such as `project`'s index are skipped).
    pub inputs: Vec<UnionMap>,
    /// `project`'s dimension index.
    pub index: usize,
}

/// Read the cases of a conformance file (one JSON object a line).
pub fn read_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let j = Json::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let field = |k: &str| j.get(k).ok_or_else(|| format!("line {}: no `{k}`", n + 1));
        let args = field("args")?
            .as_array()
            .ok_or_else(|| format!("line {}: `args` is not an array", n + 1))?
            .iter()
            .map(Json::to_text)
            .collect();
        out.push(Case {
            id: field("id")?.to_text(),
            op: field("op")?.to_text(),
            args,
            expect: field("expect")?.to_text(),
        });
    }
    Ok(out)
}

/// Parse a case's inputs; `Err` for an unknown op or an input that does not parse.
pub fn prepare(case: &Case) -> Result<Prepared, String> {
    if !OPS.contains(&case.op.as_str()) {
        return Err("unsupported op".into());
    }
    let mut inputs = Vec::new();
    let mut index = 0;
    for (k, a) in case.args.iter().enumerate() {
        if case.op == "project" && k == 1 {
            index = a
                .parse()
                .map_err(|_| format!("bad dimension index {a:?}"))?;
            continue;
        }
        inputs.push(
            a.parse::<UnionMap>()
                .map_err(|e| format!("argument {k}: {e}"))?,
        );
    }
    let need = match case.op.as_str() {
        "subtract" | "union" | "intersect" | "is_equal" | "is_subset" | "gist" | "compose"
        | "apply" => 2,
        _ => 1,
    };
    if inputs.len() < need {
        return Err(format!("{} needs {need} set arguments", case.op));
    }
    Ok(Prepared {
        case: case.clone(),
        inputs,
        index,
    })
}

/// Run the operation once.
pub fn run(p: &Prepared) -> presburger::Result<Answer> {
    let a = &p.inputs[0];
    let b = || &p.inputs[1];
    use Answer::{Bool, Set};
    Ok(match p.case.op.as_str() {
        "lexmin" | "lexmin_map" => Set(a.lexmin()?),
        "lexmax" | "lexmax_map" => Set(a.lexmax()?),
        "is_empty" => Bool(a.is_empty()?),
        "subtract" => Set(a.subtract(b())?),
        "coalesce" => Set(a.coalesce()?),
        "union" => Set(a.union(b())?),
        "intersect" => Set(a.intersect(b())?),
        "complement" => Set(a.complement()?),
        "is_equal" => Bool(a.is_equal(b())?),
        "is_subset" => Bool(a.is_subset(b())?),
        "sample" => Set(a.sample()?),
        "gist" => Set(a.gist(b())?),
        "project" => match a.to_map()? {
            Some(m) => Set(UnionMap::from_map(m.project_out(p.index, 1)?)),
            None => Set(a.clone()),
        },
        "card" => Answer::Int(a.card()?),
        "reverse" => Set(a.reverse()?),
        "domain" => Set(a.domain()?),
        "range" => Set(a.range()?),
        "deltas" => Set(a.deltas()?),
        "compose" => Set(a.apply_range(b())?),
        "apply" => Set(a.apply(b())?),
        "is_single_valued" => Bool(a.is_single_valued()?),
        "is_injective" => Bool(a.is_injective()?),
        op => return Err(presburger::Error::Invalid(format!("unsupported op {op}"))),
    })
}

fn same(got: &UnionMap, want: &str) -> presburger::Result<bool> {
    let w: UnionMap = want.parse()?;
    if got.is_empty()? && w.is_empty()? {
        return Ok(true);
    }
    got.is_equal(&w)
}

/// Is the answer right? (Judged semantically with the engine, as the
/// conformance test does.)
pub fn is_right(p: &Prepared, answer: &presburger::Result<Answer>) -> bool {
    let expect = p.case.expect.as_str();
    let answer = match answer {
        Err(_) => return expect == "error",
        Ok(_) if expect == "error" => return false,
        Ok(a) => a,
    };
    let judged = match (p.case.op.as_str(), answer) {
        (_, Answer::Bool(v)) => Ok(v.to_string() == expect),
        (_, Answer::Int(n)) => Ok(expect.parse::<Int>().map(|e| e == *n).unwrap_or(false)),
        ("sample", Answer::Set(s)) => (|| {
            if expect == "empty" {
                return s.is_empty();
            }
            Ok(!s.is_empty()? && s.is_subset(&p.inputs[0])? && s.card()? == Int::ONE)
        })(),
        ("gist", Answer::Set(g)) => (|| {
            let c = &p.inputs[1];
            g.intersect(c)?.is_equal(&p.inputs[0].intersect(c)?)
        })(),
        (_, Answer::Set(s)) => same(s, expect),
    };
    judged.unwrap_or(false)
}

/// Median time per call of `f`, calling it until at least `min` has passed
/// (and at least 3 times).
pub fn time_median<T>(min: Duration, mut f: impl FnMut() -> T) -> Duration {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || start.elapsed() < min {
        let t = Instant::now();
        std::hint::black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// Parsed command-line options.
struct Options {
    files: Vec<String>,
    min_ms: u64,
}

fn options(args: &[String]) -> Result<Options, Error> {
    let mut o = Options {
        files: Vec::new(),
        min_ms: 10,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--min-ms" => {
                let v = it
                    .next()
                    .ok_or_else(|| Error::Usage("--min-ms needs a number".into()))?;
                o.min_ms = v
                    .parse()
                    .map_err(|_| Error::Usage(format!("--min-ms: not a number: {v}")))?;
            }
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!(
                    "unknown option `{s}` for `poly bench`"
                )))
            }
            s => o.files.push(s.to_string()),
        }
    }
    if o.files.is_empty() {
        return Err(Error::Usage("`poly bench` needs a CASES.jsonl file".into()));
    }
    Ok(o)
}

/// Run `poly bench` with the arguments after `bench`, writing to `out`.
pub fn bench_to(args: &[String], out: &mut dyn Write) -> Result<ExitCode, Error> {
    let o = options(args)?;
    let mut cases = Vec::new();
    for f in &o.files {
        let text = std::fs::read_to_string(f).map_err(|e| Error::Io(format!("{f}: {e}")))?;
        cases.extend(read_cases(&text).map_err(|e| Error::Command(format!("{f}: {e}")))?);
    }
    // Parse every input first.
    let prepared: Vec<(Case, Result<Prepared, String>)> = cases
        .into_iter()
        .map(|c| {
            let p = prepare(&c);
            (c, p)
        })
        .collect();
    let min = Duration::from_millis(o.min_ms);
    let mut wrong = 0;
    for (case, p) in &prepared {
        let p = match p {
            Ok(p) => p,
            Err(e) if e == "unsupported op" => {
                writeln!(out, "{} {} UNSUPPORTED", case.id, case.op)?;
                continue;
            }
            Err(e) => {
                writeln!(out, "{} {} WRONG", case.id, case.op)?;
                eprintln!("{} {}: input does not parse: {e}", case.id, case.op);
                wrong += 1;
                continue;
            }
        };
        let answer = run(p);
        if !is_right(p, &answer) {
            writeln!(out, "{} {} WRONG", case.id, case.op)?;
            wrong += 1;
        }
        let t = time_median(min, || run(p).is_ok());
        writeln!(out, "{} {} {}", case.id, case.op, t.as_nanos())?;
        out.flush()?;
    }
    eprintln!("poly bench: {} cases, {wrong} wrong", prepared.len());
    Ok(if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `poly bench` on standard output.
pub fn bench_command(args: &[String]) -> Result<ExitCode, Error> {
    bench_to(args, &mut std::io::stdout().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(op: &str, args: &[&str], expect: &str) -> Prepared {
        let c = Case {
            id: "t".into(),
            op: op.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            expect: expect.into(),
        };
        prepare(&c).unwrap()
    }

    #[test]
    fn judges_answers() {
        let p = case(
            "lexmin",
            &["[n] -> { [i] : n <= i <= 10 }"],
            "[n] -> { [i = n] : n <= 10 }",
        );
        assert!(is_right(&p, &run(&p)));
        let p = case("lexmin", &["{ [i] : 0 <= i <= 10 }"], "{ [1] }");
        assert!(!is_right(&p, &run(&p)));
        let p = case("lexmin", &["{ [i] : i <= 10 }"], "error");
        assert!(is_right(&p, &run(&p)));
        let p = case("is_empty", &["{ [i] : 0 <= 2i <= 1 and i > 0 }"], "true");
        assert!(is_right(&p, &run(&p)));
        let p = case("card", &["{ [i, j] : 0 <= i < 3 and 0 <= j < 4 }"], "12");
        assert!(is_right(&p, &run(&p)));
        let p = case(
            "project",
            &["{ [i, j] : 0 <= i < 3 and j = 2i }", "0"],
            "{ [j] : 0 <= j <= 4 and j mod 2 = 0 }",
        );
        assert!(is_right(&p, &run(&p)));
        let p = case(
            "subtract",
            &["{ [i] : 0 <= i <= 9 }", "{ [i] : i >= 5 }"],
            "{ [i] : 0 <= i <= 5 }",
        );
        assert!(!is_right(&p, &run(&p)));
    }

    #[test]
    fn reads_cases_and_rejects_unknown_ops() {
        let text = "{\"id\": \"a\", \"op\": \"union\", \"args\": [\"{ [1] }\", \"{ [2] }\"], \"expect\": \"{ [i] : 1 <= i <= 2 }\"}\n\n{\"id\": \"b\", \"op\": \"frobnicate\", \"args\": [\"{ [1] }\"], \"expect\": true}\n";
        let cases = read_cases(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].expect, "true");
        let p = prepare(&cases[0]).unwrap();
        assert!(is_right(&p, &run(&p)));
        assert_eq!(prepare(&cases[1]).unwrap_err(), "unsupported op");
        assert!(read_cases("{\"id\": 1}").is_err());
    }

    #[test]
    fn prints_one_line_per_case() {
        let dir = std::env::temp_dir().join(format!("poly-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("cases.jsonl");
        std::fs::write(
            &f,
            "{\"id\": \"a\", \"op\": \"is_empty\", \"args\": [\"{ [i] : 0 <= i <= 3 }\"], \"expect\": false}\n{\"id\": \"b\", \"op\": \"is_empty\", \"args\": [\"{ [i] : 0 <= i <= 3 }\"], \"expect\": true}\n",
        )
        .unwrap();
        let mut out = Vec::new();
        let code = bench_to(
            &[f.display().to_string(), "--min-ms".into(), "1".into()],
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(
            lines[0].starts_with("a is_empty ") && lines[0][11..].parse::<u64>().is_ok(),
            "{text}"
        );
        assert_eq!(lines[1], "b is_empty WRONG");
        assert!(lines[2].starts_with("b is_empty ") && lines[2][11..].parse::<u64>().is_ok());
        assert_eq!(code, ExitCode::FAILURE);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
