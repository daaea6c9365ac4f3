//! `exp` inline (polynomial, `|x| <= 708`) and through the call (larger
//! `|x|`, infinities): the checksums must equal the interpreter's, at
//! scales that put the arguments on either path or across the limit.

mod common;
use common::agree;

const KERNEL: &str = "#include <math.h>
void ex(int n, double s, double x[n], double y[n], double z[n]) {
  for (int i = 0; i < n; i++) {
    y[i] = exp(s * x[i]) + exp(-s * x[i] - 0.25 * i);
    z[i] = exp(x[i] * s - 709.0) * exp(s);
  }
}";

#[test]
fn inline_exp_agrees_with_the_interpreter() {
    let front = lower::front(KERNEL).unwrap();
    let (k, node, copies) = lower::prepare(&front).unwrap();
    let c = lower::compile_jammed(&k, &node, &copies).unwrap();
    for n in [1, 5, 17] {
        for s in [
            "0", "1e-300", "0.5", "-3", "40", "300", "700", "708", "720", "-800", "1e308",
        ] {
            let assignments = vec![format!("n={n}"), format!("s={s}")];
            let want = scop::commands::interp_function(&front.function, &assignments).unwrap();
            let got = lower::run(&c, &k, &front.function, &assignments, 1, &mut |_, _| {}).unwrap();
            agree(&want, &got.checksums, &format!("n = {n}, s = {s}"));
        }
    }
}
