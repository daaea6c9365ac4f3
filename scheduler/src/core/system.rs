//! The integer program of one band row: the variable layout of a node
//! (parameter coefficients, the distance bound, per statement its
//! coefficients split into non-negative halves) and the Farkas systems of
//! validity, proximity and zero distance over it.

use super::{same_dep, Sched};
use crate::deps::Dep;
use crate::error::Result;
use crate::farkas::{nonneg_on, Lin, System};
use crate::live::Live;
use crate::tree::Row;
use presburger::Int;

/// Variable layout of one node: `[u (np) | w | per statement: d (np), (c-, c+) per dim
/// from the last dim, c0 | extra]`.
pub(super) struct Layout {
    pub(super) np: usize,
    pub(super) stmts: Vec<usize>,
    off: Vec<usize>,
    pub(super) n_core: usize,
}

impl Layout {
    pub(super) fn new(np: usize, stmts: &[usize], dims: &[usize], lead: usize) -> Layout {
        let mut off = Vec::new();
        let mut at = lead + np + 1;
        for &s in stmts {
            off.push(at);
            at += np + 2 * dims[s] + 1;
        }
        Layout {
            np,
            stmts: stmts.to_vec(),
            off,
            n_core: at,
        }
    }
    pub(super) fn blk(&self, s: usize) -> usize {
        self.off[self
            .stmts
            .iter()
            .position(|&t| t == s)
            .expect("statement in layout")]
    }
    pub(super) fn cplus(&self, s: usize, d: usize, k: usize) -> usize {
        self.blk(s) + self.np + 2 * (d - 1 - k) + 1
    }
    pub(super) fn cminus(&self, s: usize, d: usize, k: usize) -> usize {
        self.blk(s) + self.np + 2 * (d - 1 - k)
    }
    pub(super) fn c0(&self, s: usize, d: usize) -> usize {
        self.blk(s) + self.np + 2 * d
    }
}

pub(super) fn unit(nv: usize, k: usize, c: i128) -> Lin {
    let mut l = vec![0; nv + 1];
    l[1 + k] = c;
    l
}

impl Sched<'_> {
    /// The distance `φ_dst(y) - φ_src(x)` as a form over the piece's columns.
    pub(super) fn delta(&self, lay: &Layout, dep: &Dep, nv: usize, sign: i128) -> Vec<Lin> {
        let p = &dep.piece;
        let mut f = vec![vec![0i128; nv + 1]; p.row_len()];
        let (ds, dt) = (self.dims[dep.src], self.dims[dep.dst]);
        let add = |f: &mut Vec<Lin>, col: usize, var: usize, c: i128| f[col][1 + var] += c * sign;
        for (s, d, off, sg) in [(dep.dst, dt, p.off_out(), 1), (dep.src, ds, p.off_in(), -1)] {
            add(&mut f, 0, lay.c0(s, d), sg);
            for q in 0..self.np {
                add(&mut f, 1 + q, lay.blk(s) + q, sg);
            }
            for k in 0..d {
                add(&mut f, off + k, lay.cplus(s, d, k), sg);
                add(&mut f, off + k, lay.cminus(s, d, k), -sg);
            }
        }
        f
    }

    pub(super) fn farkas(&self, dep: &Dep, f: &[Lin], nv: usize) -> Result<System> {
        nonneg_on(&dep.piece, f, nv)
    }

    /// Sign and bound constraints of the core variables.
    pub(super) fn core_bounds(&self, lay: &Layout, nv: usize, sys: &mut System) {
        for k in 0..lay.n_core {
            sys.ineq(&unit(nv, k, 1));
        }
        let c = self.opts.max_coefficient as i128;
        for &s in &lay.stmts {
            let d = self.dims[s];
            for k in 0..d {
                for v in [lay.cplus(s, d, k), lay.cminus(s, d, k)] {
                    let mut r = unit(nv, v, -1);
                    r[0] = c;
                    sys.ineq(&r);
                }
            }
        }
    }

    pub(super) fn rows_of(&self, lay: &Layout, sol: &[Int]) -> Vec<Row> {
        lay.stmts
            .iter()
            .map(|&s| {
                let d = self.dims[s];
                let mut r = vec![sol[lay.c0(s, d)].clone()];
                for q in 0..self.np {
                    r.push(sol[lay.blk(s) + q].clone());
                }
                for k in 0..d {
                    r.push(&sol[lay.cplus(s, d, k)] - &sol[lay.cminus(s, d, k)]);
                }
                r
            })
            .collect()
    }

    /// The layout, the base system (validity, proximity bounds) and the extra
    /// systems for parallelism: zero distance on validity and coincidence, then
    /// on coincidence only.
    pub(super) fn systems(
        &self,
        stmts: &[usize],
        live: &Live,
    ) -> Result<(Layout, System, Vec<System>)> {
        self.systems_with(stmts, live, true)
    }

    /// [`Self::systems`]; `zero`: with the first extra system (zero distance
    /// on validity and coincidence), else without it (known infeasible).
    pub(super) fn systems_with(
        &self,
        stmts: &[usize],
        live: &Live,
        zero: bool,
    ) -> Result<(Layout, System, Vec<System>)> {
        let lay = Layout::new(self.np, stmts, &self.dims, 0);
        let nv = lay.n_core;
        let mut base = System::default();
        // validity, coincidence and proximity are often the same pieces, and
        // the bounded validity the proximity's bound: each system once
        let known: std::cell::RefCell<Vec<(Dep, Vec<Lin>, System)>> = Default::default();
        let add = |sys: &mut System, d: &Dep, f: &[Lin]| -> Result<()> {
            let hit = known
                .borrow()
                .iter()
                .find(|(e, g, _)| g.as_slice() == f && same_dep(e, d))
                .map(|(_, _, s)| s.clone());
            let s = match hit {
                Some(s) => s,
                None => {
                    let s = self.farkas(d, f, nv)?;
                    known.borrow_mut().push((d.clone(), f.to_vec(), s.clone()));
                    s
                }
            };
            sys.extend(s);
            Ok(())
        };
        for d in &live.val {
            add(&mut base, d, &self.delta(&lay, d, nv, 1))?;
        }
        let bounded: &[Dep] = if self.opts.bound_validity {
            &live.val
        } else {
            &[]
        };
        for d in live.prox.iter().chain(bounded) {
            let mut f = self.delta(&lay, d, nv, -1);
            for q in 0..self.np {
                f[1 + q][1 + q] += 1;
            }
            f[0][1 + self.np] += 1;
            add(&mut base, d, &f)?;
        }
        let mut extras = Vec::new();
        if self.opts.maximize_coincidence {
            // When every validity piece is a coincidence piece (as `lower`
            // and `poly schedule` pass them), `zero` holds the constraints
            // of `coin` and no other: the same polyhedron, whose lexmin
            // would be asked for twice (an infeasible one, at every row
            // that cannot have zero distance).
            let coin_adds = live.val.is_empty()
                || !live
                    .val
                    .iter()
                    .all(|d| live.coin.iter().any(|c| same_dep(c, d)));
            let with_zero = zero && !live.val.is_empty();
            let with_coin = !live.coin.is_empty() && coin_adds;
            if !with_zero && !with_coin {
                return Ok((lay, base, extras));
            }
            let mut coin = System::default();
            for d in &live.coin {
                for sign in [1, -1] {
                    add(&mut coin, d, &self.delta(&lay, d, nv, sign))?;
                }
            }
            if with_zero {
                let mut zero = coin.clone();
                for d in &live.val {
                    add(&mut zero, d, &self.delta(&lay, d, nv, -1))?;
                }
                extras.push(zero);
            }
            if with_coin {
                extras.push(coin);
            }
        }
        Ok((lay, base, extras))
    }
}
