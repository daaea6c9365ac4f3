//! The printer (isl's C style, precedence) and the interpreter.

use ast::{linear, run, CmpOp, Expr, Node};

fn v(n: &str) -> Expr {
    Expr::var(n)
}

#[test]
fn expressions_print_as_c_with_needed_parentheses() {
    let e = Expr::floord(linear(vec![(1, v("n")), (-1, v("c0"))], -1), 32);
    assert_eq!(e.to_string(), "floord(n - c0 - 1, 32)");
    let e = Expr::min(linear(vec![(-2, v("c0"))], 3), v("m"));
    assert_eq!(e.to_string(), "min(-2 * c0 + 3, m)");
    let e = Expr::sub(v("a"), Expr::add(v("b"), v("c")));
    assert_eq!(e.to_string(), "a - (b + c)");
    let e = Expr::cmp(
        CmpOp::Eq,
        Expr::Mod(Box::new(Expr::add(v("a"), Expr::Int(1))), 4),
        Expr::Int(0),
    );
    assert_eq!(e.to_string(), "(a + 1) % 4 == 0");
    let e = Expr::and(
        Expr::or(
            Expr::cmp(CmpOp::Ge, v("a"), Expr::Int(0)),
            Expr::cmp(CmpOp::Le, v("b"), Expr::Int(2)),
        ),
        Expr::cmp(CmpOp::Gt, v("c"), v("a")),
    );
    assert_eq!(e.to_string(), "(a >= 0 || b <= 2) && c > a");
    assert_eq!(
        Expr::mul(3, Expr::Neg(Box::new(v("x")))).to_string(),
        "3 * -x"
    );
}

#[test]
fn floord_and_mod_follow_c_helpers() {
    let look = |_: &str| None;
    for a in -9i64..=9 {
        for k in 1i64..=4 {
            let f = Expr::floord(Expr::Int(a), k).eval(&look).unwrap();
            assert_eq!(f, (a as f64 / k as f64).floor() as i128);
            let m = Expr::Mod(Box::new(Expr::Int(a)), k).eval(&look).unwrap();
            assert_eq!(m, (a % k) as i128);
        }
    }
    assert!(Expr::ExactDiv(Box::new(Expr::Int(3)), 2)
        .eval(&look)
        .is_err());
    assert!(v("zz").eval(&look).is_err());
}

fn sample() -> Node {
    Node::For {
        iterator: "c0".into(),
        init: Expr::Int(0),
        cond: Expr::cmp(CmpOp::Le, v("c0"), v("n")),
        inc: 2,
        body: Box::new(Node::Block(vec![
            Node::User {
                name: "S".into(),
                args: vec![v("c0")],
            },
            Node::If {
                cond: Expr::cmp(CmpOp::Ge, v("c0"), Expr::Int(2)),
                then: Box::new(Node::User {
                    name: "T".into(),
                    args: vec![Expr::sub(v("c0"), Expr::Int(2)), v("n")],
                }),
                els: None,
            },
        ])),
    }
}

#[test]
fn nodes_print_in_isl_style() {
    assert_eq!(
        sample().to_c(),
        "for (int c0 = 0; c0 <= n; c0 += 2) {\n  S(c0);\n  if (c0 >= 2)\n    T(c0 - 2, n);\n}\n"
    );
    assert_eq!(sample().counts(), (1, 1, 2));
}

#[test]
fn interpreter_records_instances_in_order() {
    let t = run(&sample(), &[("n".into(), 4)], 100).unwrap();
    let names: Vec<String> = t.iter().map(|(n, a)| format!("{n}{a:?}")).collect();
    assert_eq!(names, vec!["S[0]", "S[2]", "T[0, 4]", "S[4]", "T[2, 4]"]);
    // the step limit is an error, not a hang
    assert!(run(&sample(), &[("n".into(), 1000)], 10).is_err());
    // an unknown parameter is an error
    assert!(run(&sample(), &[], 100).is_err());
}

#[test]
fn conditions_known_from_an_enclosing_if_are_dropped() {
    let c = Expr::cmp(CmpOp::Ge, Expr::var("n"), Expr::Int(1));
    let d = Expr::cmp(CmpOp::Le, Expr::var("c0"), Expr::Int(3));
    let call = Node::User {
        name: "S".into(),
        args: vec![Expr::var("c0")],
    };
    let inner = Node::If {
        cond: Expr::and(c.clone(), d.clone()),
        then: Box::new(call.clone()),
        els: None,
    };
    let code = Node::If {
        cond: c.clone(),
        then: Box::new(Node::For {
            iterator: "c0".into(),
            init: Expr::Int(0),
            cond: Expr::cmp(CmpOp::Le, Expr::var("c0"), Expr::var("n")),
            inc: 1,
            body: Box::new(inner),
        }),
        els: None,
    };
    let out = code.clone().drop_known_conditions();
    assert_eq!(
        out.to_c(),
        "if (n >= 1)\n  for (int c0 = 0; c0 <= n; c0 += 1)\n    if (c0 <= 3)\n      S(c0);\n"
    );
    for n in [-1, 0, 2, 6] {
        let p = [("n".to_string(), n)];
        assert_eq!(run(&code, &p, 100).unwrap(), run(&out, &p, 100).unwrap());
    }
}

#[test]
fn consecutive_conditions_with_the_same_body_merge() {
    let call = Node::User {
        name: "S".into(),
        args: vec![v("c0")],
    };
    let guard = |op, k| Node::If {
        cond: Expr::cmp(op, v("c0"), Expr::Int(k)),
        then: Box::new(call.clone()),
        els: None,
    };
    let code = Node::For {
        iterator: "c0".into(),
        init: Expr::Int(0),
        cond: Expr::cmp(CmpOp::Le, v("c0"), Expr::Int(9)),
        inc: 1,
        body: Box::new(Node::Block(vec![guard(CmpOp::Le, 2), guard(CmpOp::Ge, 7)])),
    };
    let merged = code.clone().merge_equal_branches();
    assert_eq!(merged.counts(), (1, 1, 1), "{merged}");
    assert_eq!(
        run(&merged, &[], 100).unwrap(),
        run(&code, &[], 100).unwrap()
    );
}
