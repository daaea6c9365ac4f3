//! Run-time values of the calculator.

use std::fmt;

use presburger::{Int, PwQPolynomial, PwQPolynomialFold, Rat, UnionMap};

/// A value computed by a script.
///
/// The engine has one type for union sets and union maps; the calculator
/// keeps the distinction in the variant (fixed by each operator's typing
/// rule, or for a literal by what it contains). An empty union with no parts
/// (the literal `{ }`) is accepted where either a set or a map is expected.
#[derive(Clone, Debug)]
pub enum Value {
    /// A union set.
    Set(UnionMap),
    /// A union map (relation).
    Map(UnionMap),
    /// A truth value, printed `True`/`False`.
    Bool(bool),
    /// An integer.
    Int(Int),
    /// A number of points (the value of `card`), printed `{ 42 }` as iscc does.
    Card(Int),
    /// A piecewise quasi-polynomial per space (the value of `card` of a
    /// parametric set or of a map, and of `sum`), printed in iscc's notation.
    QPoly(Vec<PwQPolynomial>),
    /// A bound of a quasi-polynomial (the value of `ub` and `lb`), printed
    /// as isl prints a fold: `[n] -> { max((1 - n + n^2)) : n > 0 }`.
    Fold(PwQPolynomialFold),
    /// A rational number (the value of a quasi-polynomial at a point).
    Rational(Rat),
    /// A string.
    Str(String),
    /// A list, printed `[a, b]`.
    List(Vec<Value>),
}

impl Value {
    /// The type's name, as printed by `typeof`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Set(_) => "set",
            Value::Map(_) => "map",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Card(_) => "card",
            Value::QPoly(_) => "piecewise quasipolynomial",
            Value::Fold(_) => "piecewise quasipolynomial fold",
            Value::Rational(_) => "rational",
            Value::Str(_) => "string",
            Value::List(_) => "list",
        }
    }

    /// The type's name with an article, for error messages.
    pub fn a_type(&self) -> String {
        let n = self.type_name();
        let article = if matches!(n, "int") { "an" } else { "a" };
        format!("{article} {n}")
    }

    /// The union if this is a set, or a union without parts.
    pub fn as_set(&self) -> Option<&UnionMap> {
        match self {
            Value::Set(u) => Some(u),
            Value::Map(u) if u.maps().is_empty() => Some(u),
            _ => None,
        }
    }

    /// The union if this is a map, or a union without parts.
    pub fn as_map(&self) -> Option<&UnionMap> {
        match self {
            Value::Map(u) => Some(u),
            Value::Set(u) if u.maps().is_empty() => Some(u),
            _ => None,
        }
    }

    /// The integer if this is an integer (or a card).
    pub fn as_int(&self) -> Option<&Int> {
        match self {
            Value::Int(i) | Value::Card(i) => Some(i),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Set(u) | Value::Map(u) => f.write_str(&crate::show(u)),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Card(i) => write!(f, "{{ {i} }}"),
            Value::QPoly(fs) => f.write_str(&qpoly_text(fs)),
            Value::Fold(b) => write!(f, "{b}"),
            Value::Rational(r) => write!(f, "{r}"),
            Value::Str(s) => f.write_str(s),
            Value::List(items) => {
                f.write_str("[")?;
                for (k, v) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    match v {
                        Value::Str(s) => write!(f, "{s:?}")?,
                        v => write!(f, "{v}")?,
                    }
                }
                f.write_str("]")
            }
        }
    }
}

/// Piecewise quasi-polynomials over several spaces as one iscc value: the
/// parameters once, the pieces of every space between one pair of braces.
fn qpoly_text(fs: &[PwQPolynomial]) -> String {
    let texts: Vec<String> = fs.iter().map(|f| f.to_string()).collect();
    if texts.len() == 1 {
        return texts.into_iter().next().unwrap();
    }
    let params = fs
        .first()
        .map(|f| f.space().params.join(", "))
        .unwrap_or_default();
    let prefix = if params.is_empty() {
        String::new()
    } else {
        format!("[{params}] -> ")
    };
    let bodies: Vec<&str> = texts
        .iter()
        .map(|t| {
            t[prefix.len()..]
                .trim_start_matches("{ ")
                .trim_end_matches(" }")
        })
        .collect();
    format!("{prefix}{{ {} }}", bodies.join("; "))
}
