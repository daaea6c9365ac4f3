//! The emitter: every instruction the lowering produces goes through here,
//! is encoded by `codegen-x86`'s [`Assembler`] and recorded as a typed
//! [`Inst`] (offset, mnemonic, operands), which prints in GNU `as` Intel
//! syntax (`poly compile --emit asm`) without any decoder.

use std::fmt;

use codegen_x86::{Assembler, Cond, Gpr, Label, Mem, RegMem, Xmm, Ymm};

use crate::error::Error;

/// Width of a double-precision operation: one double in an xmm register
/// (`*sd`) or four in a ymm register (`*pd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Scalar (`vaddsd xmm, xmm, xmm/m64`).
    Scalar,
    /// Four doubles (`vaddpd ymm, ymm, ymm/m256`).
    Vec4,
}

impl Width {
    /// Doubles per operation.
    pub fn lanes(self) -> i64 {
        match self {
            Width::Scalar => 1,
            Width::Vec4 => 4,
        }
    }
}

/// Size of a memory operand, printed as `QWORD PTR` etc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemSize {
    /// 1 byte (a prefetched line's address).
    Byte,
    /// 8 bytes.
    Qword,
    /// 16 bytes.
    Xmmword,
    /// 32 bytes.
    Ymmword,
}

/// An operand of a recorded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A general-purpose register.
    Gpr(Gpr),
    /// An xmm register.
    Xmm(Xmm),
    /// A ymm register.
    Ymm(Ymm),
    /// A memory operand with its size.
    Mem(Mem, MemSize),
    /// An address (`lea`), printed without a size.
    Addr(Mem),
    /// An immediate.
    Imm(i64),
    /// A branch or call target (resolved to an offset when printed).
    Target(Label),
}

/// One emitted instruction: where it starts, its mnemonic and operands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inst {
    /// Byte offset in the function.
    pub offset: usize,
    /// Mnemonic (`vfmadd231pd`, `jle`, ...).
    pub mnemonic: String,
    /// Operands, destination first.
    pub operands: Vec<Operand>,
}

/// A vector operand: a register number or memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VSrc {
    /// `xmmN`/`ymmN`.
    Reg(u8),
    /// Memory (8 or 32 bytes according to the width).
    Mem(Mem),
}

fn xmm(n: u8) -> Xmm {
    Xmm::from_num(n).expect("register number below 16")
}
fn ymm(n: u8) -> Ymm {
    Ymm::from_num(n).expect("register number below 16")
}

/// The assembler plus the instruction record.
#[derive(Debug, Default)]
pub struct Emitter {
    asm: Assembler,
    insts: Vec<Inst>,
}

macro_rules! gp_binary {
    ($($name:ident),*) => {$(
        #[doc = concat!("`", stringify!($name), " dst, src`.")]
        pub fn $name(&mut self, dst: Operand, src: Operand) -> Result<(), Error> {
            self.record(stringify!($name), vec![dst, src]);
            match (dst, src) {
                (Operand::Gpr(d), Operand::Gpr(s)) => self.asm.$name(d, s),
                (Operand::Gpr(d), Operand::Mem(m, _)) => self.asm.$name(d, m),
                (Operand::Mem(m, _), Operand::Gpr(s)) => self.asm.$name(m, s),
                (Operand::Gpr(d), Operand::Imm(i)) => self.asm.$name(d, imm32(i)?),
                (Operand::Mem(m, _), Operand::Imm(i)) => self.asm.$name(m, imm32(i)?),
                _ => return Err(Error::Internal(format!("bad operands for {}", stringify!($name)))),
            }
            Ok(())
        }
    )*};
}

fn imm32(i: i64) -> Result<i32, Error> {
    i32::try_from(i).map_err(|_| Error::Internal(format!("immediate {i} does not fit 32 bits")))
}

macro_rules! vec3 {
    ($($name:ident = $sd:ident / $pd:ident),*) => {$(
        #[doc = concat!("`", stringify!($sd), "`/`", stringify!($pd), " dst, a, b` by width.")]
        pub fn $name(&mut self, w: Width, dst: u8, a: u8, b: VSrc) {
            match w {
                Width::Scalar => {
                    let src: RegMem<Xmm> = match b {
                        VSrc::Reg(r) => RegMem::Reg(xmm(r)),
                        VSrc::Mem(m) => RegMem::Mem(m),
                    };
                    self.record(stringify!($sd), vec![Operand::Xmm(xmm(dst)), Operand::Xmm(xmm(a)), vop(w, b)]);
                    self.asm.$sd(xmm(dst), xmm(a), src);
                }
                Width::Vec4 => {
                    let src: RegMem<Ymm> = match b {
                        VSrc::Reg(r) => RegMem::Reg(ymm(r)),
                        VSrc::Mem(m) => RegMem::Mem(m),
                    };
                    self.record(stringify!($pd), vec![Operand::Ymm(ymm(dst)), Operand::Ymm(ymm(a)), vop(w, b)]);
                    self.asm.$pd(ymm(dst), ymm(a), src);
                }
            }
        }
    )*};
}

fn vop(w: Width, s: VSrc) -> Operand {
    match (w, s) {
        (Width::Scalar, VSrc::Reg(r)) => Operand::Xmm(xmm(r)),
        (Width::Vec4, VSrc::Reg(r)) => Operand::Ymm(ymm(r)),
        (Width::Scalar, VSrc::Mem(m)) => Operand::Mem(m, MemSize::Qword),
        (Width::Vec4, VSrc::Mem(m)) => Operand::Mem(m, MemSize::Ymmword),
    }
}

/// A general-purpose register operand.
pub fn g(r: Gpr) -> Operand {
    Operand::Gpr(r)
}
/// A 64-bit memory operand.
pub fn q(m: Mem) -> Operand {
    Operand::Mem(m, MemSize::Qword)
}
/// An immediate operand.
pub fn imm(i: i64) -> Operand {
    Operand::Imm(i)
}

impl Emitter {
    /// An empty emitter.
    pub fn new() -> Emitter {
        Emitter::default()
    }

    fn record(&mut self, mnemonic: &str, operands: Vec<Operand>) {
        self.insts.push(Inst {
            offset: self.asm.offset(),
            mnemonic: mnemonic.to_string(),
            operands,
        });
    }

    /// A new label.
    pub fn label(&mut self) -> Label {
        self.asm.new_label()
    }

    /// Binds a label here.
    pub fn bind(&mut self, l: Label) -> Result<(), Error> {
        self.asm.bind(l)?;
        Ok(())
    }

    gp_binary!(mov, add, sub, and, cmp, test);

    /// `mov reg, imm` choosing `movabs` when the value needs 64 bits.
    pub fn mov_imm(&mut self, dst: Gpr, v: i64) {
        if i32::try_from(v).is_ok() {
            self.record("mov", vec![g(dst), imm(v)]);
            self.asm.mov(dst, v as i32);
        } else {
            self.record("movabs", vec![g(dst), imm(v)]);
            self.asm.movabs(dst, v);
        }
    }

    /// `imul dst, src`.
    pub fn imul(&mut self, dst: Gpr, src: Operand) -> Result<(), Error> {
        self.record("imul", vec![g(dst), src]);
        match src {
            Operand::Gpr(s) => self.asm.imul(dst, s),
            Operand::Mem(m, _) => self.asm.imul(dst, m),
            _ => return Err(Error::Internal("bad imul operand".into())),
        }
        Ok(())
    }

    /// `imul dst, src, k`.
    pub fn imul_imm(&mut self, dst: Gpr, src: Gpr, k: i64) -> Result<(), Error> {
        // `imul r, r, k` is printed in its two-operand alias, as decoders do
        let ops = if dst == src {
            vec![g(dst), imm(k)]
        } else {
            vec![g(dst), g(src), imm(k)]
        };
        self.record("imul", ops);
        self.asm.imul_imm(dst, src, imm32(k)?);
        Ok(())
    }

    /// `lea dst, [mem]`.
    pub fn lea(&mut self, dst: Gpr, m: Mem) {
        self.record("lea", vec![g(dst), Operand::Addr(m)]);
        self.asm.lea(dst, m);
    }

    /// `neg r`.
    pub fn neg(&mut self, r: Gpr) {
        self.record("neg", vec![g(r)]);
        self.asm.neg(r);
    }

    /// `sar r, n`.
    pub fn sar(&mut self, r: Gpr, n: u8) {
        self.record("sar", vec![g(r), imm(n as i64)]);
        self.asm.sar(r, n);
    }

    /// `shr r, n`.
    pub fn shr(&mut self, r: Gpr, n: u8) {
        self.record("shr", vec![g(r), imm(n as i64)]);
        self.asm.shr(r, n);
    }

    /// `shl r, n`.
    pub fn shl(&mut self, r: Gpr, n: u8) {
        self.record("shl", vec![g(r), imm(n as i64)]);
        self.asm.shl(r, n);
    }

    /// `cqo`.
    pub fn cqo(&mut self) {
        self.record("cqo", vec![]);
        self.asm.cqo();
    }

    /// One-operand `imul r`: `rdx:rax = rax * r`.
    pub fn imul_wide(&mut self, r: Gpr) {
        self.record("imul", vec![g(r)]);
        self.asm.imul_wide(r);
    }

    /// `idiv r`.
    pub fn idiv(&mut self, r: Gpr) {
        self.record("idiv", vec![g(r)]);
        self.asm.idiv(r);
    }

    /// `cmovCC dst, src`.
    pub fn cmov(&mut self, c: Cond, dst: Gpr, src: Gpr) {
        self.record(&format!("cmov{}", c.suffix()), vec![g(dst), g(src)]);
        self.asm.cmov(c, dst, src);
    }

    /// `jCC label`.
    pub fn jcc(&mut self, c: Cond, l: Label) {
        self.record(&format!("j{}", c.suffix()), vec![Operand::Target(l)]);
        self.asm.jcc(c, l);
    }

    /// `jmp label`.
    pub fn jmp(&mut self, l: Label) {
        self.record("jmp", vec![Operand::Target(l)]);
        self.asm.jmp(l);
    }

    /// `push r`.
    pub fn push(&mut self, r: Gpr) {
        self.record("push", vec![g(r)]);
        self.asm.push(r);
    }

    /// `pop r`.
    pub fn pop(&mut self, r: Gpr) {
        self.record("pop", vec![g(r)]);
        self.asm.pop(r);
    }

    /// `ret`.
    pub fn ret(&mut self) {
        self.record("ret", vec![]);
        self.asm.ret();
    }

    /// `vzeroupper`.
    pub fn vzeroupper(&mut self) {
        self.record("vzeroupper", vec![]);
        self.asm.vzeroupper();
    }

    /// `call reg`.
    pub fn call(&mut self, r: Gpr) {
        self.record("call", vec![g(r)]);
        self.asm.call_indirect(r);
    }

    vec3!(
        vadd = vaddsd / vaddpd,
        vsub = vsubsd / vsubpd,
        vmul = vmulsd / vmulpd,
        vdiv = vdivsd / vdivpd,
        vmin = vminsd / vminpd,
        vmax = vmaxsd / vmaxpd,
        vfmadd231 = vfmadd231sd / vfmadd231pd
    );

    /// `vxorpd` (both widths use the packed form; xmm for scalars).
    pub fn vxor(&mut self, w: Width, dst: u8, a: u8, b: VSrc) {
        self.packed_logic(w, dst, a, b, false)
    }

    /// `vandpd` (both widths use the packed form; xmm for scalars).
    pub fn vand(&mut self, w: Width, dst: u8, a: u8, b: VSrc) {
        self.packed_logic(w, dst, a, b, true)
    }

    fn packed_logic(&mut self, w: Width, dst: u8, a: u8, b: VSrc, and: bool) {
        let mn = if and { "vandpd" } else { "vxorpd" };
        match w {
            Width::Scalar => {
                let (src, op) = match b {
                    VSrc::Reg(r) => (RegMem::Reg(xmm(r)), Operand::Xmm(xmm(r))),
                    VSrc::Mem(m) => (RegMem::Mem(m), Operand::Mem(m, MemSize::Xmmword)),
                };
                self.record(mn, vec![Operand::Xmm(xmm(dst)), Operand::Xmm(xmm(a)), op]);
                if and {
                    self.asm.vandpd(xmm(dst), xmm(a), src)
                } else {
                    self.asm.vxorpd(xmm(dst), xmm(a), src)
                }
            }
            Width::Vec4 => {
                let src: RegMem<Ymm> = match b {
                    VSrc::Reg(r) => RegMem::Reg(ymm(r)),
                    VSrc::Mem(m) => RegMem::Mem(m),
                };
                self.record(
                    mn,
                    vec![Operand::Ymm(ymm(dst)), Operand::Ymm(ymm(a)), vop(w, b)],
                );
                if and {
                    self.asm.vandpd(ymm(dst), ymm(a), src)
                } else {
                    self.asm.vxorpd(ymm(dst), ymm(a), src)
                }
            }
        }
    }

    /// Square root.
    pub fn vsqrt(&mut self, w: Width, dst: u8, src: u8) {
        match w {
            Width::Scalar => {
                self.record(
                    "vsqrtsd",
                    vec![
                        Operand::Xmm(xmm(dst)),
                        Operand::Xmm(xmm(src)),
                        Operand::Xmm(xmm(src)),
                    ],
                );
                self.asm.vsqrtsd(xmm(dst), xmm(src), xmm(src));
            }
            Width::Vec4 => {
                self.record(
                    "vsqrtpd",
                    vec![Operand::Ymm(ymm(dst)), Operand::Ymm(ymm(src))],
                );
                self.asm.vsqrtpd(ymm(dst), ymm(src));
            }
        }
    }

    /// Load one double (`vmovsd xmm, m64`) or four (`vmovupd ymm, m256`).
    pub fn vload(&mut self, w: Width, dst: u8, m: Mem) {
        match w {
            Width::Scalar => {
                self.record("vmovsd", vec![Operand::Xmm(xmm(dst)), q(m)]);
                self.asm.vmovsd_load(xmm(dst), m);
            }
            Width::Vec4 => {
                self.record(
                    "vmovupd",
                    vec![Operand::Ymm(ymm(dst)), Operand::Mem(m, MemSize::Ymmword)],
                );
                self.asm.vmovupd(ymm(dst), m);
            }
        }
    }

    /// Store one double or four.
    pub fn vstore(&mut self, w: Width, m: Mem, src: u8) {
        match w {
            Width::Scalar => {
                self.record("vmovsd", vec![q(m), Operand::Xmm(xmm(src))]);
                self.asm.vmovsd_store(m, xmm(src));
            }
            Width::Vec4 => {
                self.record(
                    "vmovupd",
                    vec![Operand::Mem(m, MemSize::Ymmword), Operand::Ymm(ymm(src))],
                );
                self.asm.vmovupd(m, ymm(src));
            }
        }
    }

    /// Store the low two doubles of a register (`vmovupd m128, xmm`).
    pub fn vstore_pair(&mut self, m: Mem, src: u8) {
        self.record(
            "vmovupd",
            vec![Operand::Mem(m, MemSize::Xmmword), Operand::Xmm(xmm(src))],
        );
        self.asm.vmovupd(m, xmm(src));
    }

    /// Register copy of the given width.
    pub fn vcopy(&mut self, w: Width, dst: u8, src: u8) {
        if dst == src {
            return;
        }
        match w {
            Width::Scalar => {
                self.record(
                    "vmovapd",
                    vec![Operand::Xmm(xmm(dst)), Operand::Xmm(xmm(src))],
                );
                self.asm.vmovapd(xmm(dst), xmm(src));
            }
            Width::Vec4 => {
                self.record(
                    "vmovapd",
                    vec![Operand::Ymm(ymm(dst)), Operand::Ymm(ymm(src))],
                );
                self.asm.vmovapd(ymm(dst), ymm(src));
            }
        }
    }

    /// `vbroadcastsd ymm, xmm`.
    pub fn vbroadcast_reg(&mut self, dst: u8, src: u8) {
        self.record(
            "vbroadcastsd",
            vec![Operand::Ymm(ymm(dst)), Operand::Xmm(xmm(src))],
        );
        self.asm.vbroadcastsd(ymm(dst), xmm(src));
    }

    /// `prefetcht0 m8`.
    pub fn prefetch(&mut self, m: Mem) {
        self.record("prefetcht0", vec![Operand::Mem(m, MemSize::Byte)]);
        self.asm.prefetcht0(m);
    }

    /// `prefetcht1 m8` (to the second-level cache, not the first).
    pub fn prefetch_l2(&mut self, m: Mem) {
        self.record("prefetcht1", vec![Operand::Mem(m, MemSize::Byte)]);
        self.asm.prefetcht1(m);
    }

    /// `vbroadcastsd ymm, m64`.
    pub fn vbroadcast_mem(&mut self, dst: u8, m: Mem) {
        self.record("vbroadcastsd", vec![Operand::Ymm(ymm(dst)), q(m)]);
        self.asm.vbroadcastsd(ymm(dst), m);
    }

    /// `vcvtsi2sd xmm, xmm, r64`.
    pub fn cvt(&mut self, dst: u8, src: Gpr) {
        self.record(
            "vcvtsi2sd",
            vec![Operand::Xmm(xmm(dst)), Operand::Xmm(xmm(dst)), g(src)],
        );
        self.asm.vcvtsi2sd(xmm(dst), xmm(dst), src);
    }

    /// `vucomisd a, b`.
    pub fn vucomisd(&mut self, a: u8, b: u8) {
        self.record("vucomisd", vec![Operand::Xmm(xmm(a)), Operand::Xmm(xmm(b))]);
        self.asm.vucomisd(xmm(a), xmm(b));
    }

    /// `vperm2f128 ymm, ymm, ymm, imm8`.
    pub fn vperm2f128(&mut self, dst: u8, a: u8, b: u8, sel: u8) {
        self.record(
            "vperm2f128",
            vec![
                Operand::Ymm(ymm(dst)),
                Operand::Ymm(ymm(a)),
                Operand::Ymm(ymm(b)),
                Operand::Imm(i64::from(sel)),
            ],
        );
        self.asm.vperm2f128(ymm(dst), ymm(a), ymm(b), sel);
    }

    /// `vunpcklpd ymm, ymm, ymm` (`high` false) or `vunpckhpd`: in each
    /// 128-bit half, the low (high) double of `a` then that of `b`.
    pub fn vunpck(&mut self, high: bool, dst: u8, a: u8, b: u8) {
        let name = if high { "vunpckhpd" } else { "vunpcklpd" };
        self.record(
            name,
            vec![
                Operand::Ymm(ymm(dst)),
                Operand::Ymm(ymm(a)),
                Operand::Ymm(ymm(b)),
            ],
        );
        if high {
            self.asm.vunpckhpd(ymm(dst), ymm(a), ymm(b));
        } else {
            self.asm.vunpcklpd(ymm(dst), ymm(a), ymm(b));
        }
    }

    /// `vucomisd a, m64`.
    pub fn vucomisd_mem(&mut self, a: u8, m: Mem) {
        self.record("vucomisd", vec![Operand::Xmm(xmm(a)), q(m)]);
        self.asm.vucomisd(xmm(a), m);
    }

    /// `vmovq r64, xmm`: a double's bits.
    pub fn bits_of(&mut self, dst: Gpr, src: u8) {
        self.record("vmovq", vec![g(dst), Operand::Xmm(xmm(src))]);
        self.asm.vmovq_to_gpr(dst, xmm(src));
    }

    /// `vmovq xmm, r64`: bits as a double.
    pub fn from_bits(&mut self, dst: u8, src: Gpr) {
        self.record("vmovq", vec![Operand::Xmm(xmm(dst)), g(src)]);
        self.asm.vmovq_from_gpr(xmm(dst), src);
    }

    /// Finishes encoding: the bytes and the instruction record (labels
    /// resolved to offsets), sorted by offset.
    pub fn finish(self) -> Result<(Vec<u8>, Vec<(Inst, Option<usize>)>), Error> {
        let mut insts: Vec<(Inst, Option<usize>)> = self
            .insts
            .into_iter()
            .map(|i| {
                let t = i.operands.iter().find_map(|o| match o {
                    Operand::Target(l) => self.asm.label_offset(*l),
                    _ => None,
                });
                (i, t)
            })
            .collect();
        insts.sort_by_key(|(i, _)| i.offset);
        Ok((self.asm.finish()?, insts))
    }
}

fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

impl Operand {
    fn text(&self, target: Option<usize>) -> String {
        match self {
            Operand::Gpr(r) => r.to_string(),
            Operand::Xmm(r) => r.to_string(),
            Operand::Ymm(r) => r.to_string(),
            Operand::Mem(m, s) => {
                let size = match s {
                    MemSize::Byte => "BYTE",
                    MemSize::Qword => "QWORD",
                    MemSize::Xmmword => "XMMWORD",
                    MemSize::Ymmword => "YMMWORD",
                };
                format!("{size} PTR {m}")
            }
            Operand::Addr(m) => m.to_string(),
            Operand::Imm(i) => hex(*i),
            Operand::Target(_) => target.map_or("?".into(), |t| format!("0x{t:x}")),
        }
    }
}

/// An instruction with its resolved branch target, printed in GNU `as`
/// Intel syntax (`vaddsd xmm0, xmm1, QWORD PTR [rbx+0x8]`).
#[derive(Debug, Clone)]
pub struct Listed<'a>(pub &'a Inst, pub Option<usize>);

impl fmt::Display for Listed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ops: Vec<String> = self.0.operands.iter().map(|o| o.text(self.1)).collect();
        if ops.is_empty() {
            write!(f, "{}", self.0.mnemonic)
        } else {
            write!(f, "{} {}", self.0.mnemonic, ops.join(", "))
        }
    }
}
