//! Constraints over named dimensions: [`Builder`] and [`Constraint`].
//!
//! Instead of writing rows `[constant | params | in | out | locals]`, name
//! the dimensions of a space and combine them as [`Aff`]s; the builder turns
//! comparisons into constraints and constraints into basic maps.

use crate::aff::expr::Aff;
use crate::aff::multi::embed;
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{merge_params, Space};

/// The kind of a [`Constraint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// `aff = 0`
    Equality,
    /// `aff >= 0`
    Inequality,
}

/// An affine constraint `aff = 0` or `aff >= 0` over the dimensions of a
/// space (the aff lives on the space's [wrapped](Space::wrap) set space, or
/// on the set space itself).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    aff: Aff,
    kind: ConstraintKind,
}

impl Constraint {
    /// `aff = 0` or `aff >= 0`.
    pub fn new(aff: Aff, kind: ConstraintKind) -> Constraint {
        Constraint { aff, kind }
    }
    /// The constrained expression.
    pub fn aff(&self) -> &Aff {
        &self.aff
    }
    /// Equality or inequality.
    pub fn kind(&self) -> ConstraintKind {
        self.kind
    }
}

/// Names the parameters and dimensions of a space (a set or a relation) as
/// [`Aff`]s and builds constraints and basic maps from them, instead of
/// rows `[constant | params | in | out | locals]`.
///
/// ```
/// use presburger::{BasicMap, Builder, Int, Map, Space, Tuple};
/// let space = Space::map(
///     vec!["n".to_string()],
///     Tuple::named("S", &["i"]),
///     Tuple::named("A", &["a"]),
/// );
/// let b = Builder::new(&space);
/// let (i, a, n) = (b.var("i")?, b.var("a")?, b.param("n")?);
/// let c1 = b.ge(&i, &b.constant(0))?; // i >= 0
/// let c2 = b.lt(&i, &n)?; // i < n
/// let c3 = b.eq(&a, &i.scale(&Int::from(2)).add_constant(&Int::from(1)))?; // a = 2i + 1
/// let m = b.basic_map([c1, c2, c3])?;
/// let expect: Map = "[n] -> { S[i] -> A[2i + 1] : 0 <= i < n }".parse()?;
/// assert!(Map::from_basic(m).is_equal(&expect)?);
/// // a floor division becomes a local of the basic map
/// let even = b.eq(&i, &i.floor_div(&Int::from(2))?.scale(&Int::from(2)))?;
/// let m2 = BasicMap::universe(space.clone()).with(&even)?;
/// assert_eq!(m2.n_div(), 1);
/// assert!(b.var("k").is_err());
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    space: Space,
    vars: Space,
}

/// The set space whose dimensions are all dimensions of `space`.
fn var_space(space: &Space) -> Space {
    if space.is_set() {
        space.clone()
    } else {
        space.wrap()
    }
}

impl Builder {
    /// A builder for constraints over `space`.
    pub fn new(space: &Space) -> Builder {
        Builder {
            space: space.clone(),
            vars: var_space(space),
        }
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The parameter called `name`; `Err` if there is none.
    pub fn param(&self, name: &str) -> Result<Aff> {
        Aff::param_named(&self.vars, name)
    }

    /// The dimension (input or output) called `name`; `Err` if there is
    /// none or the name is not unique.
    pub fn var(&self, name: &str) -> Result<Aff> {
        Aff::var_named(&self.vars, name)
    }

    /// The input (domain) dimension at `pos`; `Err` for a set or out of range.
    pub fn in_dim(&self, pos: usize) -> Result<Aff> {
        if pos >= self.space.n_in() {
            return Err(Error::Invalid(format!(
                "builder: no input dimension at position {pos}"
            )));
        }
        Aff::var(&self.vars, pos)
    }

    /// The output (range, or set) dimension at `pos`; `Err` if out of range.
    pub fn out_dim(&self, pos: usize) -> Result<Aff> {
        if pos >= self.space.n_out() {
            return Err(Error::Invalid(format!(
                "builder: no output dimension at position {pos}"
            )));
        }
        Aff::var(&self.vars, self.space.n_in() + pos)
    }

    /// A constant.
    pub fn constant(&self, v: impl Into<Int>) -> Aff {
        Aff::constant(&self.vars, v)
    }

    fn diff(&self, a: &Aff, b: &Aff, kind: ConstraintKind) -> Result<Constraint> {
        if !a.space.tuples_match(&self.vars) {
            return Err(Error::SpaceMismatch(
                "builder: the expression is not over this builder's space".into(),
            ));
        }
        Ok(Constraint {
            aff: a.sub(b)?,
            kind,
        })
    }

    /// `a >= b`.
    pub fn ge(&self, a: &Aff, b: &Aff) -> Result<Constraint> {
        self.diff(a, b, ConstraintKind::Inequality)
    }
    /// `a <= b`.
    pub fn le(&self, a: &Aff, b: &Aff) -> Result<Constraint> {
        self.diff(b, a, ConstraintKind::Inequality)
    }
    /// `a > b` (that is `a >= b + 1` on integers; exact for rational affs too).
    pub fn gt(&self, a: &Aff, b: &Aff) -> Result<Constraint> {
        let c = self.diff(a, b, ConstraintKind::Inequality)?;
        // num/den > 0  <=>  num - 1 >= 0
        let mut aff = c.aff;
        aff.num[0] = &aff.num[0] - &Int::ONE;
        Ok(Constraint {
            aff: aff.normalized(),
            kind: c.kind,
        })
    }
    /// `a < b`.
    pub fn lt(&self, a: &Aff, b: &Aff) -> Result<Constraint> {
        self.gt(b, a)
    }
    /// `a = b`.
    pub fn eq(&self, a: &Aff, b: &Aff) -> Result<Constraint> {
        self.diff(a, b, ConstraintKind::Equality)
    }

    /// The basic map (or set) of the space satisfying all constraints.
    pub fn basic_map(&self, cons: impl IntoIterator<Item = Constraint>) -> Result<BasicMap> {
        let mut b = BasicMap::universe(self.space.clone());
        for c in cons {
            b = b.with(&c)?;
        }
        Ok(b)
    }

    /// The same as [`basic_map`](Self::basic_map), for a set space.
    pub fn basic_set(&self, cons: impl IntoIterator<Item = Constraint>) -> Result<BasicMap> {
        self.basic_map(cons)
    }

    /// The map (or set) of the space satisfying all constraints.
    pub fn map(&self, cons: impl IntoIterator<Item = Constraint>) -> Result<Map> {
        Ok(Map::from_basic(self.basic_map(cons)?))
    }
}

impl BasicMap {
    /// This basic map with one more constraint (built with a [`Builder`] of
    /// its space); the constraint's divisions become new locals. `Err` if the
    /// constraint is over another space.
    pub fn with(mut self, c: &Constraint) -> Result<BasicMap> {
        if !c.aff.space.tuples_match(&var_space(&self.space)) {
            return Err(Error::SpaceMismatch(
                "with: the constraint is over another space".into(),
            ));
        }
        let params = merge_params(&self.space.params, &c.aff.space.params);
        self.align_params(&params);
        let aff = c.aff.align_params(&params)?;
        let row = embed(&aff, &mut self);
        match c.kind {
            ConstraintKind::Equality => self.add_eq(row),
            ConstraintKind::Inequality => self.add_ineq(row),
        }
        Ok(self)
    }
}
