//! Operands: memory references ([`Mem`]) and register-or-memory ([`RegMem`]).
#![forbid(unsafe_code)]

use crate::error::Error;
use crate::reg::{Gpr, Reg, Xmm, Ymm};

/// Index scale factor of a memory operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scale {
    /// `index*1`
    X1,
    /// `index*2`
    X2,
    /// `index*4`
    X4,
    /// `index*8`
    X8,
}

impl Scale {
    /// The two-bit SIB encoding.
    ///
    /// ```
    /// use codegen_x86::Scale;
    /// assert_eq!(Scale::X8.bits(), 3);
    /// assert_eq!(Scale::from_factor(4), Some(Scale::X4));
    /// assert_eq!(Scale::X2.factor(), 2);
    /// ```
    pub fn bits(self) -> u8 {
        self as u8
    }

    /// The multiplier, 1, 2, 4 or 8.
    pub fn factor(self) -> u8 {
        1 << self.bits()
    }

    /// The scale for a multiplier of 1, 2, 4 or 8.
    pub fn from_factor(f: u8) -> Option<Scale> {
        match f {
            1 => Some(Scale::X1),
            2 => Some(Scale::X2),
            4 => Some(Scale::X4),
            8 => Some(Scale::X8),
            _ => None,
        }
    }
}

/// A memory operand `[base + index*scale + disp]`.
///
/// Every part is optional; a lone displacement is an absolute address (encoded
/// through a SIB byte, never RIP-relative). The operand width is implied by the
/// instruction. `rsp` can never be an index, so the constructors taking an
/// index return a `Result`.
///
/// ```
/// use codegen_x86::{Gpr, Mem, Scale};
/// let m = Mem::base(Gpr::Rdi).disp(16);
/// assert_eq!(m.to_string(), "[rdi+0x10]");
/// let m = Mem::sib(Gpr::R12, Gpr::R9, Scale::X8, -8)?;
/// assert_eq!(m.to_string(), "[r12+r9*8-0x8]");
/// assert!(Mem::sib(Gpr::Rax, Gpr::Rsp, Scale::X1, 0).is_err());
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mem {
    pub(crate) base: Option<Gpr>,
    pub(crate) index: Option<(Gpr, Scale)>,
    pub(crate) disp: i32,
}

impl Mem {
    /// `[base]`
    ///
    /// ```
    /// use codegen_x86::{Gpr, Mem};
    /// assert_eq!(Mem::base(Gpr::R13).to_string(), "[r13]");
    /// ```
    pub fn base(base: Gpr) -> Mem {
        Mem {
            base: Some(base),
            index: None,
            disp: 0,
        }
    }

    /// `[base + index*scale + disp]`; fails if `index` is `rsp`.
    pub fn sib(base: Gpr, index: Gpr, scale: Scale, disp: i32) -> Result<Mem, Error> {
        if index == Gpr::Rsp {
            return Err(Error::RspAsIndex);
        }
        Ok(Mem {
            base: Some(base),
            index: Some((index, scale)),
            disp,
        })
    }

    /// `[index*scale + disp]` without a base register; fails if `index` is `rsp`.
    ///
    /// ```
    /// use codegen_x86::{Gpr, Mem, Scale};
    /// assert_eq!(Mem::index_only(Gpr::Rcx, Scale::X8, 64)?.to_string(), "[rcx*8+0x40]");
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn index_only(index: Gpr, scale: Scale, disp: i32) -> Result<Mem, Error> {
        if index == Gpr::Rsp {
            return Err(Error::RspAsIndex);
        }
        Ok(Mem {
            base: None,
            index: Some((index, scale)),
            disp,
        })
    }

    /// `[disp]`: an absolute 32-bit (sign-extended) address.
    ///
    /// ```
    /// use codegen_x86::Mem;
    /// assert_eq!(Mem::absolute(0x1000).displacement(), 0x1000);
    /// assert_eq!(Mem::absolute(0x1000).base_reg(), None);
    /// ```
    pub fn absolute(disp: i32) -> Mem {
        Mem {
            base: None,
            index: None,
            disp,
        }
    }

    /// The same operand with its displacement replaced by `disp`.
    ///
    /// ```
    /// use codegen_x86::{Gpr, Mem, Scale};
    /// let m = Mem::sib(Gpr::Rax, Gpr::Rbx, Scale::X2, 0)?.disp(-4);
    /// assert_eq!(m.index_reg(), Some((Gpr::Rbx, Scale::X2)));
    /// assert_eq!(m.to_string(), "[rax+rbx*2-0x4]");
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn disp(self, disp: i32) -> Mem {
        Mem { disp, ..self }
    }

    /// The base register, if any.
    pub fn base_reg(&self) -> Option<Gpr> {
        self.base
    }

    /// The index register and scale, if any.
    pub fn index_reg(&self) -> Option<(Gpr, Scale)> {
        self.index
    }

    /// The displacement.
    pub fn displacement(&self) -> i32 {
        self.disp
    }
}

impl std::fmt::Display for Mem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[")?;
        let mut first = true;
        if let Some(b) = self.base {
            f.write_str(b.name())?;
            first = false;
        }
        if let Some((i, s)) = self.index {
            if !first {
                f.write_str("+")?;
            }
            write!(f, "{}*{}", i.name(), s.factor())?;
            first = false;
        }
        let d = i64::from(self.disp);
        if first {
            write!(f, "{d:#x}")?;
        } else if d > 0 {
            write!(f, "+{d:#x}")?;
        } else if d < 0 {
            write!(f, "-{:#x}", -d)?;
        }
        f.write_str("]")
    }
}

/// Either a register of class `R` or a memory operand: the `r/m` slot of an instruction.
///
/// Methods take `impl Into<RegMem<R>>`, so callers pass a register or a [`Mem`] directly.
///
/// ```
/// use codegen_x86::{Gpr, Mem, RegMem, Ymm};
/// let a: RegMem<Ymm> = Ymm::Ymm3.into();
/// let b: RegMem<Ymm> = Mem::base(Gpr::Rsi).into();
/// assert_eq!(a, RegMem::Reg(Ymm::Ymm3));
/// assert!(matches!(b, RegMem::Mem(_)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegMem<R> {
    /// A register operand.
    Reg(R),
    /// A memory operand.
    Mem(Mem),
}

impl<R: Reg> From<Mem> for RegMem<R> {
    fn from(m: Mem) -> Self {
        RegMem::Mem(m)
    }
}
impl From<Gpr> for RegMem<Gpr> {
    fn from(r: Gpr) -> Self {
        RegMem::Reg(r)
    }
}
impl From<Xmm> for RegMem<Xmm> {
    fn from(r: Xmm) -> Self {
        RegMem::Reg(r)
    }
}
impl From<Ymm> for RegMem<Ymm> {
    fn from(r: Ymm) -> Self {
        RegMem::Reg(r)
    }
}

/// Operand combinations of two-operand integer instructions (`mov`, `add`, `cmp`, ...).
///
/// Built implicitly from a `(destination, source)` pair, so
/// `asm.add(Gpr::Rax, 8)` and `asm.add(Mem::base(Gpr::Rdi), Gpr::Rcx)` both work,
/// while a memory-to-memory pair does not compile.
///
/// ```
/// use codegen_x86::{Gpr, GpArgs, Mem};
/// let a: GpArgs = (Gpr::Rax, -1).into();
/// assert_eq!(a, GpArgs::RegImm(Gpr::Rax, -1));
/// let b: GpArgs = (Mem::base(Gpr::Rbx), Gpr::R8).into();
/// assert!(matches!(b, GpArgs::MemReg(_, Gpr::R8)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GpArgs {
    /// `op reg, reg`
    RegReg(Gpr, Gpr),
    /// `op reg, [mem]`
    RegMem(Gpr, Mem),
    /// `op [mem], reg`
    MemReg(Mem, Gpr),
    /// `op reg, imm` (sign-extended 32-bit immediate)
    RegImm(Gpr, i32),
    /// `op [mem], imm` (sign-extended 32-bit immediate)
    MemImm(Mem, i32),
}

impl From<(Gpr, Gpr)> for GpArgs {
    fn from((d, s): (Gpr, Gpr)) -> Self {
        GpArgs::RegReg(d, s)
    }
}
impl From<(Gpr, Mem)> for GpArgs {
    fn from((d, s): (Gpr, Mem)) -> Self {
        GpArgs::RegMem(d, s)
    }
}
impl From<(Mem, Gpr)> for GpArgs {
    fn from((d, s): (Mem, Gpr)) -> Self {
        GpArgs::MemReg(d, s)
    }
}
impl From<(Gpr, i32)> for GpArgs {
    fn from((d, s): (Gpr, i32)) -> Self {
        GpArgs::RegImm(d, s)
    }
}
impl From<(Mem, i32)> for GpArgs {
    fn from((d, s): (Mem, i32)) -> Self {
        GpArgs::MemImm(d, s)
    }
}

/// Operand combinations of vector moves (`vmovupd`, `vmovapd`).
///
/// Built implicitly from a `(destination, source)` pair of a load, a store or a
/// register copy, for either [`Xmm`] or [`Ymm`].
///
/// ```
/// use codegen_x86::{Gpr, Mem, VecMove, Ymm};
/// let load: VecMove = (Ymm::Ymm1, Mem::base(Gpr::Rsi)).into();
/// assert!(matches!(load, VecMove::Load { wide: true, .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VecMove {
    /// Register from memory.
    Load {
        /// 256-bit if `true`.
        wide: bool,
        /// Hardware number of the destination register.
        dst: u8,
        /// Source.
        src: Mem,
    },
    /// Memory from register.
    Store {
        /// 256-bit if `true`.
        wide: bool,
        /// Destination.
        dst: Mem,
        /// Hardware number of the source register.
        src: u8,
    },
    /// Register copy.
    Copy {
        /// 256-bit if `true`.
        wide: bool,
        /// Hardware number of the destination register.
        dst: u8,
        /// Hardware number of the source register.
        src: u8,
    },
}

impl From<(Xmm, Mem)> for VecMove {
    fn from((d, s): (Xmm, Mem)) -> Self {
        VecMove::Load {
            wide: false,
            dst: d.num(),
            src: s,
        }
    }
}
impl From<(Ymm, Mem)> for VecMove {
    fn from((d, s): (Ymm, Mem)) -> Self {
        VecMove::Load {
            wide: true,
            dst: d.num(),
            src: s,
        }
    }
}
impl From<(Mem, Xmm)> for VecMove {
    fn from((d, s): (Mem, Xmm)) -> Self {
        VecMove::Store {
            wide: false,
            dst: d,
            src: s.num(),
        }
    }
}
impl From<(Mem, Ymm)> for VecMove {
    fn from((d, s): (Mem, Ymm)) -> Self {
        VecMove::Store {
            wide: true,
            dst: d,
            src: s.num(),
        }
    }
}
impl From<(Xmm, Xmm)> for VecMove {
    fn from((d, s): (Xmm, Xmm)) -> Self {
        VecMove::Copy {
            wide: false,
            dst: d.num(),
            src: s.num(),
        }
    }
}
impl From<(Ymm, Ymm)> for VecMove {
    fn from((d, s): (Ymm, Ymm)) -> Self {
        VecMove::Copy {
            wide: true,
            dst: d.num(),
            src: s.num(),
        }
    }
}
