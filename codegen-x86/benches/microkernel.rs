//! Criterion benchmark of the JIT-compiled 6×8 FMA micro-kernel
//! (throughput reported in flops: 2·6·8·k per call).

use codegen_x86::kernels;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn microkernel(c: &mut Criterion) {
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
        eprintln!("note: AVX2/FMA not available, skipping");
        return;
    }
    let k = 256usize;
    let a: Vec<f64> = (0..6 * k).map(|i| (i % 7) as f64).collect();
    let b: Vec<f64> = (0..8 * k).map(|i| (i % 5) as f64).collect();
    let mut out = vec![0.0f64; 6 * 8];
    let mut group = c.benchmark_group("gemm_6x8");
    group.throughput(Throughput::Elements((2 * 6 * 8 * k) as u64));
    for unroll in [1usize, 4] {
        let kernel = kernels::gemm_6x8(unroll).expect("kernel compiles");
        group.bench_function(format!("k{k}_unroll{unroll}"), |bench| {
            bench.iter(|| {
                kernel.call((black_box(k), a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), 8));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, microkernel);
criterion_main!(benches);
