//! Statements whose domains are unions of possibly overlapping boxes, with
//! random schedules: every instance runs exactly once, in schedule order
//! (the splitting of a statement's disjuncts must never run an instance
//! of the overlap twice), against brute-force enumeration.

use ast::{generate, run};
use std::collections::BTreeMap;

struct Rng(u64);
impl Rng {
    fn pick(&mut self, n: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n) as i64
    }
}

/// A box `lo <= (i, j) <= hi`.
type Box2 = ([i64; 2], [i64; 2]);

fn check(seed: u64) {
    let mut rng = Rng(seed);
    let nst = 1 + rng.pick(2) as usize;
    let mut stmts: Vec<(String, Vec<Box2>, [i64; 3], [i64; 3])> = Vec::new();
    let mut parts = Vec::new();
    for k in 0..nst {
        let boxes: Vec<Box2> = (0..2 + rng.pick(2))
            .map(|_| {
                let (a, b) = (rng.pick(6), rng.pick(6));
                ([a, b], [a + rng.pick(4), b + rng.pick(4)])
            })
            .collect();
        // times: [c0·i + c1·j + c2, k-th offset, j]
        let t0 = [rng.pick(2), rng.pick(2), rng.pick(3)];
        let t1 = [0, 0, rng.pick(2)];
        let cons: Vec<String> = boxes
            .iter()
            .map(|(lo, hi)| {
                format!(
                    "({} <= i <= {} and {} <= j <= {})",
                    lo[0], hi[0], lo[1], hi[1]
                )
            })
            .collect();
        parts.push(format!(
            "S{k}[i, j] -> [{}i + {}j + {}, {}, j] : {}",
            t0[0],
            t0[1],
            t0[2],
            t1[2],
            cons.join(" or ")
        ));
        stmts.push((format!("S{k}"), boxes, t0, t1));
    }
    let text = format!("{{ {} }}", parts.join("; "));
    let schedule = text.parse().unwrap();
    let context = "{ : }".parse().unwrap();
    let code = generate(&schedule, &context).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut expected: BTreeMap<(String, Vec<i64>), Vec<i64>> = BTreeMap::new();
    for (name, boxes, t0, t1) in &stmts {
        for i in 0..12 {
            for j in 0..12 {
                if boxes
                    .iter()
                    .any(|(lo, hi)| lo[0] <= i && i <= hi[0] && lo[1] <= j && j <= hi[1])
                {
                    let t = vec![t0[0] * i + t0[1] * j + t0[2], t1[2], j];
                    expected.insert((name.clone(), vec![i, j]), t);
                }
            }
        }
    }
    let trace = run(&code, &[], 100_000).unwrap();
    let mut last: Option<&Vec<i64>> = None;
    let mut seen = BTreeMap::new();
    for inst in &trace {
        let t = expected
            .get(inst)
            .unwrap_or_else(|| panic!("{text}\n{code}\nextra {inst:?}"));
        assert!(
            seen.insert(inst.clone(), ()).is_none(),
            "{text}\n{code}\n{inst:?} twice"
        );
        if let Some(l) = last {
            assert!(l <= t, "{text}\n{code}\n{inst:?} at {t:?} after {l:?}");
        }
        last = Some(t);
    }
    assert_eq!(
        seen.len(),
        expected.len(),
        "{text}\n{code}\nmissing instances"
    );
}

#[test]
fn unions_of_boxes_run_each_instance_once_in_order() {
    for seed in 0..120 {
        check(seed);
    }
}

#[test]
fn locals_with_one_value_are_eliminated() {
    // floor((4 + i)/262144) is 0 for 1 <= i <= 12: the guard is plain
    let schedule = "[b] -> { A[i] -> [i] : 1 <= i <= 12 and exists (e = floor((4 + i)/262144): 262144e <= 4 - 8b + i and 262144e >= -3 - 8b + i) }"
        .parse()
        .unwrap();
    let context = "[b] -> { : 0 <= b <= 2 }".parse().unwrap();
    let code = ast::generate(&schedule, &context).unwrap();
    let c = code.to_c();
    assert!(!c.contains("262144") && !c.contains('%'), "{c}");
    for b in 0..=2 {
        let t = ast::run(&code, &[("b".into(), b)], 1000).unwrap();
        let expected: Vec<i64> = (1..=12)
            .filter(|i| 8 * b - 4 <= *i && *i <= 8 * b + 3)
            .collect();
        let got: Vec<i64> = t.iter().map(|(_, a)| a[0]).collect();
        assert_eq!(got, expected, "b = {b}\n{c}");
    }
}
