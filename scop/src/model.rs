//! The front end's syntactic model ([`Scop`]): statements with their
//! domains as [`Formula`]s and subscripts as [`Affine`] expressions over
//! named iterators and parameters, bodies as expression trees printed as
//! C-like text ([`Statement::body_text`], [`Access::target`]).
//! [`crate::Model`] is the same program as engine values; its isl text is
//! printed by the engine.

use crate::affine::{Affine, Formula};
use crate::ast::{AssignOp, BinOp, UnOp};
use crate::error::Pos;

/// C types of values in statement bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `int` (64-bit in the interpreter).
    Int,
    /// `double`.
    Double,
}

/// Kinds of access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// A read.
    Read,
    /// A write that certainly happens whenever the statement instance runs.
    MustWrite,
    /// A write that may happen (never produced for static-control code, but
    /// part of the model's vocabulary).
    MayWrite,
    /// A kill: the element's value is dead from here on (never produced by
    /// the front end today, but part of the model's vocabulary).
    Kill,
}

impl AccessKind {
    /// The kind's name in the model's JSON (`read`, `must_write`, `may_write`, `kill`).
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::MustWrite => "must_write",
            AccessKind::MayWrite => "may_write",
            AccessKind::Kill => "kill",
        }
    }
}

/// One array reference of a statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Access {
    /// Read or write.
    pub kind: AccessKind,
    /// Array name (scalars are zero-dimensional arrays).
    pub array: String,
    /// Affine subscripts over the statement's iterators and the parameters.
    pub index: Vec<Affine>,
    /// Reference identifier (`R0`, `R1`, ... over the whole scop). The read and
    /// the write of a compound assignment (`+=`) share one identifier.
    pub ref_id: String,
    /// Source position of the reference.
    pub pos: Pos,
}

/// An expression tree of a statement body. Reads refer to the statement's
/// accesses by index.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `target op value` (the whole statement).
    Assign {
        /// Assignment operator as written in the source (`=`, `+=`, ...).
        op: AssignOp,
        /// Index of the must-write access.
        target: usize,
        /// The value stored (already converted to `double`): for `t = e`,
        /// `e`; for a compound assignment `t op= e`, the whole new value
        /// `t op e` (the read of `t` is among the accesses), so executing
        /// the statement is always `t = value`, whatever `op` says.
        value: Box<Expr>,
    },
    /// A read access (index into [`Statement::accesses`]).
    Access(usize),
    /// A `double` literal.
    Double(f64),
    /// An `int` literal.
    Int(i64),
    /// An integer iterator or parameter.
    IntVar(String),
    /// A read-only `double` scalar parameter.
    DoubleParam(String),
    /// Unary operation (`-`, `+`) of result type `ty`.
    Unary {
        /// Operator.
        op: UnOp,
        /// Result type.
        ty: Ty,
        /// Operand.
        arg: Box<Expr>,
    },
    /// Binary arithmetic; both operands have type `ty` (conversions explicit).
    Binary {
        /// Operator.
        op: BinOp,
        /// Operand and result type.
        ty: Ty,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// Call of `sqrt`, `exp`, `fabs`, `fmin`, `fmax`, `pow` (double) or
    /// `min`/`max` (int).
    Call {
        /// Function name.
        name: String,
        /// Result type.
        ty: Ty,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Conversion of an `int` to `double`.
    ToDouble(Box<Expr>),
}

/// One schedule dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedDim {
    /// A constant (textual position in a sequence).
    Const(i64),
    /// `sign * iterator` (sign is -1 for decrementing loops).
    Iter(String, i64),
}

/// A statement of the scop.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// `S0`, `S1`, ... in textual order.
    pub name: String,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// Iteration domain constraints.
    pub domain: Formula,
    /// Original schedule (padded to the scop's schedule depth).
    pub schedule: Vec<SchedDim>,
    /// The schedule dimensions that are iterators of loops preceded by
    /// `#pragma omp parallel for`, increasing.
    pub parallel: Vec<usize>,
    /// All references, in evaluation order (writes first).
    pub accesses: Vec<Access>,
    /// The statement as an expression tree.
    pub body: Expr,
    /// Source position.
    pub pos: Pos,
}

/// Where an array comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayOrigin {
    /// The k-th parameter of the signature.
    Param(usize),
    /// A written `double` scalar parameter (zero-dimensional).
    ScalarParam(usize),
    /// A local `double` scalar (zero-dimensional).
    Local,
    /// A local array declared in the function body (`double tmp[N][M];`):
    /// uninitialised at entry, dead at return.
    LocalArray,
}

/// An array of the scop.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// Name.
    pub name: String,
    /// Extents (affine in the parameters); empty for scalars.
    pub dims: Vec<Affine>,
    /// Element type (`double`).
    pub element_type: String,
    /// Origin.
    pub origin: ArrayOrigin,
}

/// The polyhedral model of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Scop {
    /// Kernel function name.
    pub function: String,
    /// Integer parameters in signature order.
    pub params: Vec<String>,
    /// Read-only `double` scalar parameters.
    pub scalar_params: Vec<String>,
    /// Constraints on the parameters.
    pub context: Formula,
    /// Arrays: array parameters in signature order, then local arrays in
    /// declaration order, then written scalar parameters, then local scalars.
    pub arrays: Vec<Array>,
    /// Statements in textual order.
    pub statements: Vec<Statement>,
    /// The optimistic assumptions recorded while the model was built.
    pub optimistic: crate::assume::Optimistic,
}

impl Statement {
    /// The body as C-like text, e.g. `C[i,j] = (C[i,j] * beta)`.
    pub fn body_text(&self) -> String {
        self.expr_text(&self.body)
    }

    fn expr_text(&self, e: &Expr) -> String {
        match e {
            // the value is the whole stored value, also for `op=` (see [`Expr::Assign`])
            Expr::Assign { target, value, .. } => format!(
                "{} = {}",
                self.accesses[*target].target(),
                self.expr_text(value)
            ),
            Expr::Access(k) => self.accesses[*k].target(),
            Expr::Double(v) => format!("{v:?}"),
            Expr::Int(v) => v.to_string(),
            Expr::IntVar(n) | Expr::DoubleParam(n) => n.clone(),
            Expr::Unary { op, arg, .. } => format!(
                "{}{}",
                match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                },
                self.expr_text(arg)
            ),
            Expr::Binary { op, lhs, rhs, .. } => format!(
                "({} {} {})",
                self.expr_text(lhs),
                op.as_str(),
                self.expr_text(rhs)
            ),
            Expr::Call { name, args, .. } => format!(
                "{name}({})",
                args.iter()
                    .map(|a| self.expr_text(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::ToDouble(a) => format!("(double){}", self.expr_text(a)),
        }
    }
}

impl Access {
    /// The accessed element in isl notation, e.g. `A[i-1,j]` or `s[]`.
    pub fn target(&self) -> String {
        let idx: Vec<String> = self.index.iter().map(|a| a.to_isl_compact()).collect();
        format!("{}[{}]", self.array, idx.join(","))
    }
}
