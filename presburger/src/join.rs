//! The joins of [`Map::apply_range`] and [`Map::apply`]: every pair of
//! disjuncts ([`join_parts`]), and the conjunction of two basic maps moved
//! into a common space with shared
//! existentials (the step of [`Map::apply_range`](crate::Map::apply_range)
//! and [`Map::apply`](crate::Map::apply)), built in one pass: each row of
//! either operand is copied once, straight into its place in the result.
//!
//! The simple version, kept as the oracle of the tests, moves each operand
//! into the space first ([`BasicMap::transform`]) and then conjoins the
//! copies ([`BasicMap::conjoin`]): every row is copied twice.

use crate::basic::{gather_row, remap_row, sources, BasicMap, Div};
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::space::Space;
use crate::structural::Dest;

pub(crate) mod subst;

/// `x.transform(space, dx, n_exist).conjoin(&y.transform(space, dy, n_exist), n_exist)`
/// with the same rows, locals and order, without the intermediate copies:
/// columns `[1 | vars of space | n_exist shared existentials | x's locals |
/// y's locals]`; `x`'s rows, then `y`'s.
pub(crate) fn join_pair(
    x: &BasicMap,
    y: &BasicMap,
    space: &Space,
    dx: &[Dest],
    dy: &[Dest],
    n_exist: usize,
) -> BasicMap {
    debug_assert_eq!(dx.len(), x.space.n_vars());
    debug_assert_eq!(dy.len(), y.space.n_vars());
    let nv = space.n_vars();
    let (nx, ny) = (x.n_div(), y.n_div());
    let first_local = 1 + nv + n_exist;
    let new_len = first_local + nx + ny;
    let column = |d: &Dest| match *d {
        Dest::Var(k) => 1 + k,
        Dest::Exist(k) => 1 + nv + k,
    };
    let columns = |dest: &[Dest], locals: std::ops::Range<usize>| -> Vec<usize> {
        let mut m = Vec::with_capacity(1 + dest.len() + locals.len());
        m.push(0);
        m.extend(dest.iter().map(column));
        m.extend(locals);
        m
    };
    let mx = columns(dx, first_local..first_local + nx);
    let my = columns(dy, first_local + nx..new_len);
    // each new row read off its sources in one pass (`remap_row` when two
    // old columns meet in one new column)
    let (sx, sy) = (sources(&mx, new_len), sources(&my, new_len));
    let move_row = |r: &[Int], m: &[usize], s: &Option<Vec<usize>>| match s {
        Some(s) => gather_row(r, s),
        None => remap_row(r, m, new_len),
    };
    let div = |d: &Option<Div>, m: &[usize], s: &Option<Vec<usize>>| {
        d.as_ref().map(|d| Div {
            num: move_row(&d.num, m, s),
            den: d.den.clone(),
        })
    };
    let mut divs = Vec::with_capacity(n_exist + nx + ny);
    divs.resize(n_exist, None);
    divs.extend(x.divs.iter().map(|d| div(d, &mx, &sx)));
    divs.extend(y.divs.iter().map(|d| div(d, &my, &sy)));
    let onto = |r: &crate::Rows,
                m: &[usize],
                s: &Option<Vec<usize>>,
                out: &mut crate::RowsWriter<'_>| match s {
        Some(s) => crate::basic::gather_onto(r, s, out),
        None => crate::basic::remap_onto(r, m, new_len, out),
    };
    let rows = |a: &crate::Rows, b: &crate::Rows| -> crate::Rows {
        let mut out = crate::Rows::with_capacity(a.len() + b.len(), new_len);
        let mut w = out.writer();
        onto(a, &mx, &sx, &mut w);
        onto(b, &my, &sy, &mut w);
        out
    };
    BasicMap {
        space: space.clone(),
        divs: divs.into(),
        eqs: rows(&x.eqs, &y.eqs),
        ineqs: rows(&x.ineqs, &y.ineqs),
        hint: Default::default(),
    }
}

/// [`eliminate`](crate::matrix::eliminate) of column `c` from `row` by a pivot with a unit
/// coefficient there (`piv[c] = ±1`), touching only the pivot's non-zero
/// columns `support`: with `|piv[c]| = 1`, `eliminate` computes
/// `1·row + m·piv` (`m = ∓row[c]`), which changes no other column. The same
/// values (the tests compare it with `eliminate`).
pub(crate) fn eliminate_unit(row: &mut [Int], piv: &[Int], support: &[usize], c: usize) {
    debug_assert!(is_unit(&piv[c]));
    if row[c].is_zero() {
        return;
    }
    let m = if piv[c].is_neg() {
        row[c].clone()
    } else {
        -&row[c]
    };
    for &k in support {
        row[k].combine_assign(&Int::ONE, &m, &piv[k]);
    }
}

/// True if `v` is 1 or -1.
fn is_unit(v: &Int) -> bool {
    matches!(v, Int::Small(1 | -1))
}

/// Substitute away the shared existentials of a joined basic map (its
/// first `n_exist` locals, without definitions: the middle of a
/// composition) that an equality with a unit coefficient defines, before
/// [`BasicMap::simplify`]: `e = f` (`f` free of `e`) is eliminated from every
/// other row and definition, then the equality and `e`'s column go, all
/// columns at once. The set is unchanged (each elimination adds a multiple
/// of an equality that holds on every point). `simplify` would do the same
/// one local at a time (Gaussian elimination, then dropping the local with
/// its equality) and then run a second round to find nothing more; this
/// leaves it one round.
///
/// Definitions stay acyclic: an equality is used on a column some
/// definition mentions only if it has no other local than shared
/// existentials (which have no definitions and come before every defined
/// local).
pub(crate) fn substitute_shared_existentials(z: &mut BasicMap, n_exist: usize) {
    if n_exist == 0 || z.eqs.is_empty() {
        return;
    }
    let off = z.off_div();
    let own = off + n_exist; // the first column of the operands' own locals
    let n = z.row_len();
    let mut gone = vec![false; n];
    let mut any = false;
    {
        let BasicMap {
            eqs, ineqs, divs, ..
        } = z;
        // freshly built by `join_pair`: the only owner, so no copy here
        let eqs: &mut crate::Rows = eqs;
        for c in off..own {
            let in_divs = divs.iter().flatten().any(|d| !d.num[c].is_zero());
            let Some(i) = eqs
                .iter()
                .position(|r| is_unit(&r[c]) && (!in_divs || r[own..].iter().all(Int::is_zero)))
            else {
                continue;
            };
            let piv = eqs.remove(i);
            // (the pivot's few non-zero columns, for the unit eliminations)
            let support: Vec<usize> = (0..n).filter(|&k| !piv[k].is_zero()).collect();
            for r in eqs.iter_mut() {
                eliminate_unit(r, &piv, &support, c);
            }
            if ineqs.iter().any(|r| !r[c].is_zero()) {
                for r in ineqs.iter_mut() {
                    eliminate_unit(r, &piv, &support, c);
                }
            }
            if in_divs {
                for d in divs.iter_mut().flatten() {
                    eliminate_unit(&mut d.num, &piv, &support, c);
                }
            }
            gone[c] = true;
            any = true;
        }
    }
    if !any {
        return;
    }
    // the columns gone: one block (the usual case, every shared existential
    // or a run of them) is cut out of each row in one move
    let first = gone.iter().position(|&g| g).unwrap_or(0);
    let end = first + gone[first..].iter().take_while(|&&g| g).count();
    let block = gone[end..].iter().all(|&g| !g);
    let compact = |r: &mut Vec<Int>| {
        if block {
            r.drain(first..end);
            return;
        }
        let mut k = 0;
        r.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
    };
    z.eqs.retain_columns(|c| !gone[c]);
    z.ineqs.retain_columns(|c| !gone[c]);
    let mut k = off;
    z.divs.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
    for d in z.divs.iter_mut().flatten() {
        compact(&mut d.num);
    }
}

/// The constants that the equalities of `b` give to the shared
/// existentials (`Dest::Exist(k)` of `dest`): entry `k` is `Some(v)` if an
/// equality `a·x + c = 0` mentions only that variable `x` (moved to
/// existential `k`) and `a` divides `c` (`v = -c / a`). Empty (no
/// allocation) when there is none.
fn fixed_middle(b: &BasicMap, dest: &[Dest], n_exist: usize) -> Vec<Option<Int>> {
    let mut out = Vec::new();
    for r in b.eqs.iter() {
        let mut nz = (1..r.len()).filter(|&c| !r[c].is_zero());
        let (Some(c), None) = (nz.next(), nz.next()) else {
            continue;
        };
        if let Some(Dest::Exist(k)) = dest.get(c - 1) {
            if r[0].is_divisible_by(&r[c]) {
                out.resize(n_exist, None);
                out[*k] = Some(-&r[0].div_exact(&r[c]));
            }
        }
    }
    out
}

/// Every pair of disjuncts of `a` and `b` joined ([`join_parts`] with its
/// shortcuts): the step of [`Map::apply`].
pub(crate) fn join(
    a: &Map,
    b: &Map,
    space: Space,
    da: &[Dest],
    db: &[Dest],
    n_exist: usize,
) -> Result<Map> {
    join_parts(a, b, space, da, db, n_exist, true)
}

/// [`join`]; with `fast`, a pair whose equalities fix a shared variable to
/// two different constants is left out unbuilt (its conjunction is empty),
/// and the shared variables that equalities of `a`'s part give are
/// substituted as the rows are built ([`crate::join::subst`]); without,
/// every pair is built whole, then its shared variables substituted and
/// simplified (the simple version, the tests' oracle).
pub(crate) fn join_parts(
    a: &Map,
    b: &Map,
    space: Space,
    da: &[Dest],
    db: &[Dest],
    n_exist: usize,
    fast: bool,
) -> Result<Map> {
    // (the disjuncts collected before the map is built: a push through
    // the map's `DerefMut` checks its sharing every time)
    let mut out: Vec<BasicMap> = Vec::new();
    let fixed = |m: &Map, d: &[Dest]| -> Vec<Vec<Option<Int>>> {
        if fast && n_exist > 0 {
            m.parts
                .iter()
                .map(|p| fixed_middle(p, d, n_exist))
                .collect()
        } else {
            Vec::new()
        }
    };
    // (no constant on `a`'s side: no clash, `b`'s side not looked at)
    let fa = fixed(a, da);
    let fa = if fa.iter().all(Vec::is_empty) {
        Vec::new()
    } else {
        fa
    };
    let fb = if fa.is_empty() {
        Vec::new()
    } else {
        fixed(b, db)
    };
    // the shared variables each part of `a` gives by an equality
    let given: Vec<Vec<crate::join::subst::Given>> = if fast && n_exist > 0 {
        a.parts
            .iter()
            .map(|x| crate::join::subst::given(x, da, n_exist))
            .collect()
    } else {
        Vec::new()
    };
    // a part repeating an earlier one of its operand: its pairs take the
    // earlier pairs' answers ([`repeated`]); where each pair's answer went
    let (ra, rb) = if fast {
        (
            crate::structural::repeated::repeats(&a.parts),
            crate::structural::repeated::repeats(&b.parts),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let nb = b.parts.len();
    let mut answer_at: Vec<Option<usize>> = if ra.is_empty() && rb.is_empty() {
        Vec::new()
    } else {
        vec![None; a.parts.len() * nb]
    };
    for (ix, x) in a.parts.iter().enumerate() {
        for (iy, y) in b.parts.iter().enumerate() {
            crate::budget::tick(1)?;
            if !answer_at.is_empty() {
                let jx = ra.get(ix).copied().flatten().unwrap_or(ix);
                let jy = rb.get(iy).copied().flatten().unwrap_or(iy);
                if (jx, jy) != (ix, iy) {
                    // (an earlier pair: jx < ix, or jx = ix and jy < iy)
                    if let Some(p) = answer_at[jx * nb + jy] {
                        answer_at[ix * nb + iy] = Some(out.len());
                        let z = out[p].clone();
                        out.push(z);
                    }
                    continue;
                }
            }
            if !fa.is_empty()
                && fa[ix]
                    .iter()
                    .zip(&fb[iy])
                    .any(|(u, v)| matches!((u, v), (Some(u), Some(v)) if u != v))
            {
                continue;
            }
            // each row copied once into its place (`join`: the simple
            // version, transform then conjoin, is its tests' oracle)
            // (the shared variables `x`'s equalities give substituted as
            // the rows are built: `join::subst`)
            let (mut z, n_left) = match given.get(ix) {
                Some(g) if !g.is_empty() => {
                    crate::join::subst::join_pair_given(x, y, &space, da, db, n_exist, g, true)
                }
                _ => (
                    crate::join::join_pair(x, y, &space, da, db, n_exist),
                    n_exist,
                ),
            };
            // the middle's unit equalities substituted first (`simplify`
            // alone gives the same set, in two rounds: the tests' oracle)
            crate::join::substitute_shared_existentials(&mut z, n_left);
            if z.simplify() {
                if !answer_at.is_empty() {
                    answer_at[ix * nb + iy] = Some(out.len());
                }
                out.push(z);
            }
        }
    }
    Ok(Map::new(space, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;
    use proptest::prelude::*;

    /// The simple version: transform both, then conjoin.
    fn join_by_copies(
        x: &BasicMap,
        y: &BasicMap,
        space: &Space,
        dx: &[Dest],
        dy: &[Dest],
        n: usize,
    ) -> BasicMap {
        x.transform(space.clone(), dx, n)
            .conjoin(&y.transform(space.clone(), dy, n), n)
    }

    /// Pieces of relations `{ [i, j] -> [k] }` and `{ [k] -> [l, m] }` with
    /// parameters, equalities, existentials and integer divisions.
    const LEFT: &[&str] = &[
        "0 <= i < n",
        "j = 2i + 1",
        "k = i + j",
        "k >= 3j - n",
        "exists e : i = 3e + k",
        "k = floor((i + j)/2)",
        "(i + k) mod 3 = 1",
        "j <= n",
        "k < 2n",
    ];
    const RIGHT: &[&str] = &[
        "l = k + 1",
        "0 <= m <= k",
        "exists f : l = 2f",
        "m = floor(k/4)",
        "l + m <= n",
        "(k - l) mod 2 = 0",
        "m >= n - 3",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The unit elimination is `eliminate`, and the one-pass move of a
        /// row by its sources is `remap_row`, value for value (big entries
        /// included).
        #[test]
        fn unit_elimination_and_gather_are_the_simple_ones(
            row in prop::collection::vec(-3i64..4, 6),
            piv in prop::collection::vec(-2i64..3, 6),
            c in 1usize..6,
            neg in any::<bool>(),
            big in any::<bool>(),
            perm in Just((0..6usize).collect::<Vec<_>>()).prop_shuffle(),
            extra in 0usize..3,
        ) {
            let huge = Int::from(i64::MAX);
            let mut r: Vec<Int> = row.iter().map(|&v| Int::from(v)).collect();
            let mut p: Vec<Int> = piv.iter().map(|&v| Int::from(v)).collect();
            if big {
                r[0] = &r[0] * &huge;
                p[(c + 1) % 6] = &huge + &huge;
            }
            p[c] = Int::from(if neg { -1 } else { 1 });
            let support: Vec<usize> = (0..6).filter(|&k| !p[k].is_zero()).collect();
            let mut fast = r.clone();
            eliminate_unit(&mut fast, &p, &support, c);
            let mut slow = r.clone();
            crate::matrix::eliminate(&mut slow, &p, c);
            prop_assert_eq!(&fast, &slow);
            // column 0 stays, the others are permuted into a longer row
            let mut map = perm.clone();
            let z = map.iter().position(|&k| k == 0).unwrap();
            map.swap(0, z);
            let new_len = 6 + extra;
            let src = crate::basic::sources(&map, new_len).unwrap();
            prop_assert_eq!(crate::basic::gather_row(&r, &src), remap_row(&r, &map, new_len));
            // two columns meeting: no sources
            let mut meet = map.clone();
            meet[1] = meet[2];
            prop_assert!(crate::basic::sources(&meet, new_len).is_none());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

        /// Row for row, the one-pass join is the simple one (for the layouts
        /// of `apply_range` and `apply`), and the composition it builds
        /// agrees with brute force on a box.
        #[test]
        fn join_pair_is_transform_then_conjoin(
            l in prop::collection::vec(0..LEFT.len(), 0..4),
            r in prop::collection::vec(0..RIGHT.len(), 0..4),
        ) {
            let text = |pool: &[&str], picks: &[usize]| {
                let c: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
                if c.is_empty() { "true".to_string() } else { c.join(" and ") }
            };
            let a: Map = format!("[n] -> {{ [i, j] -> [k] : {} }}", text(LEFT, &l)).parse().unwrap();
            let b: Map = format!("[n] -> {{ [k] -> [l, m] : {} }}", text(RIGHT, &r)).parse().unwrap();
            let c = a.apply_range(&b).unwrap();
            let space = c.space().clone();
            // apply_range's layout: params | in of a | out of b, a's out and b's in shared
            let da = [Dest::Var(0), Dest::Var(1), Dest::Var(2), Dest::Exist(0)];
            let db = [Dest::Var(0), Dest::Exist(0), Dest::Var(3), Dest::Var(4)];
            for x in a.basic_maps() {
                for y in b.basic_maps() {
                    let fast = join_pair(x, y, &space, &da, &db, 1);
                    let slow = join_by_copies(x, y, &space, &da, &db, 1);
                    prop_assert!(fast.plain_is_equal(&slow), "{:?} {:?}", l, r);
                }
            }
            // the substitution of the middle keeps each joined piece's set,
            // its invariants, and leaves no unit equality on a shared column
            // that it could have used
            for x in a.basic_maps() {
                for y in b.basic_maps() {
                    let z = join_pair(x, y, &space, &da, &db, 1);
                    let mut s = z.clone();
                    substitute_shared_existentials(&mut s, 1);
                    prop_assert!(s.check_lengths() && s.divs_ordered(), "{:?}", s);
                    prop_assert!(s.n_div() <= z.n_div() && s.eqs.len() <= z.eqs.len());
                    if s.n_div() == z.n_div() {
                        prop_assert!(s.eqs.iter().all(|r| !is_unit(&r[s.off_div()])
                            || z.divs.iter().flatten().any(|d| !d.num[z.off_div()].is_zero())));
                    }
                    let (mut zs, mut ss) = (z.clone(), s.clone());
                    // (a basic map found empty becomes the canonical empty one)
                    zs.simplify();
                    ss.simplify();
                    let one = |b: BasicMap| Map::new(space.clone(), vec![b]);
                    prop_assert!(one(z.clone()).is_equal(&one(s.clone())).unwrap(), "{:?} {:?}", l, r);
                    prop_assert!(one(zs).is_equal(&one(ss)).unwrap(), "{:?} {:?}", l, r);
                }
            }
            // the composition against brute force: (i, j) -> (l, m) on a box
            // (every pick bounds k, or leaves it free, within -8..24 there:
            // k >= 3j - n with j <= 5 and k = 2 mod 3 reaches 17)
            let int = |v: &[i64]| v.iter().map(|&x| crate::Int::from(x)).collect::<Vec<_>>();
            let ks = -8..24i64;
            for n in 0..2i64 {
                let in_b: Vec<(i64, i64, i64)> = ks.clone()
                    .flat_map(|k| (-1..6i64).flat_map(move |lv| (-1..3i64).map(move |m| (k, lv, m))))
                    .filter(|&(k, lv, m)| b.contains_point(&int(&[n, k, lv, m])).unwrap())
                    .collect();
                for i in -1..3i64 {
                    for j in -1..6i64 {
                        let ka: Vec<i64> = ks.clone()
                            .filter(|&k| a.contains_point(&int(&[n, i, j, k])).unwrap())
                            .collect();
                        for lv in -1..6i64 {
                            for m in -1..3i64 {
                                let want = in_b.iter().any(|&(k, l2, m2)| l2 == lv && m2 == m && ka.contains(&k));
                                let got = c.contains_point(&int(&[n, i, j, lv, m])).unwrap();
                                prop_assert_eq!(got, want, "{:?} {:?} at {:?}", l, r, (n, i, j, lv, m));
                            }
                        }
                    }
                }
            }
        }
    }
}
