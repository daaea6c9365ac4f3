//! The kernels' stated expectations (`expect-context`, `compare-within`,
//! `expect-assumed`, `expect-invalid`, answered with isl by
//! `../shared/assumptions/check.py`) compared with our answers by the
//! engine, as the checker does: the context covers the region, and on it
//! `assumed ∖ invalid` and the split into the two are the expected ones.

use presburger::Set;

fn expectation(src: &str, key: &str) -> Option<Set> {
    let line = src
        .lines()
        .find_map(|l| l.trim().strip_prefix(&format!("// {key}:")))?;
    Some(line.trim().parse().unwrap_or_else(|e| panic!("{key}: {e}")))
}

fn check(path: &std::path::Path) {
    let src = std::fs::read_to_string(path).unwrap();
    let scop = scop::build_scop(&src).unwrap();
    let a = assumptions::analyze(&scop, &assumptions::Limits::default()).unwrap();
    let name = path.display();
    let ctx = expectation(&src, "expect-context").unwrap_or_else(|| a.context.clone());
    let r = match expectation(&src, "compare-within") {
        Some(w) => ctx.intersect(&w).unwrap(),
        None => ctx,
    };
    let (ae, ie) = (
        expectation(&src, "expect-assumed").unwrap(),
        expectation(&src, "expect-invalid").unwrap(),
    );
    assert!(r.is_subset(&a.context).unwrap(), "{name}: context");
    let on = |s: &Set, region: &Set| s.intersect(region).unwrap();
    let (vc, ve) = (
        a.assumed.subtract(&a.invalid).unwrap(),
        ae.subtract(&ie).unwrap(),
    );
    assert!(
        on(&vc, &r).is_equal(&on(&ve, &r)).unwrap(),
        "{name}: assumed and not invalid: {vc} vs {ve}"
    );
    let ra = r.subtract(&ie).unwrap();
    assert!(
        on(&a.assumed, &ra).is_equal(&on(&ae, &ra)).unwrap(),
        "{name}: assumed {}",
        a.assumed
    );
    let ri = r.intersect(&ae).unwrap();
    assert!(
        on(&a.invalid, &ri).is_equal(&on(&ie, &ri)).unwrap(),
        "{name}: invalid {}",
        a.invalid
    );
}

#[test]
fn own_kernels_meet_their_expectations() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        check(&e.unwrap().path());
        n += 1;
    }
    assert!(n >= 9);
}

#[test]
fn shared_kernels_meet_their_expectations() {
    let Some(dir) = testkit::shared_path("assumptions") else {
        eprintln!("note: ../shared/assumptions missing; skipped");
        return;
    };
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "c") {
            check(&p);
        }
    }
}
