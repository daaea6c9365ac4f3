//! Registers for the iterators of enclosing loops.
//!
//! The innermost loops get the general registers first (iterator, bound,
//! one pointer per group of accesses, spares for temporaries, and in a
//! vector loop its bounds and next-row offsets). An enclosing loop keeps
//! its iterator and bound in registers too when, after taking them, the
//! registers still free cover what its body asks for: the most any
//! innermost loop inside asks (an upper bound: one pointer per distinct
//! access), plus two per loop between, which take registers by the same
//! rule. Outermost loops decide first, so a loop that does not fit leaves
//! its registers to the loops inside, nearer the statements. A body with
//! a tiled contraction or a transposed column nest (which take most
//! registers, and whose outer iterator must be a frame slot) keeps every
//! enclosing iterator in the frame, as before.
//!
//! An iterator in a register saves the reload at each use (tiled_mix's row
//! iterator was read from its slot twelve times per row).

use std::collections::HashSet;

use ast::Node;

use crate::kernel::Storage;
use crate::nest::calls;
use crate::state::State;

/// Registers an innermost loop keeps free besides its iterator, bound and
/// pointers (it stops taking pointers with three left).
const INNER_SPARE: usize = 3;

/// More registers a loop that may be vectorized takes: its two bounds,
/// taken while more than four stay free.
const VECTOR_EXTRA: usize = 3;

/// What a body that must keep the enclosing iterators in the frame asks.
const ALL: usize = 1000;

impl State<'_> {
    /// Whether the `for` loop `n`, whose body holds loops, keeps its
    /// iterator and bound in registers.
    pub(crate) fn outer_in_registers(&self, n: &Node) -> bool {
        let Node::For { iterator, body, .. } = n else {
            return false;
        };
        let mut path = vec![iterator.clone()];
        if self.nest_candidate(n, &path) {
            return false;
        }
        let need = self.regs_needed(body, &mut path);
        self.free_gprs() >= need.saturating_add(2)
    }

    /// A unit-step loop that the lowering may turn into a tiled
    /// contraction or a transposed column nest (`path`: the iterators of
    /// the loops from the one being decided down to `n`'s, inclusive).
    fn nest_candidate(&self, n: &Node, path: &[String]) -> bool {
        if !matches!(n, Node::For { inc: 1, .. }) {
            return false;
        }
        let outer = |v: &str| self.is_iter(v) || path.iter().any(|p| p == v);
        crate::contract::detect(self.k, n, &outer).is_some()
            || crate::transpose::detect(self.k, n, &outer).is_some()
    }

    /// An upper bound on the general registers the lowering of `n` takes
    /// when the loops around innermost loops keep their iterators and
    /// bounds in registers.
    fn regs_needed(&self, n: &Node, path: &mut Vec<String>) -> usize {
        match n {
            Node::Block(v) => v
                .iter()
                .map(|x| self.regs_needed(x, path))
                .max()
                .unwrap_or(0),
            Node::If { then, els, .. } => {
                let e = els.as_ref().map_or(0, |e| self.regs_needed(e, path));
                self.regs_needed(then, path).max(e).max(INNER_SPARE + 1)
            }
            Node::User { .. } => INNER_SPARE + 1,
            Node::For {
                iterator,
                inc,
                body,
                ..
            } => {
                path.push(iterator.clone());
                let mut users = Vec::new();
                let need = match calls(body, false, &mut users) {
                    Some(has_if) => {
                        let (groups, written) = self.distinct_accesses(&users);
                        let vector = if !has_if && *inc == 1 {
                            VECTOR_EXTRA + written
                        } else {
                            0
                        };
                        2 + groups + INNER_SPARE + vector
                    }
                    None if self.nest_candidate(n, path) => ALL,
                    None => 2usize.saturating_add(self.regs_needed(body, path)),
                };
                path.pop();
                need
            }
        }
    }

    /// The distinct array accesses (array, subscripts and call arguments)
    /// of the calls, and how many of them are written: at least as many
    /// as the pointer groups of their innermost loop.
    fn distinct_accesses(&self, users: &[(String, Vec<ast::Expr>)]) -> (usize, usize) {
        let mut all = HashSet::new();
        let mut written = HashSet::new();
        for (name, args) in users {
            let Some(stmt) = self.k.statements.get(name) else {
                continue;
            };
            for a in &stmt.accesses {
                let in_memory = self
                    .k
                    .arrays
                    .get(&a.array)
                    .is_some_and(|i| matches!(i.storage, Storage::Slot(_)));
                if !in_memory {
                    continue;
                }
                let key = format!("{}{:?}{:?}", a.array, a.index, args);
                if a.write {
                    written.insert(key.clone());
                }
                all.insert(key);
            }
        }
        (all.len(), written.len())
    }
}
