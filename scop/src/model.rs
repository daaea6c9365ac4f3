//! The polyhedral model ([`Scop`]) and its printing as isl union maps.

use crate::affine::{Affine, Formula};
use crate::ast::{AssignOp, BinOp, UnOp};
use crate::error::Pos;
use std::collections::BTreeSet;

/// C types of values in statement bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `int` (64-bit in the interpreter).
    Int,
    /// `double`.
    Double,
}

/// Kinds of access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// A read.
    Read,
    /// A write that certainly happens whenever the statement instance runs.
    MustWrite,
    /// A write that may happen (never produced for static-control code, but
    /// part of the model's vocabulary).
    MayWrite,
    /// A kill: the element's value is dead from here on (never produced by
    /// the front end today, but part of the model's vocabulary).
    Kill,
}

impl AccessKind {
    /// The kind's name in the model's JSON (`read`, `must_write`, `may_write`, `kill`).
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::MustWrite => "must_write",
            AccessKind::MayWrite => "may_write",
            AccessKind::Kill => "kill",
        }
    }
}

/// One array reference of a statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Access {
    /// Read or write.
    pub kind: AccessKind,
    /// Array name (scalars are zero-dimensional arrays).
    pub array: String,
    /// Affine subscripts over the statement's iterators and the parameters.
    pub index: Vec<Affine>,
    /// Reference identifier (`R0`, `R1`, ... over the whole scop). The read and
    /// the write of a compound assignment (`+=`) share one identifier.
    pub ref_id: String,
    /// Source position of the reference.
    pub pos: Pos,
}

/// An expression tree of a statement body. Reads refer to the statement's
/// accesses by index.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `target op value` (the whole statement).
    Assign {
        /// Assignment operator.
        op: AssignOp,
        /// Index of the must-write access.
        target: usize,
        /// Right-hand side (already converted to `double`).
        value: Box<Expr>,
    },
    /// A read access (index into [`Statement::accesses`]).
    Access(usize),
    /// A `double` literal.
    Double(f64),
    /// An `int` literal.
    Int(i64),
    /// An integer iterator or parameter.
    IntVar(String),
    /// A read-only `double` scalar parameter.
    DoubleParam(String),
    /// Unary operation (`-`, `+`) of result type `ty`.
    Unary {
        /// Operator.
        op: UnOp,
        /// Result type.
        ty: Ty,
        /// Operand.
        arg: Box<Expr>,
    },
    /// Binary arithmetic; both operands have type `ty` (conversions explicit).
    Binary {
        /// Operator.
        op: BinOp,
        /// Operand and result type.
        ty: Ty,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// Call of `sqrt`, `exp`, `fabs`, `fmin`, `fmax`, `pow` (double) or
    /// `min`/`max` (int).
    Call {
        /// Function name.
        name: String,
        /// Result type.
        ty: Ty,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Conversion of an `int` to `double`.
    ToDouble(Box<Expr>),
}

/// One schedule dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedDim {
    /// A constant (textual position in a sequence).
    Const(i64),
    /// `sign * iterator` (sign is -1 for decrementing loops).
    Iter(String, i64),
}

/// A statement of the scop.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// `S0`, `S1`, ... in textual order.
    pub name: String,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// Iteration domain constraints.
    pub domain: Formula,
    /// Original schedule (padded to the scop's schedule depth).
    pub schedule: Vec<SchedDim>,
    /// All references, in evaluation order (writes first).
    pub accesses: Vec<Access>,
    /// The statement as an expression tree.
    pub body: Expr,
    /// Source position.
    pub pos: Pos,
}

/// Where an array comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayOrigin {
    /// The k-th parameter of the signature.
    Param(usize),
    /// A written `double` scalar parameter (zero-dimensional).
    ScalarParam(usize),
    /// A local `double` scalar (zero-dimensional).
    Local,
}

/// An array of the scop.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// Name.
    pub name: String,
    /// Extents (affine in the parameters); empty for scalars.
    pub dims: Vec<Affine>,
    /// Element type (`double`).
    pub element_type: String,
    /// Origin.
    pub origin: ArrayOrigin,
}

/// The polyhedral model of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Scop {
    /// Kernel function name.
    pub function: String,
    /// Integer parameters in signature order.
    pub params: Vec<String>,
    /// Read-only `double` scalar parameters.
    pub scalar_params: Vec<String>,
    /// Constraints on the parameters.
    pub context: Formula,
    /// Arrays: array parameters in signature order, then written scalar
    /// parameters, then local scalars.
    pub arrays: Vec<Array>,
    /// Statements in textual order.
    pub statements: Vec<Statement>,
}

impl Scop {
    fn exists_prefix(&self) -> String {
        let mut names: BTreeSet<String> = self.params.iter().cloned().collect();
        for s in &self.statements {
            names.extend(s.iterators.iter().cloned());
        }
        let mut p = "e".to_string();
        while names.iter().any(|n| {
            n.strip_prefix(p.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            p.push('e');
        }
        p
    }

    fn wrap(&self, body: &str) -> String {
        if self.params.is_empty() {
            format!("{{ {body} }}")
        } else {
            format!("[{}] -> {{ {body} }}", self.params.join(", "))
        }
    }

    fn formula_text(&self, f: &Formula) -> Option<String> {
        let prefix = self.exists_prefix();
        let mut k = 0;
        f.to_isl(&mut || {
            k += 1;
            format!("{prefix}{}", k - 1)
        })
    }

    fn with_domain(&self, s: &Statement, head: String) -> String {
        match self.formula_text(&s.domain) {
            Some(c) => format!("{head} : {c}"),
            None => head,
        }
    }

    /// The context, e.g. `[N] -> { : N >= 0 }`.
    pub fn context_text(&self) -> String {
        match self.formula_text(&self.context) {
            Some(c) => self.wrap(&format!(": {c}")),
            None => self.wrap(""),
        }
    }

    /// The union of the iteration domains, e.g.
    /// `[N] -> { S0[i] : 0 <= i < N; S1[] }`.
    ///
    /// ```
    /// let scop = scop::build_scop("void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// assert_eq!(scop.domain_text(), "[N] -> { S0[i] : 0 <= i < N }");
    /// ```
    pub fn domain_text(&self) -> String {
        let parts: Vec<String> = self
            .statements
            .iter()
            .map(|s| self.with_domain(s, s.tuple()))
            .collect();
        self.wrap(&parts.join("; "))
    }

    /// The original schedule as a union map to a common time space.
    ///
    /// ```
    /// let scop = scop::build_scop("void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// assert_eq!(scop.schedule_text(), "[N] -> { S0[i] -> [i] }");
    /// ```
    pub fn schedule_text(&self) -> String {
        let parts: Vec<String> = self
            .statements
            .iter()
            .map(|s| {
                let dims: Vec<String> = s
                    .schedule
                    .iter()
                    .map(|d| match d {
                        SchedDim::Const(c) => c.to_string(),
                        SchedDim::Iter(v, 1) => v.clone(),
                        SchedDim::Iter(v, k) => Affine::var(v).scale(*k).to_isl_compact(),
                    })
                    .collect();
                format!("{} -> [{}]", s.tuple(), dims.join(","))
            })
            .collect();
        self.wrap(&parts.join("; "))
    }

    fn access_text(&self, kind: AccessKind, tagged: bool) -> String {
        let mut parts = Vec::new();
        for s in &self.statements {
            for a in &s.accesses {
                let matches = a.kind == kind
                    || (kind == AccessKind::MayWrite && a.kind == AccessKind::MustWrite);
                if !matches {
                    continue;
                }
                let head = if tagged {
                    format!("[{} -> {}[]] -> {}", s.tuple(), a.ref_id, a.target())
                } else {
                    format!("{} -> {}", s.tuple(), a.target())
                };
                parts.push(self.with_domain(s, head));
            }
        }
        self.wrap(&parts.join("; "))
    }

    /// Read access relation `{ S[i] -> A[f(i)] }`.
    pub fn read_text(&self) -> String {
        self.access_text(AccessKind::Read, false)
    }
    /// Must-write access relation.
    pub fn must_write_text(&self) -> String {
        self.access_text(AccessKind::MustWrite, false)
    }
    /// May-write access relation (a superset of the must-writes).
    pub fn may_write_text(&self) -> String {
        self.access_text(AccessKind::MayWrite, false)
    }
    /// Reads tagged with reference ids: `{ [S[i] -> R0[]] -> A[i] }`.
    pub fn tagged_read_text(&self) -> String {
        self.access_text(AccessKind::Read, true)
    }
    /// Tagged must-writes.
    pub fn tagged_must_write_text(&self) -> String {
        self.access_text(AccessKind::MustWrite, true)
    }
    /// Tagged may-writes.
    pub fn tagged_may_write_text(&self) -> String {
        self.access_text(AccessKind::MayWrite, true)
    }

    /// The set of valid elements of an array, e.g.
    /// `[N] -> { A[i0, i1] : 0 <= i0 < N and 0 <= i1 < N }`.
    pub fn array_extent_text(&self, a: &Array) -> String {
        let mut base = "i".to_string();
        while self.params.iter().any(|n| {
            n.strip_prefix(base.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            base.push('i');
        }
        let vars: Vec<String> = (0..a.dims.len()).map(|k| format!("{base}{k}")).collect();
        let cons: Vec<Formula> = a
            .dims
            .iter()
            .zip(&vars)
            .map(|(d, v)| Formula::Range {
                lo: Affine::constant(0),
                var: v.clone(),
                hi: d.clone(),
                strict: true,
            })
            .collect();
        let head = format!("{}[{}]", a.name, vars.join(", "));
        match self.formula_text(&Formula::and(cons)) {
            Some(c) => self.wrap(&format!("{head} : {c}")),
            None => self.wrap(&head),
        }
    }

    /// All model texts in one value (see [`ModelTexts`]).
    pub fn texts(&self) -> ModelTexts {
        ModelTexts {
            params: self.params.clone(),
            context: self.context_text(),
            domain: self.domain_text(),
            schedule: self.schedule_text(),
            read: self.read_text(),
            must_write: self.must_write_text(),
            may_write: self.may_write_text(),
            tagged_read: self.tagged_read_text(),
            tagged_must_write: self.tagged_must_write_text(),
            tagged_may_write: self.tagged_may_write_text(),
        }
    }
}

/// The model as isl texts, ready to be parsed by a set engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelTexts {
    /// Parameter names.
    pub params: Vec<String>,
    /// Context set.
    pub context: String,
    /// Union of iteration domains.
    pub domain: String,
    /// Original schedule.
    pub schedule: String,
    /// Reads.
    pub read: String,
    /// Must-writes.
    pub must_write: String,
    /// May-writes.
    pub may_write: String,
    /// Tagged reads.
    pub tagged_read: String,
    /// Tagged must-writes.
    pub tagged_must_write: String,
    /// Tagged may-writes.
    pub tagged_may_write: String,
}

impl Statement {
    /// The statement's tuple, e.g. `S1[i,j]`.
    pub fn tuple(&self) -> String {
        format!("{}[{}]", self.name, self.iterators.join(","))
    }

    /// The body as C-like text, e.g. `C[i,j] = (C[i,j] * beta)`.
    pub fn body_text(&self) -> String {
        self.expr_text(&self.body)
    }

    fn expr_text(&self, e: &Expr) -> String {
        match e {
            Expr::Assign { op, target, value } => format!(
                "{} {} {}",
                self.accesses[*target].target(),
                op.as_str(),
                self.expr_text(value)
            ),
            Expr::Access(k) => self.accesses[*k].target(),
            Expr::Double(v) => format!("{v:?}"),
            Expr::Int(v) => v.to_string(),
            Expr::IntVar(n) | Expr::DoubleParam(n) => n.clone(),
            Expr::Unary { op, arg, .. } => format!(
                "{}{}",
                match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                },
                self.expr_text(arg)
            ),
            Expr::Binary { op, lhs, rhs, .. } => format!(
                "({} {} {})",
                self.expr_text(lhs),
                op.as_str(),
                self.expr_text(rhs)
            ),
            Expr::Call { name, args, .. } => format!(
                "{name}({})",
                args.iter()
                    .map(|a| self.expr_text(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::ToDouble(a) => format!("(double){}", self.expr_text(a)),
        }
    }
}

impl Access {
    /// The accessed element in isl notation, e.g. `A[i-1,j]` or `s[]`.
    pub fn target(&self) -> String {
        let idx: Vec<String> = self.index.iter().map(|a| a.to_isl_compact()).collect();
        format!("{}[{}]", self.array, idx.join(","))
    }
}
