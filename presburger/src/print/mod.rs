//! Writing isl notation: [`Display`](std::fmt::Display) for [`BasicMap`], [`Map`] and [`UnionMap`]
//! (here), and `Display`/`FromStr` for the affine functions (`aff`, a submodule: the print layer
//! sits above the affine-function layer and calls down into it, never the other way).
//!
//! The output is deterministic and is valid input both for this crate's
//! parser and for isl:
//!
//! - parameters first, `[n] -> { ... }`;
//! - each disjunct repeats its tuples, `{ [i] : i >= 0; [i] : i <= -5 }`, and a disjunct
//!   that prints as an earlier one is left out;
//!   disjuncts of a parameter set are joined with `or`, `[n] -> { : (n > 0) or (n < -5) }`;
//! - dimension names come from [`Space::print_names`] (the user's names where
//!   possible, `i0`, `o0`, ... otherwise);
//! - a dimension defined by an equality in terms of the parameters and
//!   earlier dimensions (coefficient ±1, no local variable, no other
//!   equality mentioning the dimension) is written inside
//!   its tuple, as isl does, and the equality is not repeated among the
//!   constraints: as the expression alone when the dimension is unnamed and
//!   no other constraint mentions it (`{ S[i, j] -> A[i, j + 1] }`), else as
//!   `name = expression` (`{ [i, j = 2i] }`, `{ [i] -> [o0 = i + 1] : o0 <= 9 }`);
//!   the expression has the terms in column order (parameters first) and the constant last
//!   (isl puts the constant first: `A[i, 1 + j]`);
//! - each constraint is solved for its last variable, `i <= n - 1` being
//!   printed `i < n`, and a lower and an upper bound with the same
//!   variable and coefficient are merged into a chain `0 <= i < n`;
//! - local variables that are all integer divisions defined in terms of
//!   earlier ones are written inline as `floor((num)/den)` (their two
//!   defining inequalities are omitted); otherwise all locals are
//!   existentially quantified, `exists (e0, e1 : ...)`, with all constraints;
//!   an equality saying that a division's numerator has a fixed residue,
//!   `i = 3*floor((i)/3) + 1`, is written as isl does, `(i - 1) mod 3 = 0`;
//! - an empty map prints `{ [i] : false }`; a union leaves its empty parts out, and the
//!   empty union is `{  }`.
//!
//! ```
//! use presburger::{Map, UnionMap};
//! let m: Map = "[n] -> { S[i, j] : 0 <= i < n and j >= 0 and j mod 2 = 0 }".parse().unwrap();
//! assert_eq!(m.to_string(), "[n] -> { S[i, j] : (j) mod 2 = 0 and 0 <= i < n and j >= 0 }");
//! let a: Map = "[n] -> { S[i, j] -> A[i + n, 3] : 0 <= i < n }".parse().unwrap();
//! assert_eq!(a.to_string(), "[n] -> { S[i, j] -> A[n + i, 3] : 0 <= i < n }");
//! let u: UnionMap = "{ }".parse().unwrap();
//! assert_eq!(u.to_string(), "{  }");
//! ```

use std::fmt;

mod aff;

use crate::basic::BasicMap;
use crate::int::Int;
use crate::map::Map;
use crate::parse::is_valid_name;
use crate::space::{Space, Tuple, TupleKind};
use crate::union::UnionMap;

/// The parameter prefix `[n, m] -> ` (empty without parameters).
fn params_prefix(params: &[String]) -> String {
    if params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", params.join(", "))
    }
}

/// Dimension names to print: [`Space::print_names`], with names that could
/// not be read back replaced by fresh ones.
pub(crate) fn dim_names(space: &Space) -> Vec<String> {
    let mut names = space.print_names();
    for k in 0..names.len() {
        if !is_valid_name(&names[k]) {
            let mut t = k;
            loop {
                let cand = format!("v{t}");
                if !names.contains(&cand) && !space.params.contains(&cand) {
                    names[k] = cand;
                    break;
                }
                t += 1;
            }
        }
    }
    names
}

/// A tuple with its entries taken in order from `entries` (dimension names,
/// or the values of a function's target), nested tuples as `[A[..] -> B[..]]`;
/// `missing` stands for an entry that `entries` lacks.
fn tuple_text(
    t: &Tuple,
    entries: &mut std::slice::Iter<'_, String>,
    missing: &str,
    out: &mut String,
) {
    if let Some(n) = &t.name {
        out.push_str(n);
    }
    out.push('[');
    match &t.kind {
        TupleKind::Flat(d) => {
            for k in 0..d.len() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(entries.next().map(String::as_str).unwrap_or(missing));
            }
        }
        TupleKind::Nested(a, b) => {
            tuple_text(a, entries, missing, out);
            out.push_str(" -> ");
            tuple_text(b, entries, missing, out);
        }
    }
    out.push(']');
}

/// The tuples of a space as isl prints them inside braces (`S[i, j]`,
/// `A[i] -> B[o0]`); empty for a parameter space (an anonymous zero-dimensional set).
///
/// ```
/// use presburger::{Space, Tuple};
/// let s = Space::map(vec![], Tuple::named("A", &["i"]), Tuple::anonymous(2));
/// assert_eq!(presburger::tuples_text(&s), "A[i] -> [o0, o1]");
/// ```
pub fn tuples_text(space: &Space) -> String {
    tuples_with(space, &dim_names(space))
}

/// A printable term: coefficient and text of a variable.
struct Term<'a> {
    coef: Int,
    text: &'a str,
    ident: bool,
}

fn term_text(coef: &Int, text: &str, ident: bool, first: bool, out: &mut String) {
    let neg = coef.is_neg();
    let a = coef.abs();
    if first {
        if neg {
            out.push('-');
        }
    } else {
        out.push_str(if neg { " - " } else { " + " });
    }
    if !a.is_one() {
        out.push_str(&a.to_string());
        if !ident {
            out.push('*');
        }
    }
    out.push_str(text);
}

fn lin_text(terms: &[Term<'_>], c: &Int) -> String {
    let mut out = String::new();
    for (k, t) in terms.iter().enumerate() {
        term_text(&t.coef, t.text, t.ident, k == 0, &mut out);
    }
    if terms.is_empty() {
        out.push_str(&c.to_string());
    } else if !c.is_zero() {
        out.push_str(if c.is_neg() { " - " } else { " + " });
        out.push_str(&c.abs().to_string());
    }
    out
}

/// Names of the columns of a basic map for printing.
struct ColNames {
    /// Text of column `k` (index 0 unused).
    text: Vec<String>,
    /// Whether column `k` is a plain identifier (`2i`) or a compound (`2*floor(...)`).
    ident: Vec<bool>,
    /// Printing order of the variable columns.
    order: Vec<usize>,
    /// Number of non-local columns (constant included).
    off_div: usize,
}

impl ColNames {
    fn terms<'a>(&'a self, row: &[Int], skip: Option<usize>, negate: bool) -> Vec<Term<'a>> {
        self.order
            .iter()
            .filter(|&&k| Some(k) != skip && k < row.len() && !row[k].is_zero())
            .map(|&k| Term {
                coef: if negate { -&row[k] } else { row[k].clone() },
                text: &self.text[k],
                ident: self.ident[k],
            })
            .collect()
    }

    /// The main variable of a row: the last non-local variable, else the last local in printing order.
    fn main(&self, row: &[Int]) -> Option<usize> {
        let nz: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&k| k < row.len() && !row[k].is_zero())
            .collect();
        nz.iter()
            .rev()
            .copied()
            .find(|&k| k < self.off_div)
            .or_else(|| nz.last().copied())
    }
}

enum Cons {
    Text(String),
    Bound {
        main: usize,
        coef: Int,
        lower: bool,
        rhs: String,
        strict: bool,
    },
}

fn bound_side(cn: &ColNames, row: &[Int], m: usize, lower: bool) -> (String, bool) {
    // lower: a x >= -(rest);  upper: a x <= rest
    let terms = cn.terms(row, Some(m), lower);
    let mut c = if lower { -&row[0] } else { row[0].clone() };
    let mut strict = false;
    // `x >= n + 1` is printed `x > n`, `x <= n - 1` is printed `x < n`
    let off_by_one = if lower {
        c.is_one()
    } else {
        c == Int::from(-1)
    };
    if !terms.is_empty() && off_by_one {
        c = Int::ZERO;
        strict = true;
    }
    (lin_text(&terms, &c), strict)
}

fn lhs_text(cn: &ColNames, m: usize, coef: &Int) -> String {
    let mut s = String::new();
    term_text(coef, &cn.text[m], cn.ident[m], true, &mut s);
    s
}

/// An equality `s·(num - den·q) + δ = 0` on a division `q = floor(num/den)`
/// (`s = ±1`), that is `num mod den = -s·δ`, as isl writes it:
/// `(num + s·δ) mod den = 0`; `None` for any other equality.
fn congruence_text(cn: &ColNames, b: &BasicMap, r: &[Int]) -> Option<String> {
    let off_div = cn.off_div;
    // the division: a local of the row whose numerator makes up the rest of the row
    // (other locals may appear there, inside the numerator: `(x + floor(n/3)) mod 2 = 0`)
    let (q, d, s) = (off_div..r.len()).rev().find_map(|q| {
        let d = b.divs()[q - off_div].as_ref()?;
        if r[q].is_zero() || r[q].abs() != d.den || !d.num[q].is_zero() {
            return None;
        }
        let s = if r[q].is_neg() { Int::ONE } else { -&Int::ONE };
        (1..r.len())
            .all(|c| c == q || r[c] == &s * &d.num[c])
            .then_some((q, d, s))
    })?;
    debug_assert!(r[q].abs() == d.den);
    // num mod den = -s·δ with δ = r0 - s·num0: fold it into the numerator
    let delta = &r[0] - &(&s * &d.num[0]);
    let value = -&(&s * &delta);
    if value.is_neg() || value >= d.den {
        return None;
    }
    let num = lin_text(&cn.terms(&d.num, None, false), &(&d.num[0] - &value));
    Some(format!("({num}) mod {} = 0", d.den))
}

/// A disjunct in print form: the entries of its tuples and its constraints.
struct Disjunct {
    /// One entry a dimension: its name, its defining expression (`1 + j`), or both (`j = 2i`).
    entries: Vec<String>,
    /// The constraints as an isl formula (empty for the universe).
    body: String,
}

/// The equality that defines dimension column `col` in isl's convention: the first one
/// whose last non-zero column is `col`, with coefficient ±1 (so it only involves the
/// parameters and earlier dimensions, never a local).
fn defining_eq(eqs: &crate::Rows, taken: &[bool], col: usize) -> Option<usize> {
    (0..eqs.len()).find(|&e| {
        !taken[e]
            && eqs[e].get(col).is_some_and(|c| c.abs().is_one())
            && eqs[e][col + 1..].iter().all(Int::is_zero)
    })
}

/// The constraints of a basic map as an isl formula (empty for the universe), and its
/// tuple entries. With `define`, a dimension defined by an equality in terms of the
/// parameters and earlier dimensions is written inside the tuple as isl does — as the
/// expression alone (`A[i, j + 1]`) when it is unnamed and nothing else mentions it,
/// else as `j = 2i` — and the equality is not repeated among the constraints.
fn basic_body(b: &BasicMap, dims: &[String], define: bool) -> Disjunct {
    let sp = b.space();
    let np = sp.n_param();
    let off_div = b.off_div();
    let nl = b.n_div();
    let n = b.row_len();
    let mut text: Vec<String> = vec![String::new(); n];
    let mut ident = vec![true; n];
    for (k, p) in sp.params.iter().enumerate() {
        text[1 + k] = p.clone();
    }
    for (k, d) in dims.iter().enumerate() {
        text[1 + np + k] = d.clone();
    }
    let inline = b
        .divs()
        .iter()
        .enumerate()
        .all(|(k, d)| matches!(d, Some(d) if d.den.is_pos() && d.num.len() == n && d.num[off_div + k..].iter().all(Int::is_zero)));
    let mut skip = vec![false; b.ineqs().len()];
    let mut local_names = Vec::new();
    if inline {
        let mut order: Vec<usize> = (1..off_div).collect();
        for (k, d) in b.divs().iter().enumerate() {
            let Some(d) = d else { continue };
            let col = off_div + k;
            let cn = ColNames {
                text: text.clone(),
                ident: ident.clone(),
                order: order.clone(),
                off_div,
            };
            let num = lin_text(&cn.terms(&d.num, None, false), &d.num[0]);
            text[col] = format!("floor(({num})/{})", d.den);
            ident[col] = false;
            order.push(col);
            // the defining inequalities
            for def in d.bounds(col) {
                if let Some(i) = (0..skip.len()).find(|&i| !skip[i] && b.ineqs()[i] == def) {
                    skip[i] = true;
                }
            }
        }
    } else {
        let used: Vec<&String> = sp.params.iter().chain(dims.iter()).collect();
        let mut t = 0;
        for k in 0..nl {
            loop {
                let cand = format!("e{t}");
                t += 1;
                if !used.contains(&&cand) {
                    text[off_div + k] = cand.clone();
                    local_names.push(cand);
                    break;
                }
            }
        }
    }
    // printing order: non-locals in column order, then locals by text
    let mut order: Vec<usize> = (1..off_div).collect();
    let mut locs: Vec<usize> = (off_div..n).collect();
    locs.sort_by(|&a, &b| text[a].cmp(&text[b]).then(a.cmp(&b)));
    order.extend(locs);
    let cn = ColNames {
        text,
        ident,
        order,
        off_div,
    };

    // a constant row that fails makes the disjunct `false`
    let false_seen = b
        .eqs()
        .iter()
        .any(|r| cn.main(r).is_none() && !r[0].is_zero())
        || b.ineqs()
            .iter()
            .any(|r| cn.main(r).is_none() && r[0].is_neg());
    let mut entries: Vec<String> = dims.to_vec();
    if false_seen {
        return Disjunct {
            entries,
            body: "false".to_string(),
        };
    }

    // the dimensions defined by an equality
    let mut taken = vec![false; b.eqs().len()];
    let mut defined: Vec<(usize, usize)> = Vec::new(); // (dimension column, equality)
    if define {
        for col in 1 + np..off_div {
            // only an equality no other equality shares the column with: the reader
            // takes the tuple's definitions first, and must meet the same rows in
            // an order that makes no difference (isl's equalities are reduced, so
            // this is always the case there)
            let e = defining_eq(b.eqs(), &taken, col).filter(|&e| {
                b.eqs()
                    .iter()
                    .enumerate()
                    .all(|(f, r)| f == e || r[col].is_zero())
            });
            if let Some(e) = e {
                taken[e] = true;
                defined.push((col, e));
            }
        }
    }
    if !defined.is_empty() {
        let raw: Vec<String> = sp
            .domain
            .iter()
            .flat_map(|d| d.dim_names())
            .chain(sp.range.dim_names())
            .collect();
        for &(col, e) in &defined {
            let k = col - 1 - np;
            let r = &b.eqs()[e];
            let row: Vec<Int> = if r[col].is_neg() {
                r.iter().map(|v| -v).collect()
            } else {
                r.to_vec()
            };
            let expr = lin_text(&cn.terms(&row, Some(col), true), &-&row[0]);
            // a dimension that another printed row (an equality, a definition, a bound,
            // a division) mentions keeps its name
            let named = raw.get(k).is_some_and(|r| *r == dims[k]);
            let other = b
                .eqs()
                .iter()
                .enumerate()
                .any(|(f, r)| f != e && !r[col].is_zero())
                || b.ineqs()
                    .iter()
                    .enumerate()
                    .any(|(i, r)| !skip[i] && !r[col].is_zero())
                || (inline && b.divs().iter().flatten().any(|d| !d.num[col].is_zero()));
            entries[k] = if named || other {
                format!("{} = {expr}", dims[k])
            } else {
                expr
            };
        }
    }

    let mut cons = Vec::new();
    for (e, r) in b.eqs().iter().enumerate() {
        if taken[e] {
            continue;
        }
        if inline {
            if let Some(text) = congruence_text(&cn, b, r) {
                cons.push(Cons::Text(text));
                continue;
            }
        }
        if let Some(m) = cn.main(r) {
            let flip = r[m].is_neg();
            let row: Vec<Int> = if flip {
                r.iter().map(|v| -v).collect()
            } else {
                r.to_vec()
            };
            let rhs = lin_text(&cn.terms(&row, Some(m), true), &-&row[0]);
            cons.push(Cons::Text(format!("{} = {rhs}", lhs_text(&cn, m, &row[m]))));
        }
    }
    for (i, r) in b.ineqs().iter().enumerate() {
        if skip[i] {
            continue;
        }
        if let Some(m) = cn.main(r) {
            let lower = r[m].is_pos();
            let (rhs, strict) = bound_side(&cn, r, m, lower);
            cons.push(Cons::Bound {
                main: m,
                coef: r[m].abs(),
                lower,
                rhs,
                strict,
            });
        }
    }
    let mut used = vec![false; cons.len()];
    let mut parts = Vec::new();
    for i in 0..cons.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        match &cons[i] {
            Cons::Text(s) => parts.push(s.clone()),
            Cons::Bound {
                main,
                coef,
                lower,
                rhs,
                strict,
            } => {
                let partner = (i + 1..cons.len()).find(|&j| {
                    !used[j] && matches!(&cons[j], Cons::Bound { main: m2, coef: c2, lower: l2, .. } if m2 == main && c2 == coef && l2 != lower)
                });
                let lhs = lhs_text(&cn, *main, coef);
                let op = |lower: bool, strict: bool| match (lower, strict) {
                    (true, false) => ">=",
                    (true, true) => ">",
                    (false, false) => "<=",
                    (false, true) => "<",
                };
                match partner {
                    None => parts.push(format!("{lhs} {} {rhs}", op(*lower, *strict))),
                    Some(j) => {
                        used[j] = true;
                        let Cons::Bound {
                            rhs: rhs2,
                            strict: strict2,
                            ..
                        } = &cons[j]
                        else {
                            continue;
                        };
                        let ((lo, lo_s), (hi, hi_s)) = if *lower {
                            ((rhs, *strict), (rhs2, *strict2))
                        } else {
                            ((rhs2, *strict2), (rhs, *strict))
                        };
                        let o1 = if lo_s { "<" } else { "<=" };
                        let o2 = if hi_s { "<" } else { "<=" };
                        parts.push(format!("{lo} {o1} {lhs} {o2} {hi}"));
                    }
                }
            }
        }
    }
    let body = parts.join(" and ");
    let body = if !local_names.is_empty() && !body.is_empty() {
        format!("exists ({} : {body})", local_names.join(", "))
    } else {
        body
    };
    Disjunct { entries, body }
}

/// The constraints of a basic map as an isl formula over its plain tuples (every
/// equality among the constraints), empty for the universe: the condition of a piece.
pub(crate) fn constraints_text(b: &BasicMap) -> String {
    basic_body(b, &dim_names(b.space()), false).body
}

/// The tuples of `space` with the given entries (see [`tuples_text`]).
fn tuples_with(space: &Space, entries: &[String]) -> String {
    let mut out = String::new();
    if space.is_params() {
        return out;
    }
    let mut it = entries.iter();
    if let Some(d) = &space.domain {
        tuple_text(d, &mut it, "_", &mut out);
        out.push_str(" -> ");
    }
    tuple_text(&space.range, &mut it, "_", &mut out);
    out
}

/// One disjunct `T : constraints` (or `T`) as it appears between braces.
fn basic_part(b: &BasicMap, dims: &[String]) -> String {
    let d = basic_body(b, dims, true);
    let tuples = tuples_with(b.space(), &d.entries);
    match (tuples.is_empty(), d.body.is_empty()) {
        (true, true) => ":".to_string(),
        (true, false) => format!(": {}", d.body),
        (false, true) => tuples,
        (false, false) => format!("{tuples} : {}", d.body),
    }
}

/// The parts of a map between braces (no parameters, no braces).
fn map_parts(m: &Map) -> String {
    let tuples = tuples_text(m.space());
    let dims = dim_names(m.space());
    let bs = m.basic_maps();
    if bs.is_empty() {
        return if tuples.is_empty() {
            ": false".to_string()
        } else {
            format!("{tuples} : false")
        };
    }
    if dims.is_empty() && bs.len() > 1 {
        // no dimension to name in the disjuncts: one disjunction, as isl
        // prints `[n] -> { : n >= 6 or n < 0 }` and `{ [] : ... or ... }`
        let sep = if tuples.is_empty() { "" } else { " " };
        let bodies: Vec<String> = bs
            .iter()
            .map(|b| basic_body(b, &dims, false).body)
            .collect();
        if bodies.iter().any(String::is_empty) {
            return if tuples.is_empty() {
                ":".to_string()
            } else {
                tuples
            };
        }
        let joined: Vec<String> = bodies.iter().map(|s| format!("({s})")).collect();
        return format!("{tuples}{sep}: {}", joined.join(" or "));
    }
    // a disjunct written twice is written once (e.g. a statement that reads the same
    // element twice: `poly scop`'s read relation)
    let mut parts: Vec<String> = Vec::with_capacity(bs.len());
    for b in bs {
        let p = basic_part(b, &dims);
        if !parts.contains(&p) {
            parts.push(p);
        }
    }
    parts.join("; ")
}

impl fmt::Display for BasicMap {
    /// isl notation, e.g. `[n] -> { [i] : 0 <= i < n }`.
    ///
    /// ```
    /// let b: presburger::BasicMap = "{ [i] -> [j] : j = i + 1 }".parse().unwrap();
    /// assert_eq!(b.to_string(), "{ [i] -> [j = i + 1] }");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = dim_names(self.space());
        write!(
            f,
            "{}{{ {} }}",
            params_prefix(&self.space().params),
            basic_part(self, &dims)
        )
    }
}

impl fmt::Display for Map {
    /// isl notation, e.g. `{ [i] : i >= 0; [i] : i <= -5 }`.
    ///
    /// ```
    /// let m: presburger::Map = "{ [i] : i >= 0 or i <= -5 }".parse().unwrap();
    /// assert_eq!(m.to_string(), "{ [i] : i >= 0; [i] : i <= -5 }");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{{ {} }}",
            params_prefix(&self.space().params),
            map_parts(self)
        )
    }
}

impl fmt::Display for UnionMap {
    /// isl notation, e.g. `[n] -> { A[i] : i < n; B[j] }`; the empty union is `{  }`.
    ///
    /// ```
    /// let u: presburger::UnionMap = "[n] -> { B[j]; A[i] : i < n }".parse().unwrap();
    /// assert_eq!(u.to_string(), "[n] -> { A[i] : i < n; B[j] }");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // as in isl, a part without disjuncts is not written (`{ [i] : false }` alone is)
        let parts: Vec<String> = self
            .maps()
            .iter()
            .filter(|m| !m.basic_maps().is_empty())
            .map(map_parts)
            .collect();
        if parts.is_empty() {
            write!(f, "{}{{  }}", params_prefix(self.params()))
        } else {
            write!(
                f,
                "{}{{ {} }}",
                params_prefix(self.params()),
                parts.join("; ")
            )
        }
    }
}
