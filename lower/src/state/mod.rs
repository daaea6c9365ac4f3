//! The lowering state: register allocation, frame slots, run-time
//! invariants and constants, and integer expressions (loop bounds,
//! conditions, subscripts).
//!
//! The parts:
//! - this module: the state, where integers live ([`Loc`]), the argument
//!   and frame slots, and variables (iterators and integer parameters);
//! - `alloc`: general and vector registers, frame slots;
//! - `invariants`: run-time invariants and double constants, computed in
//!   the setup block;
//! - `integer`: integer expressions and linear forms into registers;
//! - `division`: division by constants (shifts, magic multipliers, `idiv`);
//! - `condition`: conditions as jumps, comparisons.

mod alloc;
mod condition;
mod division;
mod integer;
mod invariants;

use codegen_x86::{Gpr, Mem};

use crate::emit::{g, q, Emitter, Operand};
use crate::error::{Error, Result};
use crate::kernel::{Kernel, ParamClass};
use crate::linear::Poly;

pub(crate) use condition::cc;
pub(crate) use integer::temps_needed;

/// Bytes of frame the generated function reserves for its slots.
pub const FRAME_BYTES: i32 = 16384;

/// Where an integer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    /// A register.
    Reg(Gpr),
    /// A frame slot.
    Slot(i32),
}

/// The lowering state of one function.
pub struct State<'k> {
    /// The kernel.
    pub k: &'k Kernel,
    /// The instruction stream.
    pub e: Emitter,
    gpr_used: u32,
    /// The register [`State::temp`] hands out first (once), if free.
    prefer: Option<Gpr>,
    xmm_used: u32,
    next_slot: i32,
    /// AST iterators in scope with their locations (innermost last).
    pub vars: Vec<(String, Loc)>,
    /// The steps of the `for` loops being lowered (outermost first).
    pub loop_steps: Vec<(String, i64)>,
    /// Run-time invariants (polynomials in the parameters) and their slots.
    pub invariants: Vec<(Poly, i32)>,
    /// Double constants (bit patterns) and their 32-byte slots.
    pub consts: Vec<(u64, i32)>,
    /// True once a ymm register was used.
    pub wide: bool,
    /// The calls made by unroll-and-jam (independent copies).
    pub copies: crate::jam::Copies,
    /// Split the next `for` loop's iterations among the workers.
    pub chunk: bool,
    /// What the lowering decided per innermost loop (for listings).
    pub notes: Vec<String>,
    /// Arrays walked at a stride other than 0 or ±1 element, summed over
    /// the innermost loops lowered so far.
    pub strided: usize,
    /// Addressing of the innermost loop being lowered.
    pub inner: Option<crate::body::Inner>,
    /// Bytes of per-worker workspace the code uses (packing buffers).
    pub workspace: usize,
    /// The statement being lowered: nodes of its value (by address) whose
    /// value a register already holds (`crate::cse`).
    pub shared: std::collections::HashMap<usize, u8>,
}

/// `[rsp + off]`.
pub fn slot(off: i32) -> Mem {
    Mem::base(Gpr::Rsp).disp(off)
}

/// `[rbx + 8k]`: argument slot `k`.
pub fn arg(k: usize) -> Mem {
    Mem::base(Gpr::Rbx).disp(8 * k as i32)
}

fn unsupported<T>(m: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(m.into()))
}

impl<'k> State<'k> {
    /// A fresh state (rbp is used as the frame pointer only by the
    /// prologue; the body addresses slots from rsp, so rbp is allocatable).
    pub fn new(k: &'k Kernel, e: Emitter) -> State<'k> {
        State {
            k,
            e,
            gpr_used: 0,
            prefer: None,
            xmm_used: 0,
            next_slot: 0,
            vars: Vec::new(),
            loop_steps: Vec::new(),
            invariants: Vec::new(),
            consts: Vec::new(),
            wide: false,
            inner: None,
            chunk: false,
            copies: crate::jam::Copies::new(),
            notes: Vec::new(),
            strided: 0,
            workspace: 0,
            shared: std::collections::HashMap::new(),
        }
    }

    /// The address of a scalar (a temporary holds the scalar area's
    /// pointer; free it after use).
    pub fn scalar_mem(&mut self, name: &str) -> Result<(Mem, Gpr)> {
        let Some(crate::kernel::Storage::Scalar { index, .. }) =
            self.k.arrays.get(name).map(|a| a.storage)
        else {
            return Err(Error::Internal(format!("{name} is not a scalar")));
        };
        let t = self.temp()?;
        self.e.mov(g(t), q(arg(self.k.scalar_area())))?;
        Ok((Mem::base(t).disp(8 * index as i32), t))
    }

    /// The operand of a variable: an iterator's location or an integer
    /// parameter's argument slot.
    pub fn var(&self, n: &str) -> Result<Operand> {
        if let Some((_, l)) = self.vars.iter().rev().find(|(v, _)| v == n) {
            return Ok(match l {
                Loc::Reg(r) => g(*r),
                Loc::Slot(s) => q(slot(*s)),
            });
        }
        match self.k.param_slot(n) {
            Some((k, ParamClass::Int)) => Ok(q(arg(k))),
            _ => Err(Error::Internal(format!("unknown integer variable `{n}`"))),
        }
    }

    /// True if `n` is an AST iterator in scope.
    pub fn is_iter(&self, n: &str) -> bool {
        self.vars.iter().any(|(v, _)| v == n)
    }
}
