//! The shared kernels parse, and their models match the shared reference
//! models structurally and semantically (the JSON's relations, read back by
//! the engine, equal the reference's).

mod common;

use std::collections::BTreeMap;

/// Extracts `"key": [ "a", "b" ]`.
fn json_str_list(text: &str, key: &str) -> Option<Vec<String>> {
    let pat = format!("\"{key}\": [");
    let start = text.find(&pat)? + pat.len();
    let end = start + text[start..].find(']')?;
    Some(
        text[start..end]
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// The `;`-separated pieces of a union set/map text.
fn pieces(text: &str) -> Vec<String> {
    let open = text.find('{').expect("has {");
    let close = text.rfind('}').expect("has }");
    text[open + 1..close]
        .split(';')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `(statement, array)` pairs of a union map, counted.
fn access_counts(text: &str) -> BTreeMap<(String, String), usize> {
    let mut m = BTreeMap::new();
    for p in pieces(text) {
        let (lhs, rhs) = p.split_once("->").expect("a map piece");
        let stmt = lhs.trim().split('[').next().unwrap().to_string();
        let arr = rhs.trim().split('[').next().unwrap().to_string();
        *m.entry((stmt, arr)).or_insert(0) += 1;
    }
    m
}

/// Statement tuples of a union set: name and arity.
fn tuples(text: &str) -> Vec<(String, usize)> {
    pieces(text)
        .iter()
        .map(|p| {
            let t = p.split(':').next().unwrap().trim();
            let name = t.split('[').next().unwrap().to_string();
            let inner = &t[t.find('[').unwrap() + 1..t.find(']').unwrap()];
            let arity = inner.split(',').filter(|s| !s.trim().is_empty()).count();
            (name, arity)
        })
        .collect()
}

/// The relation of an isl text (the JSON's or the reference's).
fn rel(text: &str, what: &str) -> presburger::UnionMap {
    text.parse()
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))
}

/// The two texts denote the same relation.
fn same(a: &str, b: &str, what: &str) -> bool {
    rel(a, what).is_equal(&rel(b, what)).unwrap()
}

#[test]
fn shared_kernels_parse_and_match_structurally() {
    let files = common::c_files(&common::shared_dir());
    if files.is_empty() {
        eprintln!("note: no shared kernels found; skipping");
        return;
    }
    for path in files {
        let p = path.display().to_string();
        let json =
            scop::scop_command(std::slice::from_ref(&p)).unwrap_or_else(|e| panic!("{p}: {e}"));
        for key in [
            "params",
            "domain",
            "schedule",
            "must_write",
            "may_write",
            "read",
            "arrays",
            "context",
            "tagged_read",
            "tagged_must_write",
        ] {
            assert!(
                json.contains(&format!("\"{key}\":")),
                "{p}: key {key} missing"
            );
        }
        let model_path = path.with_extension("model.json");
        let Ok(reference) = std::fs::read_to_string(&model_path) else {
            continue;
        };
        assert_eq!(
            json_str_list(&json, "params"),
            json_str_list(&reference, "params"),
            "{p}: params"
        );
        let dom = common::json_str(&json, "domain").unwrap();
        let rdom = common::json_str(&reference, "domain").unwrap();
        assert_eq!(tuples(&dom), tuples(&rdom), "{p}: statements");
        for key in ["read", "must_write"] {
            let mine = common::json_str(&json, key).unwrap();
            let theirs = common::json_str(&reference, key).unwrap();
            assert_eq!(access_counts(&mine), access_counts(&theirs), "{p}: {key}");
            assert!(
                same(&mine, &theirs, key),
                "{p}: {key}\n ours:   {mine}\n theirs: {theirs}"
            );
        }
        assert!(
            same(&dom, &rdom, "domain"),
            "{p}: domain\n ours:   {dom}\n theirs: {rdom}"
        );
        // may_write equals must_write for static-control code.
        let mw = common::json_str(&json, "may_write").unwrap();
        let must = common::json_str(&json, "must_write").unwrap();
        assert!(same(&mw, &must, "may_write"), "{p}: may_write");
        // Arrays: everything accessed is declared.
        let scop = scop::build_scop(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for ((_, arr), _) in access_counts(&common::json_str(&json, "read").unwrap())
            .into_iter()
            .chain(access_counts(&must))
        {
            assert!(
                scop.arrays.iter().any(|a| a.name == arr),
                "{p}: array {arr}"
            );
        }
        check_schedule_order(
            &p,
            &scop,
            &common::json_str(&reference, "schedule").unwrap(),
        );
    }
}

/// Parses a shared schedule piece `S0[i,j] -> [0,i,j,0]` into (name, iters, dims).
fn parse_sched(text: &str) -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    let mut m = BTreeMap::new();
    for p in pieces(text) {
        let (lhs, rhs) = p.split_once("->").unwrap();
        let lhs = lhs.trim();
        let name = lhs.split('[').next().unwrap().to_string();
        let inner = |s: &str| -> Vec<String> {
            let a = s.find('[').unwrap() + 1;
            let b = s.rfind(']').unwrap();
            s[a..b]
                .split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        };
        m.insert(name, (inner(lhs), inner(rhs.trim())));
    }
    m
}

/// Enumerates all instances for small parameter values and checks that our
/// schedule and the reference schedule order them identically.
fn check_schedule_order(p: &str, scop: &scop::Scop, reference: &str) {
    let refs = parse_sched(reference);
    let params: BTreeMap<String, i64> = scop
        .params
        .iter()
        .enumerate()
        .map(|(k, n)| (n.clone(), 4 + k as i64))
        .collect();
    let mut instances = Vec::new();
    for s in &scop.statements {
        let n = s.iterators.len();
        let mut point = vec![0i64; n];
        let bound = 8i64;
        'outer: loop {
            let val = |name: &str| {
                params
                    .get(name)
                    .copied()
                    .or_else(|| s.iterators.iter().position(|x| x == name).map(|k| point[k]))
            };
            if s.domain.eval(&val) == Some(true) {
                instances.push((s.clone(), point.clone()));
            }
            let mut k = n;
            loop {
                if k == 0 {
                    break 'outer;
                }
                k -= 1;
                point[k] += 1;
                if point[k] <= bound {
                    break;
                }
                point[k] = -1;
            }
        }
    }
    let ours = |(s, pt): &(scop::model::Statement, Vec<i64>)| -> Vec<i64> {
        s.schedule
            .iter()
            .map(|d| match d {
                scop::model::SchedDim::Const(c) => *c,
                scop::model::SchedDim::Iter(v, k) => {
                    k * pt[s.iterators.iter().position(|x| x == v).unwrap()]
                }
            })
            .collect()
    };
    let theirs = |(s, pt): &(scop::model::Statement, Vec<i64>)| -> Vec<i64> {
        let (iters, dims) = &refs[&s.name];
        dims.iter()
            .map(|d| match d.parse::<i64>() {
                Ok(c) => c,
                Err(_) => pt[iters.iter().position(|x| x == d).expect("plain iterator")],
            })
            .collect()
    };
    assert!(!instances.is_empty(), "{p}: no instances enumerated");
    for a in &instances {
        for b in &instances {
            assert_eq!(
                ours(a).cmp(&ours(b)),
                theirs(a).cmp(&theirs(b)),
                "{p}: order of {}{:?} and {}{:?}",
                a.0.name,
                a.1,
                b.0.name,
                b.1
            );
        }
    }
}

#[test]
fn own_kernels_build_and_print() {
    for path in common::c_files(&common::own_dir()) {
        let p = path.display().to_string();
        let json =
            scop::scop_command(std::slice::from_ref(&p)).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(json.contains("\"domain\":"), "{p}");
        let scop = scop::build_scop(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (k, s) in scop.statements.iter().enumerate() {
            assert_eq!(s.name, format!("S{k}"));
            assert!(s
                .accesses
                .iter()
                .any(|a| a.kind == scop::model::AccessKind::MustWrite));
        }
    }
}
