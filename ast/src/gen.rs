//! The generator: recursion over the dimensions of the scheduled space.

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::node::Node;
use crate::options::Options;
use crate::rows::RowPrinter;
use presburger::{Map, Set, UnionMap};

mod bounds;
mod context;
mod coords;
mod memo;
mod order;
mod peel;
mod split;
mod unify;

pub(crate) use split::Stage;

use context::gist;

mod group;
mod scan;

pub use scan::{Piece, Scan};

use group::EmittedLoop;
use scan::prepared_pieces;

/// Generate the AST scanning `scan` in lexicographic order.
pub fn generate_scan(scan: &Scan) -> Result<Node> {
    generate_scan_with(scan, &Options::default())
}

/// [`generate_scan`] with loop kinds per schedule dimension.
pub fn generate_scan_with(scan: &Scan, options: &Options) -> Result<Node> {
    generate_scan_reduced(scan, options, true)
}

/// [`generate_scan_with`], on the schedule dimensions alone when `reduce`
/// and the coordinates allow it (see `gen/coords.rs`), else on the whole
/// scanned space.
fn generate_scan_reduced(scan: &Scan, options: &Options, reduce: bool) -> Result<Node> {
    let pieces = prepared_pieces(scan)?;
    let reduced = if reduce {
        coords::reduce(scan, &pieces)?
    } else {
        None
    };
    let (small, pieces, coords) = match reduced {
        Some((s, p, c)) => (Some(s), p, Some(c)),
        None => (None, pieces, None),
    };
    let scan = small.as_ref().unwrap_or(scan);
    let embed_all = |sets: Vec<&Map>| -> Result<Vec<Option<Map>>> {
        sets.into_iter()
            .map(|s| split::embed(s, &scan.params, scan.n))
            .collect()
    };
    let g = Gen {
        scan,
        options,
        regions: embed_all(options.rules.iter().map(|r| &r.region).collect())?,
        isolated: embed_all(options.isolates.iter().map(|i| &i.set).collect())?,
        loops: Default::default(),
        memo: Default::default(),
        coords,
    };
    let mut env = Vec::new();
    let nodes = g.level(0, pieces, &scan.context, &mut env)?;
    Ok(Node::block(nodes)
        .drop_known_conditions()
        .merge_ifs()
        .merge_equal_branches()
        .fold_constants())
}

/// Generate the AST of a schedule map with a context: every instance
/// `S[i]` with `S[i] -> t` in `schedule` runs once per schedule time `t`,
/// in lexicographic order of `t` (ties in any order).
pub fn generate(schedule: &UnionMap, context: &Set) -> Result<Node> {
    generate_with_options(schedule, context, &Options::default())
}

/// [`generate`] with loop kinds per schedule dimension ([`Options`]).
pub fn generate_with_options(
    schedule: &UnionMap,
    context: &Set,
    options: &Options,
) -> Result<Node> {
    let (schedule, options) = crate::shift::split_interleaved(schedule, options)?;
    generate_scan_with(&Scan::from_schedule(&schedule, context)?, &options)
}

struct Gen<'a> {
    scan: &'a Scan,
    options: &'a Options,
    /// The rules' regions in the scanned space (`None`: not applicable).
    regions: Vec<Option<Map>>,
    /// The isolated sets in the scanned space.
    isolated: Vec<Option<Map>>,
    /// The loops emitted so far and not yet consumed by their parent: see
    /// [`EmittedLoop`].
    loops: std::cell::RefCell<Vec<EmittedLoop>>,
    /// The engine's answers so far, by question.
    memo: memo::Memo,
    /// The calls' arguments when the scan is on the schedule dimensions
    /// alone (`gen/coords.rs`).
    coords: Option<coords::Coords>,
}

impl Gen<'_> {
    fn printer<'b>(&'b self, env: &'b [Expr]) -> RowPrinter<'b> {
        RowPrinter {
            params: &self.scan.params,
            env,
        }
    }

    fn col(&self, dim: usize) -> usize {
        1 + self.scan.params.len() + dim
    }

    fn level(
        &self,
        l: usize,
        pieces: Vec<Piece>,
        ctx: &Map,
        env: &mut Vec<Expr>,
    ) -> Result<Vec<Node>> {
        let n = self.scan.n;
        let mut live = Vec::new();
        let mut inter = Vec::new();
        for p in pieces {
            // (coalescing drops the empty disjuncts: no parts, no points)
            let s = self.memo.coalesced_inside(&p.set, ctx)?;
            if !s.basic_maps().is_empty() {
                live.push(p);
                inter.push(s);
            }
        }
        if live.is_empty() {
            return Ok(vec![]);
        }
        if l == n {
            let mut out = Vec::new();
            let d = self.scan.n_sched;
            for (p, s) in live.iter().zip(&inter) {
                let cond = self.printer(env).condition(&gist(s, ctx)?)?;
                let args = match &self.coords {
                    None => env[d..d + p.n_dom].to_vec(),
                    Some(c) => c.args(&p.name, &self.printer(env))?.ok_or_else(|| {
                        Error::Unsupported(format!("no coordinates for {}", p.name))
                    })?,
                };
                let call = Node::User {
                    name: p.name.clone(),
                    args,
                };
                out.push(match cond {
                    None => call,
                    Some(c) => Node::If {
                        cond: c,
                        then: Box::new(call),
                        els: None,
                    },
                });
            }
            return Ok(out);
        }
        // pieces whose remaining times are ordered (ties allowed) are
        // scanned one after the other, even where they overlap along `l`;
        // so are a statement's disjuncts that are ordered and disjoint
        let (live, inter, groups) = self.split_disjuncts(l, live, inter)?;
        let projs: Vec<Map> = inter
            .iter()
            .map(|s| self.memo.coalesced_projection(s, l + 1, n))
            .collect::<Result<_>>()?;
        let mut out = Vec::new();
        for g in groups {
            let gp: Vec<Piece> = g.iter().map(|&k| live[k].clone()).collect();
            let gproj: Vec<&Map> = g.iter().map(|&k| &projs[k]).collect();
            out.extend(self.group(l, gp, &gproj, ctx, env, true, Stage::Isolate)?);
        }
        Ok(out)
    }
}
