//! Structural operations: those that only rearrange variables and spaces.
//!
//! Projection is exact because projected dimensions become existentially
//! quantified locals; nothing is approximated. Every operation here is a
//! special case of `BasicMap::transform`, which moves the variables of a
//! basic map into a new layout.

use std::borrow::Cow;
use std::sync::Arc;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{Space, Tuple};
use crate::trace::traced;

mod contradiction;
mod moving;
mod project;
mod reference;
pub(crate) mod repeated;

use moving::moved;
pub(crate) use moving::{project_column_cheaply, Dest};

fn params_dest(np: usize) -> impl Iterator<Item = Dest> {
    (0..np).map(Dest::Var)
}

pub(crate) fn need_map(m: &Map, what: &str) -> Result<()> {
    if m.is_set() {
        Err(Error::SpaceMismatch(format!(
            "{what} needs a relation, got a set"
        )))
    } else {
        Ok(())
    }
}

fn need_set(m: &Map, what: &str) -> Result<()> {
    if m.is_set() {
        Ok(())
    } else {
        Err(Error::SpaceMismatch(format!(
            "{what} needs a set, got a relation"
        )))
    }
}

/// The tuple of the differences of a relation of space `space`: its range
/// when domain and range are the same space, else an anonymous tuple.
fn deltas_tuple(space: &Space) -> Arc<Tuple> {
    match &space.domain {
        Some(d) if *d == space.range => space.range.clone(),
        _ => Arc::new(Tuple::anonymous(space.n_out())),
    }
}

impl Map {
    /// Every part moved by `f` into `space` and simplified (those found
    /// empty dropped); a part that repeats an earlier one takes that one's
    /// answer ([`repeated`]).
    ///
    /// Every `f` here keeps emptiness both ways (it moves, renames or
    /// projects variables: a point of the part gives a point of its image
    /// and the image of no point is empty). So a part found empty once
    /// moved is empty itself, and this is kept on it
    /// ([`BasicMap::remember_empty`]: its hint, valid while its rows are
    /// unchanged); a part known empty that way, by this or an earlier
    /// emptiness test, is dropped without being moved. The disjuncts kept
    /// are those of the simple way (`tests/structural_fast.rs`), but for
    /// those whose equalities [`contradiction`] finds without an integer
    /// solution once simplified (empty, dropped and kept as empty too).
    fn map_parts(&self, space: Space, f: impl Fn(&BasicMap) -> BasicMap) -> Map {
        self.map_parts_checked(space, f, false)
    }

    /// Every part relabelled by `f` into `space`, not simplified (those
    /// known empty dropped): for an `f` that only renames the variables (a
    /// permutation of the columns, a new space of the same variables), which
    /// leaves each part as redundant and as empty as it was, so that
    /// simplifying would only redo work on the input's account (as isl's
    /// `reverse`, `wrap` and `unwrap` only move the variables).
    fn relabel_parts(&self, space: Space, f: impl Fn(&BasicMap) -> BasicMap) -> Map {
        let parts = self
            .parts
            .iter()
            .filter(|b| !b.known_empty())
            .map(f)
            .collect();
        Map::new(space, parts)
    }

    /// [`map_parts`](Self::map_parts), the equalities of each part
    /// simplified also tested by [`contradiction`] if `check_eqs` (see
    /// [`moved`]).
    fn map_parts_checked(
        &self,
        space: Space,
        f: impl Fn(&BasicMap) -> BasicMap,
        check_eqs: bool,
    ) -> Map {
        let rep = repeated::repeats(&self.parts);
        let mut done: Vec<Option<BasicMap>> = Vec::new();
        if !rep.is_empty() {
            done.reserve(self.parts.len());
        }
        let mut out: Vec<BasicMap> = Vec::with_capacity(self.parts.len());
        for (k, b) in self.parts.iter().enumerate() {
            let answer = match rep.get(k).copied().flatten() {
                Some(j) => done[j].clone(),
                None => moved(b, &f, check_eqs),
            };
            if rep.is_empty() {
                out.extend(answer);
            } else {
                out.extend(answer.clone());
                done.push(answer);
            }
        }
        Map::new(space, out)
    }

    /// The parts moved by `dest` into `space` with `n_exist` fresh
    /// existentials (the projected variables), those that an equality with
    /// a unit coefficient gives substituted away at once
    /// ([`substitute_shared_existentials`](crate::join::substitute_shared_existentials),
    /// the step `apply_range` takes), then simplified. The set is that of
    /// `project_parts_reference` (transform,
    /// then simplify alone, which finds the same substitutions in a second
    /// round): the tests' oracle.
    fn project_parts(&self, space: Space, dest: &[Dest], n_exist: usize, check_eqs: bool) -> Map {
        // (the rows built in one pass, those of transform then the
        // substitution: `project::project_part`)
        self.map_parts_checked(
            space.clone(),
            |b| project::project_part(b, &space, dest, n_exist),
            check_eqs,
        )
    }

    /// The inverse relation `{ y -> x : x -> y in self }`: each disjunct's
    /// variables moved, its constraints otherwise as they are (not
    /// simplified; disjuncts known empty left out).
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [i] -> [j] : j = i + 1 }".parse().unwrap();
    /// let r = m.reverse().unwrap();
    /// assert!(r.is_equal(&"{ [j] -> [i] : j = i + 1 }".parse().unwrap()).unwrap());
    /// ```
    pub fn reverse(&self) -> Result<Map> {
        traced!("reverse", [self], {
            need_map(self, "reverse")?;
            let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
            let space = self.space.reverse();
            let dest: Vec<Dest> = params_dest(np)
                .chain((0..ni).map(|k| Dest::Var(np + no + k)))
                .chain((0..no).map(|k| Dest::Var(np + k)))
                .collect();
            Ok(self.relabel_parts(space.clone(), |b| b.transform(space.clone(), &dest, 0)))
        })
    }

    /// The domain `{ x : exists y : x -> y in self }`.
    pub fn domain(&self) -> Result<Map> {
        traced!("domain", [self], {
            need_map(self, "domain")?;
            let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
            let space = self.space.domain_space();
            if self.parts.is_empty() {
                return Ok(Map::empty(space));
            }
            let dest: Vec<Dest> = params_dest(np)
                .chain((0..ni).map(|k| Dest::Var(np + k)))
                .chain((0..no).map(Dest::Exist))
                .collect();
            Ok(self.project_parts(space, &dest, no, true))
        })
    }

    /// The range `{ y : exists x : x -> y in self }`.
    pub fn range(&self) -> Result<Map> {
        traced!("range", [self], {
            need_map(self, "range")?;
            let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
            let space = self.space.range_space();
            if self.parts.is_empty() {
                return Ok(Map::empty(space));
            }
            let dest: Vec<Dest> = params_dest(np)
                .chain((0..ni).map(Dest::Exist))
                .chain((0..no).map(|k| Dest::Var(np + k)))
                .collect();
            Ok(self.project_parts(space, &dest, ni, false))
        })
    }

    /// The parameter domain `{ : exists x : x in self }` (a set with no dimensions).
    pub fn params(&self) -> Map {
        let np = self.space.n_param();
        let nd = self.space.n_in() + self.space.n_out();
        let space = self.space.params_space();
        let dest: Vec<Dest> = params_dest(np).chain((0..nd).map(Dest::Exist)).collect();
        self.map_parts(space.clone(), |b| b.transform(space.clone(), &dest, nd))
    }

    /// Project out `n` set (range) dimensions starting at `first`; they become existentials.
    pub fn project_out(&self, first: usize, n: usize) -> Result<Map> {
        traced!(
            if n == 1 && self.is_set() {
                "project"
            } else {
                "project_out"
            },
            [self, first],
            {
                let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
                if first + n > no {
                    return Err(Error::Invalid(
                        "project_out: dimension range out of bounds".into(),
                    ));
                }
                let space = self.space.without_range_dims(first, n);
                if self.parts.is_empty() {
                    return Ok(Map::empty(space));
                }
                let dest: Vec<Dest> = params_dest(np)
                    .chain((0..ni).map(|k| Dest::Var(np + k)))
                    .chain((0..no).map(|k| {
                        if k < first {
                            Dest::Var(np + ni + k)
                        } else if k < first + n {
                            Dest::Exist(k - first)
                        } else {
                            Dest::Var(np + ni + k - n)
                        }
                    }))
                    .collect();
                // one dimension that no row needs eliminated: its column is
                // dropped (the other rows as they were); otherwise it
                // becomes an existential and the disjunct is simplified
                let col = 1 + np + ni + first;
                if n == 1 {
                    let cheap: Vec<Option<BasicMap>> = self
                        .parts
                        .iter()
                        .map(|b| project_column_cheaply(b, &space, col))
                        .collect();
                    if cheap.iter().any(Option::is_some) {
                        let mut parts = Vec::with_capacity(self.parts.len());
                        for (b, c) in self.parts.iter().zip(cheap) {
                            match c {
                                Some(c) => parts.push(c),
                                None => parts.extend(moved(
                                    b,
                                    |b| b.transform(space.clone(), &dest, n),
                                    false,
                                )),
                            }
                        }
                        return Ok(Map::new(space, parts));
                    }
                }
                Ok(self.map_parts(space.clone(), |b| b.transform(space.clone(), &dest, n)))
            }
        )
    }

    /// The differences `{ y - x : x -> y in self }` of a relation between
    /// spaces of equal dimension. As in isl, the differences live in the
    /// relation's space when domain and range are the same space (tuple
    /// names and nesting kept: `deltas { S[i] -> S[i + 2] }` is `{ S[2] }`);
    /// otherwise in an anonymous tuple.
    pub fn deltas(&self) -> Result<Map> {
        traced!("deltas", [self], {
            need_map(self, "deltas")?;
            let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
            if ni != no {
                return Err(Error::SpaceMismatch(
                    "deltas needs domain and range of equal dimension".into(),
                ));
            }
            let space = Space::set(self.space.params.clone(), deltas_tuple(&self.space));
            let dest: Vec<Dest> = params_dest(np)
                .chain((0..ni + no).map(Dest::Exist))
                .collect();
            let parts = self
                .parts
                .iter()
                .map(|b| {
                    let mut t = b.transform(space.clone(), &dest, ni + no);
                    let off_e = 1 + np + no;
                    for k in 0..no {
                        // d_k - (y_k - x_k) = 0
                        let mut row = vec![Int::ZERO; t.row_len()];
                        row[1 + np + k] = Int::ONE;
                        row[off_e + ni + k] = Int::from(-1);
                        row[off_e + k] = Int::ONE;
                        t.eqs.push(row);
                    }
                    t
                })
                .collect();
            Ok(Map::new(space, parts).simplify_parts())
        })
    }

    /// The relation `{ x -> y - x : x -> y in self }` (iscc's `deltas_map`
    /// returns `{ [x -> y] -> y - x }`; this is that relation).
    pub fn deltas_map(&self) -> Result<Map> {
        need_map(self, "deltas_map")?;
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        if ni != no {
            return Err(Error::SpaceMismatch(
                "deltas_map needs domain and range of equal dimension".into(),
            ));
        }
        let wrapped = self.wrap()?;
        let space = Space::map(
            self.space.params.clone(),
            wrapped.space.range.clone(),
            deltas_tuple(&self.space),
        );
        let dest: Vec<Dest> = (0..np + ni + no).map(Dest::Var).collect();
        let parts = self
            .parts
            .iter()
            .map(|b| {
                let mut t = b.transform(space.clone(), &dest, 0);
                for k in 0..no {
                    let mut row = vec![Int::ZERO; t.row_len()];
                    row[1 + np + ni + no + k] = Int::ONE;
                    row[1 + np + ni + k] = Int::from(-1);
                    row[1 + np + k] = Int::ONE;
                    t.eqs.push(row);
                }
                t
            })
            .collect();
        Ok(Map::new(space, parts))
    }

    /// The same set in an anonymous flat tuple of the same dimension
    /// (`{ S[i, j] : ... }` becomes `{ [i, j] : ... }`; isl's
    /// `reset_tuple_id`, with nesting flattened too).
    pub fn anonymous_tuple(&self) -> Result<Map> {
        need_set(self, "anonymous_tuple")?;
        let space = Space::set(
            self.space.params.clone(),
            Tuple::anonymous(self.space.n_out()),
        );
        Ok(self.relabel_parts(space.clone(), |b| BasicMap {
            space: space.clone(),
            ..b.clone()
        }))
    }

    /// Wrap a relation into a set of pairs `{ [x -> y] }`.
    pub fn wrap(&self) -> Result<Map> {
        need_map(self, "wrap")?;
        let space = self.space.wrap();
        Ok(self.relabel_parts(space.clone(), |b| BasicMap {
            space: space.clone(),
            ..b.clone()
        }))
    }

    /// Unwrap a set of pairs `{ [x -> y] }` into a relation.
    pub fn unwrap(&self) -> Result<Map> {
        need_set(self, "unwrap")?;
        let space = self
            .space
            .unwrap()
            .ok_or_else(|| Error::SpaceMismatch("unwrap needs a wrapped set".into()))?;
        Ok(self.relabel_parts(space.clone(), |b| BasicMap {
            space: space.clone(),
            ..b.clone()
        }))
    }

    /// The identity relation `{ x -> x : x in self }` of a set.
    pub fn identity(&self) -> Result<Map> {
        need_set(self, "identity")?;
        let (np, no) = (self.space.n_param(), self.space.n_out());
        let space = Space::map(
            self.space.params.clone(),
            self.space.range.clone(),
            self.space.range.clone(),
        );
        let dest: Vec<Dest> = (0..np + no).map(Dest::Var).collect();
        let parts = self
            .parts
            .iter()
            .map(|b| {
                let mut t = b.transform(space.clone(), &dest, 0);
                for k in 0..no {
                    t.add_var_eq(np + k, np + no + k);
                }
                t
            })
            .collect();
        Ok(Map::new(space, parts))
    }

    /// `{ [x -> y] -> x : x -> y in self }`.
    pub fn domain_map(&self) -> Result<Map> {
        self.pair_projection(true)
    }

    /// `{ [x -> y] -> y : x -> y in self }`.
    pub fn range_map(&self) -> Result<Map> {
        self.pair_projection(false)
    }

    fn pair_projection(&self, dom: bool) -> Result<Map> {
        need_map(self, if dom { "domain_map" } else { "range_map" })?;
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        let wrapped = self.space.wrap().range.clone();
        let target = if dom {
            self.space.domain_tuple()
        } else {
            self.space.range.clone()
        };
        let space = Space::map(self.space.params.clone(), wrapped, target);
        let dest: Vec<Dest> = (0..np + ni + no).map(Dest::Var).collect();
        let parts = self
            .parts
            .iter()
            .map(|b| {
                let mut t = b.transform(space.clone(), &dest, 0);
                let n = if dom { ni } else { no };
                let src = if dom { np } else { np + ni };
                for k in 0..n {
                    t.add_var_eq(src + k, np + ni + no + k);
                }
                t
            })
            .collect();
        Ok(Map::new(space, parts))
    }

    /// The product of two sets as a relation `{ x -> y : x in self, y in other }`.
    pub fn product_sets(&self, other: &Map) -> Result<Map> {
        need_set(self, "->")?;
        need_set(other, "->")?;
        let (a, b) = align_any(self, other);
        let np = a.space.n_param();
        let (na, nb) = (a.space.n_out(), b.space.n_out());
        let space = Space::map(
            a.space.params.clone(),
            a.space.range.clone(),
            b.space.range.clone(),
        );
        let da: Vec<Dest> = (0..np + na).map(Dest::Var).collect();
        let db: Vec<Dest> = params_dest(np)
            .chain((0..nb).map(|k| Dest::Var(np + na + k)))
            .collect();
        product_parts(&a, &b, space, &da, &db)
    }

    /// The cross product `{ [x -> u] -> [y -> v] : x -> y in self, u -> v in other }`
    /// of two relations, or `{ [x -> y] }` of two sets.
    pub fn cross(&self, other: &Map) -> Result<Map> {
        let (a, b) = align_any(self, other);
        let np = a.space.n_param();
        if a.is_set() != b.is_set() {
            return Err(Error::SpaceMismatch(
                "cross needs two sets or two relations".into(),
            ));
        }
        let (ai, ao, bi, bo) = (
            a.space.n_in(),
            a.space.n_out(),
            b.space.n_in(),
            b.space.n_out(),
        );
        let space = if a.is_set() {
            Space::set(
                a.space.params.clone(),
                Tuple::nested(None, a.space.range.clone(), b.space.range.clone()),
            )
        } else {
            Space::map(
                a.space.params.clone(),
                Tuple::nested(
                    None,
                    a.space.domain.clone().unwrap(),
                    b.space.domain.clone().unwrap(),
                ),
                Tuple::nested(None, a.space.range.clone(), b.space.range.clone()),
            )
        };
        // new layout: params | ai | bi | ao | bo
        let da: Vec<Dest> = params_dest(np)
            .chain((0..ai).map(|k| Dest::Var(np + k)))
            .chain((0..ao).map(|k| Dest::Var(np + ai + bi + k)))
            .collect();
        let db: Vec<Dest> = params_dest(np)
            .chain((0..bi).map(|k| Dest::Var(np + ai + k)))
            .chain((0..bo).map(|k| Dest::Var(np + ai + bi + ao + k)))
            .collect();
        product_parts(&a, &b, space, &da, &db)
    }

    /// Join: `{ x -> z : exists y : x -> y in self and y -> z in other }`.
    pub fn apply_range(&self, other: &Map) -> Result<Map> {
        traced!("compose", [self, other], {
            self.apply_range_joined(other, true)
        })
    }

    /// [`apply_range`](Self::apply_range) by [`join_parts`](crate::join::join_parts) with or without
    /// its `fast` shortcuts (without: the tests' oracle,
    /// `apply_range_reference`).
    pub(crate) fn apply_range_joined(&self, other: &Map, fast: bool) -> Result<Map> {
        need_map(self, "apply_range")?;
        need_map(other, "apply_range")?;
        let (a, b) = align_any(self, other);
        if a.space.range != *b.space.domain.as_ref().unwrap() {
            return Err(Error::SpaceMismatch(
                "apply_range: range of the first does not match domain of the second".into(),
            ));
        }
        let np = a.space.n_param();
        let (ni, nm, no) = (a.space.n_in(), a.space.n_out(), b.space.n_out());
        let space = Space::map(
            a.space.params.clone(),
            a.space.domain.clone().unwrap(),
            b.space.range.clone(),
        );
        let da: Vec<Dest> = params_dest(np)
            .chain((0..ni).map(|k| Dest::Var(np + k)))
            .chain((0..nm).map(Dest::Exist))
            .collect();
        let db: Vec<Dest> = params_dest(np)
            .chain((0..nm).map(Dest::Exist))
            .chain((0..no).map(|k| Dest::Var(np + ni + k)))
            .collect();
        crate::join::join_parts(&a, &b, space, &da, &db, nm, fast)
    }

    /// Apply a relation to a set: `{ y : exists x in self : x -> y in map }`.
    pub fn apply(&self, map: &Map) -> Result<Map> {
        traced!("apply", [self, map], {
            need_set(self, "apply")?;
            need_map(map, "apply")?;
            let (a, b) = align_any(self, map);
            if a.space.range != *b.space.domain.as_ref().unwrap() {
                return Err(Error::SpaceMismatch(
                    "apply: the set does not live in the relation's domain".into(),
                ));
            }
            let np = a.space.n_param();
            let (nm, no) = (a.space.n_out(), b.space.n_out());
            let space = b.space.range_space();
            let da: Vec<Dest> = params_dest(np).chain((0..nm).map(Dest::Exist)).collect();
            let db: Vec<Dest> = params_dest(np)
                .chain((0..nm).map(Dest::Exist))
                .chain((0..no).map(|k| Dest::Var(np + k)))
                .collect();
            crate::join::join(&a, &b, space, &da, &db, nm)
        })
    }

    /// Intersect the domain of a relation with a set.
    pub fn intersect_domain(&self, set: &Map) -> Result<Map> {
        traced!("intersect_domain", [self, set], {
            self.intersect_side(set, true)
        })
    }

    /// Intersect the range of a relation with a set.
    pub fn intersect_range(&self, set: &Map) -> Result<Map> {
        traced!("intersect_range", [self, set], {
            self.intersect_side(set, false)
        })
    }

    fn intersect_side(&self, set: &Map, domain: bool) -> Result<Map> {
        let what = if domain {
            "intersect_domain"
        } else {
            "intersect_range"
        };
        need_map(self, what)?;
        need_set(set, what)?;
        let (a, s) = align_any(self, set);
        let side = if domain {
            a.space.domain.as_ref().unwrap()
        } else {
            &a.space.range
        };
        if s.space.range != *side {
            return Err(Error::SpaceMismatch(format!(
                "{what}: the set does not live there"
            )));
        }
        let (np, ni) = (a.space.n_param(), a.space.n_in());
        let first = if domain { np } else { np + ni };
        let dest: Vec<Dest> = params_dest(np)
            .chain((0..s.space.n_out()).map(|k| Dest::Var(first + k)))
            .collect();
        let parts = s
            .parts
            .iter()
            .map(|b| b.transform(a.space.clone(), &dest, 0))
            .collect();
        a.intersect(&Map::new(a.space.clone(), parts))
    }

    /// Intersect with a parameter domain (a set whose space has no dimensions).
    pub fn intersect_params(&self, params: &Map) -> Result<Map> {
        traced!("intersect_params", [self, params], {
            let (a, p) = align_any(self, params);
            let np = a.space.n_param();
            let dest: Vec<Dest> = params_dest(np)
                .chain((0..p.space.n_in() + p.space.n_out()).map(Dest::Exist))
                .collect();
            let nd = p.space.n_in() + p.space.n_out();
            let lifted = Map::new(
                a.space.clone(),
                p.parts
                    .iter()
                    .map(|b| b.transform(a.space.clone(), &dest, nd))
                    .collect(),
            );
            a.intersect(&lifted)
        })
    }

    /// The relation `{ x -> y : x ≺ y }` (strictly lexicographically smaller, `strict`)
    /// or `x ≼ y`, between two set spaces of equal dimension, restricted to `self -> other`.
    pub fn lex_order(&self, other: &Map, strict: bool, less: bool) -> Result<Map> {
        need_set(self, "lexicographic order")?;
        need_set(other, "lexicographic order")?;
        let (a, b) = align_any(self, other);
        let n = a.space.n_out();
        if n != b.space.n_out() {
            return Err(Error::SpaceMismatch(
                "lexicographic order needs sets of equal dimension".into(),
            ));
        }
        let prod = a.product_sets(&b)?;
        let order = lex_order_map(prod.space.clone(), strict, less);
        prod.intersect(&order)
    }

    /// Fix variable `k` (0-based over params, in, out) to a value.
    pub fn fix_var(&self, k: usize, value: &Int) -> Map {
        let mut m = self.clone();
        for b in &mut m.parts {
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1 + k] = Int::ONE;
            row[0] = -value;
            b.eqs.push(row);
        }
        m
    }
}

/// The lexicographic order relation on a relation space with equal tuples' dimensions:
/// `x << y` (`strict`, `less`), `x <<= y`, `x >> y`, `x >>= y`.
pub fn lex_order_map(space: Space, strict: bool, less: bool) -> Map {
    let np = space.n_param();
    let n = space.n_in();
    let mut out = Map::empty(space.clone());
    for level in 0..=n {
        if level == n && strict {
            break;
        }
        let mut b = BasicMap::universe(space.clone());
        for k in 0..level {
            b.add_var_eq(np + k, np + n + k);
        }
        if level < n {
            // y_l - x_l - 1 >= 0 (less) or x_l - y_l - 1 >= 0
            let mut row = vec![Int::ZERO; b.row_len()];
            let (p, q) = if less {
                (np + n + level, np + level)
            } else {
                (np + level, np + n + level)
            };
            row[1 + p] = Int::ONE;
            row[1 + q] = Int::from(-1);
            row[0] = Int::from(-1);
            b.ineqs.push(row);
        }
        out.parts.push(b);
    }
    out
}

/// Align the parameters of two maps of possibly different spaces (copies
/// only when the parameters differ).
pub(crate) fn align_any<'a>(a: &'a Map, b: &'a Map) -> (Cow<'a, Map>, Cow<'a, Map>) {
    if crate::map::same_params(&a.space.params, &b.space.params) {
        return (Cow::Borrowed(a), Cow::Borrowed(b));
    }
    let params = crate::space::merge_params_shared(&a.space.params, &b.space.params);
    let mut a = a.clone();
    let mut b = b.clone();
    a.align_params_shared(&params);
    b.align_params_shared(&params);
    (Cow::Owned(a), Cow::Owned(b))
}

/// Every disjunct of `a` moved by `da` intersected with every disjunct of
/// `b` moved by `db`, in `space` (no existentials shared, nothing simplified).
fn product_parts(a: &Map, b: &Map, space: Space, da: &[Dest], db: &[Dest]) -> Result<Map> {
    let mut out = Map::empty(space.clone());
    for x in &a.parts {
        for y in &b.parts {
            crate::budget::tick(1)?;
            out.parts
                .push(x.transform(space.clone(), da, 0).intersect(&y.transform(
                    space.clone(),
                    db,
                    0,
                ))?);
        }
    }
    Ok(out)
}
