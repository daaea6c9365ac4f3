//! The brute-force oracle: the triangle test evaluated directly on the
//! enumerated operations of one run at fixed parameter values.
//!
//! Independent of the symbolic pipeline: the instances come from the
//! reference interpreter's trace (`scop::interp::run_traced`), their cells
//! from evaluating the subscripts, the flow from simulating the run (last
//! writer per cell), the happens-before from comparing schedule vectors
//! (with the parallel dimensions of the front end), and the conflict from
//! the definition, pair by pair: `T(x, y)` iff some flow `Wx → Rx` of `x`
//! and write `Wy` of `y` (real, or `START(y)`) have `not (Wy ≺ Wx)` and
//! `not (Rx ≺ Wy)` on operations.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use scop::model::{AccessKind, ArrayOrigin, SchedDim};

use crate::error::{Error, Result};

/// A cell: array name and subscripts.
pub type Cell = (String, Vec<i64>);

/// An operation of the enumerated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// The virtual write of an initial value.
    Start,
    /// The reads (phase 0) or the write (phase 1) of instance `k` of the trace.
    Real(usize, u8),
    /// The virtual read of a final value.
    End,
}

/// The enumerated run of a kernel.
#[derive(Debug, Clone)]
pub struct Run {
    /// Per instance of the trace: schedule vector and parallel dimensions.
    sched: Vec<(Vec<i64>, Vec<usize>)>,
    /// Per instance: the written cell.
    writes: Vec<Cell>,
    /// Flows `(source, sink, cell)`.
    flows: Vec<(Op, Op, Cell)>,
    /// Cells whose initial value is read.
    live_in: BTreeSet<Cell>,
    parallel: bool,
    instances: Vec<(String, Vec<i64>)>,
}

impl Run {
    /// Runs `src` at the integer parameter values `values`; `parallel`
    /// selects the pragma semantics.
    pub fn new(src: &str, values: &[(&str, i64)], parallel: bool) -> Result<Run> {
        let f = scop::parse_kernel(src)?;
        let s = scop::build_from_ast(&f)?;
        let ints: HashMap<String, i64> = values.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let mut st = scop::interp::initial_state(&f, &ints, &HashMap::new())?;
        let trace = scop::interp::run_traced(&f, &mut st)?;
        let param_arrays: BTreeSet<&str> = s
            .arrays
            .iter()
            .filter(|a| matches!(a.origin, ArrayOrigin::Param(_)))
            .map(|a| a.name.as_str())
            .collect();
        let mut sched = Vec::new();
        let mut writes = Vec::new();
        let mut flows = Vec::new();
        let mut live_in = BTreeSet::new();
        let mut instances = Vec::new();
        let mut last: BTreeMap<Cell, usize> = BTreeMap::new();
        for (k, (sid, its)) in trace.iter().enumerate() {
            let stmt = &s.statements[*sid];
            let env = |v: &str| {
                stmt.iterators
                    .iter()
                    .position(|x| x == v)
                    .map(|p| its[p])
                    .or_else(|| ints.get(v).copied())
            };
            let bad = || Error::Unsupported(format!("cannot evaluate {}", stmt.name));
            let time: Vec<i64> = stmt
                .schedule
                .iter()
                .map(|d| match d {
                    SchedDim::Const(c) => Some(*c),
                    SchedDim::Iter(v, c) => env(v).map(|x| x * c),
                })
                .collect::<Option<_>>()
                .ok_or_else(bad)?;
            sched.push((time, stmt.parallel.clone()));
            instances.push((stmt.name.clone(), its.clone()));
            let mut written = None;
            for a in &stmt.accesses {
                let idx: Vec<i64> = a
                    .index
                    .iter()
                    .map(|e| e.eval(&env))
                    .collect::<Option<_>>()
                    .ok_or_else(bad)?;
                let cell = (a.array.clone(), idx);
                match a.kind {
                    AccessKind::Read => match last.get(&cell) {
                        Some(&w) => flows.push((Op::Real(w, 1), Op::Real(k, 0), cell)),
                        None => {
                            live_in.insert(cell.clone());
                            flows.push((Op::Start, Op::Real(k, 0), cell));
                        }
                    },
                    AccessKind::MustWrite => written = Some(cell),
                    _ => return Err(Error::Unsupported("may-writes and kills".into())),
                }
            }
            let w = written.ok_or_else(bad)?;
            last.insert(w.clone(), k);
            writes.push(w);
        }
        for (cell, w) in &last {
            if param_arrays.contains(cell.0.as_str()) {
                flows.push((Op::Real(*w, 1), Op::End, cell.clone()));
            }
        }
        Ok(Run {
            sched,
            writes,
            flows,
            live_in,
            parallel,
            instances,
        })
    }

    /// The executed instances in sequential order: statement name and
    /// iterator values.
    pub fn instances(&self) -> &[(String, Vec<i64>)] {
        &self.instances
    }

    /// The first violated condition of a new schedule giving instance `k`
    /// the time `time[k]` (lexicographic; equal times unordered), checked
    /// on the enumerated flows in the order `flow`, `live range`, `live-in`,
    /// `live-out` (see `check_schedule`); `None` when legal.
    pub fn schedule_violation(&self, time: &[Vec<i64>]) -> Option<&'static str> {
        let lt = |a: usize, b: usize| time[a] < time[b];
        let writers = |x: &Cell| -> Vec<usize> {
            (0..self.writes.len())
                .filter(|&k| &self.writes[k] == x)
                .collect()
        };
        let real = |o: &Op| {
            if let Op::Real(k, _) = o {
                Some(*k)
            } else {
                None
            }
        };
        if self.flows.iter().any(|(w, r, _)| match (real(w), real(r)) {
            (Some(w), Some(r)) => !lt(w, r),
            _ => false,
        }) {
            return Some("flow");
        }
        for (kind, cond) in [("live range", 0), ("live-in", 1), ("live-out", 2)] {
            for (w, r, x) in &self.flows {
                let bad = match (cond, w, r) {
                    (0, Op::Real(w, _), Op::Real(r, _)) => writers(x)
                        .into_iter()
                        .any(|v| v != *w && !lt(v, *w) && !lt(*r, v) && v != *r),
                    (1, Op::Start, Op::Real(r, _)) => {
                        writers(x).into_iter().any(|v| !lt(*r, v) && v != *r)
                    }
                    (2, Op::Real(w, _), Op::End) => {
                        writers(x).into_iter().any(|v| v != *w && !lt(v, *w))
                    }
                    _ => false,
                };
                if bad {
                    return Some(kind);
                }
            }
        }
        None
    }

    /// `a ≺ b` on instances of the trace.
    fn inst_before(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let ((ta, pa), (tb, pb)) = (&self.sched[a], &self.sched[b]);
        let Some(d) = (0..ta.len()).find(|&d| ta[d] != tb[d]) else {
            return false;
        };
        if self.parallel && pa.contains(&d) && pb.contains(&d) {
            return false;
        }
        ta[d] < tb[d]
    }

    /// `a ≺ b` on operations.
    fn before(&self, a: Op, b: Op) -> bool {
        match (a, b) {
            (Op::Start, Op::Real(..) | Op::End) => true,
            (Op::Real(..), Op::End) => true,
            (Op::Real(i, p), Op::Real(j, q)) => {
                self.inst_before(i, j) || (i == j && p == 0 && q == 1)
            }
            _ => false,
        }
    }

    /// The written cells, per array.
    pub fn cells(&self) -> BTreeSet<Cell> {
        self.writes.iter().cloned().collect()
    }

    /// The symmetric conflict relation over written cells, `x ≠ y`, of one
    /// array.
    pub fn conflicts(&self) -> BTreeSet<(Cell, Cell)> {
        self.conflicts_between(false)
    }

    /// The same over all written cells, also between different arrays.
    pub fn conflicts_all(&self) -> BTreeSet<(Cell, Cell)> {
        self.conflicts_between(true)
    }

    fn conflicts_between(&self, across: bool) -> BTreeSet<(Cell, Cell)> {
        let cells = self.cells();
        let mut wy: Vec<(Op, &Cell)> = self
            .writes
            .iter()
            .enumerate()
            .map(|(k, c)| (Op::Real(k, 1), c))
            .collect();
        wy.extend(self.live_in.iter().map(|c| (Op::Start, c)));
        let mut out = BTreeSet::new();
        for (wx, rx, x) in &self.flows {
            if !cells.contains(x) {
                continue;
            }
            for (w, y) in &wy {
                if *y == x || (!across && y.0 != x.0) || !cells.contains(*y) {
                    continue;
                }
                if !self.before(*w, *wx) && !self.before(*rx, *w) {
                    out.insert((x.clone(), (*y).clone()));
                    out.insert(((*y).clone(), x.clone()));
                }
            }
        }
        out
    }
}
