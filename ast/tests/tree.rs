//! Schedule trees: read, flatten, generate, run; brute-force check of the
//! executed instances and their order.

use ast::{generate_tree, parse_tree, run};

const TREE: &str = r#"domain: "[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i; T[i] : 0 <= i < n }"
child:
  context: "[n] -> { : n >= 0 }"
  child:
    schedule: "[n] -> [{ S[i, j] -> [(i)]; T[i] -> [(n - 1 - i)] }]"
    options: "{ separate[x] }"
    child:
      sequence:
      - filter: "[n] -> { T[i] }"
      - filter: "[n] -> { S[i, j] }"
        child:
          mark: "inner"
          child:
            schedule: "[n] -> [{ S[i, j] -> [(-j)] }]"
"#;

#[test]
fn tree_runs_instances_in_tree_order() {
    let tree = parse_tree(TREE).unwrap();
    let code = generate_tree(&tree).unwrap();
    for n in [0i64, 1, 3, 4] {
        let trace = run(&code, &[("n".into(), n)], 100_000).unwrap();
        // brute force: outer band value, then T before S, then -j
        let mut want = Vec::new();
        for t in 0..n {
            want.push(("T".to_string(), vec![n - 1 - t]));
            for j in (0..=t).rev() {
                want.push(("S".to_string(), vec![t, j]));
            }
        }
        assert_eq!(trace, want, "n = {n}\n{code}");
    }
}

#[test]
fn malformed_trees_are_errors() {
    assert!(parse_tree("domain: \"{ S[i] : 0 <= i < }\"\n").is_err());
    assert!(parse_tree("expansion: \"{ }\"\n").is_err());
    let t = parse_tree("domain: \"{ S[i] : 0 <= i < 4 }\"\nchild:\n  guard: \"{ [] }\"\n");
    assert!(t.is_err());
    // a relation where a set belongs (a fuzz finding: the domain's columns
    // were read as a set's and indexed past the row)
    for text in [
        "domain: \"[n, m] -> { S[i, j] -> [i + j, j] : 0 < n and 0 <= j < m }\"\n",
        "domain: \"{ S[i] : 0 <= i < 4 }\"\nchild:\n  filter: \"{ S[i] -> [i] }\"\n",
        "domain: \"{ S[i] : 0 <= i < 4 }\"\nchild:\n  context: \"{ [i] -> [j] }\"\n",
    ] {
        let e = parse_tree(text).unwrap_err().to_string();
        assert!(e.contains("not a relation"), "{text}: {e}");
    }
}
