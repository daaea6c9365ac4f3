//! The dependences live at a node of the tree (not yet separated by an outer
//! node), with the state of conditional validity, and small exact helpers.

use crate::deps::Dep;
use crate::error::Result;
use crate::farkas::System;
use presburger::{BasicMap, Int, Map, Space, Tuple};
use std::rc::Rc;

/// A conditional-validity or condition piece with the index of its original piece.
#[derive(Debug, Clone)]
pub(crate) struct Tagged {
    pub dep: Dep,
    pub id: usize,
}

/// The live dependences at a node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Live {
    /// Validity, including conditional validity that must be respected here.
    pub val: Vec<Dep>,
    pub coin: Vec<Dep>,
    pub prox: Vec<Dep>,
    /// Conditional validity that may still be violated (all adjacent conditions local so far).
    pub cv: Vec<Tagged>,
    /// Live condition pieces.
    pub cond: Vec<Tagged>,
    /// Per condition id: separated by an outer node (not local any more).
    pub sep: Vec<bool>,
    /// Per conditional validity id: the adjacent condition ids.
    pub adj: Rc<Vec<Vec<usize>>>,
}

fn tag_match(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// Adjacency of conditional validity and condition pieces, per statement pair and
/// tag (coarser than per instance, as isl: a superset of the exact adjacency).
pub(crate) fn adjacency(cv: &[Dep], cond: &[Dep]) -> Vec<Vec<usize>> {
    cv.iter()
        .map(|c| {
            cond.iter()
                .enumerate()
                .filter(|(_, k)| {
                    (k.dst == c.src && tag_match(&k.tags.1, &c.tags.0))
                        || (c.dst == k.src && tag_match(&c.tags.1, &k.tags.0))
                })
                .map(|(i, _)| i)
                .collect()
        })
        .collect()
}

impl Live {
    /// The dependences between statements of `keep` (a child of a sequence);
    /// conditions leaving `keep` are separated by the sequence.
    pub fn restrict(&self, keep: &[usize]) -> Live {
        let inside = |d: &Dep| keep.contains(&d.src) && keep.contains(&d.dst);
        let f = |v: &Vec<Dep>| v.iter().filter(|d| inside(d)).cloned().collect();
        let mut sep = self.sep.clone();
        for c in &self.cond {
            if !inside(&c.dep) {
                sep[c.id] = true;
            }
        }
        let mut out = Live {
            val: f(&self.val),
            coin: f(&self.coin),
            prox: f(&self.prox),
            cv: self.cv.iter().filter(|c| inside(&c.dep)).cloned().collect(),
            cond: self
                .cond
                .iter()
                .filter(|c| inside(&c.dep))
                .cloned()
                .collect(),
            sep,
            adj: self.adj.clone(),
        };
        out.force_adjacent();
        out
    }

    /// Move the conditional validity adjacent to a separated condition into validity.
    pub fn force_adjacent(&mut self) {
        let (adj, sep) = (self.adj.clone(), self.sep.clone());
        let (forced, free): (Vec<Tagged>, Vec<Tagged>) = self
            .cv
            .drain(..)
            .partition(|c| adj[c.id].iter().any(|&k| sep[k]));
        self.cv = free;
        self.val.extend(forced.into_iter().map(|c| c.dep));
    }

    /// Respect every conditional validity dependence from here on.
    pub fn force_all(&mut self) {
        self.val.extend(self.cv.drain(..).map(|c| c.dep));
    }

    /// The edges that order statements: validity and the free conditional validity.
    pub fn graph(&self) -> Vec<Dep> {
        let mut g = self.val.clone();
        g.extend(self.cv.iter().map(|c| c.dep.clone()));
        g
    }

    /// Force the conditional validity piece at position `k` of `cv`.
    pub fn force(&mut self, k: usize) -> Dep {
        let c = self.cv.remove(k);
        self.val.push(c.dep.clone());
        c.dep
    }
}

/// True if the distance row takes a negative value on the piece.
pub(crate) fn negative(piece: &BasicMap, r: &[Int]) -> Result<bool> {
    let mut b = piece.clone();
    let mut q: Vec<Int> = r.iter().map(|x| -x.clone()).collect();
    q[0] = &q[0] - &Int::ONE;
    b.add_ineq(q);
    Ok(!Map::from_basic(b).is_empty()?)
}

/// True if the distance row takes a non-zero value on the piece.
pub(crate) fn nonzero(piece: &BasicMap, r: &[Int]) -> Result<bool> {
    for sign in [1i64, -1] {
        let mut b = piece.clone();
        let mut q: Vec<Int> = r.iter().map(|x| x * &Int::from(sign)).collect();
        q[0] = &q[0] - &Int::ONE;
        b.add_ineq(q);
        if !Map::from_basic(b).is_empty()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Exact integer lexmin of `{ v : sys }` (all variables non-negative by the caller).
pub(crate) fn lexmin(nv: usize, sys: System) -> Result<Option<Vec<Int>>> {
    let space = Space::set(Vec::<String>::new(), Tuple::anonymous(nv));
    let mut b = BasicMap::universe(space);
    // duplicates and dominated rows cost the solver without changing the set
    let mut eqs = sys.eqs;
    eqs.sort_unstable();
    eqs.dedup();
    for r in eqs {
        b.add_eq(r);
    }
    for r in crate::farkas::prune(sys.ineqs) {
        b.add_ineq(r);
    }
    if b.is_obviously_empty() {
        return Ok(None);
    }
    let m = Map::from_basic(b).lexmin()?;
    let Some(first) = m.basic_maps().first() else {
        return Ok(None);
    };
    Ok(first.sample()?)
}

/// Strongly connected components of the validity graph, in a topological order.
pub(crate) fn sccs(stmts: &[usize], val: &[Dep]) -> Vec<Vec<usize>> {
    let edges: Vec<(usize, usize)> = val.iter().map(|d| (d.src, d.dst)).collect();
    sccs_of_edges(stmts, &edges)
}

/// [`sccs`] of the graph with the edges `src -> dst`.
pub(crate) fn sccs_of_edges(stmts: &[usize], edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let n = stmts.len();
    let idx = |s: usize| stmts.iter().position(|&t| t == s).expect("statement");
    let mut adj = vec![vec![false; n]; n];
    for &(src, dst) in edges {
        adj[idx(src)][idx(dst)] = true;
    }
    // reachability (small graphs): Floyd–Warshall closure
    let mut reach = adj.clone();
    for (k, _) in stmts.iter().enumerate() {
        for i in 0..n {
            if reach[i][k] {
                for j in 0..n {
                    if reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
    }
    let mut comp_of = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        if comp_of[i] != usize::MAX {
            continue;
        }
        let c = comps.len();
        let mut members = vec![];
        for j in i..n {
            if j == i || (reach[i][j] && reach[j][i]) {
                comp_of[j] = c;
                members.push(j);
            }
        }
        comps.push(members);
    }
    // topological order of the condensation (Kahn, smallest index first: deterministic)
    let nc = comps.len();
    let mut indeg = vec![0; nc];
    let mut cadj = vec![vec![false; nc]; nc];
    for i in 0..n {
        for j in 0..n {
            if adj[i][j] && comp_of[i] != comp_of[j] && !cadj[comp_of[i]][comp_of[j]] {
                cadj[comp_of[i]][comp_of[j]] = true;
                indeg[comp_of[j]] += 1;
            }
        }
    }
    let mut order = Vec::new();
    let mut done = vec![false; nc];
    while order.len() < nc {
        let c = (0..nc)
            .find(|&c| !done[c] && indeg[c] == 0)
            .expect("condensation is acyclic");
        done[c] = true;
        order.push(c);
        for j in 0..nc {
            if cadj[c][j] {
                indeg[j] -= 1;
            }
        }
    }
    order
        .into_iter()
        .map(|c| comps[c].iter().map(|&i| stmts[i]).collect())
        .collect()
}

/// True if every pair of the piece is `x -> x` (a self pair: no ordering needed).
/// An engine error (the budget) is passed on, never taken for an answer.
pub(crate) fn is_identity_only(p: &BasicMap, d: usize) -> Result<bool> {
    // some k with y_k != x_k ?
    for k in 0..d {
        for sign in [1i64, -1] {
            let mut r = vec![Int::ZERO; p.row_len()];
            r[p.off_out() + k] = Int::from(sign);
            r[p.off_in() + k] = Int::from(-sign);
            r[0] = -Int::ONE;
            let mut t = p.clone();
            t.add_ineq(r);
            if !Map::from_basic(t).is_empty()? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The pieces that order something: self pairs `x -> x` dropped.
pub(crate) fn drop_identities(v: Vec<Dep>, dims: &[usize]) -> Result<Vec<Dep>> {
    let mut out = Vec::with_capacity(v.len());
    for d in v {
        if !(d.src == d.dst && is_identity_only(&d.piece, dims[d.src])?) {
            out.push(d);
        }
    }
    Ok(out)
}
