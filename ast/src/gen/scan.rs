//! The scanned space: a schedule's statements as sets of points of one
//! space (schedule dimensions, then the statements' coordinates), and
//! their preparation for the generator.

use crate::error::{Error, Result};
use crate::rows::{fix_locals, remap, set_space};
use presburger::{Int, Map, Set, UnionMap};

/// One statement's scheduled instances: the set of points
/// `[t_0, ..., t_{d-1}, i_0, ..., i_{k-1}, 0, ...]` of the scanned space
/// (schedule dimensions first, then the statement's own coordinates, padded
/// with zeros up to the common dimension).
#[derive(Clone, Debug)]
pub struct Piece {
    /// The statement name.
    pub name: String,
    /// The number of the statement's own coordinates.
    pub n_dom: usize,
    /// The scheduled instances in the scanned space.
    pub set: Map,
}

/// The scanned space and the schedule's shape.
#[derive(Clone, Debug)]
pub struct Scan {
    /// Parameter names.
    pub params: Vec<String>,
    /// Number of schedule dimensions.
    pub n_sched: usize,
    /// Total number of scanned dimensions.
    pub n: usize,
    /// The statements.
    pub pieces: Vec<Piece>,
    /// The context as a set of the scanned space.
    pub context: Map,
}

impl Scan {
    /// The scanned space of a schedule map `{ S[i] -> [t] }` and a context.
    pub fn from_schedule(schedule: &UnionMap, context: &Set) -> Result<Scan> {
        let mut sched = schedule.clone();
        let mut ctx = context.clone();
        let params = presburger::space::merge_params(sched.params(), &ctx.space().params);
        sched.align_params(&params);
        ctx.align_params(&params);
        let params: Vec<String> = sched.params().to_vec();
        ctx.align_params(&params);
        let n_sched = sched
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let n_dom = sched
            .maps()
            .iter()
            .map(|m| m.space().n_in())
            .max()
            .unwrap_or(0);
        let n = n_sched + n_dom;
        let space = set_space(&params, n);
        let np = params.len();
        let mut pieces = Vec::new();
        for m in sched.maps() {
            if m.is_set() {
                return Err(Error::Unsupported("the schedule must be a relation".into()));
            }
            let name = m.space().domain_tuple().name.clone().unwrap_or_default();
            let (ni, no) = (m.space().n_in(), m.space().n_out());
            let mut set = Map::empty(space.clone());
            for b in m.basic_maps() {
                // [c | params | in | out] -> [c | params | out, (pad), in, (pad)]
                let colmap = |c: usize| {
                    if c <= np {
                        c
                    } else if c <= np + ni {
                        1 + np + n_sched + (c - 1 - np)
                    } else {
                        1 + np + (c - 1 - np - ni)
                    }
                };
                let mut nb = remap(b, &space, &colmap);
                let len = nb.row_len();
                for k in (no..n_sched).chain(n_sched + ni..n) {
                    let mut r = vec![Int::ZERO; len];
                    r[1 + np + k] = Int::ONE;
                    nb.add_eq(r);
                }
                set.add_basic(nb)?;
            }
            pieces.push(Piece {
                name,
                n_dom: ni,
                set,
            });
        }
        let mut context = Map::empty(space.clone());
        for b in ctx.basic_maps() {
            context.add_basic(remap(b, &space, &|c| c))?;
        }
        Ok(Scan {
            params,
            n_sched,
            n,
            pieces,
            context,
        })
    }
}

/// The scan's pieces with the locals that have a single possible value
/// fixed and eliminated ([`fix_locals`]).
pub(super) fn prepared_pieces(scan: &Scan) -> Result<Vec<Piece>> {
    // the context's rows (one basic set without locals), for fix_locals
    let ctx_rows: Vec<Vec<Int>> = match scan.context.basic_maps() {
        [c] if c.n_div() == 0 => c
            .ineqs()
            .iter()
            .map(<[Int]>::to_vec)
            .chain(
                c.eqs()
                    .iter()
                    .flat_map(|r| [r.to_vec(), r.iter().map(|v| -v).collect()]),
            )
            .collect(),
        _ => vec![],
    };
    let mut pieces = Vec::new();
    for p in &scan.pieces {
        let mut set = Map::empty(p.set.space().clone());
        for b in p.set.basic_maps() {
            let pad = |r: &Vec<Int>| {
                let mut r = r.clone();
                r.resize(b.row_len(), Int::ZERO);
                r
            };
            let rows: Vec<Vec<Int>> = ctx_rows.iter().map(pad).collect();
            // locals with a single possible value (a division of a
            // bounded numerator by a large constant) are eliminated once
            let mut c = fix_locals(b, &rows)?;
            if c.simplify() {
                set.add_basic(c)?;
            }
        }
        pieces.push(Piece { set, ..p.clone() });
    }
    Ok(pieces)
}
