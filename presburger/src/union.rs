//! Unions over several spaces.
//!
//! A [`UnionMap`] holds at most one [`Map`] per pair of tuples, all with the
//! same (aligned) parameters, kept sorted by tuple so that printing is
//! deterministic. A union set is a union map whose parts are sets
//! ([`UnionSet`] is the same type).

use crate::error::{Error, Result};
use crate::map::Map;
use std::sync::Arc;

use crate::space::merge_params_shared;
use crate::trace::traced;

mod memo;

/// A union of maps living in different spaces.
///
/// The list of parts is shared between copies and copied on write
/// (`Arc::make_mut`), so a copy of a union, or an answer that keeps every
/// part of its operand (a coalesce that changes nothing), costs one
/// reference count instead of a copy of every disjunct.
#[derive(Clone, Debug, Default)]
pub struct UnionMap {
    pub(crate) params: Arc<[String]>,
    pub(crate) maps: Arc<Vec<Map>>,
    /// What the last coalesce of these parts gave (not part of the value).
    coalesced: memo::CoalescedUnion,
}

/// True if `a` and `b` have the same tuples, shared (`Arc::ptr_eq`): a
/// cheap sufficient test of `a`'s tuples being `b`'s.
fn same_tuples(a: &crate::Space, b: &crate::Space) -> bool {
    let same_domain = match (&a.domain, &b.domain) {
        (None, None) => true,
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        _ => false,
    };
    same_domain && Arc::ptr_eq(&a.range, &b.range)
}

/// Reorder and extend the parameters of every map to `params`.
fn align_maps(maps: &mut [Map], params: &Arc<[String]>) {
    for m in maps {
        m.align_params_shared(params);
    }
}

/// [`UnionMap::add_map`] on the parameters and parts of a union.
fn add_map_to(params_of: &mut Arc<[String]>, maps: &mut Vec<Map>, m: Map) {
    let mut m = m;
    if !crate::map::same_params(&m.space.params, params_of) {
        let params = merge_params_shared(params_of, &m.space.params);
        align_maps(maps, &params);
        *params_of = params.clone();
        m.align_params_shared(&params);
    }
    // parts built in order (the usual case) go after the last without a search
    let order = |x: &Map| (&x.space.domain, &x.space.range).cmp(&(&m.space.domain, &m.space.range));
    match maps.last().map(order) {
        None | Some(std::cmp::Ordering::Less) => {
            maps.push(m);
            return;
        }
        Some(std::cmp::Ordering::Equal) => {
            let last = maps.last_mut().expect("a last part");
            last.parts.extend(m.into_parts());
            return;
        }
        Some(std::cmp::Ordering::Greater) => {}
    }
    match maps.binary_search_by(|x| {
        (&x.space.domain, &x.space.range).cmp(&(&m.space.domain, &m.space.range))
    }) {
        Ok(k) => {
            // same tuples and (now) the same parameters: the union of
            // the two maps is the concatenation of their disjuncts, as
            // `Map::union` computes it, without copying `self`'s part
            debug_assert_eq!(maps[k].space.params, m.space.params);
            maps[k].parts.extend(m.into_parts());
        }
        Err(k) => maps.insert(k, m),
    }
}

/// The parts of two unions with the same parameters, united: both lists
/// are sorted by tuples and distinct (the invariant of a union), so one
/// merge walks them; the parts of a space present on both sides are the
/// concatenation of their disjuncts (`self`'s first, as `add_map` unites
/// them).
fn merge_sorted(a: &[Map], b: &[Map]) -> Vec<Map> {
    use std::cmp::Ordering;
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (&a[i], &b[j]);
        let order = if same_tuples(&x.space, &y.space) {
            Ordering::Equal
        } else {
            (&x.space.domain, &x.space.range).cmp(&(&y.space.domain, &y.space.range))
        };
        match order {
            Ordering::Less => {
                out.push(x.clone());
                i += 1;
            }
            Ordering::Greater => {
                out.push(y.clone());
                j += 1;
            }
            Ordering::Equal => {
                let mut parts = Vec::with_capacity(x.parts.len() + y.parts.len());
                parts.extend_from_slice(&x.parts);
                parts.extend_from_slice(&y.parts);
                out.push(Map::new(x.space.clone(), parts));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// A union set is a [`UnionMap`] whose parts are sets.
pub type UnionSet = UnionMap;

impl UnionMap {
    /// The empty union with the given parameters.
    pub fn empty(params: impl Into<Arc<[String]>>) -> UnionMap {
        UnionMap::new(params.into(), Vec::new())
    }

    /// The union of these parts (sorted by tuples, distinct, with these
    /// parameters).
    fn new(params: Arc<[String]>, maps: Vec<Map>) -> UnionMap {
        UnionMap {
            params,
            maps: Arc::new(maps),
            coalesced: Default::default(),
        }
    }

    /// The parts, owned (moved out when not shared).
    fn into_maps(self) -> Vec<Map> {
        Arc::try_unwrap(self.maps).unwrap_or_else(|m| (*m).clone())
    }

    /// The parameters.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The parts, one per space, sorted by tuples.
    pub fn maps(&self) -> &[Map] {
        &self.maps
    }

    /// True if every part is a set (vacuously true for the empty union).
    pub fn is_set(&self) -> bool {
        self.maps.iter().all(Map::is_set)
    }

    /// Reorder and extend the parameters to `params` (a superset of the current ones).
    pub fn align_params(&mut self, params: &[String]) {
        self.align_params_shared(&params.into());
    }

    /// [`align_params`](Self::align_params) to a shared list (no copy of the names).
    fn align_params_shared(&mut self, params: &Arc<[String]>) {
        align_maps(Arc::make_mut(&mut self.maps).as_mut_slice(), params);
        self.params = params.clone();
    }

    /// Add a map: united with the part of the same space, if any.
    pub fn add_map(&mut self, m: Map) -> Result<()> {
        add_map_to(&mut self.params, Arc::make_mut(&mut self.maps), m);
        Ok(())
    }

    /// Every part simplified cheaply ([`Map::simplify_parts`]: exact, no
    /// linear programming), its empty disjuncts dropped.
    pub fn simplify_parts(self) -> UnionMap {
        let params = self.params.clone();
        let maps = self.into_maps().into_iter().map(Map::simplify_parts);
        UnionMap::new(params, maps.collect())
    }

    /// The part living in the given tuples' space, if any.
    pub fn part(&self, space: &crate::Space) -> Option<&Map> {
        self.maps.iter().find(|m| m.space.tuples_match(space))
    }

    /// A union with a single part.
    pub fn from_map(m: Map) -> UnionMap {
        UnionMap::new(m.space.params.clone(), vec![m])
    }

    /// The single part of a union in one space; `Err` if there are several.
    pub fn to_map(&self) -> Result<Option<Map>> {
        match self.maps.len() {
            0 => Ok(None),
            1 => Ok(Some(self.maps[0].clone())),
            _ => Err(Error::SpaceMismatch("expected a single space".into())),
        }
    }
}

fn same_space_pairs<'a>(
    a: &'a UnionMap,
    b: &'a UnionMap,
) -> Vec<(Option<&'a Map>, Option<&'a Map>)> {
    let mut out = Vec::new();
    for m in a.maps.iter() {
        out.push((
            Some(m),
            b.maps.iter().find(|x| x.space.tuples_match(&m.space)),
        ));
    }
    for m in b.maps.iter() {
        if !a.maps.iter().any(|x| x.space.tuples_match(&m.space)) {
            out.push((None, Some(m)));
        }
    }
    out
}

impl UnionMap {
    fn aligned(&self, other: &UnionMap) -> (UnionMap, UnionMap) {
        let mut a = self.clone();
        let mut b = other.clone();
        if !crate::map::same_params(&a.params, &b.params) {
            let p = merge_params_shared(&a.params, &b.params);
            a.align_params_shared(&p);
            b.align_params_shared(&p);
        }
        (a, b)
    }

    /// [`aligned`](Self::aligned) without copying when the parameters already
    /// agree (for operations that only read the operands).
    fn aligned_ref<'a>(
        &'a self,
        other: &'a UnionMap,
    ) -> (
        std::borrow::Cow<'a, UnionMap>,
        std::borrow::Cow<'a, UnionMap>,
    ) {
        use std::borrow::Cow;
        if crate::map::same_params(&self.params, &other.params) {
            return (Cow::Borrowed(self), Cow::Borrowed(other));
        }
        let (a, b) = self.aligned(other);
        (Cow::Owned(a), Cow::Owned(b))
    }

    fn collect(
        params: &Arc<[String]>,
        maps: impl IntoIterator<Item = Result<Map>>,
    ) -> Result<UnionMap> {
        let mut params = params.clone();
        let mut out = Vec::new();
        for m in maps {
            add_map_to(&mut params, &mut out, m?);
        }
        Ok(UnionMap::new(params, out))
    }

    /// `f` of every part, as [`add_map`](Self::add_map) would collect them;
    /// when every answer keeps its part's space (the same tuples, shared,
    /// and the parameters), the parts are in order and distinct already and
    /// are kept as they come.
    fn each(&self, f: impl Fn(&Map) -> Result<Map>) -> Result<UnionMap> {
        let mut maps = Vec::with_capacity(self.maps.len());
        let mut in_place = true;
        for x in self.maps.iter() {
            let m = f(x)?;
            in_place &= same_tuples(&x.space, &m.space)
                && crate::map::same_params(&m.space.params, &self.params);
            maps.push(m);
        }
        if in_place {
            return Ok(UnionMap::new(self.params.clone(), maps));
        }
        UnionMap::collect(&self.params, maps.into_iter().map(Ok))
    }

    /// Union (per space).
    pub fn union(&self, other: &UnionMap) -> Result<UnionMap> {
        traced!("union", [self, other], {
            let (a, b) = self.aligned_ref(other);
            // a side without parts adds nothing: the other side's parts, shared
            if b.maps.is_empty() {
                return Ok(a.into_owned());
            }
            if a.maps.is_empty() {
                return Ok(b.into_owned());
            }
            Ok(UnionMap::new(
                a.params.clone(),
                merge_sorted(&a.maps, &b.maps),
            ))
        })
    }

    /// [`union`](Self::union) as [`add_map`](Self::add_map) collects the
    /// parts of both operands (its test oracle).
    #[doc(hidden)]
    pub fn union_by_adding(&self, other: &UnionMap) -> Result<UnionMap> {
        let (a, b) = self.aligned(other);
        let params = a.params.clone();
        let maps = a.into_maps().into_iter().chain(b.into_maps());
        UnionMap::collect(&params, maps.map(Ok))
    }

    /// The parameter domain a union stands for, if it is one: a single part
    /// whose space is a parameter space (`[n] -> { : n >= 2 }`).
    /// As in isl, such an operand of [`intersect`](Self::intersect),
    /// [`gist`](Self::gist) and [`intersect_domain`](Self::intersect_domain)
    /// restricts the parameters of every part of the other operand.
    ///
    /// The zero-dimensional set `[n] -> { [] : n >= 2 }` is not a
    /// parameter domain: its space differs from `[n] -> { : n >= 2 }`.
    pub fn as_params_domain(&self) -> Option<&Map> {
        match self.maps.as_slice() {
            [m] if m.space.is_params() => Some(m),
            _ => None,
        }
    }

    /// Every part intersected with the parameter domain `params`.
    pub fn intersect_params(&self, params: &Map) -> Result<UnionMap> {
        traced!("intersect_params", [self, params], {
            let (a, b) = self.aligned(&UnionMap::from_map(params.clone()));
            let p = &b.maps[0];
            a.each(|m| m.intersect_params(p))
        })
    }

    /// Every part simplified in the context of the parameter domain `params`.
    pub fn gist_params(&self, params: &Map) -> Result<UnionMap> {
        let (a, b) = self.aligned(&UnionMap::from_map(params.clone()));
        let p = &b.maps[0];
        a.each(|m| m.gist(&Map::universe(m.space.clone()).intersect_params(p)?))
    }

    /// Intersection (spaces present in both); a parameter domain on either
    /// side restricts the parameters of the other side (see
    /// [`as_params_domain`](Self::as_params_domain)).
    pub fn intersect(&self, other: &UnionMap) -> Result<UnionMap> {
        traced!("intersect", [self, other], {
            if let Some(p) = other.as_params_domain() {
                return self.intersect_params(p);
            }
            if let Some(p) = self.as_params_domain() {
                return other.intersect_params(p);
            }
            let (a, b) = self.aligned_ref(other);
            let mut u = UnionMap::empty(a.params.clone());
            for (x, y) in same_space_pairs(&a, &b) {
                if let (Some(x), Some(y)) = (x, y) {
                    u.add_map(x.intersect(y)?)?;
                }
            }
            Ok(u)
        })
    }

    /// Difference (per space).
    pub fn subtract(&self, other: &UnionMap) -> Result<UnionMap> {
        traced!("subtract", [self, other], {
            let (a, b) = self.aligned_ref(other);
            let mut u = UnionMap::empty(a.params.clone());
            for (x, y) in same_space_pairs(&a, &b) {
                match (x, y) {
                    // `x \ ∅ = x`: a part of `other` without disjuncts (e.g.
                    // `{ S[i] -> A[j] : false }`, a third of the traced
                    // subtractions) removes nothing, as no part at all
                    (Some(x), Some(y)) if y.parts.is_empty() => u.add_map(x.clone())?,
                    (Some(x), Some(y)) => u.add_map(x.subtract(y)?)?,
                    (Some(x), None) => u.add_map(x.clone())?,
                    _ => {}
                }
            }
            Ok(u)
        })
    }

    /// Complement of each part within its space.
    pub fn complement(&self) -> Result<UnionMap> {
        traced!("complement", [self], { self.each(Map::complement) })
    }

    /// True if no part has a point.
    pub fn is_empty(&self) -> Result<bool> {
        traced!("is_empty", [self], {
            for m in self.maps.iter() {
                if !m.is_empty()? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// Subset test, space by space: a part of `self` must be contained in
    /// the part of `other` in the same space, or be empty if there is none
    /// (the same as `self \ other` being empty, without building it).
    pub fn is_subset(&self, other: &UnionMap) -> Result<bool> {
        traced!("is_subset", [self, other], {
            let (a, b) = self.aligned_ref(other);
            for (x, y) in same_space_pairs(&a, &b) {
                match (x, y) {
                    // `x ⊆ ∅` iff `x` is empty: a part without disjuncts is
                    // no part (the emptiness test reuses what `x` keeps)
                    (Some(x), Some(y)) if y.parts.is_empty() => {
                        if !x.is_empty()? {
                            return Ok(false);
                        }
                    }
                    (Some(x), Some(y)) if !x.is_subset(y)? => {
                        return Ok(false);
                    }
                    (Some(x), None) if !x.is_empty()? => {
                        return Ok(false);
                    }
                    _ => {}
                }
            }
            Ok(true)
        })
    }

    /// Equality test, space by space: the parts of a space present on both
    /// sides must be equal, a part present on one side only must be empty.
    pub fn is_equal(&self, other: &UnionMap) -> Result<bool> {
        traced!("is_equal", [self, other], {
            let (a, b) = self.aligned_ref(other);
            for (x, y) in same_space_pairs(&a, &b) {
                let eq = match (x, y) {
                    (Some(x), Some(y)) => x.is_equal_fast(y)?,
                    (Some(m), None) | (None, Some(m)) => m.is_empty()?,
                    (None, None) => true,
                };
                if !eq {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// [`is_equal`](Self::is_equal) as two inclusion tests (its test oracle).
    #[doc(hidden)]
    pub fn is_equal_by_inclusion(&self, other: &UnionMap) -> Result<bool> {
        Ok(self.is_subset(other)? && other.is_subset(self)?)
    }

    /// One point of the union (as a union with one single-point part), or the empty union.
    pub fn sample(&self) -> Result<UnionMap> {
        traced!("sample", [self], {
            for m in self.maps.iter() {
                if let Some(p) = m.sample_point()? {
                    return Ok(UnionMap::from_map(p));
                }
            }
            Ok(UnionMap::empty(self.params.clone()))
        })
    }

    /// Lexicographic minimum per space (sets) or per domain point (relations).
    pub fn lexmin(&self) -> Result<UnionMap> {
        traced!(
            crate::trace::lexopt_name(self.is_set(), "lexmin"),
            [self],
            { self.each(Map::lexmin) }
        )
    }

    /// Lexicographic maximum per space (sets) or per domain point (relations).
    pub fn lexmax(&self) -> Result<UnionMap> {
        traced!(
            crate::trace::lexopt_name(self.is_set(), "lexmax"),
            [self],
            { self.each(Map::lexmax) }
        )
    }

    /// Coalesce each part.
    ///
    /// The answer is kept on `self` (see `union/memo.rs`): coalescing the
    /// same union again, or a copy of it, while its parts are unwritten
    /// returns the kept parts (shared), as isl, which coalesces in place,
    /// finds its union coalesced. An answer that changes no part shares
    /// `self`'s parts.
    pub fn coalesce(&self) -> Result<UnionMap> {
        traced!("coalesce", [self], {
            if let Some(u) = memo::CoalescedUnion::get(self) {
                return Ok(u);
            }
            // parts that coalescing leaves as they are (most maps of one
            // disjunct) are neither copied nor compared: when no part
            // changes, the answer is `self`'s own list
            let mut changed: Option<Vec<Map>> = None;
            for (k, x) in self.maps.iter().enumerate() {
                match x.coalesce_changed()? {
                    None => {
                        if let Some(v) = &mut changed {
                            v.push(x.clone());
                        }
                    }
                    Some(m) => {
                        let in_place = same_tuples(&x.space, &m.space)
                            && crate::map::same_params(&m.space.params, &self.params);
                        if !in_place {
                            // (not expected: coalescing keeps the space)
                            return self.coalesce_each();
                        }
                        changed
                            .get_or_insert_with(|| {
                                let mut v = Vec::with_capacity(self.maps.len());
                                v.extend_from_slice(&self.maps[..k]);
                                v
                            })
                            .push(m);
                    }
                }
            }
            Ok(match changed {
                None => memo::CoalescedUnion::set_unchanged(self),
                Some(maps) => memo::CoalescedUnion::set(self, maps),
            })
        })
    }

    /// [`coalesce`](Self::coalesce) computed, part by part, without the
    /// kept answer (its test oracle).
    #[doc(hidden)]
    pub fn coalesce_each(&self) -> Result<UnionMap> {
        self.each(Map::coalesce)
    }

    /// Gist of each part with respect to the part of `context` in the same
    /// space; as in isl, parts without a context part are left out (they do
    /// not meet the context), and a parameter domain as context simplifies
    /// every part ([`gist_params`](Self::gist_params)).
    pub fn gist(&self, context: &UnionMap) -> Result<UnionMap> {
        traced!("gist", [self, context], {
            if let Some(p) = context.as_params_domain() {
                return self.gist_params(p);
            }
            let (a, b) = self.aligned_ref(context);
            let mut u = UnionMap::empty(a.params.clone());
            for (x, y) in same_space_pairs(&a, &b) {
                if let (Some(x), Some(y)) = (x, y) {
                    u.add_map(x.gist(y)?)?;
                }
            }
            Ok(u)
        })
    }

    /// Gist of each relation with respect to the set of `context` in its
    /// domain space (isl's `gist_domain`); relations whose domain space has
    /// no set in `context` are left out, and a parameter domain as context
    /// simplifies every relation ([`gist_params`](Self::gist_params)).
    pub fn gist_domain(&self, context: &UnionMap) -> Result<UnionMap> {
        if let Some(p) = context.as_params_domain() {
            return self.gist_params(p);
        }
        self.each_with_domain_set(context, |x, y| {
            x.gist(&Map::universe(x.space.clone()).intersect_domain(y)?)
        })
    }

    /// `f(relation, set)` for every relation of `self` and set of `sets` in
    /// its domain space, united.
    fn each_with_domain_set(
        &self,
        sets: &UnionMap,
        f: impl Fn(&Map, &Map) -> Result<Map>,
    ) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(sets);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            for y in b.maps.iter() {
                if !x.is_set() && y.is_set() && Some(&y.space.range) == x.space.domain.as_ref() {
                    u.add_map(f(x, y)?)?;
                }
            }
        }
        Ok(u)
    }

    /// The relations without the pairs whose domain point is in `set`
    /// (isl's `subtract_domain`; a parameter domain is no domain here).
    pub fn subtract_domain(&self, set: &UnionMap) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(set);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            let mut rest = x.clone();
            for y in b.maps.iter() {
                if !x.is_set() && y.is_set() && Some(&y.space.range) == x.space.domain.as_ref() {
                    rest = rest.subtract(&x.intersect_domain(y)?)?;
                }
            }
            u.add_map(rest)?;
        }
        Ok(u)
    }

    /// Number of points of a bounded union without parameters.
    pub fn card(&self) -> Result<crate::Int> {
        traced!("card", [self], {
            let mut total = crate::Int::ZERO;
            for m in self.maps.iter() {
                total = &total + &m.card()?;
            }
            Ok(total)
        })
    }

    /// Inverse of every relation.
    pub fn reverse(&self) -> Result<UnionMap> {
        traced!("reverse", [self], { self.each(Map::reverse) })
    }

    /// Domains of the relations.
    pub fn domain(&self) -> Result<UnionMap> {
        traced!("domain", [self], { self.each(Map::domain) })
    }

    /// Ranges of the relations.
    pub fn range(&self) -> Result<UnionMap> {
        traced!("range", [self], { self.each(Map::range) })
    }

    /// Parameter domain of the union.
    pub fn params_set(&self) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.clone());
        u.add_map(Map::empty(crate::Space::params_only(self.params.clone())))?;
        for m in self.maps.iter() {
            u.add_map(m.params())?;
        }
        Ok(u)
    }

    /// Differences of the relations whose domain and range live in the same
    /// space (as in isl, the other relations are left out).
    pub fn deltas(&self) -> Result<UnionMap> {
        traced!("deltas", [self], {
            UnionMap::collect(
                &self.params,
                self.maps
                    .iter()
                    .filter(|m| m.space.domain.as_ref() == Some(&m.space.range))
                    .map(Map::deltas),
            )
        })
    }

    /// `{ [x -> y] -> y - x }` for every relation whose domain and range
    /// live in the same space.
    pub fn deltas_map(&self) -> Result<UnionMap> {
        UnionMap::collect(
            &self.params,
            self.maps
                .iter()
                .filter(|m| m.space.domain.as_ref() == Some(&m.space.range))
                .map(Map::deltas_map),
        )
    }

    /// Identity relations of the sets.
    pub fn identity(&self) -> Result<UnionMap> {
        self.each(Map::identity)
    }

    /// Domain maps of the relations.
    pub fn domain_map(&self) -> Result<UnionMap> {
        self.each(Map::domain_map)
    }

    /// Range maps of the relations.
    pub fn range_map(&self) -> Result<UnionMap> {
        self.each(Map::range_map)
    }

    /// Wrap every relation.
    pub fn wrap(&self) -> Result<UnionMap> {
        self.each(Map::wrap)
    }

    /// Unwrap every wrapped set.
    pub fn unwrap(&self) -> Result<UnionMap> {
        self.each(Map::unwrap)
    }

    /// Join `A . B`: apply `self`, then `other`, over all pairs of matching spaces.
    pub fn apply_range(&self, other: &UnionMap) -> Result<UnionMap> {
        traced!("compose", [self, other], {
            let (a, b) = self.aligned_ref(other);
            let mut u = UnionMap::empty(a.params.clone());
            for x in a.maps.iter() {
                for y in b.maps.iter() {
                    if !x.is_set() && !y.is_set() && Some(&x.space.range) == y.space.domain.as_ref()
                    {
                        u.add_map(x.apply_range(y)?)?;
                    }
                }
            }
            Ok(u)
        })
    }

    /// Apply the relations of `map` to the sets of `self`.
    pub fn apply(&self, map: &UnionMap) -> Result<UnionMap> {
        traced!("apply", [self, map], {
            let (a, b) = self.aligned_ref(map);
            let mut u = UnionMap::empty(a.params.clone());
            for x in a.maps.iter() {
                for y in b.maps.iter() {
                    if x.is_set() && !y.is_set() && Some(&x.space.range) == y.space.domain.as_ref()
                    {
                        u.add_map(x.apply(y)?)?;
                    }
                }
            }
            Ok(u)
        })
    }

    /// Restrict the domains of the relations to the sets of `set`; a
    /// parameter domain restricts the parameters instead (as in isl).
    pub fn intersect_domain(&self, set: &UnionMap) -> Result<UnionMap> {
        traced!("intersect_domain", [self, set], {
            if let Some(p) = set.as_params_domain() {
                return self.intersect_params(p);
            }
            self.each_with_domain_set(set, Map::intersect_domain)
        })
    }

    /// Restrict the ranges of the relations to the sets of `set`.
    pub fn intersect_range(&self, set: &UnionMap) -> Result<UnionMap> {
        traced!("intersect_range", [self, set], {
            let (a, b) = self.aligned_ref(set);
            let mut u = UnionMap::empty(a.params.clone());
            for x in a.maps.iter() {
                for y in b.maps.iter() {
                    if !x.is_set() && y.is_set() && y.space.range == x.space.range {
                        u.add_map(x.intersect_range(y)?)?;
                    }
                }
            }
            Ok(u)
        })
    }

    /// The relations without the pairs whose range point is in `set`
    /// (isl's `subtract_range`).
    pub fn subtract_range(&self, set: &UnionMap) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(set);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            let mut rest = x.clone();
            for y in b.maps.iter() {
                if !x.is_set() && y.is_set() && y.space.range == x.space.range {
                    rest = rest.subtract(&x.intersect_range(y)?)?;
                }
            }
            u.add_map(rest)?;
        }
        Ok(u)
    }

    /// Product of two union sets: `{ x -> y }` for every pair of parts.
    pub fn product_sets(&self, other: &UnionMap) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(other);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            for y in b.maps.iter() {
                u.add_map(x.product_sets(y)?)?;
            }
        }
        Ok(u)
    }

    /// Cross product of every pair of parts.
    pub fn cross(&self, other: &UnionMap) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(other);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            for y in b.maps.iter() {
                u.add_map(x.cross(y)?)?;
            }
        }
        Ok(u)
    }

    /// Lexicographic order relation between the parts of two union sets
    /// living in the same space (as in isl): `<<` (`strict`, `less`), `<<=`,
    /// `>>`, `>>=`.
    pub fn lex_order(&self, other: &UnionMap, strict: bool, less: bool) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(other);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            for y in b.maps.iter() {
                if x.is_set() && y.is_set() && x.space.tuples_match(&y.space) {
                    // each pair's product meets the order's disjuncts, one
                    // per level: charged by the size of what it builds
                    let fanout = x.space.n_out() as u64 + 1;
                    u.add_map(crate::pairwise::each_pair(x, y, fanout, |p, q| {
                        p.lex_order(q, strict, less)
                    })?)?;
                }
            }
        }
        Ok(u)
    }

    /// Lexicographic order between the images of two union maps whose
    /// ranges live in the same space (isl's `lex_lt_union_map` and
    /// friends): `{ x -> y : self(x) << other(y) }` for `strict` and `less`.
    pub fn lex_order_maps(&self, other: &UnionMap, strict: bool, less: bool) -> Result<UnionMap> {
        let (a, b) = self.aligned_ref(other);
        let mut u = UnionMap::empty(a.params.clone());
        for x in a.maps.iter() {
            for y in b.maps.iter() {
                if !x.is_set() && !y.is_set() && x.space.range == y.space.range {
                    let order = Map::universe(x.space.range_space()).lex_order(
                        &Map::universe(y.space.range_space()),
                        strict,
                        less,
                    )?;
                    // pair by pair, charged by the size of what is built
                    // (chained, `A := A >> A` squares the disjuncts)
                    let join = |p: &Map, q: &Map| p.apply_range(q);
                    let before = crate::pairwise::each_pair(x, &order, 1, join)?;
                    u.add_map(crate::pairwise::each_pair(&before, &y.reverse()?, 1, join)?)?;
                }
            }
        }
        Ok(u)
    }

    /// True if every relation maps each domain point to at most one point.
    pub fn is_single_valued(&self) -> Result<bool> {
        traced!("is_single_valued", [self], {
            for m in self.maps.iter() {
                if !m.is_single_valued()? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// True if no two domain points map to the same range point (across all parts).
    pub fn is_injective(&self) -> Result<bool> {
        traced!("is_injective", [self], {
            self.reverse()?.is_single_valued()
        })
    }

    /// Integer affine hull (equalities and congruences) of each part.
    pub fn affine_hull(&self) -> Result<UnionMap> {
        self.each(Map::affine_hull)
    }

    /// A basic set or map containing each part, inside the lattice of its
    /// integer points ([`Map::convex_hull`] says exactly what it holds).
    pub fn convex_hull(&self) -> Result<UnionMap> {
        self.each(Map::convex_hull)
    }
}

#[cfg(test)]
mod tests;
