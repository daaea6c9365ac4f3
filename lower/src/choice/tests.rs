//! The choice's rules checked on every kernel against their slow forms.

use super::*;

fn kernel_paths() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = ["../../shared/kernels", "../scop/tests/kernels"]
        .iter()
        .filter_map(|d| {
            // (issue 21) under CI a missing shared folder is a failure, not a skip
            let ci = matches!(std::env::var("CI").as_deref(), Ok("true" | "1"));
            assert!(
                root.join(d).exists() || !ci,
                "{d} is missing, and CI is set"
            );
            std::fs::read_dir(root.join(d)).ok()
        })
        .flatten()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    paths
}

/// Every kernel's path, parsed function and model.
fn kernels() -> Vec<(std::path::PathBuf, scop::ast::Function, scop::Model)> {
    kernel_paths()
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            let function = scop::parse_kernel(&src).unwrap();
            let scop = scop::build_from_ast(&function).unwrap();
            let model = scop::Model::from_scop(&scop).unwrap();
            (p, function, model)
        })
        .collect()
}

#[test]
fn coverage_agrees_with_every_dimension_tested() {
    // the original schedule and the scheduler's (where it finishes) of
    // every kernel: the outer dimension alone, with shared time
    // differences, against all dimensions per nest
    let mut compared = 0;
    for (p, _, model) in kernels() {
        let deps = crate::parallel::dependences(&model).unwrap();
        let mut schedules = vec![original_schedule(&model).unwrap()];
        if let Ok(t) = computed(&model, &deps, Some(2_000_000), false) {
            schedules.push(checked_schedule(&model, &deps, &t).unwrap());
        }
        for s in schedules {
            let loops = crate::pipeline::loops(&model, &s).unwrap();
            assert_eq!(
                coverage(&deps, &s, &loops, &mut Default::default()),
                coverage_reference(&deps, &s, &loops),
                "{p:?}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 13, "{compared}");
}

#[test]
fn the_parallel_test_of_one_dimension_agrees_with_every_dimension_tested() {
    // `Front::parallel_in` (the times cut after the dimension asked,
    // answers cached per statements and dimension) against
    // `parallel_dims_of` (every dimension of the full times) on every
    // top-level nest of every kernel, under the original schedule and
    // the automatic choice for two threads (which fuses nothing)
    let (mut compared, mut parallel) = (0, 0);
    for p in kernel_paths() {
        let src = std::fs::read_to_string(&p).unwrap();
        for policy in [Policy::Original, Policy::Auto] {
            let front = crate::pipeline::front_for(&src, policy, 2).unwrap();
            assert!(front.schedule.fused.is_none(), "{p:?}");
            // the versioning's model is the front end's
            assert_eq!(
                front.scop().unwrap(),
                &scop::build_from_ast(&front.function).unwrap()
            );
            let (_, loops) = crate::pipeline::kernel_and_loops(&front).unwrap();
            let deps = front.dependences().unwrap().clone();
            for n in crate::function::top_level(&loops) {
                let mut st = Vec::new();
                crate::function::statements_of(&n, &mut st);
                st.sort();
                st.dedup();
                let all = crate::parallel::parallel_dims_of(&deps, &front.schedule.map, Some(&st))
                    .unwrap();
                for l in 0..=all.len() {
                    let want = all.get(l) == Some(&true);
                    assert_eq!(front.parallel_in(&n, l), want, "{p:?} {st:?} {l}");
                    // and again, from the cache
                    assert_eq!(front.parallel_in(&n, l), want, "{p:?} {st:?} {l}");
                    compared += 1;
                    parallel += want as usize;
                }
            }
        }
    }
    assert!(compared >= 100 && parallel >= 20, "{compared} {parallel}");
}

#[test]
fn the_coverage_bound_skips_only_hopeless_scheduler_runs() {
    // where the bound skips the scheduler, the scheduler run without
    // work limit ends with the original schedule too; elsewhere the
    // bound is at least the coverage the scheduler's schedule reaches
    let mut skipped = 0;
    for (p, function, model) in kernels() {
        let cell = std::cell::OnceCell::new();
        let fast = choose_bounded(
            &function,
            &model,
            Policy::Auto,
            1,
            (&cell, &Default::default()),
            None,
            true,
        )
        .unwrap();
        let slow = choose_bounded(
            &function,
            &model,
            Policy::Auto,
            1,
            (&cell, &Default::default()),
            None,
            false,
        )
        .unwrap();
        assert_eq!(
            fast.origin, slow.origin,
            "{p:?}: {} / {}",
            fast.reason, slow.reason
        );
        assert!(same_map(&fast.map, &slow.map), "{p:?}");
        if fast.reason != slow.reason {
            assert!(fast.reason.starts_with("no schedule puts more"), "{p:?}");
            skipped += 1;
        }
        let deps = cell.get().unwrap();
        let (names, dims) = super::statement_shapes(&model);
        let never = crate::coverable::never_covered(deps, &names, &dims, names.len())
            .unwrap()
            .unwrap();
        let most = names.len() - never.len();
        assert!(crate::coverable::covers_at_most(deps, &names, &dims, most).unwrap());
        if most > 0 {
            assert!(!crate::coverable::covers_at_most(deps, &names, &dims, most - 1).unwrap());
        }
        if let Ok(t) = computed(&model, deps, None, false) {
            let s = checked_schedule(&model, deps, &t).unwrap();
            let loops = crate::pipeline::loops(&model, &s).unwrap();
            let cov = coverage(deps, &s, &loops, &mut Default::default());
            assert!(cov <= most, "{p:?}: {cov} > {most}");
        }
    }
    eprintln!("{skipped} scheduler runs skipped");
}

#[test]
fn the_scheduler_stops_early_only_where_its_outer_loops_are_not_parallel() {
    // the run that stops once the tree is known to have no parallel
    // outer loop, against the full run (no work limit) on every kernel
    let mut stopped = 0;
    for (p, _, model) in kernels() {
        let deps = crate::parallel::dependences(&model).unwrap();
        let full = computed(&model, &deps, None, false);
        match computed(&model, &deps, None, true) {
            Err(Error::Scheduler(scheduler::Error::NoOuterParallel)) => {
                assert!(!full.unwrap().outer_coincident(), "{p:?}");
                stopped += 1;
            }
            r => assert_eq!(
                r.map(|t| t.to_string()).ok(),
                full.map(|t| t.to_string()).ok(),
                "{p:?}"
            ),
        }
    }
    assert!(stopped >= 5, "{stopped}");
}

/// Rule 4 as session 17 wrote it: the candidate that gains, compiled
/// beside the original, kept when its code is no worse by the
/// measures of rule 3 (the oracle of [`crate::fuse::keeps_inner_loops`]).
fn fusion_by_compiled_code(
    f: &scop::ast::Function,
    model: &scop::Model,
    deps: &UnionMap,
) -> Option<crate::fuse::Fusion> {
    let fu = crate::fuse::fused(model, deps, Some(FUSION_GAIN), false).unwrap()?;
    if !crate::parallel::respects(model, deps, &fu.map).unwrap() {
        return None;
    }
    let orig_loops = crate::pipeline::loops(model, &original_schedule(model).unwrap()).unwrap();
    let loops = crate::pipeline::loops(model, &fu.map).unwrap();
    let k = Kernel::new(f, model).unwrap();
    let a = crate::function::compile(&k, &orig_loops).unwrap();
    let b = crate::function::compile(&k, &loops).unwrap();
    let (qa, qb) = (quality(&a.notes), quality(&b.notes));
    (qb.fast >= qa.fast && qb.strided <= qa.strided && b.strided <= a.strided).then_some(fu)
}

#[test]
fn the_fusion_proxy_agrees_with_the_compiled_code() {
    // on every kernel, the candidate the choice takes on one thread
    // (gain, inner loops kept by the statements' shape, dependences
    // respected) is the one whose compiled code is no worse than the
    // original's, and the choice at more threads keeps the original
    let (mut candidates, mut taken) = (0, 0);
    for (p, function, model) in kernels() {
        let deps = crate::parallel::dependences(&model).unwrap();
        if crate::fuse::fused(&model, &deps, Some(FUSION_GAIN), false)
            .unwrap()
            .is_some()
        {
            candidates += 1;
        }
        let want = fusion_by_compiled_code(&function, &model, &deps);
        let one = choose_for(&function, &model, Policy::Auto, 1).unwrap();
        assert_eq!(
            one.origin == Origin::Fused,
            want.is_some(),
            "{p:?}: {}",
            one.reason
        );
        if let Some(w) = want {
            taken += 1;
            assert!(same_map(&one.map, &w.map), "{p:?}");
            for threads in [2, 3] {
                let many = choose_for(&function, &model, Policy::Auto, threads).unwrap();
                assert_eq!(many.origin, Origin::Original, "{p:?}: {}", many.reason);
                assert!(many.reason.contains("fused for one thread only"), "{p:?}");
            }
        }
    }
    // fdtd_2d, heat_3d taken; cholesky, jacobi_1d gain but lose a
    // vector loop
    assert!(candidates >= 4, "{candidates}");
    assert!(taken >= 2, "{taken}");
}

fn same_map(a: &UnionMap, b: &UnionMap) -> bool {
    a.to_string() == b.to_string()
}
