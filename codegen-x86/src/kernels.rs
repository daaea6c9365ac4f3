//! Ready-made kernels built with the public API: what loop-nest code
//! generation emits for a few classic loops, and the FMA micro-kernel used by
//! the benchmark. Each returns a typed [`JitFunction`].
//!
//! All vector loops process four doubles per `ymm` iteration and finish the
//! remainder with a scalar loop.
#![forbid(unsafe_code)]

use crate::cond::Cond;
use crate::error::Error;
use crate::func::{FunctionBuilder, INT_ARGS};
use crate::jit::JitFunction;
use crate::operand::{Mem, Scale};
use crate::reg::{Gpr, Xmm, Ymm};

/// `fn(x, n) -> sum of x[0..n]`.
pub type SumFn = extern "sysv64" fn(*const f64, usize) -> f64;
/// `fn(n, a, x, y)`: `y[i] += a * x[i]` for `i < n`.
pub type DaxpyFn = extern "sysv64" fn(usize, f64, *const f64, *mut f64);
/// `fn(x, y, n) -> sum of x[i] * y[i]`.
pub type DotFn = extern "sysv64" fn(*const f64, *const f64, usize) -> f64;
/// `fn(k, a, b, c, ldc)`: the 6×8 micro-kernel, see [`gemm_6x8`].
pub type Gemm6x8Fn = extern "sysv64" fn(usize, *const f64, *const f64, *mut f64, usize);

fn elem(base: Gpr, i: Gpr, disp: i32) -> Result<Mem, Error> {
    Mem::sib(base, i, Scale::X8, disp)
}

/// Sum of an array: one `ymm` accumulator, scalar remainder, and a
/// store-to-stack horizontal reduction.
///
/// ```
/// # if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) { return Ok(()); }
/// let sum = codegen_x86::kernels::sum()?;
/// let xs: Vec<f64> = (1..=10).map(f64::from).collect();
/// assert_eq!(sum.call((xs.as_ptr(), xs.len())), 55.0);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
pub fn sum() -> Result<JitFunction<SumFn>, Error> {
    let (x, n) = (INT_ARGS[0], INT_ARGS[1]);
    FunctionBuilder::new()
        .locals(32)
        .vzeroupper(true)
        .build_jit(|asm, frame| {
            let i = Gpr::Rax;
            asm.vxorpd(Ymm::Ymm0, Ymm::Ymm0, Ymm::Ymm0);
            asm.xor(i, i);
            // Vector loop while i + 4 <= n.
            asm.lea(Gpr::Rcx, Mem::base(n).disp(-3));
            let (vtop, vdone) = (asm.new_label(), asm.new_label());
            asm.cmp(n, 4);
            asm.jcc(Cond::B, vdone);
            asm.bind(vtop)?;
            asm.vaddpd(Ymm::Ymm0, Ymm::Ymm0, elem(x, i, 0)?);
            asm.add(i, 4);
            asm.cmp(i, Gpr::Rcx);
            asm.jcc(Cond::B, vtop);
            asm.bind(vdone)?;
            // Reduce the four lanes through the stack.
            asm.vmovupd(frame.local(0), Ymm::Ymm0);
            asm.vmovsd_load(Xmm::Xmm0, frame.local(0));
            for lane in 1..4 {
                asm.vaddsd(Xmm::Xmm0, Xmm::Xmm0, frame.local(8 * lane));
            }
            // Scalar remainder.
            let (stop, sdone) = (asm.new_label(), asm.new_label());
            asm.cmp(i, n);
            asm.jcc(Cond::Ae, sdone);
            asm.bind(stop)?;
            asm.vaddsd(Xmm::Xmm0, Xmm::Xmm0, elem(x, i, 0)?);
            asm.inc(i);
            asm.cmp(i, n);
            asm.jcc(Cond::B, stop);
            asm.bind(sdone)?;
            Ok(())
        })
}

/// `y += a * x` with `vfmadd231pd` on `ymm` and `vfmadd231sd` for the remainder.
///
/// ```
/// # if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) { return Ok(()); }
/// let daxpy = codegen_x86::kernels::daxpy()?;
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0];
/// let mut y = [1.0; 5];
/// daxpy.call((5, 2.0, x.as_ptr(), y.as_mut_ptr()));
/// assert_eq!(y, [3.0, 5.0, 7.0, 9.0, 11.0]);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
pub fn daxpy() -> Result<JitFunction<DaxpyFn>, Error> {
    let (n, x, y) = (INT_ARGS[0], INT_ARGS[1], INT_ARGS[2]);
    FunctionBuilder::new()
        .vzeroupper(true)
        .build_jit(|asm, frame| {
            let (i, vend) = (Gpr::Rax, Gpr::Rcx);
            asm.vbroadcastsd(Ymm::Ymm0, Xmm::Xmm0);
            asm.xor(i, i);
            asm.mov(vend, n);
            asm.and(vend, -4);
            let (vtop, vdone) = (asm.new_label(), asm.new_label());
            asm.test(vend, vend);
            asm.jcc(Cond::E, vdone);
            asm.bind(vtop)?;
            asm.vmovupd(Ymm::Ymm1, elem(y, i, 0)?);
            asm.vfmadd231pd(Ymm::Ymm1, Ymm::Ymm0, elem(x, i, 0)?);
            asm.vmovupd(elem(y, i, 0)?, Ymm::Ymm1);
            asm.add(i, 4);
            asm.cmp(i, vend);
            asm.jcc(Cond::B, vtop);
            asm.bind(vdone)?;
            asm.cmp(i, n);
            asm.jcc(Cond::Ae, frame.exit());
            let stop = asm.new_label();
            asm.bind(stop)?;
            asm.vmovsd_load(Xmm::Xmm1, elem(y, i, 0)?);
            asm.vfmadd231sd(Xmm::Xmm1, Xmm::Xmm0, elem(x, i, 0)?);
            asm.vmovsd_store(elem(y, i, 0)?, Xmm::Xmm1);
            asm.inc(i);
            asm.cmp(i, n);
            asm.jcc(Cond::B, stop);
            Ok(())
        })
}

/// Dot product: two independent `ymm` FMA chains, unrolled by 8, scalar remainder.
///
/// ```
/// # if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) { return Ok(()); }
/// let dot = codegen_x86::kernels::dot()?;
/// let x = [1.0, 2.0, 3.0];
/// let y = [4.0, 5.0, 6.0];
/// assert_eq!(dot.call((x.as_ptr(), y.as_ptr(), 3)), 32.0);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
pub fn dot() -> Result<JitFunction<DotFn>, Error> {
    let (x, y, n) = (INT_ARGS[0], INT_ARGS[1], INT_ARGS[2]);
    FunctionBuilder::new()
        .locals(32)
        .vzeroupper(true)
        .build_jit(|asm, frame| {
            let (i, vend) = (Gpr::Rax, Gpr::Rcx);
            asm.vxorpd(Ymm::Ymm0, Ymm::Ymm0, Ymm::Ymm0);
            asm.vxorpd(Ymm::Ymm1, Ymm::Ymm1, Ymm::Ymm1);
            asm.xor(i, i);
            asm.mov(vend, n);
            asm.and(vend, -8);
            let (vtop, vdone) = (asm.new_label(), asm.new_label());
            asm.test(vend, vend);
            asm.jcc(Cond::E, vdone);
            asm.bind(vtop)?;
            asm.vmovupd(Ymm::Ymm2, elem(x, i, 0)?);
            asm.vmovupd(Ymm::Ymm3, elem(x, i, 32)?);
            asm.vfmadd231pd(Ymm::Ymm0, Ymm::Ymm2, elem(y, i, 0)?);
            asm.vfmadd231pd(Ymm::Ymm1, Ymm::Ymm3, elem(y, i, 32)?);
            asm.add(i, 8);
            asm.cmp(i, vend);
            asm.jcc(Cond::B, vtop);
            asm.bind(vdone)?;
            asm.vaddpd(Ymm::Ymm0, Ymm::Ymm0, Ymm::Ymm1);
            asm.vmovupd(frame.local(0), Ymm::Ymm0);
            asm.vmovsd_load(Xmm::Xmm0, frame.local(0));
            for lane in 1..4 {
                asm.vaddsd(Xmm::Xmm0, Xmm::Xmm0, frame.local(8 * lane));
            }
            let (stop, sdone) = (asm.new_label(), asm.new_label());
            asm.cmp(i, n);
            asm.jcc(Cond::Ae, sdone);
            asm.bind(stop)?;
            asm.vmovsd_load(Xmm::Xmm1, elem(x, i, 0)?);
            asm.vfmadd231sd(Xmm::Xmm0, Xmm::Xmm1, elem(y, i, 0)?);
            asm.inc(i);
            asm.cmp(i, n);
            asm.jcc(Cond::B, stop);
            asm.bind(sdone)?;
            Ok(())
        })
}

/// The 6×8 double-precision GEMM micro-kernel: `C[6×8] += A[6×k] · B[k×8]`.
///
/// * `a` is packed k-major: `a[p*6 + i]` is `A[i][p]`;
/// * `b` is packed k-major: `b[p*8 + j]` is `B[p][j]`;
/// * `c` is row-major with a row stride of `ldc` doubles.
///
/// The 12 accumulators `C[i][0..4]`, `C[i][4..8]` live in `ymm0..ymm11` for the
/// whole `k` loop; each step loads two `ymm` of B (`ymm12`, `ymm13`), broadcasts
/// the six A elements into `ymm14`/`ymm15` and issues 12 FMAs (96 flops). The
/// `k` loop is unrolled `unroll` times (at least 1), with a one-step remainder loop.
///
/// ```
/// # if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) { return Ok(()); }
/// let kernel = codegen_x86::kernels::gemm_6x8(2)?;
/// let k = 3;
/// let a: Vec<f64> = (0..6 * k).map(|v| v as f64).collect();
/// let b: Vec<f64> = (0..k * 8).map(|v| (v % 5) as f64).collect();
/// let mut c = vec![1.0; 6 * 8];
/// kernel.call((k, a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), 8));
/// let expect = |i: usize, j: usize| 1.0 + (0..k).map(|p| a[p * 6 + i] * b[p * 8 + j]).sum::<f64>();
/// assert_eq!(c[5 * 8 + 7], expect(5, 7));
/// # Ok::<(), codegen_x86::Error>(())
/// ```
pub fn gemm_6x8(unroll: usize) -> Result<JitFunction<Gemm6x8Fn>, Error> {
    let [k, a, b, c, ldc, _] = INT_ARGS;
    let unroll = unroll.max(1);
    let acc = |i: usize, half: usize| Ymm::ALL[2 * i + half];
    let (b0, b1) = (Ymm::Ymm12, Ymm::Ymm13);
    FunctionBuilder::new()
        .vzeroupper(true)
        .build_jit(|asm, _frame| {
            let row = Gpr::R9;
            asm.shl(ldc, 3); // ldc in bytes
                             // Load C into the accumulators.
            asm.mov(row, c);
            for i in 0..6 {
                asm.vmovupd(acc(i, 0), Mem::base(row));
                asm.vmovupd(acc(i, 1), Mem::base(row).disp(32));
                asm.add(row, ldc);
            }
            let step = |asm: &mut crate::Assembler, p: i32| {
                asm.vmovupd(b0, Mem::base(b).disp(64 * p));
                asm.vmovupd(b1, Mem::base(b).disp(64 * p + 32));
                for i in 0..6 {
                    let bc = if i % 2 == 0 { Ymm::Ymm14 } else { Ymm::Ymm15 };
                    asm.vbroadcastsd(bc, Mem::base(a).disp(48 * p + 8 * i as i32));
                    asm.vfmadd231pd(acc(i, 0), bc, b0);
                    asm.vfmadd231pd(acc(i, 1), bc, b1);
                }
            };
            let u = i32::try_from(unroll).unwrap_or(i32::MAX);
            let (rest, rtop, done) = (asm.new_label(), asm.new_label(), asm.new_label());
            if unroll > 1 {
                // Main loop: `unroll` steps per iteration while k >= unroll.
                let top = asm.new_label();
                asm.cmp(k, u);
                asm.jcc(Cond::B, rest);
                asm.align(16);
                asm.bind(top)?;
                for p in 0..u {
                    step(asm, p);
                }
                asm.add(a, 48 * u);
                asm.add(b, 64 * u);
                asm.sub(k, u);
                asm.cmp(k, u);
                asm.jcc(Cond::Ae, top);
            }
            // Remainder: one step per iteration.
            asm.bind(rest)?;
            asm.test(k, k);
            asm.jcc(Cond::E, done);
            asm.bind(rtop)?;
            step(asm, 0);
            asm.add(a, 48);
            asm.add(b, 64);
            asm.dec(k);
            asm.jcc(Cond::Ne, rtop);
            asm.bind(done)?;
            // Store the accumulators back to C.
            asm.mov(row, c);
            for i in 0..6 {
                asm.vmovupd(Mem::base(row), acc(i, 0));
                asm.vmovupd(Mem::base(row).disp(32), acc(i, 1));
                asm.add(row, ldc);
            }
            Ok(())
        })
}
