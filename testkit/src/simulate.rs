//! A trace simulator: the dataflow oracle of `dataflow/tests/simulate.rs`.
//!
//! For fixed parameter values, enumerate the instances of every statement of
//! a small [`Program`] inside a box, execute them in schedule order (reads of
//! an instance before its writes and kills), and record the last writer of
//! every array element. The result ([`Trace`]) holds the dataflow question
//! (sinks, must-sources, kills, schedule, as the analysis takes them) and
//! its answer by simulation: the dependences `writer -> reader` and the
//! reads with no writer before them, both at the fixed parameters.
//!
//! Programs must have injective schedules and must-writes only (and kills),
//! so the last writer is unique and may and must answers coincide.
//! Membership is decided by the brute-force [`crate::oracle`], so no
//! engine operation other than parsing and intersection is trusted.

use std::collections::{BTreeMap, BTreeSet};

use presburger::{Int, Map, UnionMap};

use crate::oracle::{box_points, contains};

/// One statement: its domain, schedule, reads, writes and kills (isl text
/// without the parameter prefix, one map each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Iteration domain, e.g. `{ S[i] : 0 <= i < n }`.
    pub domain: String,
    /// Schedule, e.g. `{ S[i] -> [0, i] }`.
    pub schedule: String,
    /// Read accesses, e.g. `{ S[i] -> A[i - 1] }`.
    pub reads: Vec<String>,
    /// Must-write accesses.
    pub writes: Vec<String>,
    /// Kills.
    pub kills: Vec<String>,
}

impl Statement {
    /// A statement from its parts.
    pub fn new(
        domain: &str,
        schedule: &str,
        reads: &[&str],
        writes: &[&str],
        kills: &[&str],
    ) -> Statement {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        Statement {
            domain: domain.into(),
            schedule: schedule.into(),
            reads: v(reads),
            writes: v(writes),
            kills: v(kills),
        }
    }
}

/// A program: parameter values and statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Parameter names and the values the simulation fixes them to.
    pub params: Vec<(String, i64)>,
    /// The statements.
    pub statements: Vec<Statement>,
}

/// The dataflow question of a program and its answer by simulation.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Reads (sinks), over the symbolic parameters.
    pub sink: UnionMap,
    /// Writes (must-sources).
    pub must_source: UnionMap,
    /// Kills.
    pub kill: UnionMap,
    /// The schedule.
    pub schedule: UnionMap,
    /// Simulated dependences `writer instance -> reader instance`, at the
    /// fixed parameter values.
    pub dependences: UnionMap,
    /// Simulated reads with no writer before them, `reader -> element`, at
    /// the fixed parameter values.
    pub no_source: UnionMap,
}

fn parse(s: &str) -> Map {
    s.parse().unwrap_or_else(|e| panic!("parse {s}: {e}"))
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

fn machine(v: &[Int]) -> Vec<i64> {
    v.iter()
        .map(|x| x.to_string().parse::<i64>().expect("a small integer"))
        .collect()
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
            out.push(machine(&p));
        }
    }
    out
}

/// The union of `parts` (isl text without braces) with every parameter
/// fixed to its value.
fn union_text(params: &[(String, i64)], parts: &[String]) -> UnionMap {
    let names: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
    let cond: Vec<String> = params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let body: Vec<String> = parts
        .iter()
        .map(|p| format!("{p} : {}", cond.join(" and ")))
        .collect();
    let text = format!("[{}] -> {{ {} }}", names.join(", "), body.join("; "));
    text.parse()
        .unwrap_or_else(|e| panic!("simulated relation {text}: {e}"))
}

/// `u` with every parameter of `params` fixed to its value (to compare an
/// analysis over symbolic parameters with a [`Trace`]).
pub fn fix_params(u: &UnionMap, params: &[(String, i64)]) -> UnionMap {
    let names: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
    let cond: Vec<String> = params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let ctx: Map = parse(&format!(
        "[{}] -> {{ : {} }}",
        names.join(", "),
        cond.join(" and ")
    ));
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        out.add_map(m.intersect_params(&ctx).expect("same parameters"))
            .expect("same space");
    }
    out
}

/// An access event: time, kind (0 read, 1 write, 2 kill: reads of an
/// instance sort before its writes), instance, array, element.
type Event = (Vec<i64>, u8, String, String, Vec<i64>);

/// Simulate `program` with instance coordinates in `lo..=hi`.
///
/// # Panics
/// On text that does not parse, and when a schedule does not map an
/// instance to exactly one time inside its search box (the simulator needs
/// a function).
pub fn simulate(program: &Program, lo: i64, hi: i64) -> Trace {
    let pnames: Vec<&str> = program.params.iter().map(|p| p.0.as_str()).collect();
    let pvals: Vec<i64> = program.params.iter().map(|p| p.1).collect();
    let pre = format!("[{}] -> ", pnames.join(", "));
    let mut sink = UnionMap::empty(Vec::new());
    let mut must = UnionMap::empty(Vec::new());
    let mut kill = UnionMap::empty(Vec::new());
    let mut sched = UnionMap::empty(Vec::new());
    let mut events: Vec<Event> = Vec::new();
    for s in &program.statements {
        let dom = parse(&format!("{pre}{}", s.domain));
        let sch = parse(&format!("{pre}{}", s.schedule));
        sched.add_map(sch.clone()).expect("schedule space");
        let stmt = name_of(&dom, true);
        let accs = |v: &Vec<String>| -> Vec<Map> {
            v.iter()
                .map(|a| {
                    parse(&format!("{pre}{a}"))
                        .intersect_domain(&dom)
                        .expect("access of the statement")
                })
                .collect()
        };
        let (reads, writes, kills) = (accs(&s.reads), accs(&s.writes), accs(&s.kills));
        for r in &reads {
            sink.add_map(r.clone()).expect("read space");
        }
        for w in &writes {
            must.add_map(w.clone()).expect("write space");
        }
        for k in &kills {
            kill.add_map(k.clone()).expect("kill space");
        }
        for p in box_points(dom.space().n_out(), lo, hi) {
            let mut pt = ints(&pvals);
            pt.extend(p.iter().cloned());
            if !contains(&dom, &pt) {
                continue;
            }
            let inst = machine(&p);
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
    let deps: Vec<String> = deps.into_iter().collect();
    let no_source: Vec<String> = no_source.into_iter().collect();
    Trace {
        sink,
        must_source: must,
        kill,
        schedule: sched,
        dependences: union_text(&program.params, &deps),
        no_source: union_text(&program.params, &no_source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(a: &UnionMap, want: &str) -> bool {
        crate::ops::same(a, want).unwrap()
    }

    #[test]
    fn a_write_then_reads_with_a_kill_between() {
        let p = Program {
            params: vec![("n".into(), 2)],
            statements: vec![
                Statement::new(
                    "{ W[i] : 0 <= i < n }",
                    "{ W[i] -> [0, i] }",
                    &[],
                    &["{ W[i] -> A[i] }"],
                    &[],
                ),
                Statement::new(
                    "{ K[] }",
                    "{ K[] -> [1, 0] }",
                    &[],
                    &[],
                    &["{ K[] -> A[1] }"],
                ),
                Statement::new(
                    "{ R[i] : 0 <= i <= n }",
                    "{ R[i] -> [2, i] }",
                    &["{ R[i] -> A[i] }"],
                    &[],
                    &[],
                ),
            ],
        };
        let t = simulate(&p, -1, 3);
        assert!(
            eq(&t.dependences, "[n] -> { W[0] -> R[0] : n = 2 }"),
            "{}",
            t.dependences
        );
        assert!(
            eq(&t.no_source, "[n] -> { R[2] -> A[2] : n = 2 }"),
            "{}",
            t.no_source
        );
        assert_eq!(t.sink.maps().len(), 1);
        assert_eq!(t.kill.maps().len(), 1);
        let fixed = fix_params(&t.sink, &p.params);
        assert!(
            eq(&fixed, "[n] -> { R[i] -> A[i] : n = 2 and 0 <= i <= 2 }"),
            "{fixed}"
        );
    }
}
