//! [`MultiAff`]: a tuple of [`Aff`]s with a target tuple — the shape of an
//! access function or a schedule row — and composition (pullback).

use std::sync::Arc;

use crate::aff::expr::Aff;
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{merge_params, Space, Tuple, TupleKind};

/// A function from a domain tuple to a target tuple whose every output is
/// an [`Aff`] of the parameters and the domain dimensions.
///
/// Its space is a relation space `D -> T`, or a set space `T` for a function
/// of the parameters alone (isl's `{ [(n), (0)] }`); then the affs live on
/// [`Space::params_only`].
///
/// ```
/// use presburger::{Int, MultiAff};
/// let f: MultiAff = "{ S[i, j] -> A[(i + j), (2j)] }".parse().unwrap();
/// let g: MultiAff = "{ T[k] -> S[(k), (k + 1)] }".parse().unwrap();
/// let h = f.pullback(&g).unwrap();
/// assert_eq!(h.to_string(), "{ T[k] -> A[(1 + 2k), (2 + 2k)] }");
/// assert_eq!(h.eval(&[Int::from(3)]).unwrap(), vec![Int::from(7), Int::from(8)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MultiAff {
    pub(crate) space: Space,
    pub(crate) affs: Vec<Aff>,
}

/// True if a set space is a parameter domain (an anonymous zero-dimensional tuple).
pub(crate) fn is_params_domain(space: &Space) -> bool {
    space.is_set()
        && space.range.name.is_none()
        && matches!(&space.range.kind, TupleKind::Flat(d) if d.is_empty())
}

/// The space of a function from domain `dom` (a set space) to `target`: a
/// set space when `dom` is a parameter domain.
pub(crate) fn function_space(dom: &Space, target: impl Into<Arc<Tuple>>) -> Space {
    if is_params_domain(dom) {
        Space::set(dom.params.clone(), target)
    } else {
        Space::map(dom.params.clone(), dom.range.clone(), target)
    }
}

/// The domain (a set space) of a function space.
pub(crate) fn domain_of_function(space: &Space) -> Space {
    if space.is_set() {
        Space::params_only(space.params.clone())
    } else {
        space.domain_space()
    }
}

impl MultiAff {
    /// The function of `space` (`D -> T`, or `T` for a parameter domain)
    /// with the given outputs; `Err` if their number is not the dimension of
    /// `T` or an aff lives on another domain. Parameters are aligned.
    pub fn new(space: Space, affs: Vec<Aff>) -> Result<MultiAff> {
        if affs.len() != space.n_out() {
            return Err(Error::SpaceMismatch(format!(
                "multi_aff: {} outputs for a target of dimension {}",
                affs.len(),
                space.n_out()
            )));
        }
        let dom = domain_of_function(&space);
        let mut params: Vec<String> = space.params.to_vec();
        for a in &affs {
            if !a.space.tuples_match(&dom) {
                return Err(Error::SpaceMismatch(
                    "multi_aff: an output lives on another domain".into(),
                ));
            }
            params = merge_params(&params, &a.space.params);
        }
        let affs = affs
            .iter()
            .map(|a| a.align_params(&params))
            .collect::<Result<Vec<_>>>()?;
        Ok(MultiAff {
            space: space.with_params(params),
            affs,
        })
    }

    /// The one-output function `aff` (anonymous target tuple).
    pub fn from_aff(aff: Aff) -> MultiAff {
        MultiAff {
            space: function_space(&aff.space, Tuple::anonymous(1)),
            affs: vec![aff],
        }
    }

    /// The identity `T -> T` of a set space `T`.
    pub fn identity(space: &Space) -> MultiAff {
        let dom = if space.is_set() {
            space.clone()
        } else {
            space.domain_space()
        };
        let affs = (0..dom.n_out())
            .map(|k| Aff::var(&dom, k).expect("in range"))
            .collect();
        MultiAff {
            space: Space::map(dom.params.clone(), dom.range.clone(), dom.range.clone()),
            affs,
        }
    }

    /// The zero function of a function space.
    pub fn zero(space: Space) -> MultiAff {
        let dom = domain_of_function(&space);
        let affs = (0..space.n_out()).map(|_| Aff::zero(&dom)).collect();
        MultiAff { space, affs }
    }

    /// The space (`D -> T`, or `T` for a function of the parameters).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The domain as a set space.
    pub fn domain_space(&self) -> Space {
        domain_of_function(&self.space)
    }

    /// The outputs.
    pub fn affs(&self) -> &[Aff] {
        &self.affs
    }

    /// The number of outputs.
    pub fn len(&self) -> usize {
        self.affs.len()
    }

    /// True if there are no outputs.
    pub fn is_empty(&self) -> bool {
        self.affs.is_empty()
    }

    /// The same function with the target tuple `target` (same dimension);
    /// `Err` if the dimension differs.
    pub fn with_target(&self, target: Tuple) -> Result<MultiAff> {
        if target.dim() != self.affs.len() {
            return Err(Error::SpaceMismatch(
                "multi_aff: target tuple of another dimension".into(),
            ));
        }
        Ok(MultiAff {
            space: self.space.with_range(target),
            affs: self.affs.clone(),
        })
    }

    /// The outputs of `self` followed by those of `other` (same domain), with
    /// an anonymous flat target tuple (isl's flat range product: how
    /// schedule dimensions are stacked). `Err` if the domains differ.
    pub fn flat_range_product(&self, other: &MultiAff) -> Result<MultiAff> {
        let (dom_a, dom_b) = (self.domain_space(), other.domain_space());
        if !dom_a.tuples_match(&dom_b) || self.space.is_set() != other.space.is_set() {
            return Err(Error::SpaceMismatch(
                "flat_range_product: the functions have different domains".into(),
            ));
        }
        let params = merge_params(&self.space.params, &other.space.params);
        let a = self.align_params(&params)?;
        let b = other.align_params(&params)?;
        let mut affs = a.affs;
        affs.extend(b.affs);
        let dom = dom_a.with_params(params);
        Ok(MultiAff {
            space: function_space(&dom, Tuple::anonymous(affs.len())),
            affs,
        })
    }

    /// The values of all outputs at `(params, dims)` (`Err` where one is not
    /// an integer, see [`Aff::eval`]).
    pub fn eval(&self, point: &[Int]) -> Result<Vec<Int>> {
        self.affs.iter().map(|a| a.eval(point)).collect()
    }

    /// The same function over `params` (a superset of its parameters).
    pub fn align_params(&self, params: &[String]) -> Result<MultiAff> {
        if *self.space.params == *params {
            return Ok(self.clone());
        }
        Ok(MultiAff {
            space: self.space.with_params(params.to_vec()),
            affs: self
                .affs
                .iter()
                .map(|a| a.align_params(params))
                .collect::<Result<_>>()?,
        })
    }

    /// The composition `self ∘ other` (isl's pullback): `other` maps `D` to
    /// this function's domain `T`, the result maps `D` to this target.
    /// `Err` if `other`'s target is not `T`.
    pub fn pullback(&self, other: &MultiAff) -> Result<MultiAff> {
        let affs = self
            .affs
            .iter()
            .map(|a| a.pullback(other))
            .collect::<Result<Vec<_>>>()?;
        let params = merge_params(&self.space.params, &other.space.params);
        let dom = other.domain_space().with_params(params);
        Ok(MultiAff {
            space: function_space(&dom, self.space.range.clone()),
            affs,
        })
    }

    /// The graph `{ x -> f(x) }` as a basic map (a set for a function of the
    /// parameters). A rational output contributes `d·y = num(x)`, so the
    /// relation holds only where the value is an integer.
    pub fn to_basic_map(&self) -> BasicMap {
        let mut b = BasicMap::universe(self.space.clone());
        let off_out = b.off_out();
        for (k, a) in self.affs.iter().enumerate() {
            let num = embed(a, &mut b);
            let mut row: Vec<Int> = num.iter().map(|v| -v).collect();
            row[off_out + k] = a.den.clone();
            b.add_eq(row);
        }
        b
    }

    /// The graph as a [`Map`] (see [`to_basic_map`](Self::to_basic_map)).
    pub fn to_map(&self) -> Map {
        Map::from_basic(self.to_basic_map())
    }
}

impl Aff {
    /// The composition `self ∘ ma` (isl's pullback): the aff on `ma`'s domain
    /// whose value at `x` is `self(ma(x))`. `Err` if `ma`'s target is not this
    /// aff's domain tuple.
    ///
    /// ```
    /// use presburger::{Aff, MultiAff, Int};
    /// let a: Aff = "{ S[i, j] -> [(floor((i + j)/2))] }".parse().unwrap();
    /// let m: MultiAff = "{ [k] -> S[(k), (3k)] }".parse().unwrap();
    /// assert_eq!(a.pullback(&m).unwrap().to_string(), "{ [k] -> [(2k)] }");
    /// ```
    pub fn pullback(&self, ma: &MultiAff) -> Result<Aff> {
        if *self.space.range != *ma.space.range {
            return Err(Error::SpaceMismatch(
                "pullback: the function's target is not the aff's domain".into(),
            ));
        }
        let params = merge_params(&self.space.params, &ma.space.params);
        let s = self.align_params(&params)?;
        let ma = ma.align_params(&params)?;
        let dom = ma.domain_space();
        let mut vals: Vec<Aff> = (0..params.len())
            .map(|k| Aff::param(&dom, k))
            .collect::<Result<_>>()?;
        vals.extend(ma.affs.iter().cloned());
        for d in &s.divs {
            let v = lin_comb(&dom, &d.num, &vals)?.floor_div(&d.den)?;
            vals.push(v);
        }
        lin_comb(&dom, &s.num, &vals)?.scale_down(&s.den)
    }
}

/// `row[0] + Σ row[j]·vals[j - 1]`, an aff on `dom`.
pub(crate) fn lin_comb(dom: &Space, row: &[Int], vals: &[Aff]) -> Result<Aff> {
    let mut acc = Aff::constant(dom, row[0].clone());
    for (j, c) in row.iter().enumerate().skip(1) {
        if !c.is_zero() {
            acc = acc.combine(&Int::ONE, &vals[j - 1], c, "linear combination")?;
        }
    }
    Ok(acc)
}

/// Add the divisions of `a` to `b` as locals and return `a`'s numerator as a
/// row of `b` (its current length). The aff's parameters and dimensions are
/// `b`'s first columns: `b`'s parameters must be the aff's, and the aff's
/// dimensions the first dimensions of `b` (its domain, or its set tuple).
pub(crate) fn embed(a: &Aff, b: &mut BasicMap) -> Vec<Int> {
    let off = a.off_div();
    let mut cols: Vec<usize> = (0..off).collect();
    let map_row = |r: &[Int], b: &BasicMap, cols: &[usize]| {
        let mut out = vec![Int::ZERO; b.row_len()];
        for (k, v) in r.iter().enumerate() {
            if !v.is_zero() {
                out[cols[k]] = v.clone();
            }
        }
        out
    };
    for d in &a.divs {
        let num = map_row(&d.num[..cols.len()], b, &cols);
        let col = b.add_div(num, d.den.clone());
        cols.push(col);
    }
    map_row(&a.num, b, &cols)
}
