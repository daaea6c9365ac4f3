//! Generation of a C driver program that runs a kernel on the agreed inputs
//! and prints the same checksum lines as [`crate::interp_command`]; used to
//! compare the interpreter with a C compiler.

use crate::ast::ParamKind;
use crate::error::Error;
use std::collections::HashMap;
use std::fmt::Write;

/// Returns the C source of a driver that `#include`s `kernel_path` (whose
/// text is `src`), sets the integer parameters from `ints`, the scalar
/// parameters to their agreed defaults (or `scalars`), initializes the arrays
/// with the agreed formula, calls the kernel and prints
/// `printf("%s %.12e\n", NAME, CHECKSUM)` per array.
///
/// ```
/// use std::collections::HashMap;
/// let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }";
/// let ints: HashMap<String, i64> = [("N".to_string(), 5)].into_iter().collect();
/// let c = scop::driver::c_driver("k.c", src, &ints, &HashMap::new()).unwrap();
/// assert!(c.contains("#include \"k.c\"") && c.contains("k(scop_p_N, (void *)scop_p_A);"));
/// ```
pub fn c_driver(
    kernel_path: &str,
    src: &str,
    ints: &HashMap<String, i64>,
    scalars: &HashMap<String, f64>,
) -> Result<String, Error> {
    let f = crate::parser::parse_kernel(src)?;
    let st = crate::interp::initial_state(&f, ints, scalars)?;
    // pointer and `[]` parameters get the extent the interpreter's run reaches
    let mut ran = st.clone();
    if st.arrays.values().any(|a| a.open.is_some()) {
        crate::interp::run(&f, &mut ran)?;
    }
    let mut c = String::new();
    let _ = writeln!(c, "#include <stdio.h>\n#include <stdlib.h>");
    let _ = writeln!(
        c,
        "#include \"{}\"",
        kernel_path.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let _ = writeln!(
        c,
        "static double scop_checksum(const double *scop_v, long scop_n) {{\n  double scop_s = 0.0;\n  for (long scop_x = 0; scop_x < scop_n; scop_x++)\n    scop_s += scop_v[scop_x] * (double)(1 + scop_x % 7);\n  return scop_s;\n}}"
    );
    let _ = writeln!(c, "int main(void) {{");
    let mut call_args = Vec::new();
    let mut arrays = Vec::new();
    let mut k_array = 0;
    for p in &f.params {
        match &p.kind {
            ParamKind::Int(t) => {
                let _ = writeln!(
                    c,
                    "  {} scop_p_{} = {};",
                    t.as_str(),
                    p.name,
                    st.ints[&p.name]
                );
                call_args.push(format!("scop_p_{}", p.name));
            }
            ParamKind::Double => {
                let _ = writeln!(c, "  double scop_p_{} = {:e};", p.name, st.doubles[&p.name]);
                call_args.push(format!("scop_p_{}", p.name));
            }
            ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } => {
                let len = ran.arrays[&p.name].data.len();
                let _ = writeln!(
                    c,
                    "  long scop_n_{0} = {1}L;\n  double *scop_p_{0} = malloc(sizeof(double) * (scop_n_{0} > 0 ? scop_n_{0} : 1));\n  for (long scop_x = 0; scop_x < scop_n_{0}; scop_x++)\n    scop_p_{0}[scop_x] = ((scop_x * 7 + {2}L * 13) % 101) / 101.0 + 0.5;",
                    p.name, len, k_array
                );
                k_array += 1;
                call_args.push(format!("(void *)scop_p_{}", p.name));
                arrays.push(p.name.clone());
            }
        }
    }
    let _ = writeln!(c, "  {}({});", f.name, call_args.join(", "));
    for a in &arrays {
        let _ = writeln!(
            c,
            "  printf(\"%s %.12e\\n\", \"{a}\", scop_checksum(scop_p_{a}, scop_n_{a}));"
        );
    }
    for a in &arrays {
        let _ = writeln!(c, "  free(scop_p_{a});");
    }
    let _ = writeln!(c, "  return 0;\n}}");
    Ok(c)
}
