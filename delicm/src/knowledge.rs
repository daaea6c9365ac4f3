//! What an array element holds over time, and the exact conflict test.

use std::fmt;

use presburger::{Map, Space, Tuple, UnionMap};

use crate::error::Result;
use crate::zone::{shift, universe_of};

/// Knowledge about element-time points (see the [crate](crate) doc):
/// `occupied` and `unused` zones (sets), `known` contents (zone point ->
/// named value instance; several names may share a point), `written`
/// values (timepoint -> value; a value tuple without a name is an unknown
/// value, distinct from every other value).
#[derive(Debug, Clone)]
pub struct Knowledge {
    /// Zone points whose value must be preserved.
    pub occupied: UnionMap,
    /// Zone points whose content is dead.
    pub unused: UnionMap,
    /// Known contents of occupied points (named value tuples only).
    pub known: UnionMap,
    /// Writes: timepoint -> written value (unnamed range = unknown).
    pub written: UnionMap,
}

/// One side of a conflict question as given (any field may be absent);
/// see [`Knowledge::complete`].
#[derive(Debug, Clone, Default)]
pub struct Side {
    /// A set (occupied, unknown content) or a map to values.
    pub occupied: Option<UnionMap>,
    /// A set of dead zone points.
    pub unused: Option<UnionMap>,
    /// A set (unknown values written) or a map timepoint -> value.
    pub written: Option<UnionMap>,
}

impl Side {
    /// A side from isl strings (`None` = not given).
    pub fn parse(
        occupied: Option<&str>,
        unused: Option<&str>,
        written: Option<&str>,
    ) -> Result<Side> {
        let p = |s: Option<&str>| -> Result<Option<UnionMap>> {
            Ok(match s {
                Some(t) => Some(t.parse::<UnionMap>()?),
                None => None,
            })
        };
        Ok(Side {
            occupied: p(occupied)?,
            unused: p(unused)?,
            written: p(written)?,
        })
    }

    fn spaces(&self, out: &mut UnionMap) -> Result<()> {
        for u in [&self.occupied, &self.unused, &self.written]
            .into_iter()
            .flatten()
        {
            *out = out.union(&universe_of(u)?)?;
        }
        Ok(())
    }
}

/// The parts of `u` whose range tuple is named (known values) or not.
fn named_part(u: &UnionMap, named: bool) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if !m.is_set() && m.space().range.name.is_some() == named {
            out.add_map(m.clone())?;
        }
    }
    Ok(out)
}

/// Sets of `u` (the domains of maps).
fn as_set(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if m.is_set() {
            out.add_map(m.clone())?;
        } else {
            out = out.union(&UnionMap::from_map(m.clone()).domain()?)?;
        }
    }
    Ok(out)
}

/// Sets of `u` become maps to the unknown value `[]`; maps stay.
pub fn with_unknown_values(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    let unknown = UnionMap::from_map(Map::universe(Space::set(
        u.params().to_vec(),
        Tuple::anonymous(0),
    )));
    for m in u.maps() {
        if m.is_set() {
            let s = UnionMap::from_map(m.clone());
            out = out.union(&s.product_sets(&unknown)?)?;
        } else {
            out.add_map(m.clone())?;
        }
    }
    Ok(out)
}

impl Knowledge {
    /// Knowledge from its four parts; `known` keeps only named values.
    pub fn new(
        occupied: UnionMap,
        unused: UnionMap,
        known: UnionMap,
        written: UnionMap,
    ) -> Result<Knowledge> {
        Ok(Knowledge {
            occupied,
            unused,
            known: named_part(&known, true)?,
            written: with_unknown_values(&written)?,
        })
    }

    /// Completes two sides over one universe (the README's protocol): the
    /// universe of every space mentioned plus one unrelated space;
    /// `unused` given means occupied = universe - unused, else unused =
    /// universe - occupied.
    pub fn complete(existing: &Side, proposed: &Side) -> Result<(Knowledge, Knowledge)> {
        let mut u = UnionMap::empty(Vec::<String>::new());
        existing.spaces(&mut u)?;
        proposed.spaces(&mut u)?;
        let mut extra = String::from("Unrelated");
        while u
            .maps()
            .iter()
            .any(|m| m.space().range.name.as_deref() == Some(extra.as_str()))
        {
            extra.push('_');
        }
        let unrelated = Map::universe(Space::set(
            u.params().to_vec(),
            Tuple::flat(Some(extra), vec![String::new()]),
        ));
        u = u.union(&UnionMap::from_map(unrelated))?;
        let one = |s: &Side| -> Result<Knowledge> {
            let occ_given = match &s.occupied {
                Some(o) => as_set(o)?,
                None => UnionMap::empty(u.params().to_vec()),
            };
            let (occupied, unused) = match &s.unused {
                Some(un) => (u.subtract(un)?, un.intersect(&u)?),
                None => (occ_given.clone(), u.subtract(&occ_given)?),
            };
            let known = match &s.occupied {
                Some(o) => named_part(o, true)?,
                None => UnionMap::empty(u.params().to_vec()),
            };
            let written = match &s.written {
                Some(w) => with_unknown_values(w)?,
                None => UnionMap::empty(u.params().to_vec()),
            };
            Ok(Knowledge {
                occupied,
                unused,
                known,
                written,
            })
        };
        Ok((one(existing)?, one(proposed)?))
    }

    /// The rule broken when `proposed` is added to `self` (`existing`), in
    /// one direction: 1 lifetimes, 2 existing writes into proposed
    /// lifetimes, 3 proposed writes into existing lifetimes, 4 simultaneous
    /// writes; `None` when no rule is broken.
    pub fn broken_rule(&self, proposed: &Knowledge) -> Result<Option<u8>> {
        let (e, p) = (self, proposed);
        // 1. what both occupy must carry a value both know
        let both = p.occupied.intersect(&e.occupied)?;
        if !both.is_empty()? {
            let common = e.known.intersect(&p.known)?.domain()?;
            if !both.is_subset(&common)? {
                return Ok(Some(1));
            }
        }
        // 2. existing writes starting a proposed lifetime store a value it knows
        let ew = shift(&e.written, 1)?.intersect_domain(&p.occupied)?;
        if !ew.is_empty()? && !ew.is_subset(&p.known)? {
            return Ok(Some(2));
        }
        // 3. proposed writes start a gap unused in existing or store a value it knows there
        let pw = shift(&p.written, 1)?.intersect_domain(&e.occupied)?;
        if !pw.is_empty()? && !pw.is_subset(&e.known)? {
            return Ok(Some(3));
        }
        // 4. simultaneous writes must share a known value
        let at_once = e.written.domain()?.intersect(&p.written.domain()?)?;
        if !at_once.is_empty()? {
            let agreed = named_part(&e.written, true)?
                .intersect(&named_part(&p.written, true)?)?
                .domain()?;
            if !at_once.is_subset(&agreed)? {
                return Ok(Some(4));
            }
        }
        Ok(None)
    }

    /// The exact conflict test, both directions.
    pub fn conflicts(&self, proposed: &Knowledge) -> Result<bool> {
        Ok(self.broken_rule(proposed)?.is_some() || proposed.broken_rule(self)?.is_some())
    }

    /// Adds what `proposed` occupies and writes (after a successful test).
    pub fn learn(&mut self, proposed: &Knowledge) -> Result<()> {
        self.occupied = self.occupied.union(&proposed.occupied)?;
        self.unused = self.unused.subtract(&proposed.occupied)?;
        self.known = self.known.union(&proposed.known)?;
        self.written = self.written.union(&proposed.written)?;
        Ok(())
    }
}

impl fmt::Display for Knowledge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "occupied: {}; unused: {}; known: {}; written: {}",
            self.occupied, self.unused, self.known, self.written
        )
    }
}

/// The answer for two sides as given: `true` = conflict.
pub fn conflict(existing: &Side, proposed: &Side) -> Result<bool> {
    let (e, p) = Knowledge::complete(existing, proposed)?;
    e.conflicts(&p)
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |u: &Option<UnionMap>| u.as_ref().map_or("null".to_string(), |u| u.to_string());
        write!(
            f,
            "occupied: {}; unused: {}; written: {}",
            show(&self.occupied),
            show(&self.unused),
            show(&self.written)
        )
    }
}
