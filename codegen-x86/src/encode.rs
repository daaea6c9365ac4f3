//! The [`Assembler`]: code buffer, labels, and the low-level byte encoders
//! (REX, VEX, ModRM/SIB/displacement) shared by every instruction.
//!
//! Instruction methods live in the `gp` (general-purpose) and `avx` (AVX/FMA)
//! modules; they are thin tables over the helpers here.
#![forbid(unsafe_code)]

use crate::error::Error;
use crate::label::{Fixup, Label, RelWidth};
use crate::operand::{Mem, RegMem};
use crate::reg::Reg;

/// The `r/m` slot after register classes have been erased to hardware numbers.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rm {
    Reg(u8),
    Mem(Mem),
}

impl<R: Reg> From<RegMem<R>> for Rm {
    fn from(rm: RegMem<R>) -> Rm {
        match rm {
            RegMem::Reg(r) => Rm::Reg(r.hw()),
            RegMem::Mem(m) => Rm::Mem(m),
        }
    }
}

impl Rm {
    /// The REX/VEX `X` and `B` extension bits this operand needs.
    fn xb(self) -> (u8, u8) {
        match self {
            Rm::Reg(r) => (0, r >> 3),
            Rm::Mem(m) => (
                m.index.map_or(0, |(i, _)| i.num() >> 3),
                m.base.map_or(0, |b| b.num() >> 3),
            ),
        }
    }
}

/// VEX `pp` field: the implied legacy prefix.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pp {
    P66 = 1,
    F2 = 3,
}

/// VEX `mmmmm` field: the implied opcode map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Map {
    M0f = 1,
    M0f38 = 2,
    M0f3a = 3,
}

/// An in-memory x86-64 assembler.
///
/// Instructions are appended to a byte buffer as they are called; branches to
/// labels that are not yet bound leave a placeholder that
/// [`finish`](Assembler::finish) patches. Encoding choices follow GNU `as`
/// (shortest immediate and displacement forms, 2-byte VEX whenever possible),
/// which is what `tests/encodings.txt` checks.
///
/// ```
/// use codegen_x86::{Assembler, Gpr, Mem};
/// let mut asm = Assembler::new();
/// asm.mov(Gpr::Rax, Mem::base(Gpr::Rdi).disp(8));
/// asm.add(Gpr::Rax, 1);
/// asm.ret();
/// assert_eq!(asm.finish()?, [0x48, 0x8b, 0x47, 0x08, 0x48, 0x83, 0xc0, 0x01, 0xc3]);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Assembler {
    buf: Vec<u8>,
    labels: Vec<Option<usize>>,
    fixups: Vec<Fixup>,
}

impl Assembler {
    /// An empty assembler.
    pub fn new() -> Assembler {
        Assembler::default()
    }

    /// Current offset: the position of the next emitted byte.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.ret();
    /// assert_eq!(asm.offset(), 1);
    /// ```
    pub fn offset(&self) -> usize {
        self.buf.len()
    }

    /// The bytes emitted so far; forward branches still hold zero placeholders.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.vzeroupper();
    /// assert_eq!(asm.code(), [0xc5, 0xf8, 0x77]);
    /// ```
    pub fn code(&self) -> &[u8] {
        &self.buf
    }

    /// Creates a fresh, unbound label.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// let a = asm.new_label();
    /// let b = asm.new_label();
    /// assert_ne!(a, b);
    /// ```
    pub fn new_label(&mut self) -> Label {
        let id = u32::try_from(self.labels.len()).expect("more than 2^32 labels");
        self.labels.push(None);
        Label(id)
    }

    /// Binds `label` to the current offset. Each label is bound at most once.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Error};
    /// let mut asm = Assembler::new();
    /// let l = asm.new_label();
    /// asm.bind(l)?;
    /// assert_eq!(asm.bind(l), Err(Error::LabelAlreadyBound(l)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn bind(&mut self, label: Label) -> Result<(), Error> {
        let here = self.offset();
        match self.labels.get_mut(label.0 as usize) {
            None => Err(Error::UnknownLabel(label)),
            Some(Some(_)) => Err(Error::LabelAlreadyBound(label)),
            Some(slot) => {
                *slot = Some(here);
                Ok(())
            }
        }
    }

    /// The offset `label` is bound to, if it is bound.
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// let l = asm.new_label();
    /// assert_eq!(asm.label_offset(l), None);
    /// asm.ret();
    /// asm.bind(l)?;
    /// assert_eq!(asm.label_offset(l), Some(1));
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn label_offset(&self, label: Label) -> Option<usize> {
        self.labels.get(label.0 as usize).copied().flatten()
    }

    /// Resolves all branch displacements and returns the machine code.
    ///
    /// Fails if a referenced label is unbound or a short branch cannot reach.
    ///
    /// ```
    /// use codegen_x86::{Assembler, Cond};
    /// let mut asm = Assembler::new();
    /// let done = asm.new_label();
    /// asm.jcc_short(Cond::E, done);
    /// asm.ret();
    /// asm.bind(done)?;
    /// asm.ret();
    /// assert_eq!(asm.finish()?, [0x74, 0x01, 0xc3, 0xc3]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<Vec<u8>, Error> {
        for f in std::mem::take(&mut self.fixups) {
            let target = match self.labels.get(f.label.0 as usize) {
                None => return Err(Error::UnknownLabel(f.label)),
                Some(None) => return Err(Error::UnboundLabel(f.label)),
                Some(Some(t)) => *t as i64,
            };
            let distance = target - f.end as i64;
            match f.width {
                RelWidth::Rel8 => {
                    let d = i8::try_from(distance).map_err(|_| Error::Rel8OutOfRange {
                        label: f.label,
                        distance,
                    })?;
                    self.buf[f.at] = d as u8;
                }
                RelWidth::Rel32 => {
                    let d = i32::try_from(distance)
                        .map_err(|_| Error::Rel32OutOfRange { label: f.label })?;
                    self.buf[f.at..f.at + 4].copy_from_slice(&d.to_le_bytes());
                }
            }
        }
        Ok(self.buf)
    }

    /// Appends raw bytes (an escape hatch for instructions not modelled here).
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.emit_bytes(&[0x0f, 0x0b]); // ud2
    /// assert_eq!(asm.code(), [0x0f, 0x0b]);
    /// ```
    pub fn emit_bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Pads with one-byte `nop`s until the offset is a multiple of `align`
    /// (a power of two; other values are rounded up to one).
    ///
    /// ```
    /// let mut asm = codegen_x86::Assembler::new();
    /// asm.ret();
    /// asm.align(4);
    /// assert_eq!(asm.code(), [0xc3, 0x90, 0x90, 0x90]);
    /// ```
    pub fn align(&mut self, align: usize) {
        let align = align.max(1).next_power_of_two();
        while !self.buf.len().is_multiple_of(align) {
            self.buf.push(0x90);
        }
    }

    // ----- low-level helpers used by the instruction modules -----

    pub(crate) fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    pub(crate) fn imm32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn imm64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A REX prefix, emitted only when one of its bits is needed.
    pub(crate) fn rex(&mut self, w: bool, r: u8, x: u8, b: u8) {
        let bits = (u8::from(w) << 3) | ((r & 1) << 2) | ((x & 1) << 1) | (b & 1);
        if bits != 0 {
            self.byte(0x40 | bits);
        }
    }

    /// `REX opcode modrm [sib] [disp]` for a legacy-encoded instruction.
    /// `reg` is a register number or an opcode extension (`/digit`).
    pub(crate) fn legacy(&mut self, w: bool, opcode: &[u8], reg: u8, rm: Rm) {
        let (x, b) = rm.xb();
        self.rex(w, reg >> 3, x, b);
        self.buf.extend_from_slice(opcode);
        self.modrm(reg, rm);
    }

    /// A VEX-encoded instruction: `VEX opcode modrm [sib] [disp]`.
    /// The 2-byte `C5` form is used whenever the 3-byte fields are not needed.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn vex(
        &mut self,
        wide: bool,
        pp: Pp,
        map: Map,
        w: bool,
        opcode: u8,
        reg: u8,
        vvvv: u8,
        rm: Rm,
    ) {
        let (x, b) = rm.xb();
        let r = (reg >> 3) & 1;
        let tail = ((!vvvv & 0xf) << 3) | (u8::from(wide) << 2) | pp as u8;
        if map == Map::M0f && !w && x == 0 && b == 0 {
            self.byte(0xc5);
            self.byte(((r ^ 1) << 7) | tail);
        } else {
            self.byte(0xc4);
            self.byte(((r ^ 1) << 7) | ((x ^ 1) << 6) | ((b ^ 1) << 5) | map as u8);
            self.byte((u8::from(w) << 7) | tail);
        }
        self.byte(opcode);
        self.modrm(reg, rm);
    }

    /// ModRM, then SIB and displacement for memory operands.
    fn modrm(&mut self, reg: u8, rm: Rm) {
        let reg = (reg & 7) << 3;
        let m = match rm {
            Rm::Reg(r) => return self.byte(0xc0 | reg | (r & 7)),
            Rm::Mem(m) => m,
        };
        let (index, scale) = m.index.map_or((4, 0), |(i, s)| (i.num() & 7, s.bits()));
        let Some(base) = m.base else {
            // No base: mod=00, rm=100, SIB base=101 means disp32 only.
            self.byte(reg | 4);
            self.byte((scale << 6) | (index << 3) | 5);
            return self.imm32(m.disp);
        };
        let base = base.num() & 7;
        // rbp/r13 (101) with mod=00 would mean "no base", so they need a disp8 of 0.
        let md = if m.disp == 0 && base != 5 {
            0
        } else if i8::try_from(m.disp).is_ok() {
            1
        } else {
            2
        };
        // rsp/r12 (100) in rm means "SIB follows", so they always need a SIB byte.
        if m.index.is_some() || base == 4 {
            self.byte((md << 6) | reg | 4);
            self.byte((scale << 6) | (index << 3) | base);
        } else {
            self.byte((md << 6) | reg | base);
        }
        match md {
            1 => self.byte(m.disp as i8 as u8),
            2 => self.imm32(m.disp),
            _ => {}
        }
    }

    /// A branch to `label`: `short` + rel8 or `near` + rel32.
    ///
    /// A bound (backward) label within rel8 reach gets the short form. Anything
    /// else gets rel32, unless `force_short` asks for rel8 anyway, in which case
    /// [`finish`](Assembler::finish) reports a target out of reach as an error.
    pub(crate) fn branch(
        &mut self,
        short: Option<&[u8]>,
        near: &[u8],
        label: Label,
        force_short: bool,
    ) {
        if let (Some(short), Some(target)) = (short, self.label_offset(label)) {
            let end = self.offset() + short.len() + 1;
            if let Ok(d) = i8::try_from(target as i64 - end as i64) {
                self.emit_bytes(short);
                return self.byte(d as u8);
            }
        }
        let (op, width, len) = match short {
            Some(s) if force_short => (s, RelWidth::Rel8, 1),
            _ => (near, RelWidth::Rel32, 4),
        };
        self.emit_bytes(op);
        let at = self.offset();
        self.buf.extend(std::iter::repeat_n(0, len));
        self.fixups.push(Fixup {
            at,
            end: at + len,
            label,
            width,
        });
    }
}
