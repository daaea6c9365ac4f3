//! The calculator's syntax tree. Every node carries the position of the
//! token that introduced it (its operator, or its first token).

use crate::error::Pos;

/// A statement of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `X := expr;` (prints nothing).
    Assign {
        /// The variable.
        name: String,
        /// The value.
        expr: Expr,
        /// Position of the variable.
        pos: Pos,
    },
    /// `print expr;` (prints the value).
    Print {
        /// The value.
        expr: Expr,
        /// Position of `print`.
        pos: Pos,
    },
    /// `expr;` (prints the value).
    Expr {
        /// The value.
        expr: Expr,
        /// Position of its first token.
        pos: Pos,
    },
}

impl Stmt {
    /// Position of the statement's first token.
    pub fn pos(&self) -> Pos {
        match self {
            Stmt::Assign { pos, .. } | Stmt::Print { pos, .. } | Stmt::Expr { pos, .. } => *pos,
        }
    }
}

/// An expression and its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Position of its operator (or its first token for operands).
    pub pos: Pos,
}

/// The shapes of expressions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A set or map literal in isl notation (the text, handed to the engine).
    Literal(String),
    /// An integer.
    Int(String),
    /// A string.
    Str(String),
    /// A variable.
    Var(String),
    /// A list `[a, b, ...]`.
    List(Vec<Expr>),
    /// A prefix operator such as `lexmin`.
    Unary(UnOp, Box<Expr>),
    /// Negation of an integer, `-e`.
    Neg(Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e^-1`.
    Inverse(Box<Expr>),
    /// `e^+`: the transitive closure, evaluated to the list `[closure, is_exact]`.
    Closure(Box<Expr>),
    /// `e^k` for an integer constant `k >= 1`.
    Power(Box<Expr>, u64),
    /// Application `f(a)`.
    Apply(Box<Expr>, Box<Expr>),
    /// Indexing `l[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// Dataflow: `last MUST any MAY kill KILL before SINK under SCHEDULE`
    /// (`last` and `any` parts optional, but at least one; `kill` optional).
    Flow(Box<Flow>),
    /// Scheduling: `schedule DOMAIN respecting VALIDITY minimizing PROXIMITY`.
    Schedule(Box<[Expr; 3]>),
    /// AST generation: `codegen SCHEDULE [using OPTIONS]`.
    Codegen(Box<Expr>, Option<Box<Expr>>),
}

/// The operands of a dataflow expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Must sources (`last ...`).
    pub must: Option<Expr>,
    /// May sources (`any ...`).
    pub may: Option<Expr>,
    /// Kills (`kill ...`).
    pub kill: Option<Expr>,
    /// Sinks (`before ...`).
    pub sink: Expr,
    /// Schedule (`under ...`).
    pub schedule: Expr,
}

/// Prefix operators (named, as in iscc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `lexmin`
    Lexmin,
    /// `lexmax`
    Lexmax,
    /// `domain`
    Domain,
    /// `range`
    Range,
    /// `deltas`
    Deltas,
    /// `deltas_map`
    DeltasMap,
    /// `domain_map`
    DomainMap,
    /// `range_map`
    RangeMap,
    /// `identity`
    Identity,
    /// `coalesce`
    Coalesce,
    /// `sample`
    Sample,
    /// `card`
    Card,
    /// `sum`
    Sum,
    /// `ub` (upper bound of a quasi-polynomial)
    Ub,
    /// `lb` (lower bound of a quasi-polynomial)
    Lb,
    /// `params`
    Params,
    /// `wrap`
    Wrap,
    /// `unwrap`
    Unwrap,
    /// `affine_hull` or `aff`
    AffineHull,
    /// `convex_hull` or `hull`
    ConvexHull,
    /// `typeof`
    Typeof,
    /// `is_empty`
    IsEmpty,
    /// `complement`
    Complement,
    /// `is_single_valued`
    IsSingleValued,
    /// `is_injective`
    IsInjective,
}

impl UnOp {
    /// Every prefix operator.
    pub const ALL: [UnOp; 25] = [
        UnOp::Lexmin,
        UnOp::Lexmax,
        UnOp::Domain,
        UnOp::Range,
        UnOp::Deltas,
        UnOp::DeltasMap,
        UnOp::DomainMap,
        UnOp::RangeMap,
        UnOp::Identity,
        UnOp::Coalesce,
        UnOp::Sample,
        UnOp::Card,
        UnOp::Sum,
        UnOp::Ub,
        UnOp::Lb,
        UnOp::Params,
        UnOp::Wrap,
        UnOp::Unwrap,
        UnOp::AffineHull,
        UnOp::ConvexHull,
        UnOp::Typeof,
        UnOp::IsEmpty,
        UnOp::Complement,
        UnOp::IsSingleValued,
        UnOp::IsInjective,
    ];

    /// The operator named `word`, if any.
    pub fn from_name(word: &str) -> Option<UnOp> {
        use UnOp::*;
        Some(match word {
            "lexmin" => Lexmin,
            "lexmax" => Lexmax,
            "domain" | "dom" => Domain,
            "range" | "ran" => Range,
            "deltas" => Deltas,
            "deltas_map" => DeltasMap,
            "domain_map" => DomainMap,
            "range_map" => RangeMap,
            "identity" => Identity,
            "coalesce" => Coalesce,
            "sample" => Sample,
            "card" => Card,
            "sum" => Sum,
            "ub" => Ub,
            "lb" => Lb,
            "params" => Params,
            "wrap" => Wrap,
            "unwrap" => Unwrap,
            "affine_hull" | "aff" => AffineHull,
            "convex_hull" | "hull" => ConvexHull,
            "typeof" => Typeof,
            "is_empty" => IsEmpty,
            "complement" => Complement,
            "is_single_valued" => IsSingleValued,
            "is_injective" => IsInjective,
            _ => return None,
        })
    }

    /// The operator's name.
    pub fn name(self) -> &'static str {
        use UnOp::*;
        match self {
            Lexmin => "lexmin",
            Lexmax => "lexmax",
            Domain => "domain",
            Range => "range",
            Deltas => "deltas",
            DeltasMap => "deltas_map",
            DomainMap => "domain_map",
            RangeMap => "range_map",
            Identity => "identity",
            Coalesce => "coalesce",
            Sample => "sample",
            Card => "card",
            Sum => "sum",
            Ub => "ub",
            Lb => "lb",
            Params => "params",
            Wrap => "wrap",
            Unwrap => "unwrap",
            AffineHull => "affine_hull",
            ConvexHull => "convex_hull",
            Typeof => "typeof",
            IsEmpty => "is_empty",
            Complement => "complement",
            IsSingleValued => "is_single_valued",
            IsInjective => "is_injective",
        }
    }
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+` union (or integer sum)
    Union,
    /// `-` difference (or integer difference)
    Diff,
    /// `*` intersection (set * map: restrict the domain; or integer product)
    Inter,
    /// `%` gist
    Gist,
    /// `.` join: apply the left relation, then the right one
    Join,
    /// `->` product of two sets into a relation
    Product,
    /// `cross` cross product
    Cross,
    /// `=` equality test
    Eq,
    /// `<=` subset test
    Le,
    /// `>=` superset test
    Ge,
    /// `<` strict subset test
    Lt,
    /// `>` strict superset test
    Gt,
    /// `<<` lexicographically smaller
    LexLt,
    /// `<<=` lexicographically smaller or equal
    LexLe,
    /// `>>` lexicographically greater
    LexGt,
    /// `>>=` lexicographically greater or equal
    LexGe,
    /// `->*` restrict the range of a map to a set
    RangeInter,
    /// `->-` remove the pairs whose range point is in a set
    RangeDiff,
    /// `after`: `M after N` is `N . M`
    After,
}

impl BinOp {
    /// Every binary operator.
    pub const ALL: [BinOp; 19] = [
        BinOp::Union,
        BinOp::Diff,
        BinOp::Inter,
        BinOp::Gist,
        BinOp::Join,
        BinOp::Product,
        BinOp::Cross,
        BinOp::Eq,
        BinOp::Le,
        BinOp::Ge,
        BinOp::Lt,
        BinOp::Gt,
        BinOp::LexLt,
        BinOp::LexLe,
        BinOp::LexGt,
        BinOp::LexGe,
        BinOp::RangeInter,
        BinOp::RangeDiff,
        BinOp::After,
    ];

    /// The operator's symbol.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Union => "+",
            Diff => "-",
            Inter => "*",
            Gist => "%",
            Join => ".",
            Product => "->",
            Cross => "cross",
            Eq => "=",
            Le => "<=",
            Ge => ">=",
            Lt => "<",
            Gt => ">",
            LexLt => "<<",
            LexLe => "<<=",
            LexGt => ">>",
            LexGe => ">>=",
            RangeInter => "->*",
            RangeDiff => "->-",
            After => "after",
        }
    }

    /// Binding strength: higher binds tighter. All binary operators are left-associative.
    ///
    /// | level | operators |
    /// |---|---|
    /// | 1 | `= <= >= < >` (tests) |
    /// | 2 | `<< <<= >> >>=` (lexicographic order maps) |
    /// | 3 | `+ - ->-` |
    /// | 4 | `* % ->*` |
    /// | 5 | `-> cross` |
    /// | 6 | `. after` |
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Eq | Le | Ge | Lt | Gt => 1,
            LexLt | LexLe | LexGt | LexGe => 2,
            Union | Diff | RangeDiff => 3,
            Inter | Gist | RangeInter => 4,
            Product | Cross => 5,
            Join | After => 6,
        }
    }

    /// The operator written as `sym` (for `cross` and `after`, the keyword), if any.
    pub fn from_symbol(sym: &str) -> Option<BinOp> {
        use BinOp::*;
        Some(match sym {
            "+" => Union,
            "-" => Diff,
            "*" => Inter,
            "%" => Gist,
            "." => Join,
            "->" => Product,
            "cross" => Cross,
            "=" => Eq,
            "<=" => Le,
            ">=" => Ge,
            "<" => Lt,
            ">" => Gt,
            "<<" => LexLt,
            "<<=" => LexLe,
            ">>" => LexGt,
            ">>=" => LexGe,
            "->*" => RangeInter,
            "->-" => RangeDiff,
            "after" => After,
            _ => return None,
        })
    }
}
