//! Measures the JIT-compiled 6×8 FMA micro-kernel against the machine's peak.
//!
//! Run with `cargo run --release -p codegen-x86 --example peak`.
//!
//! The core clock is estimated without `rdtsc` (and without `unsafe`): a
//! JIT-compiled chain of dependent register-register `add`s retires one add per
//! cycle, so adds / second = cycles / second. (An `add rax, imm` chain would not
//! do: recent Intel cores fold immediate adds at rename and run them faster.)
//! A chain of dependent `imul`s (3-cycle latency) is printed as a cross-check. Peak is 16 double-precision flops per cycle
//! (two 256-bit FMA units × 4 lanes × 2 flops).

use codegen_x86::{kernels, Assembler, Cond, Error, Gpr, JitFunction};
use std::time::Instant;

const PEAK_FLOPS_PER_CYCLE: f64 = 16.0;

/// `fn(iterations)`: each iteration runs 100 dependent `add rax, rcx`
/// (or `imul rax, rcx` when `imul` is set).
fn dependent_chain(imul: bool) -> Result<JitFunction<extern "sysv64" fn(u64) -> u64>, Error> {
    let mut asm = Assembler::new();
    asm.mov(Gpr::Rax, 1);
    asm.mov(Gpr::Rcx, 1);
    let top = asm.new_label();
    asm.align(16);
    asm.bind(top)?;
    for _ in 0..100 {
        if imul {
            asm.imul(Gpr::Rax, Gpr::Rcx);
        } else {
            asm.add(Gpr::Rax, Gpr::Rcx);
        }
    }
    asm.dec(Gpr::Rdi);
    asm.jcc(Cond::Ne, top);
    asm.ret();
    JitFunction::new(&asm.finish()?)
}

fn main() -> Result<(), Error> {
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
        println!("AVX2/FMA not available; nothing to measure");
        return Ok(());
    }
    // The machine may be shared, so every figure is the best of many short
    // runs, and clock and kernel runs are interleaved so both see the same
    // conditions.
    let adds = dependent_chain(false)?;
    let imuls = dependent_chain(true)?;
    let chain_iters = 20_000u64; // 2M adds: ~1 ms
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let k = 256usize; // A and B panels: 28 KiB, resident in L1
    let a: Vec<f64> = (0..6 * k).map(|i| (i % 7) as f64 * 0.125).collect();
    let b: Vec<f64> = (0..8 * k).map(|i| (i % 5) as f64 * 0.25).collect();
    let mut c = vec![0.0f64; 6 * 8];
    let calls = 64usize; // ~1.5 M flops: ~0.1 ms per run
    let flops_per_call = (2 * 6 * 8 * k) as f64;
    let unrolls = [1usize, 2, 4];
    let kernels: Vec<_> = unrolls
        .iter()
        .map(|&u| kernels::gemm_6x8(u))
        .collect::<Result<_, _>>()?;
    let (mut t_add, mut t_imul) = (f64::INFINITY, f64::INFINITY);
    let mut t_kernel = vec![f64::INFINITY; kernels.len()];
    for _ in 0..400 {
        t_add = t_add.min(time(&mut || {
            std::hint::black_box(adds.call((std::hint::black_box(chain_iters),)));
        }));
        t_imul = t_imul.min(time(&mut || {
            std::hint::black_box(imuls.call((std::hint::black_box(chain_iters),)));
        }));
        for (kernel, t) in kernels.iter().zip(&mut t_kernel) {
            *t = t.min(time(&mut || {
                for _ in 0..calls {
                    kernel.call((k, a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), 8));
                }
            }));
        }
    }
    let hz = (chain_iters * 100) as f64 / t_add;
    let hz_imul = (chain_iters * 100 * 3) as f64 / t_imul;
    println!(
        "estimated core clock: {:.3} GHz (dependent add chain; imul chain says {:.3} GHz)",
        hz / 1e9,
        hz_imul / 1e9
    );
    for (unroll, t) in unrolls.iter().zip(&t_kernel) {
        let flops = flops_per_call * calls as f64 / t;
        let per_cycle = flops / hz;
        println!(
            "6x8 kernel, k = {k}, unroll {unroll}: {:.2} GFLOP/s, {:.2} flops/cycle = {:.1} % of peak ({} flops/cycle)",
            flops / 1e9,
            per_cycle,
            100.0 * per_cycle / PEAK_FLOPS_PER_CYCLE,
            PEAK_FLOPS_PER_CYCLE
        );
    }
    std::hint::black_box(&c);
    Ok(())
}
