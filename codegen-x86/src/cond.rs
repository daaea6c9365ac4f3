//! Condition codes for `jcc` and `cmovcc`.
#![forbid(unsafe_code)]

/// A condition code (the low nibble of `Jcc`/`CMOVcc` opcodes).
///
/// ```
/// use codegen_x86::Cond;
/// assert_eq!(Cond::L.code(), 0xc);
/// assert_eq!(Cond::L.negate(), Cond::Ge);
/// assert_eq!(Cond::from_suffix("ne"), Some(Cond::Ne));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Overflow.
    O,
    /// No overflow.
    No,
    /// Below (unsigned `<`, carry).
    B,
    /// Above or equal (unsigned `>=`).
    Ae,
    /// Equal / zero.
    E,
    /// Not equal / not zero.
    Ne,
    /// Below or equal (unsigned `<=`).
    Be,
    /// Above (unsigned `>`).
    A,
    /// Sign.
    S,
    /// No sign.
    Ns,
    /// Parity (unordered after `vucomisd`).
    P,
    /// No parity.
    Np,
    /// Less (signed `<`).
    L,
    /// Greater or equal (signed `>=`).
    Ge,
    /// Less or equal (signed `<=`).
    Le,
    /// Greater (signed `>`).
    G,
}

impl Cond {
    /// All conditions in encoding order.
    pub const ALL: [Cond; 16] = [
        Cond::O,
        Cond::No,
        Cond::B,
        Cond::Ae,
        Cond::E,
        Cond::Ne,
        Cond::Be,
        Cond::A,
        Cond::S,
        Cond::Ns,
        Cond::P,
        Cond::Np,
        Cond::L,
        Cond::Ge,
        Cond::Le,
        Cond::G,
    ];

    /// The 4-bit condition encoding.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The opposite condition (flips the low bit of the encoding).
    pub fn negate(self) -> Cond {
        Cond::ALL[usize::from(self.code() ^ 1)]
    }

    /// The mnemonic suffix, e.g. `"ge"` as in `jge`.
    pub fn suffix(self) -> &'static str {
        const S: [&str; 16] = [
            "o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g",
        ];
        S[usize::from(self.code())]
    }

    /// Parses a canonical suffix produced by [`Cond::suffix`].
    pub fn from_suffix(s: &str) -> Option<Cond> {
        Cond::ALL.iter().copied().find(|c| c.suffix() == s)
    }
}
