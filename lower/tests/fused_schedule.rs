//! Shifted fusion of sibling nests (`lower::Policy::Fused`, the `fuse`
//! module): every kernel with nests to fuse agrees with the interpreter
//! under the fused schedule (one thread and three workers), the shifts are
//! the least legal ones (one row less on any fused statement breaks a
//! dependence), and the automatic choice fuses fdtd-2d's and heat-3d's
//! sweeps for one thread and keeps them apart (parallel) for more.

mod common;
use common::{agree_at_random_sizes, agree_at_sizes, compiled, kernels};

fn fdtd() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels/fdtd_2d.c"),
    )
    .unwrap()
}

#[test]
fn kernels_with_fused_nests_agree_with_the_interpreter() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut fused, mut checked) = (0, 0);
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let Ok(front) = lower::front_with(&src, lower::Policy::Fused) else {
            continue;
        };
        assert_eq!(front.schedule.origin, lower::Origin::Fused, "{name}");
        assert!(lower::respects_dependences(&front.model, &front.schedule.map).unwrap());
        fused += 1;
        let (k, c, pieces) = compiled(&front);
        checked += agree_at_sizes(&front, &(&k, &c, &pieces), &mut seed, 4, (1, 11));
    }
    eprintln!("{fused} kernels fused, {checked} runs compared");
    // fdtd_2d, heat_3d and jacobi_1d at least
    assert!(fused >= 3, "{fused}");
    assert!(checked >= 10, "{checked}");
}

#[test]
fn the_shifts_are_the_least_that_keep_every_dependence() {
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(front) = lower::front_with(&src, lower::Policy::Fused) else {
            continue;
        };
        let fu = front.schedule.fused.clone().unwrap();
        let map = &front.schedule.map;
        for (s, shift) in &fu.shifts {
            // every shift of `s` one row earlier (its loop dimension less
            // one for its instances only) breaks a dependence, unless the
            // shift is already the least there is (0 and no constraint)
            let earlier = shifted(map, s, fu.level, -1);
            let legal = lower::respects_dependences(&front.model, &earlier).unwrap();
            if *shift > 0 {
                assert!(!legal, "{path:?}: {s} one row earlier is legal");
            }
        }
    }
}

/// `map` with statement `s`'s time dimension `level` moved by `by`.
fn shifted(map: &presburger::UnionMap, s: &str, level: usize, by: i64) -> presburger::UnionMap {
    let n = map.maps()[0].space().n_out();
    let dims: Vec<String> = (0..n).map(|j| format!("o{j}")).collect();
    let mut out = dims.clone();
    out[level] = format!("o{level} + ({by})");
    let params = map.params().join(", ");
    let on: presburger::UnionMap = format!(
        "[{params}] -> {{ [{}] -> [{}] }}",
        dims.join(", "),
        out.join(", ")
    )
    .parse()
    .unwrap();
    let mut r = presburger::UnionMap::empty(map.params().to_vec());
    for m in map.maps() {
        let one = presburger::UnionMap::from_map(m.clone());
        let named = m.space().domain.as_ref().and_then(|t| t.name.as_deref()) == Some(s);
        let moved = if named {
            one.apply_range(&on).unwrap()
        } else {
            one
        };
        for x in moved.maps() {
            r.add_map(x.clone()).unwrap();
        }
    }
    r
}

/// The loops of `pieces` that run on the workers (parallel leaves of
/// their nests).
fn parallel_leaves(pieces: &[lower::Piece]) -> usize {
    pieces
        .iter()
        .filter_map(|p| p.nested.as_ref())
        .map(|n| n.leaves.iter().filter(|l| l.parallel).count())
        .sum()
}

#[test]
fn fdtd_2d_fuses_its_three_sweeps_with_hz_one_row_behind() {
    let src = fdtd();
    let f = lower::front_for(&src, lower::Policy::Auto, 1).unwrap();
    assert_eq!(
        f.schedule.origin,
        lower::Origin::Fused,
        "{}",
        f.schedule.reason
    );
    let fu = f.schedule.fused.clone().unwrap();
    assert_eq!(
        fu.shifts,
        vec![("S1".into(), 0), ("S2".into(), 0), ("S3".into(), 1)]
    );
    // 3 arrays swept per time step instead of 7
    assert!(
        f.schedule.reason.contains("3 arrays"),
        "{}",
        f.schedule.reason
    );
    // unshifted fusion breaks a dependence (hz's row i reads ey[i+1])
    let flat = shifted(&f.schedule.map, "S3", fu.level, -1);
    assert!(!lower::respects_dependences(&f.model, &flat).unwrap());
    // the rows inside the fused loop run on one thread, the row of S0
    // (outside it) may run on the workers
    let (k, c, pieces) = compiled(&f);
    assert_eq!(parallel_leaves(&pieces), 1);
    agree_at_random_sizes(&f, &(k, c, pieces), 0x9e37_79b9_7f4a_7c15, 9);
}

#[test]
fn a_sequence_without_shared_arrays_is_not_fused() {
    // two sweeps under a time loop that share no array: fusing them sweeps
    // as many arrays (the legality alone would allow it)
    let src = "void two(int T, int N, double A[N][N], double B[N][N]) {
      for (int t = 0; t < T; t++) {
        for (int i = 0; i < N; i++)
          for (int j = 0; j < N; j++)
            A[i][j] = A[i][j] * 0.5;
        for (int i = 0; i < N; i++)
          for (int j = 0; j < N; j++)
            B[i][j] = B[i][j] + 1.0;
      }
    }";
    let forced = lower::front_with(src, lower::Policy::Fused).unwrap();
    assert_eq!(forced.schedule.origin, lower::Origin::Fused);
    let f = lower::front_for(src, lower::Policy::Auto, 1).unwrap();
    assert_ne!(
        f.schedule.origin,
        lower::Origin::Fused,
        "{}",
        f.schedule.reason
    );
}

#[test]
fn sweeps_are_fused_for_one_thread_and_stay_parallel_for_more() {
    // the automatic choice for 1 thread fuses the sweeps of fdtd-2d and
    // heat-3d (their loops then run on one thread); for 2 or 4 it keeps
    // the original, whose sweeps are parallel loops inside the time loop;
    // each choice agrees with the interpreter, on one thread and on three
    // workers
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scop/tests/kernels");
    let mut seed: u64 = 0x6a09_e667_f3bc_c908;
    for name in ["fdtd_2d", "heat_3d"] {
        let src = std::fs::read_to_string(root.join(format!("{name}.c"))).unwrap();
        let one = lower::front_for(&src, lower::Policy::Auto, 1).unwrap();
        assert_eq!(
            one.schedule.origin,
            lower::Origin::Fused,
            "{name}: {}",
            one.schedule.reason
        );
        let fused = compiled(&one);
        let fused_parallel = parallel_leaves(&fused.2);
        assert!(agree_at_sizes(&one, &(&fused.0, &fused.1, &fused.2), &mut seed, 12, (1, 9)) >= 6);
        for threads in [2, 4] {
            let many = lower::front_for(&src, lower::Policy::Auto, threads).unwrap();
            assert_eq!(
                many.schedule.origin,
                lower::Origin::Original,
                "{name} on {threads}: {}",
                many.schedule.reason
            );
            assert!(lower::respects_dependences(&many.model, &many.schedule.map).unwrap());
            let apart = compiled(&many);
            // every sweep is a parallel loop apart, fewer are fused
            assert!(
                parallel_leaves(&apart.2) > fused_parallel,
                "{name}: {} vs {fused_parallel}",
                parallel_leaves(&apart.2)
            );
            assert!(
                agree_at_sizes(
                    &many,
                    &(&apart.0, &apart.1, &apart.2),
                    &mut seed,
                    12,
                    (1, 9)
                ) >= 6
            );
        }
    }
}
