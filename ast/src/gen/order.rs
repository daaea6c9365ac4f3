//! Ordering and separating the pieces of a level: groups of pieces
//! scanned one after the other (by dimension `l` alone, or by the whole
//! remaining times), a statement's ordered disjuncts, and the regions of
//! `separate`.

use super::{Gen, Piece};
use crate::error::Result;
use crate::expr::Expr;
use crate::node::Node;
use crate::options::LoopKind;
use crate::rows::{find_root, project_keep, remap, set_space};
use presburger::{BasicMap, Int, Map};

#[cfg(test)]
mod tests;

/// Most disjuncts [`Gen::split_disjuncts`] orders one by one.
const MAX_SPLIT: usize = 12;

impl Gen<'_> {
    /// The pieces (with their sets inside the context) in groups ordered by
    /// their remaining times; a piece made of several disjuncts is first
    /// split into them (at most [`MAX_SPLIT`] in all), so that disjuncts
    /// ordered in time run one after the other. Disjuncts of one statement
    /// are only ordered when they are disjoint (an instance runs once), and
    /// those that end up in one group are united again. Not for an
    /// [`LoopKind::Atomic`] dimension.
    #[allow(clippy::type_complexity)]
    pub(super) fn split_disjuncts(
        &self,
        l: usize,
        live: Vec<Piece>,
        inter: Vec<Map>,
    ) -> Result<(Vec<Piece>, Vec<Map>, Vec<Vec<usize>>)> {
        let total: usize = inter.iter().map(|s| s.basic_maps().len()).sum();
        let atomic = l < self.scan.n_sched && self.options.kind(l) == LoopKind::Atomic;
        if total == inter.len() || total > MAX_SPLIT || atomic {
            let groups = self.order_by(l, &inter, true, None)?;
            return Ok((live, inter, groups));
        }
        let mut owner = Vec::new();
        let mut sub = Vec::new();
        for (k, s) in inter.iter().enumerate() {
            for b in s.basic_maps() {
                owner.push(k);
                sub.push(Map::from_basic(b.clone()));
            }
        }
        let (sub_before, tested) = self.before_matrix(l, &sub, true, Some(&owner))?;
        let groups = groups_of(&sub_before);
        if groups.len() == 1 {
            // the pieces ordered as wholes: a piece precedes another when
            // each of its disjuncts precedes each of the other's, which the
            // pairs of disjuncts of different pieces tell
            // ([`Self::lex_before_both`] of two pieces is that conjunction;
            // the pairs left untested, already in one group, are tested now,
            // but only for two pieces whose order the tested pairs leave
            // open: once each is after the other somewhere, no pair of
            // theirs changes the conjunction)
            let k = inter.len();
            let mut before = vec![vec![true; k]; k];
            for a in 0..sub.len() {
                for b in 0..sub.len() {
                    if owner[a] != owner[b] && tested[a][b] && !sub_before[a][b] {
                        before[owner[a]][owner[b]] = false;
                    }
                }
            }
            for a in 0..sub.len() {
                for b in a + 1..sub.len() {
                    let (oa, ob) = (owner[a], owner[b]);
                    if oa != ob && !tested[a][b] && (before[oa][ob] || before[ob][oa]) {
                        let (ab, ba) = self.lex_before_both(l, &sub[a], &sub[b])?;
                        if !ab {
                            before[oa][ob] = false;
                        }
                        if !ba {
                            before[ob][oa] = false;
                        }
                    }
                }
            }
            return Ok((live, inter, groups_of(&before)));
        }
        let (mut pieces, mut sets, mut out_groups) = (Vec::new(), Vec::new(), Vec::new());
        for g in groups {
            let mut members = Vec::new();
            let mut owners: Vec<usize> = g.iter().map(|&k| owner[k]).collect();
            owners.sort();
            owners.dedup();
            for o in owners {
                let mut set = Map::empty(inter[o].space().clone());
                for &k in g.iter().filter(|&&k| owner[k] == o) {
                    set = set.union(&sub[k])?;
                }
                members.push(pieces.len());
                pieces.push(Piece {
                    set: set.clone(),
                    ..live[o].clone()
                });
                sets.push(set);
            }
            out_groups.push(members);
        }
        Ok((pieces, sets, out_groups))
    }

    /// Split the pieces into groups whose values of dimension `l` are
    /// ordered (every value of a group before every value of the next, for
    /// the same outer values); pieces that overlap share a group.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn order(&self, l: usize, projs: &[Map]) -> Result<Vec<Vec<usize>>> {
        self.order_by(l, projs, false, None)
    }

    /// [`Self::order`]; `lex`: a piece precedes another when its remaining
    /// schedule times (dimensions `l..`) are never lexicographically after
    /// the other's for equal outer values (the sets are whole pieces).
    #[allow(clippy::needless_range_loop)]
    fn order_by(
        &self,
        l: usize,
        projs: &[Map],
        lex: bool,
        owners: Option<&[usize]>,
    ) -> Result<Vec<Vec<usize>>> {
        if projs.len() == 1 {
            return Ok(vec![vec![0]]);
        }
        Ok(groups_of(&self.before_matrix(l, projs, lex, owners)?.0))
    }

    /// `before[a][b]` for the sets of [`Self::order_by`]: no value of `a`
    /// is `>=` a value of `b` (by dimension `l`, or lexicographically by
    /// the remaining times when `lex`; disjuncts of one owner must also be
    /// disjoint), and which pairs were tested.
    ///
    /// A pair whose sets are already linked by pairs that overlap (neither
    /// before the other) is not tested: they end in one group whatever its
    /// answer, and [`groups_of`] reads only pairs of different groups (its
    /// entries are left `false` both ways, an overlap, which changes
    /// nothing).
    #[allow(clippy::needless_range_loop, clippy::type_complexity)]
    fn before_matrix(
        &self,
        l: usize,
        projs: &[Map],
        lex: bool,
        owners: Option<&[usize]>,
    ) -> Result<(Vec<Vec<bool>>, Vec<Vec<bool>>)> {
        let k = projs.len();
        let mut before = vec![vec![true; k]; k];
        let mut tested = vec![vec![false; k]; k];
        // components of the overlap relation found so far
        let mut comp: Vec<usize> = (0..k).collect();
        for a in 0..k {
            for b in a + 1..k {
                let (ra, rb) = (find_root(&mut comp, a), find_root(&mut comp, b));
                if ra == rb {
                    before[a][b] = false;
                    before[b][a] = false;
                    continue;
                }
                let (ab, ba) = if !lex {
                    (
                        self.strictly_before(l, &projs[a], &projs[b])?,
                        self.strictly_before(l, &projs[b], &projs[a])?,
                    )
                } else {
                    // both directions at once (they share the pairs' products)
                    let (ab, ba) = self.lex_before_both(l, &projs[a], &projs[b])?;
                    if owners.is_some_and(|o| o[a] == o[b]) && (ab || ba) {
                        // parts of one statement: also disjoint
                        let test =
                            || -> Result<bool> { Ok(projs[a].intersect(&projs[b])?.is_empty()?) };
                        let disjoint = match (projs[a].basic_maps(), projs[b].basic_maps()) {
                            ([x], [y]) => self.memo.disjoint(x, y, test)?,
                            _ => test()?,
                        };
                        (ab && disjoint, ba && disjoint)
                    } else {
                        (ab, ba)
                    }
                };
                before[a][b] = ab;
                before[b][a] = ba;
                tested[a][b] = true;
                tested[b][a] = true;
                if !ab && !ba {
                    comp[ra] = rb;
                }
            }
        }
        Ok((before, tested))
    }
}

/// The groups of [`Gen::order_by`] from its `before` matrix: the components
/// of the "overlap" relation (neither before the other), in an order where
/// every group comes before those that some of its members must precede
/// (a cycle merges its groups).
#[allow(clippy::needless_range_loop)]
fn groups_of(before: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let k = before.len();
    // components of the "overlap" relation
    let mut comp: Vec<usize> = (0..k).collect();
    for a in 0..k {
        for b in a + 1..k {
            if !before[a][b] && !before[b][a] {
                let (ra, rb) = (find_root(&mut comp, a), find_root(&mut comp, b));
                comp[ra] = rb;
            }
        }
    }
    loop {
        let mut roots: Vec<usize> = (0..k).map(|x| find_root(&mut comp, x)).collect();
        roots.sort();
        roots.dedup();
        let members = |comp: &mut Vec<usize>, r: usize| -> Vec<usize> {
            (0..k).filter(|&x| find_root(comp, x) == r).collect()
        };
        let groups: Vec<Vec<usize>> = roots.iter().map(|&r| members(&mut comp, r)).collect();
        let m = groups.len();
        // must[i][j]: group i has to come before group j
        let mut must = vec![vec![false; m]; m];
        for i in 0..m {
            for j in 0..m {
                if i != j {
                    must[i][j] = groups[i]
                        .iter()
                        .any(|&a| groups[j].iter().any(|&b| !before[b][a]));
                }
            }
        }
        // topological order; a cycle merges its groups and retries
        let mut done = vec![false; m];
        let mut seq = Vec::new();
        let mut stuck = false;
        while seq.len() < m {
            let next = (0..m).find(|&i| !done[i] && (0..m).all(|j| done[j] || !must[j][i]));
            match next {
                Some(i) => {
                    done[i] = true;
                    seq.push(i);
                }
                None => {
                    stuck = true;
                    break;
                }
            }
        }
        if !stuck {
            return seq.into_iter().map(|i| groups[i].clone()).collect();
        }
        let rest: Vec<usize> = (0..m).filter(|&i| !done[i]).collect();
        let r0 = find_root(&mut comp, groups[rest[0]][0]);
        for &i in &rest[1..] {
            let ri = find_root(&mut comp, groups[i][0]);
            comp[ri] = r0;
        }
    }
}

impl Gen<'_> {
    /// Whether `a` is before `b` and whether `b` is before `a`: no point of
    /// the first has schedule times `l..` lexicographically after those of
    /// a point of the second with the same outer values (equal times may
    /// run in any order). The disjuncts of `a` and `b` are nonempty (parts
    /// of coalesced sets).
    ///
    /// Only the schedule dimensions are compared: where the statement
    /// coordinates of both parts are substitutions of the others, the
    /// pairs are built on the parts' projections onto the schedule
    /// dimensions (the same points of those dimensions, half the columns).
    fn lex_before_both(&self, l: usize, a: &Map, b: &Map) -> Result<(bool, bool)> {
        let (mut ab, mut ba) = (true, true);
        for pa_full in a.basic_maps() {
            for pb_full in b.basic_maps() {
                if !ab && !ba {
                    return Ok((false, false));
                }
                // the tests of each direction still open
                let mut plans: Vec<(bool, Vec<usize>)> = Vec::new();
                for (forward, (x, y)) in [(true, (pa_full, pb_full)), (false, (pb_full, pa_full))] {
                    if !(if forward { ab } else { ba }) {
                        continue;
                    }
                    match self.lex_tests(l, x, y) {
                        LexTests::After => {
                            if forward {
                                ab = false;
                            } else {
                                ba = false;
                            }
                        }
                        LexTests::Test(tests) if !tests.is_empty() => plans.push((forward, tests)),
                        LexTests::Test(_) => {}
                    }
                }
                if plans.is_empty() {
                    continue;
                }
                // the pair's product, built once for both directions and
                // only when some answer is not remembered
                let mut both: Option<Option<(BasicMap, usize)>> = None;
                for (forward, tests) in plans {
                    let (x, y) = if forward {
                        (pa_full, pb_full)
                    } else {
                        (pb_full, pa_full)
                    };
                    let after = self.memo.lex_after(x, y, &tests, || {
                        if both.is_none() {
                            both = Some(self.lex_product(l, pa_full, pb_full)?);
                        }
                        match both.as_ref().unwrap() {
                            // (no pair of points with equal outer values)
                            None => Ok(false),
                            Some((b, n)) => self.after_in(b, l, *n, forward, &tests),
                        }
                    })?;
                    if after {
                        if forward {
                            ab = false;
                        } else {
                            ba = false;
                        }
                    }
                }
            }
        }
        Ok((ab, ba))
    }

    /// The product of the parts `pa` and `pb` on their common dimensions
    /// `..l` (equal outer values): `a`'s `n` dimensions, then `b`'s
    /// dimensions `l..n` (its dimensions `..l` are `a`'s), and the number
    /// `n` of dimensions of each side: only the schedule dimensions where
    /// the statement coordinates of both parts are substitutions of the
    /// others (the same points of those dimensions, half the columns).
    /// `None` if empty.
    fn lex_product(
        &self,
        l: usize,
        pa_full: &BasicMap,
        pb_full: &BasicMap,
    ) -> Result<Option<(BasicMap, usize)>> {
        let full = self.scan.n;
        let d = self.scan.n_sched;
        let np = self.scan.params.len();
        let leading = if d < full {
            match (
                self.memo.leading_dims(pa_full, d, full)?,
                self.memo.leading_dims(pb_full, d, full)?,
            ) {
                (Some(x), Some(y)) => Some((x, y)),
                _ => None,
            }
        } else {
            None
        };
        let (pa, pb, n) = match &leading {
            Some((x, y)) => (x, y, d),
            None => (pa_full, pb_full, full),
        };
        let space = set_space(&self.scan.params, 2 * n - l);
        let ea = remap(pa, &space, &|c| c);
        // b's dimensions `l..` after a's; its dimensions `..l` are a's
        let eb = remap(pb, &space, &|c| if c <= np + l { c } else { c + n - l });
        let both_map = Map::from_basic(ea).intersect(&Map::from_basic(eb))?;
        Ok(both_map.basic_maps().first().cloned().map(|b| (b, n)))
    }

    /// Whether the product `both` of [`Self::lex_product`] at level `l`
    /// (`n` dimensions a side) has a point where the first side (the second
    /// if not `forward`) is after the other by `tests` (dimensions `l..`):
    /// first's `k` > second's `k` after equal earlier dimensions of `tests`
    /// (the skipped dimensions are equal constants in both: their
    /// equalities hold already).
    fn after_in(
        &self,
        both: &BasicMap,
        l: usize,
        n: usize,
        forward: bool,
        tests: &[usize],
    ) -> Result<bool> {
        let np = self.scan.params.len();
        // the columns of dimension `k` (`k >= l`) of a and of b
        let a_col = |k: usize| 1 + np + k;
        let b_col = |k: usize| 1 + np + n + k - l;
        let mut prefix = both.clone();
        for &k in tests {
            let (first, second) = if forward {
                (a_col(k), b_col(k))
            } else {
                (b_col(k), a_col(k))
            };
            // the first side's dimension below the second's at every point
            // (constant bounds of the product): neither after nor equal
            // here, so no later test either
            if let (Some(hi), Some(lo)) = (
                const_bound(both, first, true),
                const_bound(both, second, false),
            ) {
                if hi < lo {
                    // (the engine's answer, checked in debug and unit-test
                    // builds: no point after, none equal)
                    if cfg!(any(test, debug_assertions)) {
                        for (c, eq) in [(-1, false), (0, true)] {
                            let mut q = prefix.clone();
                            let mut r = vec![Int::ZERO; q.row_len()];
                            r[first] = Int::ONE;
                            r[second] = -&Int::ONE;
                            r[0] = Int::from(c);
                            if eq {
                                q.add_eq(r);
                            } else {
                                q.add_ineq(r);
                            }
                            assert!(
                                Map::from_basic(q).is_empty()?,
                                "after_in: constant bounds {hi} < {lo} and a point"
                            );
                        }
                    }
                    return Ok(false);
                }
            }
            let mut gt = prefix.clone();
            let mut r = vec![Int::ZERO; gt.row_len()];
            r[first] = Int::ONE;
            r[second] = -&Int::ONE;
            r[0] = -&Int::ONE;
            gt.add_ineq(r);
            if !Map::from_basic(gt).is_empty()? {
                return Ok(true);
            }
            let mut r = vec![Int::ZERO; prefix.row_len()];
            r[a_col(k)] = Int::ONE;
            r[b_col(k)] = -&Int::ONE;
            prefix.add_eq(r);
        }
        Ok(false)
    }

    /// The dimensions `l..` whose comparison needs a test for "`x` before
    /// `y`": where both parts fix a dimension to constants, `x_k > y_k` is
    /// decided without one (smaller: no later dimension matters; equal: the
    /// next one decides; larger: only the test that the parts meet with
    /// equal outer values is left, none at the outermost level).
    fn lex_tests(&self, l: usize, x: &BasicMap, y: &BasicMap) -> LexTests {
        let d = self.scan.n_sched;
        let np = self.scan.params.len();
        let mut tests = Vec::new();
        for k in l..d {
            match (fixed_value(x, 1 + np + k), fixed_value(y, 1 + np + k)) {
                (Some(a), Some(b)) if a < b => break,
                (Some(a), Some(b)) if a == b => continue,
                (Some(_), Some(_)) if l == 0 && tests.is_empty() => {
                    // no outer dimension to be equal on: two nonempty
                    // parts meet, and `x` is after `y`
                    return LexTests::After;
                }
                (Some(_), Some(_)) => {
                    tests.push(k);
                    break;
                }
                _ => tests.push(k),
            }
        }
        LexTests::Test(tests)
    }

    /// True if no point of `a` has a value of dimension `l` >= that of a
    /// point of `b` with the same outer values.
    fn strictly_before(&self, l: usize, a: &Map, b: &Map) -> Result<bool> {
        let n = self.scan.n;
        let np = self.scan.params.len();
        let space = set_space(&self.scan.params, n + 1);
        let col_l = 1 + np + l;
        let col_x = 1 + np + n;
        for ba in a.basic_maps() {
            let fa = fixed_value(ba, col_l);
            let ea = remap(ba, &space, &|c| c);
            for bb in b.basic_maps() {
                // constants: a_l < b_l decides without a test
                if let (Some(x), Some(y)) = (&fa, fixed_value(bb, col_l)) {
                    if *x < y {
                        continue;
                    }
                }
                let mut eb = remap(bb, &space, &|c| if c == col_l { col_x } else { c });
                let mut r = vec![Int::ZERO; eb.row_len()];
                r[col_l] = Int::ONE;
                r[col_x] = -&Int::ONE;
                eb.add_ineq(r);
                let both = Map::from_basic(ea.clone()).intersect(&Map::from_basic(eb))?;
                if !both.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// The constant upper (`upper`) or lower bound on column `col` that a row
/// of `b` on that column alone gives (the tightest of them), if any.
fn const_bound(b: &BasicMap, col: usize, upper: bool) -> Option<Int> {
    let alone = |r: &[Int]| {
        !r[col].is_zero()
            && r.iter()
                .enumerate()
                .skip(1)
                .all(|(j, v)| j == col || v.is_zero())
    };
    let mut best: Option<Int> = None;
    let mut take = |v: Int| {
        best = Some(match best.take() {
            None => v,
            Some(w) if upper => w.min(v),
            Some(w) => w.max(v),
        });
    };
    // a·x + c >= 0: x >= ceil(-c / a) = -floor(c / a) when a > 0,
    // x <= floor(c / -a) when a < 0
    for r in b.ineqs().iter().filter(|r| alone(r)) {
        let (a, c) = (&r[col], &r[0]);
        match (a.is_neg(), upper) {
            (true, true) => take(c.div_floor(&-a)),
            (false, false) => take(-&c.div_floor(a)),
            _ => {}
        }
    }
    for r in b.eqs().iter().filter(|r| alone(r)) {
        let (a, c) = (&r[col], &r[0]);
        let v = -c;
        let q = v.div_floor(a);
        if &q * a == v {
            take(q);
        }
    }
    best
}

/// What the fixed dimensions of two parts tell of their order.
enum LexTests {
    /// The first part is after the second somewhere.
    After,
    /// The dimensions whose comparison is still to be tested (none: the
    /// first part is before the second).
    Test(Vec<usize>),
}

/// The value column `col` of `b` is fixed to by an equality of `b` on it
/// alone (`None` if there is no such row, or its value is not an integer).
fn fixed_value(b: &BasicMap, col: usize) -> Option<Int> {
    b.eqs().iter().find_map(|r| {
        let c = &r[col];
        if c.is_zero()
            || r.iter()
                .enumerate()
                .skip(1)
                .any(|(j, v)| j != col && !v.is_zero())
        {
            return None;
        }
        let v = -&r[0];
        let q = v.div_floor(c);
        (&q * c == v).then_some(q)
    })
}

impl Gen<'_> {
    /// [`LoopKind::Separate`]: the union of the pieces' projections split
    /// into the regions where the same pieces run, each scanned on its own
    /// with only those pieces, when the regions are ordered along
    /// dimension `l` (`None` otherwise, or if there is a single region).
    pub(super) fn separate(
        &self,
        l: usize,
        pieces: &[Piece],
        projs: &[&Map],
        ctx: &Map,
        env: &mut Vec<Expr>,
    ) -> Result<Option<Vec<Node>>> {
        let n = self.scan.n;
        // the projection of each piece (they may share a projection map)
        let proj_of: Vec<Map> = pieces
            .iter()
            .map(|p| {
                let s = p.set.intersect(ctx)?;
                project_keep(&s, l + 1, n).and_then(|m| self.memo.coalesced(&m))
            })
            .collect::<Result<_>>()?;
        let _ = projs;
        let mut regions: Vec<(Vec<usize>, Map)> = Vec::new();
        for (k, p) in proj_of.iter().enumerate() {
            let mut next = Vec::new();
            let mut rest = p.clone();
            // (coalesced sets: empty exactly when they have no parts)
            for (mask, r) in regions {
                let inside = self.memo.coalesced(&r.intersect(p)?)?;
                let outside = self.memo.coalesced(&r.subtract(p)?)?;
                rest = rest.subtract(&r)?;
                if !inside.basic_maps().is_empty() {
                    let mut m = mask.clone();
                    m.push(k);
                    next.push((m, inside));
                }
                if !outside.basic_maps().is_empty() {
                    next.push((mask, outside));
                }
            }
            let rest = self.memo.coalesced(&rest)?;
            if !rest.basic_maps().is_empty() {
                next.push((vec![k], rest));
            }
            regions = next;
        }
        if regions.len() < 2 {
            return Ok(None);
        }
        let sets: Vec<Map> = regions.iter().map(|(_, r)| r.clone()).collect();
        let order = self.order(l, &sets)?;
        if order.iter().any(|g| g.len() > 1) {
            return Ok(None);
        }
        let mut out = Vec::new();
        for g in order {
            let (mask, region) = &regions[g[0]];
            let mut sub = Vec::new();
            for &k in mask {
                let set = pieces[k].set.intersect(region)?;
                sub.push(Piece {
                    set,
                    ..pieces[k].clone()
                });
            }
            // a region is scanned without separating again
            out.extend(self.group(
                l,
                sub,
                &[region],
                ctx,
                env,
                false,
                super::Stage::Kind(LoopKind::Separate),
            )?);
        }
        Ok(Some(out))
    }
}
