//! Time one `compute_flow` call: `flowtime SINK MUST MAY KILL SCHEDULE` (isl text, `""` for none).
//! Set `DATAFLOW_TRACE=1` for the time of every step.
use dataflow::{compute_flow, AccessInfo};
use presburger::UnionMap;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let u = |s: &str| -> UnionMap {
        if s.is_empty() {
            UnionMap::empty(vec![])
        } else {
            s.parse().unwrap()
        }
    };
    let info = AccessInfo::from_sink(u(&a[1]))
        .with_must_source(u(&a[2]))
        .with_may_source(u(&a[3]))
        .with_kill(u(&a[4]))
        .with_schedule(u(&a[5]));
    let t = Instant::now();
    let f = compute_flow(&info).unwrap();
    eprintln!("total {:?}", t.elapsed());
    println!(
        "{}\n{}\n{}\n{}",
        f.must_dependence, f.may_dependence, f.must_no_source, f.may_no_source
    );
}
