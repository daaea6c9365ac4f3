//! Hulls: the integer affine hull (from sample points) and the simple
//! hull (isl's `simple_hull`, named `convex_hull` here).

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::matrix::normalize;

impl Map {
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
                normalize(&mut m[r]);
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
        normalize(&mut e);
        out.push(e);
    }
    out
}
