//! Measures the JIT-compiled 6×8 FMA micro-kernel against the machine's peak.
//!
//! Run with `cargo run --release -p codegen-x86 --example peak`.
//!
//! The core clock is estimated without `rdtsc` (and without `unsafe`): a
//! JIT-compiled chain of dependent register-register `add`s retires one add per
//! cycle, so adds / second = cycles / second ([`common::dependent_chain`]).
//! A chain of dependent `imul`s (3-cycle latency) is printed as a cross-check.
//! Peak is 16 double-precision flops per cycle (two 256-bit FMA units × 4
//! lanes × 2 flops).

mod common;

use codegen_x86::{kernels, Error};
use common::{Panels, CHAIN_ITERS, PEAK_FLOPS_PER_CYCLE};
use std::time::Instant;

fn main() -> Result<(), Error> {
    if !common::avx2_fma() {
        return Ok(());
    }
    // The machine may be shared, so every figure is the best of many short
    // runs, and clock and kernel runs are interleaved so both see the same
    // conditions.
    let adds = common::dependent_chain(false)?;
    let imuls = common::dependent_chain(true)?;
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let mut panels = Panels::new(256);
    let k = panels.k;
    let calls = 64usize; // ~1.5 M flops: ~0.1 ms per run
    let flops_per_call = panels.flops_per_call();
    let unrolls = [1usize, 2, 4];
    let kernels: Vec<_> = unrolls
        .iter()
        .map(|&u| kernels::gemm_6x8(u))
        .collect::<Result<_, _>>()?;
    let (mut t_add, mut t_imul) = (f64::INFINITY, f64::INFINITY);
    let mut t_kernel = vec![f64::INFINITY; kernels.len()];
    for _ in 0..400 {
        t_add = t_add.min(time(&mut || {
            std::hint::black_box(adds.call((std::hint::black_box(CHAIN_ITERS),)));
        }));
        t_imul = t_imul.min(time(&mut || {
            std::hint::black_box(imuls.call((std::hint::black_box(CHAIN_ITERS),)));
        }));
        for (kernel, t) in kernels.iter().zip(&mut t_kernel) {
            *t = t.min(time(&mut || {
                for _ in 0..calls {
                    panels.call(kernel);
                }
            }));
        }
    }
    let hz = (CHAIN_ITERS * 100) as f64 / t_add;
    let hz_imul = (CHAIN_ITERS * 100 * 3) as f64 / t_imul;
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
    std::hint::black_box(&panels.c);
    Ok(())
}
