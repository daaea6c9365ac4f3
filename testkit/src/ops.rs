//! The table from a corpus op name (`is_empty`, `lexmin`, `coalesce`,
//! `subtract`, ...) to an engine call, and the judge of an answer against a
//! case's `expect`: the one copy that the `presburger` conformance test,
//! `poly bench` and the `setops` benchmark share.
//!
//! The ops map onto [`UnionMap`] methods; `lexmin_map` is `lexmin` on a
//! relation, `compose` is `apply_range`, `apply` applies the relation
//! `args[1]` to the set `args[0]`, and `project` projects out the set
//! dimension `args[1]`.
//!
//! Answers are judged semantically with the engine: sets by equality (two
//! empty sets are equal whatever their spaces), a sample by being one point
//! of the input, a gist by agreeing with the input on the context. When an
//! equality test runs out of budget on a large answer over at most two
//! parameters, the two sets are compared at each parameter value of a box
//! instead. An expected `error` is met by any engine error but running out
//! of budget, which is [`Verdict::OutOfBudget`] (never a wrong answer, never
//! a right one).

use std::fmt;

use presburger::{budget, Error, Int, Map, UnionMap};

use crate::corpus::Case;

/// The ops of the table.
pub const OPS: &[&str] = &[
    "lexmin",
    "lexmax",
    "lexmin_map",
    "lexmax_map",
    "is_empty",
    "subtract",
    "coalesce",
    "union",
    "intersect",
    "complement",
    "is_equal",
    "is_subset",
    "sample",
    "gist",
    "project",
    "card",
    "reverse",
    "domain",
    "range",
    "deltas",
    "compose",
    "apply",
    "is_single_valued",
    "is_injective",
];

/// How many set arguments `op` takes.
fn set_arity(op: &str) -> usize {
    match op {
        "subtract" | "union" | "intersect" | "is_equal" | "is_subset" | "gist" | "compose"
        | "apply" => 2,
        _ => 1,
    }
}

/// The answer of one operation.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A set or relation.
    Set(UnionMap),
    /// A set or relation of one space (the answer of a [`map_runner`]).
    Map(Map),
    /// A truth value.
    Bool(bool),
    /// A count.
    Int(Int),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Set(s) => write!(f, "{s}"),
            Answer::Map(m) => write!(f, "{m}"),
            Answer::Bool(b) => write!(f, "{b}"),
            Answer::Int(n) => write!(f, "{n}"),
        }
    }
}

/// A case with its inputs parsed.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The case.
    pub case: Case,
    /// Parsed set/map arguments (`project`'s index is not one of them).
    pub inputs: Vec<UnionMap>,
    /// The same arguments as maps of one space each, if every one is (what
    /// a [`map_runner`] takes; see [`timed_runners`]).
    pub maps: Option<Vec<Map>>,
    /// `project`'s dimension index (0 for the other ops).
    pub index: usize,
}

/// Why a case could not be prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrepareError {
    /// The op is not in [`OPS`].
    UnsupportedOp(String),
    /// An argument is not isl notation (or parsing ran out of budget).
    BadArgument {
        /// Position of the argument in `args`.
        index: usize,
        /// The engine's error.
        error: Error,
    },
    /// `project`'s dimension index is not a number.
    BadIndex(String),
    /// Fewer set arguments than the op takes.
    TooFewArguments {
        /// The op.
        op: String,
        /// How many it takes.
        need: usize,
    },
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::UnsupportedOp(op) => write!(f, "unsupported op {op}"),
            PrepareError::BadArgument { index, error } => write!(f, "argument {index}: {error}"),
            PrepareError::BadIndex(a) => write!(f, "bad dimension index {a:?}"),
            PrepareError::TooFewArguments { op, need } => {
                write!(f, "{op} needs {need} set arguments")
            }
        }
    }
}

impl std::error::Error for PrepareError {}

/// Parse a case's inputs.
pub fn prepare(case: &Case) -> Result<Prepared, PrepareError> {
    if !OPS.contains(&case.op.as_str()) {
        return Err(PrepareError::UnsupportedOp(case.op.clone()));
    }
    let mut inputs = Vec::new();
    let mut index = 0;
    for (k, a) in case.args.iter().enumerate() {
        if case.op == "project" && k == 1 {
            index = a.parse().map_err(|_| PrepareError::BadIndex(a.clone()))?;
            continue;
        }
        inputs.push(
            a.parse::<UnionMap>()
                .map_err(|error| PrepareError::BadArgument { index: k, error })?,
        );
    }
    let need = set_arity(&case.op);
    if inputs.len() < need {
        return Err(PrepareError::TooFewArguments {
            op: case.op.clone(),
            need,
        });
    }
    // (an argument that is not one map, e.g. a union of two spaces or the
    // empty union, leaves the ops on unions, as isl's parser then gives a
    // union set/map)
    let maps = inputs
        .iter()
        .map(|u| u.to_map().ok().flatten())
        .collect::<Option<Vec<Map>>>();
    Ok(Prepared {
        case: case.clone(),
        inputs,
        maps,
        index,
    })
}

/// An operation resolved from its name ([`runner`]): what a timing loop
/// calls, so that looking the name up is not timed (as `trace_compare.py`
/// builds isl's call before timing it).
pub type Runner = fn(&Prepared) -> presburger::Result<Answer>;

/// The engine call of an op name, `None` if it is not in [`OPS`].
pub fn runner(op: &str) -> Option<Runner> {
    use Answer::{Bool, Set};
    Some(match op {
        "lexmin" | "lexmin_map" => |p| Ok(Set(p.inputs[0].lexmin()?)),
        "lexmax" | "lexmax_map" => |p| Ok(Set(p.inputs[0].lexmax()?)),
        "is_empty" => |p| Ok(Bool(p.inputs[0].is_empty()?)),
        "subtract" => |p| Ok(Set(p.inputs[0].subtract(&p.inputs[1])?)),
        "coalesce" => |p| Ok(Set(p.inputs[0].coalesce()?)),
        "union" => |p| Ok(Set(p.inputs[0].union(&p.inputs[1])?)),
        "intersect" => |p| Ok(Set(p.inputs[0].intersect(&p.inputs[1])?)),
        "complement" => |p| Ok(Set(p.inputs[0].complement()?)),
        "is_equal" => |p| Ok(Bool(p.inputs[0].is_equal(&p.inputs[1])?)),
        "is_subset" => |p| Ok(Bool(p.inputs[0].is_subset(&p.inputs[1])?)),
        "sample" => |p| Ok(Set(p.inputs[0].sample()?)),
        "gist" => |p| Ok(Set(p.inputs[0].gist(&p.inputs[1])?)),
        "project" => |p| {
            Ok(match p.inputs[0].to_map()? {
                Some(m) => Set(UnionMap::from_map(m.project_out(p.index, 1)?)),
                None => Set(p.inputs[0].clone()),
            })
        },
        "card" => |p| Ok(Answer::Int(p.inputs[0].card()?)),
        "reverse" => |p| Ok(Set(p.inputs[0].reverse()?)),
        "domain" => |p| Ok(Set(p.inputs[0].domain()?)),
        "range" => |p| Ok(Set(p.inputs[0].range()?)),
        "deltas" => |p| Ok(Set(p.inputs[0].deltas()?)),
        "compose" => |p| Ok(Set(p.inputs[0].apply_range(&p.inputs[1])?)),
        "apply" => |p| Ok(Set(p.inputs[0].apply(&p.inputs[1])?)),
        "is_single_valued" => |p| Ok(Bool(p.inputs[0].is_single_valued()?)),
        "is_injective" => |p| Ok(Bool(p.inputs[0].is_injective()?)),
        _ => return None,
    })
}

/// The engine call of an op name on maps of one space ([`Prepared::maps`],
/// the `Map` methods), `None` if the op has none or is not in [`OPS`]. The
/// call panics on a case without [`Prepared::maps`]: see [`timed_runners`].
///
/// A compiler with relations of one space calls these, as isl's users call
/// `isl_map_*` rather than `isl_union_map_*`; `trace_compare.py` times isl
/// on `isl.Set`/`isl.Map` objects whenever the arguments are of one space,
/// and the timing harness times these then.
pub fn map_runner(op: &str) -> Option<Runner> {
    use Answer::{Bool, Map as M};
    fn m(p: &Prepared, k: usize) -> &Map {
        &p.maps.as_ref().expect("maps of one space")[k]
    }
    Some(match op {
        "lexmin" | "lexmin_map" => |p| Ok(M(m(p, 0).lexmin()?)),
        "lexmax" | "lexmax_map" => |p| Ok(M(m(p, 0).lexmax()?)),
        "is_empty" => |p| Ok(Bool(m(p, 0).is_empty()?)),
        "subtract" => |p| Ok(M(m(p, 0).subtract(m(p, 1))?)),
        "coalesce" => |p| Ok(M(m(p, 0).coalesce()?)),
        "union" => |p| Ok(M(m(p, 0).union(m(p, 1))?)),
        "intersect" => |p| Ok(M(m(p, 0).intersect(m(p, 1))?)),
        "complement" => |p| Ok(M(m(p, 0).complement()?)),
        "is_equal" => |p| Ok(Bool(m(p, 0).is_equal(m(p, 1))?)),
        "is_subset" => |p| Ok(Bool(m(p, 0).is_subset(m(p, 1))?)),
        "gist" => |p| Ok(M(m(p, 0).gist(m(p, 1))?)),
        "project" => |p| Ok(M(m(p, 0).project_out(p.index, 1)?)),
        "reverse" => |p| Ok(M(m(p, 0).reverse()?)),
        "domain" => |p| Ok(M(m(p, 0).domain()?)),
        "range" => |p| Ok(M(m(p, 0).range()?)),
        "compose" => |p| Ok(M(m(p, 0).apply_range(m(p, 1))?)),
        _ => return None,
    })
}

/// [`trivial`] on the maps of one space ([`Prepared::maps`]): whether the
/// first has no disjuncts, as islpy's `n_basic_set`/`n_basic_map`.
pub fn map_trivial(p: &Prepared) -> presburger::Result<Answer> {
    let m = &p.maps.as_ref().expect("maps of one space")[0];
    Ok(Answer::Bool(m.basic_maps().is_empty()))
}

/// What a timing harness times for a prepared case (see [`timed_runners`]).
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// The operation.
    pub op: Runner,
    /// The trivial call through the same path, whose time is subtracted.
    pub trivial: Runner,
    /// True if these are the `Map` methods ([`map_runner`]).
    pub on_maps: bool,
}

/// The operation and the trivial call a timing harness times for `p`, as
/// `trace_compare.py` picks isl's objects: the `Map` methods
/// ([`map_runner`], [`map_trivial`]) when every argument is one map and the
/// call on them succeeds (it fails when, say, the spaces of a union's
/// operands differ), else the union ones ([`runner`], [`trivial`]). `None`
/// if the op is not in [`OPS`]. Runs the chosen operation once (to decide,
/// and on the unions too: either path has then made one call).
pub fn timed_runners(p: &Prepared) -> Option<Timed> {
    if p.maps.is_some() {
        if let Some(op) = map_runner(&p.case.op) {
            if op(p).is_ok() {
                return Some(Timed {
                    op,
                    trivial: map_trivial,
                    on_maps: true,
                });
            }
        }
    }
    let op = runner(&p.case.op)?;
    // (run once too, so that either path has made one call before timing)
    let _ = op(p);
    Some(Timed {
        op,
        trivial,
        on_maps: false,
    })
}

/// A trivial call on a prepared case through the same path as a
/// [`Runner`]: whether the first input has no parts (a field read). Timing
/// harnesses subtract its time per call from an operation's, as
/// `trace_compare.py` subtracts islpy's `n_basic_set` from isl's (the loop,
/// the call, wrapping and dropping the answer are then not counted on
/// either side).
pub fn trivial(p: &Prepared) -> presburger::Result<Answer> {
    Ok(Answer::Bool(p.inputs[0].maps().is_empty()))
}

/// Run the operation once.
pub fn run(p: &Prepared) -> presburger::Result<Answer> {
    match runner(&p.case.op) {
        Some(f) => f(p),
        None => Err(Error::Invalid(format!("unsupported op {}", p.case.op))),
    }
}

/// The judgement of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer meets `expect`.
    Right,
    /// It does not (or the input does not parse): what went wrong.
    Wrong(String),
    /// The operation or its judgement ran out of the operation budget.
    OutOfBudget,
}

impl Verdict {
    fn of(judged: presburger::Result<bool>, answer: &dyn fmt::Display) -> Verdict {
        match judged {
            Ok(true) => Verdict::Right,
            Ok(false) => Verdict::Wrong(format!("answer {answer}")),
            Err(Error::BudgetExceeded) => Verdict::OutOfBudget,
            Err(e) => Verdict::Wrong(format!("judging the answer {answer}: {e}")),
        }
    }
}

/// Judge the answer of a prepared case against its `expect`.
pub fn judge(p: &Prepared, answer: &presburger::Result<Answer>) -> Verdict {
    let expect = p.case.expect.as_str();
    let answer = match answer {
        Err(Error::BudgetExceeded) => return Verdict::OutOfBudget,
        Err(_) if expect == "error" => return Verdict::Right,
        Err(e) => return Verdict::Wrong(format!("error: {e}")),
        Ok(a) if expect == "error" => return Verdict::Wrong(format!("answer {a}, not an error")),
        Ok(a) => a,
    };
    let judged = match (p.case.op.as_str(), answer) {
        // (judged as the union of its one space)
        (_, Answer::Map(m)) => return judge(p, &Ok(Answer::Set(UnionMap::from_map(m.clone())))),
        (_, Answer::Bool(v)) => Ok(v.to_string() == expect),
        (_, Answer::Int(n)) => Ok(expect.parse::<Int>().map(|e| e == *n).unwrap_or(false)),
        ("sample", Answer::Set(s)) => (|| {
            if expect == "empty" {
                return s.is_empty();
            }
            Ok(!s.is_empty()? && s.is_subset(&p.inputs[0])? && s.card()? == Int::ONE)
        })(),
        ("gist", Answer::Set(g)) => (|| {
            let c = &p.inputs[1];
            g.intersect(c)?.is_equal(&p.inputs[0].intersect(c)?)
        })(),
        (_, Answer::Set(s)) => same(s, expect),
    };
    Verdict::of(judged, answer)
}

/// Prepare, run and judge one case (under whatever budget the caller set).
pub fn check(case: &Case) -> Verdict {
    match prepare(case) {
        Ok(p) => judge(&p, &run(&p)),
        Err(e) => input_verdict(e),
    }
}

/// Prepare and run one case within `ops` operations, then judge the answer
/// outside that scope: the judge's equality test has a budget of its own
/// ([`JUDGE_OPS`]) and its pointwise fallback is not nested in it, since a
/// nested budget never grants more than the enclosing one has left.
pub fn check_within(case: &Case, ops: u64) -> Verdict {
    let ran = budget::with_budget(ops, || {
        prepare(case).map(|p| {
            let answer = run(&p);
            (p, answer)
        })
    });
    match ran {
        Ok((p, answer)) => judge(&p, &answer),
        Err(e) => input_verdict(e),
    }
}

fn input_verdict(e: PrepareError) -> Verdict {
    match e {
        PrepareError::BadArgument {
            error: Error::BudgetExceeded,
            ..
        } => Verdict::OutOfBudget,
        e => Verdict::Wrong(format!("input: {e}")),
    }
}

/// The operation budget of the judge's exact equality test (see [`same_set`]).
pub const JUDGE_OPS: u64 = 20_000_000;

/// Is `got` the set written `want`? See [`same_set`].
pub fn same(got: &UnionMap, want: &str) -> presburger::Result<bool> {
    same_set(got, &want.parse()?)
}

/// Are `got` and `want` the same set? Two empty sets are equal whatever
/// their spaces. The exact test runs within [`JUDGE_OPS`] operations (and
/// whatever the caller's budget has left); when it runs out, the fallback
/// [`same_at_params`] runs after that scope.
pub fn same_set(got: &UnionMap, want: &UnionMap) -> presburger::Result<bool> {
    let exact = budget::with_budget(JUDGE_OPS, || -> presburger::Result<bool> {
        if got.is_empty()? && want.is_empty()? {
            return Ok(true);
        }
        got.is_equal(want)
    });
    match exact {
        Err(Error::BudgetExceeded) => same_at_params(got, want).ok_or(Error::BudgetExceeded),
        r => r,
    }
}

/// The fallback judge when `is_equal` of two huge answers runs out of
/// budget: with every parameter fixed to each value of the box `-4..=24`
/// (brute force over parameter values), the two sets must be equal. Only
/// for answers with one space and at most two parameters; `None` when not
/// applicable or when a fixed comparison does not finish.
pub fn same_at_params(got: &UnionMap, want: &UnionMap) -> Option<bool> {
    let (g, w) = match (got.maps(), want.maps()) {
        ([g], [w]) => (g, w),
        _ => return None,
    };
    let names = &g.space().params;
    if names.len() > 2 {
        return None;
    }
    let idx = |m: &Map, n: &String| m.space().params.iter().position(|x| x == n);
    let gi: Vec<usize> = names.iter().map(|n| idx(g, n)).collect::<Option<_>>()?;
    let wi: Vec<usize> = names.iter().map(|n| idx(w, n)).collect::<Option<_>>()?;
    for p in crate::oracle::box_points(names.len(), -4, 24) {
        let (mut gf, mut wf) = (g.clone(), w.clone());
        for (k, v) in p.iter().enumerate() {
            gf = gf.fix_var(gi[k], v);
            wf = wf.fix_var(wi[k], v);
        }
        match budget::with_budget(2_000_000, || gf.is_equal(&wf)) {
            Ok(true) => {}
            Ok(false) => return Some(false),
            Err(_) => return None,
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(op: &str, args: &[&str], expect: &str) -> Prepared {
        let c = Case {
            id: "t".into(),
            op: op.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            expect: expect.into(),
        };
        prepare(&c).unwrap()
    }

    fn right(p: &Prepared) -> bool {
        judge(p, &run(p)) == Verdict::Right
    }

    #[test]
    fn judges_answers() {
        let p = case(
            "lexmin",
            &["[n] -> { [i] : n <= i <= 10 }"],
            "[n] -> { [i = n] : n <= 10 }",
        );
        assert!(right(&p));
        let p = case("lexmin", &["{ [i] : 0 <= i <= 10 }"], "{ [1] }");
        assert!(!right(&p));
        let p = case("lexmin", &["{ [i] : i <= 10 }"], "error");
        assert!(right(&p));
        let p = case("is_empty", &["{ [i] : 0 <= 2i <= 1 and i > 0 }"], "true");
        assert!(right(&p));
        let p = case("card", &["{ [i, j] : 0 <= i < 3 and 0 <= j < 4 }"], "12");
        assert!(right(&p));
        let p = case(
            "project",
            &["{ [i, j] : 0 <= i < 3 and j = 2i }", "0"],
            "{ [j] : 0 <= j <= 4 and j mod 2 = 0 }",
        );
        assert!(right(&p));
        let p = case(
            "subtract",
            &["{ [i] : 0 <= i <= 9 }", "{ [i] : i >= 5 }"],
            "{ [i] : 0 <= i <= 5 }",
        );
        assert!(!right(&p));
        let p = case("sample", &["{ [i, j] : 0 <= i <= j <= 2 }"], "{ [0, 0] }");
        assert!(right(&p), "any point of the input is a right sample");
        let p = case("sample", &["{ [i] : 0 <= 2i <= 1 and i > 0 }"], "empty");
        assert!(right(&p));
        let p = case(
            "gist",
            &["{ [i] : 0 <= i <= 10 }", "{ [i] : i >= 0 }"],
            "{ [i] : i <= 10 }",
        );
        assert!(right(&p));
        let p = case(
            "union",
            &["{ [i] : i = 0 }", "{ [i] : i = 1 }"],
            "{ A[i] : 1 = 0 }",
        );
        assert!(!right(&p));
        let p = case(
            "subtract",
            &["{ [i] : i = 0 }", "{ [i] : i >= 0 }"],
            "{ A[i] : 1 = 0 }",
        );
        assert!(right(&p), "empty sets are equal whatever their spaces");
    }

    /// The case-file test that `poly bench` had, with the typed errors.
    #[test]
    fn reads_cases_and_rejects_unknown_ops() {
        let text = "{\"id\": \"a\", \"op\": \"union\", \"args\": [\"{ [1] }\", \"{ [2] }\"], \"expect\": \"{ [i] : 1 <= i <= 2 }\"}\n\n{\"id\": \"b\", \"op\": \"frobnicate\", \"args\": [\"{ [1] }\"], \"expect\": true}\n";
        let cases = crate::corpus::read_cases(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].expect, "true");
        let p = prepare(&cases[0]).unwrap();
        assert!(right(&p));
        assert_eq!(
            prepare(&cases[1]).unwrap_err(),
            PrepareError::UnsupportedOp("frobnicate".into())
        );
        assert!(crate::corpus::read_cases("{\"id\": 1}").is_err());
    }

    #[test]
    fn running_out_of_budget_is_neither_right_nor_wrong() {
        let p = case("lexmin", &["{ [i] : i <= 10 }"], "error");
        assert_eq!(judge(&p, &Err(Error::BudgetExceeded)), Verdict::OutOfBudget);
        let p = case("is_empty", &["{ [i] : 0 <= i }"], "false");
        assert_eq!(judge(&p, &Err(Error::BudgetExceeded)), Verdict::OutOfBudget);
        assert!(matches!(
            judge(&p, &Err(Error::Invalid("x".into()))),
            Verdict::Wrong(_)
        ));
    }

    #[test]
    fn refuses_unknown_ops_and_bad_inputs() {
        let c = |op: &str, args: &[&str]| Case {
            id: "t".into(),
            op: op.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            expect: "true".into(),
        };
        assert_eq!(
            prepare(&c("frobnicate", &["{ [1] }"])).unwrap_err(),
            PrepareError::UnsupportedOp("frobnicate".into())
        );
        assert!(matches!(
            prepare(&c("union", &["{ [1] }", "{ [ }"])),
            Err(PrepareError::BadArgument { index: 1, .. })
        ));
        assert_eq!(
            prepare(&c("union", &["{ [1] }"])).unwrap_err(),
            PrepareError::TooFewArguments {
                op: "union".into(),
                need: 2
            }
        );
        assert_eq!(
            prepare(&c("project", &["{ [i] }", "x"])).unwrap_err(),
            PrepareError::BadIndex("x".into())
        );
        assert!(matches!(
            check(&c("is_empty", &["{ [ }"])),
            Verdict::Wrong(_)
        ));
        assert_eq!(check(&c("is_empty", &["{ [i] : 1 = 0 }"])), Verdict::Right);
    }

    #[test]
    fn parameter_box_fallback_agrees_with_equality() {
        let a: UnionMap = "[n] -> { [i] : 0 <= i < n }".parse().unwrap();
        let b: UnionMap = "[n] -> { [i] : 0 <= i <= n - 1 }".parse().unwrap();
        let c: UnionMap = "[n] -> { [i] : 0 <= i <= n }".parse().unwrap();
        assert_eq!(same_at_params(&a, &b), Some(true));
        assert_eq!(same_at_params(&a, &c), Some(false));
        let many: UnionMap = "[a, b, c] -> { [i] : a <= i <= b + c }".parse().unwrap();
        assert_eq!(same_at_params(&many, &many), None);
    }
}
