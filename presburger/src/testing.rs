//! The base constraint pool of the property tests, for the unit tests of
//! this crate's private modules (`refute`, `guess`). The one copy is
//! `testkit/src/pool_base.rs`: the unit tests cannot link against testkit
//! (that would be a second copy of this crate, with other types), so the
//! file is included here. Oracles and the other fixtures live in `testkit`,
//! for the integration tests.

include!("../../testkit/src/pool_base.rs");
