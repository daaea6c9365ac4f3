//! The division definitions of a basic map's locals, shared between copies
//! and copied on write.
//!
//! [`Divs`] is to a [`BasicMap`](crate::BasicMap)'s `divs` what
//! [`Rows`](crate::rows) is to its constraints: a list behind a reference
//! count. Copying a basic map (a coalesce that changes nothing, the
//! disjuncts of a union, a kept answer handed out again) counts one more
//! owner instead of copying every definition's row; the first mutable
//! access of a shared copy copies the list (`Arc::make_mut`), so a change to
//! one copy never shows in another. Read access goes through `Deref` to
//! `Vec<Option<Div>>`, mutable access through `DerefMut`, so the list is used
//! exactly as the plain vector it was.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use crate::basic::Div;

mod conjoin;
pub(crate) use conjoin::{conjoin_sharing, Layout};

/// The definitions of the locals (`None`: an existential without one),
/// shared by reference count and copied on the first write of a shared
/// copy. See the [module documentation](self).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Divs(Arc<Vec<Option<Div>>>);

impl Divs {
    /// The list as an owned vector (copied only if shared).
    pub fn into_vec(self) -> Vec<Option<Div>> {
        Arc::try_unwrap(self.0).unwrap_or_else(|a| (*a).clone())
    }
}

impl Deref for Divs {
    type Target = Vec<Option<Div>>;
    #[inline]
    fn deref(&self) -> &Vec<Option<Div>> {
        &self.0
    }
}

impl DerefMut for Divs {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<Option<Div>> {
        Arc::make_mut(&mut self.0)
    }
}

impl From<Vec<Option<Div>>> for Divs {
    fn from(v: Vec<Option<Div>>) -> Divs {
        Divs(Arc::new(v))
    }
}

impl FromIterator<Option<Div>> for Divs {
    fn from_iter<I: IntoIterator<Item = Option<Div>>>(it: I) -> Divs {
        Divs(Arc::new(it.into_iter().collect()))
    }
}

impl<'a> IntoIterator for &'a Divs {
    type Item = &'a Option<Div>;
    type IntoIter = std::slice::Iter<'a, Option<Div>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Divs {
    type Item = Option<Div>;
    type IntoIter = std::vec::IntoIter<Option<Div>>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl std::fmt::Debug for Divs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::int::Int;

    fn div(k: i64) -> Option<Div> {
        Some(Div {
            num: vec![Int::from(k), Int::from(1)],
            den: Int::from(2),
        })
    }

    /// A write to a copy never shows in the other copy, and copies compare
    /// by value.
    #[test]
    fn copies_are_independent() {
        let a: Divs = vec![div(0), None].into();
        let mut b = a.clone();
        assert_eq!(a, b);
        b[1] = div(3);
        assert_eq!(*a, vec![div(0), None]);
        assert_eq!(*b, vec![div(0), div(3)]);
        assert_ne!(a, b);
        let c: Divs = vec![div(0), div(3)].into();
        assert_eq!(b, c);
        b.push(None);
        assert_eq!(b.len(), 3);
        assert_eq!(a.len(), 2);
        assert_eq!(b.into_vec(), vec![div(0), div(3), None]);
        assert_eq!(a.clone().into_vec(), *a);
    }
}
