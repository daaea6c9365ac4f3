//! The engine-built [`scop::Model`] against an independent oracle: the front
//! end's formulas and affine expressions evaluated directly, point by point
//! (brute force over a box, with `testkit::oracle`'s membership), on every
//! kernel (shared and own); and its printed text (JSON and iscc script)
//! reads back as the same relations.

mod common;

use presburger::{Int, Map, UnionMap};
use scop::model::{AccessKind, SchedDim};
use testkit::oracle::contains;

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

/// All points of `[lo, hi]^n` (testkit's box), as machine integers.
fn box_points(n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    testkit::oracle::box_points(n, lo, hi)
        .iter()
        .map(|p| p.iter().map(|v| v.to_i64().unwrap()).collect())
        .collect()
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// The union of some maps, as a union map over `params`.
fn union_of<'a>(params: &[String], maps: impl Iterator<Item = &'a Map>) -> UnionMap {
    let mut u = UnionMap::empty(params.to_vec());
    for m in maps {
        u.add_map(m.clone()).unwrap();
    }
    u
}

#[test]
fn model_agrees_with_the_formulas_point_by_point() {
    let kernels = common::all_kernels();
    assert!(!kernels.is_empty());
    let mut instances = 0;
    for path in kernels {
        let name = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let scop = scop::build_scop(&src).unwrap();
        let model = scop::Model::from_scop(&scop).unwrap();
        let np = scop.params.len();
        // the context over a box of parameter values
        for p in box_points(np, -2, 2) {
            let val = |n: &str| scop.params.iter().position(|x| x == n).map(|k| p[k]);
            assert_eq!(
                contains(model.context(), &ints(&p)),
                scop.context.eval(&val) == Some(true),
                "{name}: context at {p:?}"
            );
        }
        // every parameter 4 (time steps 2), iterators over [-1, 5]
        let params: Vec<i64> = scop
            .params
            .iter()
            .map(|n| if n.starts_with('T') { 2 } else { 4 })
            .collect();
        for (s, o) in model.statements().iter().zip(&scop.statements) {
            assert_eq!(
                (&s.name, &s.iterators, &s.body),
                (&o.name, &o.iterators, &o.body)
            );
            assert_eq!(s.accesses.len(), o.accesses.len());
            assert!(
                s.schedule.is_single_valued().unwrap(),
                "{name}: {} schedule",
                s.name
            );
            for x in box_points(s.iterators.len(), -1, 5) {
                let val = |n: &str| {
                    scop.params
                        .iter()
                        .position(|p| p == n)
                        .map(|k| params[k])
                        .or_else(|| s.iterators.iter().position(|i| i == n).map(|k| x[k]))
                };
                let point: Vec<i64> = params.iter().chain(&x).copied().collect();
                let inside = o.domain.eval(&val) == Some(true);
                instances += usize::from(inside);
                assert_eq!(
                    contains(&s.domain, &ints(&point)),
                    inside,
                    "{name}: {} at {x:?}",
                    s.name
                );
                // the schedule maps the instance to its time
                let time: Vec<i64> = o
                    .schedule
                    .iter()
                    .map(|d| match d {
                        SchedDim::Const(c) => *c,
                        SchedDim::Iter(v, k) => k * val(v).unwrap(),
                    })
                    .collect();
                let at: Vec<i64> = point.iter().chain(&time).copied().collect();
                assert!(
                    contains(&s.schedule, &ints(&at)),
                    "{name}: {} time of {x:?}",
                    s.name
                );
                // each access: the instance reaches exactly its element
                for (&k, oa) in s.accesses.iter().zip(&o.accesses) {
                    let a = &model.accesses()[k];
                    assert_eq!((&a.tag, a.kind, &a.array), (&oa.ref_id, oa.kind, &oa.array));
                    assert_eq!(model.statement_of(a).name, s.name);
                    let idx: Vec<i64> = oa.index.iter().map(|e| e.eval(&val).unwrap()).collect();
                    for (rel, what) in [(&a.relation, "access"), (&a.tagged, "tagged access")] {
                        let at: Vec<i64> = point.iter().chain(&idx).copied().collect();
                        assert_eq!(
                            contains(rel, &ints(&at)),
                            inside,
                            "{name}: {what} {} of {x:?}",
                            a.tag
                        );
                        for d in 0..idx.len() {
                            let mut off = at.clone();
                            off[point.len() + d] += 1;
                            assert!(
                                !contains(rel, &ints(&off)),
                                "{name}: {what} {} of {x:?} too wide",
                                a.tag
                            );
                        }
                    }
                }
            }
        }
        // the array extents
        for (a, o) in model.arrays().iter().zip(&scop.arrays) {
            assert_eq!(a.name, o.name);
            let pval = |n: &str| scop.params.iter().position(|p| p == n).map(|k| params[k]);
            let sizes: Vec<i64> = o.dims.iter().map(|d| d.eval(&pval).unwrap()).collect();
            for x in box_points(sizes.len(), -1, 5) {
                let point: Vec<i64> = params.iter().chain(&x).copied().collect();
                let inside = x.iter().zip(&sizes).all(|(v, n)| 0 <= *v && v < n);
                assert_eq!(
                    contains(&a.extent, &ints(&point)),
                    inside,
                    "{name}: extent of {} at {x:?}",
                    a.name
                );
            }
        }
        // the union relations are the unions of the parts
        let of_kind = |kinds: &[AccessKind], tagged: bool| {
            union_of(
                &scop.params,
                model
                    .accesses()
                    .iter()
                    .filter(|a| kinds.contains(&a.kind))
                    .map(|a| if tagged { &a.tagged } else { &a.relation }),
            )
        };
        let writes = [AccessKind::MustWrite, AccessKind::MayWrite];
        for (what, ours, want) in [
            (
                "domain",
                model.domain(),
                union_of(&scop.params, model.statements().iter().map(|s| &s.domain)),
            ),
            (
                "schedule",
                model.schedule(),
                union_of(&scop.params, model.statements().iter().map(|s| &s.schedule)),
            ),
            ("read", model.reads(), of_kind(&[AccessKind::Read], false)),
            (
                "must_write",
                model.must_writes(),
                of_kind(&[AccessKind::MustWrite], false),
            ),
            ("may_write", model.may_writes(), of_kind(&writes, false)),
            (
                "tagged_read",
                model.tagged_reads(),
                of_kind(&[AccessKind::Read], true),
            ),
            (
                "tagged_must_write",
                model.tagged_must_writes(),
                of_kind(&[AccessKind::MustWrite], true),
            ),
            (
                "tagged_may_write",
                model.tagged_may_writes(),
                of_kind(&writes, true),
            ),
        ] {
            assert!(
                ours.is_equal(&want).unwrap(),
                "{name}: {what}\n {ours}\n {want}"
            );
        }
        assert!(model.kills().is_empty().unwrap());
        assert!(model.conditional_writes().is_empty().unwrap());
        assert_eq!(model.statements().len(), scop.statements.len());
        // the model's printed text parses back to the same relations
        let json = model.to_json().pretty();
        let context = UnionMap::from_map(model.context().clone());
        for (key, rel) in [
            ("context", &context),
            ("domain", model.domain()),
            ("read", model.reads()),
            ("must_write", model.must_writes()),
            ("may_write", model.may_writes()),
            ("tagged_read", model.tagged_reads()),
            ("tagged_must_write", model.tagged_must_writes()),
            ("tagged_may_write", model.tagged_may_writes()),
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
    assert!(instances > 1000, "only {instances} instances checked");
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
