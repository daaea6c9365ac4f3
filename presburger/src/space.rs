//! Spaces: the named parameters and the (possibly nested) tuples of a set or relation.
//!
//! A set lives in a space `[params] -> { name[dims] }`, a relation in
//! `[params] -> { dom[dims] -> ran[dims] }`. A tuple is either flat (a list of
//! dimensions) or the wrapping of a relation (`[S[i] -> R[]]`). Dimension
//! names are kept only as printing hints: two tuples are equal when their
//! names, arities and nesting agree.
//!
//! ## Sharing
//! Every [`BasicMap`](crate::BasicMap) carries its space, and basic maps are
//! copied all the time, so a space is cheap to copy: the parameter list is an
//! `Arc<[String]>` and the tuples are `Arc<Tuple>` (the two halves of a
//! wrapped tuple too), and the three are kept behind one more reference
//! count ([`SpaceParts`], read through `Deref`): cloning a [`Space`] bumps
//! one reference count and never allocates. Spaces are immutable values: to
//! change a part, build a new space ([`Space::with_params`],
//! [`Space::with_range`], [`Space::set`], ...) that shares the unchanged parts.
//! The constructors take anything that converts into the shared form
//! (`Vec<String>`, `&[String]` or an `Arc<[String]>` for the parameters, a
//! [`Tuple`] or an `Arc<Tuple>` for a tuple). Sharing is invisible to
//! equality, hashing and ordering, which compare values (two handles to the
//! same allocation are recognised as equal without looking inside).
//!
//! ```
//! use presburger::{Space, Tuple};
//! let s = Space::set(vec!["n".into()], Tuple::named("S", &["i", "j"]));
//! assert_eq!(s.n_param(), 1);
//! assert_eq!(s.n_out(), 2);
//! assert!(s.is_set());
//! let r = s.reverse().reverse();
//! assert!(std::sync::Arc::ptr_eq(&r.params, &s.params));
//! assert_eq!(r.domain.as_deref(), Some(&Tuple::anonymous(0)));
//! ```

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A tuple of dimensions: flat, or a wrapped relation.
#[derive(Clone, Debug)]
pub struct Tuple {
    /// The tuple's name (`S1` in `S1[i, j]`), if any.
    pub name: Option<String>,
    /// Flat dimensions or a wrapped relation.
    pub kind: TupleKind,
    /// True only for the tuple of a parameter space ([`Tuple::params`]):
    /// isl keeps `[n] -> { : n > 0 }` (a parameter domain) apart from the
    /// zero-dimensional set `[n] -> { [] : n > 0 }`, and so do we.
    params: bool,
}

/// The shape of a [`Tuple`].
#[derive(Clone, Debug)]
pub enum TupleKind {
    /// A flat list of dimensions; the strings are printing hints (may be empty).
    Flat(Vec<String>),
    /// A wrapped relation `[A -> B]` (the halves are shared, see the
    /// [module documentation](self)).
    Nested(Arc<Tuple>, Arc<Tuple>),
}

impl Tuple {
    /// An anonymous flat tuple with `n` dimensions and no dimension names.
    pub fn anonymous(n: usize) -> Tuple {
        Tuple {
            name: None,
            kind: TupleKind::Flat(vec![String::new(); n]),
            params: false,
        }
    }

    /// A named flat tuple with the given dimension names.
    pub fn named(name: &str, dims: &[&str]) -> Tuple {
        Tuple {
            name: Some(name.to_string()),
            kind: TupleKind::Flat(dims.iter().map(|s| s.to_string()).collect()),
            params: false,
        }
    }

    /// A flat tuple with an optional name and dimension names.
    pub fn flat(name: Option<String>, dims: Vec<String>) -> Tuple {
        Tuple {
            name,
            kind: TupleKind::Flat(dims),
            params: false,
        }
    }

    /// The wrapped relation `[dom -> ran]`.
    pub fn nested(
        name: Option<String>,
        dom: impl Into<Arc<Tuple>>,
        ran: impl Into<Arc<Tuple>>,
    ) -> Tuple {
        Tuple {
            name,
            kind: TupleKind::Nested(plain(dom.into()), plain(ran.into())),
            params: false,
        }
    }

    /// The (empty, anonymous) tuple of a parameter space `[n] -> { : ... }`.
    /// It has no dimensions, like the zero-dimensional set tuple `[]`, but
    /// is a different tuple (as in isl): `{ : }` and `{ [] }` are different
    /// spaces.
    pub fn params() -> Tuple {
        Tuple {
            name: None,
            kind: TupleKind::Flat(Vec::new()),
            params: true,
        }
    }

    /// True for the tuple of a parameter space ([`Tuple::params`]).
    pub fn is_params(&self) -> bool {
        self.params
    }

    /// Total number of dimensions.
    #[inline]
    pub fn dim(&self) -> usize {
        // the flat case is inlined into the row-length computations that
        // call this all the time; the recursion stays out of line
        match &self.kind {
            TupleKind::Flat(d) => d.len(),
            TupleKind::Nested(a, b) => nested_dim(a, b),
        }
    }

    /// The names of all dimensions, flattened (empty strings for unnamed ones).
    pub fn dim_names(&self) -> Vec<String> {
        match &self.kind {
            TupleKind::Flat(d) => d.clone(),
            TupleKind::Nested(a, b) => {
                let mut v = a.dim_names();
                v.extend(b.dim_names());
                v
            }
        }
    }

    /// True if this is a wrapped relation.
    pub fn is_nested(&self) -> bool {
        matches!(self.kind, TupleKind::Nested(..))
    }

    /// The same tuple with all dimension names cleared.
    pub fn without_dim_names(&self) -> Tuple {
        match &self.kind {
            TupleKind::Flat(d) => Tuple {
                name: self.name.clone(),
                kind: TupleKind::Flat(vec![String::new(); d.len()]),
                params: self.params,
            },
            TupleKind::Nested(a, b) => Tuple::nested(
                self.name.clone(),
                a.without_dim_names(),
                b.without_dim_names(),
            ),
        }
    }
}

/// [`Tuple::dim`] of a wrapped relation.
#[inline(never)]
fn nested_dim(a: &Tuple, b: &Tuple) -> usize {
    a.dim() + b.dim()
}

/// Spaces are equal when their parameter names and tuples are. Operands
/// usually share one parameter list, so the lists are compared by pointer
/// first ([`same_params`](crate::map::same_params); the tuples' `Arc`s have
/// that shortcut of their own).
impl PartialEq for SpaceParts {
    fn eq(&self, other: &SpaceParts) -> bool {
        crate::map::same_params(&self.params, &other.params)
            && self.domain == other.domain
            && self.range == other.range
    }
}
impl Eq for SpaceParts {}

impl PartialEq for Space {
    fn eq(&self, other: &Space) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.parts == other.0.parts
    }
}
impl Eq for Space {}

impl PartialEq for Tuple {
    fn eq(&self, other: &Tuple) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Tuple {}

impl Hash for Tuple {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.params.hash(state);
        match &self.kind {
            TupleKind::Flat(d) => {
                0u8.hash(state);
                d.len().hash(state);
            }
            TupleKind::Nested(a, b) => {
                1u8.hash(state);
                a.hash(state);
                b.hash(state);
            }
        }
    }
}

impl PartialOrd for Tuple {
    fn partial_cmp(&self, other: &Tuple) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Tuple {
    /// Orders by name, then shape; dimension names are ignored.
    fn cmp(&self, other: &Tuple) -> Ordering {
        if std::ptr::eq(self, other) {
            return Ordering::Equal;
        }
        self.name
            .cmp(&other.name)
            .then_with(|| match (&self.kind, &other.kind) {
                (TupleKind::Flat(a), TupleKind::Flat(b)) => a
                    .len()
                    .cmp(&b.len())
                    .then_with(|| other.params.cmp(&self.params)),
                (TupleKind::Flat(_), TupleKind::Nested(..)) => Ordering::Less,
                (TupleKind::Nested(..), TupleKind::Flat(_)) => Ordering::Greater,
                (TupleKind::Nested(a1, b1), TupleKind::Nested(a2, b2)) => {
                    a1.cmp(a2).then_with(|| b1.cmp(b2))
                }
            })
    }
}

/// The space of a set (one tuple) or relation (two tuples), with parameters.
///
/// Variables of a constraint row are laid out as
/// `[constant | params | domain dims | range dims | locals]`; a set has no
/// domain dims (its tuple is the "range" tuple).
///
/// The parts are shared (see the [module documentation](self)): cloning a
/// space does not allocate; it is one atomic increment, the three parts
/// being kept behind one reference count ([`SpaceParts`], reached through
/// `Deref`; a write through `DerefMut` copies a shared space first), and
/// two copies of one space are equal at once.
///
/// Beside the parts, the shared allocation keeps the set spaces derived
/// from a relation space ([`Space::domain_space`], [`Space::range_space`])
/// once built ([`Derived`]): the projections build their answer's space
/// from the operand's, and a space is immutable while shared (a write
/// through `DerefMut` forgets them), so the same derived space is handed
/// out again instead of a new allocation per call.
#[derive(Clone)]
pub struct Space(Arc<Inner>);

/// What a [`Space`] shares: its parts and the spaces derived from them.
struct Inner {
    parts: SpaceParts,
    derived: Derived,
}

impl Clone for Inner {
    /// A copy is about to be written (`Arc::make_mut`): it derives nothing yet.
    fn clone(&self) -> Inner {
        Inner {
            parts: self.parts.clone(),
            derived: Derived::default(),
        }
    }
}

/// The set spaces derived from a relation space, built on first use.
/// Only a relation space keeps them (a set space is its own range space,
/// and its domain space is not kept), so a kept space keeps none itself:
/// no chain of spaces grows behind one.
///
/// The space without some range dimensions ([`Space::without_range_dims`])
/// is kept too, for the last `(first, n)` asked (each kept space has fewer
/// dimensions than the one keeping it: a chain behind one space is no
/// longer than its dimensions).
#[derive(Default)]
struct Derived {
    domain: std::sync::OnceLock<Space>,
    range: std::sync::OnceLock<Space>,
    without: std::sync::Mutex<Option<(usize, usize, Space)>>,
}

/// The parts of a [`Space`], read (and written) through it: `space.params`,
/// `space.domain`, `space.range`.
#[derive(Clone, Debug, Hash, PartialOrd, Ord)]
pub struct SpaceParts {
    /// Parameter names, in order.
    pub params: Arc<[String]>,
    /// The domain tuple of a relation (`None` for a set).
    pub domain: Option<Arc<Tuple>>,
    /// The tuple of a set, or the range tuple of a relation.
    pub range: Arc<Tuple>,
}

impl std::ops::Deref for Space {
    type Target = SpaceParts;
    #[inline]
    fn deref(&self) -> &SpaceParts {
        &self.0.parts
    }
}

impl std::ops::DerefMut for Space {
    /// The parts to write: copied first if shared; the derived spaces
    /// (built from the parts before the write) are forgotten.
    #[inline]
    fn deref_mut(&mut self) -> &mut SpaceParts {
        let inner = Arc::make_mut(&mut self.0);
        inner.derived = Derived::default();
        &mut inner.parts
    }
}

impl std::fmt::Debug for Space {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Space")
            .field("params", &self.params)
            .field("domain", &self.domain)
            .field("range", &self.range)
            .finish()
    }
}

impl Hash for Space {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.parts.hash(state)
    }
}

impl PartialOrd for Space {
    fn partial_cmp(&self, other: &Space) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Space {
    fn cmp(&self, other: &Space) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        self.0.parts.cmp(&other.0.parts)
    }
}

/// The zero-dimensional anonymous tuple, shared.
fn anonymous0() -> Arc<Tuple> {
    static EMPTY: std::sync::OnceLock<Arc<Tuple>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| Arc::new(Tuple::anonymous(0))).clone()
}

/// `t`, or the zero-dimensional set tuple `[]` for the tuple of a
/// parameter space: only a set space's tuple can be a parameter tuple, a
/// relation or wrapped relation made from a parameter space has `[]`.
fn plain(t: Arc<Tuple>) -> Arc<Tuple> {
    if t.params {
        anonymous0()
    } else {
        t
    }
}

/// The tuple of a parameter space, shared.
fn params0() -> Arc<Tuple> {
    static PARAMS: std::sync::OnceLock<Arc<Tuple>> = std::sync::OnceLock::new();
    PARAMS.get_or_init(|| Arc::new(Tuple::params())).clone()
}

impl Space {
    /// The space of these parts.
    #[inline]
    fn of(parts: SpaceParts) -> Space {
        Space(Arc::new(Inner {
            parts,
            derived: Derived::default(),
        }))
    }

    /// The space of a set.
    pub fn set(params: impl Into<Arc<[String]>>, tuple: impl Into<Arc<Tuple>>) -> Space {
        Space::of(SpaceParts {
            params: params.into(),
            domain: None,
            range: tuple.into(),
        })
    }

    /// The space of a relation.
    pub fn map(
        params: impl Into<Arc<[String]>>,
        domain: impl Into<Arc<Tuple>>,
        range: impl Into<Arc<Tuple>>,
    ) -> Space {
        Space::of(SpaceParts {
            params: params.into(),
            domain: Some(plain(domain.into())),
            range: plain(range.into()),
        })
    }

    /// The space of a parameter domain (`[n] -> { : }`): a set space whose
    /// tuple is [`Tuple::params`], different from the zero-dimensional set
    /// space `[n] -> { [] }`.
    pub fn params_only(params: impl Into<Arc<[String]>>) -> Space {
        Space::set(params, params0())
    }

    /// True for a parameter space (see [`Space::params_only`]).
    pub fn is_params(&self) -> bool {
        self.domain.is_none() && self.range.params
    }

    /// True for a set space.
    pub fn is_set(&self) -> bool {
        self.domain.is_none()
    }

    /// Number of parameters.
    pub fn n_param(&self) -> usize {
        self.params.len()
    }

    /// Number of domain (input) dimensions; 0 for sets.
    pub fn n_in(&self) -> usize {
        self.domain.as_ref().map_or(0, |t| t.dim())
    }

    /// Number of range (output, or set) dimensions.
    pub fn n_out(&self) -> usize {
        self.range.dim()
    }

    /// Number of variables (parameters and dimensions) without locals.
    pub fn n_vars(&self) -> usize {
        self.n_param() + self.n_in() + self.n_out()
    }

    /// The domain tuple of a relation, or the zero-dimensional anonymous
    /// tuple for a set (shared, no copy).
    pub fn domain_tuple(&self) -> Arc<Tuple> {
        self.domain.clone().unwrap_or_else(anonymous0)
    }

    /// The domain of a relation as a set space (a set space is its own domain
    /// only in the sense of `params`; use on relations).
    ///
    /// Built once per relation space (see [`Space`]): later calls return
    /// the same space.
    pub fn domain_space(&self) -> Space {
        if self.is_set() {
            return Space::set(self.params.clone(), self.domain_tuple());
        }
        self.0
            .derived
            .domain
            .get_or_init(|| Space::set(self.params.clone(), self.domain_tuple()))
            .clone()
    }

    /// The range of a relation (or the tuple of a set) as a set space: a
    /// set space itself. Built once per relation space (see [`Space`]).
    pub fn range_space(&self) -> Space {
        if self.is_set() {
            // (the parts `Space::set(params, range)` would have)
            return self.clone();
        }
        self.0
            .derived
            .range
            .get_or_init(|| Space::set(self.params.clone(), self.range.clone()))
            .clone()
    }

    /// The same space without the `n` range (set) dimensions from `first`
    /// on (the range tuple flat, with its name and the other dimensions'
    /// names): the space of [`Map::project_out`](crate::Map::project_out).
    /// The last one asked is kept on the space (see [`Space`]).
    pub(crate) fn without_range_dims(&self, first: usize, n: usize) -> Space {
        let build = || {
            let range = &self.range;
            let kept: Vec<String> = range
                .dim_names()
                .into_iter()
                .enumerate()
                .filter(|(k, _)| *k < first || *k >= first + n)
                .map(|(_, s)| s)
                .collect();
            self.with_range(Tuple::flat(range.name.clone(), kept))
        };
        if n == 0 {
            return build();
        }
        let Ok(mut kept) = self.0.derived.without.lock() else {
            return build();
        };
        match &*kept {
            Some((f, m, s)) if (*f, *m) == (first, n) => s.clone(),
            _ => {
                let s = build();
                *kept = Some((first, n, s.clone()));
                s
            }
        }
    }

    /// The reversed relation space.
    pub fn reverse(&self) -> Space {
        Space::map(self.params.clone(), self.range.clone(), self.domain_tuple())
    }

    /// The parameter space (`[params] -> { : }`).
    pub fn params_space(&self) -> Space {
        Space::params_only(self.params.clone())
    }

    /// Wrap a relation space into a set space `{ [A -> B] }`.
    pub fn wrap(&self) -> Space {
        Space::set(
            self.params.clone(),
            Tuple::nested(None, self.domain_tuple(), self.range.clone()),
        )
    }

    /// Unwrap a set space `{ [A -> B] }` into a relation space, if it is nested.
    pub fn unwrap(&self) -> Option<Space> {
        match (&self.domain, &self.range.kind) {
            (None, TupleKind::Nested(a, b)) => {
                Some(Space::map(self.params.clone(), a.clone(), b.clone()))
            }
            _ => None,
        }
    }

    /// True if both spaces have the same tuples, whatever their parameters.
    pub fn tuples_match(&self, other: &Space) -> bool {
        self.domain == other.domain && self.range == other.range
    }

    /// The same space with a different parameter list.
    pub fn with_params(&self, params: impl Into<Arc<[String]>>) -> Space {
        Space::of(SpaceParts {
            params: params.into(),
            domain: self.domain.clone(),
            range: self.range.clone(),
        })
    }

    /// The same space with a different range tuple (the tuple of a set).
    pub fn with_range(&self, range: impl Into<Arc<Tuple>>) -> Space {
        let range = range.into();
        Space::of(SpaceParts {
            params: self.params.clone(),
            range: if self.domain.is_some() {
                plain(range)
            } else {
                range
            },
            domain: self.domain.clone(),
        })
    }

    /// Names to print for the dimensions `[domain dims | range dims]`, filling
    /// in fresh unique names where the tuple has none or where names clash
    /// with parameters or with each other.
    pub fn print_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::with_capacity(self.n_in() + self.n_out());
        if let Some(d) = &self.domain {
            names.extend(d.dim_names());
        }
        names.extend(self.range.dim_names());
        let mut used: std::collections::HashSet<String> = self.params.iter().cloned().collect();
        let n_in = self.n_in();
        for k in 0..names.len() {
            let bad = names[k].is_empty() || used.contains(&names[k]);
            if bad {
                let base = if self.domain.is_some() && k >= n_in {
                    format!("o{}", k - n_in)
                } else {
                    format!("i{}", k)
                };
                let mut cand = base.clone();
                let mut t = 0;
                while used.contains(&cand) || names[k + 1..].contains(&cand) {
                    t += 1;
                    cand = format!("{base}_{t}");
                }
                names[k] = cand;
            }
            used.insert(names[k].clone());
        }
        names
    }
}

/// Merge two parameter lists: the first in order, then the new names of the second.
pub fn merge_params(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    for p in b {
        if !out.contains(p) {
            out.push(p.clone());
        }
    }
    out
}

/// [`merge_params`] as a shared list: `a` itself (no copy) when `b` adds no name.
pub(crate) fn merge_params_shared(a: &Arc<[String]>, b: &[String]) -> Arc<[String]> {
    if b.iter().all(|p| a.contains(p)) {
        a.clone()
    } else {
        merge_params(a, b).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of(s: &Space) -> u64 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    }

    #[test]
    fn clones_share_and_compare_by_value() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Space>();
        let s = Space::map(
            vec!["n".to_string()],
            Tuple::named("S", &["i"]),
            Tuple::nested(None, Tuple::named("A", &["a"]), Tuple::anonymous(1)),
        );
        let c = s.clone();
        assert!(Arc::ptr_eq(&s.params, &c.params));
        assert!(Arc::ptr_eq(&s.range, &c.range));
        // built separately, with other dimension names: equal all the same
        let t = Space::map(
            &["n".to_string()][..],
            Tuple::named("S", &["x"]),
            Tuple::nested(None, Tuple::named("A", &["b"]), Tuple::anonymous(1)),
        );
        assert_eq!(s, t);
        assert_eq!(s.cmp(&t), Ordering::Equal);
        assert_eq!(hash_of(&s), hash_of(&t));
        assert_ne!(s, t.with_params(vec!["m".to_string()]));
        assert_ne!(s, s.with_range(Tuple::anonymous(2)));
        assert_eq!(s.wrap().unwrap(), Some(s.clone()));
        assert_eq!(s.reverse().reverse(), s);
        assert_eq!(*s.range_space().domain_tuple(), Tuple::anonymous(0));
    }
}
