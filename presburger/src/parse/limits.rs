//! The guards on the size of an input: nesting depth (a recursion guard),
//! disjuncts in disjunctive normal form, and construction work (which also
//! charges the operation budget).

/// Maximal number of disjuncts of a formula in disjunctive normal form.
pub const MAX_DISJUNCTS: usize = 4096;
/// Maximal nesting depth (parentheses, function calls, tuples, quantifiers).
pub const MAX_DEPTH: usize = 100;
/// Maximal units of construction work (atoms and expression nodes lowered).
pub(super) const MAX_WORK: usize = 2_000_000;
