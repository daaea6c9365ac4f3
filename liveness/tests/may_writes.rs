//! May-writes and kills (models built through the library): the conflicts
//! are the union, over every execution (each may-write instance stores or
//! not), of the triangle test on that execution, enumerated directly.

use std::collections::BTreeSet;

use liveness::{conflicts, LiveRanges, Order};
use presburger::Int;
use scop::model::AccessKind;

/// S1 becomes a may-write of `t`, S3 a kill of `B`.
const SRC: &str = "void k(int N, double A[N], double B[N]) {
  double t[N];
  double u[N];
  for (int i = 0; i < N; i++)
    t[i] = A[i];
  for (int i = 0; i < N; i++)
    t[i] = 2.0 * A[i];
  for (int i = 0; i < N; i++)
    B[i] = t[i];
  for (int i = 0; i < N; i++)
    B[i] = 1.0;
  for (int i = 0; i < N; i++)
    u[i] = t[N - 1 - i];
  for (int i = 0; i < N; i++)
    B[i] += u[i];
}";

fn model() -> scop::Model {
    let mut s = scop::build_scop(SRC).unwrap();
    for (k, kind) in [(1, AccessKind::MayWrite), (3, AccessKind::Kill)] {
        let w = s.statements[k]
            .accesses
            .iter_mut()
            .find(|a| a.kind == AccessKind::MustWrite)
            .unwrap();
        w.kind = kind;
    }
    scop::Model::from_scop(&s).unwrap()
}

type Cell = (&'static str, i64);

#[derive(Clone, Copy, PartialEq)]
enum W {
    Must,
    May,
    Kill,
}

/// The operations of the kernel at `n`, in execution order: reads, then
/// the write.
fn ops(n: i64) -> Vec<(Vec<Cell>, Cell, W)> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push((vec![("A", i)], ("t", i), W::Must));
    }
    for i in 0..n {
        out.push((vec![("A", i)], ("t", i), W::May));
    }
    for i in 0..n {
        out.push((vec![("t", i)], ("B", i), W::Must));
    }
    for i in 0..n {
        out.push((vec![], ("B", i), W::Kill));
    }
    for i in 0..n {
        out.push((vec![("t", n - 1 - i)], ("u", i), W::Must));
    }
    for i in 0..n {
        out.push((vec![("B", i), ("u", i)], ("B", i), W::Must));
    }
    out
}

/// The conflicts of one execution (`runs[k]`: may-write `k` stores).
fn conflicts_of(
    ops: &[(Vec<Cell>, Cell, W)],
    stores: &dyn Fn(usize) -> bool,
) -> BTreeSet<(Cell, Cell)> {
    // writes (instance, cell) of this execution
    let writes: Vec<(usize, Cell)> = ops
        .iter()
        .enumerate()
        .filter(|(k, (_, _, w))| *w == W::Must || (*w == W::May && stores(*k)))
        .map(|(k, (_, c, _))| (k, *c))
        .collect();
    // flows (Wx instance or None = START, Rx instance or None = END, x)
    let mut ranges: Vec<(Option<usize>, Option<usize>, Cell)> = Vec::new();
    for (k, (reads, _, _)) in ops.iter().enumerate() {
        for x in reads {
            let last = (0..k)
                .rev()
                .find(|&j| ops[j].1 == *x && (ops[j].2 != W::May || stores(j)));
            match last {
                Some(j) if ops[j].2 == W::Kill => {}
                Some(j) => ranges.push((Some(j), Some(k), *x)),
                None => ranges.push((None, Some(k), *x)),
            }
        }
    }
    for x in ["A", "B"] {
        for e in 0..ops.len() as i64 {
            let cell = (x, e);
            let last = (0..ops.len())
                .rev()
                .find(|&j| ops[j].1 == cell && (ops[j].2 != W::May || stores(j)));
            if let Some(j) = last.filter(|&j| ops[j].2 != W::Kill) {
                ranges.push((Some(j), None, cell));
            }
        }
    }
    let mut out = BTreeSet::new();
    for (wx, rx, x) in &ranges {
        for (wy, y) in &writes {
            // not (Wy ≺ Wx) and not (Rx ≺ Wy)
            let after_w = wx.is_none_or(|w| *wy >= w);
            let before_r = rx.is_none_or(|r| *wy < r);
            if x != y && after_w && before_r {
                out.insert((*x, *y));
                out.insert((*y, *x));
            }
        }
        // two live-in cells
        if wx.is_none() {
            for (wy, ry, y) in &ranges {
                if wy.is_none() && ry.is_some() && x != y {
                    out.insert((*x, *y));
                }
            }
        }
    }
    out
}

#[test]
fn may_writes_and_kills_against_every_execution() {
    let m = model();
    assert!(!m.conditional_writes().is_empty().unwrap());
    assert!(!m.kills().is_empty().unwrap());
    let seq = Order::sequential(&m).unwrap();
    let ranges = LiveRanges::of(&m, &seq).unwrap();
    let all = conflicts(&m, &seq, &ranges).unwrap();
    for n in 0..=3i64 {
        let ops = ops(n);
        let may: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].2 == W::May).collect();
        let mut truth = BTreeSet::new();
        for mask in 0..1u32 << may.len() {
            let stores = |k: usize| {
                may.iter()
                    .position(|&j| j == k)
                    .is_some_and(|p| mask >> p & 1 == 1)
            };
            truth.extend(conflicts_of(&ops, &stores));
        }
        let footprint: BTreeSet<Cell> =
            ops.iter().filter(|o| o.2 != W::Kill).map(|o| o.1).collect();
        for c in &all {
            let name: &str = &c.name;
            let cells: Vec<i64> = footprint
                .iter()
                .filter(|x| x.0 == name)
                .map(|x| x.1)
                .collect();
            let mut count = 0;
            for &x in &cells {
                for &y in &cells {
                    if x == y {
                        continue;
                    }
                    let arr = footprint.iter().find(|f| f.0 == name).unwrap().0;
                    let key = ((arr, x), (arr, y));
                    let want = truth.contains(&key);
                    let pt: Vec<Int> = [n, x, y].iter().map(|&v| Int::from(v)).collect();
                    assert_eq!(
                        c.conflict.contains_point(&pt).unwrap(),
                        want,
                        "{name}[{x}] {name}[{y}] at N={n}"
                    );
                    count += usize::from(want);
                }
            }
            let fixed = c.conflict.fix_var(0, &Int::from(n));
            assert_eq!(
                fixed.card().unwrap().to_string(),
                count.to_string(),
                "{name} at N={n}"
            );
        }
    }
    // the kill ends the live-out range of B written by S2, S5's writes are
    // live-out; the may-write is a source of flows
    let part = |u: &presburger::UnionMap, s: &str| {
        u.maps()
            .iter()
            .filter(|m| m.space().domain.as_ref().unwrap().name.as_deref() == Some(s))
            .all(|m| m.is_empty().unwrap())
    };
    assert!(part(&ranges.live_out, "S2") && !part(&ranges.live_out, "S5"));
    let sources = ranges
        .flows
        .domain()
        .unwrap()
        .unwrap()
        .unwrap()
        .domain()
        .unwrap();
    assert!(sources
        .maps()
        .iter()
        .any(|m| m.space().range.name.as_deref() == Some("S1")));
}
