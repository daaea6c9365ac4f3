//! A byte-driven generator of bounded random sets and maps in isl notation.
//!
//! Every choice is read from a byte string ([`Bytes`]); missing bytes read as
//! zero, and zero always means the simplest choice (one disjunct, no extra
//! constraints, a single point at the origin). The same generator serves the
//! proptest strategies (which shrink the bytes) and the fuzz targets.
//!
//! Each disjunct bounds every variable: parameters lie in
//! `-PARAM_BOUND..=PARAM_BOUND` and dimensions in `-bound..=bound` (see
//! [`Shape::bound`]), so brute-force enumeration of that box sees every point.

use std::fmt::Write;

/// Parameters of generated sets lie in `-PARAM_BOUND..=PARAM_BOUND`.
pub const PARAM_BOUND: i64 = 3;

/// A source of choices: bytes, read in order, zero once exhausted.
#[derive(Clone, Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// Read choices from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    /// The next byte (zero when exhausted).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// True when every byte has been read.
    pub fn is_exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// A value in `0..n` (`n >= 1`); zero for a zero byte.
    pub fn below(&mut self, n: u8) -> u8 {
        self.byte() % n
    }

    /// A value in `-r..=r`, zero for a zero byte, then 1, -1, 2, -2, ...
    pub fn centered(&mut self, r: i64) -> i64 {
        let v = (self.byte() as i64) % (2 * r + 1);
        if v % 2 == 0 {
            -v / 2
        } else {
            (v + 1) / 2
        }
    }
}

/// The space of a generated set or map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// One parameter `n` (true) or none.
    pub param: bool,
    /// Input dimensions (0 for a set).
    pub n_in: usize,
    /// Output (set) dimensions, at least 1.
    pub n_out: usize,
}

impl Shape {
    /// A set shape.
    pub fn set(param: bool, dims: usize) -> Shape {
        Shape {
            param,
            n_in: 0,
            n_out: dims,
        }
    }

    /// A map shape.
    pub fn map(param: bool, n_in: usize, n_out: usize) -> Shape {
        Shape { param, n_in, n_out }
    }

    /// Number of parameters.
    pub fn n_param(&self) -> usize {
        usize::from(self.param)
    }

    /// Number of input and output dimensions.
    pub fn n_dims(&self) -> usize {
        self.n_in + self.n_out
    }

    /// Dimensions lie in `-bound..=bound`: 8 for up to two dimensions, 5 for
    /// three, 3 for more (keeps brute-force enumeration cheap).
    pub fn bound(&self) -> i64 {
        match self.n_dims() {
            0..=2 => 8,
            3 => 5,
            _ => 3,
        }
    }

    /// Read a shape from bytes: a set (or a map when `map` is true) with at
    /// most `max_dims` dimensions in all.
    pub fn from_bytes(src: &mut Bytes, map: bool, max_dims: usize) -> Shape {
        let param = src.below(2) == 1;
        if map {
            let n_in = 1 + src.below(max_dims.saturating_sub(1).max(1) as u8) as usize;
            let rest = max_dims.saturating_sub(n_in).max(1);
            let n_out = 1 + src.below(rest as u8) as usize;
            Shape::map(param, n_in, n_out)
        } else {
            Shape::set(param, 1 + src.below(max_dims.max(1) as u8) as usize)
        }
    }

    fn names(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        let p = if self.param {
            vec!["n".to_string()]
        } else {
            vec![]
        };
        let i = ["i", "j", "k", "l"]
            .iter()
            .take(self.n_in)
            .map(|s| s.to_string())
            .collect();
        let o = ["x", "y", "z", "w"]
            .iter()
            .take(self.n_out)
            .map(|s| s.to_string())
            .collect();
        (p, i, o)
    }
}

/// A generated set or map: its shape and its isl text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The space.
    pub shape: Shape,
    /// isl notation, e.g. `[n] -> { [x, y] : ... or ... }`.
    pub text: String,
}

impl Generated {
    /// Parse the text with the engine (the generator only writes valid text).
    pub fn map(&self) -> presburger::Map {
        match self.text.parse() {
            Ok(m) => m,
            Err(e) => panic!("generated text does not parse: {}: {e}", self.text),
        }
    }
}

/// `c0*v0 + c1*v1 + ... + k` in isl notation (`0` when everything is zero).
fn affine(coeffs: &[i64], vars: &[String], k: i64) -> String {
    let mut s = String::new();
    for (c, v) in coeffs.iter().zip(vars) {
        if *c == 0 {
            continue;
        }
        let sign = if *c < 0 { "-" } else { "+" };
        if s.is_empty() {
            if *c < 0 {
                s.push('-');
            }
        } else {
            let _ = write!(s, " {sign} ");
        }
        if c.abs() != 1 {
            let _ = write!(s, "{}*", c.abs());
        }
        s.push_str(v);
    }
    if s.is_empty() {
        return k.to_string();
    }
    if k != 0 {
        let _ = write!(s, " {} {}", if k < 0 { "-" } else { "+" }, k.abs());
    }
    s
}

fn coeffs(src: &mut Bytes, n: usize, r: i64) -> Vec<i64> {
    (0..n).map(|_| src.centered(r)).collect()
}

/// One disjunct: the box, then optional extra constraints.
fn disjunct(src: &mut Bytes, shape: &Shape, vars: &[String]) -> String {
    let np = shape.n_param();
    let mut cs: Vec<String> = Vec::new();
    for (k, v) in vars.iter().enumerate() {
        let r = if k < np { PARAM_BOUND } else { shape.bound() };
        let (a, b) = (src.centered(r), src.centered(r));
        let (lo, hi) = (a.min(b), a.max(b));
        cs.push(format!("{lo} <= {v} <= {hi}"));
    }
    let extras = src.below(8);
    // bit 0, 1: affine constraints; bit 2: a mod or floor constraint; and an exists clause
    for _ in 0..(extras & 3) {
        let c = coeffs(src, vars.len(), 3);
        let k = src.centered(6);
        let op = if src.below(4) == 0 { "=" } else { ">=" };
        cs.push(format!("{} {op} 0", affine(&c, vars, k)));
    }
    if extras & 4 != 0 {
        let c = coeffs(src, vars.len(), 2);
        let m = 2 + src.below(3) as i64;
        let k = src.centered(4);
        match src.below(3) {
            0 => {
                let r = src.below(m as u8);
                cs.push(format!("({}) mod {m} = {r}", affine(&c, vars, k)));
            }
            1 => {
                let d = coeffs(src, vars.len(), 2);
                let k2 = src.centered(4);
                cs.push(format!(
                    "floor(({})/{m}) >= {}",
                    affine(&c, vars, k),
                    affine(&d, vars, k2)
                ));
            }
            _ => {
                // an existential with a small witness: m*e lies within [expr, expr + m - 1]
                // (explicitly bounded inside the oracle's existential search box)
                let b = crate::oracle::EXIST_BOUND - 4;
                cs.push(format!(
                    "exists (e : -{b} <= e <= {b} and {} <= {m}*e <= {} + {})",
                    affine(&c, vars, k),
                    affine(&c, vars, k),
                    src.below(m as u8)
                ));
            }
        }
    }
    cs.join(" and ")
}

/// A random bounded set or map of the given shape: a union of 1 to 3 disjuncts.
pub fn generate(src: &mut Bytes, shape: Shape) -> Generated {
    let (p, i, o) = shape.names();
    let vars: Vec<String> = p.iter().chain(&i).chain(&o).cloned().collect();
    let n = 1 + src.below(3);
    let parts: Vec<String> = (0..n)
        .map(|_| format!("({})", disjunct(src, &shape, &vars)))
        .collect();
    let prefix = if shape.param { "[n] -> " } else { "" };
    let tuples = if shape.n_in > 0 {
        format!("[{}] -> [{}]", i.join(", "), o.join(", "))
    } else {
        format!("[{}]", o.join(", "))
    };
    Generated {
        shape,
        text: format!("{prefix}{{ {tuples} : {} }}", parts.join(" or ")),
    }
}

/// Convenience: generate from a byte slice.
pub fn generate_from(data: &[u8], shape: Shape) -> Generated {
    generate(&mut Bytes::new(data), shape)
}
