//! Kernels whose sizes are `long` (64-bit) are compiled: checksums against
//! the interpreter at random small sizes, mixed `int`/`long` arithmetic in
//! bounds, subscripts and bodies, and the two cases that run the original
//! program instead (a value outside the 32-bit range, a non-affine integer
//! body value).

mod common;
use common::{agree, both_agree, compiled, sizes_in_bounds};

const KERNELS: [&str; 4] = [
    "void lgemm(long NI, long NJ, long NK, double alpha, double beta,
                double C[NI][NJ], double A[NI][NK], double B[NK][NJ]) {
      for (long i = 0; i < NI; i++) {
        for (long j = 0; j < NJ; j++)
          C[i][j] *= beta;
        for (long k = 0; k < NK; k++)
          for (long j = 0; j < NJ; j++)
            C[i][j] += alpha * A[i][k] * B[k][j];
      }
    }",
    // int iterators over long bounds, long iterators over int bounds, an
    // integer body value mixing both
    "void mix(long N, int M, double A[N][M], double B[N]) {
      for (int i = 0; i < N; i++)
        for (long j = 1; j < M; j++)
          A[i][j] = A[i][j - 1] + 3 * i - 2 * j + M + N;
      for (long i = N - 1; i >= 0; i--)
        B[i] = A[i][M - 1] - (N - i) / 2 + (i + 7) % 3;
    }",
    // a stencil with a long offset parameter and triangular bounds
    "void tri(long N, long S, double A[N + S][N], double B[N][N]) {
      for (long t = 0; t < 2; t++)
        for (long i = 1; i < N - 1; i++)
          for (long j = 0; j <= i; j++)
            B[i][j] = 0.25 * (A[i + S - 1][j] + A[i + S + 1][j]) + A[i + S][j] * B[i][j];
    }",
    "void dot(long N, double x[N], double y[N], double s) {
      for (long i = 0; i < N; i++)
        s += x[i] * y[i];
      for (long i = 0; i < N; i++)
        y[i] = s * x[i];
    }",
];

#[test]
fn long_kernels_agree_with_the_interpreter() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut checked = 0;
    for src in KERNELS {
        let front = lower::front(src).unwrap();
        let (k, c, pieces) = compiled(&front);
        for _ in 0..6 {
            let Some((assignments, (ints, dbls))) = sizes_in_bounds(&front, &mut seed, 0, 18)
            else {
                continue;
            };
            let state = scop::interp::initial_state(&front.function, &ints, &dbls).unwrap();
            assert_eq!(
                lower::version(&front, &state).unwrap(),
                assumptions::Choice::Optimized,
                "{} {assignments:?}",
                k.name
            );
            both_agree(
                &front,
                &k,
                &c,
                &pieces,
                &assignments,
                &format!("{} {assignments:?}", k.name),
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} runs compared");
}

#[test]
fn a_long_value_outside_32_bits_runs_the_original_program() {
    let src = "void sh(long N, long S, double A[N]) {
      for (long i = S; i < S + N; i++)
        A[i - S] = A[i - S] + 1;
    }";
    let front = lower::front(src).unwrap();
    let at = |n: i64, s: i64| {
        let ints = [("N".to_string(), n), ("S".to_string(), s)].into();
        scop::interp::initial_state(&front.function, &ints, &Default::default()).unwrap()
    };
    assert_eq!(
        lower::version(&front, &at(5, 1 << 20)).unwrap(),
        assumptions::Choice::Optimized
    );
    match lower::version(&front, &at(5, 1 << 40)).unwrap() {
        assumptions::Choice::Original(why) => assert!(why.contains("S = 1099511627776"), "{why}"),
        other => panic!("{other:?}"),
    }
    // both choices compute the interpreter's result
    let a = ["N=5".to_string(), format!("S={}", 1i64 << 40)];
    let front_k = lower::kernel_and_loops(&front).unwrap();
    let c = lower::compile(&front_k.0, &front_k.1).unwrap();
    let want = scop::commands::interp_function(&front.function, &a).unwrap();
    let got = lower::run(&c, &front_k.0, &front.function, &a, 1, &mut |_, _| {}).unwrap();
    agree(&want, &got.checksums, "S = 2^40");
}

#[test]
fn a_long_kernel_with_a_product_of_variables_is_not_compiled() {
    let src = "void sq(long N, double A[N]) {
      for (long i = 0; i < N; i++)
        A[i] = A[i] + i * N;
    }";
    let front = lower::front(src).unwrap();
    match lower::kernel_and_loops(&front) {
        Err(lower::Error::Unsupported(m)) => assert!(m.contains("`*`"), "{m}"),
        other => panic!("expected Unsupported, got {:?}", other.map(|x| x.0.name)),
    }
    // a long iterator under int sizes: unchecked as well
    let front = lower::front(&src.replacen("long N", "int N", 1)).unwrap();
    assert!(matches!(
        lower::kernel_and_loops(&front),
        Err(lower::Error::Unsupported(_))
    ));
    // all int: the front end checks its 32-bit wrapping
    let front = lower::front(&src.replace("long", "int")).unwrap();
    assert!(lower::kernel_and_loops(&front).is_ok());
}
