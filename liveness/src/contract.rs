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

/// Successive modulo on the canonical basis for the conflicts `c` of one
/// array of `model`.
pub fn allocate(model: &scop::Model, c: &ArrayConflict) -> Result<Allocation> {
    let n = c.cells.space().n_out();
    let np = model.params().len();
    let ds = c.conflict.deltas()?.intersect_params(model.context())?;
    let mut folds = Vec::with_capacity(n);
    let mut dk = ds;
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
    Allocation::new(model.params(), &c.name, folds)
}

impl Allocation {
    /// The allocation of array `name` with the given folds.
    pub fn new(params: &[String], name: &str, folds: Vec<Fold>) -> Result<Allocation> {
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
            .zip(&xs)
            .filter_map(|(f, x)| match f {
                Fold::Drop => None,
                Fold::Mod(b) => Some(format!("{x} mod {b}")),
                Fold::Keep => Some(x.clone()),
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

    /// True when every dimension is kept (σ is the identity).
    pub fn is_identity(&self) -> bool {
        self.folds.iter().all(|f| *f == Fold::Keep)
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
