//! Distribution: whether splitting a node's strongly connected components
//! gains outer parallel rows, the greedy zero-distance depth that measures
//! it, and the sequence node of the components.

use super::system::Layout;
use super::{same_dep, Sched};
use crate::deps::Dep;
use crate::error::Result;
use crate::farkas::System;
use crate::live::{sccs, Live};
use crate::tree::{Filter, Node, Row};

impl Sched<'_> {
    /// Whether the distribution of the components `comps` gains outer
    /// parallel rows in every component that still needs rows: then the
    /// fused band's greedy zero-distance depth, the least such depth of
    /// the components and the least of their largest dimensions (an
    /// estimate of their permutable depth); `None` otherwise.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn distribution_gain(
        &self,
        comps: &[Vec<usize>],
        live: &Live,
        lay: &Layout,
        base: &System,
        extras: &[System],
        stmts: &[usize],
        saved: &[Vec<Vec<i128>>],
    ) -> Result<Option<(usize, usize, usize)>> {
        let fused_par = self.zero_depth(lay, base, extras, stmts, saved)?;
        let (mut par, mut perm) = (usize::MAX, usize::MAX);
        for c in comps {
            let needy: Vec<usize> = c
                .iter()
                .copied()
                .filter(|&s| saved[s].len() < self.dims[s])
                .collect();
            if needy.is_empty() {
                continue;
            }
            perm = perm.min(needy.iter().map(|&s| self.dims[s]).max().unwrap_or(0));
            let sub = live.restrict(c);
            let (l2, b2, e2) = self.systems(c, &sub)?;
            par = par.min(self.zero_depth(&l2, &b2, &e2, c, saved)?);
            if par <= fused_par {
                break;
            }
        }
        Ok((par != usize::MAX && par > fused_par).then_some((fused_par, par, perm)))
    }

    /// Whether some component of `stmts` (the validity graph's strongly
    /// connected components at the root, nothing spanned yet) with a
    /// statement with dimensions admits no row with a non-zero linear part
    /// for each of its statements and zero distance on each validity and
    /// coincidence piece inside it ([`crate::outer::zero_first_row_may_exist`],
    /// exact where it answers no).
    ///
    /// Then (1) no row of all the root's statements has zero distance on
    /// every piece (its restriction to the component would be one): the
    /// root's first extra system ([`Self::systems`]: zero distance on
    /// validity and coincidence, with the independence constraints of
    /// [`Self::band_row`], which give every statement a non-zero linear
    /// part) has no solution, and (2) that component's `zero_depth` is 0,
    /// so [`Self::distribution_gain`] finds no gain. Both answers, which
    /// cost the root's costliest lexmins (an infeasible one for each), are
    /// known without them.
    ///
    /// A root of one component is not looked at: [`compute_schedule`] has
    /// asked the same question of it before any row.
    pub(super) fn hopeless_component(&self, stmts: &[usize], live: &Live) -> Result<bool> {
        let comps = sccs(stmts, &live.graph());
        if comps.len() < 2 {
            return Ok(false);
        }
        for c in &comps {
            if c.iter().all(|&s| self.dims[s] == 0) {
                continue;
            }
            let inside = |d: &&Dep| c.contains(&d.src) && c.contains(&d.dst);
            let read: Vec<&Dep> = live
                .coin
                .iter()
                .filter(inside)
                .chain(
                    live.val
                        .iter()
                        .filter(inside)
                        .filter(|d| !live.coin.iter().any(|k| same_dep(k, d))),
                )
                .collect();
            if read.is_empty() {
                continue;
            }
            let may = crate::outer::zero_first_row_may_exist(
                &read,
                &mut crate::outer::hull_basis,
                c,
                self.np,
                &self.dims,
            )?;
            if !may {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// How many leading rows with zero distance on all validity and coincidence
    /// dependences the statements admit (greedy).
    pub(super) fn zero_depth(
        &self,
        lay: &Layout,
        base: &System,
        extras: &[System],
        stmts: &[usize],
        prev: &[Vec<Vec<i128>>],
    ) -> Result<usize> {
        if extras.is_empty() {
            // no dependence: every row has zero distance, one per missing rank
            return Ok(stmts
                .iter()
                .map(|&s| self.dims[s] - prev[s].len().min(self.dims[s]))
                .max()
                .unwrap_or(0));
        }
        let mut prev = prev.to_vec();
        let mut n = 0;
        while stmts.iter().any(|&s| prev[s].len() < self.dims[s]) {
            let row = self.first_row(lay, base, &extras[..1], &prev)?;
            let Some(rows) = row else { break };
            self.add_ranks(stmts, &rows, &mut prev);
            n += 1;
        }
        Ok(n)
    }

    pub(super) fn add_ranks(&self, stmts: &[usize], rows: &[Row], prev: &mut [Vec<Vec<i128>>]) {
        for (k, &s) in stmts.iter().enumerate() {
            let lin: Vec<i128> = rows[k][1 + self.np..]
                .iter()
                .map(|v| v.to_i64().unwrap_or(0) as i128)
                .collect();
            let mut test = prev[s].clone();
            test.push(lin);
            let d = test[0].len();
            if crate::linalg::rank(&test, d).is_some_and(|r| r > prev[s].len()) {
                prev[s] = test;
            }
        }
    }

    pub(super) fn distribute(
        &self,
        comps: Vec<Vec<usize>>,
        live: &Live,
        prev: &mut Vec<Vec<Vec<i128>>>,
    ) -> Result<Node> {
        let mut fs = Vec::new();
        for comp in comps {
            let sub = live.restrict(&comp);
            let child = self.node(comp.clone(), sub, prev, false)?;
            fs.push(Filter {
                statements: comp,
                child,
            });
        }
        Ok(Node::Sequence(fs))
    }
}
