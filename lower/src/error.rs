//! The crate's error type.

use std::fmt;

/// What can go wrong while compiling or running a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A construct the lowering does not handle (the caller falls back to
    /// the interpreter and says so).
    Unsupported(String),
    /// The front end (parse, model, interpreter).
    Scop(scop::Error),
    /// AST generation.
    Ast(ast::Error),
    /// Dependence analysis (the parallel-loop test).
    Dataflow(dataflow::Error),
    /// The affine scheduler (a computed schedule).
    Scheduler(scheduler::Error),
    /// The engine (schedule restriction, bounds checks).
    Engine(presburger::Error),
    /// The encoder or the JIT.
    Codegen(codegen_x86::Error),
    /// A bad argument (`NAME=VALUE`).
    Usage(String),
    /// A broken invariant of the lowering itself.
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unsupported(m) => write!(f, "not compiled: {m}"),
            Error::Scop(e) => write!(f, "{e}"),
            Error::Ast(e) => write!(f, "AST generation: {e}"),
            Error::Dataflow(e) => write!(f, "dependences: {e}"),
            Error::Scheduler(e) => write!(f, "scheduler: {e}"),
            Error::Engine(e) => write!(f, "{e}"),
            Error::Codegen(e) => write!(f, "code generation: {e}"),
            Error::Usage(m) => write!(f, "{m}"),
            Error::Internal(m) => write!(f, "internal error in the lowering: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<scop::Error> for Error {
    fn from(e: scop::Error) -> Error {
        Error::Scop(e)
    }
}
impl From<ast::Error> for Error {
    fn from(e: ast::Error) -> Error {
        Error::Ast(e)
    }
}
impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Engine(e)
    }
}
impl From<codegen_x86::Error> for Error {
    fn from(e: codegen_x86::Error) -> Error {
        Error::Codegen(e)
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
