//! The brute-force oracle: a schedule checked point by point at fixed
//! parameter values, independently of how it was computed.
//!
//! Instances are enumerated in a box `[-bound, bound]` per dimension (with
//! emptiness pruning); the time of an instance is read off the tree. A
//! schedule is valid iff every validity pair `x -> y` (`x != y`) has
//! `time(x) <lex time(y)` strictly; a band marked permutable has
//! non-negative distances in every member for the validity pairs that reach
//! it unseparated, and a member marked coincident has zero distance for such
//! coincidence pairs.

use crate::accesses::Accesses;
use crate::constraints::ScheduleConstraints;
use crate::error::{Error, Result};
use crate::tree::{Node, Schedule};
use presburger::{Int, Map, UnionMap};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Integer points of `m` with the parameters fixed to `params` (all
/// variables within `[-bound, bound]`): the values of the non-parameter variables.
pub fn points(m: &Map, params: &[i64], bound: i64) -> Result<Vec<Vec<i64>>> {
    points_from(m, params, &[], bound)
}

/// [`points`] whose first variables are fixed to `prefix`.
fn points_from(m: &Map, params: &[i64], prefix: &[i64], bound: i64) -> Result<Vec<Vec<i64>>> {
    let np = params.len();
    let mut fixed = m.clone();
    for (k, &v) in params.iter().chain(prefix).enumerate() {
        fixed = fixed.fix_var(k, &Int::from(v));
    }
    let n = m.space().n_in() + m.space().n_out();
    let mut out = Vec::new();
    let mut cur = prefix.to_vec();
    rec(&fixed, np, n, bound, &mut cur, &mut out)?;
    Ok(out)
}

fn rec(
    m: &Map,
    np: usize,
    n: usize,
    bound: i64,
    cur: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
) -> Result<()> {
    // each node of the enumeration (a fixed copy and an emptiness test, which
    // the cheap tests often decide without charging) is work of the budget
    presburger::budget::tick(1 + m.basic_maps().len() as u64)?;
    if m.is_empty()? {
        return Ok(());
    }
    if cur.len() == n {
        out.push(cur.clone());
        return Ok(());
    }
    for v in -bound..=bound {
        let f = m.fix_var(np + cur.len(), &Int::from(v));
        cur.push(v);
        rec(&f, np, n, bound, cur, out)?;
        cur.pop();
    }
    Ok(())
}

fn eval_div(row: &[Int], div: &Int, params: &[i64], x: &[i64]) -> Int {
    let mut v = row[0].clone();
    for (k, p) in params.iter().chain(x).enumerate() {
        v.add_mul(&row[1 + k], &Int::from(*p));
    }
    v.div_floor(div)
}

/// The time vector of instance `x` of statement `s` (exact).
pub fn time(sched: &Schedule, s: usize, params: &[i64], x: &[i64]) -> Vec<Int> {
    sched
        .time_rows(s)
        .iter()
        .map(|(r, d)| eval_div(r, d, params, x))
        .collect()
}

fn lex(a: &[Int], b: &[Int]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

fn stmt_of(sched: &Schedule, m: &Map) -> Option<(usize, usize)> {
    let sp = m.space();
    let dt = sp.domain.as_ref()?;
    let f = |t: &presburger::Tuple| {
        let base = match &t.kind {
            presburger::TupleKind::Nested(a, _) => a.as_ref().clone(),
            _ => t.clone(),
        };
        sched
            .statements
            .iter()
            .position(|s| s.range.name == base.name && s.range.dim() == base.dim())
    };
    Some((f(dt)?, f(&sp.range)?))
}

/// The pairs of a relation at fixed parameters: (src stmt, x, dst stmt, y), tags dropped.
pub fn pairs(
    sched: &Schedule,
    rel: &UnionMap,
    params: &[i64],
    bound: i64,
) -> Result<Vec<(usize, Vec<i64>, usize, Vec<i64>)>> {
    let mut out = Vec::new();
    for m in rel.maps() {
        let Some((s, t)) = stmt_of(sched, m) else {
            return Err(Error::Invalid(
                "a relation between unknown statements".into(),
            ));
        };
        let sp = m.space();
        let n_in = sp.n_in();
        let (ds, dt) = (
            sched.statements[s].range.dim(),
            sched.statements[t].range.dim(),
        );
        for p in points(m, params, bound)? {
            out.push((s, p[..ds].to_vec(), t, p[n_in..n_in + dt].to_vec()));
        }
    }
    Ok(out)
}

/// Bands with the depth of their first member along the path.
fn bands<'a>(n: &'a Node, depth: usize, out: &mut Vec<(&'a crate::tree::Band, usize)>) {
    match n {
        Node::Leaf => {}
        Node::Band(b) => {
            out.push((b, depth));
            bands(&b.child, depth + b.members.len(), out);
        }
        Node::Sequence(fs) | Node::Set(fs) => {
            for f in fs {
                bands(&f.child, depth + 1, out);
            }
        }
    }
}

/// True when the parameter values lie in the context (always without one).
/// A schedule is valid when it respects the dependences at every parameter
/// value of the context, negative ones included; outside the context the
/// program does not run and the checks below hold vacuously.
fn in_context(context: Option<&Map>, params: &[i64]) -> Result<bool> {
    match context {
        Some(c) => {
            let p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
            Ok(c.contains_point(&p)?)
        }
        None => Ok(true),
    }
}

/// Check validity, permutable and coincident flags, and coverage of a schedule
/// at the parameter values (vacuous outside the context); `Err(Invalid)`
/// describes the first problem found.
pub fn verify(
    sc: &ScheduleConstraints,
    sched: &Schedule,
    params: &[i64],
    bound: i64,
) -> Result<()> {
    if !in_context(sc.context.as_ref(), params)? {
        return Ok(());
    }
    let bad = |s: String| Err(Error::Invalid(s));
    // coverage: every statement of the domain is in the schedule
    if sched.statements.len() != sc.domain.maps().len() {
        return bad("the schedule does not cover the domain".into());
    }
    let val = pairs(sched, &sc.validity, params, bound)?;
    let coin = pairs(sched, &sc.coincidence, params, bound)?;
    let t = |s: usize, x: &[i64]| time(sched, s, params, x);
    let in_dom = |s: usize, x: &[i64]| -> Result<bool> {
        let mut p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
        p.extend(x.iter().map(|&v| Int::from(v)));
        Ok(sc.domain.maps()[s].contains_point(&p)?)
    };
    for (s, x, d, y) in &val {
        if s == d && x == y {
            continue;
        }
        if !in_dom(*s, x)? || !in_dom(*d, y)? {
            continue;
        }
        if lex(&t(*s, x), &t(*d, y)) != Ordering::Less {
            return bad(format!(
                "validity {x:?} -> {y:?} (statements {s} -> {d}) not respected"
            ));
        }
    }
    let mut bs = Vec::new();
    bands(&sched.root, 0, &mut bs);
    for (b, depth) in bs {
        let live = |s: usize, x: &[i64], d: usize, y: &[i64]| {
            b.statements.contains(&s) && b.statements.contains(&d) && {
                let (a, c) = (t(s, x), t(d, y));
                a.len() > depth && c.len() > depth && a[..depth] == c[..depth]
            }
        };
        let member = |s: usize, j: usize, x: &[i64]| {
            let k = b
                .statements
                .iter()
                .position(|&u| u == s)
                .expect("statement in band");
            eval_div(&b.members[j][k], &b.divisors[j], params, x)
        };
        for (s, x, d, y) in &val {
            if (s == d && x == y) || !in_dom(*s, x)? || !in_dom(*d, y)? || !live(*s, x, *d, y) {
                continue;
            }
            for j in 0..b.members.len() {
                if b.permutable && member(*d, j, y) < member(*s, j, x) {
                    return bad(format!(
                        "band marked permutable, member {j} reverses {x:?} -> {y:?}"
                    ));
                }
            }
        }
        for (s, x, d, y) in &coin {
            if !in_dom(*s, x)? || !in_dom(*d, y)? || !live(*s, x, *d, y) {
                continue;
            }
            for j in 0..b.members.len() {
                if b.coincident[j] && member(*d, j, y) != member(*s, j, x) {
                    return bad(format!(
                        "member {j} marked coincident, distance non-zero on {x:?} -> {y:?}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// An instance: statement index and coordinates.
type Instance = (usize, Vec<i64>);

/// The statement of an instance tuple (looking through a reference tag).
fn stmt_of_tuple(sched: &Schedule, t: &presburger::Tuple) -> Result<usize> {
    let base = match &t.kind {
        presburger::TupleKind::Nested(a, _) => a.as_ref().clone(),
        _ => t.clone(),
    };
    sched
        .statements
        .iter()
        .position(|s| s.range.name == base.name && s.range.dim() == base.dim())
        .ok_or_else(|| {
            Error::Invalid(format!(
                "{}[..] is not a statement",
                base.name.clone().unwrap_or_default()
            ))
        })
}

/// The instances of every statement at fixed parameters.
fn instances(
    sched: &Schedule,
    domain: &UnionMap,
    params: &[i64],
    bound: i64,
) -> Result<BTreeMap<usize, Vec<Vec<i64>>>> {
    let mut out: BTreeMap<usize, Vec<Vec<i64>>> = BTreeMap::new();
    for m in domain.maps() {
        let s = stmt_of_tuple(sched, &m.space().range)?;
        out.entry(s).or_default().extend(points(m, params, bound)?);
    }
    Ok(out)
}

/// The images of every instance under the relations (instance -> something):
/// (instance, range tuple name, range point).
fn images(
    sched: &Schedule,
    insts: &BTreeMap<usize, Vec<Vec<i64>>>,
    rel: &UnionMap,
    params: &[i64],
    bound: i64,
) -> Result<Vec<(Instance, String, Vec<i64>)>> {
    let mut out = Vec::new();
    for m in rel.maps() {
        let sp = m.space();
        let Some(dt) = sp.domain.as_ref() else {
            return Err(Error::Invalid("an access relation is a set".into()));
        };
        let s = stmt_of_tuple(sched, dt)?;
        if sp.n_in() != sched.statements[s].range.dim() {
            return Err(Error::Invalid(
                "tagged accesses are not supported here".into(),
            ));
        }
        let name = sp.range.name.clone().unwrap_or_default();
        for x in insts.get(&s).map(Vec::as_slice).unwrap_or(&[]) {
            for p in points_from(m, params, x, bound)? {
                out.push(((s, x.clone()), name.clone(), p[x.len()..].to_vec()));
            }
        }
    }
    Ok(out)
}

/// What a run computes, as far as values go: the writer each read sees
/// (`None`: the value from before the program) and the last writer of every
/// element.
type Values = (
    BTreeMap<(Instance, String, Vec<i64>), Option<Instance>>,
    BTreeMap<(String, Vec<i64>), Instance>,
);

/// Run the accesses in the order of `time` (reads of an instance before its
/// writes; kills end a value); `Err` when two different instances share a
/// time and access an element that one of them writes.
fn run_values(
    events: &[(Instance, String, Vec<i64>, u8)],
    time: &dyn Fn(&Instance) -> Vec<Int>,
) -> Result<Values> {
    let mut order: Vec<(Vec<Int>, u8, usize)> = events
        .iter()
        .enumerate()
        .map(|(k, e)| (time(&e.0), e.3, k))
        .collect();
    order.sort();
    // Instances at the same time are unordered: they must not conflict.
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        for x in &order[start..end] {
            for y in &order[start..end] {
                let (a, b) = (&events[x.2], &events[y.2]);
                if a.0 != b.0 && a.1 == b.1 && a.2 == b.2 && (a.3 != 0 || b.3 != 0) {
                    return Err(Error::Invalid(format!(
                        "instances {:?} and {:?} share the time {:?} and both access {}{:?}",
                        a.0, b.0, x.0, a.1, a.2
                    )));
                }
            }
        }
        start = end;
    }
    let mut seen = BTreeMap::new();
    let mut last: BTreeMap<(String, Vec<i64>), Option<Instance>> = BTreeMap::new();
    for (_, kind, k) in order {
        let (inst, array, elem, _) = &events[k];
        let key = (array.clone(), elem.clone());
        match kind {
            0 => {
                let w = last.get(&key).cloned().flatten();
                seen.insert((inst.clone(), array.clone(), elem.clone()), w);
            }
            1 => {
                last.insert(key, Some(inst.clone()));
            }
            _ => {
                last.insert(key, None);
            }
        }
    }
    let finals = last
        .into_iter()
        .filter_map(|(k, w)| w.map(|w| (k, w)))
        .collect();
    Ok((seen, finals))
}

/// Check that `sched` computes the same values as the accesses' original
/// schedule at the parameter values: running every access in the new order,
/// each read sees the same write (or the same value from before the program)
/// and every element is left holding the same write's value (killed elements
/// excepted). Instances and elements are enumerated within `[-bound, bound]`;
/// may-writes count as writes. This is the meaning of a schedule found with
/// live-range reordering, checked without the dependences. Vacuous at
/// parameter values outside the accesses' context (where the program does
/// not run, e.g. a negative array extent); without a context every value,
/// negative ones included, is checked.
pub fn verify_values(sched: &Schedule, acc: &Accesses, params: &[i64], bound: i64) -> Result<()> {
    if !in_context(acc.context.as_ref(), params)? {
        return Ok(());
    }
    let insts = instances(sched, &acc.domain, params, bound)?;
    let mut events = Vec::new();
    for (rel, kind) in [
        (&acc.reads, 0u8),
        (&acc.must_writes, 1),
        (&acc.may_writes, 1),
        (&acc.kills, 2),
    ] {
        for (i, a, e) in images(sched, &insts, rel, params, bound)? {
            events.push((i, a, e, kind));
        }
    }
    let mut original: BTreeMap<Instance, Vec<i64>> = BTreeMap::new();
    for (i, _, t) in images(sched, &insts, &acc.schedule, params, bound)? {
        original.insert(i, t);
    }
    for e in &events {
        if !original.contains_key(&e.0) {
            return Err(Error::Invalid(format!(
                "instance {:?} has no original time within the bound",
                e.0
            )));
        }
    }
    let before = run_values(&events, &|i| {
        original[i].iter().map(|&v| Int::from(v)).collect()
    })?;
    let after = run_values(&events, &|(s, x)| time(sched, *s, params, x))?;
    for (k, w) in &before.0 {
        if after.0.get(k) != Some(w) {
            return Err(Error::Invalid(format!(
                "the read {:?} of {}{:?} sees {:?} instead of {w:?}",
                k.0,
                k.1,
                k.2,
                after.0.get(k).cloned().flatten()
            )));
        }
    }
    if before.1 != after.1 {
        let diff = before
            .1
            .iter()
            .find(|(k, w)| after.1.get(*k) != Some(*w))
            .map(|(k, w)| format!("{}{:?} ends with {w:?}", k.0, k.1))
            .unwrap_or_else(|| "an element is written only in one order".into());
        return Err(Error::Invalid(format!("final values differ: {diff}")));
    }
    Ok(())
}
