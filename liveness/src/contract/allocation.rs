//! The modular storage mapping of one array: [`Allocation`].

use std::fmt;

use presburger::{Aff, Builder, Int, Map, Set, Space, Tuple, UnionMap};

use super::modulo::{matrix, Fold};
use crate::error::{Error, Result};

/// A modular storage mapping `σ(x) = (r_k · x mod b_k)_k` for one array,
/// on a unimodular basis (rows `r_k`), one [`Fold`] per row. `Display` is
/// the mapping in isl notation, `[N] -> { A[c0, c1] -> A[c0 mod 2, c1] }`.
#[derive(Debug, Clone)]
pub struct Allocation {
    name: String,
    basis: Vec<Vec<i64>>,
    folds: Vec<Fold>,
    text: String,
    map: Map,
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

    /// The allocation `x -> (B x) folded`, `B` unimodular (rows, one per
    /// fold); any other shape is an `Err`.
    pub fn with_basis(
        params: &[String],
        name: &str,
        basis: Vec<Vec<i64>>,
        folds: Vec<Fold>,
    ) -> Result<Allocation> {
        let n = folds.len();
        if basis.len() != n || basis.iter().any(|r| r.len() != n) {
            return Err(Error::Usage(format!(
                "allocation of `{name}`: the basis must be {n} rows of {n} entries"
            )));
        }
        if n > 0 && matrix(&basis).det().abs() != Int::ONE {
            return Err(Error::Usage(format!(
                "allocation of `{name}`: the basis is not unimodular"
            )));
        }
        if let Some(b) = folds.iter().find_map(|f| match f {
            Fold::Mod(b) if *b < 2 => Some(*b),
            _ => None,
        }) {
            return Err(Error::Usage(format!(
                "allocation of `{name}`: modulus {b} (a modulus is at least 2; 1 is Drop)"
            )));
        }
        let mut base = "c".to_string();
        while params.iter().any(|p| {
            p.strip_prefix(base.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            base.push('c');
        }
        let xs: Vec<String> = (0..n).map(|k| format!("{base}{k}")).collect();
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
        let map = build_map(params, name, &basis, &folds)?;
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

/// `{ name[x] -> name[(r_k · x) mod b_k, …] }` built as an engine value.
fn build_map(params: &[String], name: &str, basis: &[Vec<i64>], folds: &[Fold]) -> Result<Map> {
    let n = folds.len();
    let kept = folds.iter().filter(|f| **f != Fold::Drop).count();
    let space = Space::map(
        params.to_vec(),
        Tuple::flat(Some(name.to_string()), vec![String::new(); n]),
        Tuple::flat(Some(name.to_string()), vec![String::new(); kept]),
    );
    let b = Builder::new(&space);
    let mut cons = Vec::new();
    let mut out = 0;
    for (row, f) in basis.iter().zip(folds) {
        let mut e: Aff = b.constant(0);
        for (j, c) in row.iter().enumerate() {
            if *c != 0 {
                e = e.add(&b.in_dim(j)?.scale(&Int::from(*c)))?;
            }
        }
        let e = match f {
            Fold::Drop => continue,
            Fold::Keep => e,
            Fold::Mod(m) => e.modulo(&Int::from(*m))?,
        };
        cons.push(b.eq(&b.out_dim(out)?, &e)?);
        out += 1;
    }
    Ok(b.map(cons)?)
}

fn to_u64(v: &Int) -> Result<u64> {
    v.to_string()
        .parse()
        .map_err(|_| Error::Unsupported(format!("count {v} out of range")))
}

/// `set` with every parameter fixed to its value.
fn fix_params(set: &Set, values: &[(&str, i64)]) -> Result<Set> {
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
