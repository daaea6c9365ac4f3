//! Counting the points of a bounded map: enumeration of the outer
//! dimensions, closed forms for independent groups of the inner ones.

use crate::basic::BasicMap;
use crate::budget;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::trace::traced;

impl Map {
    /// The number of points of a bounded map without parameters (or with all
    /// parameters fixed by the constraints). `Err` if it is unbounded.
    pub fn card(&self) -> Result<Int> {
        traced!("card", [self], {
            let m = self.remove_empty_parts()?;
            if m.parts.len() == 1 && m.parts[0].n_div() == 0 {
                return count_without_locals(&m.parts[0]);
            }
            let nv = m.space.n_vars();
            let mut count = Int::ZERO;
            let mut prefix = Vec::with_capacity(nv);
            count_rec(&m.parts, nv, &mut prefix, &mut count)?;
            Ok(count)
        })
    }
}

fn count_rec(parts: &[BasicMap], nv: usize, prefix: &mut Vec<Int>, count: &mut Int) -> Result<()> {
    budget::tick(1)?;
    let k = prefix.len();
    if k == nv {
        for p in parts {
            if !fix_prefix(p, prefix).into_is_empty()? {
                *count = &*count + &Int::ONE;
                return Ok(());
            }
        }
        return Ok(());
    }
    // bounds of variable k in each part (with the prefix fixed)
    let mut ranges: Vec<(Int, Int, usize)> = Vec::new();
    for (idx, p) in parts.iter().enumerate() {
        let fixed = fix_prefix(p, prefix);
        let mut t = fixed.rational_tableau()?;
        if t.is_empty() {
            continue;
        }
        let mut obj = vec![Int::ZERO; 1 + t.n_var()];
        obj[1 + k] = Int::ONE;
        let lo = t.clone().minimize(&obj)?;
        let hi = t.maximize(&obj)?;
        match (lo, hi) {
            (crate::simplex::Opt::Value(ln, ld), crate::simplex::Opt::Value(hn, hd)) => {
                ranges.push((ln.div_ceil(&ld), hn.div_floor(&hd), idx));
            }
            _ => return Err(Error::Invalid("card: the set is unbounded".into())),
        }
    }
    if ranges.is_empty() {
        return Ok(());
    }
    let lo = ranges.iter().map(|r| r.0.clone()).min().unwrap();
    let hi = ranges.iter().map(|r| r.1.clone()).max().unwrap();
    let mut v = lo;
    while v <= hi {
        let active: Vec<BasicMap> = ranges
            .iter()
            .filter(|r| r.0 <= v && v <= r.1)
            .map(|r| parts[r.2].clone())
            .collect();
        if !active.is_empty() {
            prefix.push(v.clone());
            count_rec(&active, nv, prefix, count)?;
            prefix.pop();
        }
        v = &v + &Int::ONE;
    }
    Ok(())
}

/// Count the points of a basic map without locals: variables split into
/// independent groups (no constraint links two groups), each group is
/// enumerated on all its variables but the last, whose integer values form
/// an interval counted in closed form; the counts multiply.
fn count_without_locals(b: &BasicMap) -> Result<Int> {
    let nv = b.space.n_vars();
    let rows: Vec<(bool, &[Int])> = b
        .eqs
        .iter()
        .map(|r| (true, r))
        .chain(b.ineqs.iter().map(|r| (false, r)))
        .collect();
    // union-find over variables
    let mut parent: Vec<usize> = (0..nv).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (_, r) in &rows {
        let vars: Vec<usize> = (0..nv).filter(|&k| !r[1 + k].is_zero()).collect();
        for w in vars.windows(2) {
            let (a, c) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
            parent[a] = c;
        }
    }
    let mut total = Int::ONE;
    let mut seen = vec![false; nv];
    for v in 0..nv {
        let root = find(&mut parent, v);
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let group: Vec<usize> = (0..nv).filter(|&k| find(&mut parent, k) == root).collect();
        let sub = |r: &[Int]| -> Vec<Int> {
            let mut out = vec![r[0].clone()];
            out.extend(group.iter().map(|&k| r[1 + k].clone()));
            out
        };
        let touches = |r: &[Int]| group.iter().any(|&k| !r[1 + k].is_zero());
        let eqs: Vec<Vec<Int>> = rows
            .iter()
            .filter(|(e, r)| *e && touches(r))
            .map(|(_, r)| sub(r))
            .collect();
        let ineqs: Vec<Vec<Int>> = rows
            .iter()
            .filter(|(e, r)| !*e && touches(r))
            .map(|(_, r)| sub(r))
            .collect();
        let mut prefix = Vec::new();
        let c = count_group(group.len(), &eqs, &ineqs, &mut prefix)?;
        total = &total * &c;
        if total.is_zero() {
            return Ok(total);
        }
    }
    // constant rows
    for (e, r) in &rows {
        if r[1..].iter().all(Int::is_zero) && ((*e && !r[0].is_zero()) || (!*e && r[0].is_neg())) {
            return Ok(Int::ZERO);
        }
    }
    Ok(total)
}

fn count_group(
    n: usize,
    eqs: &[Vec<Int>],
    ineqs: &[Vec<Int>],
    prefix: &mut Vec<Int>,
) -> Result<Int> {
    budget::tick(1 + n as u64)?;
    let k = prefix.len();
    let mut t = crate::simplex::Tableau::new(n);
    let fix = |row: &mut Vec<Int>, prefix: &[Int]| {
        for (j, v) in prefix.iter().enumerate() {
            let a = row[1 + j].clone();
            row[0].add_mul(&a, v);
            row[1 + j] = Int::ZERO;
        }
    };
    for e in eqs {
        let mut r = e.clone();
        fix(&mut r, prefix);
        t.add_eq(&r)?;
    }
    for e in ineqs {
        let mut r = e.clone();
        fix(&mut r, prefix);
        t.add_ineq(&r)?;
    }
    if t.is_empty() {
        return Ok(Int::ZERO);
    }
    let mut obj = vec![Int::ZERO; n + 1];
    obj[1 + k] = Int::ONE;
    let (lo, hi) = match (t.clone().minimize(&obj)?, t.maximize(&obj)?) {
        (crate::simplex::Opt::Value(ln, ld), crate::simplex::Opt::Value(hn, hd)) => {
            (ln.div_ceil(&ld), hn.div_floor(&hd))
        }
        _ => return Err(Error::Invalid("card: the set is unbounded".into())),
    };
    if lo > hi {
        return Ok(Int::ZERO);
    }
    if k + 1 == n {
        return Ok(&(&hi - &lo) + &Int::ONE);
    }
    let mut total = Int::ZERO;
    let mut v = lo;
    while v <= hi {
        prefix.push(v.clone());
        total = &total + &count_group(n, eqs, ineqs, prefix)?;
        prefix.pop();
        v = &v + &Int::ONE;
    }
    Ok(total)
}

fn fix_prefix(p: &BasicMap, prefix: &[Int]) -> BasicMap {
    let mut b = p.clone();
    for (k, v) in prefix.iter().enumerate() {
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1 + k] = Int::ONE;
        row[0] = -v;
        b.eqs.push(row);
    }
    b
}
