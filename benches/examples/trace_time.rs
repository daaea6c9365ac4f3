//! Per-case timing of the engine on a conformance-format corpus (issue 22's
//! trace corpus), in the two modes `benches/trace_compare.py` compares with
//! isl:
//!
//! ```text
//! cargo build --release -p benches --example trace_time
//! target/release/examples/trace_time [--fresh] [--min-ms N] benches/corpus/trace.jsonl
//! ```
//!
//! Prints `ID OP NANOSECONDS` per case. Default ("same object"): calls
//! repeated on one parsed input for at least N ms (default 3), in loops of K
//! calls (a loop about N/10 ms), the median loop's time per call; so a point
//! the engine keeps on a basic map from an earlier call is reused, as isl
//! reuses what it records on its objects. `--fresh`: every timed call is the
//! first call on a freshly parsed input (K inputs parsed beforehand, K chosen
//! so that the calls take about N ms, at least 3 and at most 100); the time
//! of the loop over the K inputs divided by K. Both modes read the clock
//! once per loop, as `trace_compare.py` times isl (reading it around every
//! call added about 25 ns per call, the whole time of a tiny call). Parsing is never timed. Answers are not
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
                // one loop over the K inputs, as the isl side times it: the
                // clock is read twice per loop, not twice per call
                let t = Instant::now();
                for q in &inputs {
                    let _ = std::hint::black_box(run(q));
                }
                t.elapsed() / k as u32
            } else {
                // loops of K calls (K chosen so that a loop takes about a
                // tenth of N ms, judged by a second call: the first may leave
                // something on the object), the median loop divided by K
                let _ = std::hint::black_box(run(&p));
                let start = Instant::now();
                let _ = std::hint::black_box(run(&p));
                let first = start.elapsed().max(Duration::from_nanos(1));
                let k = ((min.as_nanos() / 10) / first.as_nanos()).clamp(1, 1 << 20) as u32;
                let mut loops = Vec::new();
                let start = Instant::now();
                while loops.len() < 3 || start.elapsed() < min {
                    let t = Instant::now();
                    for _ in 0..k {
                        let _ = std::hint::black_box(run(&p));
                    }
                    loops.push(t.elapsed() / k);
                }
                median(loops)
            };
            println!("{} {} {}", case.id, case.op, t.as_nanos());
        }
    }
}
