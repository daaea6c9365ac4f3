//! Register allocation and frame slots. General registers: `rbx` holds
//! the argument vector, `rsp`/`rbp` the frame, `rax`/`rdx` are reserved
//! for division and calls; the other twelve are allocated. Long-lived
//! values (iterators, hoisted bounds, strength-reduced pointers) prefer
//! callee-saved registers, temporaries the others; when none is free a
//! long-lived value lives in a frame slot. Vector registers are the
//! sixteen `xmm`/`ymm`.

use codegen_x86::Gpr;

use super::{unsupported, Loc, State, FRAME_BYTES};
use crate::error::Result;

const LONG_ORDER: [Gpr; 12] = [
    Gpr::R12,
    Gpr::R13,
    Gpr::R14,
    Gpr::R15,
    Gpr::R8,
    Gpr::R9,
    Gpr::R10,
    Gpr::R11,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::Rcx,
    Gpr::Rbp,
];
const TEMP_ORDER: [Gpr; 12] = [
    Gpr::Rcx,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::R11,
    Gpr::R10,
    Gpr::R9,
    Gpr::R8,
    Gpr::R15,
    Gpr::R14,
    Gpr::R13,
    Gpr::R12,
    Gpr::Rbp,
];

impl State<'_> {
    /// A new frame slot of `bytes` (8 or 32), aligned to its size.
    pub fn new_slot(&mut self, bytes: i32) -> Result<i32> {
        let off = (self.next_slot + bytes - 1) / bytes * bytes;
        if off + bytes > FRAME_BYTES {
            return unsupported("the frame is full (too many values)");
        }
        self.next_slot = off + bytes;
        Ok(off)
    }

    fn take(&mut self, order: &[Gpr]) -> Option<Gpr> {
        let r = order
            .iter()
            .copied()
            .find(|r| self.gpr_used & (1 << r.num()) == 0)?;
        self.gpr_used |= 1 << r.num();
        Some(r)
    }

    /// A temporary general register (the preferred one of
    /// [`State::ival_to`] first).
    pub fn temp(&mut self) -> Result<Gpr> {
        if let Some(p) = self.prefer.take() {
            if self.gpr_used & (1 << p.num()) == 0 {
                self.gpr_used |= 1 << p.num();
                return Ok(p);
            }
        }
        match self.take(&TEMP_ORDER) {
            Some(r) => Ok(r),
            None => unsupported("integer expression needs more registers than are free"),
        }
    }

    /// A long-lived location: a register if one is free, else a slot.
    pub fn long(&mut self) -> Result<Loc> {
        match self.take(&LONG_ORDER) {
            Some(r) => Ok(Loc::Reg(r)),
            None => Ok(Loc::Slot(self.new_slot(8)?)),
        }
    }

    /// A long-lived register if one is free.
    pub fn long_reg(&mut self) -> Option<Gpr> {
        self.take(&LONG_ORDER)
    }

    /// Number of free general registers.
    pub fn free_gprs(&self) -> usize {
        LONG_ORDER
            .iter()
            .filter(|r| self.gpr_used & (1 << r.num()) == 0)
            .count()
    }

    /// Releases a register.
    pub fn free(&mut self, r: Gpr) {
        self.gpr_used &= !(1 << r.num());
    }

    /// Releases a location.
    pub fn free_loc(&mut self, l: Loc) {
        if let Loc::Reg(r) = l {
            self.free(r)
        }
    }

    /// General registers in use that a call clobbers.
    pub fn live_caller_saved(&self) -> Vec<Gpr> {
        [
            Gpr::Rcx,
            Gpr::Rsi,
            Gpr::Rdi,
            Gpr::R8,
            Gpr::R9,
            Gpr::R10,
            Gpr::R11,
        ]
        .into_iter()
        .filter(|r| self.gpr_used & (1 << r.num()) != 0)
        .collect()
    }

    /// A vector register (number 0..16).
    pub fn vreg(&mut self) -> Result<u8> {
        for n in 0..16u8 {
            if self.xmm_used & (1 << n) == 0 {
                self.xmm_used |= 1 << n;
                return Ok(n);
            }
        }
        unsupported("expression needs more than 16 vector registers")
    }

    /// Releases a vector register.
    pub fn vfree(&mut self, n: u8) {
        self.xmm_used &= !(1 << n);
    }

    /// Vector registers in use.
    pub fn live_vregs(&self) -> Vec<u8> {
        (0..16u8)
            .filter(|n| self.xmm_used & (1 << n) != 0)
            .collect()
    }

    /// Number of free vector registers.
    pub fn free_vregs(&self) -> usize {
        16 - self.xmm_used.count_ones() as usize
    }
}
