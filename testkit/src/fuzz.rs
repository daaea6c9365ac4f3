//! Bodies of the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`), as plain
//! functions: each panics exactly when it finds a bug, so the fuzzer reports
//! it and `cargo test` can replay a stored corpus ([`corpus`], [`replay`]):
//! `testkit/tests/fuzz_corpus.rs` for the engine targets, `calc/tests/calc.rs`
//! for `calc`.
//!
//! The `calc` body takes the calculator as an argument: the calculator is
//! the `calc` crate, which sits above testkit (its own tests and the fuzz
//! target pass `calc::run_script` in).
//!
//! Engine calls run under an operation budget; running out of budget is not
//! a bug and ends the check early.

use presburger::{budget, Error, Map, UnionMap};

use crate::gen::{generate, Bytes, Shape};
use crate::oracle::{self, Universe};

mod interp;
pub use interp::{
    interp, interp_checks, model_is_exact, param_points, INTERP_BUDGET, INTERP_INPUT_BUDGET,
};

/// Work budget (operation-budget ticks) for one engine call in the
/// semantic bodies (`parse_roundtrip`'s equality, each operation of
/// `brute_force`, `lexopt` and `simplify`). Small on purpose: the fuzzer is
/// after panics and wrong answers, not deep computation, and an input that
/// runs out of budget is cheap and skipped (issue 23: 200,000 ticks let one
/// input run for a second). About nine in ten inputs of a grown corpus
/// still finish every check within it (fuzz/README.md, "Cost per input").
pub const BUDGET: u64 = 10_000;

/// Budget of a whole `calc` script (all its statements together).
pub const CALC_BUDGET: u64 = 10_000;

/// Budget of `set_identities`' chain of operations (subtract, complement
/// twice, equalities, sample, lexmin, projection) on one input.
pub const CHAIN_BUDGET: u64 = 50_000;

/// Budget of the front ends' work on one input (`c_kernel`'s and `interp`'s model,
/// `schedule_constraints`' scheduling, `codegen_input`'s generation).
pub const FRONT_END_BUDGET: u64 = 2_000_000;

/// Budget of one brute-force schedule check (`scheduler::check::verify` at
/// one parameter value) in `schedule_constraints`: the check enumerates
/// points and tests emptiness at each, which a big budget let run for
/// seconds on inputs with huge constants.
pub const VERIFY_BUDGET: u64 = 20_000;

/// Names of the targets (the files of `fuzz/fuzz_targets/`).
pub const TARGETS: [&str; 10] = [
    "parse_roundtrip",
    "calc",
    "set_identities",
    "brute_force",
    "lexopt",
    "simplify",
    "c_kernel",
    "interp",
    "schedule_constraints",
    "codegen_input",
];

/// The targets whose body needs nothing but the engine ([`run`] runs them).
pub const ENGINE_TARGETS: [&str; 5] = [
    "parse_roundtrip",
    "set_identities",
    "brute_force",
    "lexopt",
    "simplify",
];

/// Run the target `name` (any of [`TARGETS`] but `calc`) on one input.
///
/// # Panics
/// When the body finds a bug, and for `calc` or an unknown name.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "parse_roundtrip" => parse_roundtrip(data),
        "set_identities" => set_identities(data),
        "brute_force" => brute_force(data),
        "lexopt" => lexopt(data),
        "simplify" => simplify(data),
        "c_kernel" => c_kernel(data),
        "interp" => interp(data),
        "schedule_constraints" => schedule_constraints(data),
        "codegen_input" => codegen_input(data),
        _ => panic!("{name} is not an engine fuzz target (calc needs the calculator: see calc)"),
    }
}

/// The stored corpus of `target` (`fuzz/corpus/<target>/*`): file names and
/// contents, sorted by name.
pub fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = crate::workspace_dir().join("fuzz/corpus").join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                std::fs::read(&p).expect("readable corpus file"),
            )
        })
        .collect();
    files.sort();
    files
}

/// Replay the stored corpus of `target` through `body`: at least 10 seeds
/// must be stored, and a panic names the seed that caused it.
pub fn replay(target: &str, body: impl Fn(&[u8]) + std::panic::RefUnwindSafe) {
    let files = corpus(target);
    assert!(
        files.len() >= 10,
        "fuzz/corpus/{target} should hold at least 10 seeds, has {}",
        files.len()
    );
    for (name, data) in &files {
        let r = std::panic::catch_unwind(|| body(data));
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!(
                "fuzz target {target} fails on fuzz/corpus/{target}/{name}: {}",
                msg.unwrap_or_default()
            );
        }
    }
}

/// isl notation: parsing never panics, and for text that parses,
/// `print ∘ parse` is a fixed point (the printed text re-parses, to an equal
/// set, and prints the same), except that parsing the printed text may
/// refute a disjunct that the first parse kept (parsing refutes by cheap
/// tests only); then the second print has fewer disjuncts and is a fixed
/// point.
pub fn parse_roundtrip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 2000 {
        return;
    }
    let Ok(u) = text.parse::<UnionMap>() else {
        return;
    };
    let p1 = u.to_string();
    let u2: UnionMap = match p1.parse() {
        Ok(u2) => u2,
        Err(e) => panic!("printed form of {text:?} does not re-parse: {p1:?}: {e}"),
    };
    let p2 = u2.to_string();
    if p1 != p2 {
        // Parsing refutes a disjunct only by cheap tests (no integer
        // programming), which can succeed on the printed form (explicit
        // divisions) and not on the text as written (session 8's finding: an
        // empty disjunct with 23-digit strides). Then the second print has
        // fewer disjuncts and must itself be a fixed point; the sets are
        // compared below.
        assert!(
            disjuncts(&u2) < disjuncts(&u),
            "print(parse(print(parse(s)))) differs from print(parse(s)) for {text:?}:\n{p1}\n{p2}"
        );
        let p3 = p2
            .parse::<UnionMap>()
            .unwrap_or_else(|e| panic!("printed form {p2:?} does not re-parse: {e}"))
            .to_string();
        assert_eq!(
            p2, p3,
            "printing is not a fixed point from the second print on, for {text:?}"
        );
    }
    if let Ok(eq) = budget::with_budget(BUDGET, || u.is_equal(&u2)) {
        assert!(
            eq,
            "re-parsed set differs from the original for {text:?}: {p1}"
        );
    }
}

fn disjuncts(u: &UnionMap) -> usize {
    u.maps().iter().map(|m| m.basic_maps().len()).sum()
}

/// The calculator language: any script runs to the end without an internal
/// error (a panic caught by the calculator) and writes one line per value or
/// error. `calculator(script, out)` runs a script in batch mode, writing to
/// `out`, and returns how many values and errors it printed (for the `calc`
/// crate: `run_script(script, true, out)` and the summary's `values + errors`).
pub fn calc(data: &[u8], calculator: impl FnOnce(&str, &mut Vec<u8>) -> usize) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 2000 {
        return;
    }
    let mut out = Vec::new();
    let lines = budget::with_budget(CALC_BUDGET, || calculator(text, &mut out));
    let out = String::from_utf8(out).expect("calculator output is UTF-8");
    assert!(
        !out.contains("internal error"),
        "calculator panicked on {text:?}:\n{out}"
    );
    assert_eq!(
        out.lines().count(),
        lines,
        "batch output must have one line per value or error, for {text:?}:\n{out}"
    );
}

fn ok<T>(r: presburger::Result<T>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(Error::BudgetExceeded) => None,
        Err(e) => panic!("engine error: {e}"),
    }
}

fn pair(data: &[u8], max_dims: usize) -> (Shape, Map, Map, String, String) {
    let mut src = Bytes::new(data);
    let shape = Shape::from_bytes(&mut src, false, max_dims);
    let a = generate(&mut src, shape);
    let b = generate(&mut src, shape);
    (shape, a.map(), b.map(), a.text, b.text)
}

/// Set-algebra identities on generated sets A and B:
/// (A−B)∪(A∩B) = A, A ⊆ A∪B, complement twice is A, lexmin A ⊆ A and lies
/// lexicographically at or below a sample point of A with the same
/// parameters, and the projection of A contains the projected sample point.
pub fn set_identities(data: &[u8]) {
    let (shape, a, b, ta, tb) = pair(data, 3);
    let go = || -> Option<()> {
        let d = ok(a.subtract(&b))?;
        let i = ok(a.intersect(&b))?;
        let u = ok(d.union(&i))?;
        assert!(
            ok(u.is_equal(&a))?,
            "(A-B)|(A*B) != A for A = {ta}, B = {tb}"
        );
        let ab = ok(a.union(&b))?;
        assert!(
            ok(a.is_subset(&ab))?,
            "A not a subset of A|B for A = {ta}, B = {tb}"
        );
        let cc = ok(ok(a.complement())?.complement())?;
        assert!(ok(cc.is_equal(&a))?, "complement twice != A for A = {ta}");
        let Some(sample) = ok(a.sample_point())? else {
            assert!(ok(a.is_empty())?, "no sample point in a non-empty set {ta}");
            return Some(());
        };
        let u = Universe::of(shape);
        let pts = oracle::points_of(&sample, &u);
        assert_eq!(
            pts.len(),
            1,
            "sample of {ta} is not one point of the box: {sample}"
        );
        let p = &pts[0];
        assert!(oracle::member(&a, p), "sample {p:?} not in {ta}");
        let lexmin = ok(a.lexmin())?;
        let np = shape.n_param();
        let mins: Vec<Vec<i64>> = oracle::points_of(&lexmin, &u)
            .into_iter()
            .filter(|q| q[..np] == p[..np])
            .collect();
        assert_eq!(
            mins.len(),
            1,
            "lexmin of {ta} at params {:?}: {mins:?}",
            &p[..np]
        );
        assert!(
            oracle::member(&a, &mins[0]),
            "lexmin {:?} not in {ta}",
            mins[0]
        );
        assert!(
            mins[0] <= *p,
            "lexmin {:?} above sample point {p:?} of {ta}",
            mins[0]
        );
        let k = p.len() - np - 1;
        let proj = ok(a.project_out(k, 1))?;
        let mut q = p.clone();
        q.remove(np + k);
        assert!(
            oracle::member(&proj, &q),
            "projection of {ta} on all but dimension {k} misses {q:?}"
        );
        Some(())
    };
    let _ = budget::with_budget(CHAIN_BUDGET, go);
}

/// Brute-force cross-check in a small box: membership of A∩B, A∪B, A−B and
/// the complement of A agrees with the memberships of A and B at every point,
/// and emptiness agrees with enumeration.
pub fn brute_force(data: &[u8]) {
    let (shape, a, b, ta, tb) = pair(data, 2);
    let u = Universe::of(shape);
    let ma = oracle::membership(&a, &u);
    let mb = oracle::membership(&b, &u);
    type Op = fn(&Map, &Map) -> presburger::Result<Map>;
    type Truth = fn(bool, bool) -> bool;
    let ops: [(&str, Op, Truth); 4] = [
        ("intersect", |x, y| x.intersect(y), |x, y| x && y),
        ("union", |x, y| x.union(y), |x, y| x || y),
        ("subtract", |x, y| x.subtract(y), |x, y| x && !y),
        ("complement", |x, _| x.complement(), |x, _| !x),
    ];
    for (name, op, f) in ops {
        let Some(r) = ok(budget::with_budget(BUDGET, || op(&a, &b))) else {
            continue;
        };
        let want: Vec<bool> = ma.iter().zip(&mb).map(|(&x, &y)| f(x, y)).collect();
        let got = oracle::membership(&r, &u);
        if let Some((p, g, w)) = oracle::first_difference(&got, &want, &u) {
            panic!("{name}: at {p:?} engine says {g}, brute force {w}; A = {ta}, B = {tb}, result = {r}");
        }
    }
    if let Some(e) = ok(budget::with_budget(BUDGET, || a.is_empty())) {
        assert_eq!(e, !ma.iter().any(|&x| x), "is_empty of {ta}");
    }
}

/// Lexicographic optima of a generated relation against enumeration: for
/// every parameter and input value with points in the box, `lexmin` and
/// `lexmax` hold exactly the smallest and largest output (the generated
/// relations lie inside the box, so the box holds every optimum).
pub fn lexopt(data: &[u8]) {
    let mut src = Bytes::new(data);
    let map = src.below(2) == 1;
    let shape = Shape::from_bytes(&mut src, map, 3);
    let g = generate(&mut src, shape);
    let a = g.map();
    let u = Universe::of(shape);
    let prefix = shape.n_param() + shape.n_in;
    let points = oracle::points_of(&a, &u);
    for max in [false, true] {
        let Some(r) = ok(budget::with_budget(BUDGET, || {
            if max {
                a.lexmax()
            } else {
                a.lexmin()
            }
        })) else {
            continue;
        };
        let want = oracle::lexopt_of_points(points.clone(), prefix, max);
        let got = oracle::points_of(&r, &u);
        let name = if max { "lexmax" } else { "lexmin" };
        assert_eq!(
            got.len(),
            want.len(),
            "{name} of {} has {} points in the box, enumeration {}: {r}",
            g.text,
            got.len(),
            want.len()
        );
        for p in &got {
            assert_eq!(
                want.get(&p[..prefix]),
                Some(p),
                "{name} of {} contains {p:?}: {r}",
                g.text
            );
        }
    }
}

/// Simplifications keep the meaning: `coalesce(A)` has the points of A;
/// `gist(A, B) ∩ B = A ∩ B`; the affine and convex hulls of A contain A;
/// all by membership in the box.
pub fn simplify(data: &[u8]) {
    let (shape, a, b, ta, tb) = pair(data, 3);
    let u = Universe::of(shape);
    let ma = oracle::membership(&a, &u);
    if let Some(c) = ok(budget::with_budget(BUDGET, || a.coalesce())) {
        if let Some((p, g, w)) = oracle::first_difference(&oracle::membership(&c, &u), &ma, &u) {
            panic!("coalesce: at {p:?} {g} instead of {w}; A = {ta}, result = {c}");
        }
    }
    if let Some(g) = ok(budget::with_budget(BUDGET, || a.gist(&b))) {
        let mb = oracle::membership(&b, &u);
        let mg = oracle::membership(&g, &u);
        let inside_b =
            |v: &[bool]| -> Vec<bool> { v.iter().zip(&mb).map(|(x, y)| x & y).collect() };
        if let Some((p, z, x)) = oracle::first_difference(&inside_b(&mg), &inside_b(&ma), &u) {
            panic!(
                "gist: at {p:?} (in B) gist says {z}, A says {x}; A = {ta}, B = {tb}, gist = {g}"
            );
        }
    }
    type Hull = fn(&Map) -> presburger::Result<Map>;
    let hulls: [(&str, Hull); 2] = [
        ("affine_hull", |x| x.affine_hull()),
        ("convex_hull", |x| x.convex_hull()),
    ];
    for (name, hull) in hulls {
        if let Some(h) = ok(budget::with_budget(BUDGET, || hull(&a))) {
            let mh = oracle::membership(&h, &u);
            if let Some(k) = ma.iter().zip(&mh).position(|(&x, &y)| x && !y) {
                panic!("{name} of {ta} misses {:?}: {h}", u.points()[k]);
            }
        }
    }
}

/// Text of at most `max_len` bytes, or `None` (not UTF-8, too long).
fn text(data: &[u8], max_len: usize) -> Option<&str> {
    std::str::from_utf8(data)
        .ok()
        .filter(|t| t.len() <= max_len)
}

/// C kernels: the front end never panics or hangs on any text; a kernel it
/// accepts has a model whose statements' domains are sets of its parameters.
pub fn c_kernel(data: &[u8]) {
    let Some(src) = text(data, 4000) else { return };
    let r = budget::with_budget(FRONT_END_BUDGET, || scop::Model::from_source(src));
    if let Ok(model) = r {
        for s in model.statements() {
            assert_eq!(
                s.domain.space().params.len(),
                model.params().len(),
                "statement {} of {src:?} has a domain over other parameters",
                s.name
            );
        }
    }
}

/// Schedule-constraints files: reading never panics; for constraints that
/// read and schedule within the budget, the schedule is valid by the
/// brute-force oracle at small parameter values.
pub fn schedule_constraints(data: &[u8]) {
    let Some(t) = text(data, 3000) else { return };
    let Ok(sc) = budget::with_budget(FRONT_END_BUDGET / 10, || {
        t.parse::<scheduler::ScheduleConstraints>()
    }) else {
        return;
    };
    let opts = scheduler::Options {
        budget: Some(FRONT_END_BUDGET),
        ..scheduler::Options::default()
    };
    let s = match scheduler::compute_schedule(&sc, &opts) {
        Ok(s) => s,
        Err(scheduler::Error::Budget) | Err(scheduler::Error::Invalid(_)) => return,
        Err(e) => panic!("scheduler error on {t:?}: {e}"),
    };
    let np = sc.params().len();
    if np > 2 {
        return;
    }
    for v in [0, 2] {
        let params = vec![v; np];
        let r = budget::with_budget(VERIFY_BUDGET, || {
            scheduler::check::verify(&sc, &s, &params, 4)
        });
        match r {
            Ok(()) | Err(scheduler::Error::Budget) => {}
            Err(e) => panic!("invalid schedule for {t:?} at {params:?}: {e}\n{s}"),
        }
    }
}

/// AST generation inputs (`.in`: schedule, context, options; `.st`: a
/// schedule tree): reading and generating never panic or hang, and the
/// generated program runs in the AST interpreter at small parameter values
/// without error (when generation succeeds).
pub fn codegen_input(data: &[u8]) {
    let Some(t) = text(data, 3000) else { return };
    let node = budget::with_budget(FRONT_END_BUDGET, || {
        if t.trim_start().starts_with("domain") {
            ast::parse_tree(t).and_then(|tree| ast::generate_tree(&tree))
        } else {
            ast::parse_map_input(t).and_then(|i| ast::generate(&i.schedule, &i.context))
        }
    });
    let Ok(node) = node else { return };
    let _ = ast::run(&node, &[], 10_000);
}
