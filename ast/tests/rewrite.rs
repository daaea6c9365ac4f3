//! `Node::map_children`, `Node::try_map_children` and `Node::rewrite`
//! against a reference that rebuilds every node (the traversal the lowering
//! passes wrote by hand before), on small trees of every shape.

use ast::{CmpOp, Expr, Node};

fn call(name: &str, arg: &str) -> Node {
    Node::User {
        name: name.into(),
        args: vec![Expr::var(arg)],
    }
}

fn lp(it: &str, body: Node) -> Node {
    Node::For {
        iterator: it.into(),
        init: Expr::Int(0),
        cond: Expr::cmp(CmpOp::Le, Expr::var(it), Expr::var("N")),
        inc: 1,
        body: Box::new(body),
    }
}

fn guard(v: &str, then: Node, els: Option<Node>) -> Node {
    Node::If {
        cond: Expr::cmp(CmpOp::Ge, Expr::var(v), Expr::Int(1)),
        then: Box::new(then),
        els: els.map(Box::new),
    }
}

/// Every tree of the shapes below `depth` levels, statements named `S0`,
/// `S1`, .. and loops `c0`, `c1`, .. in order of construction.
fn trees(depth: usize, next: &mut usize) -> Vec<Node> {
    let mut fresh = || {
        *next += 1;
        *next - 1
    };
    let mut out = vec![call(&format!("S{}", fresh()), "c0")];
    if depth == 0 {
        return out;
    }
    let inner = trees(depth - 1, next);
    let mut fresh = || {
        *next += 1;
        *next - 1
    };
    for (k, a) in inner.iter().enumerate() {
        let b = &inner[(k + 1) % inner.len()];
        out.push(lp(&format!("c{}", fresh()), a.clone()));
        out.push(guard("c0", a.clone(), None));
        out.push(guard("c1", a.clone(), Some(b.clone())));
        out.push(Node::Block(vec![a.clone(), b.clone()]));
        out.push(Node::Block(vec![a.clone()]));
    }
    out.push(Node::Block(Vec::new()));
    out
}

fn all_trees() -> Vec<Node> {
    trees(3, &mut 0)
}

/// The reference: `f` tried on each node top-down, every other node
/// copied and its children rewritten in place.
fn rebuild(n: &Node, f: &mut dyn FnMut(&Node) -> Option<Node>) -> Node {
    if let Some(m) = f(n) {
        return m;
    }
    let mut copy = n.clone();
    match &mut copy {
        Node::For { body, .. } => **body = rebuild(body, f),
        Node::If { then, els, .. } => {
            **then = rebuild(then, f);
            if let Some(e) = els {
                **e = rebuild(e, f);
            }
        }
        Node::Block(v) => v.iter_mut().for_each(|x| *x = rebuild(x, f)),
        Node::User { .. } => {}
    }
    copy
}

/// A few rewrites: statements renamed, loops replaced, guards unwrapped.
fn rules() -> Vec<fn(&Node) -> Option<Node>> {
    vec![
        |_| None,
        |n| match n {
            Node::User { name, args } if name.ends_with('3') => Some(Node::User {
                name: format!("{name}'"),
                args: args.clone(),
            }),
            _ => None,
        },
        |n| match n {
            Node::For { iterator, .. } if iterator.ends_with('1') => Some(call("L", iterator)),
            _ => None,
        },
        |n| match n {
            Node::If {
                then, els: None, ..
            } => Some((**then).clone()),
            _ => None,
        },
        |n| match n {
            Node::Block(v) if v.len() == 2 => Some(Node::Block(vec![v[1].clone(), v[0].clone()])),
            _ => None,
        },
    ]
}

/// `rewrite` gives the reference's tree, visiting the same nodes in the
/// same order; a tree where nothing is replaced comes back equal.
#[test]
fn rewrite_matches_rebuilding_everything() {
    let trees = all_trees();
    assert!(trees.len() > 100);
    let mut replaced = 0;
    for rule in rules() {
        for t in &trees {
            let (mut seen_ref, mut seen) = (Vec::new(), Vec::new());
            let want = rebuild(t, &mut |n| {
                seen_ref.push(n.clone());
                rule(n)
            });
            let got = t.rewrite(|n| {
                seen.push(n.clone());
                rule(n)
            });
            assert_eq!(got, want, "{t}");
            assert_eq!(seen, seen_ref, "{t}");
            if got != *t {
                replaced += 1;
            }
        }
    }
    // the rules do replace nodes in many trees
    assert!(replaced > 100, "{replaced}");
}

/// `map_children` answers `None` exactly when no child changed, rebuilds
/// the node with the changed children in their places otherwise, and
/// visits the children in order (body; then, else; members).
#[test]
fn map_children_replaces_only_changed_children() {
    let mark = |n: &Node| match n {
        Node::User { name, args } if name.ends_with(['1', '3']) => Some(Node::User {
            name: format!("{name}*"),
            args: args.clone(),
        }),
        Node::Block(v) if v.len() == 1 => Some(v[0].clone()),
        _ => None,
    };
    let mut changed = 0;
    for t in all_trees() {
        let kids: Vec<Node> = match &t {
            Node::For { body, .. } => vec![(**body).clone()],
            Node::If { then, els, .. } => std::iter::once((**then).clone())
                .chain(els.as_deref().cloned())
                .collect(),
            Node::Block(v) => v.clone(),
            Node::User { .. } => Vec::new(),
        };
        let mut seen = Vec::new();
        assert_eq!(
            t.map_children(|c| {
                seen.push(c.clone());
                None
            }),
            None
        );
        assert_eq!(seen, kids);
        let got = t.map_children(mark);
        let want = rebuild(&t, &mut |n| {
            (n != &t).then(|| mark(n).unwrap_or_else(|| n.clone()))
        });
        if kids.iter().any(|k| mark(k).is_some()) {
            changed += 1;
            assert_eq!(got.as_ref(), Some(&want), "{t}");
        } else {
            assert_eq!(got, None, "{t}");
        }
    }
    assert!(changed > 10, "{changed}");
}

/// `try_map_children` stops at the first error: the children after it are
/// not visited, and a node whose children all succeed is as with
/// `map_children`.
#[test]
fn try_map_children_stops_at_the_first_error() {
    let block = Node::Block(vec![call("A", "i"), call("B", "i"), call("C", "i")]);
    let mut seen = Vec::new();
    let r = block.try_map_children(|c| {
        let Node::User { name, .. } = c else {
            unreachable!()
        };
        seen.push(name.clone());
        if name == "B" {
            Err(name.clone())
        } else {
            Ok(Some(call("X", "i")))
        }
    });
    assert_eq!(r, Err("B".to_string()));
    assert_eq!(seen, ["A", "B"]);
    let g = guard("c0", call("A", "i"), Some(call("B", "i")));
    let r = g.try_map_children(|c| {
        if c == &call("A", "i") {
            Err(())
        } else {
            Ok(None)
        }
    });
    assert_eq!(r, Err(()));
    let ok = g.try_map_children(|c| Ok::<_, ()>((c == &call("B", "i")).then(|| call("Y", "i"))));
    assert_eq!(
        ok,
        Ok(Some(guard("c0", call("A", "i"), Some(call("Y", "i")))))
    );
}

/// `with_loop_body` keeps a loop's header and replaces its body; it is
/// `None` for any other node.
#[test]
fn with_loop_body_replaces_the_body_of_loops_only() {
    let l = lp("c0", call("A", "c0"));
    assert_eq!(
        l.with_loop_body(call("B", "c0")),
        Some(lp("c0", call("B", "c0")))
    );
    for other in [
        call("A", "c0"),
        guard("c0", l.clone(), None),
        Node::Block(vec![l.clone()]),
    ] {
        assert_eq!(other.with_loop_body(call("B", "c0")), None);
    }
}
