//! Coalescing and gist.
//!
//! [`Map::coalesce`] drops empty disjuncts and disjuncts contained in others.
//! [`Map::gist`] removes the constraints of each disjunct that the context
//! (together with the disjunct's other constraints) implies, and the
//! disjuncts that do not meet the context. Both are exact.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::ops::point_excluded;

impl Map {
    /// An equal map with fewer disjuncts where possible.
    ///
    /// The result is the same as [`coalesce_by_pairs`](Self::coalesce_by_pairs)
    /// (kept as its test oracle), computed with cached per-disjunct data
    /// (a sample point and a rational tableau, see `Part`) so that most
    /// containment and validity questions are answered by evaluation or one
    /// LP instead of an integer emptiness test or a difference.
    pub fn coalesce(&self) -> Result<Map> {
        let mut parts = Part::all(self)?;
        if parts.len() <= 1 {
            // nothing to compare: only the redundant rows go
            for p in &mut parts {
                p.remove_redundant_rows()?;
            }
            return Ok(Part::into_map(self.space.clone(), parts));
        }
        // drop disjuncts contained in one other disjunct (same order of
        // decisions as the oracle: every answer is exact, so the result is
        // the same)
        let mut keep: Vec<Part> = Vec::new();
        for mut p in parts {
            let mut covered = false;
            for k in &mut keep {
                if p.is_subset_of(k)? {
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            let mut next = Vec::with_capacity(keep.len() + 1);
            for mut k in keep {
                if !k.is_subset_of(&mut p)? {
                    next.push(k);
                }
            }
            next.push(p);
            keep = next;
        }
        // fuse pairs whose combined valid constraints describe exactly their union
        let mut changed = true;
        while changed {
            changed = false;
            'pairs: for i in 0..keep.len() {
                for j in i + 1..keep.len() {
                    crate::budget::tick(1)?;
                    let (l, r) = keep.split_at_mut(j);
                    if let Some(h) = fuse_parts(&mut l[i], &mut r[0])? {
                        keep.remove(j);
                        keep[i] = h;
                        changed = true;
                        break 'pairs;
                    }
                }
            }
        }
        for p in &mut keep {
            p.remove_redundant_rows()?;
        }
        Ok(Part::into_map(self.space.clone(), keep))
    }

    /// The plain version of [`coalesce`](Self::coalesce): containment by
    /// [`Map::is_subset`], fusion by integer emptiness tests. Kept as the
    /// test oracle of the fast version (both give the same disjuncts).
    #[doc(hidden)]
    pub fn coalesce_by_pairs(&self) -> Result<Map> {
        let m = self.remove_empty_parts()?;
        let mut keep: Vec<BasicMap> = Vec::new();
        for b in &m.parts {
            let single = Map::from_basic(b.clone());
            let mut covered = false;
            for k in &keep {
                if single.is_subset(&Map::from_basic(k.clone()))? {
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            let mut next = Vec::with_capacity(keep.len() + 1);
            for k in keep {
                if !Map::from_basic(k.clone()).is_subset(&single)? {
                    next.push(k);
                }
            }
            next.push(b.clone());
            keep = next;
        }
        // fuse pairs whose combined valid constraints describe exactly their union
        let mut changed = true;
        while changed {
            changed = false;
            'pairs: for i in 0..keep.len() {
                for j in i + 1..keep.len() {
                    crate::budget::tick(1)?;
                    if let Some(h) = fuse(&keep[i], &keep[j])? {
                        keep.remove(j);
                        keep[i] = h;
                        changed = true;
                        break 'pairs;
                    }
                }
            }
        }
        for b in &mut keep {
            b.remove_redundancies()?;
        }
        Ok(Map {
            space: m.space,
            parts: keep,
        })
    }

    /// A map equal to `self` inside `context`, with constraints implied by the context removed.
    pub fn gist(&self, context: &Map) -> Result<Map> {
        let (a, c) = self.aligned(context, "gist")?;
        let c = c.remove_empty_parts()?;
        let mut out = Map::empty(a.space.clone());
        for b in &a.parts {
            let mut b = b.clone();
            if !b.simplify() {
                continue;
            }
            let bm = Map::from_basic(b.clone());
            if bm.intersect(&c)?.is_empty()? {
                continue;
            }
            let protected = div_constraints(&b);
            let mut k = 0;
            while k < b.ineqs.len() {
                if protected.contains(&b.ineqs[k]) {
                    k += 1;
                    continue;
                }
                let mut rest = b.clone();
                let row = rest.ineqs.remove(k);
                let mut neg: Vec<crate::Int> = row.iter().map(|v| -v).collect();
                neg[0] = &neg[0] - &crate::Int::ONE;
                let mut viol = rest.clone();
                viol.ineqs.push(neg);
                if Map::from_basic(viol).intersect(&c)?.is_empty()? {
                    b = rest;
                } else {
                    k += 1;
                }
            }
            out.parts.push(b);
        }
        if out.parts.is_empty() {
            return Ok(out);
        }
        Ok(out)
    }

    /// The integer affine hull: the equalities satisfied by every integer
    /// point (parameters included), as a basic map without inequalities.
    ///
    /// Found by collecting affinely independent integer points: start from
    /// one sample, take the equalities the points found so far satisfy, and
    /// look for a point of the map violating one of them; stop when none does.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i, j] : 0 <= i <= 5 and j = 2i + 1 }".parse().unwrap();
    /// let h = s.affine_hull().unwrap();
    /// assert!(h.is_equal(&"{ [i, j] : j = 2i + 1 }".parse().unwrap()).unwrap());
    /// ```
    pub fn affine_hull(&self) -> Result<Map> {
        let nv = self.space.n_vars();
        let mut points: Vec<Vec<Int>> = Vec::new();
        for b in &self.parts {
            if let Some(p) = b.sample()? {
                points.push(p);
                break;
            }
        }
        if points.is_empty() {
            return Ok(Map::empty(self.space.clone()));
        }
        loop {
            crate::budget::tick(1)?;
            let eqs = null_space_affine(&points, nv);
            let mut found = None;
            'search: for e in &eqs {
                for sign in [1i64, -1] {
                    // sign·e(x) - 1 >= 0
                    for b in &self.parts {
                        let mut t = b.clone();
                        let mut row = vec![Int::ZERO; t.row_len()];
                        for (k, v) in e.iter().enumerate() {
                            row[k] = v * &Int::from(sign);
                        }
                        row[0] = &row[0] - &Int::ONE;
                        t.ineqs.push(row);
                        if let Some(p) = t.sample()? {
                            found = Some(p);
                            break 'search;
                        }
                    }
                }
            }
            match found {
                Some(p) => points.push(p),
                None => {
                    let mut b = BasicMap::universe(self.space.clone());
                    for e in eqs {
                        b.eqs.push(e);
                    }
                    b.simplify();
                    return Ok(Map::from_basic(b));
                }
            }
        }
    }

    /// A basic map containing the map: its integer affine hull intersected
    /// with the tightest translates of the constraints of its disjuncts (and
    /// of the coordinate bounds) that hold for every disjunct (isl's *simple
    /// hull*; it is the convex hull when the union is convex).
    pub fn convex_hull(&self) -> Result<Map> {
        let m = self.remove_empty_parts()?;
        if m.parts.is_empty() {
            return Ok(m);
        }
        let nv = m.space.n_vars();
        let mut hull = m
            .affine_hull()?
            .parts
            .pop()
            .unwrap_or_else(|| BasicMap::universe(m.space.clone()));
        // candidate directions: constraints of the parts without locals, and ±x_k
        let mut dirs: Vec<Vec<Int>> = Vec::new();
        for b in &m.parts {
            for r in &b.ineqs {
                if r[1 + nv..].iter().all(Int::is_zero) {
                    let d = r[1..1 + nv].to_vec();
                    if !dirs.contains(&d) {
                        dirs.push(d);
                    }
                }
            }
        }
        for k in 0..nv {
            for s in [1i64, -1] {
                let mut d = vec![Int::ZERO; nv];
                d[k] = Int::from(s);
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        for d in dirs {
            // c = max over parts of -min(d·x): d·x + c >= 0 on every part
            let mut worst: Option<Int> = None;
            let mut bounded = true;
            for b in &m.parts {
                let mut t = b.rational_tableau()?;
                let mut obj = vec![Int::ZERO; b.row_len()];
                obj[1..1 + nv].clone_from_slice(&d);
                match t.minimize(&obj)? {
                    crate::simplex::Opt::Value(num, den) => {
                        let lo = num.div_ceil(&den);
                        worst = Some(match worst {
                            Some(w) if w <= lo => w,
                            _ => lo,
                        });
                    }
                    crate::simplex::Opt::Unbounded => {
                        bounded = false;
                        break;
                    }
                }
            }
            if let (true, Some(lo)) = (bounded, worst) {
                let mut row = vec![Int::ZERO; hull.row_len()];
                row[1..1 + nv].clone_from_slice(&d);
                row[0] = -&lo;
                hull.ineqs.push(row);
            }
        }
        hull.simplify();
        Ok(Map::from_basic(hull))
    }
}

/// The basic map of the constraints of `a` valid on `b` and of `b` valid on
/// `a`, if it equals `a ∪ b` (checked exactly); only for maps without locals.
fn fuse(a: &BasicMap, b: &BasicMap) -> Result<Option<BasicMap>> {
    if a.n_div() > 0 || b.n_div() > 0 {
        return Ok(None);
    }
    let valid_on = |rows: &[Vec<Int>], other: &BasicMap| -> Result<Vec<Vec<Int>>> {
        let mut out = Vec::new();
        for r in rows {
            let mut t = other.clone();
            let mut neg: Vec<Int> = r.iter().map(|v| -v).collect();
            neg[0] = &neg[0] - &Int::ONE;
            t.ineqs.push(neg);
            if t.is_empty()? {
                out.push(r.clone());
            }
        }
        Ok(out)
    };
    let as_ineqs = |x: &BasicMap| -> Vec<Vec<Int>> {
        let mut v = x.ineqs.clone();
        for e in &x.eqs {
            v.push(e.clone());
            v.push(e.iter().map(|c| -c).collect());
        }
        v
    };
    let mut h = BasicMap::universe(a.space.clone());
    h.ineqs = valid_on(&as_ineqs(a), b)?;
    h.ineqs.extend(valid_on(&as_ineqs(b), a)?);
    if !h.simplify() {
        return Ok(None);
    }
    let union = Map {
        space: a.space.clone(),
        parts: vec![a.clone(), b.clone()],
    };
    if Map::from_basic(h.clone()).is_subset(&union)? {
        Ok(Some(h))
    } else {
        Ok(None)
    }
}

/// The affine equalities `e·(1, x) = 0` satisfied by all `points` (rows of
/// length `1 + nv`), as a basis of the null space of `[1 | points]`.
fn null_space_affine(points: &[Vec<Int>], nv: usize) -> Vec<Vec<Int>> {
    // rows: (1, p); find all e with rows · e = 0 via fraction-free elimination
    let mut m: Vec<Vec<Int>> = points
        .iter()
        .map(|p| {
            let mut r = vec![Int::ONE];
            r.extend(p.iter().cloned());
            r
        })
        .collect();
    let ncol = 1 + nv;
    let mut pivots: Vec<usize> = Vec::new();
    let mut row = 0;
    for c in 0..ncol {
        let Some(pr) = (row..m.len()).find(|&r| !m[r][c].is_zero()) else {
            continue;
        };
        m.swap(row, pr);
        for r in 0..m.len() {
            if r != row && !m[r][c].is_zero() {
                let a = m[row][c].clone();
                let b = m[r][c].clone();
                for k in 0..ncol {
                    m[r][k] = Int::combine(&a, &m[r][k], &-&b, &m[row][k]);
                }
                let g = crate::int::gcd_slice(&m[r]);
                if !g.is_zero() && !g.is_one() {
                    m[r].iter_mut().for_each(|v| *v = v.div_exact(&g));
                }
            }
        }
        pivots.push(c);
        row += 1;
        if row == m.len() {
            break;
        }
    }
    // free columns give basis vectors
    let mut out = Vec::new();
    for f in 0..ncol {
        if pivots.contains(&f) {
            continue;
        }
        // e_f = 1·L, e_pivot = -m[r][f]·L / m[r][pivot]
        let mut l = Int::ONE;
        for (r, &pc) in pivots.iter().enumerate() {
            l = l.lcm(&m[r][pc]);
        }
        let mut e = vec![Int::ZERO; ncol];
        e[f] = l.clone();
        for (r, &pc) in pivots.iter().enumerate() {
            e[pc] = -&(&m[r][f] * &l.div_exact(&m[r][pc]));
        }
        let g = crate::int::gcd_slice(&e);
        if !g.is_zero() && !g.is_one() {
            e.iter_mut().for_each(|v| *v = v.div_exact(&g));
        }
        out.push(e);
    }
    out
}

fn div_constraints(b: &BasicMap) -> Vec<Vec<crate::Int>> {
    let mut out = Vec::new();
    let off = b.off_div();
    for (k, d) in b.divs.iter().enumerate() {
        if let Some(d) = d {
            out.extend(d.bounds(off + k));
        }
    }
    out
}

/// A simplified, non-empty disjunct with data cached for the pairwise
/// questions of [`Map::coalesce`] and [`Map::is_equal_fast`]: one integer
/// point of it and (built when first needed) the simplex tableau of its
/// rational relaxation, shared by every LP asked about this disjunct.
pub(crate) struct Part {
    b: BasicMap,
    /// An integer point `(params, in, out)` of `b`: `None` while not
    /// looked for, `Some(None)` if `b` is empty.
    pt: Option<Option<Vec<Int>>>,
    /// The rational relaxation of `b` (locals as rational unknowns).
    tab: Option<crate::simplex::Tableau>,
}

impl Part {
    fn new(b: BasicMap) -> Part {
        Part {
            b,
            pt: None,
            tab: None,
        }
    }

    /// The non-empty disjuncts of `m`, simplified as by
    /// [`Map::remove_empty_parts`] (with its LP detection of relations
    /// between locals), so that they are exactly its disjuncts.
    fn all(m: &Map) -> Result<Vec<Part>> {
        let mut out = Vec::with_capacity(m.parts.len());
        for b in &m.parts {
            // the exact emptiness test's point is not returned: a point is
            // looked for again when one is needed (usually a cheap guess)
            if let Some(b) = b.simplified_nonempty()? {
                out.push(Part::new(b));
            }
        }
        Ok(out)
    }

    /// An integer point of the disjunct, or `None` if it is empty (exact).
    /// When the tableau is already built:
    /// - the rational relaxation is empty: empty;
    /// - the tableau's sample point (a solution of the relaxation) is
    ///   integral and satisfies every row (checked): a point; the locals'
    ///   values are witnesses, and the constraints alone define the set;
    /// - otherwise [`BasicMap::sample`].
    fn point(&mut self) -> Result<Option<&[Int]>> {
        if self.pt.is_none() {
            // the tableau costs about as much as a failed guess and search:
            // use it only when it is already built
            let found = match self.tab.is_some() {
                true => self.rational_point()?,
                false => None,
            };
            let found = match found {
                Some(Some(x)) => Some(x),
                Some(None) => None,
                None => self.b.sample()?,
            };
            self.pt = Some(found);
        }
        Ok(self.pt.as_ref().expect("just set").as_deref())
    }

    /// `Some(None)` if the relaxation is empty, `Some(Some(x))` for a
    /// verified integral sample of the tableau, `None` if undecided.
    fn rational_point(&mut self) -> Result<Option<Option<Vec<Int>>>> {
        let n = self.b.row_len();
        let t = self.tab()?;
        if t.is_empty() {
            return Ok(Some(None));
        }
        let mut v = Vec::with_capacity(n);
        v.push(Int::ONE);
        for k in 0..n - 1 {
            let (num, den) = t.sample_value(k);
            if !num.is_divisible_by(&den) {
                return Ok(None);
            }
            v.push(num.div_exact(&den));
        }
        let ok = self.b.eqs.iter().all(|e| dot1(e, &v[1..]).is_zero())
            && self.b.ineqs.iter().all(|r| !dot1(r, &v[1..]).is_neg());
        if !ok {
            return Ok(None);
        }
        v.truncate(1 + self.b.space.n_vars());
        v.remove(0);
        Ok(Some(Some(v)))
    }

    fn into_map(space: crate::Space, parts: Vec<Part>) -> Map {
        Map {
            space,
            parts: parts.into_iter().map(|p| p.b).collect(),
        }
    }

    fn tab(&mut self) -> Result<&mut crate::simplex::Tableau> {
        if self.tab.is_none() {
            self.tab = Some(self.b.rational_tableau()?);
        }
        Ok(self.tab.as_mut().expect("just built"))
    }

    /// The minimum of `row · (1, x, l)` over the rational relaxation, as
    /// `(num, den)`, or `None` if unbounded. Only for a non-empty relaxation.
    fn min(&mut self, row: &[Int]) -> Result<Option<(Int, Int)>> {
        let t = self.tab()?;
        if t.is_empty() {
            // no optimum; callers read `None` as "not proved"
            return Ok(None);
        }
        // `minimize` leaves the tableau describing the same polyhedron
        Ok(match t.minimize(row)? {
            crate::simplex::Opt::Value(n, d) => Some((n, d)),
            crate::simplex::Opt::Unbounded => None,
        })
    }

    /// True if the row `r ≥ 0` holds at every integer point of the
    /// disjunct. Only for disjuncts without locals (then the integer points
    /// of the relaxation are exactly the disjunct's points).
    ///
    /// - LP: `r` takes integer values at integer points, so a rational
    ///   minimum `> -1` means `r ≥ 0` at all of them: valid.
    /// - the cached point violates `r`: not valid.
    /// - otherwise the exact test: the disjunct with `r ≤ -1` is empty.
    fn is_valid(&mut self, r: &[Int]) -> Result<bool> {
        debug_assert_eq!(self.b.n_div(), 0);
        if let Some((n, d)) = self.min(r)? {
            if n > -&d {
                return Ok(true);
            }
        }
        if let Some(x) = self.point()? {
            if dot1(r, x).is_neg() {
                return Ok(false);
            }
        }
        let mut t = self.b.clone();
        let mut neg: Vec<Int> = r.iter().map(|v| -v).collect();
        neg[0] = &neg[0] - &Int::ONE;
        t.ineqs.push(neg);
        t.is_empty()
    }

    /// Exact `self ⊆ q`, trying cheap tests before [`Map::is_subset`]:
    /// - syntactic containment (`syntactically_contains`): contained;
    /// - `self`'s point is proved outside `q` (`point_excluded`): not contained;
    /// - same row layout and every row of `q` has a rational minimum `> -1`
    ///   over `self`'s relaxation: contained. At an integer point `(x, l)` of
    ///   `self` each row of `q` is an integer `> -1`, so `(x, l)` satisfies
    ///   all of `q`'s rows and `x ∈ q` with the witnesses `l` for `q`'s
    ///   locals (the constraints alone define a basic map).
    fn is_subset_of(&mut self, q: &mut Part) -> Result<bool> {
        Ok(match self.cheap_subset_of(q)? {
            Some(v) => v,
            None => Map::from_basic(self.b.clone()).is_subset(&Map::from_basic(q.b.clone()))?,
        })
    }

    /// The cheap tests of [`is_subset_of`](Self::is_subset_of): `None` when
    /// they do not decide.
    fn cheap_subset_of(&mut self, q: &Part) -> Result<Option<bool>> {
        if syntactically_contains(&q.b, &self.b) {
            return Ok(Some(true));
        }
        match self.point()? {
            // empty: contained in anything
            None => return Ok(Some(true)),
            Some(x) if point_excluded(&q.b, x) => return Ok(Some(false)),
            _ => {}
        }
        Ok(if self.lp_contained_in(&q.b)? {
            Some(true)
        } else {
            None
        })
    }

    /// The LP test of [`is_subset_of`](Self::is_subset_of).
    fn lp_contained_in(&mut self, q: &BasicMap) -> Result<bool> {
        if q.row_len() != self.b.row_len() || q.space.params != self.b.space.params {
            return Ok(false);
        }
        for e in &q.eqs {
            let neg: Vec<Int> = e.iter().map(|v| -v).collect();
            for r in [e, &neg] {
                match self.min(r)? {
                    Some((n, d)) if n > -&d => {}
                    _ => return Ok(false),
                }
            }
        }
        for r in &q.ineqs {
            match self.min(r)? {
                Some((n, d)) if n > -&d => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// [`BasicMap::remove_redundancies`] with fewer tableaux; the same rows
    /// are removed. Inequality `k` is tested in order against all the other
    /// rows still present, as there:
    /// - it is the only bound of some column in its direction (no equality
    ///   involves the column, every other inequality has a zero or opposite
    ///   coefficient): moving along that column keeps the other rows
    ///   satisfied and makes row `k` negative, so it is not redundant (the
    ///   disjunct is non-empty);
    /// - its rational minimum over the whole relaxation `P` is `> 0`: it is
    ///   redundant. If the other rows allowed a point `y` with `r_k(y) < 0`,
    ///   the segment from `y` to a point of `P` would cross `r_k = 0` at a
    ///   point satisfying every row, i.e. a point of `P` with `r_k = 0`.
    ///   Removing a redundant row leaves `P` unchanged, so the one tableau
    ///   of `P` serves for every row (tried only when that tableau is
    ///   already built for other LPs);
    /// - otherwise the LP of `remove_redundancies`: minimize `r_k` over the
    ///   other rows; redundant iff the minimum is `≥ 0`. The tableau of the
    ///   equalities and the kept rows before `k` is built incrementally
    ///   (when some row first needs it) and copied for each such test.
    fn remove_redundant_rows(&mut self) -> Result<()> {
        let n = self.b.row_len();
        // the tableau of the equalities and of the kept rows before `k`,
        // built when first needed and then brought up to date
        let mut prefix: Option<(crate::simplex::Tableau, usize)> = None;
        let mut k = 0;
        while k < self.b.ineqs.len() {
            crate::budget::tick(1)?;
            if only_bound_in_some_column(&self.b, k) {
                k += 1;
                continue;
            }
            // only with the tableau of `P` at hand (built for other LPs)
            if self.tab.is_some() {
                let r = self.b.ineqs[k].clone();
                if matches!(self.min(&r)?, Some((num, _)) if num.is_pos()) {
                    self.b.ineqs.remove(k);
                    continue;
                }
            }
            let (pre, upto) = match &mut prefix {
                Some(p) => p,
                None => {
                    let mut t = crate::simplex::Tableau::new(n - 1);
                    for e in &self.b.eqs {
                        t.add_eq(e)?;
                    }
                    prefix.insert((t, 0))
                }
            };
            if pre.is_empty() {
                // cannot happen for a non-empty disjunct; as the original
                return Ok(());
            }
            for r in &self.b.ineqs[*upto..k] {
                pre.add_ineq(r)?;
            }
            *upto = k;
            let mut t = pre.clone();
            for r in &self.b.ineqs[k + 1..] {
                t.add_ineq(r)?;
            }
            if t.is_empty() {
                return Ok(());
            }
            let redundant = match t.minimize(&self.b.ineqs[k])? {
                crate::simplex::Opt::Value(num, _) => !num.is_neg(),
                crate::simplex::Opt::Unbounded => false,
            };
            if redundant {
                self.b.ineqs.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}

/// `r · (1, x)` for a row without locals (`r.len() == 1 + x.len()`).
fn dot1(r: &[Int], x: &[Int]) -> Int {
    let mut s = r[0].clone();
    for (a, v) in r[1..].iter().zip(x) {
        if !a.is_zero() {
            s.add_mul(a, v);
        }
    }
    s
}

/// Inequality `k` of `b` is the only bound of some column in its direction
/// (see [`Part::remove_redundant_rows`]).
fn only_bound_in_some_column(b: &BasicMap, k: usize) -> bool {
    let r = &b.ineqs[k];
    (1..b.row_len()).any(|c| {
        let s = r[c].signum();
        s != 0
            && b.eqs.iter().all(|e| e[c].is_zero())
            && b.ineqs
                .iter()
                .enumerate()
                .all(|(i, o)| i == k || o[c].signum() * s <= 0)
    })
}

/// True if every constraint of `q` follows from a single constraint of `p`
/// with the same row layout (same space and number of locals): an equality
/// of `q` is an equality of `p` up to sign; an inequality `c + a·v ≥ 0` of
/// `q` follows from an inequality `c' + a·v ≥ 0` of `p` with `c' ≤ c`, or
/// from an equality `±(c' + a·v) = 0` of `p` with `±c' ≤ c`. Then a point
/// `(x, l)` satisfying `p`'s rows satisfies `q`'s, so `p ⊆ q` (the
/// constraints alone define a basic map). `false` means "not proved".
pub(crate) fn syntactically_contains(q: &BasicMap, p: &BasicMap) -> bool {
    if q.row_len() != p.row_len()
        || q.space.params != p.space.params
        || !q.space.tuples_match(&p.space)
    {
        return false;
    }
    let opposite = |a: &[Int], b: &[Int]| a.iter().zip(b).all(|(x, y)| (x + y).is_zero());
    // rows without variables that hold (`0 = 0`, `c >= 0` with `c >= 0`)
    // hold everywhere and need no implying row
    let constant = |r: &[Int]| r[1..].iter().all(Int::is_zero);
    q.eqs
        .iter()
        .all(|e| (constant(e) && e[0].is_zero()) || p.eqs.iter().any(|f| f == e || opposite(f, e)))
        && q.ineqs.iter().all(|r| {
            (constant(r) && !r[0].is_neg())
                || p.ineqs.iter().any(|f| f[1..] == r[1..] && f[0] <= r[0])
                || p.eqs.iter().any(|f| {
                    (f[1..] == r[1..] && f[0] <= r[0])
                        || (opposite(&f[1..], &r[1..]) && -&f[0] <= r[0])
                })
        })
}

/// [`fuse`] on cached disjuncts: the same answer, with validity decided by
/// [`Part::is_valid`] (LP or the cached point first). The fused disjunct
/// contains `a`, so `a`'s point is a point of it.
fn fuse_parts(a: &mut Part, b: &mut Part) -> Result<Option<Part>> {
    if a.b.n_div() > 0 || b.b.n_div() > 0 {
        return Ok(None);
    }
    let as_ineqs = |x: &BasicMap| -> Vec<Vec<Int>> {
        let mut v = x.ineqs.clone();
        for e in &x.eqs {
            v.push(e.clone());
            v.push(e.iter().map(|c| -c).collect());
        }
        v
    };
    let mut h = BasicMap::universe(a.b.space.clone());
    for r in as_ineqs(&a.b) {
        if b.is_valid(&r)? {
            h.ineqs.push(r);
        }
    }
    for r in as_ineqs(&b.b) {
        if a.is_valid(&r)? {
            h.ineqs.push(r);
        }
    }
    if !h.simplify() {
        return Ok(None);
    }
    let union = Map {
        space: a.b.space.clone(),
        parts: vec![a.b.clone(), b.b.clone()],
    };
    if Map::from_basic(h.clone()).is_subset(&union)? {
        Ok(Some(Part {
            b: h,
            pt: a.pt.clone(),
            tab: None,
        }))
    } else {
        Ok(None)
    }
}

impl Map {
    /// Exact equality, as [`Map::is_equal`] (its test oracle), with cached
    /// disjunct data: disjuncts syntactically contained in a disjunct of the
    /// other side (e.g. identical ones) are settled at once; then a sample
    /// point of an unsettled disjunct outside every disjunct of the other
    /// side refutes (tried for both sides before any proof); then the
    /// remaining disjuncts are proved contained as [`Map::is_subset`] does,
    /// with the simplified disjuncts, points and tableaux shared by both
    /// directions.
    pub(crate) fn is_equal_fast(&self, other: &Map) -> Result<bool> {
        let (a, b) = self.aligned_ref(other, "is_equal")?;
        // syntactic containment holds for any rows: try the rows as given
        let settled = |xs: &[BasicMap], ys: &[BasicMap]| -> Vec<bool> {
            xs.iter()
                .map(|p| ys.iter().any(|q| syntactically_contains(q, p)))
                .collect()
        };
        let (sa, sb) = (settled(&a.parts, &b.parts), settled(&b.parts, &a.parts));
        if sa.iter().chain(&sb).all(|s| *s) {
            return Ok(true);
        }
        // the simplified disjuncts, made when first needed and shared by
        // both directions (with their points and tableaux)
        let mut xa = Side::new(&a);
        let mut xb = Side::new(&b);
        // refute before proving, in both directions: a point of an
        // unsettled disjunct outside every disjunct of the other side (found
        // and checked on the rows as given: no simplification needed)
        if xa.refuted(&sa, &b)? || xb.refuted(&sb, &a)? {
            return Ok(false);
        }
        Ok(side_subset(&mut xa, &sa, &mut xb)? && side_subset(&mut xb, &sb, &mut xa)?)
    }
}

/// The disjuncts of a map, each simplified when first needed (`None`
/// inside: simplification found it empty).
struct Side<'a> {
    raw: &'a Map,
    parts: Vec<Option<Option<Part>>>,
    /// Points of the disjuncts as given (`Some(None)`: empty).
    pts: Vec<Option<Option<Vec<Int>>>>,
}

impl<'a> Side<'a> {
    fn new(raw: &'a Map) -> Side<'a> {
        Side {
            raw,
            parts: (0..raw.parts.len()).map(|_| None).collect(),
            pts: (0..raw.parts.len()).map(|_| None).collect(),
        }
    }

    /// Disjunct `i` simplified (`None` if simplification finds it empty);
    /// it takes over the point of the unsimplified disjunct (same set).
    fn get(&mut self, i: usize) -> Option<&mut Part> {
        let raw = &self.raw.parts[i];
        let pt = &self.pts[i];
        self.parts[i]
            .get_or_insert_with(|| {
                let mut b = raw.clone();
                b.simplify().then(|| Part {
                    b,
                    pt: pt.clone(),
                    tab: None,
                })
            })
            .as_mut()
    }

    /// Some disjunct not marked in `done` has an integer point (sampled on
    /// its rows as given) outside every disjunct of `other`.
    fn refuted(&mut self, done: &[bool], other: &Map) -> Result<bool> {
        for i in 0..done.len() {
            if done[i] {
                continue;
            }
            if self.pts[i].is_none() {
                let pt = self.raw.parts[i].sample()?;
                if pt.is_none() {
                    // empty (exact test): contained in anything, no need
                    // to simplify it later
                    self.parts[i] = Some(None);
                }
                self.pts[i] = Some(pt);
            }
            if let Some(Some(x)) = &self.pts[i] {
                if other.parts.iter().all(|q| point_excluded(q, x)) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// All simplified, non-trivially-empty disjuncts.
    fn all(&mut self) -> Vec<&Part> {
        for i in 0..self.parts.len() {
            self.get(i);
        }
        self.parts.iter().flatten().flatten().collect()
    }
}

/// `x ⊆ y` (the disjuncts marked in `done` are known to be in `y`), as
/// [`Map::is_subset`] decides it (syntactic containment, then a point of
/// the disjunct outside every disjunct of `y`, then LP containment in one
/// disjunct, then the difference), with the simplified disjuncts, points
/// and tableaux cached across calls.
fn side_subset(x: &mut Side, done: &[bool], y: &mut Side) -> Result<bool> {
    'p: for i in 0..done.len() {
        if done[i] {
            continue;
        }
        // empty by simplification: contained
        let Some(p) = x.get(i) else {
            continue;
        };
        let ys = y.all();
        if ys.iter().any(|q| syntactically_contains(&q.b, &p.b)) {
            continue;
        }
        // (the point of `p` was checked against `y`'s disjuncts as given)
        if p.point()?.is_none() {
            continue;
        }
        for q in &ys {
            if p.lp_contained_in(&q.b)? {
                continue 'p;
            }
        }
        if !Map::from_basic(p.b.clone()).is_subset(y.raw)? {
            return Ok(false);
        }
    }
    Ok(true)
}
