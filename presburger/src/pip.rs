//! Parametric integer programming (Feautrier's PIP).
//!
//! Given integer unknowns `u` and parameters `p` with constraints
//! `A·u + B·p + c >= 0` (and equalities), [`solve`] computes the
//! lexicographic minimum of `u` as a function of `p`: a list of pieces, each a
//! *context* (a basic set over the parameters, possibly with new integer
//! divisions of the parameters) and the value of every unknown there as an
//! affine function of the parameters and those divisions. Parameters where
//! no solution exists belong to no piece.
//!
//! Equalities are solved first, over the integers: they define a lattice
//! `u = u0(p, q) + L·z` whose basis `L` is in column echelon form (so the
//! lexicographic order of `z` is that of `u`), with new context divisions
//! `q` where `u0` needs a divisibility condition on the parameters. The
//! tableau then only sees inequalities in `z`.
//!
//! The algorithm is the parametric lexicographic dual simplex:
//! - unknowns are free in sign, so they are shifted by a *big parameter*
//!   `M`: `u = u' - M` with `u' >= 0`. A row constant is a vector over
//!   `(M, 1, p, divs)`; its sign is that of the `M` coefficient when non-zero.
//!   A solution whose value still contains `M` means the minimum is unbounded;
//! - the columns (non-basic unknowns) are kept lexicographically positive with
//!   respect to the rows of `u'`; a row whose constant is negative everywhere
//!   in the context is pivoted with the lexicographically smallest column;
//! - a row whose sign depends on the parameters splits the context into the
//!   part where it is non-negative and the part where it is negative;
//! - when the rational optimum is found but an unknown `u = (c(p) + Σ a_j x_j)/d`
//!   is not integral, a cut is added: the rounding cut `u >= ceil(c/d)` when
//!   every `a_j >= 0` (always true of the first unknown; one pivot then makes
//!   `u` integral), otherwise the Gomory cut `Σ (a_j mod d) x_j >= (-c) mod d`.
//!   Both introduce the context division `floor((-c mod d)/d)` when `c`
//!   depends on the parameters. Rows whose integrality is a condition on the
//!   context alone, then rows needing no new division, are cut first.
//!
//! Rows without unknowns are conditions on the parameters: they join the
//! context before the search instead of splitting it.
//!
//! Signs over the context are decided exactly, cheapest test first: a
//! constant's own sign; known context points (a cache, extended by every
//! search); the rational relaxation of the context, kept as a tableau per
//! context and optimised in place (a negative rational maximum proves "no
//! point", an integral optimal vertex is a point); and only then integer
//! emptiness of the context with one more constraint. A row once proven
//! non-negative is not re-checked until a pivot changes it.
//!
//! Lexmin of a union: each disjunct is solved, then every piece is kept only
//! where no piece of another disjunct is strictly better. Comparisons that
//! the value rows settle alone (no divisions, a constant difference) add no
//! constraint; a piece better wherever both are defined is removed from the
//! other's context in the domain space; contexts with divisions that share
//! no point are never compared.

use crate::basic::{BasicMap, Div};
use crate::budget;
use crate::error::{Error, Result};
use crate::int::{gcd_slice, Int};
use crate::map::Map;
use crate::ops::contains_by_definitions;
use crate::simplex::{Opt, Tableau};
use crate::space::{Space, Tuple};
use std::cmp::Ordering;

/// One piece of a parametric solution.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The context: a basic set whose dimensions are the parameters of the
    /// problem; its locals are the divisions introduced by cuts.
    pub ctx: BasicMap,
    /// For every unknown, its value `row · (1, params, ctx locals) / den`
    /// (exact: the division is exact on the context).
    pub values: Vec<(Vec<Int>, Int)>,
    /// A point of the context (its dimensions, without the locals), when
    /// the search kept one.
    pub sample: Option<Vec<Int>>,
}

/// A parametric integer program: lexmin of the unknowns subject to the
/// constraints, rows laid out `[1 | params | unknowns]`.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Number of parameters.
    pub n_par: usize,
    /// Number of unknowns.
    pub n_unk: usize,
    /// Equalities.
    pub eqs: Vec<Vec<Int>>,
    /// Inequalities.
    pub ineqs: Vec<Vec<Int>>,
    /// The initial context (a basic set with `n_par` dimensions, its params
    /// unused: they are part of the `n_par` dimensions).
    pub ctx: BasicMap,
}

#[derive(Clone, Debug)]
struct Tab {
    /// number of context columns: 1 + n_par + n_div (the constant part without M)
    n_ctx: usize,
    /// row: [d | M | 1 | params | divs | cols...]
    rows: Vec<Vec<Int>>,
    row_unknown: Vec<usize>,
    col_unknown: Vec<usize>,
    /// position of each unknown: Ok(row) or Err(col)
    pos: Vec<std::result::Result<usize, usize>>,
    n_var: usize,
    /// `pos_known[r]`: row `r`'s constant was proven non-negative on the
    /// context. Stays true while the row is unchanged, since contexts only
    /// shrink (splits and cuts restrict them); cleared when a pivot or a
    /// rewrite changes the row.
    pos_known: Vec<bool>,
}

impl Tab {
    fn ncol(&self) -> usize {
        self.col_unknown.len()
    }
    fn cstart(&self) -> usize {
        2 + self.n_ctx
    }

    fn insert_ctx_col(&mut self) {
        let at = 2 + self.n_ctx;
        for r in &mut self.rows {
            r.insert(at, Int::ZERO);
        }
        self.n_ctx += 1;
    }

    /// Add a restricted row expressed over `[M | 1 | params | divs]` (constant)
    /// and the original unknowns `u'`; returns its index.
    fn add_row(&mut self, konst: &[Int], coef: &[Int]) -> usize {
        let cs = self.cstart();
        let mut out = vec![Int::ZERO; cs + self.ncol()];
        out[0] = Int::ONE;
        for (k, v) in konst.iter().enumerate() {
            out[1 + k] = v.clone();
        }
        for (k, a) in coef.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            match self.pos[k] {
                Err(c) => out[cs + c] = &out[cs + c] + &(a * &out[0]),
                Ok(r) => {
                    let src = &self.rows[r];
                    let d1 = out[0].clone();
                    let g = d1.gcd(&src[0]);
                    let m1 = src[0].div_exact(&g);
                    let m2 = &d1.div_exact(&g) * a;
                    out[0] = &d1 * &m1;
                    for j in 1..out.len() {
                        out[j] = Int::combine(&m1, &out[j], &m2, &src[j]);
                    }
                    normalize(&mut out);
                }
            }
        }
        self.push(out)
    }

    fn push(&mut self, row: Vec<Int>) -> usize {
        let u = self.pos.len();
        self.pos.push(Ok(self.rows.len()));
        self.row_unknown.push(u);
        self.rows.push(row);
        self.pos_known.push(false);
        u
    }

    fn pivot(&mut self, r: usize, c: usize) {
        let col = self.cstart() + c;
        // the pivot row becomes the row of the column's unknown, in place:
        // x_c = (d·u_r - c0 - Σ_{j≠c} a_j x_j) / a
        let mut nr = std::mem::take(&mut self.rows[r]);
        let a = nr[col].clone();
        debug_assert!(!a.is_zero());
        let d = std::mem::replace(&mut nr[0], a);
        for v in nr[1..].iter_mut() {
            *v = -&*v;
        }
        nr[col] = d;
        if nr[0].is_neg() {
            nr.iter_mut().for_each(|v| *v = -&*v);
        }
        normalize(&mut nr);
        // substitute it into the other rows, each updated in place:
        // row = (dn·row_without_c + m·nr) / (d_i·dn)
        let dn = &nr[0];
        for i in 0..self.rows.len() {
            if i == r || self.rows[i][col].is_zero() {
                continue;
            }
            let row = &mut self.rows[i];
            let m = std::mem::take(&mut row[col]);
            row[0] = &row[0] * dn;
            for (j, (x, y)) in row.iter_mut().zip(&nr).enumerate().skip(1) {
                if j == col {
                    *x = &m * y;
                } else {
                    x.combine_assign(dn, &m, y);
                }
            }
            normalize(row);
            self.pos_known[i] = false;
        }
        self.rows[r] = nr;
        self.pos_known[r] = false;
        let ur = self.row_unknown[r];
        let uc = self.col_unknown[c];
        self.row_unknown[r] = uc;
        self.col_unknown[c] = ur;
        self.pos[uc] = Ok(r);
        self.pos[ur] = Err(c);
    }

    /// Entry of unknown-variable `i` (an original unknown) in column `c`, as a fraction.
    fn var_entry(&self, i: usize, c: usize) -> (Int, Int) {
        match self.pos[i] {
            Err(cc) => (if cc == c { Int::ONE } else { Int::ZERO }, Int::ONE),
            Ok(r) => (
                self.rows[r][self.cstart() + c].clone(),
                self.rows[r][0].clone(),
            ),
        }
    }

    /// Lexicographic dual simplex pivot column for row `r` (negative constant).
    fn choose_col(&self, r: usize) -> Option<usize> {
        let cs = self.cstart();
        let mut best: Option<usize> = None;
        for c in 0..self.ncol() {
            if !self.rows[r][cs + c].is_pos() {
                continue;
            }
            best = match best {
                None => Some(c),
                Some(b) => {
                    if self.lex_less(r, c, b) {
                        Some(c)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    }

    /// Is column `c` / a_rc lexicographically smaller than column `b` / a_rb?
    fn lex_less(&self, r: usize, c: usize, b: usize) -> bool {
        let cs = self.cstart();
        let arc = &self.rows[r][cs + c];
        let arb = &self.rows[r][cs + b];
        for i in 0..self.n_var {
            let (ec, _) = self.var_entry(i, c);
            let (eb, _) = self.var_entry(i, b);
            // compare ec/arc vs eb/arb (same row denominator cancels)
            let lhs = &ec * arb;
            let rhs = &eb * arc;
            if lhs != rhs {
                return lhs < rhs;
            }
        }
        // identical (cannot happen for independent columns): fall back to index
        self.col_unknown[c] < self.col_unknown[b]
    }
}

fn normalize(row: &mut [Int]) {
    let g = gcd_slice(row);
    if !g.is_zero() && !g.is_one() {
        row.iter_mut().for_each(|v| *v = v.div_exact(&g));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Pos,
    Neg,
    Mixed,
}

struct Ctx {
    bset: BasicMap,
    samples: Vec<Vec<Int>>,
    /// The rational relaxation of `bset` (variables `[vars | divs]`), built on
    /// first use and dropped when a division is added. Queries optimise on it
    /// without copying: the basis moves, the represented polyhedron does not.
    relaxation: Option<Tableau>,
}

impl Ctx {
    /// Is there an integer point of the context with `row · (1, vars, divs) >= 0`?
    fn has(&mut self, row: &[Int]) -> Result<bool> {
        for s in &self.samples {
            if eval(row, s).signum() >= 0 {
                return Ok(true);
            }
        }
        self.search(row)
    }

    /// [`has`](Self::has) for a row that no known point satisfies.
    fn search(&mut self, row: &[Int]) -> Result<bool> {
        // rational test first: `row` takes integer values at integer points,
        // so if its rational maximum is negative there is no integer point;
        // and if the maximising vertex is integral, it is one
        if self.relaxation.is_none() {
            self.relaxation = Some(self.bset.rational_tableau()?);
        }
        let t = self.relaxation.as_mut().expect("built above");
        if t.is_empty() {
            return Ok(false);
        }
        if let Opt::Value(num, _) = t.maximize(row)? {
            if num.is_neg() {
                return Ok(false);
            }
        }
        if let Some(p) = integral_vertex(t) {
            if eval(row, &p).signum() >= 0 {
                self.samples.push(p);
                return Ok(true);
            }
        }
        let b = &self.bset;
        let n = b.space.n_vars() + b.n_div();
        budget::tick(1 + (n * (b.ineqs.len() + 1)) as u64)?;
        match crate::simplex::integer_sample_with(n, &b.eqs, &b.ineqs, Some(row))? {
            Some(p) => {
                self.samples.push(p);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn sign(&mut self, konst: &[Int]) -> Result<Sign> {
        // konst = [M | 1 | vars | divs]
        if konst[0].is_pos() {
            return Ok(Sign::Pos);
        }
        if konst[0].is_neg() {
            return Ok(Sign::Neg);
        }
        let f = &konst[1..];
        // a constant has its own sign (the context is never empty)
        if f[1..].iter().all(Int::is_zero) {
            return Ok(if f[0].is_neg() { Sign::Neg } else { Sign::Pos });
        }
        // known points showing both signs settle it without a search
        let (mut seen_neg, mut seen_pos) = (false, false);
        for s in &self.samples {
            if eval(f, s).is_neg() {
                seen_neg = true;
            } else {
                seen_pos = true;
            }
            if seen_neg && seen_pos {
                return Ok(Sign::Mixed);
            }
        }
        // (no known point has the sign looked for: search directly; a point
        // found for one sign cannot have the other)
        let can_neg = seen_neg || {
            let mut negf: Vec<Int> = f.iter().map(|v| -v).collect();
            negf[0] = &negf[0] - &Int::ONE;
            self.search(&negf)?
        };
        if !can_neg {
            return Ok(Sign::Pos);
        }
        let can_pos = seen_pos || self.search(f)?;
        Ok(if can_pos { Sign::Mixed } else { Sign::Neg })
    }

    fn restrict(&self, row: Vec<Int>) -> Result<Ctx> {
        let mut bset = self.bset.clone();
        bset.ineqs.push(row.clone());
        let samples = self
            .samples
            .iter()
            .filter(|s| eval(&row, s).signum() >= 0)
            .cloned()
            .collect();
        let relaxation = match &self.relaxation {
            Some(t) => {
                let mut t = t.clone();
                t.add_ineq(&row)?;
                Some(t)
            }
            None => None,
        };
        Ok(Ctx {
            bset,
            samples,
            relaxation,
        })
    }
}

/// The tableau's current sample point, if all its coordinates are integers.
fn integral_vertex(t: &Tableau) -> Option<Vec<Int>> {
    (0..t.n_var())
        .map(|k| {
            let (num, den) = t.sample_value(k);
            num.is_divisible_by(&den).then(|| num.div_exact(&den))
        })
        .collect()
}

fn eval(row: &[Int], point: &[Int]) -> Int {
    let mut v = row[0].clone();
    for (a, x) in row[1..].iter().zip(point) {
        if !a.is_zero() {
            v.add_mul(a, x);
        }
    }
    v
}

/// Solve a parametric integer program (lexicographic minimum).
///
/// Equalities are solved over the integers first (see the module documentation);
/// the tableau only ever sees inequalities.
pub fn solve(problem: &Problem) -> Result<Vec<Piece>> {
    let np = problem.n_par;
    if !problem.eqs.is_empty() {
        return solve_equalities(problem);
    }
    // rows [1 | params | unknowns] -> [1 | params | ctx divs | unknowns]
    let nd0 = problem.ctx.n_div();
    let rows = problem
        .ineqs
        .iter()
        .map(|r| {
            let mut o = r[..1 + np].to_vec();
            o.extend(std::iter::repeat_n(Int::ZERO, nd0));
            o.extend_from_slice(&r[1 + np..]);
            o
        })
        .collect();
    solve_ineqs(problem.n_unk, problem.ctx.clone(), rows)
}

/// The equalities `A·u + c(p) = 0` of a problem define the lattice
/// `u = u0(p, q) + L·z` (`z` integer, `q` new context divisions with
/// `d·q = f(p)` making `u0` integral). `L` is brought to column echelon form
/// with positive pivots, so the lexicographic order of `u` is that of `z`:
/// the lexicographic minimum of `z` under the substituted inequalities gives
/// the one of `u`. Unlike pivoting the equalities into a rational tableau,
/// no cut is ever needed for them.
fn solve_equalities(problem: &Problem) -> Result<Vec<Piece>> {
    let n = problem.n_unk;
    let np = problem.n_par;
    let mut ctx = problem.ctx.clone();
    let a_rows: Vec<Vec<Int>> = problem
        .eqs
        .iter()
        .map(|e| {
            let mut r = vec![Int::ZERO];
            r.extend_from_slice(&e[1 + np..]);
            r
        })
        .collect();
    let (u, rank) = crate::simplex::unimodular_split(n, &a_rows);
    // E·U = [H 0], H lower triangular: forward substitution for y = U^-1·u,
    // each y_j an affine function over the context columns [1 | p | divs]
    let mut y: Vec<Vec<Int>> = Vec::with_capacity(rank);
    for e in &problem.eqs {
        let eu = |j: usize| -> Int {
            let mut v = Int::ZERO;
            for (i, a) in e[1 + np..].iter().enumerate() {
                if !a.is_zero() && !u[i][j].is_zero() {
                    v.add_mul(a, &u[i][j]);
                }
            }
            v
        };
        let w = ctx.row_len();
        let mut v = vec![Int::ZERO; w];
        v[..1 + np].clone_from_slice(&e[..1 + np]);
        for (j, yj) in y.iter().enumerate() {
            let c = eu(j);
            if c.is_zero() {
                continue;
            }
            for (k, t) in yj.iter().enumerate() {
                if !t.is_zero() {
                    v[k].add_mul(&c, t);
                }
            }
        }
        let h = if y.len() < rank {
            eu(y.len())
        } else {
            Int::ZERO
        };
        if h.is_zero() {
            // a condition on the parameters alone
            if v[1..].iter().all(Int::is_zero) {
                if !v[0].is_zero() {
                    return Ok(Vec::new());
                }
                continue;
            }
            ctx.eqs.push(v);
            continue;
        }
        // h·y + v = 0
        let (num, den) = if h.is_neg() {
            (v, -&h)
        } else {
            (v.iter().map(|x| -x).collect::<Vec<_>>(), h)
        };
        if num.iter().all(|x| x.is_divisible_by(&den)) {
            y.push(num.iter().map(|x| x.div_exact(&den)).collect());
        } else {
            // y = q = floor(num/den), and num = den·q on the context
            let col = ctx.add_div(num.clone(), den.clone());
            let mut eq = num;
            eq.push(-&den);
            ctx.eqs.push(eq);
            let mut yv = vec![Int::ZERO; col + 1];
            yv[col] = Int::ONE;
            y.push(yv);
        }
    }
    let w = ctx.row_len();
    // u0 = U[:, ..rank]·y and the lattice basis L = echelon(U[:, rank..])
    let u0: Vec<Vec<Int>> = (0..n)
        .map(|i| {
            let mut v = vec![Int::ZERO; w];
            for (j, yj) in y.iter().enumerate() {
                if u[i][j].is_zero() {
                    continue;
                }
                for (k, t) in yj.iter().enumerate() {
                    if !t.is_zero() {
                        v[k].add_mul(&u[i][j], t);
                    }
                }
            }
            v
        })
        .collect();
    let l = column_echelon(u.iter().map(|row| row[rank..].to_vec()).collect());
    let k = n - rank;
    let rows: Vec<Vec<Int>> = problem
        .ineqs
        .iter()
        .map(|r| {
            let mut o = vec![Int::ZERO; w + k];
            o[..1 + np].clone_from_slice(&r[..1 + np]);
            for (i, a) in r[1 + np..].iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for (c, t) in u0[i].iter().enumerate() {
                    if !t.is_zero() {
                        o[c].add_mul(a, t);
                    }
                }
                for j in 0..k {
                    if !l[i][j].is_zero() {
                        o[w + j].add_mul(a, &l[i][j]);
                    }
                }
            }
            o
        })
        .collect();
    let pieces = solve_ineqs(k, ctx, rows)?;
    // u = u0 + L·z on every piece
    Ok(pieces
        .into_iter()
        .map(|p| {
            let width = p.ctx.row_len();
            let mut den = Int::ONE;
            for (_, d) in &p.values {
                den = den.lcm(d);
            }
            let values = (0..n)
                .map(|i| {
                    let mut num: Vec<Int> = u0[i].iter().map(|t| t * &den).collect();
                    num.resize(width, Int::ZERO);
                    for (j, (row, d)) in p.values.iter().enumerate() {
                        if l[i][j].is_zero() {
                            continue;
                        }
                        let m = &l[i][j] * &den.div_exact(d);
                        for (c, t) in row.iter().enumerate() {
                            if !t.is_zero() {
                                num[c].add_mul(&m, t);
                            }
                        }
                    }
                    let g = gcd_slice(&num).gcd(&den);
                    if g.is_one() {
                        (num, den.clone())
                    } else {
                        (
                            num.iter().map(|t| t.div_exact(&g)).collect(),
                            den.div_exact(&g),
                        )
                    }
                })
                .collect();
            Piece {
                ctx: p.ctx,
                values,
                sample: p.sample,
            }
        })
        .collect())
}

/// Unimodular column operations bringing a lattice basis (`n` rows, one
/// column per basis vector, full column rank) to column echelon form: the
/// first non-zero entry of column `t` is positive and lies in a row strictly
/// below that of column `t - 1`. Then `u = L·z` orders `z` as `u`.
fn column_echelon(m: Vec<Vec<Int>>) -> Vec<Vec<Int>> {
    let k = m.first().map_or(0, Vec::len);
    // the same column Euclid as for equalities, on the rows of m
    let rows: Vec<Vec<Int>> = m
        .iter()
        .map(|r| {
            std::iter::once(Int::ZERO)
                .chain(r.iter().cloned())
                .collect()
        })
        .collect();
    let (u, _) = crate::simplex::unimodular_split(k, &rows);
    let mut out: Vec<Vec<Int>> = m
        .iter()
        .map(|r| {
            (0..k)
                .map(|j| {
                    let mut v = Int::ZERO;
                    for (a, row_u) in r.iter().zip(&u) {
                        if !a.is_zero() && !row_u[j].is_zero() {
                            v.add_mul(a, &row_u[j]);
                        }
                    }
                    v
                })
                .collect()
        })
        .collect();
    // positive pivots: negate a column whose first non-zero entry is negative
    for j in 0..k {
        if out
            .iter()
            .find(|r| !r[j].is_zero())
            .is_some_and(|r| r[j].is_neg())
        {
            for r in out.iter_mut() {
                r[j] = -&r[j];
            }
        }
    }
    out
}

/// The core: lexmin of `n` unknowns under inequalities laid out
/// `[1 | params | ctx divs | unknowns]`, in the context `ctx`.
fn solve_ineqs(n: usize, ctx: BasicMap, ineqs: Vec<Vec<Int>>) -> Result<Vec<Piece>> {
    let n_ctx = ctx.row_len();
    let mut tab = Tab {
        n_ctx,
        rows: Vec::new(),
        pos_known: Vec::new(),
        row_unknown: Vec::new(),
        col_unknown: (0..n).collect(),
        pos: (0..n).map(Err).collect(),
        n_var: n,
    };
    // rows without unknowns are conditions on the context: they join it
    // (instead of splitting the search on their sign)
    let (ctx_rows, ineqs): (Vec<Vec<Int>>, Vec<Vec<Int>>) = ineqs
        .into_iter()
        .partition(|r| r[n_ctx..].iter().all(Int::is_zero));
    let mut ctx = ctx;
    ctx.ineqs.extend(ctx_rows.into_iter().map(|mut r| {
        r.truncate(n_ctx);
        r
    }));
    let mut ctx = Ctx {
        bset: ctx,
        samples: Vec::new(),
        relaxation: None,
    };
    // an empty context has no solution (and would make every sign "positive")
    let mut one = vec![Int::ZERO; n_ctx];
    one[0] = Int::ONE;
    if !ctx.has(&one)? {
        return Ok(Vec::new());
    }
    for r in &ineqs {
        // r = [ctx part | unknowns]; u = u' - M  =>  M coefficient = -Σ a
        let mut konst = vec![Int::ZERO; 1 + n_ctx];
        let mut msum = Int::ZERO;
        for a in &r[n_ctx..] {
            msum = &msum + a;
        }
        konst[0] = -&msum;
        konst[1..].clone_from_slice(&r[..n_ctx]);
        tab.add_row(&konst, &r[n_ctx..]);
    }
    let mut out = Vec::new();
    run(tab, ctx, &mut out)?;
    Ok(out)
}

/// Solve every (tableau, context) pair of a work list; a split pushes one
/// half and goes on with the other (no recursion: deep splits cannot
/// overflow the stack).
fn run(tab: Tab, ctx: Ctx, out: &mut Vec<Piece>) -> Result<()> {
    let mut work = vec![(tab, ctx)];
    while let Some((tab, ctx)) = work.pop() {
        run_one(tab, ctx, out, &mut work)?;
    }
    Ok(())
}

fn run_one(
    mut tab: Tab,
    mut ctx: Ctx,
    out: &mut Vec<Piece>,
    work: &mut Vec<(Tab, Ctx)>,
) -> Result<()> {
    let mut iterations = 0usize;
    loop {
        budget::tick(1 + (tab.rows.len() * tab.rows.first().map_or(1, Vec::len)) as u64 / 4)?;
        iterations += 1;
        if iterations > 100_000 {
            return Err(Error::Invalid(
                "parametric integer programming did not converge".into(),
            ));
        }
        // 1. find rows negative everywhere / of mixed sign
        let mut neg_row = None;
        let mut mixed_row = None;
        for r in 0..tab.rows.len() {
            if tab.pos_known[r] {
                continue;
            }
            match ctx.sign(&tab.rows[r][1..2 + tab.n_ctx])? {
                Sign::Pos => tab.pos_known[r] = true,
                Sign::Neg => {
                    neg_row = Some(r);
                    break;
                }
                Sign::Mixed => {
                    if mixed_row.is_none() {
                        mixed_row = Some(r);
                    }
                }
            }
        }
        if let Some(r) = neg_row {
            match tab.choose_col(r) {
                Some(c) => {
                    tab.pivot(r, c);
                    continue;
                }
                None => return Ok(()), // infeasible in this context
            }
        }
        if let Some(r) = mixed_row {
            let f = tab.rows[r][2..2 + tab.n_ctx].to_vec();
            let mut negf: Vec<Int> = f.iter().map(|v| -v).collect();
            negf[0] = &negf[0] - &Int::ONE;
            let pos_ctx = ctx.restrict(f)?;
            let neg_ctx = ctx.restrict(negf)?;
            work.push((tab.clone(), pos_ctx));
            ctx = neg_ctx;
            continue;
        }
        // 2. rational optimum: check boundedness and integrality. Among the
        //    non-integral unknowns, cut first on one whose column coefficients
        //    are integral (its integrality is a condition on the context
        //    alone), then on one whose parametric part is integral (no new
        //    division needed), then on the first one.
        let mut cut_needed: Option<(usize, u8)> = None;
        for i in 0..tab.n_var {
            let Ok(r) = tab.pos[i] else {
                // a column: u' = 0, so u = -M: unbounded
                return Err(Error::Unbounded(format!("unknown {i} has no lower bound")));
            };
            let row = &tab.rows[r];
            if row[1] != row[0] {
                return Err(Error::Unbounded(format!("unknown {i} has no lower bound")));
            }
            let d = &row[0];
            if row[2..2 + tab.n_ctx].iter().all(|v| v.is_divisible_by(d)) {
                continue;
            }
            let cs = tab.cstart();
            let rank = if row[cs..].iter().all(|v| v.is_divisible_by(d)) {
                0
            } else if row[3..2 + tab.n_ctx].iter().all(|v| v.is_divisible_by(d)) {
                1
            } else {
                2
            };
            if cut_needed.is_none_or(|(_, best)| rank < best) {
                cut_needed = Some((r, rank));
            }
            if rank == 0 {
                break;
            }
        }
        let Some((r, _)) = cut_needed else {
            // integral solution
            let mut values = Vec::new();
            for i in 0..tab.n_var {
                let r = tab.pos[i].unwrap();
                let row = &tab.rows[r];
                values.push((row[2..2 + tab.n_ctx].to_vec(), row[0].clone()));
            }
            let nv = ctx.bset.space.n_vars();
            out.push(Piece {
                ctx: ctx.bset.clone(),
                values,
                sample: ctx.samples.first().map(|s| s[..nv].to_vec()),
            });
            return Ok(());
        };
        // 3. A cut on row r, whose value u = (d·M + c(p) + Σ a_j x_j)/d must
        //    be integral (x_j >= 0 are the columns).
        //    - If every a_j >= 0, then u >= c/d on the whole feasible region,
        //      so u >= ceil(c/d) is valid (a rounding cut). Pivoting on it
        //      makes u exactly ceil(c/d): one cut per unknown, and the new
        //      division floor(-c/d) is the natural one.
        //    - Otherwise the Gomory fractional cut Σ (a_j mod d) x_j >= (-c) mod d
        //      (u - floor(c/d) - Σ floor(a_j/d) x_j = frac(c/d) + Σ frac(a_j/d) x_j
        //      is an integer, positive when c/d is not, hence at least 1).
        //    Both have the right-hand side (-c) mod d. With w = -c, w = d·Q + R
        //    where R is w reduced coefficient-wise mod d, and the new context
        //    division is q = floor(R/d); then w mod d = R - d·q, in [0, d).
        let d = tab.rows[r][0].clone();
        let cs = tab.cstart();
        let rounding = tab.rows[r][cs..].iter().all(|v| !v.is_neg());
        let reduced: Vec<Int> = tab.rows[r][2..2 + tab.n_ctx]
            .iter()
            .map(|v| (-v).mod_floor(&d))
            .collect();
        let mut rem = reduced;
        if rem[1..].iter().any(|v| !v.is_zero()) {
            let q_col = add_ctx_div(&mut tab, &mut ctx, &rem, &d);
            rem.push(Int::ZERO); // the column of q, when it is new
            rem.truncate(tab.n_ctx);
            rem[q_col] = &rem[q_col] - &d;
        } // else R is a constant in [0, d): q = 0
        let mut rem_pos = rem.clone();
        rem_pos[0] = &rem_pos[0] - &Int::ONE;
        if !ctx.has(&rem_pos)? {
            // w mod d = 0 on the context, so c is a multiple of d there:
            // rewrite the row constant as c + (R - d·q)
            tab.pos_known[r] = false;
            let row = &mut tab.rows[r];
            for k in 0..tab.n_ctx {
                let v = &row[2 + k] + &rem[k];
                row[2 + k] = v;
            }
            continue;
        }
        let cs = tab.cstart();
        let mut cut = vec![Int::ZERO; tab.rows[r].len()];
        cut[0] = d.clone();
        for k in 0..tab.n_ctx {
            cut[2 + k] = -&rem[k];
        }
        for j in 0..tab.ncol() {
            let a = &tab.rows[r][cs + j];
            cut[cs + j] = if rounding { a.clone() } else { a.mod_floor(&d) };
        }
        normalize(&mut cut);
        tab.push(cut);
    }
}

/// Add (or find) the context division `floor(c / d)`; returns its index in the
/// constant part `[1 | params | divs]`.
fn add_ctx_div(tab: &mut Tab, ctx: &mut Ctx, c: &[Int], d: &Int) -> usize {
    let b = &mut ctx.bset;
    let off = b.off_div();
    for (k, div) in b.divs.iter().enumerate() {
        if let Some(div) = div {
            if &div.den == d && div.num[..] == c[..] {
                return off + k;
            }
        }
    }
    let col = b.add_div(c.to_vec(), d.clone());
    ctx.relaxation = None; // a new variable: rebuilt on the next query
    tab.insert_ctx_col();
    // extend cached samples with the div value
    for s in &mut ctx.samples {
        let v = eval(c, s).div_floor(d);
        s.push(v);
    }
    debug_assert_eq!(col, tab.n_ctx - 1);
    col
}

/// Build a problem from a basic map: parameters are the first `n_par`
/// variables `[params | in | ...]`, unknowns the rest (including all locals,
/// in order). With `max`, unknowns are negated (lexmax).
fn problem_of(b: &BasicMap, n_par: usize, max: bool) -> Problem {
    let total = b.row_len() - 1;
    let conv = |r: &Vec<Int>| -> Vec<Int> {
        let mut out = r.clone();
        if max {
            for v in out[1 + n_par..].iter_mut() {
                *v = -&*v;
            }
        }
        out
    };
    let np_space = b.space.n_param();
    let ctx_space = Space::set(b.space.params.clone(), Tuple::anonymous(n_par - np_space));
    Problem {
        n_par,
        n_unk: total - n_par,
        eqs: b.eqs.iter().map(conv).collect(),
        ineqs: b.ineqs.iter().map(conv).collect(),
        ctx: BasicMap::universe(ctx_space),
    }
}

/// Lexicographic optimum of a map (per domain point) or set (per parameter value).
pub fn lexopt_map(m: &Map, max: bool) -> Result<Map> {
    let np = m.space.n_param() + m.space.n_in();
    let no = m.space.n_out();
    if np == 0 {
        return lexopt_points(m, max, |b| {
            let prob = problem_of(b, 0, max);
            // without parameters a solution is one piece of constants
            let Some(p) = solve(&prob)?.into_iter().next() else {
                return Ok(None);
            };
            if p.values[..no]
                .iter()
                .any(|(row, _)| row[1..].iter().any(|v| !v.is_zero()))
            {
                return lexopt_point(b, max); // not expected: divisions of constants
            }
            Ok(Some(
                p.values[..no]
                    .iter()
                    .map(|(row, den)| {
                        let v = row[0].div_exact(den);
                        if max {
                            -v
                        } else {
                            v
                        }
                    })
                    .collect(),
            ))
        });
    }
    let mut pieces: Vec<(BasicMap, Vec<(Vec<Int>, Int)>)> = Vec::new();
    let mut samples: Vec<Option<Vec<Int>>> = Vec::new();
    // the disjunct each piece comes from: pieces of one disjunct have
    // disjoint contexts, so they never need comparing
    let mut origin: Vec<usize> = Vec::new();
    for (k, b) in m.parts.iter().enumerate() {
        let mut b = b.clone();
        // a rationally empty disjunct is dropped by one LP (much cheaper than
        // letting the parametric search discover it on every context branch)
        if !b.simplify() || b.is_rationally_empty()? {
            continue;
        }
        let prob = problem_of(&b, np, max);
        for p in solve(&prob)? {
            let mut vals = p.values;
            vals.truncate(no);
            if max {
                for (row, _) in vals.iter_mut() {
                    row.iter_mut().for_each(|v| *v = -&*v);
                }
            }
            pieces.push((p.ctx, vals));
            samples.push(p.sample);
            origin.push(k);
        }
    }
    if m.parts.len() <= 1 || pieces.len() <= 1 {
        let parts = pieces
            .iter()
            .map(|(ctx, vals)| piece_to_basic(&m.space, ctx, vals))
            .collect();
        return Ok(Map {
            space: m.space.clone(),
            parts,
        });
    }
    // several disjuncts: keep, for every candidate, the points where no other
    // candidate is strictly better (candidates are functions of the domain,
    // so "better" is a condition on the domain with explicit divisions only)
    let np = m.space.n_param() + m.space.n_in();
    let mut out = Map::empty(m.space.clone());
    // whether two pieces' contexts share a point (symmetric, tested at most
    // once per pair, in the small space of the domain)
    let n = pieces.len();
    let mut meet: Vec<Option<bool>> = vec![None; n * n];
    let mut contexts_meet = |a: usize, b: usize| -> Result<bool> {
        let k = a.min(b) * n + a.max(b);
        if let Some(v) = meet[k] {
            return Ok(v);
        }
        // a known point of one context that lies in the other settles it
        let shared = |x: usize, y: usize| {
            samples[x]
                .as_ref()
                .is_some_and(|p| contains_by_definitions(&pieces[y].0, p) == Some(true))
        };
        let v = shared(a, b) || shared(b, a) || !pieces[a].0.intersect(&pieces[b].0)?.is_empty()?;
        meet[k] = Some(v);
        Ok(v)
    };
    for (a, (ctx_a, vals_a)) in pieces.iter().enumerate() {
        let base = piece_to_basic(&m.space, ctx_a, vals_a);
        // where b is better wherever both are defined, a keeps the points of
        // its context outside b's: that difference is taken in the domain
        // space (`dom`), the conditional ones on the graph (`worse_list`)
        let mut dom = Map::from_basic(ctx_a.clone());
        let mut dominating: Vec<usize> = Vec::new();
        let mut worse_list: Vec<Map> = Vec::new();
        for (b, (ctx_b, vals_b)) in pieces.iter().enumerate() {
            if origin[a] == origin[b] {
                continue;
            }
            // b is better than a at `level` if it is equal at the levels
            // before and strictly better there; levels whose comparison the
            // rows decide alone need no constraint (equal), end the list
            // (b never better from here on) or end it with an unconditional
            // disjunct (b better wherever the earlier levels are equal)
            let mut worse = Map::empty(m.space.clone());
            let mut eq_levels = Vec::new();
            let mut everywhere = false;
            for level in 0..vals_a.len() {
                match const_cmp(&vals_a[level], &vals_b[level], np) {
                    Some(Ordering::Equal) => continue,
                    Some(o) => {
                        if (o == Ordering::Greater) == max {
                            if eq_levels.is_empty() {
                                everywhere = true;
                            } else {
                                worse.parts.push(better_at_level(
                                    &base, np, ctx_b, vals_b, &eq_levels, None, max,
                                ));
                            }
                        }
                        break;
                    }
                    None => {
                        worse.parts.push(better_at_level(
                            &base,
                            np,
                            ctx_b,
                            vals_b,
                            &eq_levels,
                            Some(level),
                            max,
                        ));
                        eq_levels.push(level);
                    }
                }
            }
            // (the test pays when divisions are involved: the subtraction
            // below would build and simplify them before finding out)
            let with_divs = ctx_a.n_div() + ctx_b.n_div() > 0;
            if !everywhere && worse.parts.is_empty() || with_divs && !contexts_meet(a, b)? {
                continue;
            }
            if everywhere {
                dom = dom.subtract(&Map::from_basic(ctx_b.clone()))?;
                dominating.push(b);
                if dom.parts.is_empty() {
                    break;
                }
            } else {
                worse_list.push(worse);
            }
        }
        // the graph of a over what is left of its domain: each part of
        // `dom` is attached like a context (all its locals are divisions
        // after a subtraction; otherwise subtract on the graph instead)
        let mut cur = if dominating.is_empty() {
            Map::from_basic(base)
        } else if dom.parts.iter().all(|d| d.divs.iter().all(Option::is_some)) {
            Map {
                space: m.space.clone(),
                parts: dom
                    .parts
                    .iter()
                    .map(|d| better_at_level(&base, np, d, &[], &[], None, max))
                    .collect(),
            }
        } else {
            worse_list.extend(dominating.iter().map(|&b| Map {
                space: m.space.clone(),
                parts: vec![better_at_level(
                    &base,
                    np,
                    &pieces[b].0,
                    &[],
                    &[],
                    None,
                    max,
                )],
            }));
            Map::from_basic(base)
        };
        for worse in &worse_list {
            if cur.parts.is_empty() {
                break;
            }
            cur = cur.subtract(worse)?;
        }
        out.parts.extend(cur.parts);
    }
    Ok(out)
}

/// The optimum of a map without parameters or input dimensions: the optimum
/// of each disjunct by `opt`, then the best of them.
fn lexopt_points(
    m: &Map,
    max: bool,
    opt: impl Fn(&BasicMap) -> Result<Option<Vec<Int>>>,
) -> Result<Map> {
    let mut best: Option<Vec<Int>> = None;
    for b in &m.parts {
        let mut b = b.clone();
        if !b.simplify() {
            continue;
        }
        if let Some(p) = opt(&b)? {
            let better = match &best {
                None => true,
                Some(q) => {
                    if max {
                        p > *q
                    } else {
                        p < *q
                    }
                }
            };
            if better {
                best = Some(p);
            }
        }
    }
    let mut out = Map::empty(m.space.clone());
    if let Some(p) = best {
        let mut b = BasicMap::universe(m.space.clone());
        for (k, v) in p.iter().enumerate() {
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1 + k] = Int::ONE;
            row[0] = -v;
            b.eqs.push(row);
        }
        out.parts.push(b);
    }
    Ok(out)
}

/// The lexicographic optimum of a set or map without parameters or input
/// dimensions by the simple method: binary search on each coordinate between
/// its rational bounds with exact integer feasibility tests. Slower than
/// [`lexopt_map`] (which runs the dual simplex with cuts); kept as its
/// independent oracle in tests.
pub fn lexopt_by_search(m: &Map, max: bool) -> Result<Map> {
    lexopt_points(m, max, |b| lexopt_point(b, max))
}

/// The lexicographic optimum of the dimensions of a basic set without
/// parameters, or `None` if it is empty.
pub fn lexopt_point(b: &BasicMap, max: bool) -> Result<Option<Vec<Int>>> {
    use crate::simplex::{integer_sample, Opt};
    let mut b = b.clone();
    if !b.simplify() {
        return Ok(None);
    }
    let nv = b.row_len() - 1;
    let feasible =
        |b: &BasicMap| -> Result<bool> { Ok(integer_sample(nv, &b.eqs, &b.ineqs)?.is_some()) };
    if !feasible(&b)? {
        return Ok(None);
    }
    let no = b.space.n_out();
    let off = 1 + b.space.n_param() + b.space.n_in();
    let mut point = Vec::with_capacity(no);
    for k in 0..no {
        // objective: y_k (min) or -y_k (max), minimized
        let mut obj = vec![Int::ZERO; nv + 1];
        obj[off + k] = if max { Int::from(-1) } else { Int::ONE };
        let mut t = b.rational_tableau()?;
        let lo = match t.clone().minimize(&obj)? {
            Opt::Value(n, d) => n.div_ceil(&d),
            Opt::Unbounded => {
                return Err(Error::Unbounded(format!(
                    "dimension {k} has no {} bound",
                    if max { "upper" } else { "lower" }
                )))
            }
        };
        // smallest v >= lo with an integer point where obj <= v
        let with_bound = |v: &Int| -> BasicMap {
            let mut c = b.clone();
            let mut row: Vec<Int> = obj.iter().map(|x| -x).collect();
            row[0] = v.clone();
            c.ineqs.push(row);
            c
        };
        let mut hi = match t.maximize(&obj)? {
            Opt::Value(n, d) => n.div_floor(&d),
            Opt::Unbounded => {
                let mut step = Int::ONE;
                let mut v = lo.clone();
                loop {
                    budget::tick(1)?;
                    if feasible(&with_bound(&v))? {
                        break v;
                    }
                    v = &v + &step;
                    step = &step * &Int::from(2);
                }
            }
        };
        let mut lo = lo;
        while lo < hi {
            budget::tick(1)?;
            let mid = (&lo + &hi).div_floor(&Int::from(2));
            if feasible(&with_bound(&mid))? {
                hi = mid;
            } else {
                lo = &mid + &Int::ONE;
            }
        }
        let v = if max { -&lo } else { lo };
        let mut row = vec![Int::ZERO; nv + 1];
        row[off + k] = Int::ONE;
        row[0] = -&v;
        b.eqs.push(row);
        point.push(v);
    }
    Ok(Some(point))
}

/// The comparison of two values `row / den` over `[1 | params | divs]` when it
/// is the same at every point: both free of divisions and differing by a
/// constant. `Some(b.cmp(a))`, or `None` when it depends on the point.
fn const_cmp(a: &(Vec<Int>, Int), b: &(Vec<Int>, Int), np: usize) -> Option<Ordering> {
    let ((ra, da), (rb, db)) = (a, b);
    if ra[1 + np..]
        .iter()
        .chain(&rb[1 + np..])
        .any(|v| !v.is_zero())
    {
        return None;
    }
    // rb/db - ra/da has the sign of da·rb - db·ra (positive denominators)
    if (1..1 + np).any(|k| &ra[k] * db != &rb[k] * da) {
        return None;
    }
    Some((&rb[0] * da).cmp(&(&ra[0] * db)))
}

/// `{ (x, y) in base : x in ctx_b, y_l = vals_b(x)_l for l in eq_levels, and
/// vals_b(x) strictly better than y at `strict` }` (no strict condition when
/// `strict` is `None`).
fn better_at_level(
    base: &BasicMap,
    np: usize,
    ctx_b: &BasicMap,
    vals_b: &[(Vec<Int>, Int)],
    eq_levels: &[usize],
    strict: Option<usize>,
    max: bool,
) -> BasicMap {
    let mut b = base.clone();
    // append ctx_b's divisions (in order), mapping [1 | x | q_b] into b's layout
    let mut qcols: Vec<usize> = Vec::new();
    let map_row = |r: &[Int], qcols: &[usize], len: usize| -> Vec<Int> {
        let mut out = vec![Int::ZERO; len];
        for (k, v) in r.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            let t = if k < 1 + np { k } else { qcols[k - 1 - np] };
            out[t] = &out[t] + v;
        }
        out
    };
    for d in ctx_b.divs.iter() {
        let d = d.as_ref().expect("context divisions are defined");
        let num = map_row(&d.num[..1 + np + qcols.len()], &qcols, b.row_len());
        let col = b.add_div(num, d.den.clone());
        qcols.push(col);
    }
    let len = b.row_len();
    for e in &ctx_b.eqs {
        b.eqs.push(map_row(e, &qcols, len));
    }
    for e in &ctx_b.ineqs {
        b.ineqs.push(map_row(e, &qcols, len));
    }
    let off_y = 1 + np;
    for &l in eq_levels.iter().chain(&strict) {
        let (row, den) = &vals_b[l];
        // f = row(x, q_b); y'_l = f / den; diff = den·y_l - f
        let f = map_row(row, &qcols, len);
        let mut diff: Vec<Int> = f.iter().map(|v| -v).collect();
        diff[off_y + l] = &diff[off_y + l] + den;
        if Some(l) != strict {
            b.eqs.push(diff);
        } else {
            // lexmin: y'_l <= y_l - 1  <=>  den·y_l - f - den >= 0
            // lexmax: y'_l >= y_l + 1  <=>  f - den·y_l - den >= 0
            if max {
                diff.iter_mut().for_each(|v| *v = -&*v);
            }
            diff[0] = &diff[0] - den;
            b.ineqs.push(diff);
        }
    }
    b
}

/// The basic map `{ x -> y : x in ctx, y = values(x) }` in `space`.
fn piece_to_basic(space: &Space, ctx: &BasicMap, vals: &[(Vec<Int>, Int)]) -> BasicMap {
    // ctx rows: [1 | params | in | ctx divs]; target: [1 | params | in | out | divs]
    let np = space.n_param() + space.n_in();
    let no = space.n_out();
    let nd = ctx.n_div();
    let mut b = BasicMap::universe(space.clone());
    b.insert_cols(b.row_len(), nd);
    b.divs = vec![None; nd];
    let map_row = |r: &[Int]| -> Vec<Int> {
        let mut out = vec![Int::ZERO; 1 + np + no + nd];
        for (k, v) in r.iter().enumerate() {
            let t = if k < 1 + np { k } else { k + no };
            out[t] = v.clone();
        }
        out
    };
    for (k, d) in ctx.divs.iter().enumerate() {
        b.divs[k] = d.as_ref().map(|d| Div {
            num: map_row(&d.num),
            den: d.den.clone(),
        });
    }
    b.eqs = ctx.eqs.iter().map(|r| map_row(r)).collect();
    b.ineqs = ctx.ineqs.iter().map(|r| map_row(r)).collect();
    for (i, (row, den)) in vals.iter().enumerate() {
        // den·y_i - row = 0
        let mut r: Vec<Int> = map_row(row).iter().map(|v| -v).collect();
        r[1 + np + i] = den.clone();
        let g = gcd_slice(&r);
        if !g.is_one() && !g.is_zero() {
            r.iter_mut().for_each(|v| *v = v.div_exact(&g));
        }
        b.eqs.push(r);
    }
    b
}

/// Make every existential of `b` explicit: returns basic maps whose union is
/// `b` and whose locals all have definitions.
pub fn explicit_divs(b: &BasicMap) -> Result<Vec<BasicMap>> {
    // classify locals: unknowns are undefined ones and defined ones depending on them
    let nv = b.space.n_vars();
    let off = b.off_div();
    let nd = b.n_div();
    let mut unknown = vec![false; nd];
    for k in 0..nd {
        unknown[k] = match &b.divs[k] {
            None => true,
            Some(d) => (0..nd).any(|j| unknown[j] && !d.num[off + j].is_zero()),
        };
    }
    // a defined local that refers to a later unknown (unordered) counts as unknown
    let mut changed = true;
    while changed {
        changed = false;
        for k in 0..nd {
            if !unknown[k] {
                if let Some(d) = &b.divs[k] {
                    if (0..nd).any(|j| unknown[j] && !d.num[off + j].is_zero()) {
                        unknown[k] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    let params: Vec<usize> = (0..nd).filter(|&k| !unknown[k]).collect();
    let unks: Vec<usize> = (0..nd).filter(|&k| unknown[k]).collect();
    let n_par = nv + params.len();
    // reorder columns: [1 | vars | param locals | unknown locals]
    let mut perm = vec![0usize; b.row_len()];
    for c in 0..=nv {
        perm[c] = c;
    }
    for (i, &k) in params.iter().enumerate() {
        perm[off + k] = 1 + nv + i;
    }
    for (i, &k) in unks.iter().enumerate() {
        perm[off + k] = 1 + n_par + i;
    }
    let reorder = |r: &Vec<Int>| -> Vec<Int> {
        let mut out = vec![Int::ZERO; r.len()];
        for (c, v) in r.iter().enumerate() {
            out[perm[c]] = v.clone();
        }
        out
    };
    let eqs: Vec<Vec<Int>> = b.eqs.iter().map(reorder).collect();
    let ineqs: Vec<Vec<Int>> = b.ineqs.iter().map(reorder).collect();
    // the context: params are [vars | param locals], with the param locals' definitions
    // expressed as constraints (they are determined by the vars)
    let ctx_space = Space::set(
        b.space.params.clone(),
        Tuple::anonymous(n_par - b.space.n_param()),
    );
    let mut ctx = BasicMap::universe(ctx_space);
    for &k in &params {
        if let Some(d) = &b.divs[k] {
            let num = reorder(&d.num)[..1 + n_par].to_vec();
            let col = 1 + nv + params.iter().position(|&x| x == k).unwrap();
            ctx.ineqs.extend(
                Div {
                    num,
                    den: d.den.clone(),
                }
                .bounds(col),
            );
        }
    }
    let prob = Problem {
        n_par,
        n_unk: unks.len(),
        eqs,
        ineqs,
        ctx,
    };
    let pieces = solve(&prob)?;
    let mut out = Vec::new();
    for p in pieces {
        // result locals: [param locals | cut divs | unknown locals]
        let ncut = p.ctx.n_div();
        let mut r = BasicMap::universe(b.space.clone());
        let n_loc = params.len() + ncut + unks.len();
        r.insert_cols(r.row_len(), n_loc);
        r.divs = vec![None; n_loc];
        let len = 1 + nv + n_loc;
        // ctx rows are [1 | vars | param locals | cuts]: identity layout prefix
        let pad = |row: &[Int]| -> Vec<Int> {
            let mut o = row.to_vec();
            o.resize(len, Int::ZERO);
            o
        };
        for (i, &k) in params.iter().enumerate() {
            let d = b.divs[k].as_ref().unwrap();
            let num = reorder(&d.num);
            r.divs[i] = Some(Div {
                num: pad(&num[..1 + n_par]),
                den: d.den.clone(),
            });
        }
        for (j, d) in p.ctx.divs.iter().enumerate() {
            let d = d.as_ref().expect("cut divisions are defined");
            r.divs[params.len() + j] = Some(Div {
                num: pad(&d.num),
                den: d.den.clone(),
            });
        }
        for (i, (row, den)) in p.values.iter().enumerate() {
            r.divs[params.len() + ncut + i] = Some(Div {
                num: pad(row),
                den: den.clone(),
            });
            // den·u - row = 0
            let mut e: Vec<Int> = pad(row).iter().map(|v| -v).collect();
            e[1 + nv + params.len() + ncut + i] = den.clone();
            r.eqs.push(e);
        }
        for e in &p.ctx.eqs {
            r.eqs.push(pad(e));
        }
        for e in &p.ctx.ineqs {
            r.ineqs.push(pad(e));
        }
        // the original constraints, with unknown locals moved after the cuts
        let shift = |row: &Vec<Int>| -> Vec<Int> {
            let mut o = vec![Int::ZERO; len];
            for (c, v) in row.iter().enumerate() {
                let t = if c <= n_par { c } else { c + ncut };
                o[t] = v.clone();
            }
            o
        };
        for e in &prob.eqs {
            r.eqs.push(shift(e));
        }
        for e in &prob.ineqs {
            r.ineqs.push(shift(e));
        }
        if r.simplify() {
            out.push(r);
        }
    }
    Ok(out)
}
