//! The AST: loops, conditions, blocks and statement calls, printed as C in
//! isl's style.

use crate::expr::Expr;
use std::convert::Infallible;
use std::fmt;

/// A node of the generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// `for (int iterator = init; cond; iterator += inc) body`
    For {
        /// The loop iterator (`c0`, `c1`, ...).
        iterator: String,
        /// The first value.
        init: Expr,
        /// The condition checked before each iteration.
        cond: Expr,
        /// The (positive) step.
        inc: i64,
        /// The loop body.
        body: Box<Node>,
    },
    /// `if (cond) then else`
    If {
        /// The condition.
        cond: Expr,
        /// Run when the condition holds.
        then: Box<Node>,
        /// Run otherwise.
        els: Option<Box<Node>>,
    },
    /// A sequence of nodes.
    Block(Vec<Node>),
    /// A statement instance: `name(args)`.
    User {
        /// The statement name.
        name: String,
        /// The coordinates of the instance.
        args: Vec<Expr>,
    },
}

impl Node {
    /// A block, flattened: a single node stays itself.
    pub fn block(mut nodes: Vec<Node>) -> Node {
        let mut flat = Vec::new();
        for n in nodes.drain(..) {
            match n {
                Node::Block(v) => flat.extend(v),
                n => flat.push(n),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap()
        } else {
            Node::Block(flat)
        }
    }

    /// The node with `f` applied to each of its children (a loop's body,
    /// a condition's branches, a block's members, in that order), where
    /// `f` gives `None` for a child it leaves unchanged; `None` when no
    /// child changed. Only the nodes on the way to a change are rebuilt:
    /// the others are cloned once, where they sit in the new node.
    pub fn map_children(&self, mut f: impl FnMut(&Node) -> Option<Node>) -> Option<Node> {
        match self.try_map_children(|n| Ok::<_, Infallible>(f(n))) {
            Ok(n) => n,
            Err(never) => match never {},
        }
    }

    /// [`Node::map_children`] with a fallible `f`: its first error (the
    /// children after it are not visited).
    pub fn try_map_children<E>(
        &self,
        mut f: impl FnMut(&Node) -> Result<Option<Node>, E>,
    ) -> Result<Option<Node>, E> {
        Ok(match self {
            Node::For { body, .. } => f(body)?.and_then(|new| self.with_loop_body(new)),
            Node::If { cond, then, els } => {
                let new_then = f(then)?;
                let new_els = match els {
                    Some(e) => f(e)?,
                    None => None,
                };
                if new_then.is_none() && new_els.is_none() {
                    return Ok(None);
                }
                Some(Node::If {
                    cond: cond.clone(),
                    then: Box::new(new_then.unwrap_or_else(|| (**then).clone())),
                    els: match new_els {
                        Some(e) => Some(Box::new(e)),
                        None => els.clone(),
                    },
                })
            }
            Node::Block(v) => {
                // the new members, from the first that changed on
                let mut out: Option<Vec<Node>> = None;
                for (k, n) in v.iter().enumerate() {
                    let new = f(n)?;
                    match &mut out {
                        Some(out) => out.push(new.unwrap_or_else(|| n.clone())),
                        None => {
                            if let Some(new) = new {
                                let mut w = Vec::with_capacity(v.len());
                                w.extend_from_slice(&v[..k]);
                                w.push(new);
                                out = Some(w);
                            }
                        }
                    }
                }
                out.map(Node::Block)
            }
            Node::User { .. } => None,
        })
    }

    /// The tree rewritten top-down by `f`: where `f(n)` gives a node, it
    /// replaces `n` (whose subtree is not visited further); elsewhere `n`'s
    /// children are rewritten. A tree where `f` replaces nothing comes back
    /// equal to itself.
    pub fn rewrite(&self, mut f: impl FnMut(&Node) -> Option<Node>) -> Node {
        self.rewrite_changed(&mut f).unwrap_or_else(|| self.clone())
    }

    /// [`Node::rewrite`], `None` when nothing was replaced.
    fn rewrite_changed<F: FnMut(&Node) -> Option<Node>>(&self, f: &mut F) -> Option<Node> {
        match f(self) {
            Some(n) => Some(n),
            None => self.map_children(|c| c.rewrite_changed(f)),
        }
    }

    /// A loop with `f` applied to its body (any other node unchanged).
    fn map_loop_body(mut self, f: impl FnOnce(Node) -> Node) -> Node {
        if let Node::For { body, .. } = &mut self {
            let old = std::mem::replace(&mut **body, Node::Block(Vec::new()));
            **body = f(old);
        }
        self
    }

    /// The loop with the same iterator, bounds and step around `body`;
    /// `None` when this is not a loop.
    pub fn with_loop_body(&self, body: Node) -> Option<Node> {
        let Node::For {
            iterator,
            init,
            cond,
            inc,
            ..
        } = self
        else {
            return None;
        };
        Some(Node::For {
            iterator: iterator.clone(),
            init: init.clone(),
            cond: cond.clone(),
            inc: *inc,
            body: Box::new(body),
        })
    }

    /// Merge directly nested conditions without `else` into one (`if (a)
    /// if (b) x` becomes `if (a && b) x`), recursively.
    pub fn merge_ifs(self) -> Node {
        match self {
            n @ Node::For { .. } => n.map_loop_body(Node::merge_ifs),
            Node::If { cond, then, els } => {
                let then = then.merge_ifs();
                let els = els.map(|e| Box::new(e.merge_ifs()));
                match (then, els) {
                    (
                        Node::If {
                            cond: c2,
                            then: t2,
                            els: None,
                        },
                        None,
                    ) => Node::If {
                        cond: and_dedup(cond, c2),
                        then: t2,
                        els: None,
                    },
                    (then, els) => Node::If {
                        cond,
                        then: Box::new(then),
                        els,
                    },
                }
            }
            // adjacent `if (c) A; if (c) B;` become `if (c) { A; B; }`
            // (the AST has no assignments: A cannot change c)
            Node::Block(v) => merge_adjacent_ifs(v, Node::merge_ifs, |c1, t1, c2, t2| {
                if c1 != c2 {
                    return false;
                }
                **t1 = Node::block(vec![(**t1).clone(), t2.clone()]);
                true
            }),
            n => n,
        }
    }
    /// Consecutive `if (a) B; if (b) B;` with the same body become
    /// `if (a || b) B;`. In exact code (every instance runs once) `a` and
    /// `b` cannot both hold where `B` runs an instance, so the two run the
    /// same instances in the same order.
    pub fn merge_equal_branches(self) -> Node {
        match self {
            n @ Node::For { .. } => n.map_loop_body(Node::merge_equal_branches),
            Node::If { cond, then, els } => Node::If {
                cond,
                then: Box::new(then.merge_equal_branches()),
                els: els.map(|e| Box::new(e.merge_equal_branches())),
            },
            Node::Block(v) => {
                merge_adjacent_ifs(v, Node::merge_equal_branches, |c1, t1, c2, t2| {
                    if **t1 != *t2 {
                        return false;
                    }
                    *c1 = Expr::or(c1.clone(), c2.clone());
                    true
                })
            }
            n => n,
        }
    }

    /// Drop the conjuncts of a condition that an enclosing `if` (without
    /// `else`) already tests: inside it they hold, since the code assigns
    /// no variable but the iterators of inner loops, which an enclosing
    /// condition cannot mention. An `if` left with no conjunct is its body.
    pub fn drop_known_conditions(self) -> Node {
        self.drop_known(&mut Vec::new())
    }

    fn drop_known(self, known: &mut Vec<Expr>) -> Node {
        match self {
            n @ Node::For { .. } => n.map_loop_body(|b| b.drop_known(known)),
            Node::If {
                cond,
                then,
                els: None,
            } => {
                let mut parts = Vec::new();
                conjuncts(cond, &mut parts);
                let parts: Vec<Expr> = parts.into_iter().filter(|c| !known.contains(c)).collect();
                let mark = known.len();
                known.extend(parts.iter().cloned());
                let then = then.drop_known(known);
                known.truncate(mark);
                let mut it = parts.into_iter();
                match it.next() {
                    None => then,
                    Some(first) => Node::If {
                        cond: it.fold(first, Expr::and),
                        then: Box::new(then),
                        els: None,
                    },
                }
            }
            Node::If { cond, then, els } => Node::If {
                cond,
                then: Box::new(then.drop_known(known)),
                els: els.map(|e| Box::new(e.drop_known(known))),
            },
            Node::Block(v) => Node::block(v.into_iter().map(|n| n.drop_known(known)).collect()),
            n => n,
        }
    }

    /// Fold constant subexpressions of every expression in the tree.
    pub fn fold_constants(self) -> Node {
        self.map_exprs(&|x| x.clone().fold())
    }

    /// The tree with the variable `var` replaced by `value` in every
    /// expression (`var` is not an iterator of a loop of the tree).
    pub(crate) fn substitute(&self, var: &str, value: &Expr) -> Node {
        self.map_exprs(&|x| x.substitute(var, value))
    }

    /// The tree with `f` applied to every expression (bounds, conditions,
    /// statement arguments); iterators and steps unchanged.
    fn map_exprs(&self, f: &impl Fn(&Expr) -> Expr) -> Node {
        match self {
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => Node::For {
                iterator: iterator.clone(),
                init: f(init),
                cond: f(cond),
                inc: *inc,
                body: Box::new(body.map_exprs(f)),
            },
            Node::If { cond, then, els } => Node::If {
                cond: f(cond),
                then: Box::new(then.map_exprs(f)),
                els: els.as_ref().map(|n| Box::new(n.map_exprs(f))),
            },
            Node::Block(v) => Node::Block(v.iter().map(|n| n.map_exprs(f)).collect()),
            Node::User { name, args } => Node::User {
                name: name.clone(),
                args: args.iter().map(f).collect(),
            },
        }
    }

    /// Counts of (`for`, `if`, statement calls) in the tree.
    pub fn counts(&self) -> (usize, usize, usize) {
        match self {
            Node::For { body, .. } => {
                let (f, i, c) = body.counts();
                (f + 1, i, c)
            }
            Node::If { then, els, .. } => {
                let (f, i, c) = then.counts();
                let (g, j, d) = els.as_ref().map_or((0, 0, 0), |e| e.counts());
                (f + g, i + j + 1, c + d)
            }
            Node::Block(v) => v.iter().fold((0, 0, 0), |(a, b, c), n| {
                let (x, y, z) = n.counts();
                (a + x, b + y, c + z)
            }),
            Node::User { .. } => (0, 0, 1),
        }
    }

    /// The C text with the given indentation (two spaces per level).
    /// The outermost block is printed without braces, as isl does.
    pub fn to_c(&self) -> String {
        let mut out = String::new();
        match self {
            Node::Block(v) => {
                for n in v {
                    n.write(&mut out, 0);
                }
            }
            n => n.write(&mut out, 0),
        }
        out
    }

    fn write(&self, out: &mut String, ind: usize) {
        let pad = "  ".repeat(ind);
        match self {
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => {
                out.push_str(&format!(
                    "{pad}for (int {iterator} = {init}; {cond}; {iterator} += {inc})"
                ));
                write_body(body, out, ind, false);
            }
            Node::If { cond, then, els } => {
                out.push_str(&format!("{pad}if ({cond})"));
                match els {
                    None => write_body(then, out, ind, false),
                    Some(e) => {
                        write_body(then, out, ind, true);
                        if matches!(**e, Node::If { .. }) {
                            out.push_str(&format!("{pad}else "));
                            let mut inner = String::new();
                            e.write(&mut inner, ind);
                            out.push_str(inner.trim_start());
                        } else {
                            out.push_str(&format!("{pad}else"));
                            write_body(e, out, ind, false);
                        }
                    }
                }
            }
            Node::Block(v) => {
                out.push_str(&format!("{pad}{{\n"));
                for n in v {
                    n.write(out, ind + 1);
                }
                out.push_str(&format!("{pad}}}\n"));
            }
            Node::User { name, args } => {
                let a: Vec<String> = args.iter().map(|e| e.to_string()).collect();
                out.push_str(&format!("{pad}{name}({});\n", a.join(", ")));
            }
        }
    }
}

/// The body of a `for`/`if`: braces around a block (or around an `if` that
/// is followed by an `else`, which would otherwise dangle).
fn write_body(body: &Node, out: &mut String, ind: usize, before_else: bool) {
    let pad = "  ".repeat(ind);
    match body {
        Node::Block(v) => {
            out.push_str(" {\n");
            for n in v {
                n.write(out, ind + 1);
            }
            out.push_str(&format!("{pad}}}\n"));
        }
        Node::If { .. } if before_else => {
            out.push_str(" {\n");
            body.write(out, ind + 1);
            out.push_str(&format!("{pad}}}\n"));
        }
        n => {
            out.push('\n');
            n.write(out, ind + 1);
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_c())
    }
}

fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::And(a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        e => {
            if !out.contains(&e) {
                out.push(e)
            }
        }
    }
}

/// `a && b` without repeated conjuncts.
fn and_dedup(a: Expr, b: Expr) -> Expr {
    let mut v = Vec::new();
    conjuncts(a, &mut v);
    conjuncts(b, &mut v);
    let mut it = v.into_iter();
    let first = it.next().expect("a conjunct");
    it.fold(first, Expr::and)
}

/// The nodes of a block, each rewritten by `each`, where an `if` without
/// `else` that follows another one is folded into it when `fold(cond1,
/// then1, cond2, then2)` says so (and has updated the first).
fn merge_adjacent_ifs(
    v: Vec<Node>,
    each: fn(Node) -> Node,
    fold: impl Fn(&mut Expr, &mut Box<Node>, &Expr, &Node) -> bool,
) -> Node {
    let mut out: Vec<Node> = Vec::new();
    for n in v.into_iter().map(each) {
        if let (
            Some(Node::If {
                cond: c1,
                then: t1,
                els: None,
            }),
            Node::If {
                cond: c2,
                then: t2,
                els: None,
            },
        ) = (out.last_mut(), &n)
        {
            if fold(c1, t1, c2, t2) {
                continue;
            }
        }
        out.push(n);
    }
    Node::block(out)
}
