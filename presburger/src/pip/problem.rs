//! The problem and its answer: a parametric integer program and the pieces
//! of its lexicographic minimum.

use crate::basic::BasicMap;
use crate::int::Int;

/// One piece of a parametric solution.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The context: a basic set whose dimensions are the parameters of the
    /// problem; its locals are the divisions introduced by cuts.
    pub ctx: BasicMap,
    /// For every unknown, its value `row · (1, params, ctx locals) / den`
    /// (exact: the division is exact on the context).
    pub values: Vec<(Vec<Int>, Int)>,
    /// A point of the context (its dimensions, without the locals), when
    /// the search kept one.
    pub sample: Option<Vec<Int>>,
}

/// A parametric integer program: lexmin of the unknowns subject to the
/// constraints, rows laid out `[1 | params | unknowns]`.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Number of parameters.
    pub n_par: usize,
    /// Number of unknowns.
    pub n_unk: usize,
    /// Equalities.
    pub eqs: crate::Rows,
    /// Inequalities.
    pub ineqs: crate::Rows,
    /// The initial context (a basic set with `n_par` dimensions, its params
    /// unused: they are part of the `n_par` dimensions).
    pub ctx: BasicMap,
}

impl Problem {
    /// The problem with its rows borrowed, as the solver reads it.
    pub(crate) fn view(&self) -> View<'_> {
        View {
            n_par: self.n_par,
            n_unk: self.n_unk,
            eqs: &self.eqs,
            ineqs: &self.ineqs,
            ctx: &self.ctx,
        }
    }
}

/// A [`Problem`] whose rows and context are borrowed: what the solver
/// reads (it copies the rows into its own layouts anyway), so that a caller
/// whose rows already have the problem's layout (a basic map's, for a
/// lexicographic minimum) passes them without a copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'a> {
    /// Number of parameters.
    pub n_par: usize,
    /// Number of unknowns.
    pub n_unk: usize,
    /// Equalities, `[1 | params | unknowns]`.
    pub eqs: &'a crate::Rows,
    /// Inequalities, `[1 | params | unknowns]`.
    pub ineqs: &'a crate::Rows,
    /// The initial context.
    pub ctx: &'a BasicMap,
}
