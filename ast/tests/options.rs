//! AST build options: their effect on the code's shape (the instances and
//! their order are checked by the random brute-force tests), and errors.

use ast::{
    generate_tree, generate_with_options, parse_map_input, parse_tree, run, Error, LoopKind,
};

fn code(input: &str) -> ast::Node {
    let i = parse_map_input(input).unwrap();
    generate_with_options(&i.schedule, &i.context, &i.loops).unwrap()
}

#[test]
fn unroll_replaces_a_constant_trip_count_loop_by_copies() {
    let c =
        code("{ A[i, j] -> [i, j] : 0 <= i < 10 and 0 <= j < 3 } { : } { [i, j] -> unroll[1] }");
    let (fors, ifs, calls) = c.counts();
    assert_eq!((fors, ifs, calls), (1, 0, 3), "{c}");
    assert_eq!(run(&c, &[], 1000).unwrap().len(), 30);
    // a bound that is not constant: guarded copies
    let c = code("[n] -> { A[i] -> [i] : 0 <= i < n and i < 4 } [n] -> { : } { [i] -> unroll[0] }");
    assert_eq!(c.counts().0, 0, "{c}");
    for n in 0..6 {
        let t = run(&c, &[("n".into(), n)], 1000).unwrap();
        assert_eq!(t.len() as i64, n.min(4), "n = {n}\n{c}");
    }
}

#[test]
fn separate_splits_where_the_statements_differ() {
    let input = "[n] -> { A[i] -> [i, 0] : 0 <= i <= n; B[i] -> [i, 1] : 0 <= i <= 10 } [n] -> { : n >= 0 } ";
    let plain = code(&format!("{input}{{ }}"));
    let sep = code(&format!("{input}{{ [i, j] -> separate[0] }}"));
    // separated: no condition is left inside a loop
    assert!(plain.counts().1 >= 1, "{plain}");
    assert_eq!(sep.counts().1, 0, "{sep}");
    for n in [0, 5, 10, 15] {
        assert_eq!(
            run(&plain, &[("n".into(), n)], 1000).unwrap(),
            run(&sep, &[("n".into(), n)], 1000).unwrap()
        );
    }
}

#[test]
fn atomic_keeps_one_loop() {
    let input = "{ A[i] -> [i] : 0 <= i <= 3 or 6 <= i <= 9 } { : } ";
    let plain = code(&format!("{input}{{ }}"));
    let atomic = code(&format!("{input}{{ [i] -> atomic[0] }}"));
    assert_eq!(plain.counts().0, 2, "{plain}");
    assert_eq!(atomic.counts().0, 1, "{atomic}");
    assert_eq!(
        run(&plain, &[], 100).unwrap(),
        run(&atomic, &[], 100).unwrap()
    );
}

#[test]
fn band_options_apply_to_their_members() {
    let tree = "domain: \"{ S[i, j] : 0 <= i < 5 and 0 <= j < 2 }\"\nchild:\n  schedule: \"[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]\"\n  options: \"{ unroll[1] }\"\n";
    let c = generate_tree(&parse_tree(tree).unwrap()).unwrap();
    assert_eq!(c.counts(), (1, 0, 2), "{c}");
}

#[test]
fn bad_options_are_errors_with_positions() {
    let e =
        parse_map_input("{ A[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ [i] -> unrol[0] }").unwrap_err();
    assert!(
        matches!(
            e,
            Error::Parse {
                line: 3,
                col: 10,
                ..
            }
        ),
        "{e:?}"
    );
    let e = parse_map_input("{ A[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ [i] -> unroll[0] : i < }")
        .unwrap_err();
    assert!(matches!(e, Error::Parse { line: 3, .. }), "{e:?}");
    let e = parse_map_input("{ A[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ [i] -> unroll[0, 1] }")
        .unwrap_err();
    assert!(matches!(e, Error::Parse { line: 3, .. }), "{e:?}");
    let tree = "domain: \"{ S[i] : 0 <= i < 5 }\"\nchild:\n  schedule: \"[{ S[i] -> [(i)] }]\"\n  options: \"{ fuse[x] }\"\n";
    let e = parse_tree(tree).unwrap_err();
    assert!(matches!(e, Error::Parse { line: 4, .. }), "{e:?}");
    // isl's other options are accepted
    let i = parse_map_input(
        "{ A[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ [i] -> separation_class[[0] -> [1]] }",
    )
    .unwrap();
    assert_eq!(i.loops.kind(0), LoopKind::Default);
}

/// isl's AST generation test inputs that use `isolate` (test_inputs/codegen
/// of isl, MIT licence; see shared/codegen) and the shape of isl's code
/// (`for`, `if`, statement calls) where ours is the same.
type Case = (&'static str, &'static str, Option<(usize, usize, usize)>);

const ISOLATE: [Case; 6] = [
    (
        "isolate1",
        "domain: \"{ A[i] : 0 <= i < 100 }\"\nchild:\n  schedule: \"[{ A[i] -> [3i] }]\"\n  options: \"{ isolate[[] -> [x]] : 10 <= x <= 20 }\"\n",
        Some((3, 0, 3)),
    ),
    (
        "isolate2",
        "domain: \"{ A[i,j] : 0 <= i,j < 100 }\"\nchild:\n  schedule: \"[{ A[i,j] -> [3i] }]\"\n  child:\n    schedule: \"[{ A[i,j] -> [3j] }]\"\n    options: \"{ isolate[[x] -> [y]] : 10 <= x <= 20 }\"\n",
        None,
    ),
    (
        "isolate3",
        "domain: \"{ A[i] : 0 <= i < 100 }\"\nchild:\n  schedule: \"[{ A[i] -> [i] }]\"\n  options: \"{ isolate[[] -> [x]] : 10 <= x <= 20; [isolate[] -> unroll[x]] }\"\n",
        Some((2, 0, 13)),
    ),
    (
        "isolate4",
        "domain: \"{ A[i] : 0 <= i < 20 }\"\nchild:\n  schedule: \"[{ A[i] -> [i] }]\"\n  options: \"{ isolate[[] -> [x]] : 5 <= x <= 15; unroll[x] }\"\n",
        Some((1, 0, 10)),
    ),
    (
        "isolate5",
        "domain: \"{ A[i,j] : 0 <= i < 100 and 0 <= j < 2; B[i,j] : 0 <= i < 100 and 0 <= j < 2 }\"\nchild:\n  schedule: \"[{ A[i,j] -> [2i]; B[i,j] -> [2i+1] }, { A[i,j] -> [j]; B[i,j] -> [j]}]\"\n  options: \"{ isolate[[] -> [x, y]] : 10 <= x < 90 }\"\n",
        None,
    ),
    (
        "isolate6",
        "domain: \"{ A[i,j] : 0 <= i,j and i + j <= 100 }\"\nchild:\n  schedule: \"[{ A[i,j] -> [floor(i/10)] }, { A[i,j] -> [floor(j/10)] }, { A[i,j] -> [i] }, { A[i,j] -> [j] }]\"\n  options: \"{ isolate[[] -> [a,b,c,d]] : 0 <= 10a,10b and 10a+9+10b+9 <= 100; [isolate[] -> unroll[3]] }\"\n",
        Some((10, 0, 12)),
    ),
];

#[test]
fn isolated_parts_are_scanned_apart_with_their_loop_types() {
    for (name, text, shape) in ISOLATE {
        let tree = parse_tree(text).unwrap();
        let code = generate_tree(&tree).unwrap();
        // the same instances in the same order as without options (the
        // schedules are injective: one order is right)
        let (schedule, context, _) = ast::tree_to_schedule_with_options(&tree).unwrap();
        let plain = ast::generate(&schedule, &context).unwrap();
        assert_eq!(
            run(&code, &[], 1_000_000).unwrap(),
            run(&plain, &[], 1_000_000).unwrap(),
            "{name}\n{code}"
        );
        assert_ne!(code, plain, "{name}: isolate not applied\n{code}");
        if let Some(s) = shape {
            assert_eq!(code.counts(), s, "{name}\n{code}");
        }
    }
}

#[test]
fn options_on_part_of_the_schedule_space_apply_there() {
    // isl's unroll2: each disjunct of the option's domain apart
    let c =
        code("{ A[i] -> [i] : 0 <= i < 100000 } { : } { [i] -> unroll[0] : i < 4 or i > 99996 }");
    assert_eq!(c.counts(), (1, 0, 8), "{c}");
    assert_eq!(run(&c, &[], 1_000_000).unwrap().len(), 100000);
    // a class separates its part (isl's separation_class: full tiles)
    let c = code("{ A[i,j] -> [floor(i/10),floor(j/10),i,j] : 0 <= i,j and i + j <= 100 } { : } { [a,b,c,d] -> separation_class[[0]->[0]] : exists b': 0 <= 10a,10b' and 10a+9+10b'+9 <= 100; [a,b,c,d] -> separation_class[[1]->[0]] : 0 <= 10a,10b and 10a+9+10b+9 <= 100 }");
    assert_eq!(c.counts(), (11, 0, 3), "{c}");
    let plain =
        code("{ A[i,j] -> [floor(i/10),floor(j/10),i,j] : 0 <= i,j and i + j <= 100 } { : } { }");
    assert_eq!(
        run(&c, &[], 1_000_000).unwrap(),
        run(&plain, &[], 1_000_000).unwrap()
    );
    // isolate belongs to schedule trees
    assert!(
        parse_map_input("{ A[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ isolate[[] -> [x]] : x < 2 }")
            .is_err()
    );
}
