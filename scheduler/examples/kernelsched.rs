//! The scheduler run of `lower`'s schedule choice on a kernel: its
//! dependences (`dataflow::ordering_dependences`), coalesced, as validity,
//! coincidence and proximity, with the choice's work limit and
//! `outer_parallel`. `kernelsched N K.c...` prints per kernel the outcome
//! and the median wall time of N runs of the scheduler alone (dependences
//! and their coalescing included with `--all`). A fixed workload for
//! `valgrind --tool=callgrind`.
use presburger::UnionMap;
use scheduler::{compute_schedule, Options, ScheduleConstraints};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let all = args.first().is_some_and(|a| a == "--all");
    if all {
        args.remove(0);
    }
    let Some((n, files)) = args.split_first() else {
        eprintln!("usage: kernelsched [--all] N K.c...");
        std::process::exit(2);
    };
    let n: usize = n.parse().unwrap_or(1);
    for f in files {
        let src = std::fs::read_to_string(f).expect("readable kernel");
        let model = scop::Model::from_source(&src).expect("model");
        let deps = || -> UnionMap {
            let d = dataflow::ordering_dependences(&dataflow::MemoryAccesses::from_model(&model))
                .expect("dependences");
            d.coalesce().expect("coalesce")
        };
        let fixed = deps();
        let mut times = Vec::new();
        let mut outcome = String::new();
        for _ in 0..n {
            let t = Instant::now();
            let d = if all { deps() } else { fixed.clone() };
            let none = UnionMap::empty(model.domain().params().to_vec());
            let sc = ScheduleConstraints {
                domain: model.domain().clone(),
                context: Some(model.context().clone()),
                validity: d.clone(),
                coincidence: d.clone(),
                proximity: d,
                condition: none.clone(),
                conditional_validity: none,
            }
            .aligned()
            .expect("aligned");
            let opts = Options {
                budget: Some(50_000),
                outer_parallel: true,
                ..Options::default()
            };
            outcome = match compute_schedule(&sc, &opts) {
                Ok(s) => format!("outer coincident {}", s.outer_coincident()),
                Err(e) => format!("{e}"),
            };
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        println!("{f}: {outcome}; {:.3} ms", times[times.len() / 2]);
    }
}
