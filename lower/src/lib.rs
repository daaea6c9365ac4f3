//! # lower: generated loop nests to x86-64
//!
//! The last stage of the pipeline `C → model (scop) → schedule → loops
//! (ast) → machine code`: it takes an [`ast::Node`] (loops, guards, blocks,
//! statement calls `S(e_0, .., e_k)`) and the model's statement bodies
//! (expression trees over array accesses, [`scop::model::Expr`]) and emits
//! one System V function through `codegen-x86`'s encoder; the JIT maps it
//! W^X. `poly run` calls it; `poly compile --emit asm|c` prints it.
//!
//! ## The function
//! One argument (`rdi`): the address of the *argument vector*, one 8-byte
//! slot per signature parameter in order (`int` as `i64`, `double` as its
//! bits, arrays as pointers), then one pointer per local array. `rbx` keeps
//! it for the whole function; integer parameters are read as memory
//! operands `[rbx+8k]`. The prologue saves `rbp rbx r12–r15` and reserves
//! a fixed frame addressed from `rsp`: slots for outer iterators and
//! bounds, run-time invariants (strides such as `NJ*NK`, computed once in a
//! setup block from the parameters), double constants (four copies, so a
//! packed instruction can read them), scalars (local `double`s and written
//! `double` parameters) and spills around calls.
//!
//! ## Registers and loops
//! * A `for` loop evaluates its first value into its iterator and, when the
//!   condition is `c <= ub` / `c < ub` with `ub` free of `c` (always for
//!   generated code), `ub` once before the loop (loop-invariant bound); the
//!   loop is rotated (test at the bottom, one guard in front).
//! * Innermost loops get the general registers: their iterator and bound,
//!   and one pointer per *group* of accesses (same array, same linear
//!   offset up to a constant): the group's address at the first iteration
//!   is computed once, each access is `[p + disp]`, and `p` advances by the
//!   group's stride per iteration (strength reduction: no multiplication in
//!   the loop). Outer iterators and bounds live in frame slots. `rax`/`rdx`
//!   serve division (`idiv`, `floord`, `%`) and calls; the rest are
//!   allocated first-free, temporaries last; an expression that does not fit
//!   is reported as unsupported.
//! * Double values live in vector registers, allocated first-free from the
//!   sixteen; expression trees are evaluated in source order (no
//!   reassociation, no contraction) in scalar loops, so scalar code gives the
//!   interpreter's results bit for bit. `pow`/`exp` call Rust's libm wrappers
//!   (the interpreter's functions) with live registers saved in the frame;
//!   `sqrt`, `fabs`, `fmin`/`fmax` (with C's NaN rule) are inline.
//! * In an innermost loop without guards: an array written at a single
//!   loop-invariant element, and accessed only there, is kept in a register
//!   (scalar promotion: loaded before, stored after); maximal loop-invariant
//!   sub-expressions (`alpha * A[i][k]`, parameters) are computed once before
//!   the loop.
//!
//! ## Vectorization
//! An innermost loop runs four iterations at once in ymm registers when
//! every access is strength-reduced with stride 0 or 1 element, the bodies
//! only use `+ - * /`, negation, `sqrt`, `fabs`, literals and parameters,
//! there are no guards, the step is 1, and every written array is either
//! * accessed through one group at unit stride, where no pair of accesses
//!   at distance `0 < d < 4` (element touched at iteration `x` and again at
//!   `x + d`) has the later access in an earlier statement (or a write
//!   before a read in one statement) — running each statement for four
//!   iterations before the next would reverse that dependence (at `d >= 4`
//!   the two iterations are in different steps of four, in order); or
//! * a sum reduction `s = s + e` / `s = s - e` / `s += e` on one invariant
//!   element that nothing else in the loop touches: partial sums in the
//!   lanes (and a second accumulator), folded into lane 0 after the loop.
//!
//! Stride-0 reads and parameters are broadcast before the loop. The main
//! loop does eight iterations per trip (the body twice), then at most one
//! four-wide step, then the scalar loop finishes. `a + b*c` becomes
//! `vfmadd231pd` in the vector loop: one rounding instead of two, and
//! reductions are reassociated, so vectorized results differ from the
//! interpreter's in the last bits (the tests allow a relative 1e-9, far
//! above the effect at these sizes). Not vectorized: strided or gathered
//! accesses (`C[j][i]` in a `j` loop), written arrays accessed at distances
//! only known at run time (`A[i][j]` and `A[i-1][j]`), calls, integer
//! values, guards, steps other than 1. The per-loop decision and its reason
//! are in [`Compiled::notes`].
//!
//! ## Unroll-and-jam (off by default)
//! [`prepare_with`] can unroll-and-jam a top-level loop that carries no
//! dependence and whose statements all write along their innermost loop
//! (`for i { for k { for j { S(i,k,j) } } }` → `S(i..i+F-1, k, j)` in the
//! `j` loop, plus a remainder loop); the copies are independent
//! iterations, which the vectorizer is told ([`Copies`]). Without loads
//! shared between copies it does not pay yet, so [`prepare`] uses factor 1.
//!
//! ## Workers
//! [`compile_pieces`] compiles each top-level loop nest as its own
//! function; a nest whose outer loop `c_l` carries no dependence among its
//! statements ([`parallel_dims`]: flow, anti and output dependences from
//! `dataflow`, mapped to schedule times, never differ at `l` when they
//! agree before it) reads the worker's number `t` and count `T` from the
//! argument vector and runs iterations `n*t/T .. n*(t+1)/T` of its `n`.
//! [`run_pieces`] runs the pieces in order, a parallel one on scoped
//! threads joined before the next piece (the barrier). Scalars live in a
//! scalar area shared through the argument vector, so values cross pieces.
//!
//! ## Safety
//! The compiled code has no bounds checks: [`accesses_in_bounds`] proves
//! with the engine that every access of every executed instance is inside
//! its array at the given sizes, and `poly run` uses the interpreter
//! otherwise (as it does for any [`Error::Unsupported`] construct), saying
//! so on standard error. Arrays are assumed not to overlap (they are
//! distinct allocations in `poly run`).
//!
//! ```
//! let src = "void axpy(int N, double a, double X[N], double Y[N]) {
//!   for (int i = 0; i < N; i++)
//!     Y[i] = Y[i] + a * X[i];
//! }";
//! let front = lower::front(src).unwrap();
//! let (kernel, loops) = lower::kernel_and_loops(&front).unwrap();
//! let code = lower::compile(&kernel, &loops).unwrap();
//! assert!(code.notes[0].contains("vectorized"));
//! assert!(code.asm_text().contains("vfmadd231pd"));
//! let args = ["N=10".to_string()];
//! let run = lower::run(&code, &kernel, &front.function, &args, 1, &mut |_, _| {}).unwrap();
//! let reference = scop::commands::interp_function(&front.function, &args).unwrap();
//! assert_eq!(run.checksums.lines().next(), reference.lines().next()); // X unchanged
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod body;
mod cprint;
mod emit;
mod error;
mod function;
mod jam;
mod kernel;
mod linear;
mod nest;
mod parallel;
mod pipeline;
mod run;
mod state;
mod vector;

pub use cprint::c_function;
pub use emit::{Inst, Listed, MemSize, Operand, Width};
pub use error::{Error, Result};
pub use function::{compile, compile_jammed, compile_pieces, statements_of, Compiled, Piece};
pub use jam::{jam_outer, writes_move_inside, Copies};
pub use kernel::{AccessInfo, ArrayInfo, Kernel, ParamClass, StmtInfo, Storage};
pub use linear::{Lin, Poly};
pub use parallel::parallel_dims;
pub use pipeline::{
    front, kernel_and_loops, loops, parallel_in, prepare, prepare_with, schedule, version, Front,
    JAM,
};
pub use run::{accesses_in_bounds, parse_assignments, run, run_pieces, KernelFn, Outcome};
