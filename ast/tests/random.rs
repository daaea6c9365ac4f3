//! Random small schedules: the generated AST, run by the interpreter, must
//! execute exactly the scheduled instances (brute-force enumeration), each
//! once, in schedule order (ties in any order).

use ast::{
    generate_tree, generate_with_options, parse_map_input, parse_tree, run, LoopKind, Options,
};
use std::collections::BTreeMap;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

/// An affine form c·(i, j, n, 1).
#[derive(Clone, Copy)]
struct Form([i64; 4]);
impl Form {
    fn eval(&self, i: i64, j: i64, n: i64) -> i64 {
        self.0[0] * i + self.0[1] * j + self.0[2] * n + self.0[3]
    }
    fn text(&self, dims: &[&str]) -> String {
        let names = [dims[0], dims.get(1).copied().unwrap_or("0"), "n", "1"];
        let mut s = String::from("0");
        for (k, c) in self.0.iter().enumerate() {
            if *c != 0 {
                s.push_str(&format!(" + ({c})*{}", names[k]));
            }
        }
        s
    }
}

struct Stmt {
    name: String,
    dims: usize,
    /// lower/upper forms for i and j (j's may use i), plus a stride on i
    lo: [Form; 2],
    hi: [Form; 2],
    stride: i64,
    sched: Vec<Form>,
}

impl Stmt {
    fn contains(&self, i: i64, j: i64, n: i64) -> bool {
        let ok_i = self.lo[0].eval(0, 0, n) <= i
            && i <= self.hi[0].eval(0, 0, n)
            && i.rem_euclid(self.stride) == 0;
        let ok_j =
            self.dims < 2 || (self.lo[1].eval(i, 0, n) <= j && j <= self.hi[1].eval(i, 0, n));
        ok_i && ok_j
    }
    fn domain_text(&self) -> String {
        let full = self.text();
        let (head, cons) = full.split_once(" : ").unwrap();
        let tuple = head.split(" -> ").next().unwrap();
        format!("{tuple} : {cons}")
    }
    fn member_text(&self, t: usize) -> String {
        let d: Vec<&str> = ["i", "j"][..self.dims].to_vec();
        format!(
            "{}[{}] -> [{}]",
            self.name,
            d.join(", "),
            self.sched[t].text(&d)
        )
    }
    fn text(&self) -> String {
        let d: Vec<&str> = ["i", "j"][..self.dims].to_vec();
        let mut cons = vec![format!(
            "{} <= i <= {}",
            self.lo[0].text(&d),
            self.hi[0].text(&d)
        )];
        if self.stride > 1 {
            cons.push(format!("i mod {} = 0", self.stride));
        }
        if self.dims == 2 {
            cons.push(format!(
                "{} <= j <= {}",
                self.lo[1].text(&d),
                self.hi[1].text(&d)
            ));
        }
        let times: Vec<String> = self.sched.iter().map(|f| f.text(&d)).collect();
        format!(
            "{}[{}] -> [{}] : {}",
            self.name,
            d.join(", "),
            times.join(", "),
            cons.join(" and ")
        )
    }
}

fn random_stmt(rng: &mut Rng, k: usize, nsched: usize) -> Stmt {
    let dims = 1 + rng.pick(2) as usize;
    let lo_i = [Form([0, 0, 0, 0]), Form([0, 0, 0, 1]), Form([0, 0, 0, -1])][rng.pick(3) as usize];
    let hi_i = [Form([0, 0, 1, 0]), Form([0, 0, 1, -1]), Form([0, 0, 0, 3])][rng.pick(3) as usize];
    let lo_j = [Form([0, 0, 0, 0]), Form([1, 0, 0, 0]), Form([1, 0, 0, -1])][rng.pick(3) as usize];
    let hi_j = [Form([0, 0, 1, 0]), Form([1, 0, 0, 2]), Form([0, 0, 0, 2])][rng.pick(3) as usize];
    let stride = [1, 1, 2, 3][rng.pick(4) as usize];
    let mut sched = Vec::new();
    for t in 0..nsched {
        let f = match (t, rng.pick(6)) {
            (_, 0) => Form([0, 0, 0, rng.pick(3)]),
            (_, 1) => Form([1, 0, 0, rng.pick(2)]),
            (_, 2) => Form([2, 0, 0, rng.pick(2)]),
            (_, 3) if dims == 2 => Form([1, 1, 0, 0]),
            (_, 4) if dims == 2 => Form([0, 1, 0, 0]),
            (_, 5) => Form([-1, 0, 1, 0]),
            _ => Form([1, 0, 0, 0]),
        };
        sched.push(f);
    }
    Stmt {
        name: format!("S{k}"),
        dims,
        lo: [lo_i, lo_j],
        hi: [hi_i, hi_j],
        stride,
        sched,
    }
}

/// `with_options`: each schedule dimension gets a random loop kind
/// (default, atomic, separate, unroll); the instances and their order must
/// not change.
fn check(seed: u64, with_options: bool) {
    check_with(
        seed,
        if with_options {
            Opts::Kinds
        } else {
            Opts::None
        },
    );
}

/// Which options the random schedule gets.
#[derive(Clone, Copy, PartialEq)]
enum Opts {
    None,
    /// A loop kind per dimension.
    Kinds,
    /// Options holding on part of the schedule space (`.in` options map
    /// with constraints, separation classes).
    Rules,
    /// A schedule tree whose band has an isolated part.
    Isolate,
}

const KINDS: [&str; 3] = ["atomic", "separate", "unroll"];

fn random_kind(rng: &mut Rng) -> LoopKind {
    [
        LoopKind::Default,
        LoopKind::Atomic,
        LoopKind::Separate,
        LoopKind::Unroll,
    ][rng.pick(4) as usize]
}

/// A random constraint on the time dimensions `t` (`x` names them).
fn random_condition(rng: &mut Rng, nsched: usize, x: &str) -> String {
    let d = rng.pick(nsched as u64);
    let a = rng.pick(5) - 1;
    match rng.pick(4) {
        0 => format!("{x}{d} <= {a}"),
        1 => format!("{x}{d} >= {a}"),
        2 => format!("{a} <= {x}{d} <= {} + n", a + rng.pick(3)),
        _ => format!("{x}{d} <= {a} or {x}{d} >= {}", a + 2 + rng.pick(3)),
    }
}

/// Returns true if the options changed the code.
fn check_with(seed: u64, opts: Opts) -> bool {
    let with_options = opts == Opts::Kinds;
    let mut rng = Rng(seed);
    let nsched = 1 + rng.pick(3) as usize;
    let mut options = Options::default();
    if with_options {
        for d in 0..nsched {
            options.set(d, random_kind(&mut rng));
        }
    }
    let nst = 1 + rng.pick(3) as usize;
    let stmts: Vec<Stmt> = (0..nst).map(|k| random_stmt(&mut rng, k, nsched)).collect();
    let text = format!(
        "[n] -> {{ {} }}",
        stmts.iter().map(Stmt::text).collect::<Vec<_>>().join("; ")
    );
    let schedule = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let context: presburger::Set = "[n] -> { : n >= 0 }".parse().unwrap();
    let ts: Vec<String> = (0..nsched).map(|k| format!("t{k}")).collect();
    let (code, text) = match opts {
        Opts::None | Opts::Kinds => {
            let code = generate_with_options(&schedule, &context, &options)
                .unwrap_or_else(|e| panic!("{text} {options:?}: {e}"));
            (code, format!("{text} {options:?}"))
        }
        Opts::Rules => {
            let mut rules = Vec::new();
            for _ in 0..1 + rng.pick(3) {
                let x = rng.pick(nsched as u64);
                let cond = random_condition(&mut rng, nsched, "t");
                let rule = if rng.pick(4) == 0 {
                    format!(
                        "[{}] -> separation_class[[{x}] -> [{}]] : {cond}",
                        ts.join(", "),
                        rng.pick(2)
                    )
                } else {
                    let kind = KINDS[rng.pick(3) as usize];
                    format!("[{}] -> {kind}[{x}] : {cond}", ts.join(", "))
                };
                rules.push(rule);
            }
            let input = format!(
                "{text}\n[n] -> {{ : n >= 0 }}\n[n] -> {{ {} }}",
                rules.join("; ")
            );
            let i = parse_map_input(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
            let code = generate_with_options(&i.schedule, &i.context, &i.loops)
                .unwrap_or_else(|e| panic!("{input}: {e}"));
            (code, input)
        }
        Opts::Isolate => {
            let domain: Vec<String> = stmts.iter().map(Stmt::domain_text).collect();
            let members: Vec<String> = (0..nsched)
                .map(|t| {
                    let m: Vec<String> = stmts.iter().map(|s| s.member_text(t)).collect();
                    format!("{{ {} }}", m.join("; "))
                })
                .collect();
            let mut options = vec![format!(
                "isolate[[] -> [{}]] : {}",
                ts.join(", "),
                random_condition(&mut rng, nsched, "t")
            )];
            for _ in 0..rng.pick(3) {
                let kind = KINDS[rng.pick(3) as usize];
                let x = rng.pick(nsched as u64);
                options.push(if rng.pick(2) == 0 {
                    format!("[isolate[] -> {kind}[{x}]]")
                } else {
                    format!("{kind}[{x}]")
                });
            }
            let tree = format!(
                "domain: \"[n] -> {{ {} }}\"\nchild:\n  context: \"[n] -> {{ [] : n >= 0 }}\"\n  child:\n    schedule: \"[n] -> [{}]\"\n    options: \"[n] -> {{ {} }}\"\n",
                domain.join("; "),
                members.join(", "),
                options.join("; ")
            );
            let t = parse_tree(&tree).unwrap_or_else(|e| panic!("{tree}: {e}"));
            let code = generate_tree(&t).unwrap_or_else(|e| panic!("{tree}: {e}"));
            (code, tree)
        }
    };
    for n in [0i64, 1, 2, 5] {
        // brute force: every instance with its time
        let mut expected: BTreeMap<(String, Vec<i64>), Vec<i64>> = BTreeMap::new();
        for s in &stmts {
            for i in -3..=12 {
                for j in if s.dims == 2 { -3..=14 } else { 0..=0 } {
                    if s.contains(i, j, n) {
                        let args = if s.dims == 2 { vec![i, j] } else { vec![i] };
                        let t = s.sched.iter().map(|f| f.eval(i, j, n)).collect();
                        expected.insert((s.name.clone(), args), t);
                    }
                }
            }
        }
        let trace = run(&code, &[("n".into(), n)], 1_000_000)
            .unwrap_or_else(|e| panic!("{text}\n{code}\nn={n}: {e}"));
        let mut seen = BTreeMap::new();
        let mut last: Option<Vec<i64>> = None;
        for inst in &trace {
            let t = expected
                .get(inst)
                .unwrap_or_else(|| panic!("{text}\n{code}\nn={n}: extra {inst:?}"));
            assert!(
                seen.insert(inst.clone(), ()).is_none(),
                "{text}\n{code}\nn={n}: {inst:?} twice"
            );
            if let Some(l) = &last {
                assert!(
                    l <= t,
                    "{text}\n{code}\nn={n}: {inst:?} at {t:?} after {l:?}"
                );
            }
            last = Some(t.clone());
        }
        assert_eq!(
            seen.len(),
            expected.len(),
            "{text}\n{code}\nn={n}: missing instances"
        );
    }
    let plain = ast::generate(&schedule, &context).unwrap();
    plain != code
}

#[test]
fn random_schedules_match_brute_force() {
    for seed in 0..300 {
        check(seed, false);
    }
}

#[test]
fn random_schedules_with_options_match_brute_force() {
    for seed in 1000..1200 {
        check(seed, true);
    }
}

#[test]
fn random_schedules_with_partial_options_match_brute_force() {
    let changed = (2000..2150).filter(|&s| check_with(s, Opts::Rules)).count();
    // the options are applied, not only accepted
    assert!(changed >= 30, "{changed} codes changed");
}

#[test]
fn random_trees_with_isolated_parts_match_brute_force() {
    let changed = (3000..3150)
        .filter(|&s| check_with(s, Opts::Isolate))
        .count();
    assert!(changed >= 30, "{changed} codes changed");
}
