//! Abstract syntax tree of the accepted C subset, with source positions.

use crate::error::Pos;

/// Scalar base types of the subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseTy {
    /// An integer type (`int`, `long`, `unsigned`, `unsigned long`).
    Int(IntTy),
    /// C `double`.
    Double,
}

/// The C integer types of the subset, with their LP64 widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IntTy {
    /// `int`: 32-bit two's complement.
    Int,
    /// `unsigned` (`unsigned int`): 32-bit, arithmetic modulo 2^32.
    UInt,
    /// `long` (`long int`, `long long`): 64-bit two's complement.
    Long,
    /// `unsigned long` (`unsigned long long`): 64-bit, modulo 2^64.
    ULong,
}

impl IntTy {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntTy::Int | IntTy::UInt => 32,
            IntTy::Long | IntTy::ULong => 64,
        }
    }
    /// True for the signed types.
    pub fn signed(self) -> bool {
        matches!(self, IntTy::Int | IntTy::Long)
    }
    /// The smallest value.
    pub fn lowest(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }
    /// The largest value.
    pub fn highest(self) -> i128 {
        if self.signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }
    /// The type of a binary arithmetic operation on `self` and `other`
    /// (C's usual arithmetic conversions, LP64).
    pub fn common(self, other: IntTy) -> IntTy {
        use IntTy::*;
        match (Ord::max(self, other), Ord::min(self, other)) {
            (ULong, _) => ULong,
            (Long, UInt) | (Long, Int) | (Long, Long) => Long,
            (UInt, _) => UInt,
            _ => Int,
        }
    }
    /// The C spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            IntTy::Int => "int",
            IntTy::UInt => "unsigned",
            IntTy::Long => "long",
            IntTy::ULong => "unsigned long",
        }
    }
    /// Reduces the mathematical value `v` to the type (two's complement or
    /// modulo wrapping), as the C program computes it.
    pub fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits();
        let r = v.rem_euclid(m);
        if self.signed() && r > self.highest() {
            r - m
        } else {
            r
        }
    }
}

/// A kernel parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: ParamKind,
    /// Where it is declared.
    pub pos: Pos,
}

/// Kinds of kernel parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// `int N`, `long N`, `unsigned N`: a size parameter.
    Int(IntTy),
    /// `double alpha`: a scalar.
    Double,
    /// `double A[N][M]`: an array with the given extents.
    Array(Vec<Expr>),
    /// `double A[][20][30]`: an array without its outermost extent (the
    /// inner extents are given).
    OpenArray(Vec<Expr>),
    /// `double *A` or `double *restrict A`, accessed with one (possibly
    /// linearized) subscript.
    Pointer {
        /// Declared `restrict`: it aliases no other parameter.
        restrict: bool,
    },
}

/// The kernel function.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Parameters in signature order.
    pub params: Vec<Param>,
    /// The body's statements.
    pub body: Vec<Stmt>,
    /// Where the function's name is.
    pub pos: Pos,
}

/// A statement with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it starts.
    pub pos: Pos,
}

/// Assignment operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
    /// `/=`
    Div,
}

impl AssignOp {
    /// The C spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            AssignOp::Set => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
            AssignOp::Div => "/=",
        }
    }
    /// The binary operator of a compound assignment.
    pub fn binop(self) -> Option<BinOp> {
        match self {
            AssignOp::Set => None,
            AssignOp::Add => Some(BinOp::Add),
            AssignOp::Sub => Some(BinOp::Sub),
            AssignOp::Mul => Some(BinOp::Mul),
            AssignOp::Div => Some(BinOp::Div),
        }
    }
}

/// Statement kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `int i;` or `double s = e;` (one declarator each).
    Decl {
        /// Declared type.
        ty: BaseTy,
        /// Variable name.
        name: String,
        /// Optional initializer.
        init: Option<Expr>,
    },
    /// `lhs op rhs;`
    Assign {
        /// A scalar variable or an array element.
        lhs: Expr,
        /// The operator.
        op: AssignOp,
        /// The right-hand side.
        rhs: Expr,
    },
    /// `for (int var = init; cond; var += step) body`
    For {
        /// The iterator.
        var: String,
        /// Whether the iterator is declared in the `for` header.
        declared: bool,
        /// Initial value.
        init: Expr,
        /// Loop condition.
        cond: Expr,
        /// Step (non-zero; negative for decrementing loops).
        step: i64,
        /// The body.
        body: Box<Stmt>,
        /// Preceded by `#pragma omp parallel for`: different iterations of
        /// one execution of the loop are unordered.
        parallel: bool,
    },
    /// `double tmp[N][M];`: a local array (C99 variable-length array),
    /// declared in the function body outside every loop, uninitialised.
    ArrayDecl {
        /// Its name.
        name: String,
        /// Its extents, affine in the integer parameters.
        dims: Vec<Expr>,
    },
    /// `if (cond) then_s else else_s`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then_s: Box<Stmt>,
        /// Optional else branch.
        else_s: Option<Box<Stmt>>,
    },
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `;`
    Empty,
    /// `abort();`, `printf("...", x);`: a call of a function the front end
    /// does not know, as a statement; or `return;`, an early exit. Only
    /// allowed on an error path (the branch containing it is dropped from
    /// the model and the parameters under which it runs become a
    /// restriction); a call's arguments are not kept.
    Call {
        /// The function's name (`return` for an early return).
        name: String,
        /// True for `return;`: the kernel ends here (no error).
        returns: bool,
    },
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `+e`
    Plus,
    /// `!e`
    Not,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The C spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
    /// True for the comparison operators.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

/// An expression with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub pos: Pos,
}

/// Expression kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Integer literal.
    Int(i64),
    /// Floating literal (value and spelling).
    Float(f64, String),
    /// A variable.
    Var(String),
    /// `A[i][j]`
    Index(String, Vec<Expr>),
    /// Unary operation.
    Unary(UnOp, Box<Expr>),
    /// Binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Call of a known math function or of `min`/`max`.
    Call(String, Vec<Expr>),
    /// `(double) e`
    CastDouble(Box<Expr>),
}

/// The functions a kernel may call, with their arities.
pub const KNOWN_FUNCTIONS: &[(&str, usize)] = &[
    ("sqrt", 1),
    ("exp", 1),
    ("fabs", 1),
    ("fmin", 2),
    ("fmax", 2),
    ("pow", 2),
    ("min", 2),
    ("max", 2),
    ("MIN", 2),
    ("MAX", 2),
];

/// True for the integer `min`/`max` helpers (`min`, `max`, `MIN`, `MAX`).
pub fn is_int_minmax(name: &str) -> bool {
    matches!(name, "min" | "max" | "MIN" | "MAX")
}

/// True if the statement contains a call of an unknown function or a
/// `return` (an error path: the front end drops such a branch from the
/// model).
pub fn contains_call(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Call { .. } => true,
        StmtKind::For { body, .. } => contains_call(body),
        StmtKind::If { then_s, else_s, .. } => {
            contains_call(then_s) || else_s.as_ref().is_some_and(|e| contains_call(e))
        }
        StmtKind::Block(b) => b.iter().any(contains_call),
        _ => false,
    }
}
