//! The simple versions of the structural operations' fast paths, kept as
//! the oracles of their tests (`tests/structural_fast.rs`): projections by
//! transform and simplify alone, and the composition with every pair of
//! disjuncts built and simplified.

use super::{need_map, params_dest, Dest};
use crate::error::Result;
use crate::map::Map;
use crate::space::Space;

impl Map {
    /// [`domain`](Self::domain) by transform and simplify alone (the
    /// tests' oracle).
    #[doc(hidden)]
    pub fn domain_reference(&self) -> Result<Map> {
        need_map(self, "domain")?;
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        let dest: Vec<Dest> = params_dest(np)
            .chain((0..ni).map(|k| Dest::Var(np + k)))
            .chain((0..no).map(Dest::Exist))
            .collect();
        Ok(self.project_parts_reference(self.space.domain_space(), &dest, no))
    }

    /// [`range`](Self::range) by transform and simplify alone (the tests'
    /// oracle).
    #[doc(hidden)]
    pub fn range_reference(&self) -> Result<Map> {
        need_map(self, "range")?;
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        let dest: Vec<Dest> = params_dest(np)
            .chain((0..ni).map(Dest::Exist))
            .chain((0..no).map(|k| Dest::Var(np + k)))
            .collect();
        Ok(self.project_parts_reference(self.space.range_space(), &dest, ni))
    }

    /// [`apply_range`](Self::apply_range) with every pair of disjuncts
    /// built and simplified (the simple version, the tests' oracle).
    #[doc(hidden)]
    pub fn apply_range_reference(&self, other: &Map) -> Result<Map> {
        self.apply_range_joined(other, false)
    }

    /// [`project_parts`](Self::project_parts) by transform and simplify
    /// alone, part by part (no repeated part taken from an earlier one, no
    /// emptiness kept on or read from a part, no test of the equalities
    /// beside `simplify`): the simple version, the oracle of the tests.
    fn project_parts_reference(&self, space: Space, dest: &[Dest], n_exist: usize) -> Map {
        let parts = self
            .parts
            .iter()
            .map(|b| b.transform(space.clone(), dest, n_exist))
            .collect();
        Map::new(space, parts).simplify_parts()
    }
}
