//! Run-time invariants (polynomials in the integer parameters) and
//! double constants: each gets a frame slot on first use, and the setup
//! block computes them all before the loops.

use codegen_x86::{Gpr, Mem};

use super::{arg, slot, State};
use crate::emit::{g, imm, q, Operand};
use crate::error::{Error, Result};
use crate::kernel::ParamClass;
use crate::linear::Poly;

impl State<'_> {
    /// The operand of a run-time invariant: an immediate when it is a
    /// small constant, else its slot (computed in the setup block).
    pub fn inv(&mut self, p: &Poly) -> Result<Operand> {
        if let Some(c) = p.as_const() {
            if i32::try_from(c).is_ok() {
                return Ok(imm(c));
            }
        }
        if let Some((_, s)) = self.invariants.iter().find(|(x, _)| x == p) {
            return Ok(q(slot(*s)));
        }
        let s = self.new_slot(8)?;
        self.invariants.push((p.clone(), s));
        Ok(q(slot(s)))
    }

    /// The 32-byte slot holding four copies of a double.
    pub fn constant(&mut self, bits: u64) -> Result<Mem> {
        if let Some((_, s)) = self.consts.iter().find(|(b, _)| *b == bits) {
            return Ok(slot(*s));
        }
        let s = self.new_slot(32)?;
        self.consts.push((bits, s));
        Ok(slot(s))
    }

    /// Emits the computation of every run-time invariant into its slot
    /// (the setup block; `rax` and `rcx` are free there).
    pub fn emit_invariants(&mut self) -> Result<()> {
        let invs = self.invariants.clone();
        for (p, s) in invs {
            self.e.mov_imm(Gpr::Rax, 0);
            for (m, c) in &p.0 {
                self.e.mov_imm(Gpr::Rcx, *c);
                for name in m {
                    match self.k.param_slot(name) {
                        Some((k, ParamClass::Int)) => self.e.imul(Gpr::Rcx, q(arg(k)))?,
                        _ => return Err(Error::Internal(format!("`{name}` in an invariant"))),
                    }
                }
                self.e.add(g(Gpr::Rax), g(Gpr::Rcx))?;
            }
            self.e.mov(q(slot(s)), g(Gpr::Rax))?;
        }
        let consts = self.consts.clone();
        for (bits, s) in consts {
            self.e.mov_imm(Gpr::Rax, bits as i64);
            for lane in 0..4 {
                self.e.mov(q(slot(s + 8 * lane)), g(Gpr::Rax))?;
            }
        }
        Ok(())
    }
}
