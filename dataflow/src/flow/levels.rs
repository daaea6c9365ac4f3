//! The level-by-level algorithm behind [`compute_flow`](crate::compute_flow)
//! (Feautrier's, as in isl).
//!
//! Everything is done per sink access part `Ms: S[i] -> A[a]` (the unit is
//! the wrapped access `p = [S[i] -> A[a]]`) and per source part writing the
//! same array, on small relations `p -> x`:
//!
//! 1. `elem`: the source instances `x` accessing the element of `p`.
//! 2. For every common schedule level `l`, from the deepest to the shallowest,
//!    the candidates executed before the sink *at that level* (equal on the
//!    first `l` time dimensions, strictly smaller on dimension `l`). With
//!    affine schedules these constraints are written directly into `elem`
//!    (no composition); otherwise they come from `time(p) . (>_l) . sched^-1`.
//! 3. Per level, the latest must-source or kill `t_l(p)` among the
//!    candidates of the sinks not resolved at a deeper level (every
//!    candidate at a deeper level is later than any at a shallower one).
//!    The sinks with one are resolved and removed. When every source's
//!    schedule has each time dimension either constant in the instance or
//!    one instance coordinate plus a parametric constant ([`Sched::follows`],
//!    the usual `2d+1` form), no composition with the schedule is needed:
//!    - a source's last instance is a lexmax in its own instance space
//!      (coordinates reordered as the time dimensions from `l` follow them;
//!      nothing to do when the candidates are already a function);
//!    - sources whose times differ first on a constant dimension (their
//!      position in a common loop body) are ordered statically: each applies
//!      only where the later ones have no candidate;
//!    - otherwise a source's last instance is kept where no other source has
//!      a strictly later candidate (an affine order built from the rows);
//!      sources of different statements at the same time demote.
//!
//!    Other schedules take a parametric lexmax over the candidates' times.
//!    (Source, level) pairs that constant time dimensions rule out are
//!    skipped before any engine call, and each disjunct of a sink relation
//!    is its own sink part (the answer for an access depends on it alone).
//! 4. May-sources: a may-source at a deeper level than the level resolving
//!    `p` always runs after `t_l(p)`; at the same level it is compared with
//!    the last instance (strictly for one of the same statement, which is
//!    then that instance itself or later); at a shallower level it is
//!    before. Sinks never resolved take every may candidate.
//!
//! The final combination (must / may, no-source) is the one of the reference
//! formulation ([`super::reference`]), which this module must agree with.

use std::sync::Arc;

use super::{Flow, Timing, Trace};
use crate::access::AccessInfo;
use crate::error::Result;
use presburger::space::merge_params;
use presburger::{BasicMap, Int, Map, Space, Tuple, UnionMap};

/// The kind of a source access.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Must,
    Kill,
    May,
}

/// A source access part with its schedule.
struct Source<'a> {
    kind: Kind,
    access: &'a Map,
    sched: Sched,
}

/// The schedule of one statement (domain tuple): as a relation, its inverse,
/// and, when it is an affine function, the function's rows.
#[derive(Clone)]
struct Sched {
    map: Map,
    inv: Map,
    /// Per time dimension `k`, `t_k = row · (1, params, instance)`.
    affine: Option<Vec<Vec<Int>>>,
    /// Distinct instances always have distinct times (an affine function
    /// whose instance coefficients have full column rank).
    injective: bool,
    /// When every time dimension is either independent of the instance or
    /// one instance coordinate (coefficient 1) plus a parametric constant,
    /// and every coordinate appears: per dimension, that coordinate. The
    /// times of such a schedule compare as the coordinates in the order of
    /// their first appearance.
    follows: Option<Vec<Option<usize>>>,
}

impl Sched {
    fn new(map: Map) -> Result<Sched> {
        let affine = affine_rows(&map);
        let injective = affine.as_ref().is_some_and(|rows| {
            let (np, nd) = (map.space().n_param(), map.space().n_in());
            let m: Vec<Vec<Int>> = rows
                .iter()
                .map(|r| r[1 + np..1 + np + nd].to_vec())
                .collect();
            rank(m) == nd
        });
        let follows = affine.as_ref().and_then(|rows| {
            let (np, nd) = (map.space().n_param(), map.space().n_in());
            let mut seen = vec![false; nd];
            let mut out = Vec::new();
            for r in rows {
                let inst = &r[1 + np..1 + np + nd];
                let nz: Vec<usize> = (0..nd).filter(|&d| !inst[d].is_zero()).collect();
                match nz[..] {
                    [] => out.push(None),
                    [d] if inst[d].is_one() => {
                        seen[d] = true;
                        out.push(Some(d));
                    }
                    _ => return None,
                }
            }
            seen.iter().all(|&b| b).then_some(out)
        });
        let inv = map.reverse()?;
        Ok(Sched {
            map,
            inv,
            affine,
            injective,
            follows,
        })
    }
}

/// The rank of an integer matrix (fraction-free Gaussian elimination).
fn rank(mut m: Vec<Vec<Int>>) -> usize {
    let ncol = m.first().map_or(0, Vec::len);
    let mut r = 0;
    for c in 0..ncol {
        let Some(p) = (r..m.len()).find(|&i| !m[i][c].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        for i in r + 1..m.len() {
            if m[i][c].is_zero() {
                continue;
            }
            let (a, b) = (m[r][c].clone(), m[i][c].clone());
            let pivot = m[r].clone();
            for (x, y) in m[i].iter_mut().zip(&pivot).skip(c) {
                *x = &(&*x * &a) - &(y * &b);
            }
        }
        r += 1;
    }
    r
}

/// `a - b` for two affine time rows `[c | params | instance]` that do not
/// depend on the instance and have the same parameter coefficients (their
/// difference is then a known constant), `None` otherwise.
fn const_diff(a: &[Int], b: &[Int], np: usize) -> Option<Int> {
    let indep = |r: &[Int]| r[1 + np..].iter().all(Int::is_zero);
    (indep(a) && indep(b) && a[1..1 + np] == b[1..1 + np]).then(|| &a[0] - &b[0])
}

/// Whether two affine schedules' times can be in the order "`a` before `b`
/// at level `l`" (equal on the first `l` dimensions, smaller on dimension
/// `l`), judged on the dimensions that are constants in both: `false` means
/// never.
fn may_precede_at(a: &[Vec<Int>], b: &[Vec<Int>], l: usize, np: usize) -> bool {
    let prefix_ok = (0..l).all(|k| const_diff(&a[k], &b[k], np).is_none_or(|d| d.is_zero()));
    prefix_ok && const_diff(&b[l], &a[l], np).is_none_or(|d| d.is_pos())
}

/// The order of the times of two affine schedules on dimensions `l..`
/// decided by their first dimension where both are different constants
/// (`Greater`: `a` always later), `None` when a dimension depending on an
/// instance (or on different parameters) comes first.
fn static_cmp(a: &[Vec<Int>], b: &[Vec<Int>], l: usize, np: usize) -> Option<std::cmp::Ordering> {
    for k in l..a.len() {
        let d = const_diff(&a[k], &b[k], np)?;
        if !d.is_zero() {
            return Some(if d.is_pos() {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            });
        }
    }
    None
}

/// True if `m` is one disjunct without local variables whose range
/// coordinates are determined by equalities in terms of the domain and
/// parameters: it is single-valued, and its own lexmax.
fn is_function(m: &Map) -> bool {
    let [b] = m.basic_maps() else { return false };
    if b.n_div() != 0 {
        return false;
    }
    let (off, no) = (b.off_out(), b.n_out());
    let rows: Vec<Vec<Int>> = b.eqs().iter().map(|e| e[off..off + no].to_vec()).collect();
    rank(rows) == no
}

/// `m` with its columns renamed: column `k` of a row of `m` becomes column
/// `col[k]` of the result, whose space is `space`; `n_new` existentials are
/// added before `m`'s locals (the columns `col` may send variables there).
fn remap(m: &Map, space: Space, col: impl Fn(usize) -> usize, n_new: usize) -> Result<Map> {
    let mut out = Map::empty(space.clone());
    for b in m.basic_maps() {
        let mut r = BasicMap::universe(space.clone());
        for _ in 0..n_new {
            r.add_existential();
        }
        let move_row = |row: &[Int], len: usize| {
            let mut v = vec![Int::ZERO; len];
            for (k, x) in row.iter().enumerate() {
                if !x.is_zero() {
                    v[col(k)] = x.clone();
                }
            }
            v
        };
        let len = 1 + space.n_vars() + n_new + b.n_div();
        for d in b.divs() {
            match d {
                Some(d) => {
                    let mut num = move_row(&d.num, len);
                    num.truncate(r.row_len());
                    r.add_div(num, d.den.clone());
                }
                None => {
                    r.add_existential();
                }
            }
        }
        let had_divs = b.divs().iter().any(Option::is_some);
        b.eqs().iter().for_each(|e| r.add_eq(move_row(e, len)));
        b.ineqs().iter().for_each(|e| r.add_ineq(move_row(e, len)));
        if (n_new > 0 || had_divs) && !r.simplify() {
            continue;
        }
        out.add_basic(r)?;
    }
    Ok(out)
}

/// `m` (a relation) with its range coordinates reordered: coordinate `j`
/// of the result is coordinate `perm[j]` of `m`.
fn permute_range(m: &Map, perm: &[usize]) -> Result<Map> {
    let off = 1 + m.space().n_param() + m.space().n_in();
    let no = perm.len();
    let mut to = vec![0; no];
    for (j, &d) in perm.iter().enumerate() {
        to[d] = j;
    }
    remap(
        m,
        m.space().clone(),
        |k| {
            if k >= off && k < off + no {
                off + to[k - off]
            } else {
                k
            }
        },
        0,
    )
}

/// `{ x -> D[i] : [D[i] -> A[a]] -> x in m }` (the array coordinates are
/// projected out), built directly rather than by composition.
fn pairs_to_instances(m: &Map) -> Result<Map> {
    let sp = m.space();
    let wrapped = sp.domain.clone().expect("relation");
    let Some(inner) = sp.domain_space().unwrap() else {
        unreachable!("a wrapped sink access");
    };
    let (np, nd, na, nx) = (sp.n_param(), inner.n_in(), inner.n_out(), sp.n_out());
    debug_assert_eq!(wrapped.dim(), nd + na);
    let space = Space::map(
        sp.params.clone(),
        sp.range.clone(),
        inner.domain.clone().expect("relation"),
    );
    // Old [c | params | i | a | x | locals] to new [c | params | x | i | a (new locals) | locals].
    let col = |k: usize| {
        if k < 1 + np {
            k
        } else if k < 1 + np + nd + na {
            // i, then a (the first new locals): after x
            k + nx
        } else if k < 1 + np + nd + na + nx {
            k - nd - na
        } else {
            k
        }
    };
    remap(m, space, col, na)
}

/// True if every constraint of `b` (without locals) is syntactically one of
/// `a`'s (`a ⊆ b` then).
fn implies_syntactically(a: &BasicMap, b: &BasicMap) -> bool {
    if b.n_div() != 0 || a.n_div() != 0 || a.row_len() != b.row_len() {
        return false;
    }
    let neg = |r: &Vec<Int>| r.iter().map(|v| -v).collect::<Vec<Int>>();
    let has_eq = |r: &Vec<Int>| a.eqs().iter().any(|e| e == r || *e == neg(r));
    b.eqs().iter().all(has_eq) && b.ineqs().iter().all(|r| has_eq(r) || a.ineqs().contains(r))
}

/// `a \ b`, dropping first the disjuncts of `a` syntactically inside one of
/// `b` (common here: sinks all resolved at one level, all demoted).
fn difference(a: &Map, b: &Map) -> Result<Map> {
    let mut rest = Map::empty(a.space().clone());
    for p in a.basic_maps() {
        if !b.basic_maps().iter().any(|q| implies_syntactically(p, q)) {
            rest.add_basic(p.clone())?;
        }
    }
    if rest.basic_maps().is_empty() {
        return Ok(rest);
    }
    Ok(rest.subtract(b)?)
}

/// The sink accesses among `parts` (relations `p -> x` of one level, at the
/// latest time) with at least two sources: two source statements, or two
/// instances of one statement whose schedule is not injective.
fn several_sources(parts: &[(Map, bool)], params: &[String]) -> Result<UnionMap> {
    let mut out = UnionMap::empty(params.to_vec());
    for (i, (x, injective)) in parts.iter().enumerate() {
        if !injective {
            out.add_map(x.subtract(&x.lexmax()?)?.domain()?)?;
        }
        for (y, _) in &parts[i + 1..] {
            out.add_map(x.domain()?.intersect(&y.domain()?)?)?;
        }
    }
    Ok(out)
}

/// The rows of a schedule that is one basic relation made only of one
/// equality `t_k = f_k(instance)` per time dimension, or `None`.
fn affine_rows(m: &Map) -> Option<Vec<Vec<Int>>> {
    let [b] = m.basic_maps() else { return None };
    let n = b.n_out();
    if b.n_div() != 0 || !b.ineqs().is_empty() || b.eqs().len() != n {
        return None;
    }
    let off = b.off_out();
    let mut rows: Vec<Option<Vec<Int>>> = vec![None; n];
    for e in b.eqs() {
        let outs: Vec<usize> = (0..n).filter(|&k| !e[off + k].is_zero()).collect();
        let [k] = outs[..] else { return None };
        let c = &e[off + k];
        let row: Vec<Int> = if c.is_one() {
            e[..off].iter().map(|v| -v).collect()
        } else if (-c).is_one() {
            e[..off].to_vec()
        } else {
            return None;
        };
        if rows[k].replace(row).is_some() {
            return None;
        }
    }
    rows.into_iter().collect()
}

/// The schedule lookup of a normalised timing, all parameters aligned to `params`.
struct Schedules(Vec<(Arc<Tuple>, Sched)>);

impl Schedules {
    fn new(tm: &Timing, params: &[String]) -> Result<Schedules> {
        let mut out = Vec::new();
        for m in tm.sched.maps() {
            let mut m = m.clone();
            m.align_params(params);
            let dom = m.space().domain.clone().expect("relation");
            out.push((dom, Sched::new(m)?));
        }
        Ok(Schedules(out))
    }

    fn of(&self, domain: &Tuple) -> &Sched {
        let found = self.0.iter().find(|(d, _)| **d == *domain);
        &found.expect("Timing covers every access domain").1
    }
}

/// `{ t -> t' : t[0..l] = t'[0..l] and t[l] > t'[l] }` on `n`-dimensional times.
fn gt_at(n: usize, l: usize) -> Map {
    let space = Space::map(Vec::new(), Tuple::anonymous(n), Tuple::anonymous(n));
    let mut b = BasicMap::universe(space);
    let len = b.row_len();
    for k in 0..=l {
        let mut row = vec![Int::ZERO; len];
        row[1 + k] = Int::ONE;
        row[1 + n + k] = Int::from(-1);
        if k < l {
            b.add_eq(row);
        } else {
            row[0] = Int::from(-1);
            b.add_ineq(row);
        }
    }
    Map::from_basic(b)
}

/// The pairs of `elem` (`[D[i] -> A[a]] -> T[j]`) with `sink(i)` after
/// `source(j)` at level `l`, both schedules affine.
fn order_affine(elem: &Map, sink: &[Vec<Int>], source: &[Vec<Int>], l: usize) -> Result<Map> {
    let mut out = Map::empty(elem.space().clone());
    for b in elem.basic_maps() {
        let mut b = b.clone();
        let (len, np) = (b.row_len(), b.n_param());
        let (off_in, off_out) = (b.off_in(), b.off_out());
        for k in 0..=l {
            let (s, t) = (&sink[k], &source[k]);
            // Constant dimensions already known to be in order add nothing.
            if const_diff(s, t, np).is_some() {
                continue;
            }
            let mut row = vec![Int::ZERO; len];
            for c in 0..1 + np {
                row[c] = &s[c] - &t[c];
            }
            for d in 0..s.len() - 1 - np {
                row[off_in + d] = s[1 + np + d].clone();
            }
            for d in 0..t.len() - 1 - np {
                row[off_out + d] = -&t[1 + np + d];
            }
            if k < l {
                b.add_eq(row);
            } else {
                row[0] = &row[0] - &Int::ONE;
                b.add_ineq(row);
            }
        }
        out.add_basic(b)?;
    }
    Ok(out.remove_empty_parts()?)
}

/// `{ [D[i] -> A[a]] -> T[j] : D[i] -> A[a] in sink and T[j] -> A[a] in
/// source }` built by juxtaposing the constraints (nothing to project out),
/// or `None` when a disjunct has local variables (then compose instead).
/// Both relations have the same parameters.
fn same_element(sink: &Map, source: &Map) -> Result<Option<Map>> {
    let has_locals = |m: &Map| m.basic_maps().iter().any(|b| b.n_div() != 0);
    if has_locals(sink) || has_locals(source) || sink.space().params != source.space().params {
        return Ok(None);
    }
    let np = sink.space().n_param();
    let (nd, na) = (sink.space().n_in(), sink.space().n_out());
    let nt = source.space().n_in();
    let space = Space::map(
        sink.space().params.clone(),
        sink.space().wrap().range,
        source.space().domain.clone().expect("relation"),
    );
    let mut out = Map::empty(space.clone());
    let len = 1 + np + nd + na + nt;
    // Source columns [c | params | j | a] to [c | params | i a | j].
    let src_col = |k: usize| {
        if k < 1 + np {
            k
        } else if k < 1 + np + nt {
            1 + np + nd + na + (k - 1 - np)
        } else {
            1 + np + nd + (k - 1 - np - nt)
        }
    };
    for bs in sink.basic_maps() {
        for bt in source.basic_maps() {
            let mut b = BasicMap::universe(space.clone());
            let widen = |r: &Vec<Int>| {
                let mut row = r.clone();
                row.resize(len, Int::ZERO);
                row
            };
            let remap = |r: &Vec<Int>| {
                let mut row = vec![Int::ZERO; len];
                for (k, v) in r.iter().enumerate() {
                    row[src_col(k)] = v.clone();
                }
                row
            };
            bs.eqs().iter().for_each(|r| b.add_eq(widen(r)));
            bs.ineqs().iter().for_each(|r| b.add_ineq(widen(r)));
            bt.eqs().iter().for_each(|r| b.add_eq(remap(r)));
            bt.ineqs().iter().for_each(|r| b.add_ineq(remap(r)));
            out.add_basic(b)?;
        }
    }
    Ok(Some(out))
}

/// Per sink access part: everything the final combination needs.
struct SinkFlow {
    must_pairs: UnionMap,
    /// `None` when equal to `must_pairs` (no may-source, no demotion).
    may_pairs: Option<UnionMap>,
    /// `None` when equal to `may_no_source`.
    must_no_source: Option<Map>,
    may_no_source: Map,
}

/// The state of the level-by-level search for one sink access part.
struct State {
    /// The sink accesses not resolved at a deeper level.
    remaining: Map,
    /// Some sinks are resolved (until then every candidate's domain lies in
    /// `remaining`: no restriction needed).
    resolved_some: bool,
    /// The last must-sources.
    m_must: UnionMap,
    /// Sinks whose last must-source is not a must dependence.
    demote: UnionMap,
    /// May candidates at or after the last must-source or kill.
    may_after: UnionMap,
    /// May candidates at the levels below the current one (deeper).
    may_deeper: UnionMap,
}

/// The relations of one sink access part.
struct SinkPart<'a> {
    params: &'a [String],
    /// The wrapped access as a set `[D[i] -> A[a]]`.
    all: Map,
    /// `p -> time(p)`, when some schedule is not affine (the composition path).
    time: Option<Map>,
    sched: &'a Sched,
    /// `p -> x` (same element) per source, `None` when the arrays differ.
    elem: Vec<Option<Map>>,
}

impl<'a> SinkPart<'a> {
    fn new(
        access: &Map,
        sched: &'a Sched,
        sources: &[Source],
        params: &'a [String],
    ) -> Result<SinkPart<'a>> {
        let to_elem = access.range_map()?;
        let mut elem = Vec::new();
        for s in sources {
            elem.push(if s.access.space().range == access.space().range {
                Some(match same_element(access, s.access)? {
                    Some(m) => m,
                    None => to_elem.apply_range(&s.access.reverse()?)?,
                })
            } else {
                None
            });
        }
        let affine = sched.affine.is_some() && sources.iter().all(|s| s.sched.affine.is_some());
        let time = if affine {
            None
        } else {
            Some(access.domain_map()?.apply_range(&sched.map)?)
        };
        Ok(SinkPart {
            params,
            all: access.wrap()?,
            time,
            sched,
            elem,
        })
    }

    /// The candidates `p -> x` of source `k` before `p` at level `l`.
    fn before_at(&self, s: &Source, k: usize, l: usize, n: usize) -> Result<Option<Map>> {
        let Some(elem) = &self.elem[k] else {
            return Ok(None);
        };
        if elem.basic_maps().is_empty() {
            return Ok(None);
        }
        let m = match (&self.sched.affine, &s.sched.affine) {
            (Some(a), Some(b)) => {
                if !may_precede_at(b, a, l, self.params.len()) {
                    return Ok(None);
                }
                order_affine(elem, a, b, l)?
            }
            _ => {
                let time = self.time.as_ref().expect("built for non-affine schedules");
                let order = time.apply_range(&gt_at(n, l))?;
                elem.intersect(&order.apply_range(&s.sched.inv)?)?
                    .remove_empty_parts()?
            }
        };
        Ok((!m.basic_maps().is_empty()).then_some(m))
    }

    fn union_of(&self, parts: impl IntoIterator<Item = Map>) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.to_vec());
        for m in parts {
            u.add_map(m)?;
        }
        Ok(u)
    }

    /// The must-sources and kills of `src` (candidates at level `l`) from the
    /// latest to the earliest when their times at that level are ordered by
    /// constant dimensions alone (so that each source only applies where
    /// the later ones have no candidate) and each can be maximised in its
    /// own instance space (see [`Sched::follows`]); `None` otherwise.
    fn static_order(
        &self,
        src: &[(usize, Map)],
        sources: &[Source],
        l: usize,
    ) -> Option<Vec<usize>> {
        let np = self.params.len();
        let mut rows = Vec::new();
        for (k, _) in src {
            let sched = &sources[*k].sched;
            sched.follows.as_ref()?;
            rows.push(sched.affine.as_ref()?);
        }
        for a in 0..rows.len() {
            for b in a + 1..rows.len() {
                static_cmp(rows[a], rows[b], l, np)?;
            }
        }
        let mut order: Vec<usize> = (0..src.len()).collect();
        order.sort_by(|&a, &b| static_cmp(rows[b], rows[a], l, np).expect("all pairs ordered"));
        Some(order)
    }

    /// The last instance of source `s` among its candidates `c` at level
    /// `l`: the lexmax of the instance coordinates in the order in which the
    /// schedule's dimensions from `l` on follow them.
    fn last_instance(c: &Map, s: &Source, l: usize) -> Result<Map> {
        if is_function(c) {
            return Ok(c.clone());
        }
        let follows = s.sched.follows.as_ref().expect("checked by static_order");
        let nd = c.space().n_out();
        let mut perm: Vec<usize> = Vec::with_capacity(nd);
        for d in follows[l..]
            .iter()
            .flatten()
            .chain(&(0..nd).collect::<Vec<_>>())
        {
            if !perm.contains(d) {
                perm.push(*d);
            }
        }
        if perm.iter().enumerate().all(|(j, &d)| j == d) {
            return Ok(c.lexmax()?);
        }
        let mut inv = vec![0; nd];
        for (j, &d) in perm.iter().enumerate() {
            inv[d] = j;
        }
        permute_range(&permute_range(c, &perm)?.lexmax()?, &inv)
    }

    /// The may candidates `c` (of source `u`, level `l`) executed at or
    /// after (strictly after if `strict`: then both schedules are affine)
    /// the instance `at` (`p -> x`, of the affine source `t`).
    #[allow(clippy::too_many_arguments)]
    fn may_at_or_after(
        at: &Map,
        t: &Source,
        u: &Source,
        c: &Map,
        l: usize,
        n: usize,
        np: usize,
        strict: bool,
    ) -> Result<Map> {
        let order = match (&t.sched.affine, &u.sched.affine) {
            (Some(a), Some(b)) => {
                let space = Space::map(
                    at.space().params.clone(),
                    at.space().range.clone(),
                    c.space().range.clone(),
                );
                let le = lex_affine(space, a, b, l, np, strict)?;
                if le.basic_maps().is_empty() {
                    return Ok(Map::empty(c.space().clone()));
                }
                at.apply_range(&le)?
            }
            _ => {
                assert!(!strict, "strict order only between affine schedules");
                at.apply_range(&t.sched.map)?
                    .apply_range(&le_at(n, l)?)?
                    .apply_range(&u.sched.inv)?
            }
        };
        Ok(c.intersect(&order)?.remove_empty_parts()?)
    }

    /// For the last instances `at` (of source `s`, on the sinks `dom`) at
    /// level `l`: adds to `after` the may candidates executed at or after
    /// them (all of those at deeper levels, `deeper` being their domain),
    /// and to the demoted sinks those with such a candidate other than the
    /// last instance itself.
    #[allow(clippy::too_many_arguments)]
    fn may_after_last(
        st: &mut State,
        deeper: &UnionMap,
        at: &Map,
        s: &Source,
        dom: &Map,
        may_l: &[(usize, Map)],
        sources: &[Source],
        l: usize,
        n: usize,
        after: &mut UnionMap,
    ) -> Result<()> {
        let np = dom.space().n_param();
        let dom_u = UnionMap::from_map(dom.clone());
        *after = after.union(&st.may_deeper.intersect_domain(&dom_u)?)?;
        st.demote = st.demote.union(&deeper.intersect(&dom_u)?)?;
        for (j, cm) in may_l {
            let u = &sources[*j];
            if u.access.space().domain == s.access.space().domain {
                // One statement, an injective schedule: at the same time
                // only the last instance itself.
                let later = Self::may_at_or_after(at, s, u, cm, l, n, np, true)?;
                let same = cm.intersect(at)?.remove_empty_parts()?;
                if !later.basic_maps().is_empty() {
                    st.demote.add_map(later.domain()?)?;
                    after.add_map(later)?;
                }
                if !same.basic_maps().is_empty() {
                    after.add_map(same)?;
                }
            } else {
                let x = Self::may_at_or_after(at, s, u, cm, l, n, np, false)?;
                if !x.basic_maps().is_empty() {
                    st.demote.add_map(x.domain()?)?;
                    after.add_map(x)?;
                }
            }
        }
        Ok(())
    }

    /// One level whose sources are statically ordered (`order`, latest first).
    #[allow(clippy::too_many_arguments)]
    fn level_ordered(
        &self,
        st: &mut State,
        src: &[(usize, Map)],
        order: Vec<usize>,
        may_l: &[(usize, Map)],
        sources: &[Source],
        l: usize,
        n: usize,
        has_may: bool,
    ) -> Result<()> {
        let mut after = UnionMap::empty(self.params.to_vec());
        let mut deeper_dom: Option<UnionMap> = None;
        let mut first = true;
        for i in order {
            let (k, c) = &src[i];
            let s = &sources[*k];
            let c = if first {
                c.clone()
            } else {
                // Only where no later source of this level has a candidate.
                let c = c.intersect_domain(&st.remaining)?.remove_empty_parts()?;
                if c.basic_maps().is_empty() {
                    continue;
                }
                c
            };
            first = false;
            let at = Self::last_instance(&c, s, l)?;
            if at.basic_maps().is_empty() {
                continue;
            }
            let dom = at.domain()?;
            Self::resolve_last(
                st,
                &at,
                s,
                &dom,
                may_l,
                sources,
                l,
                n,
                has_may,
                &mut deeper_dom,
                &mut after,
            )?;
        }
        Self::merge_after(st, after, has_may)
    }

    /// Records `at`, the last instances of source `s` at level `l` for the
    /// sinks `dom`: the may-sources after them (when there are may-sources),
    /// the must pairs, and `dom` as resolved.
    #[allow(clippy::too_many_arguments)]
    fn resolve_last(
        st: &mut State,
        at: &Map,
        s: &Source,
        dom: &Map,
        may_l: &[(usize, Map)],
        sources: &[Source],
        l: usize,
        n: usize,
        has_may: bool,
        deeper_dom: &mut Option<UnionMap>,
        after: &mut UnionMap,
    ) -> Result<()> {
        if has_may {
            let deeper = match deeper_dom {
                Some(d) => d,
                None => deeper_dom.insert(st.may_deeper.domain()?),
            };
            Self::may_after_last(st, deeper, at, s, dom, may_l, sources, l, n, after)?;
        }
        if s.kind == Kind::Must {
            st.m_must.add_map(at.clone())?;
        }
        st.remaining = coalesce_map(difference(&st.remaining, dom)?)?;
        st.resolved_some = true;
        Ok(())
    }

    /// Adds a level's may-sources found after its last sources.
    fn merge_after(st: &mut State, after: UnionMap, has_may: bool) -> Result<()> {
        if has_may && !after.maps().is_empty() {
            st.may_after = st.may_after.union(&after)?;
        }
        Ok(())
    }

    /// One level whose sources all have schedules of the [`Sched::follows`]
    /// form but are not statically ordered: each source's last instance is
    /// found in its own instance space, then kept where no other source has
    /// a candidate strictly later.
    #[allow(clippy::too_many_arguments)]
    fn level_pairwise(
        &self,
        st: &mut State,
        src: &[(usize, Map)],
        may_l: &[(usize, Map)],
        sources: &[Source],
        l: usize,
        n: usize,
        has_may: bool,
    ) -> Result<()> {
        let params = self.params.to_vec();
        let np = params.len();
        let rows = |k: usize| sources[k].sched.affine.as_ref().expect("follows is affine");
        let mut lasts = Vec::new();
        for (k, c) in src {
            lasts.push(Self::last_instance(c, &sources[*k], l)?);
        }
        // Per source: its last instances where no other source is later.
        let mut ats: Vec<(usize, Map, Map)> = Vec::new();
        for (i, (k, _)) in src.iter().enumerate() {
            let a = &lasts[i];
            if a.basic_maps().is_empty() {
                continue;
            }
            let mut beaten: Option<Map> = None;
            for (j, (kj, cj)) in src.iter().enumerate() {
                if j == i {
                    continue;
                }
                let d = match static_cmp(rows(*kj), rows(*k), l, np) {
                    Some(std::cmp::Ordering::Less) => continue,
                    Some(_) => cj.domain()?,
                    None => {
                        let space = Space::map(
                            a.space().params.clone(),
                            a.space().range.clone(),
                            cj.space().range.clone(),
                        );
                        let lt = lex_affine(space, rows(*k), rows(*kj), l, np, true)?;
                        if lt.basic_maps().is_empty() {
                            continue;
                        }
                        let later = a.apply_range(&lt)?.intersect(cj)?.remove_empty_parts()?;
                        if later.basic_maps().is_empty() {
                            continue;
                        }
                        later.domain()?
                    }
                };
                beaten = Some(match beaten {
                    None => d,
                    Some(b) => b.union(&d)?,
                });
            }
            let dom = a.domain()?;
            let (at, dom) = match beaten {
                None => (a.clone(), dom),
                Some(b) => {
                    let dom = difference(&dom, &b)?;
                    if dom.basic_maps().is_empty() {
                        continue;
                    }
                    (a.intersect_domain(&dom)?.remove_empty_parts()?, dom)
                }
            };
            if at.basic_maps().is_empty() {
                continue;
            }
            ats.push((*k, at, dom));
        }
        // Sources of different statements at the same (latest) time.
        for (i, (k, _, di)) in ats.iter().enumerate() {
            for (kj, _, dj) in &ats[i + 1..] {
                let same_stmt =
                    sources[*k].access.space().domain == sources[*kj].access.space().domain;
                if !same_stmt && static_cmp(rows(*k), rows(*kj), l, np).is_none() {
                    let both = di.intersect(dj)?.remove_empty_parts()?;
                    if !both.basic_maps().is_empty() {
                        st.demote.add_map(both)?;
                    }
                }
            }
        }
        let mut after = UnionMap::empty(params.clone());
        let mut deeper_dom: Option<UnionMap> = None;
        for (k, at, dom) in ats {
            Self::resolve_last(
                st,
                &at,
                &sources[k],
                &dom,
                may_l,
                sources,
                l,
                n,
                has_may,
                &mut deeper_dom,
                &mut after,
            )?;
        }
        Self::merge_after(st, after, has_may)
    }

    /// One level in general: a lexmax over the candidates' times.
    #[allow(clippy::too_many_arguments)]
    fn level_general(
        &self,
        st: &mut State,
        src: &[(usize, Map)],
        may_l: &[(usize, Map)],
        sources: &[Source],
        l: usize,
        n: usize,
        has_may: bool,
    ) -> Result<()> {
        let params = self.params.to_vec();
        // Latest must-source or kill time at this level.
        let mut times: Option<Map> = None;
        for (k, c) in src {
            let t = c.apply_range(&sources[*k].sched.map)?;
            times = Some(match times {
                None => t,
                Some(u) => u.union(&t)?,
            });
        }
        let t_l = times.expect("non-empty").lexmax()?;
        if t_l.basic_maps().is_empty() {
            return Ok(());
        }
        let dom = t_l.domain()?;
        let mut all_l = UnionMap::empty(params.clone());
        let mut must_l = UnionMap::empty(params.clone());
        let mut injective = Vec::new();
        for (k, c) in src {
            let s = &sources[*k];
            let at = if src.len() == 1 && s.sched.injective {
                // The one instance at the latest time is a candidate.
                t_l.apply_range(&s.sched.inv)?
            } else {
                c.intersect(&t_l.apply_range(&s.sched.inv)?)?
                    .remove_empty_parts()?
            };
            if at.basic_maps().is_empty() {
                continue;
            }
            if s.kind == Kind::Must {
                must_l.add_map(at.clone())?;
            }
            let target = at.space().range.clone();
            injective.push((target, s.sched.injective));
            all_l.add_map(at)?;
        }
        // A must-source and a kill of one statement are one part of `all_l`.
        let parts: Vec<(Map, bool)> = all_l
            .maps()
            .iter()
            .map(|m| {
                let inj = injective.iter().any(|(t, i)| *i && *t == m.space().range);
                (m.clone(), inj)
            })
            .collect();
        st.demote = st.demote.union(&several_sources(&parts, &params)?)?;
        if has_may {
            // May-sources at or after t_l: deeper ones all, this level's compared.
            let mut after = st
                .may_deeper
                .intersect_domain(&UnionMap::from_map(dom.clone()))?;
            let le = t_l.apply_range(&le_at(n, l)?)?;
            for (k, c) in may_l {
                let s = &sources[*k];
                let x = c.intersect(&le.apply_range(&s.sched.inv)?)?;
                after.add_map(x.remove_empty_parts()?)?;
            }
            st.demote = st.demote.union(&after.subtract(&all_l)?.domain()?)?;
            st.may_after = st.may_after.union(&after)?;
        }
        st.m_must = st.m_must.union(&must_l)?;
        st.remaining = coalesce_map(difference(&st.remaining, &dom)?)?;
        st.resolved_some = true;
        Ok(())
    }

    fn flow(&self, sources: &[Source], n: usize) -> Result<SinkFlow> {
        let params = self.params.to_vec();
        let has_may = sources.iter().any(|s| s.kind == Kind::May);
        let mut st = State {
            remaining: self.all.clone(),
            resolved_some: false,
            m_must: UnionMap::empty(params.clone()),
            demote: UnionMap::empty(params.clone()),
            may_after: UnionMap::empty(params.clone()),
            may_deeper: UnionMap::empty(params.clone()),
        };
        for l in (0..n).rev() {
            if st.remaining.basic_maps().is_empty() {
                break;
            }
            let mut src = Vec::new();
            let mut may_l = Vec::new();
            for (k, s) in sources.iter().enumerate() {
                if s.kind == Kind::May {
                    if let Some(c) = self.before_at(s, k, l, n)? {
                        may_l.push((k, c));
                    }
                } else if let Some(c) = self.before_at(s, k, l, n)? {
                    let c = if st.resolved_some {
                        c.intersect_domain(&st.remaining)?.remove_empty_parts()?
                    } else {
                        c
                    };
                    if !c.basic_maps().is_empty() {
                        src.push((k, c));
                    }
                }
            }
            let may_l_union = self.union_of(may_l.iter().map(|(_, c)| c.clone()))?;
            if !src.is_empty() {
                let follow = src.iter().all(|(k, _)| sources[*k].sched.follows.is_some());
                match self.static_order(&src, sources, l) {
                    Some(order) => {
                        self.level_ordered(&mut st, &src, order, &may_l, sources, l, n, has_may)?
                    }
                    None if follow => {
                        self.level_pairwise(&mut st, &src, &may_l, sources, l, n, has_may)?
                    }
                    None => self.level_general(&mut st, &src, &may_l, sources, l, n, has_may)?,
                }
            }
            st.may_deeper = st.may_deeper.union(&may_l_union)?;
        }
        let State {
            remaining,
            m_must,
            demote,
            may_after,
            may_deeper,
            ..
        } = st;
        let no_last = remaining;
        let no_last_u = UnionMap::from_map(no_last.clone());

        let must_pairs = if demote.is_empty()? {
            m_must.clone()
        } else {
            // The demoted sinks all live in the space of `all`: subtract
            // them from each part's domain (sets of sinks, fewer dimensions
            // than the pairs).
            let demoted = demote
                .to_map()?
                .unwrap_or_else(|| Map::empty(self.all.space().clone()));
            let mut kept = UnionMap::empty(params.clone());
            for m in m_must.maps() {
                let dom = difference(&m.domain()?, &demoted)?;
                if !dom.basic_maps().is_empty() {
                    kept.add_map(m.intersect_domain(&dom)?.remove_empty_parts()?)?;
                }
            }
            kept
        };
        let (may_nolast, must_no_source) = if has_may && !no_last.basic_maps().is_empty() {
            let may_nolast = may_deeper.intersect_domain(&no_last_u)?;
            let mns = difference(
                &no_last,
                &may_nolast
                    .domain()?
                    .to_map()?
                    .unwrap_or_else(|| Map::empty(no_last.space().clone())),
            )?;
            (may_nolast, Some(coalesce_map(mns)?))
        } else {
            (UnionMap::empty(params.clone()), None)
        };
        let may_pairs = if has_may || !demote.is_empty()? {
            Some(m_must.union(&may_after)?.union(&may_nolast)?)
        } else {
            None
        };
        Ok(SinkFlow {
            must_pairs,
            may_pairs,
            must_no_source,
            may_no_source: no_last,
        })
    }
}

/// `{ x -> y : time_a(x)[l..] <=lex time_b(y)[l..] }` (`<lex` if `strict`)
/// for affine schedules `a` (of `x`) and `b` (of `y`), in `space`, without
/// the disjuncts that constant dimensions rule out.
fn lex_affine(
    space: Space,
    a: &[Vec<Int>],
    b: &[Vec<Int>],
    l: usize,
    np: usize,
    strict: bool,
) -> Result<Map> {
    let n = a.len();
    let mut out = Map::empty(space.clone());
    let last = if strict { n } else { n + 1 };
    'm: for m in l..last {
        for k in l..m {
            if const_diff(&a[k], &b[k], np).is_some_and(|d| !d.is_zero()) {
                continue 'm;
            }
        }
        if m < n && const_diff(&b[m], &a[m], np).is_some_and(|d| !d.is_pos()) {
            continue;
        }
        let mut bm = BasicMap::universe(space.clone());
        let (len, off_in, off_out) = (bm.row_len(), bm.off_in(), bm.off_out());
        // time_b(y)[k] - time_a(x)[k]
        let diff = |k: usize| {
            let mut row = vec![Int::ZERO; len];
            for c in 0..1 + np {
                row[c] = &b[k][c] - &a[k][c];
            }
            for d in 0..a[k].len() - 1 - np {
                row[off_in + d] = -&a[k][1 + np + d];
            }
            for d in 0..b[k].len() - 1 - np {
                row[off_out + d] = b[k][1 + np + d].clone();
            }
            row
        };
        for k in l..m {
            if const_diff(&a[k], &b[k], np).is_none() {
                bm.add_eq(diff(k));
            }
        }
        if m < n && const_diff(&b[m], &a[m], np).is_none() {
            let mut row = diff(m);
            row[0] = &row[0] - &Int::ONE;
            bm.add_ineq(row);
        }
        out.add_basic(bm)?;
    }
    Ok(out)
}

/// `{ t -> t' : t[0..l] = t'[0..l] and t[l..] <=lex t'[l..] }` on `n`-dimensional times.
fn le_at(n: usize, l: usize) -> Result<Map> {
    let space = Space::map(Vec::new(), Tuple::anonymous(n), Tuple::anonymous(n));
    let mut out = Map::empty(space.clone());
    // Equal on 0..m, then strictly smaller at m (m in l..n), or equal everywhere (m = n).
    for m in l..=n {
        let mut b = BasicMap::universe(space.clone());
        let len = b.row_len();
        for k in 0..m {
            let mut row = vec![Int::ZERO; len];
            row[1 + k] = Int::ONE;
            row[1 + n + k] = Int::from(-1);
            b.add_eq(row);
        }
        if m < n {
            let mut row = vec![Int::ZERO; len];
            row[1 + m] = Int::from(-1);
            row[1 + n + m] = Int::ONE;
            row[0] = Int::from(-1);
            b.add_ineq(row);
        }
        out.add_basic(b)?;
    }
    Ok(out)
}

/// `u` without its parts that have no disjunct left. The results are not
/// coalesced: coalescing costs more than the rest of the analysis, and
/// the disjuncts built per sink access and level are already few (on the
/// shared kernels, fewer in total than isl's answers).
fn nonempty_parts(u: UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if !m.basic_maps().is_empty() {
            out.add_map(m.clone())?;
        }
    }
    Ok(out)
}

/// Coalesce a set of sink accesses (the unresolved ones) only when it has
/// fragmented into many disjuncts: coalescing is costly, and the few
/// disjuncts left by one subtraction per level are what isl reports too.
fn coalesce_map(m: Map) -> Result<Map> {
    if m.basic_maps().len() <= 8 {
        return Ok(m);
    }
    Ok(m.coalesce()?)
}

/// Level-by-level array dataflow analysis; see the module documentation.
pub(crate) fn flow(info: &AccessInfo, tm: &Timing) -> Result<Flow> {
    let trace = Trace::new();
    let mut params = info.sink().params().to_vec();
    for u in [
        info.must_source(),
        info.may_source(),
        info.kill(),
        &tm.sched,
    ] {
        params = merge_params(&params, u.params());
    }
    // shared by every result and aligned part below
    let params: Arc<[String]> = params.into();
    let aligned = |u: &UnionMap| {
        let mut u = u.clone();
        u.align_params(&params);
        u
    };
    let (sink, must, may, kill) = (
        aligned(info.sink()),
        aligned(info.must_source()),
        aligned(info.may_source()),
        aligned(info.kill()),
    );
    let scheds = Schedules::new(tm, &params)?;
    let n = tm.sched.maps().first().map_or(0, |m| m.space().n_out());
    let mut sources = Vec::new();
    for (kind, u) in [(Kind::Must, &must), (Kind::Kill, &kill), (Kind::May, &may)] {
        for m in u.maps() {
            let dom = m.space().domain.clone().expect("relation");
            sources.push(Source {
                kind,
                access: m,
                sched: scheds.of(&dom).clone(),
            });
        }
    }
    let mut must_dependence = UnionMap::empty(params.clone());
    let mut may_dependence = UnionMap::empty(params.clone());
    let mut must_no_source = UnionMap::empty(params.clone());
    let mut may_no_source = UnionMap::empty(params.clone());
    let mut may_differs = false;
    // The answer for a sink access depends on that access alone: the
    // disjuncts of a sink relation (typically several references to one
    // array in one statement) are analysed separately, each on smaller
    // relations with one disjunct (where they overlap, both find the same).
    let pieces: Vec<Map> = sink
        .maps()
        .iter()
        .flat_map(|m| {
            m.basic_maps()
                .iter()
                .map(|b| Map::from_basic(b.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    for ms in &pieces {
        let dom = ms.space().domain.clone().expect("relation");
        let part = SinkPart::new(ms, scheds.of(&dom), &sources, &params)?;
        let f = part.flow(&sources, n)?;
        for m in f.must_pairs.maps() {
            must_dependence.add_map(pairs_to_instances(m)?)?;
        }
        let may_pairs = match &f.may_pairs {
            Some(u) => {
                may_differs = true;
                u
            }
            None => &f.must_pairs,
        };
        for m in may_pairs.maps() {
            may_dependence.add_map(pairs_to_instances(m)?)?;
        }
        let may_ns = f.may_no_source.unwrap()?;
        must_no_source.add_map(match &f.must_no_source {
            Some(m) => m.unwrap()?,
            None => may_ns.clone(),
        })?;
        may_no_source.add_map(may_ns)?;
        trace.step("sink part", &may_dependence);
    }
    // Equal results (no may-source, no demotion) are built once.
    let must_dependence = nonempty_parts(must_dependence)?;
    let may_dependence = if may_differs {
        nonempty_parts(may_dependence)?
    } else {
        must_dependence.clone()
    };
    let may_no_source = nonempty_parts(may_no_source)?;
    let must_no_source = if may.maps().is_empty() {
        may_no_source.clone()
    } else {
        nonempty_parts(must_no_source)?
    };
    Ok(Flow {
        must_dependence,
        may_dependence,
        must_no_source,
        may_no_source,
    })
}
