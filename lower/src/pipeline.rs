//! From C text to a loop nest: the front end's model, a schedule (the
//! original one), and AST generation.

use ast::Node;
use scop::ast::Function;

use crate::error::Result;
use crate::kernel::Kernel;

/// Work limit of AST generation (engine operations).
const BUDGET: u64 = 500_000_000;

/// A parsed kernel with its model.
#[derive(Debug, Clone)]
pub struct Front {
    /// The syntax tree (signature, for the argument vector and the interpreter).
    pub function: Function,
    /// The polyhedral model.
    pub model: scop::Model,
}

/// Parses and models a kernel.
pub fn front(src: &str) -> Result<Front> {
    let function = scop::parse_kernel(src)?;
    let scop = scop::build_from_ast(&function)?;
    let model = scop::Model::from_scop(&scop)?;
    Ok(Front { function, model })
}

/// The schedule the code follows: the model's (original) schedule,
/// restricted to the domain.
pub fn schedule(model: &scop::Model) -> Result<presburger::UnionMap> {
    Ok(model.schedule().intersect_domain(model.domain())?)
}

/// The loop nest scanning `schedule` under the model's context.
pub fn loops(model: &scop::Model, schedule: &presburger::UnionMap) -> Result<Node> {
    let ctx = model.context().clone();
    Ok(presburger::budget::with_budget(BUDGET, || ast::generate(schedule, &ctx))?)
}

/// Everything up to the loop nest and the lowering's view of the kernel.
pub fn kernel_and_loops(f: &Front) -> Result<(Kernel, Node)> {
    let s = schedule(&f.model)?;
    let node = loops(&f.model, &s)?;
    Ok((Kernel::new(&f.function, &f.model)?, node))
}
