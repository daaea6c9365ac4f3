//! What an array element holds over time, and the exact conflict test.

use std::fmt;

use presburger::{Map, Space, Tuple, UnionMap};

use crate::error::Result;
use crate::zone::{shift, universe_of};

/// A set of zone points, given by its points or as the points of a
/// universe outside a given set. The complement stays lazy: subtracting a
/// zone from the universe of its spaces is the expensive step on many time
/// dimensions (a lexicographic interval per time dimension), and the
/// conflict test only ever intersects it with explicit points.
#[derive(Debug, Clone)]
pub enum Zone {
    /// Exactly these points.
    Points(UnionMap),
    /// The points of `universe` not in `except`.
    Outside {
        /// The universe (sets).
        universe: UnionMap,
        /// What is left out.
        except: UnionMap,
    },
}

impl Zone {
    /// The points, computed (a subtraction for [`Zone::Outside`]).
    pub fn points(&self) -> Result<UnionMap> {
        match self {
            Zone::Points(z) => Ok(z.clone()),
            Zone::Outside { universe, except } => Ok(universe.subtract(except)?),
        }
    }

    /// `a ∩ self` for a set `a`.
    pub fn intersect_points(&self, a: &UnionMap) -> Result<UnionMap> {
        match self {
            Zone::Points(z) => Ok(a.intersect(z)?),
            Zone::Outside { universe, except } => Ok(a.intersect(universe)?.subtract(except)?),
        }
    }

    /// `a ∩ self` is not empty (for [`Zone::Outside`] an inclusion test,
    /// `a ∩ universe ⊆ except`, which has cheap exact answers before any
    /// difference).
    pub fn meets_points(&self, a: &UnionMap) -> Result<bool> {
        match self {
            Zone::Points(z) => Ok(!a.intersect(z)?.is_empty()?),
            Zone::Outside { universe, except } => Ok(!a.intersect(universe)?.is_subset(except)?),
        }
    }

    /// `self ∩ other` is not empty.
    pub fn meets(&self, other: &Zone) -> Result<bool> {
        match (self, other) {
            (Zone::Points(a), z) | (z, Zone::Points(a)) => z.meets_points(a),
            _ => Ok(!self.intersect(other)?.is_empty()?),
        }
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &Zone) -> Result<UnionMap> {
        match (self, other) {
            (Zone::Points(a), z) | (z, Zone::Points(a)) => z.intersect_points(a),
            (
                Zone::Outside {
                    universe: u1,
                    except: x1,
                },
                Zone::Outside {
                    universe: u2,
                    except: x2,
                },
            ) => Ok(u1.intersect(u2)?.subtract(&x1.union(x2)?)?),
        }
    }

    /// The part of the relation `m` whose domain lies in the zone.
    pub fn restrict_domain(&self, m: &UnionMap) -> Result<UnionMap> {
        match self {
            Zone::Points(z) => Ok(m.intersect_domain(z)?),
            Zone::Outside { .. } => Ok(m.intersect_domain(&self.intersect_points(&m.domain()?)?)?),
        }
    }

    /// `self ∪ a`.
    pub fn union(&self, a: &UnionMap) -> Result<Zone> {
        match self {
            Zone::Points(z) => Ok(Zone::Points(z.union(a)?)),
            Zone::Outside { universe, except } if a.is_subset(universe)? => Ok(Zone::Outside {
                universe: universe.clone(),
                except: except.subtract(a)?,
            }),
            Zone::Outside { .. } => Ok(Zone::Points(self.points()?.union(a)?)),
        }
    }

    /// `self − a`.
    pub fn subtract(&self, a: &UnionMap) -> Result<Zone> {
        match self {
            Zone::Points(z) => Ok(Zone::Points(z.subtract(a)?)),
            Zone::Outside { universe, except } => Ok(Zone::Outside {
                universe: universe.clone(),
                except: except.union(a)?,
            }),
        }
    }
}

impl fmt::Display for Zone {
    /// The points in isl notation, or `(UNIVERSE) - (EXCEPT)` (iscc's
    /// difference) for [`Zone::Outside`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Zone::Points(z) => write!(f, "{z}"),
            Zone::Outside { universe, except } => write!(f, "({universe}) - ({except})"),
        }
    }
}

/// Knowledge about element-time points (see the [crate](crate) doc):
/// `occupied` and `unused` zones, `known` contents (zone point ->
/// named value instance; several names may share a point), `written`
/// values (timepoint -> value; a value tuple without a name is an unknown
/// value, distinct from every other value).
#[derive(Debug, Clone)]
pub struct Knowledge {
    /// Zone points whose value must be preserved.
    pub occupied: Zone,
    /// Zone points whose content is dead.
    pub unused: Zone,
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
        occupied: Zone,
        unused: Zone,
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
                Some(un) => {
                    let un = un.intersect(&u)?;
                    (
                        Zone::Outside {
                            universe: u.clone(),
                            except: un.clone(),
                        },
                        Zone::Points(un),
                    )
                }
                None => (
                    Zone::Points(occ_given.clone()),
                    Zone::Outside {
                        universe: u.clone(),
                        except: occ_given,
                    },
                ),
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
        if p.occupied.meets(&e.occupied)? {
            let common = e.known.intersect(&p.known)?.domain()?;
            if common.is_empty()? || !p.occupied.intersect(&e.occupied)?.is_subset(&common)? {
                return Ok(Some(1));
            }
        }
        // 2. existing writes starting a proposed lifetime store a value it knows
        let ew = shift(&e.written, 1)?;
        if p.occupied.meets_points(&ew.domain()?)?
            && (p.known.is_empty()? || !p.occupied.restrict_domain(&ew)?.is_subset(&p.known)?)
        {
            return Ok(Some(2));
        }
        // 3. proposed writes start a gap unused in existing or store a value it knows there
        let pw = shift(&p.written, 1)?;
        if e.occupied.meets_points(&pw.domain()?)?
            && (e.known.is_empty()? || !e.occupied.restrict_domain(&pw)?.is_subset(&e.known)?)
        {
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
        let occupied = proposed.occupied.points()?;
        self.occupied = self.occupied.union(&occupied)?;
        self.unused = self.unused.subtract(&occupied)?;
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
