//! C integer arithmetic for the reference interpreter: values of `int`,
//! `unsigned`, `long` and `unsigned long` held exactly in `i128`, the
//! usual arithmetic conversions, unsigned results reduced modulo
//! `2^bits`, and signed overflow reported as the undefined behaviour it
//! is (never silently computed in a wider type).

use crate::ast::{BinOp, IntTy};
use crate::error::{Error, Pos};

/// The value of `x` converted to `ty` (C's conversion: modulo `2^bits`
/// into the type's range; for a signed type out of range this is gcc's
/// implementation-defined choice).
pub(crate) fn convert(x: i128, ty: IntTy) -> i128 {
    if ty.lowest() <= x && x <= ty.highest() {
        return x;
    }
    let m = 1i128 << ty.bits();
    let r = x.rem_euclid(m);
    if ty.signed() && r >= m / 2 {
        r - m
    } else {
        r
    }
}

/// The result `x` of an operation computed in `ty`: unsigned wraps,
/// signed overflow is an error (undefined behaviour).
pub(crate) fn result(x: i128, ty: IntTy, pos: Pos, what: &str) -> Result<i128, Error> {
    if !ty.signed() {
        return Ok(convert(x, ty));
    }
    if x < ty.lowest() || x > ty.highest() {
        return Err(Error::runtime(
            pos,
            format!(
                "signed integer overflow: {what} is {x}, outside the range of {} (undefined behaviour)",
                ty.as_str()
            ),
        ));
    }
    Ok(x)
}

/// The type of an integer literal.
pub(crate) fn literal_type(v: i64) -> IntTy {
    if i32::try_from(v).is_ok() {
        IntTy::Int
    } else {
        IntTy::Long
    }
}

/// `a op b` with C's usual arithmetic conversions; comparisons give an
/// `int` 0 or 1. `&&` and `||` are the caller's (they short-circuit).
pub(crate) fn binary(
    op: BinOp,
    (a, ta): (i128, IntTy),
    (b, tb): (i128, IntTy),
    pos: Pos,
) -> Result<(i128, IntTy), Error> {
    let ty = ta.common(tb);
    let (a, b) = (convert(a, ty), convert(b, ty));
    let what = || format!("`{a} {} {b}`", op.as_str());
    let exact = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        // two 64-bit values: the product of signed ones fits; unsigned
        // ones wrap modulo 2^128, which keeps the low 64 bits
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Mod => {
            if b == 0 {
                return Err(Error::runtime(pos, "integer division by zero"));
            }
            // truncating, as C
            if op == BinOp::Div {
                a / b
            } else {
                a % b
            }
        }
        BinOp::Lt => return Ok(((a < b) as i128, IntTy::Int)),
        BinOp::Le => return Ok(((a <= b) as i128, IntTy::Int)),
        BinOp::Gt => return Ok(((a > b) as i128, IntTy::Int)),
        BinOp::Ge => return Ok(((a >= b) as i128, IntTy::Int)),
        BinOp::Eq => return Ok(((a == b) as i128, IntTy::Int)),
        BinOp::Ne => return Ok(((a != b) as i128, IntTy::Int)),
        BinOp::And => return Ok(((a != 0 && b != 0) as i128, IntTy::Int)),
        BinOp::Or => return Ok(((a != 0 || b != 0) as i128, IntTy::Int)),
    };
    Ok((result(exact, ty, pos, &what())?, ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> Pos {
        Pos { line: 1, col: 1 }
    }

    #[test]
    fn unsigned_wraps_and_signed_overflow_is_an_error() {
        let u = IntTy::UInt;
        assert_eq!(
            binary(BinOp::Add, (4294967295, u), (1, IntTy::Int), at()).unwrap(),
            (0, u)
        );
        assert_eq!(
            binary(BinOp::Sub, (0, u), (1, IntTy::Int), at()).unwrap(),
            (4294967295, u)
        );
        // -1 < 0u is false: -1 becomes 2^32 - 1
        assert_eq!(
            binary(BinOp::Lt, (-1, IntTy::Int), (0, u), at()).unwrap(),
            (0, IntTy::Int)
        );
        let e = binary(
            BinOp::Add,
            (i32::MAX as i128, IntTy::Int),
            (1, IntTy::Int),
            at(),
        );
        assert!(e.unwrap_err().to_string().contains("overflow"));
        assert!(binary(
            BinOp::Div,
            (i32::MIN as i128, IntTy::Int),
            (-1, IntTy::Int),
            at()
        )
        .is_err());
        // in long the same sum is fine
        assert_eq!(
            binary(
                BinOp::Add,
                (i32::MAX as i128, IntTy::Long),
                (1, IntTy::Int),
                at()
            )
            .unwrap(),
            (1 << 31, IntTy::Long)
        );
        // unsigned long products wrap modulo 2^64
        let ul = IntTy::ULong;
        assert_eq!(
            binary(BinOp::Mul, ((1 << 63) + 1, ul), (4, ul), at()).unwrap(),
            (4, ul)
        );
        assert_eq!(
            binary(BinOp::Div, (-7, IntTy::Int), (2, IntTy::Int), at())
                .unwrap()
                .0,
            -3
        );
        assert_eq!(
            binary(BinOp::Mod, (-7, IntTy::Int), (2, IntTy::Int), at())
                .unwrap()
                .0,
            -1
        );
    }

    #[test]
    fn conversions_reduce_modulo_the_width() {
        assert_eq!(convert(-1, IntTy::UInt), 4294967295);
        assert_eq!(convert(4294967295, IntTy::Int), -1);
        assert_eq!(convert(1 << 40, IntTy::Int), 0);
        assert_eq!(convert(-5, IntTy::Long), -5);
        assert_eq!(convert(-1, IntTy::ULong), u64::MAX as i128);
    }
}
