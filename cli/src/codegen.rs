//! `poly codegen FILE`: AST generation for an `isl_codegen` input (`.in`:
//! schedule, context, options; `.st`: a YAML schedule tree), printed as C.

use crate::error::Error;

/// Default work limit of one generation (engine operations).
const BUDGET: u64 = 2_000_000_000;

/// Run `poly codegen` with its arguments; returns the C text.
pub fn codegen_command(args: &[String]) -> Result<String, Error> {
    let [file] = args else {
        return Err(Error::Usage(
            "`poly codegen` takes one FILE (.in or .st)".into(),
        ));
    };
    let text = std::fs::read_to_string(file).map_err(|e| Error::Io(format!("{file}: {e}")))?;
    if file.ends_with(".st") {
        let tree = ast::parse_tree(&text).map_err(|e| Error::Command(format!("{file}: {e}")))?;
        let code = presburger::budget::with_budget(BUDGET, || ast::generate_tree(&tree))
            .map_err(|e| Error::Command(format!("{file}: {e}")))?;
        return Ok(code.to_c());
    }
    let input = ast::parse_map_input(&text).map_err(|e| Error::Command(format!("{file}: {e}")))?;
    let code = ast::generate_with_budget(&input.schedule, &input.context, BUDGET)
        .map_err(|e| Error::Command(format!("{file}: {e}")))?;
    Ok(code.to_c())
}
