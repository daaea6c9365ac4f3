//! Time `compute_flow` per case: `flowbench [--min-ms N] [--reference] [--best] < CASES`.
//!
//! Every stdin line is one case, tab-separated:
//! `ID<TAB>SINK<TAB>MUST<TAB>MAY<TAB>KILL<TAB>SCHEDULE` (isl text, an empty
//! field for none). For every case the analysis runs once untimed, then
//! repeatedly until at least N ms (default 10) have passed; one line
//! `ID NANOSECONDS` with the median time per call is printed (`ID ERROR` when
//! the analysis fails). `--reference` times the one-lexmax formulation
//! ([`dataflow::flow::compute_flow_reference`]) instead; `--best` prints the
//! fastest call instead of the median (steadier on a loaded machine, for A/B
//! comparisons).
//! `benches/dataflow_compare.py` drives it.
use dataflow::flow::compute_flow_reference;
use dataflow::{compute_flow, AccessInfo, Flow};
use presburger::UnionMap;
use std::io::BufRead;
use std::time::Instant;

fn u(s: &str) -> UnionMap {
    if s.trim().is_empty() {
        UnionMap::empty(vec![])
    } else {
        s.parse().expect("isl text")
    }
}

fn main() {
    let mut min_ms = 10u128;
    let mut reference = false;
    let mut best = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--min-ms" => {
                min_ms = args
                    .next()
                    .and_then(|x| x.parse().ok())
                    .expect("--min-ms N")
            }
            "--reference" => reference = true,
            "--best" => best = true,
            _ => panic!("usage: flowbench [--min-ms N] [--reference] [--best] < CASES"),
        }
    }
    let run: fn(&AccessInfo) -> dataflow::Result<Flow> = if reference {
        compute_flow_reference
    } else {
        compute_flow
    };
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() == 6, "expected 6 tab-separated fields: {line}");
        let info = AccessInfo::from_sink(u(f[1]))
            .with_must_source(u(f[2]))
            .with_may_source(u(f[3]))
            .with_kill(u(f[4]))
            .with_schedule(u(f[5]));
        if run(&info).is_err() {
            println!("{} ERROR", f[0]);
            continue;
        }
        let mut times = Vec::new();
        let start = Instant::now();
        while times.len() < 3 || start.elapsed().as_millis() < min_ms {
            let t = Instant::now();
            std::hint::black_box(run(&info).expect("compute_flow"));
            times.push(t.elapsed().as_nanos());
        }
        times.sort_unstable();
        let t = if best {
            times[0]
        } else {
            times[times.len() / 2]
        };
        println!("{} {}", f[0], t);
    }
}
