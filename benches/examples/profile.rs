//! A fixed workload for profilers (`valgrind --tool=callgrind`, `perf record`):
//! runs one benchmark input of `benches/` a given number of times.
//!
//! ```text
//! cargo build --release -p benches --example profile
//! valgrind --tool=callgrind target/release/examples/profile lexmax doitgen 20
//! target/release/examples/profile polytope 8 200
//! target/release/examples/profile flow atax 20
//! ```
//!
//! `lexmax KERNEL`: the last-writer lexmax of `benches::writer_relation`;
//! `polytope D`: lexmin of `benches::sparse_polytope(D, 42 + D)` (as the `lexmin` bench);
//! `empty DEPTH-PARITY`: emptiness of `benches::dependence(DEPTH, PARITY)` (as the
//! `is_empty_dependence` bench; parities 1 and 2 are empty);
//! `decide DEPTH-PARITY`: `BasicMap::is_empty` on each disjunct of the same relation, parsed as
//! a basic map, until a non-empty one (the first call decides; later ones re-check a kept point);
//! `flow KERNEL`: `dataflow::compute_flow` on the kernel model (as the `kernels` bench).
//! `print lexmax KERNEL` / `print polytope D` / `print empty DEPTH-PARITY`: print the input in isl notation
//! instead (to time the same input in isl); `disjuncts empty DEPTH-PARITY` prints its basic maps
//! as parsed, one per line.

use presburger::{BasicMap, UnionMap};
use std::time::Instant;

/// `benches::dependence` from `DEPTH-PARITY` (e.g. `2-1`).
fn dependence(arg: &str) -> String {
    let (d, p) = arg.split_once('-').expect("DEPTH-PARITY");
    benches::dependence(d.parse().expect("DEPTH"), p.parse().expect("PARITY"))
}

/// `benches::dependence_disjuncts` from `DEPTH-PARITY`.
fn disjuncts(arg: &str) -> Vec<String> {
    let (d, p) = arg.split_once('-').expect("DEPTH-PARITY");
    benches::dependence_disjuncts(d.parse().expect("DEPTH"), p.parse().expect("PARITY"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: profile (lexmax KERNEL | polytope D | empty DEPTH-PARITY | decide DEPTH-PARITY | flow KERNEL) REPEATS");
        eprintln!("       profile print (lexmax KERNEL | polytope D | empty DEPTH-PARITY)");
        eprintln!("       profile disjuncts empty DEPTH-PARITY");
        std::process::exit(2);
    }
    let model = |name: &str| {
        benches::models()
            .into_iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no kernel model {name} in ../shared/kernels"))
    };
    if args[1] == "disjuncts" && args[2] == "empty" {
        // the input of isl_instructions.py's emptiness decision, one basic map per line
        for d in disjuncts(&args[3]) {
            println!("{d}");
        }
        return;
    }
    if args[1] == "print" {
        match args[2].as_str() {
            "lexmax" => println!(
                "{}",
                benches::writer_relation(&model(&args[3])).expect("writer relation")
            ),
            "polytope" => {
                let d: usize = args[3].parse().expect("D is a number");
                println!("{}", benches::sparse_polytope(d, 42 + d as u64));
            }
            "empty" => println!("{}", dependence(&args[3])),
            w => {
                eprintln!("unknown workload {w}");
                std::process::exit(2);
            }
        }
        return;
    }
    let reps: usize = args[3].parse().expect("REPEATS is a number");
    let start = Instant::now();
    match args[1].as_str() {
        "lexmax" => {
            let r = benches::writer_relation(&model(&args[2])).expect("writer relation");
            for _ in 0..reps {
                std::hint::black_box(r.lexmax().expect("lexmax"));
            }
        }
        "polytope" => {
            let d: usize = args[2].parse().expect("D is a number");
            let s: UnionMap = benches::sparse_polytope(d, 42 + d as u64)
                .parse()
                .expect("polytope");
            for _ in 0..reps {
                std::hint::black_box(s.lexmin().expect("lexmin"));
            }
        }
        "empty" => {
            let r: UnionMap = dependence(&args[2]).parse().expect("dependence");
            for _ in 0..reps {
                std::hint::black_box(r.is_empty().expect("is_empty"));
            }
        }
        "decide" => {
            // the disjuncts as basic maps (no parse-time simplification), tested in order until
            // a non-empty one; every repeat after the first finds the kept point
            let bs: Vec<BasicMap> = disjuncts(&args[2])
                .iter()
                .map(|t| t.parse().expect("disjunct"))
                .collect();
            for _ in 0..reps {
                std::hint::black_box(bs.iter().all(|b| b.is_empty().expect("is_empty")));
            }
        }
        "flow" => {
            let m = model(&args[2]);
            let info = benches::flow_info(&m);
            for _ in 0..reps {
                std::hint::black_box(dataflow::compute_flow(&info).expect("flow"));
            }
        }
        w => {
            eprintln!("unknown workload {w}");
            std::process::exit(2);
        }
    }
    let per = start.elapsed().as_secs_f64() / reps as f64;
    eprintln!("{:.1} µs per run", per * 1e6);
}
