//! Labels: named positions in the code buffer, bound once, referenced by branches.
#![forbid(unsafe_code)]

/// A branch target created by [`Assembler::new_label`](crate::Assembler::new_label).
///
/// A label is a small handle; it is bound to a position with
/// [`Assembler::bind`](crate::Assembler::bind). Branches may refer to it before
/// or after binding; forward references are patched by
/// [`Assembler::finish`](crate::Assembler::finish).
///
/// ```
/// use codegen_x86::Assembler;
/// let mut asm = Assembler::new();
/// let top = asm.new_label();
/// asm.bind(top)?;
/// asm.jmp(top); // backward: short form chosen immediately
/// assert_eq!(asm.finish()?, vec![0xeb, 0xfe]);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub(crate) u32);

impl Label {
    /// The label's index within its assembler.
    pub fn id(self) -> u32 {
        self.0
    }
}

/// Width of a branch displacement field awaiting its label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RelWidth {
    Rel8,
    Rel32,
}

/// A displacement field to patch once all labels are bound.
#[derive(Debug, Clone)]
pub(crate) struct Fixup {
    /// Offset of the displacement field in the buffer.
    pub at: usize,
    /// Offset just past the instruction (displacements are relative to it).
    pub end: usize,
    pub label: Label,
    pub width: RelWidth,
}
