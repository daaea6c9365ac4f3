//! The dependences `lower` computes for a kernel (`ordering_dependences` on
//! its model), repeated: `depstime N K.c...` prints per kernel the number
//! of disjuncts and the median wall time of N runs (front end excluded);
//! `depstime --print K.c` prints the relation. A fixed workload for
//! `valgrind --tool=callgrind`.
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((first, files)) = args.split_first() else {
        eprintln!("usage: depstime (N | --print) K.c...");
        std::process::exit(2);
    };
    for f in files {
        let src = std::fs::read_to_string(f).expect("readable kernel");
        let model = scop::Model::from_source(&src).expect("model");
        let acc = dataflow::MemoryAccesses::from_model(&model);
        if first == "--print" {
            println!(
                "{}",
                dataflow::ordering_dependences(&acc).expect("dependences")
            );
            continue;
        }
        let n: usize = first.parse().unwrap_or(1);
        let mut times = Vec::new();
        let mut disjuncts = 0;
        for _ in 0..n {
            let t = Instant::now();
            let d = dataflow::ordering_dependences(&acc).expect("dependences");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            disjuncts = d.maps().iter().map(|m| m.basic_maps().len()).sum::<usize>();
        }
        times.sort_by(|a, b| a.total_cmp(b));
        println!("{f} {disjuncts} disjuncts {:.3} ms", times[times.len() / 2]);
    }
}
