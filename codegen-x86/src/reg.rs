//! Register names: general-purpose ([`Gpr`]) and vector ([`Xmm`], [`Ymm`]).
//!
//! Each register knows its 4-bit hardware number ([`Gpr::num`] etc.); the low
//! three bits go into ModRM/SIB/opcode, the fourth into REX or VEX.
#![forbid(unsafe_code)]

use std::fmt;

macro_rules! register_enum {
    ($(#[$m:meta])* $name:ident, $class:literal, [$($v:ident = $s:literal),* $(,)?]) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum $name { $($v),* }

        impl $name {
            #[doc = concat!("All sixteen ", $class, " registers in hardware order.")]
            pub const ALL: [$name; 16] = [$($name::$v),*];

            /// The 4-bit hardware register number (0..=15).
            pub fn num(self) -> u8 {
                self as u8
            }

            /// The register with hardware number `n`, if `n < 16`.
            pub fn from_num(n: u8) -> Option<Self> {
                Self::ALL.get(usize::from(n)).copied()
            }

            /// The Intel-syntax name, e.g. `"r12"` or `"ymm3"`.
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s),* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

register_enum!(
    /// A 64-bit general-purpose register.
    ///
    /// ```
    /// use codegen_x86::Gpr;
    /// assert_eq!(Gpr::R13.num(), 13);
    /// assert_eq!(Gpr::from_num(4), Some(Gpr::Rsp));
    /// assert_eq!(Gpr::Rdi.to_string(), "rdi");
    /// ```
    Gpr, "general-purpose",
    [Rax = "rax", Rcx = "rcx", Rdx = "rdx", Rbx = "rbx", Rsp = "rsp", Rbp = "rbp", Rsi = "rsi",
     Rdi = "rdi", R8 = "r8", R9 = "r9", R10 = "r10", R11 = "r11", R12 = "r12", R13 = "r13",
     R14 = "r14", R15 = "r15"]
);

register_enum!(
    /// A 128-bit vector register (also used for scalar doubles).
    ///
    /// ```
    /// use codegen_x86::Xmm;
    /// assert_eq!(Xmm::Xmm9.num(), 9);
    /// ```
    Xmm, "xmm",
    [Xmm0 = "xmm0", Xmm1 = "xmm1", Xmm2 = "xmm2", Xmm3 = "xmm3", Xmm4 = "xmm4", Xmm5 = "xmm5",
     Xmm6 = "xmm6", Xmm7 = "xmm7", Xmm8 = "xmm8", Xmm9 = "xmm9", Xmm10 = "xmm10",
     Xmm11 = "xmm11", Xmm12 = "xmm12", Xmm13 = "xmm13", Xmm14 = "xmm14", Xmm15 = "xmm15"]
);

register_enum!(
    /// A 256-bit vector register (four doubles).
    ///
    /// ```
    /// use codegen_x86::{Xmm, Ymm};
    /// assert_eq!(Ymm::Ymm12.xmm(), Xmm::Xmm12);
    /// ```
    Ymm, "ymm",
    [Ymm0 = "ymm0", Ymm1 = "ymm1", Ymm2 = "ymm2", Ymm3 = "ymm3", Ymm4 = "ymm4", Ymm5 = "ymm5",
     Ymm6 = "ymm6", Ymm7 = "ymm7", Ymm8 = "ymm8", Ymm9 = "ymm9", Ymm10 = "ymm10",
     Ymm11 = "ymm11", Ymm12 = "ymm12", Ymm13 = "ymm13", Ymm14 = "ymm14", Ymm15 = "ymm15"]
);

impl Ymm {
    /// The low 128-bit half of this register.
    pub fn xmm(self) -> Xmm {
        Xmm::ALL[usize::from(self.num())]
    }
}

impl Xmm {
    /// The 256-bit register whose low half this is.
    pub fn ymm(self) -> Ymm {
        Ymm::ALL[usize::from(self.num())]
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Gpr {}
    impl Sealed for super::Xmm {}
    impl Sealed for super::Ymm {}
}

/// Any register class; lets [`RegMem`](crate::RegMem) be generic.
///
/// This trait is sealed: it is implemented for [`Gpr`], [`Xmm`] and [`Ymm`] only.
///
/// ```
/// use codegen_x86::{Reg, Ymm};
/// assert_eq!(Ymm::Ymm7.hw(), 7);
/// ```
pub trait Reg: sealed::Sealed + Copy + fmt::Debug {
    /// The 4-bit hardware number.
    fn hw(self) -> u8;
}

/// A vector register class, [`Xmm`] (128-bit, VEX.L = 0) or [`Ymm`] (256-bit, VEX.L = 1).
///
/// Packed instructions such as [`Assembler::vaddpd`](crate::Assembler::vaddpd) are
/// generic over this trait, so one method serves both widths.
///
/// ```
/// use codegen_x86::{VecReg, Xmm, Ymm};
/// assert!(!Xmm::WIDE && Ymm::WIDE);
/// ```
pub trait VecReg: Reg {
    /// `true` for 256-bit registers (sets VEX.L).
    const WIDE: bool;
}

impl Reg for Gpr {
    fn hw(self) -> u8 {
        self.num()
    }
}
impl Reg for Xmm {
    fn hw(self) -> u8 {
        self.num()
    }
}
impl Reg for Ymm {
    fn hw(self) -> u8 {
        self.num()
    }
}
impl VecReg for Xmm {
    const WIDE: bool = false;
}
impl VecReg for Ymm {
    const WIDE: bool = true;
}
