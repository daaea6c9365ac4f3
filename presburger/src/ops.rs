//! Set operations that need the solvers (temporary placeholders during bring-up).
#![allow(missing_docs)]
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;

fn nyi(what: &str) -> Error {
    Error::Invalid(format!("{what}: not available yet"))
}

impl Map {
    pub fn subtract(&self, _other: &Map) -> Result<Map> { Err(nyi("subtract")) }
    pub fn complement(&self) -> Result<Map> { Err(nyi("complement")) }
    pub fn is_empty(&self) -> Result<bool> { Err(nyi("is_empty")) }
    pub fn is_subset(&self, other: &Map) -> Result<bool> { self.subtract(other)?.is_empty() }
    pub fn is_equal(&self, other: &Map) -> Result<bool> { Ok(self.is_subset(other)? && other.is_subset(self)?) }
    pub fn sample_point(&self) -> Result<Option<Map>> { Err(nyi("sample")) }
    pub fn lexmin(&self) -> Result<Map> { Err(nyi("lexmin")) }
    pub fn lexmax(&self) -> Result<Map> { Err(nyi("lexmax")) }
    pub fn coalesce(&self) -> Result<Map> { Err(nyi("coalesce")) }
    pub fn gist(&self, _c: &Map) -> Result<Map> { Err(nyi("gist")) }
    pub fn card(&self) -> Result<Int> { Err(nyi("card")) }
    pub fn is_single_valued(&self) -> Result<bool> { Err(nyi("is_single_valued")) }
    pub fn affine_hull(&self) -> Result<Map> { Err(nyi("affine_hull")) }
    pub fn convex_hull(&self) -> Result<Map> { Err(nyi("convex_hull")) }
}
