//! The JIT-compiled 6x8 FMA micro-kernel of `codegen-x86` (flops: 2*6*8*k per call).

use std::time::Duration;

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
    let kernel = kernels::gemm_6x8(4).expect("kernel compiles");
    let mut g = c.benchmark_group("jit_gemm_6x8");
    g.throughput(Throughput::Elements((2 * 6 * 8 * k) as u64));
    g.bench_function("k256_unroll4", |bench| {
        bench.iter(|| kernel.call((black_box(k), a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), 8)))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = microkernel
}
criterion_main!(benches);
