//! Reading isl notation: [`FromStr`] for [`BasicMap`], [`Map`] and [`UnionMap`].
//!
//! The accepted language is the one isl prints plus what people usually type:
//!
//! - parameters `[n, m] -> { ... }`; every parameter used in a formula must be
//!   declared (names of tuple dimensions are of course allowed);
//! - a union of parts separated by `;`: sets `S[i, j] : formula`, relations
//!   `A[i] -> B[j] : formula`, nested tuples `[S[i] -> R[]] -> A[i]`,
//!   parameter sets `: formula`, and the empty union `{ }`;
//! - tuple entries that are new names (`i`, `i'`), fixed or defined values
//!   (`i = 0`, `j = 2i + 1`) or expressions (`i + 1`, `2i`, `0`, or a name that
//!   is already bound such as the second `i` of `{ [i] -> [i] }`), which
//!   introduce an unnamed dimension equal to the expression; isl's range
//!   shorthand `i = a:b` (`a <= i <= b`; `i = a:` is `a <= i`), also for
//!   parameters (`[n = 0:23] -> { ... }` constrains `n` in every part); and
//!   `*`, an unnamed unconstrained dimension (`{ atomic[*] }`);
//! - formulas with `and`/`&&`/`/\`, `or`/`||`/`\/`, `not`/`!`, `implies`,
//!   `true`, `false`, `exists e : ...`, `exists (e0 = floor((i)/2), e1 : ...)`,
//!   and comparison chains `0 <= i < n` with `=`, `==`, `!=`, `<`, `<=`, `>`, `>=`;
//! - affine expressions with integer literals of any size, `2i`, `2*i`, `-i`,
//!   `floor(e)`, `ceil(e)`, `e mod d`, `e % d`, division by a constant
//!   (`floor((i + 1)/2)`; a rational comparison such as `i/2 >= 1` is scaled),
//!   `min(...)`, `max(...)` (expanded into a disjunction);
//! - comments from `#` to the end of a line.
//!
//! A formula is brought into disjunctive normal form: negations are pushed to
//! the atoms, each `floor`/`mod` becomes an integer division of the basic map
//! being built, `exists` variables become existential locals. A negated
//! formula containing `exists` is built separately and complemented.
//!
//! Errors are [`Error::Parse`] with the 1-based line and column of the
//! offending token; no input panics.
//!
//! ```
//! use presburger::{Map, UnionMap, Error};
//! let m: Map = "[n] -> { [i] -> [j] : 0 <= i < n and j = 2i + 1 }".parse().unwrap();
//! assert_eq!(m.space().n_in(), 1);
//! let u: UnionMap = "{ S[i] : 0 <= i < 10; T[i, j] : i = j }".parse().unwrap();
//! assert_eq!(u.maps().len(), 2);
//! let e = "{ [i] : i < m }".parse::<Map>().unwrap_err();
//! assert!(matches!(e, Error::Parse { line: 1, col: 13, .. }));
//! ```
//!
//! The modules: `lexer` (tokens and keywords), `limits` (the size guards), `grammar` (tokens to a syntax tree,
//! `syntax`), `lower` (syntax tree to basic maps in disjunctive normal
//! form). The parser only parses: leaving out the disjuncts that the
//! simplification finds empty (as isl's parser does), keeping each other
//! disjunct's simplified copy for later emptiness tests, samples and optima
//! (as isl keeps its simplified disjunct), and marking the disjuncts whose
//! rows coalescing's cheap normalisation would leave as they are (or, for a
//! map of one disjunct, keeping the normalised rows) is map construction
//! ([`Map::from_disjuncts`]); the rows stay as written.

mod grammar;
mod lexer;
mod limits;
mod lower;
mod syntax;

use std::str::FromStr;
use std::sync::Arc;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::map::Map;
use crate::space::Space;
use crate::union::UnionMap;
use grammar::Parser;
use lexer::{lex, perr, Pos};
use lower::{Builder, State};

pub(crate) use lexer::is_valid_name;
pub use limits::{MAX_DEPTH, MAX_DISJUNCTS};

/// The parts of a text grouped by space (in order of first appearance),
/// each with its disjuncts as written.
struct Parsed {
    params: Arc<[String]>,
    groups: Vec<Group>,
}

/// The disjuncts of the parts of one space, and where the first such part
/// starts.
struct Group {
    pos: Pos,
    space: Space,
    disjuncts: Vec<BasicMap>,
}

/// Lex, parse and lower a text: the disjuncts of every part, in disjunctive
/// normal form, as written (none is left out).
fn parse_text(src: &str) -> Result<Parsed> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        k: 0,
        depth: 0,
    };
    let ast = p.parse_input()?;
    let mut groups: Vec<Group> = Vec::new();
    let mut work = 0;
    for part in &ast.parts {
        let mut bld = Builder {
            params: &ast.params,
            dims: &part.dims,
            np: ast.params.len(),
            work,
        };
        let init = State {
            b: BasicMap::universe(part.space.clone()),
            locals: Vec::new(),
        };
        let states = bld.process(&part.formula, true, vec![init])?;
        work = bld.work;
        // parts of the same space are grouped here (not by `union`, which copies)
        let k = match groups
            .iter()
            .position(|g| g.space.tuples_match(&part.space))
        {
            Some(k) => k,
            None => {
                groups.push(Group {
                    pos: part.pos,
                    space: part.space.clone(),
                    disjuncts: Vec::new(),
                });
                groups.len() - 1
            }
        };
        groups[k].disjuncts.extend(states.into_iter().map(|s| s.b));
    }
    Ok(Parsed {
        params: ast.params,
        groups,
    })
}

/// Parse a union of sets or relations (the same as `s.parse::<UnionMap>()`).
///
/// ```
/// let u = presburger::parse::parse_union_map("[n] -> { A[i] : 0 <= i < n; B[] }").unwrap();
/// assert_eq!(u.maps().len(), 2);
/// assert_eq!(u.params(), &["n".to_string()]);
/// ```
pub fn parse_union_map(s: &str) -> Result<UnionMap> {
    let p = parse_text(s)?;
    let mut u = UnionMap::empty(p.params);
    for g in p.groups {
        u.add_map(Map::from_disjuncts(g.space, g.disjuncts)?)?;
    }
    Ok(u)
}

/// Parse a set or relation living in a single space (the same as `s.parse::<Map>()`).
///
/// Several parts in the same space are united; parts in different spaces are
/// an error. The empty union `{ }` gives the empty parameter set.
///
/// ```
/// let m = presburger::parse::parse_map("{ [i] : i >= 0; [i] : i <= -5 }").unwrap();
/// assert_eq!(m.basic_maps().len(), 2);
/// assert!(presburger::parse::parse_map("{ [i]; [i, j] }").is_err());
/// ```
pub fn parse_map(s: &str) -> Result<Map> {
    let (space, disjuncts) = parse_single_space(s)?;
    Map::from_disjuncts(space, disjuncts)
}

/// The space and the disjuncts (as written) of a text in a single space.
fn parse_single_space(s: &str) -> Result<(Space, Vec<BasicMap>)> {
    let p = parse_text(s)?;
    let mut it = p.groups.into_iter();
    let Some(g) = it.next() else {
        return Ok((Space::params_only(p.params), Vec::new()));
    };
    if let Some(other) = it.next() {
        return Err(perr(
            other.pos,
            "a part in the same space as the first one (use a union map for several spaces)",
        ));
    }
    Ok((g.space, g.disjuncts))
}

/// Parse a single conjunction (the same as `s.parse::<BasicMap>()`).
///
/// The text may be any formula whose disjunctive normal form has at most one
/// non-empty disjunct; `false` gives the empty basic map.
///
/// ```
/// let b = presburger::parse::parse_basic_map("{ [i, j] : 0 <= i <= j and j mod 2 = 0 }").unwrap();
/// assert_eq!(b.n_div(), 1);
/// ```
pub fn parse_basic_map(s: &str) -> Result<BasicMap> {
    let (space, disjuncts) = parse_single_space(s)?;
    // the disjuncts go through `Map::add_basic` (parameters aligned, the
    // obviously empty left out), but none is refuted: rows stay as written
    let mut m = Map::empty(space);
    for b in disjuncts {
        m.add_basic(b)?;
    }
    match m.basic_maps().len() {
        0 => Ok(BasicMap::empty(m.space().clone())),
        1 => Ok(m.basic_maps()[0].clone()),
        _ => Err(perr(
            Pos { line: 1, col: 1 },
            "a single conjunction (the text describes a union of several basic maps)",
        )),
    }
}

impl FromStr for UnionMap {
    type Err = Error;
    /// See [`parse_union_map`].
    fn from_str(s: &str) -> Result<UnionMap> {
        parse_union_map(s)
    }
}

impl FromStr for Map {
    type Err = Error;
    /// See [`parse_map`].
    fn from_str(s: &str) -> Result<Map> {
        parse_map(s)
    }
}

impl FromStr for BasicMap {
    type Err = Error;
    /// See [`parse_basic_map`].
    fn from_str(s: &str) -> Result<BasicMap> {
        parse_basic_map(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_at(s: &str) -> (usize, usize) {
        match s.parse::<UnionMap>() {
            Err(Error::Parse { line, col, .. }) => (line, col),
            other => panic!("expected a parse error for {s:?}, got {other:?}"),
        }
    }

    #[test]
    fn basic_shapes() {
        let m: Map = "[n] -> { [i] -> [j] : 0 <= i < n and j = i + 1 }"
            .parse()
            .unwrap();
        assert_eq!(m.space().n_in(), 1);
        assert_eq!(m.basic_maps().len(), 1);
        assert_eq!(m.basic_maps()[0].ineqs().len(), 2);
        assert_eq!(m.basic_maps()[0].eqs().len(), 1);
        let u: UnionMap = "{ }".parse().unwrap();
        assert!(u.maps().is_empty());
        let p: Map = "[n] -> { : n > 0 }".parse().unwrap();
        assert_eq!(p.space().n_out(), 0);
        let w: Map = "{ [S[i] -> R[]] -> A[i] }".parse().unwrap();
        assert!(w.space().domain.as_ref().unwrap().is_nested());
        let r: Map = "{ [i] -> [i] }".parse().unwrap();
        assert_eq!(r.basic_maps()[0].eqs().len(), 1);
        let f: Map = "{ [i] : exists (e0 = floor((i)/2), e1 : i = 2e0 + e1 and 0 <= e1 <= 0) }"
            .parse()
            .unwrap();
        assert_eq!(f.basic_maps()[0].n_div(), 2);
        let mm: Map = "{ [i] : i <= min(5, 10 - 2i) }".parse().unwrap();
        assert_eq!(mm.basic_maps().len(), 2);
        // a disjunct refuted at once is left out: 2i <= 10 and 10 - i < 5
        let mm: Map = "{ [i] : i <= min(5, 10 - i) }".parse().unwrap();
        assert_eq!(mm.basic_maps().len(), 1);
    }

    #[test]
    fn errors() {
        assert_eq!(err_at("{ [i] : i >= }"), (1, 14));
        assert_eq!(err_at("[n] -> { [i] : i < m }"), (1, 20));
        assert_eq!(err_at("{ [i] : floor(i/0) >= 0 }"), (1, 16));
        assert_eq!(err_at("{ [i, j] : i*j >= 0 }"), (1, 13));
        assert_eq!(err_at("{ [i] } x"), (1, 9));
        assert_eq!(err_at("{ [i] \n : i >= 0"), (2, 10));
    }

    #[test]
    fn the_parser_charges_the_operation_budget() {
        let text = "{ [i, j] : 0 <= i <= 10 and 0 <= j <= i and (i = 0 or j = 1) }";
        let r = crate::budget::with_budget(2, || text.parse::<Map>());
        assert!(matches!(r, Err(Error::BudgetExceeded)), "{r:?}");
        let m = crate::budget::with_budget(10_000, || text.parse::<Map>()).unwrap();
        assert_eq!(m.basic_maps().len(), 2);
    }

    #[test]
    fn negated_conjunctions_of_comparisons_are_disjoint_pieces() {
        // `not (1 <= i and i = 3 and j = 3 ...)` with repeated comparisons: one
        // piece per comparison that can fail first, no copies (isl's answer
        // is the complement of `{ [3, 3] }`)
        let m: Map = "{ [i, j] : not 1 <= i,i, j = 3 }".parse().unwrap();
        let expected = Map::from_str("{ [i, j] : j <= 2 or j >= 4 or i <= 2 or i >= 4 }").unwrap();
        assert!(m.is_equal(&expected).unwrap(), "{m}");
        let parts = m.basic_maps();
        for (k, a) in parts.iter().enumerate() {
            for b in &parts[k + 1..] {
                assert!(a.intersect(b).unwrap().is_empty().unwrap(), "{a} meets {b}");
            }
        }
        assert_eq!(parts.len(), 6, "{m}");
        // a negated disjunction, an implication and a negated conjunction of
        // compound formulas keep their meaning
        for (text, same) in [
            (
                "{ [i] : not (0 <= i <= 10 and i != 5) }",
                "{ [i] : i < 0 or i > 10 or i = 5 }",
            ),
            ("{ [i] : not (i < 0 or i > 4) }", "{ [i] : 0 <= i <= 4 }"),
            (
                "{ [i] : not ((i < 0 or i > 4) and i != 7) }",
                "{ [i] : 0 <= i <= 4 or i = 7 }",
            ),
        ] {
            let a: Map = text.parse().unwrap();
            assert!(a.is_equal(&same.parse().unwrap()).unwrap(), "{text}: {a}");
        }
    }

    #[test]
    fn products_of_unions_charge_the_budget() {
        // the fuzz campaign's `A := A >> A` chains: pairwise products of many
        // disjuncts must stop at the budget instead of running on
        let a: Map = "{ [i, j] : i <= 0 or i >= 4 or j <= 0 or j >= 4 or i = 2 or j = 2 }"
            .parse()
            .unwrap();
        assert_eq!(a.basic_maps().len(), 6);
        let r = crate::budget::with_budget(20, || a.lex_order(&a, true, false));
        assert!(matches!(r, Err(Error::BudgetExceeded)), "{r:?}");
        let r = crate::budget::with_budget(20, || a.intersect(&a));
        assert!(matches!(r, Err(Error::BudgetExceeded)), "{r:?}");
        assert!(crate::budget::with_budget(100_000, || a.intersect(&a)).is_ok());
    }

    #[test]
    fn disjuncts_the_simplification_finds_empty_are_left_out_by_map_construction() {
        // an opposite pair made an equality (i = j), which makes the last
        // two rows opposite with no room: `refute` (one round of
        // substitution) proves nothing, the simplification finds it empty
        let text = "{ [i, j, k] : i >= j and j >= i and k >= i and j >= k + 1 }";
        let b: BasicMap = text.parse().unwrap();
        assert_eq!(crate::refute::refute_checked(&b), Some(false));
        assert!(!b.clone().simplify());
        assert_eq!(b.ineqs().len(), 4, "a basic map keeps its rows");
        let m: Map = text.parse().unwrap();
        assert!(m.basic_maps().is_empty());
        // with a non-empty disjunct beside it, that one stays as written
        let m: Map = format!(
            "{}; [i, j, k] : i >= j and j >= i }}",
            &text[..text.len() - 2]
        )
        .parse()
        .unwrap();
        assert_eq!(m.basic_maps().len(), 1);
        assert_eq!(m.basic_maps()[0].ineqs().len(), 2);
        let u: UnionMap = text.parse().unwrap();
        assert!(u.maps().iter().all(|m| m.basic_maps().is_empty()));
    }

    #[test]
    fn refuted_disjuncts_are_left_out_by_map_construction_only() {
        let text = "{ [i] : i = 0 and i >= 1 }";
        // a map leaves the refuted disjunct out; a basic map keeps its rows
        let m: Map = text.parse().unwrap();
        assert!(m.basic_maps().is_empty());
        let b: BasicMap = text.parse().unwrap();
        assert_eq!((b.eqs().len(), b.ineqs().len()), (1, 1));
        let u: UnionMap = text.parse().unwrap();
        assert!(u.maps().iter().all(|m| m.basic_maps().is_empty()));
        // the constructor itself
        let space = b.space().clone();
        let kept = Map::from_disjuncts(space.clone(), vec![b.clone()]).unwrap();
        assert!(kept.basic_maps().is_empty());
        let ok: BasicMap = "{ [i] : 0 <= i <= 3 }".parse().unwrap();
        let kept = Map::from_disjuncts(space, vec![b, ok]).unwrap();
        assert_eq!(kept.basic_maps().len(), 1);
    }
}
