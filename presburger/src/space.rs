//! Spaces: the named parameters and the (possibly nested) tuples of a set or relation.
//!
//! A set lives in a space `[params] -> { name[dims] }`, a relation in
//! `[params] -> { dom[dims] -> ran[dims] }`. A tuple is either flat (a list of
//! dimensions) or the wrapping of a relation (`[S[i] -> R[]]`). Dimension
//! names are kept only as printing hints: two tuples are equal when their
//! names, arities and nesting agree.
//!
//! ```
//! use presburger::{Space, Tuple};
//! let s = Space::set(vec!["n".into()], Tuple::named("S", &["i", "j"]));
//! assert_eq!(s.n_param(), 1);
//! assert_eq!(s.n_out(), 2);
//! assert!(s.is_set());
//! ```

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// A tuple of dimensions: flat, or a wrapped relation.
#[derive(Clone, Debug)]
pub struct Tuple {
    /// The tuple's name (`S1` in `S1[i, j]`), if any.
    pub name: Option<String>,
    /// Flat dimensions or a wrapped relation.
    pub kind: TupleKind,
}

/// The shape of a [`Tuple`].
#[derive(Clone, Debug)]
pub enum TupleKind {
    /// A flat list of dimensions; the strings are printing hints (may be empty).
    Flat(Vec<String>),
    /// A wrapped relation `[A -> B]`.
    Nested(Box<Tuple>, Box<Tuple>),
}

impl Tuple {
    /// An anonymous flat tuple with `n` dimensions and no dimension names.
    pub fn anonymous(n: usize) -> Tuple {
        Tuple {
            name: None,
            kind: TupleKind::Flat(vec![String::new(); n]),
        }
    }

    /// A named flat tuple with the given dimension names.
    pub fn named(name: &str, dims: &[&str]) -> Tuple {
        Tuple {
            name: Some(name.to_string()),
            kind: TupleKind::Flat(dims.iter().map(|s| s.to_string()).collect()),
        }
    }

    /// A flat tuple with an optional name and dimension names.
    pub fn flat(name: Option<String>, dims: Vec<String>) -> Tuple {
        Tuple {
            name,
            kind: TupleKind::Flat(dims),
        }
    }

    /// The wrapped relation `[dom -> ran]`.
    pub fn nested(name: Option<String>, dom: Tuple, ran: Tuple) -> Tuple {
        Tuple {
            name,
            kind: TupleKind::Nested(Box::new(dom), Box::new(ran)),
        }
    }

    /// Total number of dimensions.
    pub fn dim(&self) -> usize {
        match &self.kind {
            TupleKind::Flat(d) => d.len(),
            TupleKind::Nested(a, b) => a.dim() + b.dim(),
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
            TupleKind::Flat(d) => Tuple::flat(self.name.clone(), vec![String::new(); d.len()]),
            TupleKind::Nested(a, b) => Tuple::nested(
                self.name.clone(),
                a.without_dim_names(),
                b.without_dim_names(),
            ),
        }
    }
}

impl PartialEq for Tuple {
    fn eq(&self, other: &Tuple) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Tuple {}

impl Hash for Tuple {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
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
        self.name
            .cmp(&other.name)
            .then_with(|| match (&self.kind, &other.kind) {
                (TupleKind::Flat(a), TupleKind::Flat(b)) => a.len().cmp(&b.len()),
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
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Space {
    /// Parameter names, in order.
    pub params: Vec<String>,
    /// The domain tuple of a relation (`None` for a set).
    pub domain: Option<Tuple>,
    /// The tuple of a set, or the range tuple of a relation.
    pub range: Tuple,
}

impl Space {
    /// The space of a set.
    pub fn set(params: Vec<String>, tuple: Tuple) -> Space {
        Space {
            params,
            domain: None,
            range: tuple,
        }
    }

    /// The space of a relation.
    pub fn map(params: Vec<String>, domain: Tuple, range: Tuple) -> Space {
        Space {
            params,
            domain: Some(domain),
            range,
        }
    }

    /// The space of a parameter domain (a set with a zero-dimensional anonymous tuple).
    pub fn params_only(params: Vec<String>) -> Space {
        Space::set(params, Tuple::anonymous(0))
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
        self.domain.as_ref().map_or(0, Tuple::dim)
    }

    /// Number of range (output, or set) dimensions.
    pub fn n_out(&self) -> usize {
        self.range.dim()
    }

    /// Number of variables (parameters and dimensions) without locals.
    pub fn n_vars(&self) -> usize {
        self.n_param() + self.n_in() + self.n_out()
    }

    /// The domain of a relation as a set space (a set space is its own domain
    /// only in the sense of `params`; use on relations).
    pub fn domain_space(&self) -> Space {
        Space::set(
            self.params.clone(),
            self.domain.clone().unwrap_or_else(|| Tuple::anonymous(0)),
        )
    }

    /// The range of a relation (or the tuple of a set) as a set space.
    pub fn range_space(&self) -> Space {
        Space::set(self.params.clone(), self.range.clone())
    }

    /// The reversed relation space.
    pub fn reverse(&self) -> Space {
        Space::map(
            self.params.clone(),
            self.range.clone(),
            self.domain.clone().unwrap_or_else(|| Tuple::anonymous(0)),
        )
    }

    /// The parameter space (`[params] -> { : }`).
    pub fn params_space(&self) -> Space {
        Space::params_only(self.params.clone())
    }

    /// Wrap a relation space into a set space `{ [A -> B] }`.
    pub fn wrap(&self) -> Space {
        let dom = self.domain.clone().unwrap_or_else(|| Tuple::anonymous(0));
        Space::set(
            self.params.clone(),
            Tuple::nested(None, dom, self.range.clone()),
        )
    }

    /// Unwrap a set space `{ [A -> B] }` into a relation space, if it is nested.
    pub fn unwrap(&self) -> Option<Space> {
        match (&self.domain, &self.range.kind) {
            (None, TupleKind::Nested(a, b)) => Some(Space::map(
                self.params.clone(),
                (**a).clone(),
                (**b).clone(),
            )),
            _ => None,
        }
    }

    /// True if both spaces have the same tuples, whatever their parameters.
    pub fn tuples_match(&self, other: &Space) -> bool {
        self.domain == other.domain && self.range == other.range
    }

    /// The same space with a different parameter list.
    pub fn with_params(&self, params: Vec<String>) -> Space {
        Space {
            params,
            domain: self.domain.clone(),
            range: self.range.clone(),
        }
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
