//! Known-value reuse: a scalar that holds a *copy* of the very element it
//! is mapped into may share that element while the element is still
//! occupied by the same value (opt-in, [`Options::known_values`](crate::Options)).
//!
//! Values are named by where they come from: the content of element `A[e]`
//! written at timepoint `tw` is `A_def[e, tw]`, the content it had at entry
//! is `A_init[e]`. The *content* of a point `A[e, t]` (a zone point: the
//! gap before `t`; or a read at `t`, which happens before the writes of
//! `t`) is the value of the last write of the element strictly before `t`.
//!
//! - Existing knowledge: the element's occupied zones know their content,
//!   its writes write `A_def` of their own point.
//! - Proposed knowledge: a scalar write of a copy statement `s = A[f(i)]`,
//!   now a store into `A[g(i)]`, writes the content of `A[f(i)]` at its
//!   time; the zones that write starts know that value. Other scalar
//!   writes store unknown values.
//!
//! The four rules of the conflict test then accept exactly the overlaps
//! where both sides hold the same value (rule 1), and reject every
//! existing write inside the scalar's lifetime (rule 2: `A_def` of a later
//! write is never a copied content) and every copy into an element that
//! holds something else (rule 3). The transformed program stores the
//! copied value into the element that already holds it (`A[i] = A[i]`):
//! the computed values are unchanged, but the reads of the element after
//! that store take their value from it, so the value flow between the
//! original references changes (which is why this is opt-in).

use presburger::{Builder, Space, Tuple, UnionMap};

use crate::error::Result;
use crate::knowledge::{Knowledge, Zone};
use crate::zone::{reaching_definition, shift};

/// The value-naming maps of one array: `{ A[e, t] -> A_def[e, t] }`,
/// `{ A[e, t] -> A_init[e] }` and the time projection
/// `{ A[e, t] -> [t] }`.
struct Names {
    def: UnionMap,
    init: UnionMap,
    time: UnionMap,
}

fn names(params: &[String], array: &str, n_elem: usize, n_time: usize) -> Result<Names> {
    let n = n_elem + n_time;
    let flat = |name: String, k: usize| Tuple::flat(Some(name), vec![String::new(); k]);
    let point = flat(array.to_string(), n);
    let map = |range: Tuple, k: usize, offset: usize| -> Result<UnionMap> {
        let b = Builder::new(&Space::map(params.to_vec(), point.clone(), range));
        let cons = (0..k)
            .map(|j| Ok(b.eq(&b.out_dim(j)?, &b.in_dim(j + offset)?)?))
            .collect::<Result<Vec<_>>>()?;
        Ok(UnionMap::from_map(b.map(cons)?))
    };
    Ok(Names {
        def: map(flat(format!("{array}_def"), n), n, 0)?,
        init: map(flat(format!("{array}_init"), n_elem), n_elem, 0)?,
        time: map(Tuple::anonymous(n_time), n_time, n_elem)?,
    })
}

/// The content of every point of `at`: `A_def[e, tw]` for the last write
/// of `writes` strictly before it, else `A_init[e]`.
fn contents(at: &UnionMap, writes: &UnionMap, n_time: usize, names: &Names) -> Result<UnionMap> {
    let rd = reaching_definition(at, writes, n_time, false)?;
    let defined = rd.apply_range(&names.def)?;
    let initial = names.init.intersect_domain(&at.subtract(&rd.domain()?)?)?;
    Ok(defined.union(&initial)?)
}

/// The inputs of a known-value test of one proposal on one array.
pub(crate) struct Proposal<'a> {
    /// The program's parameters.
    pub params: &'a [String],
    /// The target array, its element and time dimensions.
    pub array: &'a str,
    /// Element dimensions.
    pub n_elem: usize,
    /// Time dimensions.
    pub n_time: usize,
    /// The existing writes (element-time points).
    pub existing_writes: &'a UnionMap,
    /// The existing unused zone and the universe.
    pub existing_unused: &'a UnionMap,
    /// The universe of the spaces involved.
    pub universe: &'a UnionMap,
    /// The proposed occupied zone and writes.
    pub proposed_occupied: &'a UnionMap,
    /// The proposed writes.
    pub proposed_writes: &'a UnionMap,
    /// The write points of the copy statements in the transformed program
    /// and their load points in the current one (element-time sets).
    pub copy_writes: &'a UnionMap,
    /// The load points of the copies.
    pub copy_loads: &'a UnionMap,
}

/// The existing and proposed knowledge with their known contents.
pub(crate) fn knowledge(p: &Proposal) -> Result<(Knowledge, Knowledge)> {
    let nm = names(p.params, p.array, p.n_elem, p.n_time)?;
    let e_occ = Zone::Outside {
        universe: p.universe.clone(),
        except: p.existing_unused.clone(),
    };
    // copy write point -> load point (one statement instance per time)
    let loaded = nm
        .time
        .intersect_domain(p.copy_writes)?
        .apply_range(&nm.time.intersect_domain(p.copy_loads)?.reverse()?)?;
    let copied = loaded.apply_range(&contents(
        &loaded.range()?,
        p.existing_writes,
        p.n_time,
        &nm,
    )?)?;
    let unknown_writes = p.proposed_writes.subtract(&copied.domain()?)?;
    // where the knowledge is needed: the overlaps and the gaps that
    // writes of the other side start
    let p_after_writes = shift(p.proposed_writes, 1)?;
    let e_after_writes = shift(p.existing_writes, 1)?;
    let e_region = e_occ.intersect_points(&p.proposed_occupied.union(&p_after_writes)?)?;
    let p_region = e_occ
        .intersect_points(p.proposed_occupied)?
        .union(&e_after_writes.intersect(p.proposed_occupied)?)?;
    let e_known = contents(&e_region, p.existing_writes, p.n_time, &nm)?;
    let p_known =
        reaching_definition(&p_region, p.proposed_writes, p.n_time, false)?.apply_range(&copied)?;
    let existing = Knowledge::new(
        e_occ,
        Zone::Points(p.existing_unused.clone()),
        e_known,
        nm.def.intersect_domain(p.existing_writes)?,
    )?;
    let proposed = Knowledge::new(
        Zone::Points(p.proposed_occupied.clone()),
        Zone::Outside {
            universe: p.universe.clone(),
            except: p.proposed_occupied.clone(),
        },
        p_known,
        copied.union(&unknown_writes)?,
    )?;
    Ok((existing, proposed))
}
