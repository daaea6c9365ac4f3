//! The schedule tree: domain, bands, sequences and sets with filters.

use crate::error::{Error, Result};
use presburger::{Aff, BasicMap, Int, Map, Space, Tuple, UnionMap, UnionSet};
use std::fmt::{self, Write};

/// One affine schedule row of one statement: `[constant | params | dims]`.
pub type Row = Vec<Int>;

/// A schedule: the domain and a tree of nodes over its statements.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// The scheduled instances.
    pub domain: UnionSet,
    /// The statements (set spaces, in the domain's order); nodes refer to them by index.
    pub statements: Vec<Space>,
    /// The tree below the domain node.
    pub root: Node,
}

/// A node of the schedule tree.
#[derive(Debug, Clone)]
pub enum Node {
    /// Nothing more to order.
    Leaf,
    /// A band of affine rows.
    Band(Band),
    /// Children executed one after the other.
    Sequence(Vec<Filter>),
    /// Children in any order (independent).
    Set(Vec<Filter>),
}

impl Node {
    /// [`Schedule::outer_coincident`] of the subtree.
    pub fn outer_coincident(&self) -> bool {
        match self {
            Node::Band(b) => b.coincident.first() == Some(&true),
            Node::Sequence(fs) | Node::Set(fs) => fs.iter().any(|f| f.child.outer_coincident()),
            Node::Leaf => false,
        }
    }
}

/// A child of a sequence or set: the statements it keeps and its subtree.
#[derive(Debug, Clone)]
pub struct Filter {
    /// Indices into [`Schedule::statements`].
    pub statements: Vec<usize>,
    /// The subtree.
    pub child: Node,
}

/// A band: `members[j][k]` is member `j` for statement `statements[k]`.
#[derive(Debug, Clone)]
pub struct Band {
    /// Indices into [`Schedule::statements`] (the statements reaching the band).
    pub statements: Vec<usize>,
    /// The rows, member by member, statement by statement.
    pub members: Vec<Vec<Row>>,
    /// Per member: the value is `floor(row / divisor)` (1: the row itself; a
    /// tile band has the tile sizes).
    pub divisors: Vec<Int>,
    /// Every member has non-negative distance on the validity dependences live here.
    pub permutable: bool,
    /// Per member: zero distance on the coincidence dependences live here.
    pub coincident: Vec<bool>,
    /// The subtree.
    pub child: Box<Node>,
}

impl Schedule {
    /// A given schedule (e.g. a program's original one) as a tree: one band
    /// whose members are the time dimensions, neither permutable nor
    /// coincident (nothing is claimed about them). Every statement of
    /// `domain` must have exactly one affine schedule `{ S[x] -> [t] }` in
    /// `schedule` (one equality per time dimension, all of one length).
    pub fn from_union_map(domain: &UnionSet, schedule: &UnionMap) -> Result<Schedule> {
        let mut params = domain.params().to_vec();
        for p in schedule.params() {
            if !params.contains(p) {
                params.push(p.clone());
            }
        }
        let (mut domain, mut schedule) = (domain.clone(), schedule.clone());
        domain.align_params(&params);
        schedule.align_params(&params);
        let statements: Vec<Space> = domain.maps().iter().map(|m| m.space().clone()).collect();
        let mut rows = Vec::new();
        for st in &statements {
            let name = st.range.name.clone().unwrap_or_default();
            let mut found = schedule.maps().iter().filter(|m| {
                m.space().domain.as_deref().is_some_and(|d| {
                    d.name == st.range.name && d.dim() == st.range.dim() && !d.is_nested()
                })
            });
            let (Some(m), None) = (found.next(), found.next()) else {
                return Err(Error::Invalid(format!(
                    "{name}[..] needs exactly one schedule"
                )));
            };
            let a = presburger::relation::AffineSchedule::from_map(m).ok_or_else(|| {
                Error::Invalid(format!("the schedule of {name}[..] is not affine: {m}"))
            })?;
            rows.push(a);
        }
        let n = rows.first().map_or(0, |a| a.n_time());
        if rows.iter().any(|a| a.n_time() != n) {
            return Err(Error::Invalid("schedules of different lengths".into()));
        }
        let root = if statements.is_empty() {
            Node::Leaf
        } else {
            Node::Band(Band {
                statements: (0..statements.len()).collect(),
                members: (0..n)
                    .map(|k| rows.iter().map(|a| a.row(k).to_vec()).collect())
                    .collect(),
                divisors: vec![Int::ONE; n],
                permutable: false,
                coincident: vec![false; n],
                child: Box::new(Node::Leaf),
            })
        };
        Ok(Schedule {
            domain,
            statements,
            root,
        })
    }
}

impl Band {
    /// Member `j` of statement `stmt` as an [`Aff`] on the statement's space.
    pub fn aff(&self, sched: &Schedule, j: usize, stmt: usize) -> Result<Option<Aff>> {
        let Some(k) = self.statements.iter().position(|&s| s == stmt) else {
            return Ok(None);
        };
        Ok(Some(Aff::from_row(
            &sched.statements[stmt],
            self.members[j][k].clone(),
            Int::ONE,
        )?))
    }
}

/// Write `row` (`[c | params | dims]`) as an isl affine expression.
pub(crate) fn write_expr(row: &[Int], names: &[String]) -> String {
    let mut s = String::new();
    for (k, c) in row.iter().enumerate().skip(1) {
        if c.is_zero() {
            continue;
        }
        let name = &names[k - 1];
        let neg = c.is_neg();
        let a = c.abs();
        if s.is_empty() {
            if neg {
                s.push('-');
            }
        } else {
            s.push_str(if neg { " - " } else { " + " });
        }
        if !a.is_one() {
            let _ = write!(s, "{a}");
        }
        s.push_str(name);
    }
    let c = &row[0];
    if s.is_empty() {
        let _ = write!(s, "{c}");
    } else if !c.is_zero() {
        let _ = write!(s, " {} {}", if c.is_neg() { "-" } else { "+" }, c.abs());
    }
    s
}

fn tuple_text(space: &Space, names: &[String]) -> String {
    let np = space.params.len();
    let n = space.range.name.clone().unwrap_or_default();
    format!("{n}[{}]", names[np..].join(", "))
}

fn var_names(space: &Space) -> Vec<String> {
    let mut v: Vec<String> = space.params.to_vec();
    v.extend(space.print_names());
    v
}

fn param_prefix(params: &[String]) -> String {
    if params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", params.join(", "))
    }
}

impl Schedule {
    /// Whether some outermost band of the tree (below sequences and sets)
    /// starts with a coincident member: the only way its code can have a
    /// parallel outer loop.
    pub fn outer_coincident(&self) -> bool {
        self.root.outer_coincident()
    }

    /// The parameters of the schedule.
    pub fn params(&self) -> &[String] {
        self.domain.params()
    }

    fn filter_text(&self, stmts: &[usize]) -> String {
        let parts: Vec<String> = stmts
            .iter()
            .map(|&s| {
                let sp = &self.statements[s];
                tuple_text(sp, &var_names(sp))
            })
            .collect();
        format!("{}{{ {} }}", param_prefix(self.params()), parts.join("; "))
    }

    fn band_text(&self, b: &Band) -> String {
        let mut members = Vec::new();
        for (j, m) in b.members.iter().enumerate() {
            let div = &b.divisors[j];
            let parts: Vec<String> = b
                .statements
                .iter()
                .zip(m)
                .map(|(&s, row)| {
                    let sp = &self.statements[s];
                    let names = var_names(sp);
                    let e = write_expr(row, &names);
                    let e = if div.is_one() {
                        e
                    } else {
                        format!("floor(({e})/{div})")
                    };
                    format!("{} -> [({e})]", tuple_text(sp, &names))
                })
                .collect();
            members.push(format!("{{ {} }}", parts.join("; ")));
        }
        format!("{}[{}]", param_prefix(self.params()), members.join(", "))
    }

    fn write_node(&self, out: &mut String, node: &Node, ind: usize) {
        let pad = " ".repeat(ind);
        match node {
            Node::Leaf => {}
            Node::Band(b) => {
                let _ = writeln!(out, "{pad}schedule: \"{}\"", self.band_text(b));
                let _ = writeln!(out, "{pad}permutable: {}", b.permutable as u8);
                let c: Vec<String> = b
                    .coincident
                    .iter()
                    .map(|&c| (c as u8).to_string())
                    .collect();
                let _ = writeln!(out, "{pad}coincident: [ {} ]", c.join(", "));
                if !matches!(*b.child, Node::Leaf) {
                    let _ = writeln!(out, "{pad}child:");
                    self.write_node(out, &b.child, ind + 2);
                }
            }
            Node::Sequence(fs) | Node::Set(fs) => {
                let kw = if matches!(node, Node::Set(_)) {
                    "set"
                } else {
                    "sequence"
                };
                let _ = writeln!(out, "{pad}{kw}:");
                for f in fs {
                    let _ = writeln!(
                        out,
                        "{pad}- filter: \"{}\"",
                        self.filter_text(&f.statements)
                    );
                    if !matches!(f.child, Node::Leaf) {
                        let _ = writeln!(out, "{pad}  child:");
                        self.write_node(out, &f.child, ind + 4);
                    }
                }
            }
        }
    }

    /// The time rows of statement `s` along its path (sequence positions as
    /// constants), each with its divisor (the time is `floor(row / divisor)`).
    pub fn time_rows(&self, s: usize) -> Vec<(Row, Int)> {
        let width = 1 + self.statements[s].n_vars();
        let mut rows = Vec::new();
        let mut node = &self.root;
        loop {
            match node {
                Node::Leaf => break,
                Node::Band(b) => {
                    let Some(k) = b.statements.iter().position(|&t| t == s) else {
                        break;
                    };
                    for (m, d) in b.members.iter().zip(&b.divisors) {
                        rows.push((m[k].clone(), d.clone()));
                    }
                    node = &b.child;
                }
                Node::Sequence(fs) | Node::Set(fs) => {
                    let Some(i) = fs.iter().position(|f| f.statements.contains(&s)) else {
                        break;
                    };
                    let mut r = vec![Int::ZERO; width];
                    r[0] = Int::from(i as i64);
                    rows.push((r, Int::ONE));
                    node = &fs[i].child;
                }
            }
        }
        rows
    }

    /// The schedule as a union map from instances to times (padded with zeros to one length).
    pub fn to_union_map(&self) -> Result<UnionMap> {
        let all: Vec<Vec<(Row, Int)>> = (0..self.statements.len())
            .map(|s| self.time_rows(s))
            .collect();
        let len = all.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut um = UnionMap::empty(self.params().to_vec());
        for (s, rows) in all.iter().enumerate() {
            let sp = &self.statements[s];
            let space = Space::map(sp.params.clone(), sp.range.clone(), Tuple::anonymous(len));
            let mut b = BasicMap::universe(space);
            let np = sp.params.len();
            let nd = sp.range.dim();
            for t in 0..len {
                let mut eq = vec![Int::ZERO; b.row_len()];
                if let Some((r, d)) = rows.get(t) {
                    let mut num = vec![Int::ZERO; b.row_len()];
                    for (k, c) in r.iter().enumerate() {
                        num[k] = c.clone();
                    }
                    if d.is_one() {
                        eq = num;
                    } else {
                        let col = b.add_div(num, d.clone());
                        eq = vec![Int::ZERO; b.row_len()];
                        eq[col] = Int::ONE;
                    }
                }
                eq[1 + np + nd + t] = -Int::ONE;
                b.add_eq(eq);
            }
            let dom = self
                .domain
                .part(sp)
                .cloned()
                .unwrap_or_else(|| Map::empty(sp.clone()));
            let m = Map::from_basic(b).intersect_domain(&dom)?;
            um.add_map(m)?;
        }
        Ok(um)
    }
}

impl Schedule {
    /// Rectangular tiling: the first band on every path, if permutable with at
    /// least two members, becomes a tile band (`floor(row / size)`, sizes used
    /// in order, the last one repeated) over a point band (the original rows).
    /// Flags carry over: a floor of a non-negative (zero) distance is
    /// non-negative (zero).
    pub fn tile(&self, sizes: &[i64]) -> Result<Schedule> {
        if sizes.is_empty() || sizes.iter().any(|&s| s <= 0) {
            return Err(crate::error::Error::Invalid(
                "tile sizes must be positive".into(),
            ));
        }
        fn walk(n: &Node, sizes: &[i64]) -> Node {
            match n {
                Node::Band(b)
                    if b.permutable
                        && b.members.len() >= 2
                        && b.divisors.iter().all(|d| d.is_one()) =>
                {
                    let divisors = (0..b.members.len())
                        .map(|j| Int::from(sizes[j.min(sizes.len() - 1)]))
                        .collect();
                    Node::Band(Band {
                        divisors,
                        child: Box::new(Node::Band(b.clone())),
                        ..b.clone()
                    })
                }
                Node::Band(b) => Node::Band(b.clone()),
                Node::Sequence(fs) | Node::Set(fs) => {
                    let fs2 = fs
                        .iter()
                        .map(|f| Filter {
                            statements: f.statements.clone(),
                            child: walk(&f.child, sizes),
                        })
                        .collect();
                    if matches!(n, Node::Set(_)) {
                        Node::Set(fs2)
                    } else {
                        Node::Sequence(fs2)
                    }
                }
                Node::Leaf => Node::Leaf,
            }
        }
        Ok(Schedule {
            domain: self.domain.clone(),
            statements: self.statements.clone(),
            root: walk(&self.root, sizes),
        })
    }
}

impl fmt::Display for Schedule {
    /// isl's YAML schedule tree (block style), readable by `isl_schedule_read_from_str`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let _ = writeln!(out, "domain: \"{}\"", self.domain);
        if !matches!(self.root, Node::Leaf) {
            let _ = writeln!(out, "child:");
            self.write_node(&mut out, &self.root, 2);
        }
        f.write_str(&out)
    }
}
