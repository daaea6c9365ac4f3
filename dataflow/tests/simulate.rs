//! Brute-force check of `compute_flow` against a trace simulation: for fixed
//! parameter values, enumerate the statement instances, execute them in
//! schedule order, record the last writer of every element, and compare
//! with the must dependences and the no-source accesses.
//!
//! The models have injective schedules, must-writes only (and kills), so the
//! last writer is always unique: may and must answers coincide.

use dataflow::{compute_flow, AccessInfo};
use presburger::testing::{box_points, contains};
use presburger::{Int, Map, UnionMap};
use std::collections::{BTreeMap, BTreeSet};

/// One statement: its domain, schedule, reads, writes and kills (isl text, one map each or `{ }`).
struct Stmt {
    domain: String,
    schedule: String,
    reads: Vec<String>,
    writes: Vec<String>,
    kills: Vec<String>,
}

struct Model {
    params: Vec<(&'static str, i64)>,
    stmts: Vec<Stmt>,
}

fn parse(s: &str) -> Map {
    s.parse().unwrap_or_else(|e| panic!("parse {s}: {e}"))
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

fn name_of(m: &Map, range: bool) -> String {
    let t = if range {
        &m.space().range
    } else {
        m.space().domain.as_ref().unwrap_or(&m.space().range)
    };
    t.name.clone().unwrap_or_default()
}

fn point_text(name: &str, coords: &[i64]) -> String {
    let c: Vec<String> = coords.iter().map(|x| x.to_string()).collect();
    format!("{name}[{}]", c.join(", "))
}

/// Images of `inst` under `access` inside the box `[lo, hi]^n_out`.
fn images(access: &Map, params: &[i64], inst: &[i64], lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let n = access.space().n_out();
    let mut out = Vec::new();
    for p in box_points(n, lo, hi) {
        let mut pt = ints(params);
        pt.extend(ints(inst));
        pt.extend(p.iter().cloned());
        if contains(access, &pt) {
            out.push(
                p.iter()
                    .map(|x| x.to_string().parse::<i64>().unwrap())
                    .collect(),
            );
        }
    }
    out
}

fn union_text(params: &[(&str, i64)], parts: &[String]) -> UnionMap {
    let names: Vec<&str> = params.iter().map(|p| p.0).collect();
    let cond: Vec<String> = params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let body: Vec<String> = parts
        .iter()
        .map(|p| format!("{p} : {}", cond.join(" and ")))
        .collect();
    format!("[{}] -> {{ {} }}", names.join(", "), body.join("; "))
        .parse()
        .unwrap()
}

fn fix_params(u: &UnionMap, params: &[(&str, i64)]) -> UnionMap {
    let names: Vec<&str> = params.iter().map(|p| p.0).collect();
    let cond: Vec<String> = params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let ctx: Map = format!("[{}] -> {{ : {} }}", names.join(", "), cond.join(" and "))
        .parse()
        .unwrap();
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        out.add_map(m.intersect_params(&ctx).unwrap()).unwrap();
    }
    out
}

fn run(model: &Model, lo: i64, hi: i64) {
    let pnames: Vec<&str> = model.params.iter().map(|p| p.0).collect();
    let pvals: Vec<i64> = model.params.iter().map(|p| p.1).collect();
    let pre = format!("[{}] -> ", pnames.join(", "));
    let mut sink = UnionMap::empty(Vec::new());
    let mut must = UnionMap::empty(Vec::new());
    let mut kill = UnionMap::empty(Vec::new());
    let mut sched = UnionMap::empty(Vec::new());
    // (time, kind order, instance text, event)
    let mut events: Vec<(Vec<i64>, u8, String, String, Vec<i64>)> = Vec::new();
    for s in &model.stmts {
        let dom = parse(&format!("{pre}{}", s.domain));
        let sch = parse(&format!("{pre}{}", s.schedule));
        sched.add_map(sch.clone()).unwrap();
        let stmt = name_of(&dom, true);
        let accs = |v: &Vec<String>| -> Vec<Map> {
            v.iter()
                .map(|a| parse(&format!("{pre}{a}")).intersect_domain(&dom).unwrap())
                .collect()
        };
        let (reads, writes, kills) = (accs(&s.reads), accs(&s.writes), accs(&s.kills));
        for r in &reads {
            sink.add_map(r.clone()).unwrap();
        }
        for w in &writes {
            must.add_map(w.clone()).unwrap();
        }
        for k in &kills {
            kill.add_map(k.clone()).unwrap();
        }
        for p in box_points(dom.space().n_out(), lo, hi) {
            let mut pt = ints(&pvals);
            pt.extend(p.iter().cloned());
            if !contains(&dom, &pt) {
                continue;
            }
            let inst: Vec<i64> = p.iter().map(|x| x.to_string().parse().unwrap()).collect();
            let time = images(&sch, &pvals, &inst, -3 * hi.abs() - 3, 3 * hi.abs() + 3);
            assert_eq!(
                time.len(),
                1,
                "schedule of {stmt}{inst:?} must be a function inside the search box"
            );
            let me = point_text(&stmt, &inst);
            for (kind, list) in [(0u8, &reads), (1, &writes), (2, &kills)] {
                for a in list {
                    let arr = name_of(a, true);
                    for e in images(a, &pvals, &inst, lo - 3, hi + 3) {
                        events.push((time[0].clone(), kind, me.clone(), arr.clone(), e));
                    }
                }
            }
        }
    }
    // Reads of an instance happen before its writes; kinds sort reads first.
    events.sort();
    let mut last: BTreeMap<(String, Vec<i64>), Option<String>> = BTreeMap::new();
    let mut deps = BTreeSet::new();
    let mut no_source = BTreeSet::new();
    for (_, kind, inst, arr, e) in &events {
        let key = (arr.clone(), e.clone());
        match kind {
            0 => match last.get(&key) {
                Some(Some(w)) => {
                    deps.insert(format!("{w} -> {inst}"));
                }
                Some(None) => {}
                None => {
                    no_source.insert(format!("{inst} -> {}", point_text(arr, e)));
                }
            },
            1 => {
                last.insert(key, Some(inst.clone()));
            }
            _ => {
                last.insert(key, None);
            }
        }
    }
    let info = AccessInfo::from_sink(sink)
        .with_must_source(must)
        .with_kill(kill)
        .with_schedule(sched);
    let f = compute_flow(&info).expect("compute_flow");
    let want_deps = union_text(&model.params, &deps.into_iter().collect::<Vec<_>>());
    let want_ns = union_text(&model.params, &no_source.into_iter().collect::<Vec<_>>());
    for (what, got, want) in [
        ("must_dependence", &f.must_dependence, &want_deps),
        ("may_dependence", &f.may_dependence, &want_deps),
        ("must_no_source", &f.must_no_source, &want_ns),
        ("may_no_source", &f.may_no_source, &want_ns),
    ] {
        let got = fix_params(got, &model.params);
        let ok =
            (got.is_empty().unwrap() && want.is_empty().unwrap()) || got.is_equal(want).unwrap();
        assert!(
            ok,
            "{what} at {:?}:\n got  {got}\n want {want}",
            model.params
        );
    }
}

fn st(domain: &str, schedule: &str, reads: &[&str], writes: &[&str], kills: &[&str]) -> Stmt {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
    Stmt {
        domain: domain.into(),
        schedule: schedule.into(),
        reads: v(reads),
        writes: v(writes),
        kills: v(kills),
    }
}

#[test]
fn stencil_and_scalar_models() {
    for n in [0, 1, 3, 4] {
        // jacobi-like: two statements, shifted reads
        run(
            &Model {
                params: vec![("n", n)],
                stmts: vec![
                    st(
                        "{ S0[t, i] : 0 <= t < 2 and 0 < i < n - 1 }",
                        "{ S0[t, i] -> [t, 0, i] }",
                        &["{ S0[t, i] -> A[i - 1] }", "{ S0[t, i] -> A[i + 1] }"],
                        &["{ S0[t, i] -> B[i] }"],
                        &[],
                    ),
                    st(
                        "{ S1[t, i] : 0 <= t < 2 and 0 < i < n - 1 }",
                        "{ S1[t, i] -> [t, 1, i] }",
                        &["{ S1[t, i] -> B[i] }"],
                        &["{ S1[t, i] -> A[i] }"],
                        &[],
                    ),
                ],
            },
            -1,
            5,
        );
        // scalar reduction with an initialisation and a kill
        run(
            &Model {
                params: vec![("n", n)],
                stmts: vec![
                    st(
                        "{ I[i] : 0 <= i < 3 and i != 1 }",
                        "{ I[i] -> [i, 0, 0] }",
                        &[],
                        &["{ I[i] -> c[] }"],
                        &[],
                    ),
                    st(
                        "{ S[i, k] : 0 <= i < 3 and 0 <= k < n }",
                        "{ S[i, k] -> [i, 1, k] }",
                        &["{ S[i, k] -> c[] }", "{ S[i, k] -> X[k] }"],
                        &["{ S[i, k] -> c[] }"],
                        &[],
                    ),
                    st(
                        "{ K[i] : 0 <= i < 3 }",
                        "{ K[i] -> [i, 2, 0] }",
                        &[],
                        &[],
                        &["{ K[i] -> c[] }"],
                    ),
                    st(
                        "{ F[i] : 0 <= i < 3 }",
                        "{ F[i] -> [i, 3, 0] }",
                        &["{ F[i] -> c[] }"],
                        &[],
                        &[],
                    ),
                ],
            },
            -1,
            4,
        );
        // strided writes, reads of every element
        run(
            &Model {
                params: vec![("n", n + 2)],
                stmts: vec![
                    st(
                        "{ W[i] : 0 <= i < n and i mod 2 = 0 }",
                        "{ W[i] -> [0, i] }",
                        &[],
                        &["{ W[i] -> A[i] }"],
                        &[],
                    ),
                    st(
                        "{ V[i] : 0 <= i < n and i mod 3 = 0 }",
                        "{ V[i] -> [1, i] }",
                        &[],
                        &["{ V[i] -> A[i + 1] }"],
                        &[],
                    ),
                    st(
                        "{ R[i] : 0 <= i < n }",
                        "{ R[i] -> [2, n - i] }",
                        &["{ R[i] -> A[i] }"],
                        &[],
                        &[],
                    ),
                ],
            },
            -1,
            7,
        );
    }
}

/// A tiny deterministic generator (no external crates).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn random_loop_nests() {
    let mut rng = Lcg(12345);
    for case in 0..25 {
        let nst = 1 + rng.next(3) as usize;
        let mut stmts = Vec::new();
        let outer_shared = rng.next(2) == 0;
        for s in 0..nst {
            let two = rng.next(2) == 0;
            let name = format!("S{s}");
            // Strides are left out here: see the report on divisions in the engine.
            let stride = "";
            let (dom, sch, vars) = if two {
                let sch = if outer_shared {
                    format!("[i, {s}, j]")
                } else {
                    format!("[{s}, i, j]")
                };
                (
                    format!("{{ {name}[i, j] : 0 <= i < n and 0 <= j < 3{stride} }}"),
                    format!("{{ {name}[i, j] -> {sch} }}"),
                    "i, j",
                )
            } else {
                let sch = if outer_shared {
                    format!("[i, {s}, 0]")
                } else {
                    format!("[{s}, i, 0]")
                };
                (
                    format!("{{ {name}[i] : 0 <= i < n{stride} }}"),
                    format!("{{ {name}[i] -> {sch} }}"),
                    "i",
                )
            };
            let idx = |rng: &mut Lcg| -> String {
                match rng.next(5) {
                    0 => "c[]".to_string(),
                    1 => format!("A[i + {}]", rng.next(3) as i64 - 1),
                    2 if two => "A[j]".to_string(),
                    3 if two => "A[i + j]".to_string(),
                    _ => format!("A[{}]", rng.next(3)),
                }
            };
            let acc = |rng: &mut Lcg| format!("{{ {name}[{vars}] -> {} }}", idx(rng));
            let reads: Vec<String> = (0..1 + rng.next(2)).map(|_| acc(&mut rng)).collect();
            let writes: Vec<String> = (0..rng.next(2) + u64::from(s == 0))
                .map(|_| acc(&mut rng))
                .collect();
            let kills: Vec<String> = if writes.is_empty() && rng.next(2) == 0 {
                vec![acc(&mut rng)]
            } else {
                vec![]
            };
            stmts.push(Stmt {
                domain: dom,
                schedule: sch,
                reads,
                writes,
                kills,
            });
        }
        let n = 1 + rng.next(3) as i64;
        let model = Model {
            params: vec![("n", n)],
            stmts,
        };
        let desc: Vec<String> = model
            .stmts
            .iter()
            .map(|s| {
                format!(
                    "{} {} R{:?} W{:?} K{:?}",
                    s.domain, s.schedule, s.reads, s.writes, s.kills
                )
            })
            .collect();
        println!("case {case}: n = {n}\n  {}", desc.join("\n  "));
        run(&model, -1, 4);
    }
}
