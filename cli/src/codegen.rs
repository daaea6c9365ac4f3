//! `poly codegen [--time N] FILE`: AST generation for an `isl_codegen` input
//! (`.in`: schedule, context, options; `.st`: a YAML schedule tree), printed
//! as C. `--time N` instead prints the best time in nanoseconds of N runs of
//! reading and generating (for `benches/codegen_isl.py`).

use crate::error::Error;

/// Default work limit of one generation (engine operations).
const BUDGET: u64 = 2_000_000_000;

fn generate(file: &str, text: &str) -> Result<ast::Node, Error> {
    let err = |error: ast::Error| Error::Codegen {
        file: file.to_string(),
        error,
    };
    if file.ends_with(".st") {
        let tree = ast::parse_tree(text).map_err(err)?;
        presburger::budget::with_budget(BUDGET, || ast::generate_tree(&tree)).map_err(err)
    } else {
        let input = ast::parse_map_input(text).map_err(err)?;
        presburger::budget::with_budget(BUDGET, || {
            ast::generate_with_options(&input.schedule, &input.context, &input.loops)
        })
        .map_err(err)
    }
}

/// Run `poly codegen` with its arguments; returns the C text (or the time).
pub fn codegen_command(args: &[String]) -> Result<String, Error> {
    let (reps, file) = match args {
        [file] => (None, file),
        [flag, n, file] if flag == "--time" => {
            let n = n
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| Error::Usage("`--time` needs a positive count".into()))?;
            (Some(n), file)
        }
        _ => {
            return Err(Error::Usage(
                "`poly codegen [--time N] FILE` (FILE: .in or .st)".into(),
            ))
        }
    };
    let text = std::fs::read_to_string(file).map_err(|e| Error::Io(format!("{file}: {e}")))?;
    match reps {
        None => Ok(generate(file, &text)?.to_c()),
        Some(n) => {
            let mut best = u128::MAX;
            for _ in 0..n {
                let t = std::time::Instant::now();
                generate(file, &text)?;
                best = best.min(t.elapsed().as_nanos());
            }
            Ok(format!("{best}\n"))
        }
    }
}
