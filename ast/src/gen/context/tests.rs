//! Tests of the contexts' helpers against the engine and brute force.

use super::*;

fn map(s: &str) -> Map {
    s.parse().unwrap()
}

/// A small deterministic generator (a linear congruence).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n) as i64
    }

    /// A row `a·i + b·j + c >= 0` with small coefficients.
    fn row(&mut self) -> String {
        let (a, b, c) = (self.next(5) - 2, self.next(5) - 2, self.next(9) - 2);
        format!("{a}i + {b}j + {c} >= 0")
    }

    /// One to three rows, sometimes a congruence (as an existential).
    fn rows(&mut self) -> String {
        let rows: Vec<String> = (0..1 + self.next(3)).map(|_| self.row()).collect();
        let rows = rows.join(" and ");
        match self.next(4) {
            0 => format!("exists (e : i = 2e and {rows})"),
            1 => format!("exists (e : i + j = 2e + 1 and {rows})"),
            2 => format!("exists (e : j = 3e and {rows})"),
            _ => rows,
        }
    }
}

/// Whether every point of the box `0 <= i, j <= 5` in `ctx` lies in `m`.
fn covered_on_box(m: &Map, ctx: &Map) -> bool {
    for i in 0..=5 {
        for j in 0..=5 {
            let p = [Int::from(i), Int::from(j)];
            if ctx.contains_point(&p).unwrap() && !m.contains_point(&p).unwrap() {
                return false;
            }
        }
    }
    true
}

#[test]
fn rows_decide_inclusion_as_the_engine_and_brute_force() {
    let mut rng = Lcg(7);
    let (mut decided, mut yes, mut no) = (0, 0, 0);
    for _ in 0..400 {
        // ctx: the box, a row, sometimes a congruence; m: disjuncts that
        // share some of ctx's rows (the generator's guards are the
        // statement's rows, many of them the loops' bounds in ctx)
        let shared = rng.row();
        let ctx = map(&format!(
            "{{ [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and {shared} and {} }}",
            rng.rows()
        ))
        .coalesce_simplified()
        .unwrap();
        let n = 1 + rng.next(3);
        let parts: Vec<String> = (0..n)
            .map(|_| {
                let r = rng.rows();
                if rng.next(2) == 0 {
                    format!("[i, j] : 0 <= i <= 5 and {shared} and {r}")
                } else {
                    format!("[i, j] : {r}")
                }
            })
            .collect();
        let m = map(&format!("{{ {} }}", parts.join("; ")));
        // as written (existentials: not decided) and coalesced (divisions)
        for m in [m.clone(), m.coalesce_simplified().unwrap()] {
            if ctx.basic_maps().len() != 1 {
                continue;
            }
            let Some(c) = covered_by_rows(&m, &ctx).unwrap() else {
                continue;
            };
            decided += 1;
            assert_eq!(c, ctx.is_subset(&m).unwrap(), "m = {m}, ctx = {ctx}");
            assert_eq!(c, covered_on_box(&m, &ctx), "m = {m}, ctx = {ctx}");
            if c {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    // the rows decide often, both ways
    assert!(decided > 100 && yes > 20 && no > 20, "{decided} {yes} {no}");
}

#[test]
fn rows_of_the_context_and_divisions_hold() {
    // the guard of tiled_mix's statement: `i % 2 == 0 || j > i` where
    // `j - i` is odd and the bounds are the loops'
    let ctx = map("{ [i, j] : 0 <= i <= 7 and 0 <= j <= 7 and exists (e : i - j = 2e + 1) }")
        .coalesce_simplified()
        .unwrap();
    let m = map(
        "{ [i, j] : 0 <= i <= 7 and 0 <= j <= 7 and exists (e, f : i - j = 2e + 1 and i = 2f); \
         [i, j] : 0 <= i <= 7 and j <= 7 and j >= i + 1 and exists (e : i - j = 2e + 1) }",
    )
    .coalesce_simplified()
    .unwrap();
    assert_eq!(m.basic_maps().len(), 2, "{m}");
    assert_eq!(covered_by_rows(&m, &ctx).unwrap(), Some(false));
    assert!(!ctx.is_subset(&m).unwrap());
    // `i` even or `i` odd: every point
    let m = map(
        "{ [i, j] : 0 <= i <= 7 and exists (e : i = 2e); [i, j] : 0 <= j <= 7 and exists (e : i = 2e + 1) }",
    )
    .coalesce_simplified()
    .unwrap();
    if let Some(c) = covered_by_rows(&m, &ctx).unwrap() {
        assert!(c, "{m}");
    }
    assert!(ctx.is_subset(&m).unwrap());
    // a disjunct whose rows ctx has (one looser): every point, no test
    let m = map("{ [i, j] : 0 <= i <= 9 and 0 <= j <= 7; [i, j] : i = 100 }");
    assert_eq!(covered_by_rows(&m, &ctx).unwrap(), Some(true));
    // an equality's complement on both sides
    let m = map("{ [i, j] : j = i + 1; [i, j] : j <= i - 1; [i, j] : j >= i + 2 }");
    assert_eq!(covered_by_rows(&m, &ctx).unwrap(), Some(true));
    let m = map("{ [i, j] : j = i + 3; [i, j] : j <= i - 1; [i, j] : j >= i + 4 }");
    assert_eq!(covered_by_rows(&m, &ctx).unwrap(), Some(false));
    // the empty set covers only an empty context
    let empty = Map::empty(ctx.space().clone());
    assert_eq!(covered_by_rows(&empty, &ctx).unwrap(), Some(false));
}

#[test]
fn rows_the_context_has_hold_on_it() {
    // every row `holds` or `has_eq` says holds on ctx is implied there
    // (ctx and the row violated: empty), on random sets with divisions
    let mut rng = Lcg(11);
    let mut seen = 0;
    for _ in 0..200 {
        let shared = rng.row();
        let ctx = map(&format!(
            "{{ [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and {shared} and {} }}",
            rng.rows()
        ))
        .coalesce_simplified()
        .unwrap();
        let [c] = ctx.basic_maps() else { continue };
        let m = map(&format!(
            "{{ [i, j] : 0 <= i <= 5 and {shared} and {} }}",
            rng.rows()
        ))
        .coalesce_simplified()
        .unwrap();
        for b in m.basic_maps() {
            let Some(rows) = RowsOf::new(b, c) else {
                continue;
            };
            let violated = |r: &[Int], sign: bool| -> bool {
                let mut v: Vec<Int> = r
                    .iter()
                    .map(|x| if sign { -x } else { x.clone() })
                    .collect();
                v[0] = &v[0] - &Int::ONE;
                Map::from_basic(with_locals(b, &[(false, v)]))
                    .intersect(&ctx)
                    .unwrap()
                    .is_empty()
                    .unwrap()
            };
            for r in b.eqs() {
                if rows.has_eq(r) {
                    seen += 1;
                    assert!(violated(r, true) && violated(r, false), "{m} / {ctx}");
                }
            }
            for r in b.ineqs() {
                if rows.holds(r) {
                    seen += 1;
                    assert!(violated(r, true), "{m} / {ctx}");
                }
            }
        }
    }
    assert!(seen > 100, "{seen}");
}
