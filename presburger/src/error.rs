//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong in the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not isl notation: 1-based line and column, and what was expected there.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        col: usize,
        /// What the parser expected (or why the input is refused).
        expected: String,
    },
    /// The operands live in incompatible spaces.
    SpaceMismatch(String),
    /// An optimum does not exist: the problem is unbounded in this dimension
    /// (below for `upper == false`, above for `upper == true`).
    Unbounded {
        /// The dimension, as the user typed it where it is known.
        dim: DimRef,
        /// True if the missing bound is an upper bound.
        upper: bool,
    },
    /// The operation budget ran out (see [`crate::budget`]).
    BudgetExceeded,
    /// The operation is not defined for these arguments (e.g. counting an unbounded set).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                line,
                col,
                expected,
            } => write!(
                f,
                "parse error at line {line}, column {col}: expected {expected}"
            ),
            Error::SpaceMismatch(s) => write!(f, "space mismatch: {s}"),
            Error::Unbounded { dim, upper } => write!(
                f,
                "unbounded optimum: {dim} has no {} bound",
                if *upper { "upper" } else { "lower" }
            ),
            Error::BudgetExceeded => write!(f, "operation budget exceeded"),
            Error::Invalid(s) => write!(f, "invalid operation: {s}"),
        }
    }
}

impl std::error::Error for Error {}

/// The kind of a dimension an error names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DimKind {
    /// A parameter.
    Param,
    /// An input dimension of a relation.
    In,
    /// An output dimension of a relation.
    Out,
    /// A dimension of a set.
    Set,
    /// An existentially quantified variable (or integer division).
    Local,
    /// An unknown of a parametric integer problem ([`crate::pip`]), whose
    /// caller knows which dimension it stands for.
    Unknown,
}

/// A dimension named in an error: its kind, its position among the
/// dimensions of that kind (from 0, as typed), and its name when the user
/// gave one. Displays as the name (`i`), else as `parameter 0`,
/// `input 1`, `output 2`, `dimension 0` (of a set), `existential 0` or
/// `unknown 3`, with the position counted from 0.
///
/// ```
/// use presburger::{DimKind, DimRef, Error};
/// let e = Error::Unbounded { dim: DimRef::new(DimKind::Out, 2, ""), upper: true };
/// assert_eq!(e.to_string(), "unbounded optimum: output 2 (from 0) has no upper bound");
/// let e = Error::Unbounded { dim: DimRef::new(DimKind::Set, 0, "i"), upper: false };
/// assert_eq!(e.to_string(), "unbounded optimum: i has no lower bound");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DimRef {
    /// What kind of dimension.
    pub kind: DimKind,
    /// Its position among the dimensions of its kind, from 0.
    pub pos: usize,
    /// The user's name for it, if any.
    pub name: Option<String>,
}

impl DimRef {
    /// A dimension of a kind at a position; an empty name means none.
    pub fn new(kind: DimKind, pos: usize, name: &str) -> DimRef {
        DimRef {
            kind,
            pos,
            name: (!name.is_empty()).then(|| name.to_string()),
        }
    }
}

impl fmt::Display for DimRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = &self.name {
            return write!(f, "{n}");
        }
        let kind = match self.kind {
            DimKind::Param => "parameter",
            DimKind::In => "input",
            DimKind::Out => "output",
            DimKind::Set => "dimension",
            DimKind::Local => "existential",
            DimKind::Unknown => "unknown",
        };
        write!(f, "{kind} {} (from 0)", self.pos)
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
