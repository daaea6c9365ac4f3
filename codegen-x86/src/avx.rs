//! AVX/AVX2/FMA instructions on doubles: scalar (`*sd`, on [`Xmm`]) and packed
//! (`*pd`, generic over [`Xmm`] and [`Ymm`] through [`VecReg`]).
//!
//! Three-operand forms are `op dst, src1, src2` with `src1` in `VEX.vvvv` and
//! `src2` a register or memory operand.
#![forbid(unsafe_code)]

use crate::encode::{Assembler, Map, Pp, Rm};
use crate::operand::{Mem, RegMem, VecMove};
use crate::reg::{Gpr, VecReg, Xmm, Ymm};

macro_rules! packed3 {
    ($($name:ident = $map:ident, $w:literal, $op:literal, $bytes:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), " dst, src1, src2/mem` on [`Xmm`] or [`Ymm`].")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Ymm};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name), "(Ymm::Ymm0, Ymm::Ymm1, Ymm::Ymm2);")]
        #[doc = concat!("assert_eq!(asm.code(), ", stringify!($bytes), ");")]
        /// ```
        pub fn $name<R: VecReg>(&mut self, dst: R, src1: R, src2: impl Into<RegMem<R>>) {
            self.vex(R::WIDE, Pp::P66, Map::$map, $w, $op, dst.hw(), src1.hw(), src2.into().into());
        }
    )*};
}

macro_rules! scalar3 {
    ($($name:ident = $pp:ident, $map:ident, $w:literal, $op:literal, $bytes:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), " xmm, xmm, xmm/m64` on the low double.")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Xmm};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name), "(Xmm::Xmm0, Xmm::Xmm1, Xmm::Xmm2);")]
        #[doc = concat!("assert_eq!(asm.code(), ", stringify!($bytes), ");")]
        /// ```
        pub fn $name(&mut self, dst: Xmm, src1: Xmm, src2: impl Into<RegMem<Xmm>>) {
            self.vex(false, Pp::$pp, Map::$map, $w, $op, dst.num(), src1.num(), src2.into().into());
        }
    )*};
}

impl Assembler {
    packed3! {
        vaddpd = M0f, false, 0x58, [0xc5, 0xf5, 0x58, 0xc2];
        vmulpd = M0f, false, 0x59, [0xc5, 0xf5, 0x59, 0xc2];
        vsubpd = M0f, false, 0x5c, [0xc5, 0xf5, 0x5c, 0xc2];
        vminpd = M0f, false, 0x5d, [0xc5, 0xf5, 0x5d, 0xc2];
        vdivpd = M0f, false, 0x5e, [0xc5, 0xf5, 0x5e, 0xc2];
        vmaxpd = M0f, false, 0x5f, [0xc5, 0xf5, 0x5f, 0xc2];
        vxorpd = M0f, false, 0x57, [0xc5, 0xf5, 0x57, 0xc2];
        vandpd = M0f, false, 0x54, [0xc5, 0xf5, 0x54, 0xc2];
        vunpcklpd = M0f, false, 0x14, [0xc5, 0xf5, 0x14, 0xc2];
        vunpckhpd = M0f, false, 0x15, [0xc5, 0xf5, 0x15, 0xc2];
        vfmadd132pd = M0f38, true, 0x98, [0xc4, 0xe2, 0xf5, 0x98, 0xc2];
        vfmadd213pd = M0f38, true, 0xa8, [0xc4, 0xe2, 0xf5, 0xa8, 0xc2];
        vfmadd231pd = M0f38, true, 0xb8, [0xc4, 0xe2, 0xf5, 0xb8, 0xc2];
    }

    scalar3! {
        vaddsd = F2, M0f, false, 0x58, [0xc5, 0xf3, 0x58, 0xc2];
        vmulsd = F2, M0f, false, 0x59, [0xc5, 0xf3, 0x59, 0xc2];
        vsubsd = F2, M0f, false, 0x5c, [0xc5, 0xf3, 0x5c, 0xc2];
        vminsd = F2, M0f, false, 0x5d, [0xc5, 0xf3, 0x5d, 0xc2];
        vdivsd = F2, M0f, false, 0x5e, [0xc5, 0xf3, 0x5e, 0xc2];
        vmaxsd = F2, M0f, false, 0x5f, [0xc5, 0xf3, 0x5f, 0xc2];
        vsqrtsd = F2, M0f, false, 0x51, [0xc5, 0xf3, 0x51, 0xc2];
        vfmadd132sd = P66, M0f38, true, 0x99, [0xc4, 0xe2, 0xf1, 0x99, 0xc2];
        vfmadd213sd = P66, M0f38, true, 0xa9, [0xc4, 0xe2, 0xf1, 0xa9, 0xc2];
        vfmadd231sd = P66, M0f38, true, 0xb9, [0xc4, 0xe2, 0xf1, 0xb9, 0xc2];
    }

    /// `vsqrtpd dst, src/mem`: packed square root.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vsqrtpd(Ymm::Ymm0, Ymm::Ymm1);
    /// assert_eq!(asm.code(), [0xc5, 0xfd, 0x51, 0xc1]);
    /// ```
    pub fn vsqrtpd<R: VecReg>(&mut self, dst: R, src: impl Into<RegMem<R>>) {
        self.vex(
            R::WIDE,
            Pp::P66,
            Map::M0f,
            false,
            0x51,
            dst.hw(),
            0,
            src.into().into(),
        );
    }

    /// Shared encoder of `vmovupd`/`vmovapd`: `load` opcode for loads, `load + 1`
    /// for stores. A register copy whose source needs `VEX.B` but whose
    /// destination does not uses the store form, which fits the 2-byte VEX
    /// (GNU `as` does the same).
    fn vec_move(&mut self, load: u8, mv: VecMove) {
        let store = load + 1;
        match mv {
            VecMove::Load { wide, dst, src } => {
                self.vex(wide, Pp::P66, Map::M0f, false, load, dst, 0, Rm::Mem(src))
            }
            VecMove::Store { wide, dst, src } => {
                self.vex(wide, Pp::P66, Map::M0f, false, store, src, 0, Rm::Mem(dst))
            }
            VecMove::Copy { wide, dst, src } if src >= 8 && dst < 8 => {
                self.vex(wide, Pp::P66, Map::M0f, false, store, src, 0, Rm::Reg(dst))
            }
            VecMove::Copy { wide, dst, src } => {
                self.vex(wide, Pp::P66, Map::M0f, false, load, dst, 0, Rm::Reg(src))
            }
        }
    }

    /// `vmovupd`: unaligned packed load, store or register copy.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vmovupd(Ymm::Ymm1, Mem::base(Gpr::Rsi));
    /// asm.vmovupd(Mem::base(Gpr::Rdi).disp(32), Ymm::Ymm1);
    /// assert_eq!(asm.code(), [0xc5, 0xfd, 0x10, 0x0e, 0xc5, 0xfd, 0x11, 0x4f, 0x20]);
    /// ```
    pub fn vmovupd<D, S>(&mut self, dst: D, src: S)
    where
        (D, S): Into<VecMove>,
    {
        self.vec_move(0x10, (dst, src).into());
    }

    /// `vmovapd`: aligned packed load, store or register copy (faults if a
    /// memory operand is not 16/32-byte aligned).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vmovapd(Ymm::Ymm0, Ymm::Ymm8);
    /// assert_eq!(asm.code(), [0xc5, 0x7d, 0x29, 0xc0]);
    /// ```
    pub fn vmovapd<D, S>(&mut self, dst: D, src: S)
    where
        (D, S): Into<VecMove>,
    {
        self.vec_move(0x28, (dst, src).into());
    }

    /// `vmovsd xmm, m64`: scalar load (zeroes the upper lanes).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vmovsd_load(Xmm::Xmm0, Mem::base(Gpr::Rdi));
    /// assert_eq!(asm.code(), [0xc5, 0xfb, 0x10, 0x07]);
    /// ```
    pub fn vmovsd_load(&mut self, dst: Xmm, src: Mem) {
        self.vex(
            false,
            Pp::F2,
            Map::M0f,
            false,
            0x10,
            dst.num(),
            0,
            Rm::Mem(src),
        );
    }

    /// `vmovsd m64, xmm`: scalar store.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vmovsd_store(Mem::base(Gpr::Rdi), Xmm::Xmm0);
    /// assert_eq!(asm.code(), [0xc5, 0xfb, 0x11, 0x07]);
    /// ```
    pub fn vmovsd_store(&mut self, dst: Mem, src: Xmm) {
        self.vex(
            false,
            Pp::F2,
            Map::M0f,
            false,
            0x11,
            src.num(),
            0,
            Rm::Mem(dst),
        );
    }

    /// `vmovsd dst, src1, src2`: low double from `src2`, upper from `src1`.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vmovsd_merge(Xmm::Xmm0, Xmm::Xmm1, Xmm::Xmm8);
    /// assert_eq!(asm.code(), [0xc5, 0x73, 0x11, 0xc0]);
    /// ```
    pub fn vmovsd_merge(&mut self, dst: Xmm, src1: Xmm, src2: Xmm) {
        let (d, a, b) = (dst.num(), src1.num(), src2.num());
        if b >= 8 && d < 8 {
            self.vex(false, Pp::F2, Map::M0f, false, 0x11, b, a, Rm::Reg(d));
        } else {
            self.vex(false, Pp::F2, Map::M0f, false, 0x10, d, a, Rm::Reg(b));
        }
    }

    /// `vbroadcastsd ymm, m64/xmm`: one double to all four lanes.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vbroadcastsd(Ymm::Ymm2, Mem::base(Gpr::Rax).disp(8));
    /// assert_eq!(asm.code(), [0xc4, 0xe2, 0x7d, 0x19, 0x50, 0x08]);
    /// ```
    pub fn vbroadcastsd(&mut self, dst: Ymm, src: impl Into<RegMem<Xmm>>) {
        self.vex(
            true,
            Pp::P66,
            Map::M0f38,
            false,
            0x19,
            dst.num(),
            0,
            src.into().into(),
        );
    }

    /// `vcvtsi2sd xmm, xmm, r/m64`: signed 64-bit integer to double.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vcvtsi2sd(Xmm::Xmm0, Xmm::Xmm1, Gpr::Rax);
    /// assert_eq!(asm.code(), [0xc4, 0xe1, 0xf3, 0x2a, 0xc0]);
    /// ```
    pub fn vcvtsi2sd(&mut self, dst: Xmm, src1: Xmm, src2: impl Into<RegMem<Gpr>>) {
        self.vex(
            false,
            Pp::F2,
            Map::M0f,
            true,
            0x2a,
            dst.num(),
            src1.num(),
            src2.into().into(),
        );
    }

    /// `vucomisd xmm, xmm/m64`: unordered compare, sets ZF/PF/CF.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vucomisd(Xmm::Xmm0, Xmm::Xmm1);
    /// assert_eq!(asm.code(), [0xc5, 0xf9, 0x2e, 0xc1]);
    /// ```
    pub fn vucomisd(&mut self, a: Xmm, b: impl Into<RegMem<Xmm>>) {
        self.vex(
            false,
            Pp::P66,
            Map::M0f,
            false,
            0x2e,
            a.num(),
            0,
            b.into().into(),
        );
    }

    /// `vmovq r64, xmm`: the low 64 bits of `src` as an integer.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vmovq_to_gpr(Gpr::Rax, Xmm::Xmm1);
    /// assert_eq!(asm.code(), [0xc4, 0xe1, 0xf9, 0x7e, 0xc8]);
    /// ```
    pub fn vmovq_to_gpr(&mut self, dst: Gpr, src: Xmm) {
        self.vex(
            false,
            Pp::P66,
            Map::M0f,
            true,
            0x7e,
            src.num(),
            0,
            Rm::Reg(dst.num()),
        );
    }

    /// `vmovq xmm, r64`: an integer's bits into the low lane (upper lanes
    /// zeroed).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Xmm};
    /// let mut asm = Assembler::new();
    /// asm.vmovq_from_gpr(Xmm::Xmm1, Gpr::Rax);
    /// assert_eq!(asm.code(), [0xc4, 0xe1, 0xf9, 0x6e, 0xc8]);
    /// ```
    pub fn vmovq_from_gpr(&mut self, dst: Xmm, src: Gpr) {
        self.vex(
            false,
            Pp::P66,
            Map::M0f,
            true,
            0x6e,
            dst.num(),
            0,
            Rm::Reg(src.num()),
        );
    }

    /// `vmovntpd m, xmm/ymm`: non-temporal packed store (the memory operand
    /// must be 16/32-byte aligned; weakly ordered: `sfence` before another
    /// thread reads).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vmovntpd(Mem::base(Gpr::Rdi).disp(32), Ymm::Ymm1);
    /// assert_eq!(asm.code(), [0xc5, 0xfd, 0x2b, 0x4f, 0x20]);
    /// ```
    pub fn vmovntpd<R: VecReg>(&mut self, dst: Mem, src: R) {
        self.vex(
            R::WIDE,
            Pp::P66,
            Map::M0f,
            false,
            0x2b,
            src.hw(),
            0,
            Rm::Mem(dst),
        );
    }

    /// `vperm2f128 dst, src1, src2/m256, imm8`: each 128-bit half of
    /// `dst` chosen from the halves of both sources (`imm8` bits 1:0 for
    /// the low half, 5:4 for the high: 0/1 = `src1` low/high, 2/3 = `src2`
    /// low/high; bit 3/7 zeroes the half).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Ymm};
    /// let mut asm = Assembler::new();
    /// asm.vperm2f128(Ymm::Ymm0, Ymm::Ymm1, Ymm::Ymm2, 0x21);
    /// assert_eq!(asm.code(), [0xc4, 0xe3, 0x75, 0x06, 0xc2, 0x21]);
    /// ```
    pub fn vperm2f128(&mut self, dst: Ymm, src1: Ymm, src2: impl Into<RegMem<Ymm>>, imm: u8) {
        self.vex(
            true,
            Pp::P66,
            Map::M0f3a,
            false,
            0x06,
            dst.num(),
            src1.num(),
            src2.into().into(),
        );
        self.byte(imm);
    }

    /// `vzeroupper`: clears the upper ymm halves (avoid SSE transition stalls before returning).
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.vzeroupper();
    /// assert_eq!(asm.code(), [0xc5, 0xf8, 0x77]);
    /// ```
    pub fn vzeroupper(&mut self) {
        self.emit_bytes(&[0xc5, 0xf8, 0x77]);
    }
}
