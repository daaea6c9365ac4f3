//! The engine-built [`scop::Model`] is semantically equal to the text model
//! printed by the front end's own isl printer (kept as the oracle): for every
//! kernel (shared and own), every relation is compared with `is_equal`.

mod common;

use presburger::UnionMap;

fn parse(text: &str, what: &str) -> UnionMap {
    text.parse()
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))
}

fn same(name: &str, what: &str, ours: &UnionMap, text: &str) {
    let theirs = parse(text, what);
    assert!(
        ours.is_equal(&theirs).unwrap(),
        "{name}: {what} differs\n model: {ours}\n text:  {text}"
    );
}

#[test]
fn model_equals_text_model_on_every_kernel() {
    let kernels = common::all_kernels();
    assert!(!kernels.is_empty());
    for path in kernels {
        let name = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let scop = scop::build_scop(&src).unwrap();
        let model = scop::Model::from_scop(&scop).unwrap();
        let t = scop.texts();
        same(
            &name,
            "context",
            &UnionMap::from_map(model.context().clone()),
            &t.context,
        );
        same(&name, "domain", model.domain(), &t.domain);
        same(&name, "schedule", model.schedule(), &t.schedule);
        same(&name, "read", model.reads(), &t.read);
        same(&name, "must_write", model.must_writes(), &t.must_write);
        same(&name, "may_write", model.may_writes(), &t.may_write);
        same(&name, "tagged_read", model.tagged_reads(), &t.tagged_read);
        same(
            &name,
            "tagged_must_write",
            model.tagged_must_writes(),
            &t.tagged_must_write,
        );
        same(
            &name,
            "tagged_may_write",
            model.tagged_may_writes(),
            &t.tagged_may_write,
        );
        assert!(model.kills().is_empty().unwrap());
        assert!(model.conditional_writes().is_empty().unwrap());
        for (a, b) in model.arrays().iter().zip(&scop.arrays) {
            let ext = UnionMap::from_map(a.extent.clone());
            same(&name, "extent", &ext, &scop.array_extent_text(b));
        }
        // per statement and per access
        assert_eq!(model.statements().len(), scop.statements.len());
        for (s, o) in model.statements().iter().zip(&scop.statements) {
            assert_eq!(s.name, o.name);
            assert_eq!(s.iterators, o.iterators);
            assert_eq!(s.body, o.body);
            assert_eq!(s.accesses.len(), o.accesses.len());
            for (&k, oa) in s.accesses.iter().zip(&o.accesses) {
                let a = &model.accesses()[k];
                assert_eq!((&a.tag, a.kind, &a.array), (&oa.ref_id, oa.kind, &oa.array));
                assert_eq!(model.statement_of(a).name, s.name);
            }
        }
        // the model's printed text parses back to the same relations
        let json = model.to_json().pretty();
        for (key, rel) in [
            ("domain", model.domain()),
            ("read", model.reads()),
            ("must_write", model.must_writes()),
            ("tagged_read", model.tagged_reads()),
            ("schedule", model.schedule()),
        ] {
            same(&name, key, rel, &common::json_str(&json, key).unwrap());
        }
        for line in model.to_string().lines().skip(1) {
            let (key, text) = line.split_once(" := ").unwrap();
            let text = text.trim_end_matches(';');
            parse(text, key);
        }
    }
}

#[test]
fn model_of_a_small_kernel() {
    let src = "void k(int N, double A[N], double s) {\n  for (int i = 0; i < N; i += 2)\n    s += A[i / 2];\n}";
    let m = scop::Model::from_source(src).unwrap();
    let u = |t: &str| parse(t, t);
    assert!(m
        .reads()
        .is_equal(&u("[N] -> { S0[i] -> s[] : 0 <= i < N and i mod 2 = 0; S0[i] -> A[floor(i/2)] : 0 <= i < N and i mod 2 = 0 }"))
        .unwrap());
    assert!(m
        .tagged_must_writes()
        .is_equal(&u(
            "[N] -> { [S0[i] -> R0[]] -> s[] : 0 <= i < N and i mod 2 = 0 }"
        ))
        .unwrap());
    assert!(m
        .context()
        .is_equal(&"[N] -> { : N >= 0 }".parse().unwrap())
        .unwrap());
    let s = &m.statements()[0];
    assert_eq!(s.pos.line, 3);
    assert_eq!(
        m.arrays()
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        ["A", "s"]
    );
}

#[test]
fn with_schedule_checks_and_replaces() {
    let src = "void k(int N, double A[N], double B[N]) {\n  for (int i = 0; i < N; i++)\n    A[i] = 1;\n  for (int j = 0; j < N; j++)\n    B[j] = A[j];\n}";
    let m = scop::Model::from_source(src).unwrap();
    let fused = parse("[N] -> { S0[i] -> [i, 0]; S1[j] -> [j, 1] }", "fused");
    let f = m.with_schedule(fused.clone()).unwrap();
    assert!(f.schedule().is_equal(&fused).unwrap());
    assert!(f.statements()[1]
        .schedule
        .is_equal(&"[N] -> { S1[j] -> [j, 1] }".parse().unwrap())
        .unwrap());
    // the rest of the model is unchanged
    assert!(f.reads().is_equal(m.reads()).unwrap());
    // the JSON shows the new schedule
    let json = f.to_json().pretty();
    let shown = parse(&common::json_str(&json, "schedule").unwrap(), "schedule");
    assert!(shown.is_equal(&fused).unwrap());
    // not every statement, a foreign statement, a wrong arity, two time spaces
    for bad in [
        "[N] -> { S0[i] -> [i] }",
        "[N] -> { S0[i] -> [i]; S1[j] -> [j]; S2[k] -> [k] }",
        "[N] -> { S0[i, k] -> [i]; S1[j] -> [j] }",
        "[N] -> { S0[i] -> [i]; S0[i] -> [i, 0]; S1[j] -> [j] }",
    ] {
        assert!(m.with_schedule(parse(bad, bad)).is_err(), "{bad}");
    }
}

#[test]
fn fixing_parameters_restricts_every_relation() {
    for path in common::all_kernels() {
        let name = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let m = scop::Model::from_source(&src).unwrap();
        let values = common::param_values(&src);
        let fixed = m.with_param_values(&values).unwrap();
        let cond: Vec<String> = values.iter().map(|(p, v)| format!("{p} = {v}")).collect();
        let pset: presburger::Set = format!(
            "[{}] -> {{ : {} }}",
            m.params().join(", "),
            cond.join(" and ")
        )
        .parse()
        .unwrap();
        let check = |what: &str, a: &presburger::Map, b: &presburger::Map| {
            let want = b.intersect_params(&pset).unwrap();
            assert!(
                a.is_equal(&want).unwrap(),
                "{name}: {what}\n got  {a}\n want {want}"
            );
        };
        check("context", fixed.context(), m.context());
        for (s, o) in fixed.statements().iter().zip(m.statements()) {
            check(&s.name, &s.domain, &o.domain);
        }
        for (a, o) in fixed.accesses().iter().zip(m.accesses()) {
            check(&a.tag, &a.relation, &o.relation);
            check(&a.tag, &a.tagged, &o.tagged);
        }
        for (a, o) in fixed.arrays().iter().zip(m.arrays()) {
            check(&a.name, &a.extent, &o.extent);
        }
        // the derived unions follow
        assert!(fixed.reads().is_subset(m.reads()).unwrap());
        let n: usize = fixed.statements().iter().map(|s| s.accesses.len()).sum();
        assert_eq!(n, fixed.accesses().len());
    }
}
