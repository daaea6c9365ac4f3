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

use crate::constraints::ScheduleConstraints;
use crate::error::{Error, Result};
use crate::tree::{Node, Schedule};
use presburger::{Int, Map, UnionMap};
use std::cmp::Ordering;

/// Integer points of `m` with the parameters fixed to `params` (all
/// variables within `[-bound, bound]`): the values of the non-parameter variables.
pub fn points(m: &Map, params: &[i64], bound: i64) -> Result<Vec<Vec<i64>>> {
    let np = params.len();
    let mut fixed = m.clone();
    for (k, &v) in params.iter().enumerate() {
        fixed = fixed.fix_var(k, &Int::from(v));
    }
    let n = m.space().n_in() + m.space().n_out();
    let mut out = Vec::new();
    let mut cur = Vec::new();
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

fn eval_div(row: &[Int], div: &Int, params: &[i64], x: &[i64]) -> i64 {
    let mut v = row[0].to_i64().unwrap_or(0);
    for (k, p) in params.iter().chain(x).enumerate() {
        v += row[1 + k].to_i64().unwrap_or(0) * p;
    }
    v.div_euclid(div.to_i64().unwrap_or(1))
}

/// The time vector of instance `x` of statement `s`.
pub fn time(sched: &Schedule, s: usize, params: &[i64], x: &[i64]) -> Vec<i64> {
    sched
        .time_rows(s)
        .iter()
        .map(|(r, d)| eval_div(r, d, params, x))
        .collect()
}

fn lex(a: &[i64], b: &[i64]) -> Ordering {
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

/// Check validity, permutable and coincident flags, and coverage of a schedule
/// at the parameter values; `Err(Invalid)` describes the first problem found.
pub fn verify(
    sc: &ScheduleConstraints,
    sched: &Schedule,
    params: &[i64],
    bound: i64,
) -> Result<()> {
    let ctx_ok = match &sc.context {
        Some(c) => {
            let p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
            c.contains_point(&p)?
        }
        None => true,
    };
    if !ctx_ok {
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
