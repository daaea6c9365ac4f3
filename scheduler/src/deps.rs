//! Statements and dependence pieces (basic relations between two statements,
//! intersected with the domains and the context).

use crate::constraints::ScheduleConstraints;
use crate::error::{Error, Result};
use presburger::{BasicMap, Map, Space, Tuple, TupleKind, UnionMap};

/// One dependence piece `src -> dst` (indices of statements).
#[derive(Debug, Clone)]
pub struct Dep {
    /// Source statement.
    pub src: usize,
    /// Sink statement.
    pub dst: usize,
    /// The pairs, in the space `src -> dst` (layout `[c | params | in | out | locals]`).
    pub piece: BasicMap,
    /// The tags of a tagged relation (`[S[i] -> t[]]`): source and sink tag names.
    pub tags: (Option<String>, Option<String>),
}

impl Dep {
    /// The same dependence on other pairs.
    pub fn with_piece(&self, piece: BasicMap) -> Dep {
        Dep {
            src: self.src,
            dst: self.dst,
            piece,
            tags: self.tags.clone(),
        }
    }
}

fn same_tuple(a: &Tuple, b: &Tuple) -> bool {
    a.name == b.name && a.dim() == b.dim() && !a.is_nested() && !b.is_nested()
}

/// The statement of a tuple, looking through a zero-dimensional tag `[S[i] -> t[]]`.
fn find_stmt(stmts: &[Space], t: &Tuple) -> Result<(usize, Option<String>)> {
    let (base, tagged) = match &t.kind {
        TupleKind::Nested(a, b) => (a.as_ref(), Some(b.name.clone().unwrap_or_default())),
        TupleKind::Flat(_) => (t, None),
    };
    stmts
        .iter()
        .position(|s| same_tuple(&s.range, base))
        .map(|k| (k, tagged.clone()))
        .ok_or_else(|| {
            Error::Invalid(format!(
                "a dependence mentions {}[..] ({} dims), which is not a statement of the domain",
                base.name.clone().unwrap_or_default(),
                base.dim()
            ))
        })
}

/// The source and target statements of one part of a dependence relation
/// ([`find_stmt`] of its domain and range).
fn endpoints(
    stmts: &[Space],
    m: &Map,
) -> Result<((usize, Option<String>), (usize, Option<String>))> {
    let sp = m.space();
    let Some(dt) = &sp.domain else {
        return Err(Error::Invalid(
            "a dependence relation contains a set".into(),
        ));
    };
    Ok((find_stmt(stmts, dt)?, find_stmt(stmts, &sp.range)?))
}

/// The statement pairs `src -> dst` of the parts of a union map (tags
/// removed): the edges of its pieces ([`pieces`]) and possibly more (a
/// part may be empty on the domains and the context).
pub fn edges(stmts: &[Space], rel: &UnionMap) -> Result<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for m in rel.maps() {
        let ((src, _), (dst, _)) = endpoints(stmts, m)?;
        out.push((src, dst));
    }
    Ok(out)
}

/// Split a union map into pieces between statements (tags removed).
pub fn pieces(sc: &ScheduleConstraints, stmts: &[Space], rel: &UnionMap) -> Result<Vec<Dep>> {
    let mut out = Vec::new();
    for m in rel.maps() {
        let sp = m.space();
        let ((src, st), (dst, tt)) = endpoints(stmts, m)?;
        let plain = Space::map(
            sp.params.clone(),
            stmts[src].range.clone(),
            stmts[dst].range.clone(),
        );
        let mut mm = Map::empty(plain.clone());
        // column map: tag dimensions (after each statement's own) become
        // existentials, as do the locals (their bounds are among the inequalities)
        let np = sp.params.len();
        let (ds, dd) = (stmts[src].range.dim(), stmts[dst].range.dim());
        let (n_in, n_out) = (sp.n_in(), sp.n_out());
        let (tag_in, tag_out) = (n_in - ds, n_out - dd);
        for b in m.basic_maps() {
            let mut nb = BasicMap::universe(plain.clone());
            for _ in 0..tag_in + tag_out + b.divs().len() {
                nb.add_existential();
            }
            let base_len = 1 + np + ds + dd;
            let col = |k: usize| -> usize {
                let k_in = 1 + np;
                let k_out = k_in + n_in;
                let k_div = k_out + n_out;
                if k < k_in + ds {
                    k
                } else if k < k_out {
                    base_len + (k - k_in - ds)
                } else if k < k_out + dd {
                    k_in + ds + (k - k_out)
                } else if k < k_div {
                    base_len + tag_in + (k - k_out - dd)
                } else {
                    base_len + tag_in + tag_out + (k - k_div)
                }
            };
            let remap = |r: &[presburger::Int]| {
                let mut out = vec![presburger::Int::ZERO; r.len()];
                for (k, v) in r.iter().enumerate() {
                    out[col(k)] = v.clone();
                }
                out
            };
            for r in b.eqs() {
                nb.add_eq(remap(r));
            }
            for r in b.ineqs() {
                nb.add_ineq(remap(r));
            }
            mm.add_basic(nb)?;
        }
        let ds = sc
            .domain
            .part(&stmts[src])
            .cloned()
            .unwrap_or_else(|| Map::empty(stmts[src].clone()));
        let dd = sc
            .domain
            .part(&stmts[dst])
            .cloned()
            .unwrap_or_else(|| Map::empty(stmts[dst].clone()));
        let mut mm = mm.intersect_domain(&ds)?.intersect_range(&dd)?;
        if let Some(c) = &sc.context {
            mm = mm.intersect_params(c)?;
        }
        for b in mm.remove_empty_parts()?.basic_maps() {
            out.push(Dep {
                src,
                dst,
                piece: b.clone(),
                tags: (st.clone(), tt.clone()),
            });
        }
    }
    Ok(out)
}
