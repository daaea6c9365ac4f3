//! The language summary printed by `poly calc --help`.

use crate::parser::{UNSUPPORTED_BINARY, UNSUPPORTED_PREFIX};

/// The operators of the language, one a line, and iscc's operators the
/// calculator does not have (every operator of [`crate::ast::UnOp`] and
/// [`crate::ast::BinOp`] is listed; a test checks it).
pub fn operators_help() -> String {
    let mut out = String::from(
        "\
Statements (each ends with `;`):
  X := expr                 assign (prints nothing)
  expr, print expr          print the value (one line in --batch mode)
Values: sets and maps in isl notation ([n] -> { S[i] : 0 <= i < n }), True/False,
integers, strings (\"...\"), lists [a, b] (indexed L[0]), piecewise quasi-polynomials
[n] -> { [i] -> (i^2 + n) : 0 <= i < n } (rational coefficients, ^k, floor(e/d); overlapping
pieces add up).

Prefix operators (bind tighter than binary ones: card S + T is (card S) + T):
  lexmin lexmax             lexicographic minimum/maximum (per domain point for maps)
  domain (dom) range (ran)  domain, range of a map
  deltas deltas_map         differences y - x of a map in one space
  domain_map range_map      { [x -> y] -> x }, { [x -> y] -> y }
  identity                  { x -> x } on a set
  wrap unwrap               map <-> set of pairs [x -> y]
  params                    the parameter domain
  coalesce                  fewer disjuncts, same points
  sample                    one point
  card                      number of points: of a set, a piecewise quasi-polynomial in the
                            parameters ({ 42 } without them); of a map, per domain point
  sum                       sum of a piecewise quasi-polynomial over its domain
  ub lb                     upper/lower bound of a piecewise quasi-polynomial over its
                            domain: the list [bound, is_exact] (a fold max(..)/min(..) in the
                            parameters; exact for quasi-affine functions and without
                            parameters, otherwise \"not supported\")
  affine_hull (aff)         equalities (and congruences) of the points
  convex_hull (hull)        a convex superset (isl's simple hull)
  complement                the complement in its space
  is_empty is_single_valued is_injective
                            tests
  typeof                    the value's type
Binary operators, loosest first (all left-associative):
  = <= >= < >               equality, subset, superset, strict (sets or maps)
  << <<= >> >>=             lexicographic order between two sets (or the images of two maps)
  + -                       union, difference (map - set: remove a domain)
  * %                       intersection, gist (map * set, map % set: on the domain;
                            with a parameter domain: restrict the parameters)
  ->* ->-                   restrict a map's range to a set, remove the pairs whose range is in it
                            (->* and * bind alike, ->- and - alike)
  -> cross                  product of two sets into a map, cross product
  . after                   join: apply the left map, then the right one (M after N is N . M)
Postfix: M(S) image of a set (M(N): N then M), F(P) value of a piecewise
  quasi-polynomial at the single point of P ([n] -> { : n = 5 } for parameters), L[k] indexing, M^-1 inverse,
  M^k power (integer constant k >= 1, exact), M^+ transitive closure: the list
  [closure, is_exact] (exact for translations and unions of them when the domain
  and range constraints suffice; otherwise a superset, is_exact False).
Dataflow: last W any V kill K before R under Sched (four results, as isl's compute_flow).
Scheduling: schedule D respecting V minimizing P.
",
    );
    out.push_str("Not supported (iscc operators; an error names them): ");
    let mut names: Vec<&str> = UNSUPPORTED_PREFIX.to_vec();
    names.extend(UNSUPPORTED_BINARY);
    names.extend(["==", "@"]);
    out.push_str(&names.join(" "));
    out.push('\n');
    out
}
