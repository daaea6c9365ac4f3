//! Peeling of a first iteration fixed by a part: when one part of a
//! level's domain fixes dimension `l` to a constant `v` that is the least
//! value of the dimension over the whole domain, and other parts also
//! reach `v` (so that the parts are not ordered and would share one loop
//! guarded by `c_l == v` tests), the points with `c_l = v` are scanned
//! first, on their own, then those with `c_l > v` (isl's separation of a
//! single-iteration part).
//!
//! Exactness: `{c_l = v}` and `{c_l >= v + 1}` partition the domain (no
//! point has `c_l < v`, checked), and every value of dimension `l` in the
//! first precedes those of the second.

use super::{Gen, Piece, Stage};
use crate::error::Result;
use crate::expr::Expr;
use crate::node::Node;
use crate::options::LoopKind;
use presburger::{BasicMap, Int, Map};

/// How far past the peeled value the start of the rest is looked for.
const MAX_GAP: i64 = 64;

impl Gen<'_> {
    /// The code of a group with its first iteration peeled (see the module
    /// documentation), or `None` when no part fixes that iteration.
    pub(super) fn peel_fixed_first(
        &self,
        l: usize,
        pieces: &[Piece],
        u: &Map,
        ctx: &Map,
        env: &mut Vec<Expr>,
        kind: LoopKind,
    ) -> Result<Option<Vec<Node>>> {
        let space = u.space().clone();
        let col = self.col(l);
        let region = |v: i64, op: i8| -> Map {
            // op 0: c_l = v; op -1: c_l <= v - 1; op 1: c_l >= v + 1
            let mut b = BasicMap::universe(space.clone());
            let mut row = vec![Int::ZERO; b.row_len()];
            match op {
                0 => {
                    row[col] = Int::ONE;
                    row[0] = Int::from(-v);
                    b.add_eq(row);
                }
                -1 => {
                    row[col] = -Int::ONE;
                    row[0] = Int::from(v - 1);
                    b.add_ineq(row);
                }
                _ => {
                    row[col] = Int::ONE;
                    row[0] = Int::from(-v - 1);
                    b.add_ineq(row);
                }
            }
            Map::from_basic(b)
        };
        // the constants some disjunct of a piece fixes dimension `l` to
        // (by an equality on that dimension alone), with the pieces
        let mut values: Vec<(i64, Vec<&Piece>)> = Vec::new();
        for p in pieces {
            for b in p.set.basic_maps() {
                for r in b.eqs() {
                    let c = &r[col];
                    if c.is_zero()
                        || r[1..]
                            .iter()
                            .enumerate()
                            .any(|(k, x)| k + 1 != col && !x.is_zero())
                    {
                        continue;
                    }
                    let k = -&r[0];
                    if !k.is_divisible_by(c) {
                        continue;
                    }
                    if let Some(v) = k
                        .div_exact(c)
                        .to_i64()
                        .filter(|v| v.unsigned_abs() < 1 << 62)
                    {
                        match values.iter_mut().find(|(w, _)| *w == v) {
                            Some((_, ps)) => {
                                if !ps.iter().any(|q| std::ptr::eq(*q, p)) {
                                    ps.push(p)
                                }
                            }
                            None => values.push((v, vec![p])),
                        }
                    }
                }
            }
        }
        values.sort_unstable_by_key(|(v, _)| *v);
        for (v, fixed) in values {
            // `v` is the least value of the dimension, and a statement
            // fixed there by a disjunct also runs after it (its other
            // disjuncts would share the loop with guards on `c_l == v`;
            // a statement that only runs at `v` keeps its guard)
            if !u.intersect(&region(v, -1))?.is_empty()?
                || u.intersect(&region(v, 0))?.is_empty()?
            {
                continue;
            }
            let after = region(v, 1);
            let mut runs_after = false;
            for p in fixed {
                if !p.set.intersect(ctx)?.intersect(&after)?.is_empty()? {
                    runs_after = true;
                    break;
                }
            }
            if !runs_after {
                continue;
            }
            // the rest starts at the next value taken (e.g. the next tile
            // of a strided dimension), within a few steps
            let mut next = v + 1;
            while next < v + MAX_GAP && u.intersect(&region(next, 0))?.is_empty()? {
                next += 1;
            }
            let mut out = Vec::new();
            for (w, op) in [(v, 0), (next - 1, 1)] {
                let part = region(w, op);
                let proj = self.memo.coalesced(&u.intersect(&part)?)?;
                if proj.basic_maps().is_empty() {
                    // (no point of the group in the context there)
                    continue;
                }
                let mut sub = Vec::new();
                for p in pieces {
                    let set = p.set.intersect(&part)?;
                    if !set.is_empty()? {
                        sub.push(Piece { set, ..p.clone() });
                    }
                }
                if sub.is_empty() {
                    continue;
                }
                out.extend(self.group(l, sub, &[&proj], ctx, env, true, Stage::Kind(kind))?);
            }
            return Ok(Some(out));
        }
        Ok(None)
    }
}
