//! The generated function: prologue, body, epilogue and the setup block
//! that fills the frame (run-time invariants, constants, scalars).
//!
//! Calling convention (System V): one argument, `rdi`, the address of the
//! argument vector: one 8-byte slot per signature parameter in order
//! (`int` as `i64`, `double` as its bits, arrays as pointers), one pointer
//! per local array, the pointer to the scalar area (one `f64` per local
//! scalar or written `double` parameter, initialised by the caller), the
//! worker's number and the number of workers. `rbx` keeps that address; the
//! frame is addressed from `rsp`.

use ast::Node;
use codegen_x86::Gpr;

use crate::emit::{g, imm, Emitter, Inst, Listed};
use crate::error::Result;
use crate::kernel::Kernel;
use crate::state::{State, FRAME_BYTES};

/// Callee-saved registers pushed by the prologue (rbp first).
const SAVED: [Gpr; 6] = [Gpr::Rbp, Gpr::Rbx, Gpr::R12, Gpr::R13, Gpr::R14, Gpr::R15];

/// Machine code of a kernel with its instruction listing.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The bytes (entry at offset 0).
    pub code: Vec<u8>,
    /// Every instruction with its resolved branch target.
    pub listing: Vec<(Inst, Option<usize>)>,
    /// One line per innermost loop: how it was lowered.
    pub notes: Vec<String>,
}

impl Compiled {
    /// The listing as text: `OFFSET: BYTES  INSTRUCTION` per line.
    pub fn asm_text(&self) -> String {
        let mut out = String::new();
        for (n, (i, t)) in self.listing.iter().enumerate() {
            let end = self.listing.get(n + 1).map_or(self.code.len(), |(j, _)| j.offset);
            let bytes: String = self.code[i.offset..end].iter().map(|b| format!("{b:02x}")).collect();
            out.push_str(&format!("{:6x}:  {:<24} {}\n", i.offset, bytes, Listed(i, *t)));
        }
        out
    }
}

/// Lowers the loop nest `node` of kernel `k` to machine code.
pub fn compile(k: &Kernel, node: &Node) -> Result<Compiled> {
    let mut e = Emitter::new();
    for r in SAVED {
        e.push(r);
    }
    e.sub(g(Gpr::Rsp), imm(FRAME_BYTES as i64 + 8))?;
    e.mov(g(Gpr::Rbx), g(Gpr::Rdi))?;
    let setup = e.label();
    let body = e.label();
    let exit = e.label();
    e.jmp(setup);
    e.bind(body)?;
    let mut st = State::new(k, e);
    st.node(node)?;
    st.e.bind(exit)?;
    st.e.add(g(Gpr::Rsp), imm(FRAME_BYTES as i64 + 8))?;
    for r in SAVED.iter().rev() {
        st.e.pop(*r);
    }
    if st.wide {
        st.e.vzeroupper();
    }
    st.e.ret();
    st.e.bind(setup)?;
    st.emit_invariants()?;
    st.e.jmp(body);
    let notes = std::mem::take(&mut st.notes);
    let (code, listing) = st.e.finish()?;
    Ok(Compiled { code, listing, notes })
}
