//! Moving a basic map's variables into a new layout
//! ([`BasicMap::transform`], the step of every structural operation), the
//! projection of one column without elimination when the rows allow it,
//! and a moved disjunct simplified or dropped as empty ([`moved`]).

use super::contradiction;
use crate::basic::BasicMap;
use crate::int::Int;
use crate::space::Space;

/// Where an old variable goes in [`BasicMap::transform`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dest {
    /// To variable `k` of the new space (0-based over params, in, out).
    Var(usize),
    /// To new existential `k`.
    Exist(usize),
}

impl BasicMap {
    /// Move the variables into `space`: old variable `k` (0-based over params,
    /// in, out) goes to `dest[k]`; `n_exist` fresh existentials are created
    /// before the old locals. New variables not hit by `dest` are unconstrained.
    pub(crate) fn transform(&self, space: Space, dest: &[Dest], n_exist: usize) -> BasicMap {
        debug_assert_eq!(dest.len(), self.space.n_vars());
        let nv = space.n_vars();
        let new_len = 1 + nv + n_exist + self.n_div();
        let new_col = |d: &Dest| match *d {
            Dest::Var(k) => 1 + k,
            Dest::Exist(k) => 1 + nv + k,
        };
        // the sources of the new columns, read off `dest` at once (no two
        // old columns meet: every layout but a few); else the column map
        let mut buffer = crate::basic::SourceBuffer::new();
        let src = buffer.take(new_len);
        src[0] = 0;
        let mut injective = true;
        for (k, d) in dest.iter().enumerate() {
            let j = new_col(d);
            injective &= src[j] == crate::basic::NO_SOURCE;
            src[j] = 1 + k;
        }
        let off = self.off_div();
        for k in 0..self.n_div() {
            src[1 + nv + n_exist + k] = off + k;
        }
        let map: Vec<usize> = if injective {
            Vec::new()
        } else {
            std::iter::once(0)
                .chain(dest.iter().map(new_col))
                .chain((0..self.n_div()).map(|k| 1 + nv + n_exist + k))
                .collect()
        };
        // rows are remapped straight from self (no intermediate copy), each
        // read off its sources in one pass when no two columns meet
        let f = |r: &[Int]| {
            if injective {
                crate::basic::gather_row(r, &src)
            } else {
                crate::basic::remap_row(r, &map, new_len)
            }
        };
        let rows = |r: &crate::Rows| {
            if injective {
                crate::basic::gather_rows(r, &src)
            } else {
                crate::basic::remap_rows(r, &map, new_len)
            }
        };
        // (no division before or after: the empty list shared)
        let divs: crate::divs::Divs = if n_exist == 0 && self.divs.is_empty() {
            self.divs.clone()
        } else {
            let mut divs = vec![None; n_exist];
            divs.extend(self.divs.iter().map(|d| {
                d.as_ref().map(|d| crate::basic::Div {
                    num: f(&d.num),
                    den: d.den.clone(),
                })
            }));
            divs.into()
        };
        BasicMap {
            space,
            divs,
            eqs: rows(&self.eqs),
            ineqs: rows(&self.ineqs),
            hint: Default::default(),
        }
    }

    /// Add the equality `x_a - x_b = 0` between variables `a` and `b`
    /// (0-based over params, in, out).
    pub(crate) fn add_var_eq(&mut self, a: usize, b: usize) {
        let mut row = vec![Int::ZERO; self.row_len()];
        row[1 + a] = Int::ONE;
        row[1 + b] = &row[1 + b] - &Int::ONE;
        self.eqs.push(row);
    }
}

/// The projection of `b`'s column `col` (a set or output dimension) into
/// `space` when the column needs no elimination, or `None`. That is when no
/// division mentions it and either
/// - one equality alone mentions it, with coefficient ±1 and no local:
///   every point of the other rows extends by the integer value the
///   equality gives the dimension, so the projection is the other rows;
/// - or no equality mentions it, and the inequalities that do bound it on
///   one side only and mention no local: the dimension can be taken far
///   enough out on that side, so the projection is the other rows.
///
/// The rows kept are `b`'s (without the column): a disjunct that was
/// simplified stays simplified (the rows dropped mention no local, so
/// nothing the simplification does to locals changes), one that was not is
/// not simplified here (the set is the same either way). The general path
/// (the column as an existential, then [`BasicMap::simplify`]) is the
/// oracle of `tests/project_cheap.rs`.
pub(crate) fn project_column_cheaply(b: &BasicMap, space: &Space, col: usize) -> Option<BasicMap> {
    let off = b.off_div();
    if b.divs
        .iter()
        .any(|d| d.as_ref().is_some_and(|d| !d.num[col].is_zero()))
    {
        return None;
    }
    let no_local = |r: &[Int]| r[off..].iter().all(Int::is_zero);
    let mut eq_at = None;
    for (k, r) in b.eqs.iter().enumerate() {
        if !r[col].is_zero() {
            if eq_at.is_some() || !r[col].abs().is_one() || !no_local(r) {
                return None;
            }
            eq_at = Some(k);
        }
    }
    let mut side: Option<bool> = None;
    let mut dropped = vec![false; b.ineqs.len()];
    for (k, r) in b.ineqs.iter().enumerate() {
        if r[col].is_zero() {
            continue;
        }
        let positive = r[col].is_pos();
        if eq_at.is_some() || side.is_some_and(|s| s != positive) || !no_local(r) {
            return None;
        }
        side = Some(positive);
        dropped[k] = true;
    }
    // the rows kept, each without the column, built in place
    let cut_rows = |rows: &crate::Rows, keep: &dyn Fn(usize) -> bool| {
        let mut out = crate::Rows::with_capacity(rows.len(), b.row_len() - 1);
        let mut w = out.writer();
        for (_, r) in rows.iter().enumerate().filter(|(k, _)| keep(*k)) {
            w.push_iter(r[..col].iter().chain(&r[col + 1..]).cloned());
        }
        out
    };
    let eqs = cut_rows(&b.eqs, &|k| Some(k) != eq_at);
    let ineqs = cut_rows(&b.ineqs, &|k| !dropped[k]);
    let cut = |r: &[Int]| -> Vec<Int> {
        let mut o = Vec::with_capacity(r.len() - 1);
        o.extend_from_slice(&r[..col]);
        o.extend_from_slice(&r[col + 1..]);
        o
    };
    let divs: crate::divs::Divs = b
        .divs
        .iter()
        .map(|d| {
            d.as_ref().map(|d| crate::basic::Div {
                num: cut(&d.num),
                den: d.den.clone(),
            })
        })
        .collect();
    Some(BasicMap {
        space: space.clone(),
        divs,
        eqs,
        ineqs,
        hint: Default::default(),
    })
}

/// `f(b)` simplified, or `None` if it is empty, for an `f` that keeps
/// emptiness both ways (see [`Map::map_parts`]): `None` at once if `b` is
/// known empty; else `f(b)` simplified, `None` (and `b` kept as empty) if
/// `simplify` or, when `check_eqs`, [`contradiction`] finds it empty.
/// (Only `domain` asks for the equalities' test: it finds the corpus's
/// empty disjuncts that `simplify` leaves there; on `range` it found
/// nothing and cost 1 % of the slice's instructions.)
pub(super) fn moved(
    b: &BasicMap,
    f: impl Fn(&BasicMap) -> BasicMap,
    check_eqs: bool,
) -> Option<BasicMap> {
    if b.known_empty() {
        return None;
    }
    let mut t = f(b);
    if t.simplify()
        && !(check_eqs
            && contradiction::worth_a_look(&t)
            && contradiction::equalities_contradict(&t))
    {
        Some(t)
    } else {
        b.remember_empty();
        None
    }
}
