//! The generated function: prologue, body, epilogue and the setup block
//! that fills the frame (run-time invariants, constants, scalars).
//!
//! Calling convention (System V): one argument, `rdi`, the address of the
//! argument vector: one 8-byte slot per signature parameter in order
//! (`int` as `i64`, `double` as its bits, arrays as pointers), one pointer
//! per local array, the pointer to the scalar area (one `f64` per local
//! scalar or written `double` parameter, initialised by the caller), the
//! worker's number and the number of workers. `rbx` keeps that address; the
//! frame is addressed from `rsp`.

use ast::Node;
use codegen_x86::Gpr;

use crate::emit::{g, imm, q, Emitter, Inst, Listed};
use crate::error::Result;
use crate::jam::Copies;
use crate::kernel::Kernel;
use crate::state::{arg, slot, Loc, State, FRAME_BYTES};

/// Callee-saved registers pushed by the prologue (rbp first).
const SAVED: [Gpr; 6] = [Gpr::Rbp, Gpr::Rbx, Gpr::R12, Gpr::R13, Gpr::R14, Gpr::R15];

/// Machine code of a kernel with its instruction listing.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The bytes (entry at offset 0).
    pub code: Vec<u8>,
    /// Every instruction with its resolved branch target.
    pub listing: Vec<(Inst, Option<usize>)>,
    /// One line per innermost loop (or tiled contraction): how it was
    /// lowered.
    pub notes: Vec<String>,
    /// Arrays that innermost loops walk at a stride other than 0 or ±1
    /// element, summed over the innermost loops (each array once per
    /// loop): what [`crate::choose`] compares between schedules.
    pub strided: usize,
    /// Bytes of workspace (packing buffers) each worker must pass in the
    /// argument vector's slot [`Kernel::workspace_slot`], 64-byte aligned;
    /// 0 when none.
    pub workspace: usize,
}

impl Compiled {
    /// The listing as text: `OFFSET: BYTES  INSTRUCTION` per line.
    pub fn asm_text(&self) -> String {
        let mut out = String::new();
        for (n, (i, t)) in self.listing.iter().enumerate() {
            let end = self
                .listing
                .get(n + 1)
                .map_or(self.code.len(), |(j, _)| j.offset);
            let bytes: String = self.code[i.offset..end]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            out.push_str(&format!(
                "{:6x}:  {:<24} {}\n",
                i.offset,
                bytes,
                Listed(i, *t)
            ));
        }
        out
    }
}

/// Lowers the loop nest `node` of kernel `k` to machine code.
pub fn compile(k: &Kernel, node: &Node) -> Result<Compiled> {
    compile_with(k, node, false, &Copies::new(), &[])
}

/// [`compile`] for a nest made by [`crate::jam_outer`], whose copies of a
/// statement are independent.
pub fn compile_jammed(k: &Kernel, node: &Node, copies: &Copies) -> Result<Compiled> {
    compile_with(k, node, false, copies, &[])
}

/// A top-level part of the loop nest compiled on its own: run by one
/// worker, or (`parallel`) by all, each on its share of the outer loop.
#[derive(Debug, Clone)]
pub struct Piece {
    /// The code (a function of the argument vector).
    pub code: Compiled,
    /// Its outer loop is split among the workers.
    pub parallel: bool,
    /// For a piece whose outer loop carries a dependence: the same loops
    /// with their parallel loops compiled on their own, run by the driver
    /// (the sequential loops around them in Rust, each instance of a
    /// parallel loop on the workers), if there are such loops.
    pub nested: Option<Box<crate::nested::Nest>>,
}

/// Argument slot of the value of the `j`-th enclosing loop iterator of a
/// function compiled inside sequential loops run by the driver (after the
/// workspace pointer).
pub(crate) fn iterator_slot(k: &Kernel, j: usize) -> usize {
    k.slots() + j
}

/// The statements called in a loop nest.
pub fn statements_of(n: &Node, out: &mut Vec<String>) {
    match n {
        Node::For { body, .. } => statements_of(body, out),
        Node::If { then, els, .. } => {
            statements_of(then, out);
            if let Some(e) = els {
                statements_of(e, out);
            }
        }
        Node::Block(v) => v.iter().for_each(|x| statements_of(x, out)),
        Node::User { name, .. } => out.push(name.clone()),
    }
}

/// The top-level parts of a loop nest, as [`compile_pieces`] compiles them:
/// the nodes of a block, each in its own piece; a guard without `else`
/// around a block is pushed inside (`if (..) { for ..; for .. }` becomes
/// `if (..) for ..; if (..) for ..`), so that a piece that is a loop under
/// guards can be split among the workers (a jammed loop, a block of the
/// loop and its remainder, gives two).
pub fn top_level(node: &Node) -> Vec<Node> {
    fn flatten(n: &Node, out: &mut Vec<Node>) {
        match n {
            Node::Block(v) => v.iter().for_each(|x| flatten(x, out)),
            Node::If {
                cond,
                then,
                els: None,
            } => {
                let mut inner = Vec::new();
                flatten(then, &mut inner);
                out.extend(inner.into_iter().map(|x| Node::If {
                    cond: cond.clone(),
                    then: Box::new(x),
                    els: None,
                }));
            }
            n => out.push(n.clone()),
        }
    }
    let mut tops = Vec::new();
    flatten(node, &mut tops);
    tops
}

/// The schedule dimension of the outer loop of a top-level part (below its
/// guards): `l` of its iterator `c_l`, if it is a loop.
pub fn outer_dimension(n: &Node) -> Option<usize> {
    let mut lp = n;
    while let Node::If {
        then, els: None, ..
    } = lp
    {
        lp = then;
    }
    match lp {
        Node::For { iterator, .. } => iterator.strip_prefix('c')?.parse().ok(),
        _ => None,
    }
}

/// The loop nest as a sequence of pieces (the top-level nodes): a `for`
/// loop `c_l` for which `parallel(piece, l)` holds (its schedule dimension
/// carries no dependence among the piece's statements, see
/// [`crate::parallel_dims`]) is split among workers.
pub fn compile_pieces(
    k: &Kernel,
    node: &Node,
    parallel: &dyn Fn(&Node, usize) -> bool,
    copies: &Copies,
) -> Result<Vec<Piece>> {
    let tops = top_level(node);
    let shared = shared_parts(k, &tops, parallel, copies);
    assemble(k, &tops, shared, copies, None)
}

/// [`compile_pieces`] beside `whole`, the nest `node` compiled as one
/// function ([`compile_jammed`]): `None` when no piece would run on the
/// workers (no parallel piece, no nest with a parallel loop; then `whole`
/// is the code, and no piece is compiled); a piece that is the whole nest
/// and runs on one thread (a time loop around parallel sweeps) reuses
/// `whole` instead of compiling the same function again.
pub fn compile_pieces_beside(
    k: &Kernel,
    node: &Node,
    parallel: &dyn Fn(&Node, usize) -> bool,
    copies: &Copies,
    whole: &Compiled,
) -> Result<Option<Vec<Piece>>> {
    let tops = top_level(node);
    let shared = shared_parts(k, &tops, parallel, copies);
    if shared.iter().all(|s| matches!(s, Shared::Sequential(None))) {
        return Ok(None);
    }
    let whole = (tops.len() == 1 && tops[0] == *node).then_some(whole);
    assemble(k, &tops, shared, copies, whole).map(Some)
}

/// How a top-level part runs on the workers.
enum Shared {
    /// Its outer loop, compiled to run a chunk of its iterations.
    Chunked(Compiled),
    /// On one thread, with its nest of parallel loops, if any.
    Sequential(Option<Box<crate::nested::Nest>>),
}

/// Each top-level part's way onto the workers: its chunked code when its
/// outer loop is parallel (and can be split), else its nest.
fn shared_parts(
    k: &Kernel,
    tops: &[Node],
    parallel: &dyn Fn(&Node, usize) -> bool,
    copies: &Copies,
) -> Vec<Shared> {
    tops.iter()
        .map(|n| {
            let par = outer_dimension(n).is_some_and(|l| parallel(n, l));
            match par.then(|| compile_with(k, n, true, copies, &[])) {
                Some(Ok(code)) => Shared::Chunked(code),
                _ => Shared::Sequential(crate::nested::nest(k, n, parallel, copies).map(Box::new)),
            }
        })
        .collect()
}

/// The pieces: the one-thread parts compiled as functions (`whole`, when
/// given, is the code of the only part).
fn assemble(
    k: &Kernel,
    tops: &[Node],
    shared: Vec<Shared>,
    copies: &Copies,
    whole: Option<&Compiled>,
) -> Result<Vec<Piece>> {
    tops.iter()
        .zip(shared)
        .map(|(n, s)| {
            Ok(match s {
                Shared::Chunked(code) => Piece {
                    code,
                    parallel: true,
                    nested: None,
                },
                Shared::Sequential(nested) => Piece {
                    code: match whole {
                        Some(w) => w.clone(),
                        None => compile_with(k, n, false, copies, &[])?,
                    },
                    parallel: false,
                    nested,
                },
            })
        })
        .collect()
}

/// Lowers `node` to a function of the argument vector: with `chunk`, its
/// first loop runs the worker's share of its iterations; `bound` names the
/// iterators of loops around `node` run by the driver, whose values the
/// function reads from the argument slots [`iterator_slot`].
pub(crate) fn compile_with(
    k: &Kernel,
    node: &Node,
    chunk: bool,
    copies: &Copies,
    bound: &[String],
) -> Result<Compiled> {
    let mut e = Emitter::new();
    for r in SAVED {
        e.push(r);
    }
    e.sub(g(Gpr::Rsp), imm(FRAME_BYTES as i64 + 8))?;
    e.mov(g(Gpr::Rbx), g(Gpr::Rdi))?;
    let setup = e.label();
    let body = e.label();
    let exit = e.label();
    e.jmp(setup);
    e.bind(body)?;
    let mut st = State::new(k, e);
    st.chunk = chunk;
    st.copies = copies.clone();
    // the enclosing iterators live in frame slots, as a loop's in a
    // function that runs the loop
    for (j, it) in bound.iter().enumerate() {
        let s = st.new_slot(8)?;
        st.e.mov(g(Gpr::Rax), q(arg(iterator_slot(k, j))))?;
        st.e.mov(q(slot(s)), g(Gpr::Rax))?;
        st.vars.push((it.clone(), Loc::Slot(s)));
    }
    st.node(node)?;
    st.e.bind(exit)?;
    st.e.add(g(Gpr::Rsp), imm(FRAME_BYTES as i64 + 8))?;
    for r in SAVED.iter().rev() {
        st.e.pop(*r);
    }
    if st.wide {
        st.e.vzeroupper();
    }
    st.e.ret();
    st.e.bind(setup)?;
    st.emit_invariants()?;
    st.e.jmp(body);
    let notes = std::mem::take(&mut st.notes);
    let workspace = st.workspace;
    let strided = st.strided;
    let (code, listing) = st.e.finish()?;
    Ok(Compiled {
        code,
        listing,
        notes,
        strided,
        workspace,
    })
}
