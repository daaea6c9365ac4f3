//! Guard splitting and unswitching against the AST interpreter.

use super::*;

use testkit::Lcg;

/// [`Lcg::below`] as an `i64` (small values, for the expressions).
fn below(r: &mut Lcg, n: u64) -> i64 {
    Lcg::below(r, n) as i64
}

fn v(n: &str) -> Expr {
    Expr::var(n)
}
fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr::Cmp(op, Box::new(a), Box::new(b))
}

/// A random guard atom over `c1`, the parameter `P` and the outer `c0`.
fn atom(r: &mut Lcg) -> Expr {
    let k = [1, 1, 2, -1, 3][below(r, 5) as usize];
    let lhs = Expr::add(Expr::Mul(k, Box::new(v("c1"))), Expr::Int(below(r, 7) - 3));
    let rhs = match below(r, 4) {
        0 => Expr::Int(below(r, 12) - 2),
        1 => Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(below(r, 4)))),
        2 => Expr::add(v("c0"), Expr::Int(below(r, 3))),
        _ => v("P"),
    };
    let ops = [CmpOp::Ge, CmpOp::Gt, CmpOp::Le, CmpOp::Lt, CmpOp::Eq];
    match below(r, 8) {
        0..=3 => cmp(ops[below(r, 5) as usize], lhs, rhs),
        4 | 5 => {
            let m = 2 + below(r, 3);
            let x = Expr::Sub(Box::new(lhs), Box::new(Expr::Int(below(r, 3))));
            cmp(CmpOp::Eq, Expr::Mod(Box::new(x), m), Expr::Int(0))
        }
        6 => match below(r, 3) {
            // loop-invariant atoms (unswitched)
            0 => cmp(CmpOp::Ge, v("P"), Expr::Int(below(r, 8))),
            1 => cmp(CmpOp::Eq, Expr::Mod(Box::new(v("c0")), 2), Expr::Int(0)),
            _ => cmp(CmpOp::Ge, v("c0"), Expr::Int(below(r, 4))),
        },
        // not understood: a remainder compared otherwise
        _ => cmp(CmpOp::Ge, Expr::Mod(Box::new(v("c1")), 3), Expr::Int(1)),
    }
}

fn cond(r: &mut Lcg, depth: u32) -> Expr {
    if depth == 0 || below(r, 3) == 0 {
        return atom(r);
    }
    let (a, b) = (cond(r, depth - 1), cond(r, depth - 1));
    if below(r, 2) == 0 {
        Expr::and(a, b)
    } else {
        Expr::or(a, b)
    }
}

fn user(name: &str) -> Node {
    Node::User {
        name: name.into(),
        args: vec![v("c0"), Expr::add(v("c1"), Expr::Int(1))],
    }
}

fn random_nest(r: &mut Lcg) -> Node {
    random_nest_with_step(r, 1)
}

fn random_nest_with_step(r: &mut Lcg, step: i64) -> Node {
    let mut body = Vec::new();
    for s in 0..1 + below(r, 3) {
        let then = Box::new(user(&format!("S{s}")));
        body.push(match below(r, 4) {
            0 => *then,
            1 => Node::If {
                cond: cond(r, 2),
                then,
                els: Some(Box::new(user(&format!("T{s}")))),
            },
            _ => Node::If {
                cond: cond(r, 2),
                then,
                els: None,
            },
        });
    }
    let lb = match below(r, 3) {
        0 => Expr::Int(below(r, 5) - 2),
        1 => Expr::Sub(Box::new(v("c0")), Box::new(Expr::Int(2))),
        _ => Expr::Max(
            Box::new(Expr::Int(0)),
            Box::new(Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(9)))),
        ),
    };
    let ub = match below(r, 3) {
        0 => Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(1))),
        1 => Expr::Max(
            Box::new(Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(1)))),
            Box::new(Expr::Int(2)),
        ),
        _ => Expr::add(v("c0"), v("P")),
    };
    let op = if below(r, 2) == 0 {
        CmpOp::Le
    } else {
        CmpOp::Lt
    };
    Node::For {
        iterator: "c0".into(),
        init: Expr::Int(0),
        cond: cmp(CmpOp::Le, v("c0"), Expr::Int(3)),
        inc: 1,
        body: Box::new(Node::For {
            iterator: "c1".into(),
            init: lb,
            cond: cmp(op, v("c1"), ub),
            inc: step,
            body: Box::new(Node::block(body)),
        }),
    }
}

/// `split_guards(n)`, checked to run the same instances in the same order
/// as `n` for every value of `P` from -3 to 23.
fn split_checked(n: &Node) -> Node {
    let s = split_guards(n);
    for p in -3..24 {
        let params = [("P".to_string(), p)];
        let want = ast::run(n, &params, 1 << 20).unwrap();
        let got = ast::run(&s, &params, 1 << 20).unwrap();
        assert_eq!(want, got, "P = {p}\n{n}\nsplit:\n{s}");
    }
    s
}

#[test]
fn split_loops_run_the_same_instances_in_the_same_order() {
    let mut r = Lcg(7);
    let (mut split, mut unrolled) = (0, 0);
    for _ in 0..400 {
        let n = random_nest(&mut r);
        let s = split_checked(&n);
        if s != n {
            split += 1;
            if s.to_string().contains("+= 2")
                || s.to_string().contains("+= 3")
                || s.to_string().contains("+= 4")
                || s.to_string().contains("+= 6")
            {
                unrolled += 1;
            }
        }
    }
    // the generator makes both kinds often
    assert!(
        split > 200 && unrolled > 50,
        "{split} split, {unrolled} unrolled"
    );
}

#[test]
fn split_loops_of_steps_2_and_3_run_the_same_instances_in_the_same_order() {
    let mut r = Lcg(11);
    let (mut split, mut unswitched) = (0, 0);
    for i in 0..600 {
        let n = random_nest_with_step(&mut r, 2 + i % 2);
        let s = split_checked(&n);
        if s != n {
            split += 1;
            let Node::For { body, .. } = &s else {
                panic!("not a loop: {s}")
            };
            if matches!(&**body, Node::If { .. }) {
                unswitched += 1;
            }
        }
    }
    assert!(
        split > 300 && unswitched > 25,
        "{split} split, {unswitched} unswitched"
    );
}

/// tiled_mix's `S0` loop as the generator writes it: `c2 % 2 == 0 || c3 >=
/// c2 + 1` in a `c3` loop of step 2.
fn tiled_mix_row() -> Node {
    let c2 = || v("c2");
    let lb = Expr::Sub(
        Box::new(Expr::Sub(Box::new(c2()), Box::new(Expr::Int(3)))),
        Box::new(Expr::Mul(
            2,
            Box::new(Expr::FloorDiv(
                Box::new(Expr::Sub(
                    Box::new(Expr::Sub(Box::new(c2()), Box::new(Expr::Int(3)))),
                    Box::new(Expr::Min(
                        Box::new(Expr::Sub(Box::new(c2()), Box::new(Expr::Int(3)))),
                        Box::new(Expr::add(c2(), Expr::Int(1))),
                    )),
                )),
                2,
            )),
        )),
    );
    let ub = Expr::Min(
        Box::new(Expr::Sub(Box::new(v("M")), Box::new(Expr::Int(1)))),
        Box::new(Expr::add(c2(), Expr::Int(3))),
    );
    let guard = Expr::or(
        cmp(CmpOp::Eq, Expr::Mod(Box::new(c2()), 2), Expr::Int(0)),
        cmp(CmpOp::Ge, v("c3"), Expr::add(c2(), Expr::Int(1))),
    );
    Node::For {
        iterator: "c2".into(),
        init: Expr::Int(4),
        cond: cmp(CmpOp::Le, c2(), v("N")),
        inc: 1,
        body: Box::new(Node::For {
            iterator: "c3".into(),
            init: lb,
            cond: cmp(CmpOp::Le, v("c3"), ub),
            inc: 2,
            body: Box::new(Node::If {
                cond: guard,
                then: Box::new(Node::User {
                    name: "S0".into(),
                    args: vec![c2(), v("c3")],
                }),
                els: None,
            }),
        }),
    }
}

#[test]
fn tiled_mix_rows_become_two_guard_free_loops() {
    let n = tiled_mix_row();
    let s = split_guards(&n);
    // if (c2 % 2 == 0) { c3 from c2 - 3 } else { c3 from c2 + 1 }
    let Node::For { body, .. } = &s else {
        panic!("{s}")
    };
    let Node::If {
        then,
        els: Some(els),
        ..
    } = &**body
    else {
        panic!("not unswitched:\n{s}")
    };
    for (version, init) in [(then, "c2 - 3"), (els, "c2 + 1")] {
        let Node::For {
            init: i,
            body,
            inc: 2,
            ..
        } = &**version
        else {
            panic!("not one loop of step 2:\n{s}")
        };
        assert_eq!(simplify(i).to_string(), init, "{s}");
        let mut g = Vec::new();
        guards(body, &mut g).unwrap();
        assert!(g.is_empty(), "{s}");
    }
    for (nn, mm) in [(4, 1), (9, 2), (12, 5), (15, 9), (20, 30), (11, 7), (13, 8)] {
        let params = [("N".to_string(), nn), ("M".to_string(), mm)];
        let want = ast::run(&n, &params, 1 << 20).unwrap();
        let got = ast::run(&s, &params, 1 << 20).unwrap();
        assert_eq!(want, got, "N = {nn}, M = {mm}\n{s}");
    }
}

#[test]
fn the_middle_of_a_modulo_guarded_loop_has_no_guards() {
    // misc_math's second loop: `i % 3 != 1 && i != 2` as the generator
    // writes it
    let c1 = || v("c1");
    let g0 = Expr::or(
        Expr::and(
            cmp(CmpOp::Eq, Expr::Mod(Box::new(c1()), 3), Expr::Int(0)),
            cmp(CmpOp::Ge, c1(), Expr::Int(3)),
        ),
        Expr::and(
            cmp(
                CmpOp::Eq,
                Expr::Mod(
                    Box::new(Expr::Sub(Box::new(c1()), Box::new(Expr::Int(2)))),
                    3,
                ),
                Expr::Int(0),
            ),
            cmp(CmpOp::Ge, v("N"), Expr::add(c1(), Expr::Int(1))),
        ),
    );
    let g1 = cmp(CmpOp::Eq, c1(), Expr::Int(2));
    let n = Node::For {
        iterator: "c1".into(),
        init: Expr::Int(0),
        cond: cmp(
            CmpOp::Le,
            c1(),
            Expr::Sub(Box::new(v("N")), Box::new(Expr::Int(1))),
        ),
        inc: 1,
        body: Box::new(Node::Block(vec![
            Node::If {
                cond: g0,
                then: Box::new(user("S4")),
                els: None,
            },
            Node::If {
                cond: g1,
                then: Box::new(user("S5")),
                els: None,
            },
        ])),
    };
    let Node::Block(parts) = split_guards(&n) else {
        panic!("not split");
    };
    let Node::For { inc, body, .. } = &parts[1] else {
        panic!("no middle loop");
    };
    assert_eq!(*inc, 3);
    let mut g = Vec::new();
    guards(body, &mut g).unwrap();
    assert!(g.is_empty(), "{body}");
    // S4 at c1 and c1 + 2 only (c1 + 1 has remainder 1)
    assert_eq!(body.to_string().matches("S4").count(), 2, "{body}");
}
