//! What the `peak` and `peak_sustained` examples share: the clock's
//! dependent chain, the check for AVX2/FMA, and the 6×8 micro-kernel's
//! panels (the module is not an example of its own: a directory without
//! a `main.rs`).

use codegen_x86::kernels::Gemm6x8Fn;
use codegen_x86::{Assembler, Cond, Error, Gpr, JitFunction};

/// Double-precision flops per cycle at peak: two 256-bit FMA units × 4
/// lanes × 2 flops.
#[allow(dead_code)] // `peak_sustained` reports no fraction of the peak
pub const PEAK_FLOPS_PER_CYCLE: f64 = 16.0;

/// Iterations of a chain per timing: 2 M instructions, ~1 ms.
pub const CHAIN_ITERS: u64 = 20_000;

/// `fn(iterations)`: each iteration runs 100 dependent `add rax, rcx`
/// (or `imul rax, rcx` when `imul` is set). A register-register `add`
/// retires one per cycle, so adds / second = cycles / second (an
/// `add rax, imm` chain would not do: recent Intel cores fold immediate
/// adds at rename and run them faster); `imul` has a 3-cycle latency.
pub fn dependent_chain(imul: bool) -> Result<JitFunction<extern "sysv64" fn(u64) -> u64>, Error> {
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

/// True when the machine has AVX2 and FMA; says so otherwise.
pub fn avx2_fma() -> bool {
    let ok = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    if !ok {
        println!("AVX2/FMA not available; nothing to measure");
    }
    ok
}

/// The micro-kernel's operands: an `a` panel (6 × `k`), a `b` panel
/// (8 × `k`; together 28 KiB at `k` = 256, resident in the first-level
/// cache) and a 6×8 tile of `C`.
pub struct Panels {
    pub k: usize,
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
}

impl Panels {
    pub fn new(k: usize) -> Panels {
        Panels {
            k,
            a: (0..6 * k).map(|i| (i % 7) as f64 * 0.125).collect(),
            b: (0..8 * k).map(|i| (i % 5) as f64 * 0.25).collect(),
            c: vec![0.0; 6 * 8],
        }
    }

    /// Flops of one call of the kernel on the panels.
    pub fn flops_per_call(&self) -> f64 {
        (2 * 6 * 8 * self.k) as f64
    }

    /// One call of `kernel` ([`codegen_x86::kernels::gemm_6x8`]) on the panels.
    pub fn call(&mut self, kernel: &JitFunction<Gemm6x8Fn>) {
        kernel.call((
            self.k,
            self.a.as_ptr(),
            self.b.as_ptr(),
            self.c.as_mut_ptr(),
            8,
        ));
    }
}
