//! Modular allocation by successive modulo (Darte, Schreiber & Villard).
//!
//! On the canonical basis: with `DS = { x − y : (x, y) conflict }`, dimension
//! `k` gets the modulus `b_k = 1 + max { d_k : d ∈ DS, d_0 = … = d_{k−1} = 0 }`,
//! the maximum taken over all parameter values of the context. If two cells
//! `x ≠ y` had the same image, let `k` be the first dimension where they
//! differ: `d = x − y` has `d_j = 0` for `j < k` (dropped and folded
//! dimensions: equal residues and `|d_j| < b_j` force `d_j = 0`), and
//! `0 < |d_k| < b_k` contradicts `x_k ≡ y_k (mod b_k)`. So σ is valid for
//! every parameter value. `b_k = 1` drops the dimension, an unbounded
//! maximum keeps it whole (isl cannot express `x mod N`).
//!
//! The maximum is found exactly by emptiness tests (`DS_k ∩ { d_k ≥ c }`,
//! parameters existentially quantified): doubling, then bisection; a bound
//! above 2^40 is treated as unbounded (the dimension is kept, still valid).

use std::fmt;

use presburger::{Builder, Int, Map, Set, UnionMap};

use crate::conflict::ArrayConflict;
use crate::error::{Error, Result};

/// What σ does with one dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// Dropped (modulus 1).
    Drop,
    /// `x_k mod b`, `b ≥ 2`.
    Mod(i64),
    /// Kept whole.
    Keep,
}

/// A modular storage mapping for one array. `Display` is the mapping in isl
/// notation, `[N] -> { A[c0, c1] -> A[c0 mod 2, c1] }`.
#[derive(Debug, Clone)]
pub struct Allocation {
    name: String,
    basis: Vec<Vec<i64>>,
    folds: Vec<Fold>,
    text: String,
    map: Map,
}

const LIMIT: i64 = 1 << 40;

/// `DS_k ∩ { d_k ≥ c }` is empty.
fn none_at_least(ds: &Set, k: usize, c: i64) -> Result<bool> {
    let b = Builder::new(ds.space());
    let ge = b.ge(&b.out_dim(k)?, &b.constant(c))?;
    Ok(ds.intersect(&b.map([ge])?)?.is_empty()?)
}

/// The largest `d_k` of the non-empty `ds` over all parameter values
/// (`None`: unbounded or beyond [`LIMIT`]).
fn max_dim(ds: &Set, k: usize) -> Result<Option<i64>> {
    // the largest value m with a point d_k >= m
    if none_at_least(ds, k, 0)? {
        // every d_k is negative: cannot happen for a symmetric DS
        return Err(Error::Unsupported("asymmetric conflict relation".into()));
    }
    if !none_at_least(ds, k, LIMIT)? {
        return Ok(None); // unbounded (or beyond the limit): one test
    }
    let (mut lo, mut hi) = (0i64, 1i64); // lo: has a point >= lo; hi: to test
    while !none_at_least(ds, k, hi)? {
        lo = hi;
        if hi >= LIMIT {
            return Ok(None);
        }
        hi *= 2;
    }
    // points >= lo exist, none >= hi
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if none_at_least(ds, k, mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(lo))
}

/// The unimodular 2×2 matrices with entries in {-1, 0, 1}, up to the
/// signs of their rows (the canonical basis first).
fn bases(n: usize) -> Vec<Vec<Vec<i64>>> {
    let id: Vec<Vec<i64>> = (0..n)
        .map(|r| (0..n).map(|c| i64::from(r == c)).collect())
        .collect();
    let mut out = vec![id];
    if n != 2 {
        return out;
    }
    let rows: Vec<[i64; 2]> = [[0, 1], [1, 0], [1, 1], [1, -1]].to_vec();
    for a in &rows {
        for b in &rows {
            if a[0] * b[1] - a[1] * b[0] != 0 && (a, b) != (&[1, 0], &[0, 1]) {
                out.push(vec![a.to_vec(), b.to_vec()]);
            }
        }
    }
    out
}

/// Successive modulo for the conflicts `c` of one array of `model`: on the
/// canonical basis and on the other small unimodular bases of 2-d arrays
/// (rows `(0,1), (1,0), (1,1), (1,-1)`), keeping the best (fewest
/// dimensions kept whole, then the smallest product of moduli; the
/// canonical basis on ties). Every candidate is valid: σ(x) = σ(y) on the
/// basis `B` means `B(x − y)` fails the successive-modulo bounds of `B·DS`.
pub fn allocate(model: &scop::Model, c: &ArrayConflict) -> Result<Allocation> {
    let n = c.cells.space().n_out();
    // the difference set DS, in an anonymous space (deltas keeps the array's name)
    let ds = c
        .conflict
        .deltas()?
        .anonymous_tuple()?
        .intersect_params(model.context())?;
    let mut best: Option<(usize, i64, Allocation)> = None;
    for basis in bases(n) {
        let dsb = if basis.iter().enumerate().all(|(r, row)| row[r] == 1) && best.is_none() {
            ds.clone()
        } else {
            transform(&ds, &basis, model.params())?
        };
        let folds = successive_modulo(&dsb, n, model.params().len())?;
        let keep = folds.iter().filter(|f| **f == Fold::Keep).count();
        let prod = folds
            .iter()
            .map(|f| if let Fold::Mod(b) = f { *b } else { 1 })
            .fold(1i64, |a, b| a.saturating_mul(b));
        if best
            .as_ref()
            .is_none_or(|(k, p, _)| (keep, prod) < (*k, *p))
        {
            let a = Allocation::with_basis(model.params(), &c.name, basis, folds)?;
            best = Some((keep, prod, a));
        }
    }
    Ok(best.expect("at least the canonical basis").2)
}

/// `{ B d : d ∈ ds }`.
fn transform(ds: &Set, basis: &[Vec<i64>], params: &[String]) -> Result<Set> {
    let n = basis.len();
    let ins: Vec<String> = (0..n).map(|k| format!("d{k}")).collect();
    let outs: Vec<String> = basis.iter().map(|row| linear(row, &ins)).collect();
    let text = format!(
        "[{}] -> {{ [{}] -> [{}] }}",
        params.join(", "),
        ins.join(", "),
        outs.join(", ")
    );
    let m: Map = text.parse()?;
    let u = UnionMap::from_map(ds.clone()).apply(&UnionMap::from_map(m))?;
    Ok(u.to_map()?
        .unwrap_or_else(|| Map::empty(ds.space().clone())))
}

/// `r · x` in isl notation.
fn linear(row: &[i64], xs: &[String]) -> String {
    let mut s = String::new();
    for (c, x) in row.iter().zip(xs) {
        match *c {
            0 => continue,
            1 if s.is_empty() => s.push_str(x),
            1 => s.push_str(&format!(" + {x}")),
            -1 if s.is_empty() => s.push_str(&format!("-{x}")),
            -1 => s.push_str(&format!(" - {x}")),
            c if s.is_empty() => s.push_str(&format!("{c}{x}")),
            c if c < 0 => s.push_str(&format!(" - {}{x}", -c)),
            c => s.push_str(&format!(" + {c}{x}")),
        }
    }
    if s.is_empty() {
        s.push('0');
    }
    s
}

/// The folds of successive modulo on the canonical basis of `ds`.
fn successive_modulo(ds: &Set, n: usize, np: usize) -> Result<Vec<Fold>> {
    let mut folds = Vec::with_capacity(n);
    let mut dk = ds.clone();
    for k in 0..n {
        if k > 0 {
            dk = dk.fix_var(np + k - 1, &Int::from(0));
        }
        let fold = if dk.is_empty()? {
            Fold::Drop
        } else {
            match max_dim(&dk, k)? {
                None => Fold::Keep,
                Some(0) => Fold::Drop,
                Some(m) => Fold::Mod(m + 1),
            }
        };
        folds.push(fold);
    }
    Ok(folds)
}

impl Allocation {
    /// The allocation of array `name` with the given folds on the canonical
    /// basis.
    pub fn new(params: &[String], name: &str, folds: Vec<Fold>) -> Result<Allocation> {
        let n = folds.len();
        let id = (0..n)
            .map(|r| (0..n).map(|c| i64::from(r == c)).collect())
            .collect();
        Allocation::with_basis(params, name, id, folds)
    }

    /// The allocation `x -> (B x) folded`, `B` unimodular (rows).
    pub fn with_basis(
        params: &[String],
        name: &str,
        basis: Vec<Vec<i64>>,
        folds: Vec<Fold>,
    ) -> Result<Allocation> {
        let mut base = "c".to_string();
        while params.iter().any(|p| {
            p.strip_prefix(base.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            base.push('c');
        }
        let xs: Vec<String> = (0..folds.len()).map(|k| format!("{base}{k}")).collect();
        let outs: Vec<String> = folds
            .iter()
            .zip(&basis)
            .filter_map(|(f, row)| {
                let e = linear(row, &xs);
                let simple = row.iter().filter(|c| **c != 0).count() == 1 && !e.starts_with('-');
                match f {
                    Fold::Drop => None,
                    Fold::Mod(b) if simple => Some(format!("{e} mod {b}")),
                    Fold::Mod(b) => Some(format!("({e}) mod {b}")),
                    Fold::Keep => Some(e),
                }
            })
            .collect();
        let text = format!(
            "[{}] -> {{ {name}[{}] -> {name}[{}] }}",
            params.join(", "),
            xs.join(", "),
            outs.join(", ")
        );
        let map: Map = text.parse()?;
        Ok(Allocation {
            name: name.to_string(),
            basis,
            folds,
            text,
            map,
        })
    }

    /// The array's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One fold per dimension.
    pub fn folds(&self) -> &[Fold] {
        &self.folds
    }

    /// The mapping as an engine relation.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The basis `B` (rows): σ folds the coordinates `B x`.
    pub fn basis(&self) -> &[Vec<i64>] {
        &self.basis
    }

    /// True when σ is the identity (canonical basis, every dimension kept).
    pub fn is_identity(&self) -> bool {
        self.folds.iter().all(|f| *f == Fold::Keep)
            && self
                .basis
                .iter()
                .enumerate()
                .all(|(r, row)| row.iter().enumerate().all(|(c, v)| *v == i64::from(r == c)))
    }

    /// σ(x), evaluated directly (`mod` is the non-negative remainder).
    pub fn image(&self, x: &[i64]) -> Vec<i64> {
        self.basis
            .iter()
            .zip(&self.folds)
            .filter_map(|(row, f)| {
                let v: i64 = row.iter().zip(x).map(|(a, b)| a * b).sum();
                match f {
                    Fold::Drop => None,
                    Fold::Mod(b) => Some(v.rem_euclid(*b)),
                    Fold::Keep => Some(v),
                }
            })
            .collect()
    }

    /// `(cells, storage cells)`: the number of `cells` and of their images
    /// for the given parameter values (every parameter must be given).
    pub fn count(&self, cells: &Set, values: &[(&str, i64)]) -> Result<(u64, u64)> {
        let fixed = fix_params(cells, values)?;
        let before = fixed.card()?;
        let image = UnionMap::from_map(fixed).apply(&UnionMap::from_map(self.map.clone()))?;
        let after = match image.to_map()? {
            Some(m) => m.card()?,
            None => Int::from(0),
        };
        Ok((to_u64(&before)?, to_u64(&after)?))
    }
}

fn to_u64(v: &Int) -> Result<u64> {
    v.to_string()
        .parse()
        .map_err(|_| Error::Unsupported(format!("count {v} out of range")))
}

/// `set` with every parameter fixed to its value.
pub(crate) fn fix_params(set: &Set, values: &[(&str, i64)]) -> Result<Set> {
    let mut out = set.clone();
    for (k, p) in set.space().params.iter().enumerate() {
        let Some((_, v)) = values.iter().find(|(n, _)| n == p) else {
            return Err(Error::Usage(format!("missing value for parameter {p}")));
        };
        out = out.fix_var(k, &Int::from(*v));
    }
    Ok(out)
}

impl fmt::Display for Allocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
