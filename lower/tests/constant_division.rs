//! Division by a constant in generated code, bit for bit `x / c` (module
//! `recip`): the vector loop (`x * (1/c)` for powers of two, `vdivpd`
//! otherwise) and the scalar one (a double-word reciprocal's quotient checked
//! by Markstein's correction, with a range test, `vdivsd` outside it), run through the JIT on random bit patterns and on
//! values near the fast path's limits, for many constants.

use codegen_x86::JitFunction;

fn kernel(c: f64) -> String {
    // the first loop vectorizes; fmin keeps the second scalar
    format!(
        "#include <math.h>
void d(int n, double x[n], double y[n], double z[n]) {{
  for (int i = 0; i < n; i++)
    y[i] = x[i] / {c:?};
  for (int i = 0; i < n; i++)
    z[i] = fmin(x[i] / {c:?}, x[i] / {c:?});
}}"
    )
}

fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn dividends(c: f64, seed: &mut u64, n: usize) -> Vec<f64> {
    let mut xs = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
    ];
    xs.extend([f64::MIN_POSITIVE, f64::from_bits(1), 1.0, c, 3.0 * c]);
    let a = c.abs();
    let (lo, hi) = (2f64.powi(-960) * a.max(1.0), 2f64.powi(1000) * a.min(1.0));
    for l in [lo, hi, f64::MIN_POSITIVE * a, f64::MAX * a.min(1.0)] {
        for k in -3i64..=3 {
            let x = f64::from_bits((l.to_bits() as i64 + k) as u64);
            xs.extend([x, -x]);
        }
    }
    while xs.len() < n {
        let u = next(seed);
        xs.push(match u % 3 {
            0 => f64::from_bits(next(seed)),
            1 => f64::from_bits((next(seed) >> 12) | (0x3c0 + next(seed) % 0x80) << 52),
            _ => c * (next(seed) % 1_000_000) as f64,
        });
    }
    xs
}

#[test]
fn division_by_a_constant_is_the_quotient_bit_for_bit() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut cs = vec![
        3.0, 5.0, 7.0, 9.0, 10.0, 11.0, 100.0, 3.0e-5, 0.1, 0.3, 1.7, 8.0, 0.25,
    ];
    cs.extend([
        1e300,
        1e-300,
        f64::from_bits(0x3fff_ffff_ffff_ffff),
        6.02e23,
    ]);
    while cs.len() < 30 {
        let e = 0x3c0u64 + next(&mut seed) % 0x80;
        cs.push(f64::from_bits(e << 52 | (next(&mut seed) >> 12)));
    }
    let mut fma_seen = 0;
    let n = 100_003;
    for &c in &cs {
        let front = lower::front(&kernel(c)).unwrap();
        let (k, node, copies) = lower::prepare(&front).unwrap();
        let code = lower::compile_jammed(&k, &node, &copies).unwrap();
        let asm = code.asm_text();
        assert!(asm.contains("ymm"), "{c}: the first loop is vectorized");
        fma_seen += usize::from(asm.contains("vfmadd231sd"));
        let f: JitFunction<lower::KernelFn> = JitFunction::new(&code.code).unwrap();
        let x = dividends(c, &mut seed, n);
        let (mut y, mut z) = (vec![0.0f64; n], vec![0.0f64; n]);
        let mut scalars = vec![0.0f64; 1];
        let ws = vec![0.0f64; 8];
        let block: Vec<i64> = vec![
            n as i64,
            x.as_ptr() as i64,
            y.as_mut_ptr() as i64,
            z.as_mut_ptr() as i64,
            scalars.as_mut_ptr() as i64,
            0,
            1,
            ws.as_ptr() as i64,
        ];
        f.call((block.as_ptr(),));
        for i in 0..n {
            let want = x[i] / c;
            for (what, got) in [("vector", y[i]), ("scalar", z[i])] {
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{what}: {:e} / {c:e}: {got:e} ({:x}), want {want:e} ({:x})",
                    x[i],
                    got.to_bits(),
                    want.to_bits()
                );
            }
        }
    }
    // the correction is emitted for most constants (3, 5, 7, 9, 10, ...)
    assert!(fma_seen >= 15, "{fma_seen}");
}
