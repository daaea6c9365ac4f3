//! Reshaping relations between instances (reordering, factoring and
//! joining tuples without composition), and two cheap shortcuts.

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::Space;
use crate::structural::Dest;
use crate::syntactic::syntactically_contains;

use super::affine::rank;

/// `m` moved into `space`: old variable `k` (over params, in, out) goes to
/// `dest[k]`, with `n_exist` new existentials before the old locals.
/// Disjuncts are simplified (and dropped when found empty) only when they
/// have locals, as moving variables keeps every other disjunct as it was.
fn moved(m: &Map, space: Space, dest: &[Dest], n_exist: usize) -> Result<Map> {
    let nv = space.n_vars();
    let mut col = Vec::with_capacity(1 + dest.len());
    col.push(0);
    col.extend(dest.iter().map(|d| match *d {
        Dest::Var(k) => 1 + k,
        Dest::Exist(k) => 1 + nv + k,
    }));
    let mut out = Map::empty(space.clone());
    for b in m.basic_maps() {
        let mut r = BasicMap::universe(space.clone());
        for _ in 0..n_exist {
            r.add_existential();
        }
        let len = 1 + nv + n_exist + b.n_div();
        let at = |k: usize| {
            col.get(k)
                .copied()
                .unwrap_or_else(|| k - col.len() + 1 + nv + n_exist)
        };
        let move_row = |row: &[Int]| {
            let mut v = vec![Int::ZERO; len];
            for (k, x) in row.iter().enumerate() {
                if !x.is_zero() {
                    v[at(k)] = x.clone();
                }
            }
            v
        };
        for d in b.divs() {
            match d {
                Some(d) => {
                    let mut num = move_row(&d.num);
                    num.truncate(r.row_len());
                    r.add_div(num, d.den.clone());
                }
                None => {
                    r.add_existential();
                }
            }
        }
        let had_divs = b.divs().iter().any(Option::is_some);
        b.eqs().iter().for_each(|e| r.add_eq(move_row(e)));
        b.ineqs().iter().for_each(|e| r.add_ineq(move_row(e)));
        if (n_exist > 0 || had_divs) && !r.simplify() {
            continue;
        }
        out.add_basic(r)?;
    }
    Ok(out)
}

/// `m` (a relation) with the range coordinates `d` where `negate[d]`
/// replaced by their negations: `{ x -> y' : x -> y in m, y'_d = -y_d
/// where negate[d], y'_d = y_d elsewhere }` (the same constraints with
/// those columns negated, divisions included).
///
/// # Errors
/// [`Error::Invalid`] when `m` is a set or `negate` does not have one
/// entry per range coordinate.
///
/// ```
/// use presburger::relation::negate_range;
/// use presburger::Map;
/// let m: Map = "{ S[i] -> T[a, b] : a = i + 1 and b = 2i and 0 <= i <= 3 }".parse().unwrap();
/// let n = negate_range(&m, &[true, false]).unwrap();
/// let want: Map = "{ S[i] -> T[a, b] : a = -i - 1 and b = 2i and 0 <= i <= 3 }".parse().unwrap();
/// assert!(n.is_equal(&want).unwrap());
/// ```
pub fn negate_range(m: &Map, negate: &[bool]) -> Result<Map> {
    let sp = m.space();
    let no = sp.n_out();
    if sp.is_set() || negate.len() != no {
        return Err(Error::Invalid(format!(
            "negate_range: {} flags for the {no} range coordinates of a relation",
            negate.len()
        )));
    }
    let at = 1 + sp.n_param() + sp.n_in();
    let flip = |row: &[Int]| -> Vec<Int> {
        let mut v = row.to_vec();
        for (d, _) in negate.iter().enumerate().filter(|(_, &n)| n) {
            if let Some(x) = v.get_mut(at + d) {
                *x = -&*x;
            }
        }
        v
    };
    let mut out = Map::empty(sp.clone());
    for b in m.basic_maps() {
        let mut r = BasicMap::universe(sp.clone());
        for d in b.divs() {
            match d {
                Some(d) => {
                    let mut num = flip(&d.num);
                    num.truncate(r.row_len());
                    r.add_div(num, d.den.clone());
                }
                None => {
                    r.add_existential();
                }
            }
        }
        b.eqs().iter().for_each(|e| r.add_eq(flip(e)));
        b.ineqs().iter().for_each(|e| r.add_ineq(flip(e)));
        if b.divs().iter().any(Option::is_some) && !r.simplify() {
            continue;
        }
        out.add_basic(r)?;
    }
    Ok(out)
}

/// `m` (a relation) with its range coordinates reordered: coordinate `j`
/// of the result is coordinate `perm[j]` of `m`. The range tuple keeps its
/// name; its dimensions lose their names.
///
/// # Errors
/// [`Error::Invalid`] when `m` is a set or `perm` is not a permutation of
/// the range coordinates.
///
/// ```
/// use presburger::relation::permute_range;
/// use presburger::Map;
/// let m: Map = "{ S[i] -> T[a, b] : a = i and b = 2i }".parse().unwrap();
/// let p = permute_range(&m, &[1, 0]).unwrap();
/// assert!(p.is_equal(&"{ S[i] -> T[b, a] : a = i and b = 2i }".parse().unwrap()).unwrap());
/// ```
pub fn permute_range(m: &Map, perm: &[usize]) -> Result<Map> {
    let sp = m.space();
    let no = sp.n_out();
    let mut seen = vec![false; no];
    let valid = !sp.is_set()
        && perm.len() == no
        && perm
            .iter()
            .all(|&d| d < no && !std::mem::replace(&mut seen[d], true));
    if !valid {
        return Err(Error::Invalid(format!(
            "permute_range: {perm:?} is not a permutation of the {no} range coordinates of a relation"
        )));
    }
    let (np, ni) = (sp.n_param(), sp.n_in());
    let mut dest: Vec<Dest> = (0..np + ni).map(Dest::Var).collect();
    let mut to = vec![0; no];
    for (j, &d) in perm.iter().enumerate() {
        to[d] = j;
    }
    dest.extend((0..no).map(|d| Dest::Var(np + ni + to[d])));
    moved(m, sp.clone(), &dest, 0)
}

/// `{ x -> D[i] : [D[i] -> A[a]] -> x in m }`: the reversed relation from
/// the range of `m` to the domain factor of its wrapped domain (the
/// coordinates `a` are projected out), built by moving variables rather
/// than by composition.
///
/// # Errors
/// [`Error::SpaceMismatch`] when the domain of `m` is not a wrapped relation.
///
/// ```
/// use presburger::relation::reverse_domain_factor;
/// use presburger::Map;
/// let m: Map = "{ [S[i] -> A[a]] -> T[j] : a = i + 1 and j = a }".parse().unwrap();
/// let r = reverse_domain_factor(&m).unwrap();
/// assert!(r.is_equal(&"{ T[j] -> S[j - 1] }".parse().unwrap()).unwrap());
/// ```
pub fn reverse_domain_factor(m: &Map) -> Result<Map> {
    let sp = m.space();
    let Some(inner) = sp.domain_space().unwrap().filter(|_| !sp.is_set()) else {
        return Err(Error::SpaceMismatch(
            "reverse_domain_factor needs a relation whose domain is a wrapped relation".into(),
        ));
    };
    let (np, nd, na, nx) = (sp.n_param(), inner.n_in(), inner.n_out(), sp.n_out());
    let space = Space::map(sp.params.clone(), sp.range.clone(), inner.domain_tuple());
    // [params | i | a | x] to [params | x | i] and existentials a.
    let mut dest: Vec<Dest> = (0..np).map(Dest::Var).collect();
    dest.extend((0..nd).map(|d| Dest::Var(np + nx + d)));
    dest.extend((0..na).map(Dest::Exist));
    dest.extend((0..nx).map(|d| Dest::Var(np + d)));
    moved(m, space, &dest, na)
}

/// `{ [x -> y] -> z : x -> y in a and z -> y in b }`: the pairs of `a`
/// (wrapped) with the instances of `b` that relate to the same `y`. With
/// no locals and equal parameters the constraints are juxtaposed (nothing
/// to project out); otherwise it is the composition
/// `range_map(a) . b^-1`.
///
/// # Errors
/// [`Error::SpaceMismatch`] when `a` or `b` is a set or their range tuples
/// differ.
///
/// ```
/// use presburger::relation::join_on_range;
/// use presburger::Map;
/// let read: Map = "{ S[i] -> A[i + 1] : 0 <= i < 4 }".parse().unwrap();
/// let write: Map = "{ T[j] -> A[j] : 0 <= j < 4 }".parse().unwrap();
/// let j = join_on_range(&read, &write).unwrap();
/// let want: Map = "{ [S[i] -> A[a]] -> T[j] : a = i + 1 and j = a and 0 <= i < 3 }".parse().unwrap();
/// assert!(j.is_equal(&want).unwrap());
/// ```
pub fn join_on_range(a: &Map, b: &Map) -> Result<Map> {
    if a.is_set() || b.is_set() || a.space().range != b.space().range {
        return Err(Error::SpaceMismatch(
            "join_on_range needs two relations to the same range tuple".into(),
        ));
    }
    let has_locals = |m: &Map| m.basic_maps().iter().any(|b| b.n_div() != 0);
    if has_locals(a) || has_locals(b) || a.space().params != b.space().params {
        return a.range_map()?.apply_range(&b.reverse()?);
    }
    let space = Space::map(
        a.space().params.clone(),
        a.space().wrap().range.clone(),
        b.space().domain_tuple(),
    );
    let np = a.space().n_param();
    let (nx, ny, nz) = (a.space().n_in(), a.space().n_out(), b.space().n_in());
    let len = 1 + np + nx + ny + nz;
    // a's rows [c | params | x | y] are widened; b's [c | params | z | y]
    // move to [c | params | . | y | z].
    let b_col = |k: usize| {
        if k < 1 + np {
            k
        } else if k < 1 + np + nz {
            1 + np + nx + ny + (k - 1 - np)
        } else {
            1 + np + nx + (k - 1 - np - nz)
        }
    };
    let widen = |r: &[Int]| -> Vec<Int> {
        let zeros = std::iter::repeat_n(Int::ZERO, len - r.len());
        r.iter().cloned().chain(zeros).collect()
    };
    let lift = |r: &[Int]| {
        let mut row = vec![Int::ZERO; len];
        for (k, v) in r.iter().enumerate() {
            row[b_col(k)] = v.clone();
        }
        row
    };
    let mut out = Map::empty(space.clone());
    for ba in a.basic_maps() {
        for bb in b.basic_maps() {
            let mut j = BasicMap::universe(space.clone());
            ba.eqs().iter().for_each(|r| j.add_eq(widen(r)));
            ba.ineqs().iter().for_each(|r| j.add_ineq(widen(r)));
            bb.eqs().iter().for_each(|r| j.add_eq(lift(r)));
            bb.ineqs().iter().for_each(|r| j.add_ineq(lift(r)));
            out.add_basic(j)?;
        }
    }
    Ok(out)
}

/// True if `m` is one disjunct without local variables whose range
/// coordinates are determined by equalities in terms of the domain and the
/// parameters: it is then single-valued, and its own lexmax and lexmin.
/// `false` means "not shown" (cheap and syntactic).
///
/// ```
/// use presburger::relation::is_explicit_function;
/// let f = "{ [i] -> [a, b] : a + b = i and a - b = 0 }".parse().unwrap();
/// assert!(is_explicit_function(&f));
/// let g = "{ [i] -> [a] : 0 <= a <= i }".parse().unwrap();
/// assert!(!is_explicit_function(&g));
/// ```
pub fn is_explicit_function(m: &Map) -> bool {
    let [b] = m.basic_maps() else { return false };
    if b.n_div() != 0 || m.is_set() {
        return false;
    }
    let (off, no) = (b.off_out(), b.n_out());
    let rows = b.eqs().iter().map(|e| e[off..off + no].to_vec()).collect();
    rank(rows) == no
}

/// `a \ b` ([`Map::subtract`]), dropping first the disjuncts of `a` that
/// are syntactically inside a disjunct of `b` (every constraint of the
/// latter implied by one of the former): cheap when whole disjuncts go,
/// as when the sinks of a dependence analysis are all resolved at once.
///
/// # Errors
/// Those of [`Map::subtract`].
///
/// ```
/// use presburger::relation::difference;
/// use presburger::Map;
/// let a: Map = "{ [i] : 0 <= i <= 9 }".parse().unwrap();
/// let b: Map = "{ [i] : 0 <= i <= 9 }".parse().unwrap();
/// assert!(difference(&a, &b).unwrap().basic_maps().is_empty());
/// ```
pub fn difference(a: &Map, b: &Map) -> Result<Map> {
    let mut rest = Map::empty(a.space().clone());
    for p in a.basic_maps() {
        if !b.basic_maps().iter().any(|q| syntactically_contains(q, p)) {
            rest.add_basic(p.clone())?;
        }
    }
    if rest.basic_maps().is_empty() {
        return Ok(rest);
    }
    rest.subtract(b)
}
