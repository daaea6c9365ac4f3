//! General-purpose (integer, 64-bit operand size) instructions and branches.
//!
//! All integer operations use 64-bit operands (`REX.W`). Immediates are
//! sign-extended 32-bit values, encoded in 8 bits when they fit, with the
//! short `rax` forms GNU `as` uses; only [`Assembler::movabs`] takes 64 bits.
#![forbid(unsafe_code)]

use crate::cond::Cond;
use crate::encode::{Assembler, Rm};
use crate::label::Label;
use crate::operand::{GpArgs, Mem, RegMem};
use crate::reg::Gpr;

/// Opcode table of a two-operand integer instruction.
struct BinOp {
    /// `op r/m, reg`
    mr: u8,
    /// `op reg, r/m` (if distinct from `mr`)
    rm: Option<u8>,
    /// `/digit` for the immediate forms
    ext: u8,
    /// `op r/m, imm8` opcode
    imm8: Option<u8>,
    /// `op r/m, imm32` opcode
    imm32: u8,
    /// `op rax, imm32` short opcode
    rax: Option<u8>,
}

const fn alu(ext: u8) -> BinOp {
    BinOp {
        mr: ext * 8 + 1,
        rm: Some(ext * 8 + 3),
        ext,
        imm8: Some(0x83),
        imm32: 0x81,
        rax: Some(ext * 8 + 5),
    }
}

const ADD: BinOp = alu(0);
const OR: BinOp = alu(1);
const AND: BinOp = alu(4);
const SUB: BinOp = alu(5);
const XOR: BinOp = alu(6);
const CMP: BinOp = alu(7);
const MOV: BinOp = BinOp {
    mr: 0x89,
    rm: Some(0x8b),
    ext: 0,
    imm8: None,
    imm32: 0xc7,
    rax: None,
};
const TEST: BinOp = BinOp {
    mr: 0x85,
    rm: None,
    ext: 0,
    imm8: None,
    imm32: 0xf7,
    rax: Some(0xa9),
};

macro_rules! binary {
    ($($name:ident = $op:ident, $text:literal, $bytes:expr;)*) => {$(
        #[doc = concat!("`", $text, "`: 64-bit `", stringify!($name), "` of any [`GpArgs`] pair.")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Gpr};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name), "(Gpr::Rax, Gpr::Rbx);")]
        #[doc = concat!("assert_eq!(asm.code(), ", stringify!($bytes), ");")]
        /// ```
        pub fn $name<D, S>(&mut self, dst: D, src: S)
        where
            (D, S): Into<GpArgs>,
        {
            self.binary(&$op, (dst, src).into());
        }
    )*};
}

macro_rules! unary {
    ($($name:ident = $opcode:literal / $ext:literal, $bytes:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), " r/m64`.")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Gpr};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name), "(Gpr::Rax);")]
        #[doc = concat!("assert_eq!(asm.code(), ", stringify!($bytes), ");")]
        /// ```
        pub fn $name(&mut self, dst: impl Into<RegMem<Gpr>>) {
            self.legacy(true, &[$opcode], $ext, dst.into().into());
        }
    )*};
}

macro_rules! shift {
    ($($name:ident, $name_cl:ident = $ext:literal, $bytes:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), " r/m64, imm8` (the one-byte-shorter `D1` form for a count of 1).")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Gpr};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name), "(Gpr::Rax, 3);")]
        #[doc = concat!("assert_eq!(asm.code(), ", stringify!($bytes), ");")]
        /// ```
        pub fn $name(&mut self, dst: impl Into<RegMem<Gpr>>, count: u8) {
            if count == 1 {
                self.legacy(true, &[0xd1], $ext, dst.into().into());
            } else {
                self.legacy(true, &[0xc1], $ext, dst.into().into());
                self.byte(count);
            }
        }

        #[doc = concat!("`", stringify!($name), " r/m64, cl`.")]
        ///
        /// ```
        /// use codegen_x86::{Assembler, Gpr};
        /// let mut asm = Assembler::new();
        #[doc = concat!("asm.", stringify!($name_cl), "(Gpr::R9);")]
        /// assert_eq!(asm.code().len(), 3);
        /// ```
        pub fn $name_cl(&mut self, dst: impl Into<RegMem<Gpr>>) {
            self.legacy(true, &[0xd3], $ext, dst.into().into());
        }
    )*};
}

impl Assembler {
    fn binary(&mut self, op: &BinOp, args: GpArgs) {
        match args {
            GpArgs::RegReg(d, s) => self.legacy(true, &[op.mr], s.num(), Rm::Reg(d.num())),
            GpArgs::MemReg(d, s) => self.legacy(true, &[op.mr], s.num(), Rm::Mem(d)),
            GpArgs::RegMem(d, s) => {
                self.legacy(true, &[op.rm.unwrap_or(op.mr)], d.num(), Rm::Mem(s))
            }
            GpArgs::RegImm(d, imm) => self.binary_imm(op, Rm::Reg(d.num()), imm),
            GpArgs::MemImm(d, imm) => self.binary_imm(op, Rm::Mem(d), imm),
        }
    }

    fn binary_imm(&mut self, op: &BinOp, dst: Rm, imm: i32) {
        if let (Some(opc), Ok(imm8)) = (op.imm8, i8::try_from(imm)) {
            self.legacy(true, &[opc], op.ext, dst);
            self.byte(imm8 as u8);
        } else if let (Some(opc), Rm::Reg(0)) = (op.rax, dst) {
            self.rex(true, 0, 0, 0);
            self.byte(opc);
            self.imm32(imm);
        } else {
            self.legacy(true, &[op.imm32], op.ext, dst);
            self.imm32(imm);
        }
    }

    binary! {
        mov = MOV, "mov", [0x48, 0x89, 0xd8];
        add = ADD, "add", [0x48, 0x01, 0xd8];
        sub = SUB, "sub", [0x48, 0x29, 0xd8];
        and = AND, "and", [0x48, 0x21, 0xd8];
        or = OR, "or", [0x48, 0x09, 0xd8];
        xor = XOR, "xor", [0x48, 0x31, 0xd8];
        cmp = CMP, "cmp", [0x48, 0x39, 0xd8];
        test = TEST, "test", [0x48, 0x85, 0xd8];
    }

    unary! {
        inc = 0xff / 0, [0x48, 0xff, 0xc0];
        dec = 0xff / 1, [0x48, 0xff, 0xc8];
        not = 0xf7 / 2, [0x48, 0xf7, 0xd0];
        neg = 0xf7 / 3, [0x48, 0xf7, 0xd8];
        idiv = 0xf7 / 7, [0x48, 0xf7, 0xf8];
    }

    shift! {
        shl, shl_cl = 4, [0x48, 0xc1, 0xe0, 0x03];
        shr, shr_cl = 5, [0x48, 0xc1, 0xe8, 0x03];
        sar, sar_cl = 7, [0x48, 0xc1, 0xf8, 0x03];
    }

    /// `movabs reg, imm64`: loads a full 64-bit immediate.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.movabs(Gpr::R10, 0x1122_3344_5566_7788);
    /// assert_eq!(asm.code(), [0x49, 0xba, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]);
    /// ```
    pub fn movabs(&mut self, dst: Gpr, imm: i64) {
        self.rex(true, 0, 0, dst.num() >> 3);
        self.byte(0xb8 + (dst.num() & 7));
        self.imm64(imm);
    }

    /// `lea reg, [mem]`: address computation.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem, Scale};
    /// let mut asm = Assembler::new();
    /// asm.lea(Gpr::Rax, Mem::sib(Gpr::Rbx, Gpr::Rcx, Scale::X8, 16)?);
    /// assert_eq!(asm.code(), [0x48, 0x8d, 0x44, 0xcb, 0x10]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn lea(&mut self, dst: Gpr, src: Mem) {
        self.legacy(true, &[0x8d], dst.num(), Rm::Mem(src));
    }

    /// `prefetcht0 m8`: a hint to bring the line holding `m` into every
    /// cache level (it never faults and retires at once).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem};
    /// let mut asm = Assembler::new();
    /// asm.prefetcht0(Mem::base(Gpr::Rax).disp(0x40));
    /// assert_eq!(asm.code(), [0x0f, 0x18, 0x48, 0x40]);
    /// ```
    pub fn prefetcht0(&mut self, m: Mem) {
        self.legacy(false, &[0x0f, 0x18], 1, Rm::Mem(m));
    }

    /// `prefetcht1 m8`: a hint to bring the line holding `m` into the
    /// second-level cache and beyond (not the first: a line wanted later
    /// without displacing what the first level holds now).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem};
    /// let mut asm = Assembler::new();
    /// asm.prefetcht1(Mem::base(Gpr::Rax).disp(0x40));
    /// assert_eq!(asm.code(), [0x0f, 0x18, 0x50, 0x40]);
    /// ```
    pub fn prefetcht1(&mut self, m: Mem) {
        self.legacy(false, &[0x0f, 0x18], 2, Rm::Mem(m));
    }

    /// `prefetcht2 m8`: a hint to bring the line holding `m` into the
    /// last-level cache (on most cores also the second level).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr, Mem};
    /// let mut asm = Assembler::new();
    /// asm.prefetcht2(Mem::base(Gpr::Rax).disp(0x40));
    /// assert_eq!(asm.code(), [0x0f, 0x18, 0x58, 0x40]);
    /// ```
    pub fn prefetcht2(&mut self, m: Mem) {
        self.legacy(false, &[0x0f, 0x18], 3, Rm::Mem(m));
    }

    /// `imul reg, r/m64`: signed multiply, low 64 bits.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.imul(Gpr::Rax, Gpr::Rbx);
    /// assert_eq!(asm.code(), [0x48, 0x0f, 0xaf, 0xc3]);
    /// ```
    pub fn imul(&mut self, dst: Gpr, src: impl Into<RegMem<Gpr>>) {
        self.legacy(true, &[0x0f, 0xaf], dst.num(), src.into().into());
    }

    /// `imul reg, r/m64, imm`: three-operand multiply by a constant.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.imul_imm(Gpr::Rax, Gpr::Rbx, 5);
    /// assert_eq!(asm.code(), [0x48, 0x6b, 0xc3, 0x05]);
    /// ```
    pub fn imul_imm(&mut self, dst: Gpr, src: impl Into<RegMem<Gpr>>, imm: i32) {
        if let Ok(imm8) = i8::try_from(imm) {
            self.legacy(true, &[0x6b], dst.num(), src.into().into());
            self.byte(imm8 as u8);
        } else {
            self.legacy(true, &[0x69], dst.num(), src.into().into());
            self.imm32(imm);
        }
    }

    /// `cmovcc reg, r/m64`: conditional move.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Cond, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.cmov(Cond::E, Gpr::Rax, Gpr::Rbx);
    /// assert_eq!(asm.code(), [0x48, 0x0f, 0x44, 0xc3]);
    /// ```
    pub fn cmov(&mut self, cond: Cond, dst: Gpr, src: impl Into<RegMem<Gpr>>) {
        self.legacy(
            true,
            &[0x0f, 0x40 | cond.code()],
            dst.num(),
            src.into().into(),
        );
    }

    /// `push reg`.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.push(Gpr::Rbp);
    /// asm.push(Gpr::R12);
    /// assert_eq!(asm.code(), [0x55, 0x41, 0x54]);
    /// ```
    pub fn push(&mut self, reg: Gpr) {
        self.rex(false, 0, 0, reg.num() >> 3);
        self.byte(0x50 + (reg.num() & 7));
    }

    /// `pop reg`.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.pop(Gpr::R15);
    /// assert_eq!(asm.code(), [0x41, 0x5f]);
    /// ```
    pub fn pop(&mut self, reg: Gpr) {
        self.rex(false, 0, 0, reg.num() >> 3);
        self.byte(0x58 + (reg.num() & 7));
    }

    /// `ret`.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.ret();
    /// assert_eq!(asm.code(), [0xc3]);
    /// ```
    pub fn ret(&mut self) {
        self.byte(0xc3);
    }

    /// One-operand `imul r/m64`: the signed 128-bit product `rdx:rax = rax
    /// * src` (division by a constant through its high half).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.imul_wide(Gpr::Rcx);
    /// assert_eq!(asm.code(), [0x48, 0xf7, 0xe9]);
    /// ```
    pub fn imul_wide(&mut self, src: impl Into<RegMem<Gpr>>) {
        self.legacy(true, &[0xf7], 5, src.into().into());
    }

    /// `cqo`: sign-extends `rax` into `rdx:rax` (before `idiv`).
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.cqo();
    /// assert_eq!(asm.code(), [0x48, 0x99]);
    /// ```
    pub fn cqo(&mut self) {
        self.byte(0x48);
        self.byte(0x99);
    }

    /// One-byte `nop`.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.nop();
    /// assert_eq!(asm.code(), [0x90]);
    /// ```
    pub fn nop(&mut self) {
        self.byte(0x90);
    }

    /// `call rel32` to a label.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// let f = asm.new_label();
    /// asm.call(f);
    /// asm.bind(f)?;
    /// asm.ret();
    /// assert_eq!(asm.finish()?, [0xe8, 0, 0, 0, 0, 0xc3]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn call(&mut self, target: Label) {
        self.branch(None, &[0xe8], target, false);
    }

    /// `call r/m64`: indirect call, e.g. through a register loaded with [`movabs`](Assembler::movabs).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.call_indirect(Gpr::R11);
    /// assert_eq!(asm.code(), [0x41, 0xff, 0xd3]);
    /// ```
    pub fn call_indirect(&mut self, target: impl Into<RegMem<Gpr>>) {
        self.legacy(false, &[0xff], 2, target.into().into());
    }

    /// `jmp r/m64`: indirect jump.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Gpr};
    /// let mut asm = Assembler::new();
    /// asm.jmp_indirect(Gpr::Rax);
    /// assert_eq!(asm.code(), [0xff, 0xe0]);
    /// ```
    pub fn jmp_indirect(&mut self, target: impl Into<RegMem<Gpr>>) {
        self.legacy(false, &[0xff], 4, target.into().into());
    }

    /// `jmp label`: rel8 for a bound label in reach, otherwise rel32 (patched by
    /// [`finish`](Assembler::finish)).
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// let l = asm.new_label();
    /// asm.jmp(l);
    /// asm.bind(l)?;
    /// assert_eq!(asm.finish()?, [0xe9, 0, 0, 0, 0]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn jmp(&mut self, target: Label) {
        self.branch(Some(&[0xeb]), &[0xe9], target, false);
    }

    /// `jmp label` with a forced rel8; [`finish`](Assembler::finish) fails with
    /// [`Error::Rel8OutOfRange`](crate::Error::Rel8OutOfRange) if it cannot reach.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Error};
    /// let mut asm = Assembler::new();
    /// let l = asm.new_label();
    /// asm.jmp_short(l);
    /// asm.emit_bytes(&[0x90; 200]);
    /// asm.bind(l)?;
    /// assert!(matches!(asm.finish(), Err(Error::Rel8OutOfRange { distance: 200, .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn jmp_short(&mut self, target: Label) {
        self.branch(Some(&[0xeb]), &[0xe9], target, true);
    }

    /// `jcc label`: conditional branch, rel8 for a bound label in reach, otherwise rel32.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Cond};
    /// let mut asm = Assembler::new();
    /// let top = asm.new_label();
    /// asm.bind(top)?;
    /// asm.jcc(Cond::Ne, top);
    /// assert_eq!(asm.finish()?, [0x75, 0xfe]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn jcc(&mut self, cond: Cond, target: Label) {
        self.branch(
            Some(&[0x70 | cond.code()]),
            &[0x0f, 0x80 | cond.code()],
            target,
            false,
        );
    }

    /// `jcc label` with a forced rel8 (checked by [`finish`](Assembler::finish)).
    ///
    /// ```
    /// use codegen_x86::{Assembler, Cond};
    /// let mut asm = Assembler::new();
    /// let l = asm.new_label();
    /// asm.jcc_short(Cond::L, l);
    /// asm.bind(l)?;
    /// assert_eq!(asm.finish()?, [0x7c, 0x00]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn jcc_short(&mut self, cond: Cond, target: Label) {
        self.branch(
            Some(&[0x70 | cond.code()]),
            &[0x0f, 0x80 | cond.code()],
            target,
            true,
        );
    }
}
