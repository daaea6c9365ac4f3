//! The vector loop's shape (a main loop of four 4-wide copies, then 4-wide
//! steps while four iterations are left, then the scalar remainder) at every
//! trip count from 0 to 40, for a plain streaming loop, a sum reduction
//! (accumulators alternating between the copies) and rows at a run-time
//! distance, and a three-point stencil whose outer reads are assembled from
//! one load per step (`vperm2f128` of the `x[i+1]` loads): the checksums
//! must equal the interpreter's.

mod common;
use common::agree;

const KERNEL: &str =
    "void trips(int n, double a, double x[n], double y[n], double A[n + 1][n + 2]) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    y[i] = y[i] + a * x[i] - x[i] / 3.0;
  for (int i = 0; i < n; i++)
    s = s + x[i] * y[i];
  for (int i = 1; i < n + 1; i++)
    for (int j = 1; j < n + 1; j++)
      A[i][j] = A[i - 1][j - 1] + A[i - 1][j] * 0.5 + A[i - 1][j + 1] + s;
  for (int i = 1; i < n - 1; i++)
    y[i] = x[i - 1] - 0.5 * x[i + 1] + x[i] * y[i];
}";

#[test]
fn vector_loops_agree_at_every_trip_count() {
    let front = lower::front(KERNEL).unwrap();
    let (k, node, copies) = lower::prepare(&front).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    let vectorized = c
        .notes
        .iter()
        .filter(|n| n.contains("unrolled four times"))
        .count();
    assert_eq!(vectorized, 4, "{:?}", c.notes);
    // the stencil's x[i-1] from the x[i+1] loads, A[i-1][j-1] from the
    // A[i-1][j+1] loads (A written in another group, at a checked distance)
    let asm = c.asm_text();
    assert_eq!(asm.matches("vperm2f128").count(), 2 * (1 + 4 + 1), "{asm}");
    for n in 0..=40 {
        let assignments = vec![format!("n={n}"), "a=1.25".to_string()];
        let want = scop::commands::interp_function(&front.function, &assignments).unwrap();
        let got = lower::run(&c, &k, &front.function, &assignments, 1, &mut |_, _| {}).unwrap();
        agree(&want, &got.checksums, &format!("n = {n}"));
    }
}

/// `y[i] = x0[i] + .. + x{m-1}[i] + y[i]`: one pointer register per array.
fn sum_of_arrays(m: usize) -> String {
    let params: String = (0..m).map(|k| format!(", double x{k}[n]")).collect();
    let terms: String = (0..m).map(|k| format!("x{k}[i] + ")).collect();
    format!(
        "void wide(int n{params}, double y[n]) {{
  for (int i = 0; i < n; i++)
    y[i] = {terms}y[i];
}}"
    )
}

#[test]
fn the_vector_loop_bounds_live_in_registers_while_enough_are_free() {
    // with few arrays, the main loop's and the 4-wide steps' bounds are
    // registers (a bound in a frame slot compared every trip cost
    // stencil_diag's rows 10 %); with one pointer per array, from four
    // arrays on too few registers are left for one or both bounds (four:
    // one in a register, one in a slot), and they stay in slots: every
    // shape agrees with the interpreter at every trip count
    for (m, in_slots) in [(1, false), (3, false), (4, true), (6, true)] {
        let src = sum_of_arrays(m);
        let front = lower::front(&src).unwrap();
        let (k, node, copies) = lower::prepare(&front).unwrap();
        let c = lower::compile_jammed(&k, &node, &copies).unwrap();
        assert!(c.notes[0].contains("vectorized"), "{m}: {:?}", c.notes);
        let asm = c.asm_text();
        let slot_compares = asm
            .lines()
            .filter(|l| l.contains(" cmp ") && l.contains("[rsp"))
            .count();
        assert_eq!(slot_compares > 0, in_slots, "{m} arrays:\n{asm}");
        for n in 0..=40 {
            let assignments = vec![format!("n={n}")];
            let want = scop::commands::interp_function(&front.function, &assignments).unwrap();
            let got = lower::run(&c, &k, &front.function, &assignments, 1, &mut |_, _| {}).unwrap();
            agree(&want, &got.checksums, &format!("{m} arrays, n = {n}"));
        }
    }
}
