//! Per-case timing of the engine on a conformance-format corpus (issue 22's
//! trace corpus), in the two modes `benches/trace_compare.py` compares with
//! isl:
//!
//! ```text
//! cargo build --release -p benches --example trace_time
//! target/release/examples/trace_time [--fresh | --from-text] [--min-ms N] benches/corpus/trace.jsonl
//! target/release/examples/trace_time --serve [--cpu] [--fresh | --from-text] [--min-ms N] benches/corpus/trace.jsonl
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
//! call added about 25 ns per call, the whole time of a tiny call). Parsing is not timed in these
//! two modes. `--from-text` (since session 34): every timed call parses its
//! arguments' text and then makes the call, less a loop that parses the
//! smallest text of each argument's kind (`{ [] }` for a set or an empty
//! union, `{ [] -> [] }` for a relation) and makes the trivial call: the
//! work a parser does on its input counts wherever it is done. (isl's
//! parser simplifies each disjunct as it reads it and leaves out those it
//! finds empty, while ours keeps the rows as written and leaves most of
//! that to the operations: `--fresh` charges that work to our side only.)
//! Answers are not checked here (`check.py` and `poly bench` check the
//! corpus).
//!
//! What is counted, as on the isl side: the op is resolved from its name
//! before timing ([`testkit::ops::runner`], as `trace_compare.py` builds
//! isl's call beforehand), and the time per call of a trivial call through
//! the same path ([`testkit::ops::trivial`] or, on maps of one space,
//! [`testkit::ops::map_trivial`]: a field read returned as an
//! answer: the loop, the call, wrapping and dropping the answer) is
//! subtracted, as islpy's `n_basic_set` is subtracted from isl's; the
//! remainder is floored at 10 ns on both sides (a case at the floor on
//! both sides is a tie). Before this, our side was charged about 18 ns of
//! that overhead per call (the name lookup, `black_box` of the answer and
//! its drop) that the isl side was not: the whole of our time on the
//! corpus's empty sets, which the parser already leaves without parts.
//!
//! `--cpu`: the clock is the CPU time of the thread (`CLOCK_THREAD_CPUTIME_ID`)
//! instead of wall-clock time: on a loaded machine a wall-clock loop also
//! counts the time slices of other processes.
//!
//! `--serve`: the corpus is read, then case ids are read from stdin one per
//! line, and each is answered with its line `ID OP NANOSECONDS` as soon as it
//! is timed (the input parsed afresh for every request). `trace_compare.py`
//! uses it to time ours and isl's on the same case one right after the other
//! (a drift of the machine's load then moves both sides alike).

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Instant;

use testkit::corpus::{read_cases, Case};
use testkit::ops::{prepare, timed_runners, Prepared, Runner, Timed};

/// The clock of the measurements: wall-clock time, or (`--cpu`) the CPU time
/// of this thread (`CLOCK_THREAD_CPUTIME_ID`), which a loaded machine's other
/// processes do not add to; in nanoseconds.
#[derive(Clone, Copy)]
struct Clock {
    cpu: bool,
    origin: Instant,
}

impl Clock {
    fn now(&self) -> u128 {
        if self.cpu {
            codegen_x86::jit::thread_cpu_ns().expect("CLOCK_THREAD_CPUTIME_ID")
        } else {
            self.origin.elapsed().as_nanos()
        }
    }
}

fn median(mut v: Vec<u128>) -> u128 {
    v.sort();
    v[v.len() / 2]
}

/// The floor of a time per call (ns) once the trivial call is subtracted,
/// the same as `trace_compare.py`'s for isl: below it the subtraction does
/// not resolve a difference, and a case at the floor on both sides is a tie.
const FLOOR_NS: u128 = 10;

/// The median over loops of `f`'s time per call on `p` (ns): loops of K
/// calls (K chosen so that a loop takes about a tenth of `min`, judged by
/// a second call: the first may leave something on the object), for at
/// least `min` and 3 loops.
fn per_call(f: Runner, p: &Prepared, min: u128, clock: Clock) -> u128 {
    let _ = std::hint::black_box(f(p));
    let start = clock.now();
    let _ = std::hint::black_box(f(p));
    let first = (clock.now() - start).max(1);
    let k = ((min / 10) / first).clamp(1, 1 << 20);
    let mut loops = Vec::new();
    let start = clock.now();
    while loops.len() < 3 || clock.now() - start < min {
        let t = clock.now();
        for _ in 0..k {
            let _ = std::hint::black_box(f(p));
        }
        loops.push((clock.now() - t) / k);
    }
    median(loops)
}

/// One call of `f` on each of `inputs` (the timed loop of `--fresh`; a
/// function of its own so that a profiler can count its instructions alone:
/// `valgrind --tool=callgrind --toggle-collect='trace_time::fresh_calls*'`).
#[inline(never)]
fn fresh_calls(f: Runner, inputs: &[Prepared]) {
    for q in inputs {
        let _ = std::hint::black_box(f(q));
    }
}

/// `k` calls of `f`, each on `case`'s arguments parsed afresh (the timed
/// loop of `--from-text`).
#[inline(never)]
fn from_text_calls(f: Runner, case: &Case, k: usize) {
    for _ in 0..k {
        let q = prepare(case).expect("parses");
        let _ = std::hint::black_box(f(&q));
    }
}

/// `p`'s case with each set or relation argument replaced by the smallest
/// text of its kind (the baseline of `--from-text`, as `trace_compare.py`
/// parses `{ [] }` or `{ [] -> [] }` with the argument's isl type).
fn smallest_texts(p: &Prepared) -> Case {
    let mut inputs = p.inputs.iter();
    let args = p
        .case
        .args
        .iter()
        .enumerate()
        .map(|(k, a)| {
            if p.case.op == "project" && k == 1 {
                return a.clone();
            }
            match inputs.next() {
                Some(u) if !u.is_set() => "{ [] -> [] }".to_string(),
                _ => "{ [] }".to_string(),
            }
        })
        .collect();
    Case {
        args,
        ..p.case.clone()
    }
}

/// What a timed call is (see the crate documentation).
#[derive(Clone, Copy)]
enum Mode {
    SameObject,
    Fresh,
    FromText,
}

/// The time per call of `case` in the chosen mode (ns), `None` if it does
/// not parse: the operation's time less the trivial call's
/// ([`testkit::ops::trivial`], through the same path: as the isl side
/// subtracts `n_basic_set`), floored at [`FLOOR_NS`]. The calls are those
/// of [`testkit::ops::timed_runners`]: the `Map` methods when every
/// argument is one map (as `trace_compare.py` then times isl's
/// `isl_set`/`isl_map` calls, not the union ones), since session 27.
fn time_case(case: &Case, mode: Mode, min: u128, clock: Clock) -> Option<u128> {
    let p = prepare(case).ok()?;
    // (the `Map` methods when every argument is one map, as the isl side
    // takes `isl.Set`/`isl.Map` objects then; else the union ones)
    let Timed { op: f, trivial, .. } = timed_runners(&p)?;
    // K calls for about `min` (3 to 100), judged by a first call of this mode's
    let batch = |first: u128| (min / first.max(1)).clamp(3, 100) as usize;
    let (t, t0) = match mode {
        Mode::FromText => {
            let start = clock.now();
            let _ = std::hint::black_box(f(&prepare(case).ok()?));
            let k = batch(clock.now() - start);
            let smallest = smallest_texts(&p);
            // (the parsed inputs dropped inside the loops, as on the isl side)
            let t = clock.now();
            from_text_calls(f, case, k);
            let dt = (clock.now() - t) / k as u128;
            let t = clock.now();
            from_text_calls(trivial, &smallest, k);
            (dt, (clock.now() - t) / k as u128)
        }
        Mode::Fresh => {
            let start = clock.now();
            let _ = std::hint::black_box(f(&p));
            let k = batch(clock.now() - start);
            let inputs: Vec<_> = (0..k).map(|_| prepare(case).expect("parses")).collect();
            // one loop over the K inputs, as the isl side times it: the
            // clock is read twice per loop, not twice per call
            let t = clock.now();
            fresh_calls(f, &inputs);
            let dt = (clock.now() - t) / k as u128;
            let t = clock.now();
            for q in &inputs {
                let _ = std::hint::black_box(trivial(q));
            }
            (dt, (clock.now() - t) / k as u128)
        }
        Mode::SameObject => (
            per_call(f, &p, min, clock),
            per_call(trivial, &p, min / 5, clock),
        ),
    };
    Some(t.saturating_sub(t0).max(FLOOR_NS))
}

fn main() {
    let mut mode = Mode::SameObject;
    let mut serve = false;
    let mut cpu = false;
    let mut min_ms = 3u64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fresh" => mode = Mode::Fresh,
            "--from-text" => mode = Mode::FromText,
            "--serve" => serve = true,
            "--cpu" => cpu = true,
            "--min-ms" => {
                min_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--min-ms N")
            }
            _ => files.push(a),
        }
    }
    let min = u128::from(min_ms) * 1_000_000;
    let clock = Clock {
        cpu,
        origin: Instant::now(),
    };
    let mut cases = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("corpus file");
        cases.extend(read_cases(&text).expect("corpus"));
    }
    let report = |case: &Case| match time_case(case, mode, min, clock) {
        Some(t) => format!("{} {} {}", case.id, case.op, t),
        None => format!("{} {} UNSUPPORTED", case.id, case.op),
    };
    if !serve {
        for case in &cases {
            println!("{}", report(case));
        }
        return;
    }
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let id = line.trim();
        let answer = match by_id.get(id) {
            Some(case) => report(case),
            None => format!("{id} ? UNKNOWN"),
        };
        let mut out = stdout.lock();
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}
