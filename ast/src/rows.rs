//! Constraint-row helpers over the engine's public `BasicMap` API: moving
//! columns between spaces, projections that keep the space, and turning
//! rows into AST expressions.

use crate::error::{Error, Result};
use crate::expr::{linear, CmpOp, Expr};
use presburger::{BasicMap, Int, Map, Space};

/// Copy `b` into `space`, sending each non-local column `c` (constant,
/// parameters, dimensions) to `colmap(c)`; locals keep their order and
/// definitions.
pub fn remap(b: &BasicMap, space: &Space, colmap: &dyn Fn(usize) -> usize) -> BasicMap {
    let old_base = b.off_div();
    let mut out = BasicMap::universe(space.clone());
    let new_base = out.off_div();
    let conv = |row: &[Int], len: usize| -> Vec<Int> {
        let mut r = vec![Int::ZERO; len];
        for (c, v) in row.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            let nc = if c < old_base {
                colmap(c)
            } else {
                new_base + (c - old_base)
            };
            r[nc] = v.clone();
        }
        r
    };
    for d in b.divs() {
        match d {
            Some(div) => {
                let len = out.row_len();
                let num = conv(&div.num, len + b.n_div());
                out.add_div(num[..len].to_vec(), div.den.clone());
            }
            None => {
                out.add_existential();
            }
        }
    }
    let len = out.row_len();
    for r in b.eqs() {
        out.add_eq(conv(r, len));
    }
    for r in b.ineqs() {
        out.add_ineq(conv(r, len));
    }
    out
}

/// The set space with the given parameters and `n` anonymous dimensions.
pub fn set_space(params: &[String], n: usize) -> Space {
    Space::set(params.to_vec(), presburger::Tuple::anonymous(n))
}

/// `{ x : exists y : (x, y) in m }` for `x` the first `keep` dimensions of
/// the `n`-dimensional set `m`, returned in the same `n`-dimensional space
/// (the other dimensions unconstrained): the engine's exact integer
/// projection (`Map::project_out`), whose locals may stay existentials
/// without an explicit division. Callers that need explicit divisions or
/// are content with a superset ask for them apart ([`explicit_or_superset`],
/// [`known_superset`]).
pub fn project_keep(m: &Map, keep: usize, n: usize) -> Result<Map> {
    if keep >= n {
        return Ok(m.clone());
    }
    let p = m.project_out(keep, n - keep)?;
    let space = m.space().clone();
    let mut out = Map::empty(space.clone());
    for b in p.basic_maps() {
        out.add_basic(remap(b, &space, &|c| c))?;
    }
    Ok(out)
}

/// The basic maps of `m` with every local made an explicit division.
pub fn explicit(m: &Map) -> Result<Vec<BasicMap>> {
    let mut out = Vec::new();
    for b in m.basic_maps() {
        out.extend(b.make_divs_explicit()?);
    }
    Ok(out)
}

/// Work granted to one exact division computation of [`explicit_or_superset`].
const EXPLICIT_EFFORT: u64 = 200_000;

/// Like [`explicit`], but a basic map whose locals cannot be made explicit
/// within [`EXPLICIT_EFFORT`] units of work is replaced by the superset
/// [`known_superset`] (for loop bounds, which only need to cover the set:
/// the inner levels test exactly what they need).
pub fn explicit_or_superset(m: &Map) -> Result<Vec<BasicMap>> {
    let mut out = Vec::new();
    for b in m.basic_maps() {
        out.extend(explicit_or_superset_basic(b)?);
    }
    Ok(out)
}

/// [`explicit_or_superset`] of one basic map.
fn explicit_or_superset_basic(b: &BasicMap) -> Result<Vec<BasicMap>> {
    if b.divs().iter().all(Option::is_some) {
        return Ok(vec![b.clone()]);
    }
    let exact = {
        let _scope = presburger::budget::enter(EXPLICIT_EFFORT);
        b.make_divs_explicit()
    };
    match exact {
        Ok(parts) => Ok(parts),
        Err(presburger::Error::BudgetExceeded) => {
            // the enclosing budget is charged; give up if it ran out
            if presburger::budget::remaining() == Some(0) {
                return Err(Error::BudgetExceeded);
            }
            Ok(vec![known_superset(b)])
        }
        Err(e) => Err(e.into()),
    }
}

/// `b` without the constraints on locals that have no explicit division
/// (after the engine's cheap detection): a superset of `b` whose locals
/// are all divisions.
pub fn known_superset(b: &BasicMap) -> BasicMap {
    let mut c = b.clone();
    if !c.simplify() {
        return c;
    }
    if c.detect_divs() {
        return c;
    }
    let drop: Vec<bool> = known_locals(&c).iter().map(|k| !k).collect();
    eliminate_locals(&c, &drop)
}

/// The locals of `b` known as functions of the variables: a definition
/// through known locals only.
pub fn known_locals(b: &BasicMap) -> Vec<bool> {
    let base = b.off_div();
    let nd = b.n_div();
    let mut known = vec![false; nd];
    for k in 0..nd {
        known[k] = b.divs()[k].as_ref().is_some_and(|d| {
            (0..nd).all(|j| j == k || known[j] || d.num.get(base + j).is_none_or(|v| v.is_zero()))
        });
    }
    known
}

/// The root of `x` in a union-find forest `p` (compressing the path).
pub fn find_root(p: &mut [usize], x: usize) -> usize {
    let mut x = x;
    while p[x] != x {
        p[x] = p[p[x]];
        x = p[x];
    }
    x
}

/// The locals of `b` that depend on column `col` (their numerator
/// involves it or a local that does; existentials count as dependent).
pub fn dependent_locals(b: &BasicMap, col: usize) -> Vec<bool> {
    let base = b.off_div();
    let nd = b.n_div();
    let mut dep = vec![false; nd];
    for k in 0..nd {
        dep[k] = match &b.divs()[k] {
            Some(d) => {
                !d.num[col].is_zero() || (0..k).any(|j| dep[j] && !d.num[base + j].is_zero())
            }
            None => true,
        };
    }
    dep
}

/// A superset of `b` without the locals marked in `drop` (eliminated by
/// [`fourier_motzkin`]; their definitions' inequalities count as
/// constraints). The other locals keep their definitions, which must not
/// involve dropped ones.
pub fn eliminate_locals(b: &BasicMap, drop: &[bool]) -> BasicMap {
    let base = b.off_div();
    let mut eqs: Vec<Vec<Int>> = b.eqs().to_vec();
    let mut ineqs: Vec<Vec<Int>> = b.ineqs().to_vec();
    // equalities first (exact substitutions), then the column with the
    // fewest lower-upper pairs
    let mut left: Vec<usize> = (0..drop.len())
        .filter(|&k| drop[k])
        .map(|k| base + k)
        .collect();
    while !left.is_empty() {
        let cost = |c: usize| -> usize {
            if eqs.iter().any(|r| !r[c].is_zero()) {
                return 0;
            }
            let lo = ineqs.iter().filter(|r| r[c].is_pos()).count();
            let up = ineqs.iter().filter(|r| r[c].is_neg()).count();
            1 + lo * up
        };
        let k = (0..left.len()).min_by_key(|&k| cost(left[k])).unwrap_or(0);
        let col = left.swap_remove(k);
        fourier_motzkin(&mut eqs, &mut ineqs, col);
    }
    let mut out = BasicMap::universe(b.space().clone());
    for (k, d) in b.divs().iter().enumerate() {
        match d {
            Some(div) if !drop[k] => {
                let len = out.row_len();
                out.add_div(div.num[..len].to_vec(), div.den.clone());
            }
            _ => {
                out.add_existential();
            }
        }
    }
    for r in eqs {
        out.add_eq(r);
    }
    for r in ineqs {
        out.add_ineq(r);
    }
    out.simplify();
    out
}

/// Most lower-upper pairs [`fourier_motzkin`] combines for one column.
const FM_MAX_PAIRS: usize = 64;

/// Eliminate column `col` from the rows: by an equality that involves it
/// (exact), else by Fourier–Motzkin (each lower bound combined with each
/// upper bound: the rational projection, a superset of the integer one).
fn fourier_motzkin(eqs: &mut Vec<Vec<Int>>, ineqs: &mut Vec<Vec<Int>>, col: usize) {
    let reduce = |mut r: Vec<Int>| -> Vec<Int> {
        let g = presburger::int::gcd_slice(&r);
        if !g.is_zero() && !g.is_one() {
            for v in r.iter_mut() {
                *v = v.div_exact(&g);
            }
        }
        r
    };
    // `a·r - b·p` with `a = |p[col]|` and `b = r[col]·sign(p[col])`
    let combine = |r: &[Int], p: &[Int]| -> Vec<Int> {
        let a = p[col].abs();
        let b = if p[col].is_neg() {
            -&r[col]
        } else {
            r[col].clone()
        };
        reduce(
            r.iter()
                .zip(p)
                .map(|(x, y)| &(&a * x) - &(&b * y))
                .collect(),
        )
    };
    if let Some(k) = eqs.iter().position(|r| !r[col].is_zero()) {
        let p = eqs.swap_remove(k);
        for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
            if !r[col].is_zero() {
                *r = combine(r, &p);
            }
        }
        return;
    }
    let (with, mut rest): (Vec<Vec<Int>>, Vec<Vec<Int>>) =
        ineqs.drain(..).partition(|r| !r[col].is_zero());
    let (lower, upper): (Vec<&Vec<Int>>, Vec<&Vec<Int>>) =
        with.iter().partition(|r| r[col].is_pos());
    if lower.len() * upper.len() > FM_MAX_PAIRS {
        // too many combinations: drop the constraints on the column (a
        // weaker superset, but a bounded amount of work)
        *ineqs = rest;
        return;
    }
    for l in &lower {
        for u in &upper {
            // u[col] < 0 < l[col]: |u[col]|·l + l[col]·u
            let a = u[col].abs();
            let b = l[col].clone();
            rest.push(reduce(
                l.iter()
                    .zip(u.iter())
                    .map(|(x, y)| &(&a * x) + &(&b * y))
                    .collect(),
            ));
        }
    }
    *ineqs = rest;
}

/// True if inequality `row` is one of the defining inequalities of a
/// defined division of `b`.
pub fn is_div_def(b: &BasicMap, row: &[Int]) -> bool {
    let base = b.off_div();
    b.divs().iter().enumerate().any(|(k, d)| {
        d.as_ref()
            .is_some_and(|d| d.bounds(base + k).iter().any(|r| r.as_slice() == row))
    })
}

fn small(v: &Int) -> Result<i64> {
    // at most 2^62 in magnitude: negations and the `+ k - 1` of ceilings
    // on such values cannot overflow
    v.to_i64()
        .filter(|x| x.unsigned_abs() <= 1 << 62)
        .ok_or_else(|| Error::Unsupported(format!("coefficient {v} does not fit in 63 bits")))
}

/// Turns rows of a basic map into expressions: parameters by name,
/// dimensions by their current value in `env`, divisions as `floord`.
pub struct RowPrinter<'a> {
    /// Parameter names.
    pub params: &'a [String],
    /// Value of each bound dimension (dimensions beyond are an error).
    pub env: &'a [Expr],
}

impl RowPrinter<'_> {
    /// The terms `(coef, atom)` and the constant of `row`, skipping the
    /// columns for which `skip` is true.
    pub fn terms(
        &self,
        b: &BasicMap,
        row: &[Int],
        skip: &dyn Fn(usize) -> bool,
    ) -> Result<(Vec<(i64, Expr)>, i64)> {
        let np = b.n_param();
        let base = b.off_div();
        let mut terms = Vec::new();
        for (c, v) in row.iter().enumerate().skip(1) {
            if v.is_zero() || skip(c) {
                continue;
            }
            let atom = if c <= np {
                Expr::Var(self.params[c - 1].clone())
            } else if c < base {
                let d = c - 1 - np;
                self.env
                    .get(d)
                    .cloned()
                    .ok_or_else(|| Error::Unsupported(format!("dimension {d} used unbound")))?
            } else {
                let k = c - base;
                let div = b.divs()[k].as_ref().ok_or_else(|| {
                    Error::Unsupported("an existential variable without explicit division".into())
                })?;
                let (t, k0) = self.terms(b, &div.num, &|_| false)?;
                Expr::floord(linear(t, k0), small(&div.den)?)
            };
            terms.push((small(v)?, atom));
        }
        Ok((terms, small(&row[0])?))
    }

    /// `row >= 0` (or `== 0`) as a comparison in isl's style.
    pub fn constraint(&self, b: &BasicMap, row: &[Int], eq: bool) -> Result<Expr> {
        if eq {
            // `num - den*q == 0` with q = floor(num/den): `num % den == 0`
            let base = b.off_div();
            for (k, d) in b.divs().iter().enumerate() {
                let Some(d) = d else { continue };
                let col = base + k;
                if row[col].abs() != d.den {
                    continue;
                }
                let s = if row[col].is_neg() {
                    Int::ONE
                } else {
                    -&Int::ONE
                };
                let same = row
                    .iter()
                    .enumerate()
                    .all(|(c, v)| c == col || *v == &s * &d.num[c]);
                if same {
                    let (t, k0) = self.terms(b, &d.num, &|_| false)?;
                    return Ok(Expr::cmp(
                        CmpOp::Eq,
                        Expr::Mod(Box::new(linear(t, k0)), small(&d.den)?),
                        Expr::Int(0),
                    ));
                }
            }
        }
        let (terms, k) = self.terms(b, row, &|_| false)?;
        let (pos, neg): (Vec<_>, Vec<_>) = terms.into_iter().partition(|(c, _)| *c > 0);
        let neg: Vec<(i64, Expr)> = neg.into_iter().map(|(c, e)| (-c, e)).collect();
        let op = if eq { CmpOp::Eq } else { CmpOp::Ge };
        Ok(if pos.is_empty() {
            let op = if eq { CmpOp::Eq } else { CmpOp::Le };
            Expr::cmp(op, linear(neg, 0), Expr::Int(k))
        } else {
            Expr::cmp(op, linear(pos, 0), linear(neg, -k))
        })
    }

    /// The condition `b` as a conjunction (`None` if it is always true);
    /// the defining inequalities of divisions are left out.
    pub fn conjunction(&self, b: &BasicMap) -> Result<Option<Expr>> {
        let mut acc: Option<Expr> = None;
        let mut seen: Vec<Expr> = Vec::new();
        let mut push = |acc: &mut Option<Expr>, e: Expr| {
            if seen.contains(&e) {
                return;
            }
            seen.push(e.clone());
            *acc = Some(match acc.take() {
                None => e,
                Some(a) => Expr::and(a, e),
            })
        };
        for r in b.eqs() {
            push(&mut acc, self.constraint(b, r, true)?);
        }
        for r in b.ineqs() {
            if is_div_def(b, r) {
                continue;
            }
            push(&mut acc, self.constraint(b, r, false)?);
        }
        Ok(acc)
    }

    /// The condition `m` as a disjunction of conjunctions (`None` if always true).
    pub fn condition(&self, m: &Map) -> Result<Option<Expr>> {
        let parts = explicit(m)?;
        if parts.is_empty() {
            return Ok(Some(Expr::cmp(CmpOp::Eq, Expr::Int(0), Expr::Int(1))));
        }
        let mut acc: Option<Expr> = None;
        let mut seen: Vec<Expr> = Vec::new();
        for b in &parts {
            match self.conjunction(b)? {
                None => return Ok(None),
                Some(e) if seen.contains(&e) => {}
                Some(e) => {
                    seen.push(e.clone());
                    acc = Some(match acc {
                        None => e,
                        Some(a) => Expr::or(a, e),
                    })
                }
            }
        }
        Ok(acc)
    }
}

/// `b` with every local whose rational range over `b` (and the parameter
/// constraints `params`, rows of the same columns) holds a single integer
/// fixed to it by an equality (`floor((4 + i)/262144)` with `1 <= i <= 12`
/// is 0): the engine's simplification then eliminates it.
pub fn fix_locals(b: &BasicMap, params: &[Vec<Int>]) -> Result<BasicMap> {
    use presburger::simplex::{Opt, Tableau};
    let nd = b.n_div();
    if nd == 0 {
        return Ok(b.clone());
    }
    let len = b.row_len();
    let mut t = Tableau::new(len - 1);
    for r in b.eqs() {
        t.add_eq(r)?;
    }
    for r in b.ineqs().iter().chain(params.iter().map(|r| &r[..])) {
        t.add_ineq(r)?;
    }
    if t.is_empty() {
        return Ok(b.clone());
    }
    let mut out = b.clone();
    let mut fixed = false;
    for k in b.off_div()..len {
        let mut row = vec![Int::ZERO; len];
        row[k] = Int::ONE;
        let (Opt::Value(ln, ld), Opt::Value(hn, hd)) = (t.minimize(&row)?, t.maximize(&row)?)
        else {
            continue;
        };
        // ceil(ln/ld) == floor(hn/hd)
        let lo = -(&(-&ln).div_floor(&ld));
        let hi = hn.div_floor(&hd);
        if lo == hi {
            row[0] = -&lo;
            out.add_eq(row);
            fixed = true;
        }
    }
    if fixed {
        out.simplify();
    }
    Ok(out)
}
