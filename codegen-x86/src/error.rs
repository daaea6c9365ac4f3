//! The crate's single error type.
#![forbid(unsafe_code)]

use crate::label::Label;
use std::fmt;

/// Everything that can go wrong while assembling or mapping code.
///
/// Encoding an individual instruction never fails once its operands have been
/// constructed; the checks that need global knowledge (labels, branch
/// distances) are reported by [`Assembler::finish`](crate::Assembler::finish),
/// and operating-system failures by the [`jit`](crate::jit) module.
///
/// ```
/// use codegen_x86::{Assembler, Error};
/// let mut asm = Assembler::new();
/// let l = asm.new_label();
/// asm.jmp(l);
/// assert_eq!(asm.finish(), Err(Error::UnboundLabel(l)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A branch refers to a label that was never bound.
    UnboundLabel(Label),
    /// [`Assembler::bind`](crate::Assembler::bind) was called twice for the same label.
    LabelAlreadyBound(Label),
    /// The label was not created by this assembler.
    UnknownLabel(Label),
    /// A short (rel8) branch cannot reach its target.
    Rel8OutOfRange {
        /// The branch target.
        label: Label,
        /// The displacement that would have been needed.
        distance: i64,
    },
    /// A branch displacement does not fit in 32 bits.
    Rel32OutOfRange {
        /// The branch target.
        label: Label,
    },
    /// `rsp` cannot be used as an index register.
    RspAsIndex,
    /// A function frame's local area is too large for a 32-bit displacement.
    FrameTooLarge(u32),
    /// The code buffer handed to the JIT was empty.
    EmptyCode,
    /// A system call of the JIT runtime failed (`errno` attached).
    Os {
        /// The failing call (`"mmap"`, `"mprotect"`, ...).
        call: &'static str,
        /// The raw `errno` value.
        errno: i32,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnboundLabel(l) => write!(f, "label {} is used but never bound", l.id()),
            Error::LabelAlreadyBound(l) => write!(f, "label {} is bound twice", l.id()),
            Error::UnknownLabel(l) => {
                write!(f, "label {} does not belong to this assembler", l.id())
            }
            Error::Rel8OutOfRange { label, distance } => write!(
                f,
                "short branch to label {} needs displacement {distance}, outside -128..=127",
                label.id()
            ),
            Error::Rel32OutOfRange { label } => {
                write!(f, "branch to label {} does not fit in a rel32", label.id())
            }
            Error::RspAsIndex => write!(f, "rsp cannot be an index register"),
            Error::FrameTooLarge(n) => write!(f, "stack frame of {n} bytes is too large"),
            Error::EmptyCode => write!(f, "cannot map an empty code buffer"),
            Error::Os { call, errno } => write!(f, "{call} failed with errno {errno}"),
        }
    }
}

impl std::error::Error for Error {}
