//! The crate's single error type.
//!
//! Every error that originates in a source file carries the 1-based line and
//! column of the offending construct, so front-end users can point at it.

use std::fmt;

/// All errors produced by the `scop` crate.
///
/// ```
/// let err = scop::parse_kernel("void f(int N) { while (1) {} }").unwrap_err();
/// assert_eq!((err.line(), err.col()), (1, 17));
/// assert!(err.to_string().contains("while"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The text is not valid C (in the accepted subset's grammar).
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What went wrong.
        message: String,
    },
    /// Valid C, but outside the static-control subset.
    Unsupported {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The construct that is not supported (e.g. `while`).
        construct: String,
        /// Why it is not supported.
        reason: String,
    },
    /// A semantic error: unknown identifier, wrong number of subscripts, ...
    Semantic {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What went wrong.
        message: String,
    },
    /// An error while interpreting (out-of-bounds access, division by zero).
    Runtime {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What went wrong.
        message: String,
    },
    /// Bad command-line usage or an unreadable file (no source position).
    Usage {
        /// What went wrong.
        message: String,
    },
    /// The set engine refused to build a relation of the model (no source
    /// position: e.g. its operation budget ran out).
    Engine(presburger::Error),
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Engine(e)
    }
}

impl Error {
    pub(crate) fn syntax(pos: Pos, message: impl Into<String>) -> Error {
        Error::Syntax {
            line: pos.line,
            col: pos.col,
            message: message.into(),
        }
    }
    pub(crate) fn unsupported(
        pos: Pos,
        construct: impl Into<String>,
        reason: impl Into<String>,
    ) -> Error {
        Error::Unsupported {
            line: pos.line,
            col: pos.col,
            construct: construct.into(),
            reason: reason.into(),
        }
    }
    pub(crate) fn semantic(pos: Pos, message: impl Into<String>) -> Error {
        Error::Semantic {
            line: pos.line,
            col: pos.col,
            message: message.into(),
        }
    }
    pub(crate) fn runtime(pos: Pos, message: impl Into<String>) -> Error {
        Error::Runtime {
            line: pos.line,
            col: pos.col,
            message: message.into(),
        }
    }
    pub(crate) fn usage(message: impl Into<String>) -> Error {
        Error::Usage {
            message: message.into(),
        }
    }

    /// 1-based line of the error (0 when the error has no source position).
    pub fn line(&self) -> usize {
        match self {
            Error::Syntax { line, .. }
            | Error::Unsupported { line, .. }
            | Error::Semantic { line, .. }
            | Error::Runtime { line, .. } => *line,
            Error::Usage { .. } | Error::Engine(_) => 0,
        }
    }

    /// 1-based column of the error (0 when the error has no source position).
    pub fn col(&self) -> usize {
        match self {
            Error::Syntax { col, .. }
            | Error::Unsupported { col, .. }
            | Error::Semantic { col, .. }
            | Error::Runtime { col, .. } => *col,
            Error::Usage { .. } | Error::Engine(_) => 0,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Syntax { line, col, message } => {
                write!(f, "{line}:{col}: syntax error: {message}")
            }
            Error::Unsupported {
                line,
                col,
                construct,
                reason,
            } => write!(
                f,
                "{line}:{col}: unsupported construct `{construct}`: {reason}"
            ),
            Error::Semantic { line, col, message } => write!(f, "{line}:{col}: error: {message}"),
            Error::Runtime { line, col, message } => {
                write!(f, "{line}:{col}: runtime error: {message}")
            }
            Error::Usage { message } => write!(f, "{message}"),
            Error::Engine(e) => write!(f, "set engine: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Engine(e) => Some(e),
            _ => None,
        }
    }
}

/// A 1-based source position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
}
