//! Per-case timing of the engine on a conformance-format corpus (issue 22's
//! trace corpus), in the two modes `benches/trace_compare.py` compares with
//! isl:
//!
//! ```text
//! cargo build --release -p benches --example trace_time
//! target/release/examples/trace_time [--fresh] [--min-ms N] benches/corpus/trace.jsonl
//! ```
//!
//! Prints `ID OP NANOSECONDS` per case. Default ("same object"): the median
//! of calls repeated on one parsed input for at least N ms (default 3), so a
//! point the engine keeps on a basic map from an earlier call is reused, as
//! isl reuses what it records on its objects. `--fresh`: every timed call
//! is the first call on a freshly parsed input (K inputs parsed beforehand,
//! K chosen so that the calls take about N ms, at least 3 and at most 100);
//! the median of the K calls. Parsing is never timed. Answers are not
//! checked here (`check.py` and `poly bench` check the corpus).

use std::time::{Duration, Instant};

use testkit::corpus::read_cases;
use testkit::ops::{prepare, run};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut fresh = false;
    let mut min_ms = 3u64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fresh" => fresh = true,
            "--min-ms" => {
                min_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--min-ms N")
            }
            _ => files.push(a),
        }
    }
    let min = Duration::from_millis(min_ms);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("corpus file");
        for case in read_cases(&text).expect("corpus") {
            let Ok(p) = prepare(&case) else {
                println!("{} {} UNSUPPORTED", case.id, case.op);
                continue;
            };
            let t = if fresh {
                let start = Instant::now();
                let _ = std::hint::black_box(run(&p));
                let first = start.elapsed().max(Duration::from_nanos(1));
                let k = (min.as_nanos() / first.as_nanos()).clamp(3, 100) as usize;
                let inputs: Vec<_> = (0..k).map(|_| prepare(&case).expect("parses")).collect();
                let times = inputs
                    .iter()
                    .map(|q| {
                        let t = Instant::now();
                        let _ = std::hint::black_box(run(q));
                        t.elapsed()
                    })
                    .collect();
                median(times)
            } else {
                let mut times = Vec::new();
                let start = Instant::now();
                while times.len() < 3 || start.elapsed() < min {
                    let t = Instant::now();
                    let _ = std::hint::black_box(run(&p));
                    times.push(t.elapsed());
                }
                median(times)
            };
            println!("{} {} {}", case.id, case.op, t.as_nanos());
        }
    }
}
