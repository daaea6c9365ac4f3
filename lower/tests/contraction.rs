//! Contractions lowered to packed panels and register tiles: every form the
//! recogniser accepts, at sizes that leave partial tiles and cross the cache
//! blocks (`MC` = 120 rows, `KC` = 384 steps, `NC` = 4080 columns on a
//! 48 KiB first-level and 1 MiB second-level cache; the blocks follow the
//! host's caches, `lower::Blocking`), against the interpreter; and forms it
//! must leave alone.

mod common;
use common::agree;

/// Compiles `src` as `poly run` does (distribution, jam by 4), checks
/// whether a contraction was tiled, and compares runs at each size (one
/// list of `NAME=VALUE` per run) with the interpreter, on one worker and,
/// for the parallel pieces, on three.
fn check(src: &str, tiled: bool, sizes: &[&[(&str, i64)]]) {
    let front = lower::front(src).unwrap();
    let (k, node, copies) = lower::prepare_with(&front, 4).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    assert_eq!(
        c.notes.iter().any(|n| n.contains("contraction")),
        tiled,
        "{:?}\n{}",
        c.notes,
        node.to_c()
    );
    assert_eq!(c.workspace > 0, tiled);
    let sched = lower::schedule(&front).unwrap();
    let par = |n: &ast::Node, l: usize| lower::parallel_in(&front.model, &sched, n, l);
    let pieces = lower::compile_pieces(&k, &node, &par, &copies).unwrap();
    for size in sizes {
        let a: Vec<String> = size.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let want = scop::commands::interp_function(&front.function, &a).unwrap();
        let got = lower::run(&c, &k, &front.function, &a, 2, &mut |_, _| {}).unwrap();
        agree(&want, &got.checksums, &format!("{a:?}"));
        let cx = lower::RunContext {
            kernel: &k,
            function: &front.function,
            assignments: &a,
            repeat: 1,
            threads: 3,
            min_threaded_ns: 0,
        };
        let got = lower::run_pieces(&pieces, &cx, &mut |_, _| {}).unwrap();
        agree(&want, &got.checksums, &format!("{a:?} on 3 workers"));
    }
}

const GEMM: &str = "void g(int NI, int NJ, int NK, double alpha, double C[NI][NJ], double A[NI][NK], double B[NK][NJ]) {
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
}";

#[test]
fn gemm_at_edges_and_across_blocks() {
    check(
        GEMM,
        true,
        &[
            &[("NI", 1), ("NJ", 1), ("NK", 1)],
            &[("NI", 7), ("NJ", 9), ("NK", 5)],
            &[("NI", 6), ("NJ", 8), ("NK", 4)],
            &[("NI", 0), ("NJ", 3), ("NK", 3)],
            &[("NI", 3), ("NJ", 3), ("NK", 0)],
            &[("NI", 131), ("NJ", 19), ("NK", 261)],
            &[("NI", 2), ("NJ", 4093), ("NK", 3)],
            // whole panels only (the row-by-row copy of `B` alone), in the
            // first column block and again in a second one
            &[("NI", 13), ("NJ", 16), ("NK", 300)],
            // two blocks of half the depth, then a whole one and two halves
            &[("NI", 131), ("NJ", 19), ("NK", 401)],
            &[("NI", 13), ("NJ", 16), ("NK", 800)],
            &[("NI", 7), ("NJ", 4096), ("NK", 2)],
        ],
    );
    // across this host's blocks (they follow its caches)
    let b = lower::Blocking::host();
    let (ni, nk) = (b.mc + 7, 2 * b.kc + 5);
    check(GEMM, true, &[&[("NI", ni), ("NJ", 11), ("NK", nk)]]);
}

#[test]
fn gemm_at_every_depth_around_the_kernel_loop_thresholds() {
    // the micro-kernel runs its k loop in parts (four steps a trip while
    // more than 32 + 4 steps are left, then four while 4 are, then one):
    // every depth on both sides of each threshold, in one block, across
    // two (KC = 384; between 384 and 768 steps two blocks of half the
    // depth each, odd depths split unevenly) and across three
    let depths: Vec<i64> = (0..=41)
        .chain(380..=390)
        .chain([455, 511, 512, 513])
        .chain(764..=772)
        .collect();
    let sizes: Vec<[(&str, i64); 3]> = depths
        .iter()
        .map(|&k| [("NI", 7), ("NJ", 9), ("NK", k)])
        .collect();
    let refs: Vec<&[(&str, i64)]> = sizes.iter().map(|s| &s[..]).collect();
    check(GEMM, true, &refs);
}

#[test]
fn gemm_prefetches_the_next_tile_into_both_cache_levels() {
    // the next tile of C: 6 rows, their first and last element, into the
    // second-level cache before the k loop (prefetcht1) and into the first
    // before its end, in the full tile's kernel and the edge tile's
    let front = lower::front(GEMM).unwrap();
    let (k, node, copies) = lower::prepare_with(&front, 4).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    let asm = c.asm_text();
    let l2: Vec<&str> = asm.lines().filter(|l| l.contains("prefetcht1")).collect();
    // the tile of C at a base register; the next column's b panel at the
    // b pointer plus a distance in a register (`[b + d*1 + 64p]`), once
    // per step of the unrolled loop's prefetching copy (two parts)
    assert_eq!(
        l2.iter().filter(|l| !l.contains("*1")).count(),
        2 * 12,
        "{asm}"
    );
    assert_eq!(
        l2.iter().filter(|l| l.contains("*1")).count(),
        2 * 2 * 4,
        "{asm}"
    );
    assert!(asm.matches("prefetcht0").count() >= 2 * 12 + 2 * 8, "{asm}");
}

#[test]
fn a_side_is_packed_by_panel_four_k_at_a_time_with_alpha_in_a_register() {
    // alpha * A[i][k], a full panel of six rows at a time: alpha broadcast
    // once per panel, each row's four k by one vmulpd, rows 0-3 transposed
    // (vunpcklpd/vunpckhpd, vperm2f128 0x20 and 0x31) into four ymm stores
    // of whole k steps, rows 4-5 into four xmm stores; the last k % 4 by
    // the scalar code; a last partial panel row by row (one vmulpd, the
    // lanes stored apart), alpha from a register throughout
    let front = lower::front(GEMM).unwrap();
    let (k, node, copies) = lower::prepare_with(&front, 4).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    let asm = c.asm_text();
    let lines: Vec<&str> = asm.lines().collect();
    let vmul: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("vmulpd"))
        .collect();
    assert_eq!(vmul.len(), 6 + 1, "{asm}");
    // the panel loop: from the first vmulpd to its backward branch
    let end = (vmul[0]..lines.len())
        .find(|&i| lines[i].contains("jge"))
        .unwrap();
    let panel = &lines[vmul[0]..end];
    let count = |pat: &str| panel.iter().filter(|l| l.contains(pat)).count();
    assert_eq!(count("vmulpd"), 6, "{panel:#?}");
    assert_eq!(count("vunpcklpd") + count("vunpckhpd"), 6, "{panel:#?}");
    let perm = |sel: &str| {
        panel
            .iter()
            .filter(|l| l.contains("vperm2f128") && l.ends_with(sel))
            .count()
    };
    assert_eq!((perm(", 0x20"), perm(", 0x31")), (2, 2), "{panel:#?}");
    assert_eq!(count("vmovupd YMMWORD PTR ["), 4, "{panel:#?}");
    assert_eq!(count("vmovupd XMMWORD PTR ["), 4, "{panel:#?}");
    assert_eq!(count("vmovsd QWORD PTR ["), 0, "{panel:#?}");
    // the partial panel's row loop keeps the lane-by-lane stores
    let run = &lines[vmul[6]..vmul[6] + 8];
    assert!(run.iter().any(|l| l.contains("vperm2f128")), "{run:?}");
    assert_eq!(
        run.iter()
            .filter(|l| l.contains("vmovsd QWORD PTR"))
            .count(),
        4,
        "{run:?}"
    );
    // no scalar multiplication reads alpha from the argument vector
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("vmulsd") && l.contains("[rbx")),
        "{asm}"
    );
}

#[test]
fn packing_by_panel_at_odd_sizes_and_remainders() {
    // full panels of the a side (six rows) and, read across its rows, of
    // the b side (eight), four k at a time and the last k % 4 one at a
    // time; partial panels and sides below one panel element by element;
    // negated sides; a factor invariant along k and the side's role (s[1])
    // computed once per panel; against the interpreter
    let sizes: Vec<[(&str, i64); 3]> = [1, 5, 6, 7, 12, 13, 19]
        .iter()
        .flat_map(|&n| {
            [1, 2, 3, 4, 5, 7, 8, 9, 255, 257, 259]
                .iter()
                .map(move |&m| [("N", n), ("M", m), ("P", n + 4)])
        })
        .collect();
    let refs: Vec<&[(&str, i64)]> = sizes.iter().map(|s| &s[..]).collect();
    let by_panel = |src: &str, sides: usize| {
        let front = lower::front(src).unwrap();
        let (k, node, copies) = lower::prepare_with(&front, 4).unwrap();
        let asm = lower::compile_jammed(&k, &node, &copies)
            .unwrap()
            .asm_text();
        // each side packed by panel: its groups of four rows transposed
        let groups = asm
            .lines()
            .filter(|l| l.contains("vperm2f128") && l.ends_with(", 0x20"))
            .count();
        assert_eq!(groups, 2 * sides, "{asm}");
    };
    let a =
        "void a(int N, int M, int P, double C[N][P], double A[N][M], double B[M][P], double s[2]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < M; k++)
              for (int j = 0; j < P; j++)
                C[i][j] += s[1] * A[i][k] * B[k][j];
        }";
    let b = "void b(int N, int M, int P, double C[N][P], double A[N][M], double B[P][M]) {
          for (int i = 0; i < N; i++)
            for (int j = 0; j < P; j++)
              for (int k = 0; k < M; k++)
                C[i][j] = C[i][j] - (A[i][k] + 0.5) * (B[j][k] * 3.0);
        }";
    // the a side of `a` (its b side is copied row by row), both of `b`
    // (the b side: two groups of four)
    by_panel(a, 1);
    by_panel(b, 3);
    check(a, true, &refs);
    check(b, true, &refs);
}

#[test]
fn vector_packing_of_factors_with_invariant_parts() {
    // a = alpha * x[i] + A[i][k] / 3.0 (x[i] does not move with k: computed
    // once per row; the division four-wide and by the scalar code in the
    // remainder); a negated factor (C - a*b); a b side read across rows
    // (B[j][k], unit along k: packed four k at a time into 8-wide panels);
    // a side strided along k (A[k][i]: the scalar loop); k % 4 = 0..3
    let sizes: &[&[(&str, i64)]] = &[
        &[("N", 7), ("M", 1)],
        &[("N", 9), ("M", 2)],
        &[("N", 13), ("M", 3)],
        &[("N", 8), ("M", 4)],
        &[("N", 17), ("M", 261)],
        &[("N", 25), ("M", 258)],
    ];
    check(
        "void p(int N, int M, double alpha, double C[N][N], double A[N][M], double B[M][N], double x[N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < M; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += (alpha * x[i] + A[i][k] / 3.0) * B[k][j];
        }",
        true,
        sizes,
    );
    check(
        "void q(int N, int M, double C[N][N], double A[N][M], double B[N][M]) {
          for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
              for (int k = 0; k < M; k++)
                C[i][j] = C[i][j] - (2.0 * A[i][k] - 1.0) * B[j][k];
        }",
        true,
        sizes,
    );
    check(
        "void r(int N, int M, double alpha, double C[N][N], double A[M][N], double B[M][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < M; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += alpha * A[k][i] * B[k][j];
        }",
        true,
        sizes,
    );
}

#[test]
fn dot_product_order_and_subtraction() {
    // k innermost (i-j-k), C - a*b, the b side read across its rows
    // (B[j][k]: no unit stride along j, packed element by element)
    check(
        "void t(int N, int M, double C[N][M], double A[N][N], double B[M][N]) {
          for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
              for (int k = 0; k < N; k++)
                C[i][j] = C[i][j] - A[i][k] * B[j][k];
        }",
        true,
        &[&[("N", 5), ("M", 3)], &[("N", 29), ("M", 17)]],
    );
}

#[test]
fn roles_follow_the_written_element() {
    // the written element's last subscript names j whatever the loop
    // order; factors are expressions, b before a; offsets and bounds
    check(
        "void r(int N, double D[N + 2][N + 3], double P[N][N], double Q[N][N]) {
          for (int j = 1; j < N; j++)
            for (int k = 0; k < N - 1; k++)
              for (int i = 2; i < N; i++)
                D[j + 1][i] = (Q[k][i] - 2.0) * (0.5 * P[j][k] + 1.0) + D[j + 1][i];
        }",
        true,
        &[&[("N", 3)], &[("N", 14)], &[("N", 33)]],
    ); // rows written in reverse and every other one (a negative and a
       // double row stride)
    check(
        "void v(int N, double C[2 * N][N], double A[N][N], double B[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[2 * N - 1 - 2 * i][j] += A[i][k] * B[k][j];
        }",
        true,
        &[&[("N", 2)], &[("N", 15)]],
    );
}

#[test]
fn batched_contraction_inside_an_outer_loop() {
    check(
        "void b(int B, int N, double C[B][N][N], double X[B][N][N], double Y[B][N][N]) {
          for (int b = 0; b < B; b++)
            for (int i = 0; i < N; i++)
              for (int k = 0; k < N; k++)
                for (int j = 0; j < N; j++)
                  C[b][i][j] += X[b][i][k] * Y[b][k][j];
        }",
        true,
        &[&[("B", 1), ("N", 1)], &[("B", 3), ("N", 13)]],
    );
}

#[test]
fn two_contractions_in_sequence() {
    // 2mm: tmp = alpha*A*B, D = beta*D + tmp*C; the initialisations are
    // distributed out of the contraction loops
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels/k2mm.c"),
    )
    .unwrap();
    check(
        &src,
        true,
        &[
            &[("NI", 4), ("NJ", 5), ("NK", 6), ("NL", 7)],
            &[("NI", 25), ("NJ", 14), ("NK", 9), ("NL", 18)],
        ],
    );
}

#[test]
fn triangles_and_bands() {
    // syrk: j <= i, the rows of a tile clipped at the diagonal
    check(
        "void s(int N, int M, double alpha, double C[N][N], double A[N][M]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < M; k++)
              for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
        }",
        true,
        &[
            &[("N", 1), ("M", 1)],
            &[("N", 13), ("M", 5)],
            &[("N", 130), ("M", 270)],
        ],
    );
    // covariance's upper triangle with k innermost, and a band around the
    // diagonal (tiles whose rows are all empty are skipped)
    check(
        "void u(int N, int M, double C[M][M], double D[N][M]) {
          for (int i = 0; i < M; i++)
            for (int j = i; j < M; j++)
              for (int k = 0; k < N; k++)
                C[i][j] += D[k][i] * D[k][j];
        }",
        true,
        &[&[("N", 3), ("M", 2)], &[("N", 9), ("M", 29)]],
    );
    check(
        "void b(int N, double C[N][N + 6], double A[N][N], double B[N][N + 6]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = i + 1; j <= i + 3; j++)
                C[i][j] += A[i][k] * B[k][j];
        }",
        true,
        &[&[("N", 2)], &[("N", 31)]],
    );
}

#[test]
fn forms_that_are_not_contractions_stay_as_they_were() {
    let sizes: &[&[(&str, i64)]] = &[&[("N", 4)], &[("N", 11)]];
    // the written array is also a factor
    check(
        "void s(int N, double C[N][N], double A[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += A[i][k] * C[k][j];
        }",
        false,
        sizes,
    );
    // a factor depends on both i and j
    check(
        "void s(int N, double C[N][N], double A[N][N], double B[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += A[i][j] * B[k][j];
        }",
        false,
        sizes,
    );
    // the k loop's bounds depend on i (trmm)
    check(
        "void s(int N, double C[N][N], double A[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = i + 1; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += A[k][i] * A[k][j];
        }",
        false,
        sizes,
    );
    // not injective in (i, j): C[i + j]
    check(
        "void s(int N, double C[2 * N], double A[N][N], double B[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i + j] += A[i][k] * B[k][j];
        }",
        false,
        sizes,
    );
}

#[test]
fn a_strided_reduction_pair_is_distributed_interchanged_and_vectorized() {
    // doitgen: `sum[p] = 0` leaves the p loop, then `for s for p` runs
    // unit-stride along p
    let src =
        "void d(int NR, int NQ, int NP, double A[NR][NQ][NP], double C4[NP][NP], double sum[NP]) {
      for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
          for (int p = 0; p < NP; p++) {
            sum[p] = 0.0;
            for (int s = 0; s < NP; s++)
              sum[p] = sum[p] + A[r][q][s] * C4[s][p];
          }
          for (int p = 0; p < NP; p++)
            A[r][q][p] = sum[p];
        }
    }";
    let front = lower::front(src).unwrap();
    let (k, node, copies) = lower::prepare_with(&front, 1).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    assert!(
        c.notes.iter().all(|n| n.contains("vectorized")),
        "{:?}\n{}",
        c.notes,
        node.to_c()
    );
    check(
        src,
        false,
        &[
            &[("NR", 2), ("NQ", 3), ("NP", 5)],
            &[("NR", 3), ("NQ", 2), ("NP", 19)],
        ],
    );
}

#[test]
fn a_factor_with_many_accesses_is_not_tiled() {
    // three fit (pointers and prefetch registers beside the temporaries)
    check(
        "void m(int N, double C[N][N], double A[N][N], double P[N][N], double Q[N][N], double B[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += (A[i][k] + P[i][k] * Q[k][i]) * B[k][j];
        }",
        true,
        &[&[("N", 9)], &[("N", 30)]],
    );
    check(
        "void m(int N, double C[N][N], double A[N][N], double P[N][N], double Q[N][N], double R[N][N], double B[N][N]) {
          for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
              for (int j = 0; j < N; j++)
                C[i][j] += (A[i][k] + P[i][k] + Q[k][i] + R[i][k]) * B[k][j];
        }",
        false,
        &[&[("N", 9)]],
    );
}
