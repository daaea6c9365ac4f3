//! Statement coordinates given by the schedule: when, in every disjunct of
//! every piece, each coordinate `i_j` (and each padding dimension) is one
//! same affine function of the parameters and the schedule dimensions with
//! a unit coefficient on `i_j` (`S[ii, i, j] -> [0, ii, i, j, 0]`: `i_0 =
//! t_1`, ...), and no two pieces share a schedule time, the scan runs on
//! the schedule dimensions alone: each piece is replaced by its projection
//! onto them and the calls' arguments are the functions, evaluated in the
//! iterators.
//!
//! Exactness: the projection is one-to-one on each piece (the coordinates
//! are functions of the times), so scanning the projections visits every
//! scheduled time of a piece once, and the function gives back its
//! instance. The scan of the whole space would reach the same points in
//! the same order: it orders points of equal schedule times by their
//! coordinates, and there are none (one time holds one instance of one
//! piece; checked per pair of pieces, by a schedule dimension fixed to
//! different constants, else by the emptiness of the projections'
//! intersection). Its levels past the schedule dimensions would be
//! substitutions of these same functions, with no condition (a unit
//! coefficient): the calls are the same. What it saves is those levels
//! and three dimensions less in every set of the others.

use super::{Piece, Scan};
use crate::error::Result;
use crate::expr::{linear, Expr};
use crate::rows::{remap, set_space, RowPrinter};
use presburger::{BasicMap, Int, Map};

/// The reduced scan's calls: per piece (by name), the rows `x_j + f = 0`
/// of its coordinates in the whole scanned space.
pub(super) struct Coords {
    /// A basic set of the whole space (for reading the rows' columns).
    whole: BasicMap,
    rows: Vec<(String, Vec<CoordRow>)>,
}

/// A coordinate's column and its row `x_j + f = 0`.
type CoordRow = (usize, Vec<Int>);

impl Coords {
    /// The arguments of a call of `name` (`None`: not a reduced piece).
    pub(super) fn args(&self, name: &str, pr: &RowPrinter) -> Result<Option<Vec<Expr>>> {
        let Some((_, rows)) = self.rows.iter().find(|(n, _)| n == name) else {
            return Ok(None);
        };
        let mut args = Vec::with_capacity(rows.len());
        for (col, r) in rows {
            // x_j + f = 0 with x_j's own column skipped: x_j = -f
            let (t, k) = pr.terms(&self.whole, r, &|c| c == *col)?;
            let t = t.into_iter().map(|(c, e)| (-c, e)).collect();
            args.push(linear(t, -k));
        }
        Ok(Some(args))
    }
}

/// The scan on the schedule dimensions alone and its calls' arguments, or
/// `None` where some coordinate is not such a function or two pieces may
/// share a time (see the module documentation). `pieces` are the scan's
/// prepared pieces (in the whole space).
pub(super) fn reduce(scan: &Scan, pieces: &[Piece]) -> Result<Option<(Scan, Vec<Piece>, Coords)>> {
    let (d, n) = (scan.n_sched, scan.n);
    if d == n || pieces.is_empty() {
        return Ok(None);
    }
    // unique names: the calls are found by name
    for (k, p) in pieces.iter().enumerate() {
        if pieces[..k].iter().any(|q| q.name == p.name) {
            return Ok(None);
        }
    }
    let first = 1 + scan.params.len();
    let mut rows = Vec::new();
    for p in pieces {
        let Some(fs) = functions(&p.set, first, d, n) else {
            return Ok(None);
        };
        // the call's arguments: the piece's own coordinates
        let own = fs.into_iter().enumerate().map(|(k, r)| (first + d + k, r));
        rows.push((p.name.clone(), own.take(p.n_dom).collect()));
    }
    let space = set_space(&scan.params, d);
    let project = |m: &Map| -> Result<Map> {
        let p = m.project_out(d, n - d)?;
        let mut out = Map::empty(space.clone());
        for b in p.basic_maps() {
            out.add_basic(remap(b, &space, &|c| c))?;
        }
        Ok(out)
    };
    let mut reduced = Vec::with_capacity(pieces.len());
    for p in pieces {
        reduced.push(Piece {
            set: project(&p.set)?,
            ..p.clone()
        });
    }
    let context = project(&scan.context)?;
    // no time shared by two pieces
    for a in 0..reduced.len() {
        for b in 0..a {
            if fixed_apart(&reduced[a].set, &reduced[b].set, first, d) {
                continue;
            }
            if !reduced[a]
                .set
                .intersect(&reduced[b].set)?
                .intersect(&context)?
                .is_empty()?
            {
                return Ok(None);
            }
        }
    }
    let whole = BasicMap::universe(scan.context.space().clone());
    let small = Scan {
        params: scan.params.clone(),
        n_sched: d,
        n: d,
        pieces: reduced.clone(),
        context,
    };
    Ok(Some((small, reduced, Coords { whole, rows })))
}

/// Per dimension `j` in `d..n`, a row `x_j + f = 0` (`f` on the
/// parameters and the first `d` dimensions) that every disjunct of `s`
/// implies by its equalities, or `None`. The candidates are the disjuncts'
/// own such rows, in order (a disjunct may write `x_j = 0` where another
/// writes `x_j = t_1`, and `t_1 = 0` there: the latter is implied by both).
fn functions(s: &Map, first: usize, d: usize, n: usize) -> Option<Vec<Vec<Int>>> {
    let bases: Vec<Vec<(usize, Vec<Int>)>> = s.basic_maps().iter().map(echelon).collect();
    let mut out = Vec::with_capacity(n - d);
    for j in d..n {
        let mut found = None;
        'candidates: for b in s.basic_maps() {
            let base = b.off_div();
            for r in b.eqs() {
                let own = r[first + j].abs().is_one()
                    && (d..n).all(|k| k == j || r[first + k].is_zero())
                    && r[base..].iter().all(Int::is_zero);
                if !own {
                    continue;
                }
                let g: Vec<Int> = if r[first + j].is_neg() {
                    r[..base].iter().map(|v| -v).collect()
                } else {
                    r[..base].to_vec()
                };
                let everywhere = s
                    .basic_maps()
                    .iter()
                    .zip(&bases)
                    .all(|(c, e)| in_span(e, &g, c.row_len()));
                if everywhere {
                    found = Some(g);
                    break 'candidates;
                }
            }
        }
        out.push(found?);
    }
    Some(out)
}

/// The equalities of `b` in echelon form: rows with their pivot column
/// (the first nonzero one), no two with the same pivot, each row zero on
/// the pivots of the rows before it.
fn echelon(b: &BasicMap) -> Vec<(usize, Vec<Int>)> {
    let mut basis: Vec<(usize, Vec<Int>)> = Vec::new();
    for r in b.eqs() {
        let r = reduce_row(&basis, r.to_vec());
        if let Some(p) = r.iter().position(|v| !v.is_zero()) {
            // keep the earlier rows zero on the new pivot too
            for (_, q) in basis.iter_mut() {
                if !q[p].is_zero() {
                    *q = eliminate(q, &r, p);
                }
            }
            basis.push((p, r));
        }
    }
    basis
}

/// `r` with the pivots of `basis` eliminated (a multiple of `r` plus a
/// combination of the basis rows; zero iff `r` is in their span).
fn reduce_row(basis: &[(usize, Vec<Int>)], mut r: Vec<Int>) -> Vec<Int> {
    for (p, q) in basis {
        if !r[*p].is_zero() {
            r = eliminate(&r, q, *p);
        }
    }
    r
}

/// `a·q[p] - q·a[p]`, divided by the gcd of its entries.
fn eliminate(a: &[Int], q: &[Int], p: usize) -> Vec<Int> {
    let (x, y) = (q[p].clone(), a[p].clone());
    let mut out: Vec<Int> = a
        .iter()
        .zip(q)
        .map(|(u, v)| &(u * &x) - &(v * &y))
        .collect();
    let g = presburger::int::gcd_slice(&out);
    if !g.is_zero() && !g.is_one() {
        for v in out.iter_mut() {
            *v = v.div_exact(&g);
        }
    }
    out
}

/// Whether the row `g` (on the columns before the locals) is in the span
/// of the echelon rows `e` (rows of length `len`).
fn in_span(e: &[(usize, Vec<Int>)], g: &[Int], len: usize) -> bool {
    let mut r = g.to_vec();
    r.resize(len, Int::ZERO);
    reduce_row(e, r).iter().all(Int::is_zero)
}

/// Whether some schedule dimension is fixed to a constant in every
/// disjunct of `a` and to another constant in every disjunct of `b` (then
/// no time is in both).
fn fixed_apart(a: &Map, b: &Map, first: usize, d: usize) -> bool {
    (0..d).any(|j| match (fixed(a, first + j), fixed(b, first + j)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    })
}

/// The constant every disjunct of `m` fixes column `col` to by an
/// equality on it alone (with a unit coefficient), if any.
fn fixed(m: &Map, col: usize) -> Option<Int> {
    let mut v: Option<Int> = None;
    for b in m.basic_maps() {
        let r = b.eqs().iter().find(|r| {
            r[col].abs().is_one()
                && r[1..]
                    .iter()
                    .enumerate()
                    .all(|(k, x)| k + 1 == col || x.is_zero())
        })?;
        let c = if r[col].is_neg() {
            r[0].clone()
        } else {
            -&r[0]
        };
        match &v {
            None => v = Some(c),
            Some(w) if *w == c => {}
            Some(_) => return None,
        }
    }
    if m.basic_maps().is_empty() {
        return None;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, Options};

    fn map(s: &str) -> Map {
        s.parse().unwrap()
    }

    #[test]
    fn a_function_written_differently_in_a_disjunct() {
        // [t0, t1, x]: x = t1 everywhere, written `x = 0` where t1 = 0
        let s = map(
            "[N] -> { [t0, t1, x] : t0 = 0 and t1 = 0 and x = 0 and N >= 1; \
                     [t0, t1, x] : t0 = 0 and x = t1 and 1 <= t1 < N }",
        );
        let f = functions(&s, 2, 2, 3).expect("x = t1 in both");
        // x - t1 = 0 (constant, N, t0, t1, x)
        let want: Vec<Int> = [0, 0, 0, -1, 1].iter().map(|&v| Int::from(v)).collect();
        assert_eq!(f, vec![want]);
        // not a function of the times: two values of x at t = (0, 0)
        let t = map("[N] -> { [t0, t1, x] : t0 = 0 and t1 = 0 and 0 <= x <= 1 }");
        assert!(functions(&t, 2, 2, 3).is_none());
        // a function in each disjunct, but not the same one
        let u = map("[N] -> { [t0, t1, x] : t0 = 0 and x = t1 and 0 <= t1 < N; \
                     [t0, t1, x] : t0 = 1 and x = -t1 and 0 <= t1 < N }");
        assert!(functions(&u, 2, 2, 3).is_none());
    }

    #[test]
    fn spans_of_equalities() {
        let s = map("{ [a, b, c] : a = 2b and c = a + b }");
        let b = &s.basic_maps()[0];
        let e = echelon(b);
        let row = |v: &[i64]| -> Vec<Int> { v.iter().map(|&x| Int::from(x)).collect() };
        // c = 3b and 2c = 3a are implied, c = b is not
        assert!(in_span(&e, &row(&[0, 0, 3, -1]), b.row_len()));
        assert!(in_span(&e, &row(&[0, -3, 0, 2]), b.row_len()));
        assert!(!in_span(&e, &row(&[0, 0, 1, -1]), b.row_len()));
        assert!(!in_span(&e, &row(&[1, 0, 0, 0]), b.row_len()));
    }

    fn scan(schedule: &str, context: &str) -> Scan {
        Scan::from_schedule(&schedule.parse().unwrap(), &context.parse().unwrap()).unwrap()
    }

    #[test]
    fn ties_keep_the_whole_space() {
        // two statements at the same times: their order at a time comes
        // from their coordinates, so the scan keeps them
        let tie = scan(
            "[n] -> { S[i] -> [i] : 0 <= i < n; T[i] -> [i] : 0 <= i < n }",
            "[n] -> { : }",
        );
        let p = super::super::prepared_pieces(&tie).unwrap();
        assert!(reduce(&tie, &p).unwrap().is_none());
        // apart by a constant dimension: reduced
        let apart = scan(
            "[n] -> { S[i] -> [i, 0] : 0 <= i < n; T[i] -> [i, 1] : 0 <= i < n }",
            "[n] -> { : }",
        );
        let p = super::super::prepared_pieces(&apart).unwrap();
        let (small, _, _) = reduce(&apart, &p).unwrap().expect("reduced");
        assert_eq!(small.n, 2);
        // apart because their sets do not meet
        let parity = scan(
            "[n] -> { S[i] -> [i] : 0 <= i < 5; T[i] -> [i] : 5 <= i < n }",
            "[n] -> { : }",
        );
        let p = super::super::prepared_pieces(&parity).unwrap();
        assert!(reduce(&parity, &p).unwrap().is_some());
        // not a function: `S[i, j] -> [i]`
        let many = scan("[n] -> { S[i, j] -> [i] : 0 <= i, j < n }", "[n] -> { : }");
        let p = super::super::prepared_pieces(&many).unwrap();
        assert!(reduce(&many, &p).unwrap().is_none());
    }

    /// The reduced scan runs the same instances in the same order as the
    /// scan of the whole space, at every parameter value of a small box.
    #[test]
    fn reduced_and_whole_scans_run_the_same_instances() {
        let cases = [
            (
                "[N, M] -> { S0[ii, i, j] -> [0, ii, i, j, 0] : exists (e0, e1 : ii = 4e0 and \
                 j = 2e1 and 0 <= ii < N and ii <= i <= ii + 3 and i < N and 0 <= j < M and \
                 i - 3 <= j <= i + 3); S1[ii, i, j] -> [0, ii, i, j, 1] : exists (e0, e1 : \
                 ii = 4e0 and i = 2e1 + 1 and 0 <= ii < N and ii <= i <= ii + 3 and i < N and \
                 0 <= j < M and i - 3 <= j <= i); S2[] -> [1, 0, 0, 0, 0]; S3[i] -> [2, i, 0, 0, 0] : \
                 0 <= i < N and (i <= 3 or i >= N - 2); S4[j] -> [3, -j, 0, 0, 0] : \
                 exists (e0 : j = M + 3e0 - 1 and 0 <= j < M) }",
                "[N, M] -> { : N >= 0 and M >= 0 }",
            ),
            (
                "[N, M] -> { S[i, j] -> [j, i + j] : 0 <= i < N and 0 <= j < M; \
                 T[i] -> [i, -1] : 0 <= i < N }",
                "[N, M] -> { : }",
            ),
            (
                "[N, M] -> { S[i, j] -> [i + j, j] : 0 <= i < N and 0 <= j <= i; \
                 T[k] -> [2N, k] : 0 <= k < M }",
                "[N, M] -> { : N >= 1 }",
            ),
        ];
        for (sched, ctx) in cases {
            let s = scan(sched, ctx);
            let p = super::super::prepared_pieces(&s).unwrap();
            assert!(reduce(&s, &p).unwrap().is_some(), "{sched}");
            let options = Options::default();
            let reduced = super::super::generate_scan_reduced(&s, &options, true).unwrap();
            let whole = super::super::generate_scan_reduced(&s, &options, false).unwrap();
            for n in -1..8 {
                for m in -1..7 {
                    let params = [("N".to_string(), n), ("M".to_string(), m)];
                    let a = run(&reduced, &params, 100_000).unwrap();
                    let b = run(&whole, &params, 100_000).unwrap();
                    assert_eq!(a, b, "{sched} at N = {n}, M = {m}:\n{}", reduced.to_c());
                }
            }
        }
    }
}
