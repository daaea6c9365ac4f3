//! Hulls: the integer affine hull (the lattice of the integer points, from
//! sample points and the Smith normal form) and the simple hull (isl's
//! `simple_hull`, named `convex_hull` here).

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::matrix::Matrix;
use crate::space::Space;

impl Map {
    /// The integer affine hull, as a basic map without inequalities: the
    /// affine hull of the integer points (parameters included) and, when
    /// the map has local variables (divisions or existentials), the
    /// congruences `e(x) mod m = 0` they all satisfy (each an equality
    /// `e(x) = m·floor(e(x)/m)` on a division).
    ///
    /// With `p0` one integer point and `Λ` the lattice spanned by the
    /// differences `p - p0` of all integer points, a map with local
    /// variables gives `p0 + Λ`, the smallest affine lattice holding its
    /// points; for a union of several lattices it is the lattice they span
    /// together (`i mod 6 = 1 or i mod 6 = 3` gives `(i - 1) mod 2 = 0`),
    /// where isl may keep division constraints that are not those of a
    /// lattice. A map without local variables gives the affine hull over the
    /// rationals of its points (`{ [i] : i = 0 or i = 5 }` gives `{ [i] }`,
    /// not `(i) mod 5 = 0`), as isl does.
    ///
    /// Found by collecting integer points: from one sample, compute the
    /// lattice (or affine span) of the points found so far (Smith normal form of their
    /// differences) and look for an integer point of the map outside it,
    /// violating one of its equalities or congruences; stop when there is
    /// none. Each new point raises the dimension or at least halves the
    /// lattice's index, so there are at most `n + log2(index)` rounds.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i, j] : 0 <= i <= 5 and j = 2i + 1 }".parse().unwrap();
    /// let h = s.affine_hull().unwrap();
    /// assert!(h.is_equal(&"{ [i, j] : j = 2i + 1 }".parse().unwrap()).unwrap());
    /// // the lattice is kept (isl's answer)
    /// let s: Set = "{ [i] : -8 <= i <= 8 and i mod 3 = 1 }".parse().unwrap();
    /// let h = s.affine_hull().unwrap();
    /// assert!(h.is_equal(&"{ [i] : (i - 1) mod 3 = 0 }".parse().unwrap()).unwrap());
    /// ```
    pub fn affine_hull(&self) -> Result<Map> {
        let congruences = self.parts.iter().any(|b| b.n_div() > 0);
        Ok(match Lattice::of(self, congruences)? {
            Some(lattice) => Map::from_basic(lattice.to_basic(self.space.clone())),
            None => Map::empty(self.space.clone()),
        })
    }

    /// A basic map containing the map (isl's *simple hull*; it is the
    /// convex hull when the union is convex). Precisely, the intersection of
    /// - the integer affine hull ([`affine_hull`](Self::affine_hull)): the
    ///   smallest affine lattice holding every integer point, equalities and
    ///   congruences; and
    /// - for each direction `d` among the normals of the constraints without
    ///   local variables of the disjuncts and the coordinate directions `±x_k`,
    ///   the half-space `d·x >= c` with `c` the smallest rounded-up minimum of
    ///   `d·x` over the rational relaxations of the disjuncts (left out when
    ///   some disjunct is unbounded in that direction).
    ///
    /// So it holds every integer point of the map, and every integer point it
    /// holds lies in the lattice of the map's integer points: a point of the
    /// relaxation outside every lattice of the map (`i = 0` for
    /// `{ [i] : -8 <= i <= 8 and i mod 3 = 1 }`) is never in it. It can hold
    /// integer points of that lattice between the disjuncts, or between the
    /// constraints of a disjunct and its integer points (it is not the
    /// integer hull).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : -8 <= i <= 8 and i mod 3 = 1 }".parse().unwrap();
    /// let h = s.convex_hull().unwrap();
    /// assert_eq!(h.to_string(), "{ [i] : (i - 1) mod 3 = 0 and -8 <= i <= 8 }");
    /// ```
    pub fn convex_hull(&self) -> Result<Map> {
        let m = self.remove_empty_parts()?;
        if m.parts.is_empty() {
            return Ok(m);
        }
        let nv = m.space.n_vars();
        // the affine hull of the map as given: removing empty parts may drop its
        // local variables, and with them the congruences it documents
        let mut hull = self
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

/// The affine lattice `p0 + Λ` spanned by integer points: `x` belongs to it
/// when every equality row `e·(1, x) = 0` holds and every congruence row
/// `c·(1, x)` is a multiple of its modulus (rows `[c | vars]`, constant first).
struct Lattice {
    eqs: Vec<Vec<Int>>,
    congruences: Vec<(Vec<Int>, Int)>,
}

impl BasicMap {
    /// The equalities of the affine hull of the integer points (over the rationals:
    /// no congruences), rows `[c | vars]` of length `1 + n_vars` (parameters and
    /// tuple variables), or `None` if the basic map has no integer point.
    /// `{ [i] : (-i) mod 3 = 0 and 0 <= i <= 1 }` has `i = 0`;
    /// `[n] -> { [i] : -n <= i <= 0 and 5i >= n }` has `i = 0` and `n = 0`.
    pub(crate) fn integer_hull_equalities(&self) -> Result<Option<Vec<Vec<Int>>>> {
        let m = Map::from_basic(self.clone());
        Ok(Lattice::of(&m, false)?.map(|l| l.eqs))
    }
}

impl Lattice {
    /// The smallest affine lattice (`congruences`) or affine space (without them)
    /// holding the integer points of `m`, or `None` if it has none (see
    /// [`Map::affine_hull`]).
    fn of(m: &Map, congruences: bool) -> Result<Option<Lattice>> {
        let nv = m.space.n_vars();
        let mut points: Vec<Vec<Int>> = Vec::new();
        for b in &m.parts {
            if let Some(p) = b.sample()? {
                points.push(p);
                break;
            }
        }
        if points.is_empty() {
            return Ok(None);
        }
        loop {
            crate::budget::tick(1)?;
            let mut lattice = Lattice::spanned_by(&points, nv);
            if !congruences {
                lattice.congruences.clear();
            }
            match lattice.point_outside(m)? {
                Some(p) => points.push(p),
                None => return Ok(Some(lattice)),
            }
        }
    }

    /// The lattice spanned by `points` (at least one, each of length `nv`).
    ///
    /// With `G` the matrix of the differences `p - p0` and `D = U·G·V` its
    /// Smith normal form, `x - p0` is in the row lattice of `G` exactly when
    /// `(x - p0)·V` is in the row lattice of `D`: its entry `k` is a
    /// multiple of `d_k` for `k < rank`, and zero beyond.
    fn spanned_by(points: &[Vec<Int>], nv: usize) -> Lattice {
        let p0 = &points[0];
        let diffs: Vec<Vec<Int>> = points[1..]
            .iter()
            .map(|p| p.iter().zip(p0).map(|(a, b)| a - b).collect())
            .collect();
        let (v, diagonal) = if diffs.is_empty() {
            (Matrix::identity(nv), Vec::new())
        } else {
            let smith = Matrix::from_rows(nv, &diffs).smith();
            (smith.v.clone(), smith.diagonal())
        };
        let mut eqs = Vec::new();
        let mut congruences = Vec::new();
        for k in 0..nv {
            let col = v.col(k);
            // the row `col·(x - p0)`, constant first
            let mut row = vec![-&crate::matrix::dot(&col, p0)];
            row.extend(col);
            match diagonal.get(k) {
                Some(d) if !d.is_zero() => {
                    if !d.is_one() {
                        // only the constant's residue matters: keep it in
                        // (-d, 0], as isl writes `(i - 1) mod 3 = 0`
                        let r = row[0].mod_floor(d);
                        row[0] = if r.is_zero() { r } else { &r - d };
                        congruences.push((row, d.clone()));
                    }
                }
                _ => eqs.push(row),
            }
        }
        Lattice { eqs, congruences }
    }

    /// An integer point of `m` outside the lattice, if any.
    fn point_outside(&self, m: &Map) -> Result<Option<Vec<Int>>> {
        let nv = m.space.n_vars();
        let widen = |t: &BasicMap, r: &[Int], scale: i64, shift: i64| {
            let mut row = vec![Int::ZERO; t.row_len()];
            for (k, v) in r.iter().enumerate() {
                row[k] = v * &Int::from(scale);
            }
            row[0] = &row[0] + &Int::from(shift);
            row
        };
        for b in &m.parts {
            // an equality violated: ±e(x) - 1 >= 0
            for e in &self.eqs {
                for sign in [1i64, -1] {
                    let mut t = b.clone();
                    let row = widen(&t, e, sign, -1);
                    t.ineqs.push(row);
                    if let Some(p) = t.sample()? {
                        return Ok(Some(p));
                    }
                }
            }
            // a congruence violated: c(x) = d·q + r with 1 <= r <= d - 1
            for (c, d) in &self.congruences {
                let mut t = b.clone();
                let q = t.add_existential();
                let mut rest = widen(&t, c, 1, 0);
                rest[q] = -d;
                let mut above = rest.clone();
                above[0] = &above[0] - &Int::ONE;
                let mut below: Vec<Int> = rest.iter().map(|v| -v).collect();
                below[0] = &(&below[0] + d) - &Int::ONE;
                t.ineqs.push(above);
                t.ineqs.push(below);
                if let Some(p) = t.sample()? {
                    return Ok(Some(p[..nv].to_vec()));
                }
            }
        }
        Ok(None)
    }

    /// The lattice as a basic map: its equalities, and each congruence
    /// `c(x) mod d = 0` as `c(x) = d·floor(c(x)/d)`.
    fn to_basic(&self, space: Space) -> BasicMap {
        let mut b = BasicMap::universe(space);
        for e in &self.eqs {
            b.eqs.push(e);
        }
        for (c, d) in &self.congruences {
            let mut num = c.clone();
            num.resize(b.row_len(), Int::ZERO);
            let q = b.add_div(num, d.clone());
            let mut row = c.clone();
            row.resize(b.row_len(), Int::ZERO);
            row[q] = -d;
            b.eqs.push(row);
        }
        b.simplify();
        b
    }
}
