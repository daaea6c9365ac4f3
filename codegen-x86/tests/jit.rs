//! Runs JIT-compiled functions and compares them with plain Rust.

use codegen_x86::kernels;
use codegen_x86::{
    Assembler, Cond, Error, ExecutableMemory, FunctionBuilder, Gpr, JitFunction, Mem, Scale, Xmm,
    Ymm, INT_ARGS,
};

fn have_avx2_fma() -> bool {
    let ok = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    if !ok {
        eprintln!("note: AVX2/FMA not available, skipping JIT execution test");
    }
    ok
}

/// Deterministic small-integer-valued data, so that sums are exact in any order.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 17) as f64 - 8.0
        })
        .collect()
}

#[test]
fn integer_function_without_avx() -> Result<(), Error> {
    // i64 f(i64 a, i64 b) = max(a, b) * 3 - 1, via cmp/cmov/imul/lea.
    let f: JitFunction<extern "sysv64" fn(i64, i64) -> i64> =
        FunctionBuilder::new().build_jit(|asm, _| {
            asm.mov(Gpr::Rax, INT_ARGS[0]);
            asm.cmp(Gpr::Rax, INT_ARGS[1]);
            asm.cmov(Cond::L, Gpr::Rax, INT_ARGS[1]);
            asm.imul_imm(Gpr::Rax, Gpr::Rax, 3);
            asm.dec(Gpr::Rax);
            Ok(())
        })?;
    for (a, b) in [(1, 2), (5, -3), (-7, -7), (i64::from(i32::MAX), 0)] {
        assert_eq!(f.call((a, b)), a.max(b) * 3 - 1);
    }
    Ok(())
}

#[test]
fn stack_is_aligned_and_callee_saved_registers_survive() -> Result<(), Error> {
    for saved in 0..=5 {
        let regs = [Gpr::Rbx, Gpr::R12, Gpr::R13, Gpr::R14, Gpr::R15];
        let mut b = FunctionBuilder::new().locals(24);
        for &r in &regs[..saved] {
            b = b.save(r);
        }
        // Clobber the saved registers, then return rsp % 16 (must be 0 in the body).
        let f: JitFunction<extern "sysv64" fn() -> u64> = b.build_jit(|asm, frame| {
            for &r in &regs[..saved] {
                asm.movabs(r, -1);
            }
            asm.mov(frame.local(16), Gpr::Rbx);
            asm.mov(Gpr::Rax, Gpr::Rsp);
            asm.and(Gpr::Rax, 15);
            Ok(())
        })?;
        for _ in 0..3 {
            assert_eq!(f.call(()), 0, "misaligned with {saved} saved registers");
        }
    }
    Ok(())
}

#[test]
fn sum_with_scalar_remainder() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    let sum = kernels::sum()?;
    for n in 0..40 {
        let xs = data(n, n as u64);
        assert_eq!(
            sum.call((xs.as_ptr(), n)),
            xs.iter().sum::<f64>(),
            "n = {n}"
        );
    }
    Ok(())
}

#[test]
fn daxpy_matches_rust() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    let daxpy = kernels::daxpy()?;
    for n in [0, 1, 3, 4, 5, 8, 13, 64, 1001] {
        let x = data(n, 1);
        let mut y = data(n, 2);
        let mut expect = y.clone();
        for (e, xi) in expect.iter_mut().zip(&x) {
            *e = 2.5f64.mul_add(*xi, *e);
        }
        daxpy.call((n, 2.5, x.as_ptr(), y.as_mut_ptr()));
        assert_eq!(y, expect, "n = {n}");
    }
    Ok(())
}

#[test]
fn dot_matches_rust() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    let dot = kernels::dot()?;
    for n in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1023] {
        let (x, y) = (data(n, 3), data(n, 4));
        let expect: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
        assert_eq!(dot.call((x.as_ptr(), y.as_ptr(), n)), expect, "n = {n}");
    }
    Ok(())
}

fn reference_6x8(k: usize, a: &[f64], b: &[f64], c: &mut [f64], ldc: usize) {
    for i in 0..6 {
        for j in 0..8 {
            for p in 0..k {
                c[i * ldc + j] += a[p * 6 + i] * b[p * 8 + j];
            }
        }
    }
}

#[test]
fn gemm_micro_kernel_matches_rust() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    for unroll in [1, 2, 4] {
        let kernel = kernels::gemm_6x8(unroll)?;
        for (k, ldc) in [(0, 8), (1, 8), (3, 11), (4, 8), (7, 16), (64, 9), (129, 8)] {
            let a = data(6 * k, 5);
            let b = data(8 * k, 6);
            let mut c = data(6 * ldc, 7);
            let mut expect = c.clone();
            reference_6x8(k, &a, &b, &mut expect, ldc);
            kernel.call((k, a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), ldc));
            assert_eq!(c, expect, "unroll {unroll}, k {k}, ldc {ldc}");
        }
    }
    Ok(())
}

/// `C[m×n] += A[m×k] · B[k×n]` (row-major, dense): a three-deep loop nest with
/// `jcc` back edges, callee-saved registers and scalar FMA.
type MatmulFn = extern "sysv64" fn(*const f64, *const f64, *mut f64, usize, usize, usize);

fn matmul_loop_nest() -> Result<JitFunction<MatmulFn>, Error> {
    let [pa, pb, pc, m, n, k] = INT_ARGS;
    let (i, j, p) = (Gpr::Rbx, Gpr::R12, Gpr::R13);
    let (arow, tmp) = (Gpr::R14, Gpr::R15);
    FunctionBuilder::new()
        .save(Gpr::Rbx)
        .save(Gpr::R12)
        .save(Gpr::R13)
        .save(Gpr::R14)
        .save(Gpr::R15)
        .build_jit(|asm, frame| {
            asm.test(m, m);
            asm.jcc(Cond::E, frame.exit());
            asm.test(n, n);
            asm.jcc(Cond::E, frame.exit());
            asm.xor(i, i);
            let li = asm.new_label();
            asm.bind(li)?;
            // arow = &A[i][0]
            asm.mov(arow, i);
            asm.imul(arow, k);
            asm.lea(arow, Mem::sib(pa, arow, Scale::X8, 0)?);
            asm.xor(j, j);
            let lj = asm.new_label();
            asm.bind(lj)?;
            // xmm0 = C[i][j]; tmp = i*n + j
            asm.mov(tmp, i);
            asm.imul(tmp, n);
            asm.add(tmp, j);
            asm.vmovsd_load(Xmm::Xmm0, Mem::sib(pc, tmp, Scale::X8, 0)?);
            asm.xor(p, p);
            let (lp, pdone) = (asm.new_label(), asm.new_label());
            asm.test(k, k);
            asm.jcc(Cond::E, pdone);
            asm.bind(lp)?;
            // xmm0 += A[i][p] * B[p][j]
            asm.mov(Gpr::Rax, p);
            asm.imul(Gpr::Rax, n);
            asm.add(Gpr::Rax, j);
            asm.vmovsd_load(Xmm::Xmm1, Mem::sib(pb, Gpr::Rax, Scale::X8, 0)?);
            asm.vfmadd231sd(Xmm::Xmm0, Xmm::Xmm1, Mem::sib(arow, p, Scale::X8, 0)?);
            asm.inc(p);
            asm.cmp(p, k);
            asm.jcc(Cond::L, lp);
            asm.bind(pdone)?;
            asm.vmovsd_store(Mem::sib(pc, tmp, Scale::X8, 0)?, Xmm::Xmm0);
            asm.inc(j);
            asm.cmp(j, n);
            asm.jcc(Cond::L, lj);
            asm.inc(i);
            asm.cmp(i, m);
            asm.jcc(Cond::L, li);
            Ok(())
        })
}

#[test]
fn loop_nest_matmul_matches_rust() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    let f = matmul_loop_nest()?;
    for (m, n, k) in [
        (1, 1, 1),
        (3, 5, 7),
        (8, 8, 8),
        (13, 4, 0),
        (0, 3, 3),
        (17, 9, 21),
    ] {
        let a = data(m * k, 8);
        let b = data(k * n, 9);
        let mut c = data(m * n, 10);
        let mut expect = c.clone();
        for i in 0..m {
            for j in 0..n {
                for p in 0..k {
                    expect[i * n + j] = a[i * k + p].mul_add(b[p * n + j], expect[i * n + j]);
                }
            }
        }
        f.call((a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), m, n, k));
        assert_eq!(c, expect, "{m}x{n}x{k}");
    }
    Ok(())
}

#[test]
fn packed_sqrt_max_and_conversion() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    // out[i] = max(sqrt(x[i]), (f64) i) for n = 4, then out[4] = min(x[0], x[1]).
    let f: JitFunction<extern "sysv64" fn(*const f64, *mut f64) -> ()> = FunctionBuilder::new()
        .vzeroupper(true)
        .build_jit(|asm, _| {
            let (x, out) = (INT_ARGS[0], INT_ARGS[1]);
            asm.vsqrtpd(Ymm::Ymm0, Mem::base(x));
            for lane in 0..4 {
                asm.mov(Gpr::Rax, lane);
                asm.vcvtsi2sd(Xmm::Xmm9, Xmm::Xmm9, Gpr::Rax);
                asm.vmovsd_store(Mem::base(out).disp(8 * lane), Xmm::Xmm9);
            }
            asm.vmaxpd(Ymm::Ymm0, Ymm::Ymm0, Mem::base(out));
            asm.vmovupd(Mem::base(out), Ymm::Ymm0);
            asm.vmovsd_load(Xmm::Xmm10, Mem::base(x));
            asm.vminsd(Xmm::Xmm10, Xmm::Xmm10, Mem::base(x).disp(8));
            asm.vmovsd_store(Mem::base(out).disp(32), Xmm::Xmm10);
            Ok(())
        })?;
    let x = [16.0, 0.25, 4.0, 1.0];
    let mut out = [0.0; 5];
    f.call((x.as_ptr(), out.as_mut_ptr()));
    assert_eq!(out, [4.0, 1.0, 2.0, 3.0, 0.25]);
    Ok(())
}

#[test]
fn ucomisd_branches_on_comparison() -> Result<(), Error> {
    if !have_avx2_fma() {
        return Ok(());
    }
    // 1 if a > b else 0 (0 for NaN too: `ja` is false when unordered).
    let f: JitFunction<extern "sysv64" fn(f64, f64) -> u64> =
        FunctionBuilder::new().build_jit(|asm, frame| {
            asm.xor(Gpr::Rax, Gpr::Rax);
            asm.vucomisd(Xmm::Xmm0, Xmm::Xmm1);
            asm.jcc_short(Cond::Be, frame.exit());
            asm.inc(Gpr::Rax);
            Ok(())
        })?;
    assert_eq!(f.call((2.0, 1.0)), 1);
    assert_eq!(f.call((1.0, 2.0)), 0);
    assert_eq!(f.call((f64::NAN, 1.0)), 0);
    Ok(())
}

#[test]
fn call_through_label_and_register() -> Result<(), Error> {
    // main: call helper (label); add rax, 1; ret   helper: mov rax, rdi; shl rax, 2; ret
    let mut asm = Assembler::new();
    let helper = asm.new_label();
    asm.push(Gpr::Rbp);
    asm.call(helper);
    asm.pop(Gpr::Rbp);
    asm.add(Gpr::Rax, 1);
    asm.ret();
    asm.bind(helper)?;
    asm.mov(Gpr::Rax, Gpr::Rdi);
    asm.shl(Gpr::Rax, 2);
    asm.ret();
    let f: JitFunction<extern "sysv64" fn(i64) -> i64> = JitFunction::new(&asm.finish()?)?;
    assert_eq!(f.call((10,)), 41);
    Ok(())
}

#[test]
fn executable_memory_rejects_empty_code_and_is_shareable() -> Result<(), Error> {
    assert_eq!(ExecutableMemory::new(&[]).unwrap_err(), Error::EmptyCode);
    let mem = ExecutableMemory::new(&[0x48, 0x89, 0xf8, 0xc3])?; // mov rax, rdi; ret
    let f: JitFunction<extern "sysv64" fn(u64) -> u64> = JitFunction::from_memory(mem.clone());
    let g = f.clone();
    drop(mem);
    drop(f);
    let h = std::thread::spawn(move || g.call((7,))).join().unwrap();
    assert_eq!(h, 7);
    Ok(())
}

#[test]
fn label_errors_are_errors_not_panics() {
    let mut asm = Assembler::new();
    let far = asm.new_label();
    asm.jcc_short(Cond::E, far);
    asm.emit_bytes(&[0x90; 300]);
    asm.bind(far).unwrap();
    assert!(matches!(
        asm.clone().finish(),
        Err(Error::Rel8OutOfRange { .. })
    ));
    let mut other = Assembler::new();
    other.jmp(far);
    assert_eq!(other.finish(), Err(Error::UnknownLabel(far)));
    assert_eq!(
        Mem::sib(Gpr::Rax, Gpr::Rsp, Scale::X2, 0),
        Err(Error::RspAsIndex)
    );
}

#[test]
fn data_buffers_are_zeroed_aligned_and_separate() {
    use codegen_x86::jit::{DataBuffer, HUGE_PAGE};
    // below, at and above a huge page, and one element
    let sizes = [
        1,
        1000,
        HUGE_PAGE / 8 - 1,
        HUGE_PAGE / 8,
        3 * HUGE_PAGE / 8 + 5,
    ];
    let mut bufs: Vec<DataBuffer> = sizes
        .iter()
        .map(|&n| DataBuffer::zeroed(n).unwrap())
        .collect();
    for (b, &n) in bufs.iter_mut().zip(&sizes) {
        assert_eq!(b.as_slice().len(), n);
        assert!(b.as_slice().iter().all(|&x| x == 0.0));
        let at = b.as_slice().as_ptr() as usize;
        assert_eq!(at % 64, 0, "{n} doubles at {at:#x}");
        if n * 8 >= HUGE_PAGE {
            assert_eq!(at % HUGE_PAGE, 0, "{n} doubles at {at:#x}");
        }
        for (i, x) in b.as_mut_slice().iter_mut().enumerate() {
            *x = (i + n) as f64;
        }
    }
    // each kept its own values (no two overlap)
    for (b, &n) in bufs.iter().zip(&sizes) {
        assert!(b
            .as_slice()
            .iter()
            .enumerate()
            .all(|(i, &x)| x == (i + n) as f64));
    }
    // a buffer too large to address is an error, not a panic
    assert!(DataBuffer::zeroed(usize::MAX / 4).is_err());
}
