//! Simple algorithms kept as the oracles of the fast ones.

use scop::Scop;

use crate::alias::{alias_pairs_from, AliasPair};
use crate::cexpr::Params;
use crate::error::Result;

/// [`crate::alias::alias_pairs`] on the accessed cells taken one image per
/// statement ([`scop::assume::accessed_cells`]) instead of one per group of
/// statements with the same access ([`crate::cells`]), their lowest and
/// highest cells always by the parametric lexmin and lexmax (never as the
/// one point of a union of boxes, [`crate::extremes`], or a verified
/// guess, [`crate::guessed`]).
pub fn alias_pairs(scop: &Scop, params: &Params) -> Result<Option<Vec<AliasPair>>> {
    alias_pairs_from(
        scop,
        params,
        &mut |scop, array| Ok(scop::assume::accessed_cells(scop, array)?),
        false,
    )
}
