//! Parallel loops nested in sequential ones (a time loop around sweeps
//! that carry no dependence: `for t { for i: B = f(A); for i: A = f(B) }`):
//! the sequential loops become *steps* run by the driver
//! ([`crate::run_pieces`]), and what they contain becomes functions of
//! their own, *leaves*: a parallel loop (compiled to run a chunk of its
//! iterations, run on the workers with a barrier after each instance), or
//! a maximal run of statements and loops containing none (run once, on
//! the calling thread). Each leaf reads the enclosing iterators' values
//! from the argument vector ([`crate::function::compile_with`]'s `bound`).
//!
//! The order is the loop nest's: the steps visit the sequential loops'
//! iterations and the guards' branches as the compiled code would, and a
//! parallel instance ends (all its chunks done) before the next leaf
//! starts, so every dependence between leaves, or carried by the
//! sequential loops, is respected; inside a parallel loop no dependence is
//! carried between its iterations ([`crate::parallel_dims`]), so its
//! chunks may run in any order.

use std::collections::HashMap;

use ast::Node;

use crate::error::{Error, Result};
use crate::function::{compile_with, Compiled, Piece};
use crate::jam::Copies;
use crate::kernel::Kernel;

/// Sequential loops the driver runs around a parallel loop, at most: a
/// parallel loop deeper inside has small instances (the driver's work per
/// instance, about a microsecond with the dispatch, would not pay).
pub const MAX_DEPTH: usize = 2;

/// What the driver does.
#[derive(Debug, Clone)]
pub enum Step {
    /// A sequential loop `for (it = init; cond; it += inc) body`.
    Loop {
        /// The iterator (`c_l`).
        iterator: String,
        /// First value.
        init: ast::Expr,
        /// Condition to continue.
        cond: ast::Expr,
        /// Step.
        inc: i64,
        /// The steps of one iteration.
        body: Vec<Step>,
    },
    /// `if (cond) then else els`.
    Guard {
        /// The condition.
        cond: ast::Expr,
        /// Steps when it holds.
        then: Vec<Step>,
        /// Steps otherwise.
        els: Vec<Step>,
    },
    /// Run leaf number `k` of [`Nest::leaves`].
    Leaf(usize),
}

/// A top-level loop nest as steps and leaves.
#[derive(Debug, Clone)]
pub struct Nest {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The leaves: `parallel` ones run a chunk of their loop's iterations.
    pub leaves: Vec<Piece>,
    /// The most enclosing iterators of a leaf.
    pub depth: usize,
}

/// A part of the nest: code without parallel loops, or steps.
enum Part {
    Plain(Node),
    Steps(Vec<Step>),
}

struct Builder<'a> {
    k: &'a Kernel,
    parallel: &'a dyn Fn(&Node, usize) -> bool,
    copies: &'a Copies,
    bound: Vec<String>,
    leaves: Vec<Piece>,
    depth: usize,
}

/// The top-level nest `node` (whose outer loop carries a dependence) as
/// steps and leaves, when some loop within [`MAX_DEPTH`] sequential loops
/// carries none (`parallel(loop, l)` for its dimension `l`, as
/// [`crate::compile_pieces`] asks); `None` otherwise or when a leaf cannot
/// be compiled.
pub fn nest(
    k: &Kernel,
    node: &Node,
    parallel: &dyn Fn(&Node, usize) -> bool,
    copies: &Copies,
) -> Option<Nest> {
    let mut b = Builder {
        k,
        parallel,
        copies,
        bound: Vec::new(),
        leaves: Vec::new(),
        depth: 0,
    };
    match b.part(node, 0).ok()? {
        Part::Plain(_) => None,
        Part::Steps(steps) => Some(Nest {
            steps,
            leaves: b.leaves,
            depth: b.depth,
        }),
    }
}

impl Builder<'_> {
    /// `node` inside `depth` sequential loops run by the driver (0: the
    /// top-level node, whose outer loop is known not to be parallel).
    fn part(&mut self, node: &Node, depth: usize) -> Result<Part> {
        match node {
            Node::User { .. } => Ok(Part::Plain(node.clone())),
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => {
                let dim = iterator.strip_prefix('c').and_then(|d| d.parse().ok());
                if depth > 0 && dim.is_some_and(|l| (self.parallel)(node, l)) {
                    let leaf = self.parallel_leaf(node)?;
                    return Ok(Part::Steps(vec![leaf]));
                }
                if depth >= MAX_DEPTH || *inc <= 0 {
                    return Ok(Part::Plain(node.clone()));
                }
                self.bound.push(iterator.clone());
                let inner = self.part(body, depth + 1);
                let body = match inner {
                    Ok(Part::Steps(s)) => Ok(Some(s)),
                    Ok(Part::Plain(_)) => Ok(None),
                    Err(e) => Err(e),
                };
                self.bound.pop();
                Ok(match body? {
                    None => Part::Plain(node.clone()),
                    Some(body) => Part::Steps(vec![Step::Loop {
                        iterator: iterator.clone(),
                        init: init.clone(),
                        cond: cond.clone(),
                        inc: *inc,
                        body,
                    }]),
                })
            }
            Node::If { cond, then, els } => {
                let t = self.part(then, depth)?;
                let e = match els {
                    Some(e) => self.part(e, depth)?,
                    None => Part::Plain(Node::Block(Vec::new())),
                };
                if let (Part::Plain(_), Part::Plain(_)) = (&t, &e) {
                    return Ok(Part::Plain(node.clone()));
                }
                let then = self.steps(t)?;
                let els = self.steps(e)?;
                Ok(Part::Steps(vec![Step::Guard {
                    cond: cond.clone(),
                    then,
                    els,
                }]))
            }
            Node::Block(v) => {
                let parts = v
                    .iter()
                    .map(|x| self.part(x, depth))
                    .collect::<Result<Vec<_>>>()?;
                if parts.iter().all(|p| matches!(p, Part::Plain(_))) {
                    return Ok(Part::Plain(node.clone()));
                }
                // consecutive plain parts make one leaf
                let mut steps = Vec::new();
                let mut plain = Vec::new();
                for p in parts {
                    match p {
                        Part::Plain(n) => plain.push(n),
                        Part::Steps(s) => {
                            if !plain.is_empty() {
                                let n = Node::Block(std::mem::take(&mut plain));
                                steps.extend(self.steps(Part::Plain(n))?);
                            }
                            steps.extend(s);
                        }
                    }
                }
                if !plain.is_empty() {
                    steps.extend(self.steps(Part::Plain(Node::Block(plain)))?);
                }
                Ok(Part::Steps(steps))
            }
        }
    }

    /// The steps of a part: a plain one becomes a sequential leaf (none
    /// for an empty block).
    fn steps(&mut self, p: Part) -> Result<Vec<Step>> {
        match p {
            Part::Steps(s) => Ok(s),
            Part::Plain(Node::Block(v)) if v.is_empty() => Ok(Vec::new()),
            Part::Plain(n) => {
                let code = compile_with(self.k, &n, false, self.copies, &self.bound)?;
                Ok(vec![self.leaf(code, false)])
            }
        }
    }

    /// A parallel loop as a leaf (sequential if its loop cannot be split).
    fn parallel_leaf(&mut self, n: &Node) -> Result<Step> {
        match compile_with(self.k, n, true, self.copies, &self.bound) {
            Ok(code) => Ok(self.leaf(code, true)),
            Err(_) => {
                let code = compile_with(self.k, n, false, self.copies, &self.bound)?;
                Ok(self.leaf(code, false))
            }
        }
    }

    fn leaf(&mut self, code: Compiled, parallel: bool) -> Step {
        self.depth = self.depth.max(self.bound.len());
        self.leaves.push(Piece {
            code,
            parallel,
            nested: None,
        });
        Step::Leaf(self.leaves.len() - 1)
    }
}

/// Runs `steps` in order: loops and guards evaluated at the integer
/// parameters `params` and the enclosing iterators `env` (name and value,
/// outermost first); each leaf is passed to `leaf` with the iterators'
/// values.
pub(crate) fn walk(
    steps: &[Step],
    params: &HashMap<String, i64>,
    env: &mut Vec<(String, i64)>,
    leaf: &mut dyn FnMut(usize, &[(String, i64)]) -> Result<()>,
) -> Result<()> {
    for s in steps {
        match s {
            Step::Leaf(k) => leaf(*k, env)?,
            Step::Guard { cond, then, els } => {
                if eval(cond, params, env)? != 0 {
                    walk(then, params, env, leaf)?;
                } else {
                    walk(els, params, env, leaf)?;
                }
            }
            Step::Loop {
                iterator,
                init,
                cond,
                inc,
                body,
            } => {
                let first = eval(init, params, env)?;
                env.push((iterator.clone(), first));
                let r: Result<()> = (|| {
                    while eval(cond, params, env)? != 0 {
                        walk(body, params, env, leaf)?;
                        let v = &mut env.last_mut().expect("pushed").1;
                        *v = v
                            .checked_add(*inc)
                            .ok_or_else(|| Error::Internal("iterator overflow".into()))?;
                    }
                    Ok(())
                })();
                env.pop();
                r?;
            }
        }
    }
    Ok(())
}

fn eval(e: &ast::Expr, params: &HashMap<String, i64>, env: &[(String, i64)]) -> Result<i64> {
    let lookup = |n: &str| {
        env.iter()
            .rev()
            .find(|(v, _)| v == n)
            .map(|(_, x)| *x)
            .or_else(|| params.get(n).copied())
            .map(i128::from)
    };
    let v = e.eval(&lookup).map_err(Error::Internal)?;
    i64::try_from(v).map_err(|_| Error::Internal(format!("{v} out of range in a loop bound")))
}
