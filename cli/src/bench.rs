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
//! The cases are read and judged with testkit's corpus reader and op table
//! ([`testkit::corpus`], [`testkit::ops`]): the same ops and the same judge
//! as the conformance test of the `presburger` crate.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use testkit::corpus::{read_cases, Case};
use testkit::ops::{judge, prepare, run, PrepareError, Prepared, Verdict};

use crate::error::Error;

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
        cases.extend(read_cases(&text).map_err(|error| Error::Corpus {
            file: f.clone(),
            error,
        })?);
    }
    // Parse every input first.
    let prepared: Vec<(Case, Result<Prepared, PrepareError>)> = cases
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
            Err(PrepareError::UnsupportedOp(_)) => {
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
        if judge(p, &answer) != Verdict::Right {
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
