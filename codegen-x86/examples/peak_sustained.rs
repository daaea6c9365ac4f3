//! The 6×8 FMA micro-kernel of the `peak` example run without pause for a
//! few seconds, its rate measured against the thread's CPU time.
//!
//! Run with `cargo run --release -p codegen-x86 --example peak_sustained [SECONDS]`
//! (default 3).
//!
//! `peak` keeps the best of many 0.1-ms bursts, which a loaded machine
//! spares; a kernel that runs for tens of milliseconds (gemm at 1024³)
//! shares the core with whatever else runs. This example reports the
//! kernel's flops over the CPU time the thread received (Linux:
//! `/proc/thread-self/schedstat`, nanoseconds on the CPU), over the whole
//! run and per 10-ms slice of wall clock, with its data (A and B panels,
//! 28 KiB) in the first-level cache: the rate a long computation can reach
//! in the same conditions. The core clock (a dependent `add` chain, as in
//! `peak`: [`common::dependent_chain`]) is printed before and after.

mod common;

use codegen_x86::{kernels, Error};
use common::{Panels, CHAIN_ITERS};
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU, if the kernel says.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() -> Result<(), Error> {
    if !common::avx2_fma() {
        return Ok(());
    }
    let Some(start_cpu) = cpu_ns() else {
        println!("/proc/thread-self/schedstat unreadable; nothing to measure");
        return Ok(());
    };
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let adds = common::dependent_chain(false)?;
    let clock = || {
        let mut best = f64::INFINITY;
        for _ in 0..100 {
            let t = Instant::now();
            std::hint::black_box(adds.call((std::hint::black_box(CHAIN_ITERS),)));
            best = best.min(t.elapsed().as_secs_f64());
        }
        (CHAIN_ITERS * 100) as f64 / best / 1e9
    };
    let mut panels = Panels::new(256);
    let k = panels.k;
    let kernel = kernels::gemm_6x8(4)?;
    let flops_per_call = panels.flops_per_call();
    println!("core clock before: {:.3} GHz", clock());
    let (t0, mut calls_total) = (Instant::now(), 0u64);
    let cpu0 = cpu_ns().unwrap_or(start_cpu);
    let mut slices = Vec::new();
    while t0.elapsed().as_secs_f64() < secs {
        let (t, c0) = (Instant::now(), cpu_ns().unwrap_or(0));
        let mut calls = 0u64;
        while t.elapsed().as_secs_f64() < 0.01 {
            for _ in 0..64 {
                panels.call(&kernel);
            }
            calls += 64;
        }
        calls_total += calls;
        let cpu = cpu_ns().unwrap_or(0).saturating_sub(c0);
        if cpu > 0 {
            slices.push(calls as f64 * flops_per_call / cpu as f64);
        }
    }
    let cpu = cpu_ns().unwrap_or(cpu0).saturating_sub(cpu0).max(1);
    let whole = calls_total as f64 * flops_per_call / cpu as f64;
    let wall = calls_total as f64 * flops_per_call / t0.elapsed().as_secs_f64() / 1e9;
    slices.sort_by(f64::total_cmp);
    println!(
        "6x8 kernel, k = {k}, unroll 4, {secs} s: {whole:.2} GFLOP/s of CPU time ({wall:.2} of wall clock)"
    );
    if !slices.is_empty() {
        println!(
            "per 10-ms slice (the CPU clock's granularity blurs single slices): median {:.2}, quartiles {:.2} / {:.2} GFLOP/s",
            slices[slices.len() / 2],
            slices[slices.len() / 4],
            slices[3 * slices.len() / 4]
        );
    }
    println!("core clock after: {:.3} GHz", clock());
    std::hint::black_box(&panels.c);
    Ok(())
}
