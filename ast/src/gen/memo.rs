//! Answers of the engine remembered during one generation, by the exact
//! value of the question: the recursion over the dimensions asks the same
//! questions again (a piece's set inside the context is often the same
//! set at the next level, where the context only gains the equality of a
//! substituted dimension that the set already has, or the bounds of a
//! loop that the set already implies row by row).
//!
//! A key is the whole syntactic value of a set (its space, and per
//! disjunct its divisions, equalities and inequalities, in order), so a
//! remembered answer is the answer the engine gives to that very input.

use std::cell::RefCell;
use std::collections::HashMap;

use presburger::{BasicMap, Div, Int, Map, Space};

use crate::error::Result;

/// One disjunct's rows, as they are.
type DisjunctKey = (Vec<Option<Div>>, Vec<Vec<Int>>, Vec<Vec<Int>>);

/// A set's syntactic value: equal keys, equal sets, written the same way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key(Space, Vec<DisjunctKey>);

impl Key {
    pub(super) fn of(m: &Map) -> Key {
        Key(
            m.space().clone(),
            m.basic_maps().iter().map(disjunct_key).collect(),
        )
    }
}

fn disjunct_key(b: &BasicMap) -> DisjunctKey {
    (b.divs().to_vec(), b.eqs().to_vec(), b.ineqs().to_vec())
}

/// Remembered answers of one generation.
#[derive(Default)]
pub(super) struct Memo {
    coalesced: RefCell<HashMap<Key, Map>>,
}

impl Memo {
    /// `m.coalesce_simplified()`, computed once per value of `m`.
    pub(super) fn coalesced(&self, m: &Map) -> Result<Map> {
        let key = Key::of(m);
        if let Some(c) = self.coalesced.borrow().get(&key) {
            return Ok(c.clone());
        }
        let c = m.coalesce_simplified()?;
        self.coalesced.borrow_mut().insert(key, c.clone());
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(s: &str) -> Map {
        s.parse().unwrap()
    }

    #[test]
    fn remembered_answer_is_the_engines() {
        let memo = Memo::default();
        let inputs = [
            "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i; [i, j] : 0 <= i < N and i < j < N }",
            "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and 0 <= j < 4); [i, j] : 0 <= i < N and 2 <= j < 4 }",
            "{ [i] : 0 <= i <= 10; [i] : 5 <= i <= 20 }",
        ];
        for _ in 0..2 {
            for s in inputs {
                let m = map(s);
                let direct = m.coalesce_simplified().unwrap();
                let remembered = memo.coalesced(&m).unwrap();
                assert_eq!(Key::of(&remembered), Key::of(&direct), "{s}");
            }
        }
        assert_eq!(memo.coalesced.borrow().len(), inputs.len());
    }

    #[test]
    fn keys_tell_written_forms_apart() {
        // the same set written two ways: two questions, two keys
        let a = map("{ [i] : 0 <= i <= 10 }");
        let b = map("{ [i] : 0 <= i <= 10 and i <= 12 }");
        assert!(a.is_equal(&b).unwrap());
        assert!(Key::of(&a) != Key::of(&b));
        assert!(Key::of(&a) == Key::of(&a.clone()));
    }
}
