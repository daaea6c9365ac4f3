//! Piecewise functions: [`PwAff`] and [`PwMultiAff`], finite lists of
//! pieces `(domain, function)` with pairwise disjoint domains — the results
//! of lexmin/lexmax.

use crate::aff::expr::Aff;
use crate::aff::multi::{domain_of_function, MultiAff};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::{merge_params, Space, Tuple};

/// A piecewise quasi-affine function with one output: pieces `(domain, aff)`
/// with pairwise disjoint domains (sets over the aff's domain space); it is
/// undefined outside their union.
///
/// ```
/// use presburger::{Int, PwAff};
/// let a: PwAff = "{ [i] -> [(i)] : 0 <= i <= 10 }".parse().unwrap();
/// let b: PwAff = "{ [i] -> [(10 - i)] : i >= 0 }".parse().unwrap();
/// let m = a.min(&b).unwrap();
/// assert_eq!(m.eval(&[Int::from(7)]).unwrap(), Some(Int::from(3)));
/// assert_eq!(m.eval(&[Int::from(11)]).unwrap(), None);
/// ```
#[derive(Clone, Debug)]
pub struct PwAff {
    pub(crate) space: Space,
    pub(crate) pieces: Vec<(Set, Aff)>,
}

/// A piecewise function with a tuple of outputs: pieces `(domain, multi_aff)`
/// with pairwise disjoint domains. Its space is that of its [`MultiAff`]s.
///
/// ```
/// use presburger::{Int, Map, PwMultiAff};
/// let m: Map = "[n] -> { [i] -> [j] : i <= j < n }".parse().unwrap();
/// let f = m.lexmax_pw_multi_aff().unwrap();
/// assert_eq!(f.to_string(), "[n] -> { [i] -> [(-1 + n)] : i < n }");
/// assert_eq!(f.eval(&[Int::from(5), Int::from(2)]).unwrap(), Some(vec![Int::from(4)]));
/// ```
#[derive(Clone, Debug)]
pub struct PwMultiAff {
    pub(crate) space: Space,
    pub(crate) pieces: Vec<(Set, MultiAff)>,
}

/// `set` over the domain space `dom` with parameters `params`.
fn domain_set(set: &Set, dom: &Space, params: &[String], what: &str) -> Result<Set> {
    if !set.is_set() || !set.space().tuples_match(dom) {
        return Err(Error::SpaceMismatch(format!(
            "{what}: the piece's domain is not a set of the function's domain"
        )));
    }
    let mut s = set.clone();
    s.align_params(params);
    Ok(s)
}

impl PwAff {
    /// The function defined nowhere, on a domain space.
    pub fn empty(space: &Space) -> PwAff {
        let space = Aff::zero(space).space;
        PwAff {
            space,
            pieces: Vec::new(),
        }
    }

    /// `aff` on its whole domain.
    pub fn from_aff(aff: Aff) -> PwAff {
        PwAff {
            space: aff.space.clone(),
            pieces: vec![(Map::universe(aff.space.clone()), aff)],
        }
    }

    /// `aff` on `domain` (a set over the aff's domain space).
    pub fn alloc(domain: &Set, aff: Aff) -> Result<PwAff> {
        let params = merge_params(&aff.space.params, &domain.space().params);
        let aff = aff.align_params(&params)?;
        let domain = domain_set(domain, &aff.space, &params, "pw_aff")?;
        Ok(PwAff {
            space: aff.space.clone(),
            pieces: vec![(domain, aff)],
        })
    }

    /// The domain space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The pieces, with pairwise disjoint domains.
    pub fn pieces(&self) -> &[(Set, Aff)] {
        &self.pieces
    }

    /// The union of the piece domains.
    pub fn domain(&self) -> Result<Set> {
        let mut d = Map::empty(self.space.clone());
        for (s, _) in &self.pieces {
            d = d.union(s)?;
        }
        Ok(d)
    }

    /// The value at `(params, dims)`, `None` outside the domain.
    pub fn eval(&self, point: &[Int]) -> Result<Option<Int>> {
        for (s, a) in &self.pieces {
            if s.contains_point(point)? {
                return a.eval(point).map(Some);
            }
        }
        Ok(None)
    }

    /// The same function over `params` (a superset of its parameters).
    pub fn align_params(&self, params: &[String]) -> Result<PwAff> {
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for (s, a) in &self.pieces {
            let mut s = s.clone();
            s.align_params(params);
            pieces.push((s, a.align_params(params)?));
        }
        Ok(PwAff {
            space: self.space.with_params(params.to_vec()),
            pieces,
        })
    }

    fn aligned(&self, other: &PwAff, what: &str) -> Result<(PwAff, PwAff)> {
        if !self.space.tuples_match(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "{what}: the functions live on different domains"
            )));
        }
        let params = merge_params(&self.space.params, &other.space.params);
        Ok((self.align_params(&params)?, other.align_params(&params)?))
    }

    /// Apply `f` to every pair of pieces on the intersection of their
    /// domains; `f` returns the new pieces (disjoint within the intersection).
    fn pairwise(
        &self,
        other: &PwAff,
        what: &str,
        f: impl Fn(&Set, &Aff, &Aff) -> Result<Vec<(Set, Aff)>>,
    ) -> Result<PwAff> {
        let (x, y) = self.aligned(other, what)?;
        let mut pieces = Vec::new();
        for (d1, a) in &x.pieces {
            for (d2, b) in &y.pieces {
                let d = d1.intersect(d2)?;
                if d.is_empty()? {
                    continue;
                }
                for (s, c) in f(&d, a, b)? {
                    if !s.is_empty()? {
                        pieces.push((s, c));
                    }
                }
            }
        }
        Ok(PwAff {
            space: x.space,
            pieces,
        })
    }

    /// `self + other` where both are defined.
    pub fn add(&self, other: &PwAff) -> Result<PwAff> {
        self.pairwise(other, "add", |d, a, b| Ok(vec![(d.clone(), a.add(b)?)]))
    }

    /// `self - other` where both are defined.
    pub fn sub(&self, other: &PwAff) -> Result<PwAff> {
        self.pairwise(other, "sub", |d, a, b| Ok(vec![(d.clone(), a.sub(b)?)]))
    }

    /// The pointwise minimum where both are defined: each pair of pieces is
    /// split into the part where the first is `<=` the second and the rest.
    pub fn min(&self, other: &PwAff) -> Result<PwAff> {
        self.pairwise(other, "min", |d, a, b| {
            Ok(vec![
                (d.intersect(&a.le_set(b)?)?, a.clone()),
                (d.intersect(&a.gt_set(b)?)?, b.clone()),
            ])
        })
    }

    /// The pointwise maximum where both are defined (see [`min`](Self::min)).
    pub fn max(&self, other: &PwAff) -> Result<PwAff> {
        self.pairwise(other, "max", |d, a, b| {
            Ok(vec![
                (d.intersect(&a.ge_set(b)?)?, a.clone()),
                (d.intersect(&a.lt_set(b)?)?, b.clone()),
            ])
        })
    }

    fn compare(
        &self,
        other: &PwAff,
        what: &str,
        f: impl Fn(&Aff, &Aff) -> Result<Set>,
    ) -> Result<Set> {
        let pw = self.pairwise(other, what, |d, a, b| {
            Ok(vec![(d.intersect(&f(a, b)?)?, a.clone())])
        })?;
        pw.domain()
    }

    /// The points of both domains where `self <= other`.
    pub fn le_set(&self, other: &PwAff) -> Result<Set> {
        self.compare(other, "le_set", Aff::le_set)
    }
    /// The points of both domains where `self < other`.
    pub fn lt_set(&self, other: &PwAff) -> Result<Set> {
        self.compare(other, "lt_set", Aff::lt_set)
    }
    /// The points of both domains where `self >= other`.
    pub fn ge_set(&self, other: &PwAff) -> Result<Set> {
        self.compare(other, "ge_set", Aff::ge_set)
    }
    /// The points of both domains where `self > other`.
    pub fn gt_set(&self, other: &PwAff) -> Result<Set> {
        self.compare(other, "gt_set", Aff::gt_set)
    }
    /// The points of both domains where `self = other`.
    pub fn eq_set(&self, other: &PwAff) -> Result<Set> {
        self.compare(other, "eq_set", Aff::eq_set)
    }

    /// The function restricted to `set`.
    pub fn intersect_domain(&self, set: &Set) -> Result<PwAff> {
        let params = merge_params(&self.space.params, &set.space().params);
        let me = self.align_params(&params)?;
        let set = domain_set(set, &me.space, &params, "intersect_domain")?;
        let mut pieces = Vec::new();
        for (d, a) in me.pieces {
            let d = d.intersect(&set)?;
            if !d.is_empty()? {
                pieces.push((d, a));
            }
        }
        Ok(PwAff {
            space: me.space,
            pieces,
        })
    }

    /// As a one-output [`PwMultiAff`] (anonymous target tuple).
    pub fn to_pw_multi_aff(&self) -> PwMultiAff {
        let space = crate::aff::multi::function_space(&self.space, Tuple::anonymous(1));
        PwMultiAff {
            space,
            pieces: self
                .pieces
                .iter()
                .map(|(s, a)| (s.clone(), MultiAff::from_aff(a.clone())))
                .collect(),
        }
    }

    /// The graph `{ x -> [f(x)] }`.
    pub fn to_map(&self) -> Result<Map> {
        self.to_pw_multi_aff().to_map()
    }
}

impl PwMultiAff {
    /// The function defined nowhere, of a function space (`D -> T`, or `T`
    /// for a function of the parameters).
    pub fn empty(space: Space) -> PwMultiAff {
        PwMultiAff {
            space,
            pieces: Vec::new(),
        }
    }

    /// `ma` on its whole domain.
    pub fn from_multi_aff(ma: MultiAff) -> PwMultiAff {
        PwMultiAff {
            space: ma.space.clone(),
            pieces: vec![(Map::universe(ma.domain_space()), ma)],
        }
    }

    /// `ma` on `domain` (a set over its domain space).
    pub fn alloc(domain: &Set, ma: MultiAff) -> Result<PwMultiAff> {
        let params = merge_params(&ma.space.params, &domain.space().params);
        let ma = ma.align_params(&params)?;
        let domain = domain_set(domain, &ma.domain_space(), &params, "pw_multi_aff")?;
        Ok(PwMultiAff {
            space: ma.space.clone(),
            pieces: vec![(domain, ma)],
        })
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The domain as a set space.
    pub fn domain_space(&self) -> Space {
        domain_of_function(&self.space)
    }

    /// The pieces, with pairwise disjoint domains.
    pub fn pieces(&self) -> &[(Set, MultiAff)] {
        &self.pieces
    }

    /// The union of the piece domains.
    pub fn domain(&self) -> Result<Set> {
        let mut d = Map::empty(self.domain_space());
        for (s, _) in &self.pieces {
            d = d.union(s)?;
        }
        Ok(d)
    }

    /// The values at `(params, dims)`, `None` outside the domain.
    pub fn eval(&self, point: &[Int]) -> Result<Option<Vec<Int>>> {
        for (s, m) in &self.pieces {
            if s.contains_point(point)? {
                return m.eval(point).map(Some);
            }
        }
        Ok(None)
    }

    /// Output `k` as a [`PwAff`].
    pub fn pw_aff(&self, k: usize) -> Result<PwAff> {
        if k >= self.space.n_out() {
            return Err(Error::Invalid(format!(
                "pw_multi_aff: no output at position {k}"
            )));
        }
        Ok(PwAff {
            space: self.domain_space(),
            pieces: self
                .pieces
                .iter()
                .map(|(s, m)| (s.clone(), m.affs[k].clone()))
                .collect(),
        })
    }

    /// The same function over `params` (a superset of its parameters).
    pub fn align_params(&self, params: &[String]) -> Result<PwMultiAff> {
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for (s, m) in &self.pieces {
            let mut s = s.clone();
            s.align_params(params);
            pieces.push((s, m.align_params(params)?));
        }
        Ok(PwMultiAff {
            space: self.space.with_params(params.to_vec()),
            pieces,
        })
    }

    /// The function restricted to `set`.
    pub fn intersect_domain(&self, set: &Set) -> Result<PwMultiAff> {
        let params = merge_params(&self.space.params, &set.space().params);
        let me = self.align_params(&params)?;
        let set = domain_set(set, &me.domain_space(), &params, "intersect_domain")?;
        let mut pieces = Vec::new();
        for (d, m) in me.pieces {
            let d = d.intersect(&set)?;
            if !d.is_empty()? {
                pieces.push((d, m));
            }
        }
        Ok(PwMultiAff {
            space: me.space,
            pieces,
        })
    }

    /// The union of two functions whose domains are disjoint; `Err` if the
    /// spaces differ or the domains meet (decided exactly).
    pub fn union_disjoint(&self, other: &PwMultiAff) -> Result<PwMultiAff> {
        if !self.space.tuples_match(&other.space) {
            return Err(Error::SpaceMismatch(
                "union_disjoint: the functions live in different spaces".into(),
            ));
        }
        let params = merge_params(&self.space.params, &other.space.params);
        let x = self.align_params(&params)?;
        let y = other.align_params(&params)?;
        if !x.domain()?.intersect(&y.domain()?)?.is_empty()? {
            return Err(Error::Invalid(
                "union_disjoint: the domains of the functions meet".into(),
            ));
        }
        let mut pieces = x.pieces;
        pieces.extend(y.pieces);
        Ok(PwMultiAff {
            space: x.space,
            pieces,
        })
    }

    /// The graph: the union over the pieces of `{ x -> f(x) : x in domain }`.
    pub fn to_map(&self) -> Result<Map> {
        let mut out = Map::empty(self.space.clone());
        for (d, m) in &self.pieces {
            let g = m.to_map();
            let g = if self.space.is_set() {
                g.intersect_params(d)?
            } else {
                g.intersect_domain(d)?
            };
            out = out.union(&g)?;
        }
        Ok(out)
    }
}

impl From<Aff> for PwAff {
    fn from(a: Aff) -> PwAff {
        PwAff::from_aff(a)
    }
}

impl From<MultiAff> for PwMultiAff {
    fn from(m: MultiAff) -> PwMultiAff {
        PwMultiAff::from_multi_aff(m)
    }
}

impl From<Aff> for MultiAff {
    fn from(a: Aff) -> MultiAff {
        MultiAff::from_aff(a)
    }
}

impl From<PwAff> for PwMultiAff {
    fn from(a: PwAff) -> PwMultiAff {
        a.to_pw_multi_aff()
    }
}

impl Aff {
    /// The graph `{ x -> [f(x)] }` (see [`MultiAff::to_map`]).
    pub fn to_map(&self) -> Map {
        MultiAff::from_aff(self.clone()).to_map()
    }
}
