//! A System V AMD64 function builder: prologue, epilogue, callee-saved
//! registers, stack alignment and the argument registers.
#![forbid(unsafe_code)]

use crate::encode::Assembler;
use crate::error::Error;
use crate::jit::{JitFunction, Signature};
use crate::label::Label;
use crate::operand::Mem;
use crate::reg::{Gpr, Xmm};

/// Integer/pointer argument registers, in order.
pub const INT_ARGS: [Gpr; 6] = [Gpr::Rdi, Gpr::Rsi, Gpr::Rdx, Gpr::Rcx, Gpr::R8, Gpr::R9];

/// Floating-point argument registers, in order.
pub const FLOAT_ARGS: [Xmm; 8] = [
    Xmm::Xmm0,
    Xmm::Xmm1,
    Xmm::Xmm2,
    Xmm::Xmm3,
    Xmm::Xmm4,
    Xmm::Xmm5,
    Xmm::Xmm6,
    Xmm::Xmm7,
];

/// Registers a callee must preserve (`rsp` aside). All vector registers are caller-saved.
pub const CALLEE_SAVED: [Gpr; 6] = [Gpr::Rbx, Gpr::Rbp, Gpr::R12, Gpr::R13, Gpr::R14, Gpr::R15];

/// What the body of a function may rely on: its exit label and local stack slots.
#[derive(Debug, Clone)]
pub struct Frame {
    exit: Label,
    locals: u32,
}

impl Frame {
    /// Jump here to return; the epilogue follows it. Falling off the end of the
    /// body also returns.
    ///
    /// ```
    /// use codegen_x86::{Cond, FunctionBuilder, Gpr, INT_ARGS};
    /// // u64 f(u64 x) { if x == 0 { return 0 } x + 1 }
    /// let f = FunctionBuilder::new().build_jit::<extern "sysv64" fn(u64) -> u64>(|asm, frame| {
    ///     asm.mov(Gpr::Rax, INT_ARGS[0]);
    ///     asm.test(Gpr::Rax, Gpr::Rax);
    ///     asm.jcc(Cond::E, frame.exit());
    ///     asm.inc(Gpr::Rax);
    ///     Ok(())
    /// })?;
    /// assert_eq!((f.call((0,)), f.call((41,))), (0, 42));
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn exit(&self) -> Label {
        self.exit
    }

    /// `[rsp + offset]`: a slot in the local area (`0 <= offset < locals`),
    /// which is 16-byte aligned at offset 0.
    ///
    /// ```
    /// use codegen_x86::{FunctionBuilder, Gpr, INT_ARGS};
    /// // Round-trips the argument through a stack slot.
    /// let f = FunctionBuilder::new().locals(16).build_jit::<extern "sysv64" fn(i64) -> i64>(
    ///     |asm, frame| {
    ///         assert_eq!(frame.locals(), 16);
    ///         asm.mov(frame.local(8), INT_ARGS[0]);
    ///         asm.mov(Gpr::Rax, frame.local(8));
    ///         Ok(())
    ///     },
    /// )?;
    /// assert_eq!(f.call((-5,)), -5);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn local(&self, offset: i32) -> Mem {
        Mem::base(Gpr::Rsp).disp(offset)
    }

    /// Size of the requested local area in bytes.
    pub fn locals(&self) -> u32 {
        self.locals
    }
}

/// Builds a System V AMD64 function around a body.
///
/// The prologue pushes `rbp`, sets it up as the frame pointer, pushes the
/// requested callee-saved registers and reserves the local area, so that `rsp`
/// is 16-byte aligned inside the body (as needed for `call`). The epilogue
/// (at [`Frame::exit`]) undoes this, optionally executes `vzeroupper`, and
/// returns. Arguments arrive in [`INT_ARGS`] / [`FLOAT_ARGS`]; results go in
/// `rax` or `xmm0`.
///
/// ```
/// use codegen_x86::{FunctionBuilder, Gpr, INT_ARGS};
/// // i64 f(i64 a, i64 b) { a * b + 1 } using a callee-saved scratch register.
/// let f = FunctionBuilder::new().save(Gpr::Rbx).build_jit::<extern "sysv64" fn(i64, i64) -> i64>(
///     |asm, _frame| {
///         asm.mov(Gpr::Rbx, INT_ARGS[0]);
///         asm.imul(Gpr::Rbx, INT_ARGS[1]);
///         asm.lea(Gpr::Rax, codegen_x86::Mem::base(Gpr::Rbx).disp(1));
///         Ok(())
///     },
/// )?;
/// assert_eq!(f.call((6, 7)), 43);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct FunctionBuilder {
    saved: Vec<Gpr>,
    locals: u32,
    vzeroupper: bool,
}

impl FunctionBuilder {
    /// A builder for a leaf function with no saved registers and no locals.
    pub fn new() -> FunctionBuilder {
        FunctionBuilder::default()
    }

    /// Also preserve `reg` (pushed in the prologue, popped in the epilogue).
    /// `rbp` is always preserved and `rsp` cannot be saved; both are ignored,
    /// as are duplicates.
    ///
    /// ```
    /// use codegen_x86::{FunctionBuilder, Gpr};
    /// let code = FunctionBuilder::new().save(Gpr::R12).build(|_, _| Ok(()))?;
    /// // push rbp; mov rbp, rsp; push r12; sub rsp, 8; add rsp, 8; pop r12; pop rbp; ret
    /// assert_eq!(code[4..6], [0x41, 0x54]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn save(mut self, reg: Gpr) -> FunctionBuilder {
        if reg != Gpr::Rbp && reg != Gpr::Rsp && !self.saved.contains(&reg) {
            self.saved.push(reg);
        }
        self
    }

    /// Reserve `bytes` of 16-byte-aligned local stack space (see [`Frame::local`]).
    ///
    /// ```
    /// use codegen_x86::{Error, FunctionBuilder};
    /// let err = FunctionBuilder::new().locals(u32::MAX).build(|_, _| Ok(()));
    /// assert_eq!(err, Err(Error::FrameTooLarge(u32::MAX)));
    /// ```
    pub fn locals(mut self, bytes: u32) -> FunctionBuilder {
        self.locals = bytes;
        self
    }

    /// Emit `vzeroupper` before returning (do this when the body uses ymm registers).
    ///
    /// ```
    /// let code = codegen_x86::FunctionBuilder::new().vzeroupper(true).build(|_, _| Ok(()))?;
    /// assert_eq!(code[code.len() - 4..], [0xc5, 0xf8, 0x77, 0xc3]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn vzeroupper(mut self, on: bool) -> FunctionBuilder {
        self.vzeroupper = on;
        self
    }

    /// Bytes subtracted from `rsp` after the pushes so that it ends 16-aligned.
    fn frame_adjust(&self) -> Result<i32, Error> {
        let pushed = 8 * self.saved.len() as u64;
        let total = (u64::from(self.locals) + pushed).div_ceil(16) * 16;
        i32::try_from(total - pushed).map_err(|_| Error::FrameTooLarge(self.locals))
    }

    /// Emits prologue, `body`, epilogue into `asm` (which may already hold code;
    /// the function starts at the current offset).
    ///
    /// ```
    /// use codegen_x86::{Assembler, FunctionBuilder};
    /// let mut asm = Assembler::new();
    /// asm.nop();
    /// FunctionBuilder::new().emit(&mut asm, |asm, _| Ok(asm.nop()))?;
    /// assert_eq!(asm.finish()?.len(), 1 + 7);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn emit(
        &self,
        asm: &mut Assembler,
        body: impl FnOnce(&mut Assembler, &Frame) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let adjust = self.frame_adjust()?;
        asm.push(Gpr::Rbp);
        asm.mov(Gpr::Rbp, Gpr::Rsp);
        for &r in &self.saved {
            asm.push(r);
        }
        if adjust != 0 {
            asm.sub(Gpr::Rsp, adjust);
        }
        let frame = Frame {
            exit: asm.new_label(),
            locals: self.locals,
        };
        body(asm, &frame)?;
        asm.bind(frame.exit)?;
        if adjust != 0 {
            asm.add(Gpr::Rsp, adjust);
        }
        for &r in self.saved.iter().rev() {
            asm.pop(r);
        }
        asm.pop(Gpr::Rbp);
        if self.vzeroupper {
            asm.vzeroupper();
        }
        asm.ret();
        Ok(())
    }

    /// Assembles the whole function and returns its machine code.
    ///
    /// ```
    /// use codegen_x86::FunctionBuilder;
    /// let code = FunctionBuilder::new().build(|_, _| Ok(()))?;
    /// // push rbp; mov rbp, rsp; pop rbp; ret
    /// assert_eq!(code, [0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3]);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn build(
        &self,
        body: impl FnOnce(&mut Assembler, &Frame) -> Result<(), Error>,
    ) -> Result<Vec<u8>, Error> {
        let mut asm = Assembler::new();
        self.emit(&mut asm, body)?;
        asm.finish()
    }

    /// Assembles the function and maps it executable as signature `F`.
    ///
    /// ```
    /// use codegen_x86::{FunctionBuilder, Gpr};
    /// let f = FunctionBuilder::new()
    ///     .build_jit::<extern "sysv64" fn() -> i64>(|asm, _| Ok(asm.mov(Gpr::Rax, 7)))?;
    /// assert_eq!(f.call(()), 7);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn build_jit<F: Signature>(
        &self,
        body: impl FnOnce(&mut Assembler, &Frame) -> Result<(), Error>,
    ) -> Result<JitFunction<F>, Error> {
        JitFunction::new(&self.build(body)?)
    }
}
