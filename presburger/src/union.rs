//! Unions over several spaces.
//!
//! A [`UnionMap`] holds at most one [`Map`] per pair of tuples, all with the
//! same (aligned) parameters, kept sorted by tuple so that printing is
//! deterministic. A union set is a union map whose parts are sets
//! ([`UnionSet`] is the same type).

use crate::error::{Error, Result};
use crate::map::Map;
use crate::space::merge_params;

/// A union of maps living in different spaces.
#[derive(Clone, Debug, Default)]
pub struct UnionMap {
    pub(crate) params: Vec<String>,
    pub(crate) maps: Vec<Map>,
}

/// A union set is a [`UnionMap`] whose parts are sets.
pub type UnionSet = UnionMap;

impl UnionMap {
    /// The empty union with the given parameters.
    pub fn empty(params: Vec<String>) -> UnionMap {
        UnionMap { params, maps: Vec::new() }
    }

    /// The parameters.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The parts, one per space, sorted by tuples.
    pub fn maps(&self) -> &[Map] {
        &self.maps
    }

    /// True if every part is a set (vacuously true for the empty union).
    pub fn is_set(&self) -> bool {
        self.maps.iter().all(Map::is_set)
    }

    /// Reorder and extend the parameters to `params` (a superset of the current ones).
    pub fn align_params(&mut self, params: &[String]) {
        for m in &mut self.maps {
            m.align_params(params);
        }
        self.params = params.to_vec();
    }

    /// Add a map: united with the part of the same space, if any.
    pub fn add_map(&mut self, m: Map) -> Result<()> {
        let mut m = m;
        if m.space.params != self.params {
            let params = merge_params(&self.params, &m.space.params);
            self.align_params(&params);
            m.align_params(&params);
        }
        match self.maps.binary_search_by(|x| (&x.space.domain, &x.space.range).cmp(&(&m.space.domain, &m.space.range))) {
            Ok(k) => {
                let u = self.maps[k].union(&m)?;
                self.maps[k] = u;
            }
            Err(k) => self.maps.insert(k, m),
        }
        Ok(())
    }

    /// The part living in the given tuples' space, if any.
    pub fn part(&self, space: &crate::Space) -> Option<&Map> {
        self.maps.iter().find(|m| m.space.tuples_match(space))
    }

    /// A union with a single part.
    pub fn from_map(m: Map) -> UnionMap {
        UnionMap { params: m.space.params.clone(), maps: vec![m] }
    }

    /// The single part of a union in one space; `Err` if there are several.
    pub fn to_map(&self) -> Result<Option<Map>> {
        match self.maps.len() {
            0 => Ok(None),
            1 => Ok(Some(self.maps[0].clone())),
            _ => Err(Error::SpaceMismatch("expected a single space".into())),
        }
    }
}
