//! Time `compute_schedule` in process: `schedtime [--min-ms N] [--fastest] FILE.sc...`
//! prints `FILE MICROSECONDS` (median of repeated runs over at least N ms,
//! default 200; with `--fastest` the fastest run, steadier on a loaded machine).
use scheduler::{compute_schedule, Options, ScheduleConstraints};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut min_ms = 200u128;
    let mut fastest = false;
    loop {
        match args.first().map(String::as_str) {
            Some("--min-ms") => {
                min_ms = args[1].parse().expect("a number of milliseconds");
                args.drain(..2);
            }
            Some("--fastest") => {
                fastest = true;
                args.remove(0);
            }
            _ => break,
        }
    }
    for f in args {
        let text = std::fs::read_to_string(&f).expect("readable file");
        let sc: ScheduleConstraints = match text.parse() {
            Ok(sc) => sc,
            Err(e) => {
                println!("{f} error {e}");
                continue;
            }
        };
        let opts = Options::default();
        let start = Instant::now();
        let mut times = Vec::new();
        while start.elapsed().as_millis() < min_ms || times.len() < 3 {
            let t = Instant::now();
            if let Err(e) = compute_schedule(&sc, &opts) {
                println!("{f} error {e}");
                break;
            }
            times.push(t.elapsed().as_nanos());
        }
        times.sort();
        let at = if fastest { 0 } else { times.len() / 2 };
        if let Some(m) = times.get(at) {
            println!("{f} {:.1}", *m as f64 / 1000.0);
        }
    }
}
