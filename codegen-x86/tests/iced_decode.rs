//! Property test: random instructions are emitted, decoded with iced-x86, and
//! the decoded mnemonic, length and operands must match what was requested.

use codegen_x86::{Assembler, Cond, GpArgs, Gpr, Mem, RegMem, Scale, Xmm, Ymm};
use iced_x86::{Decoder, DecoderOptions, Instruction, OpKind, Register};
use proptest::prelude::*;

const IGPR: [Register; 16] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RBX,
    Register::RSP,
    Register::RBP,
    Register::RSI,
    Register::RDI,
    Register::R8,
    Register::R9,
    Register::R10,
    Register::R11,
    Register::R12,
    Register::R13,
    Register::R14,
    Register::R15,
];

fn ig(r: Gpr) -> Register {
    IGPR[usize::from(r.num())]
}
fn ix(r: Xmm) -> Register {
    Register::XMM0.add(u32::from(r.num()))
}
fn iy(r: Ymm) -> Register {
    Register::YMM0.add(u32::from(r.num()))
}

trait RegAdd {
    fn add(self, n: u32) -> Register;
}
impl RegAdd for Register {
    fn add(self, n: u32) -> Register {
        // Register values of one class are contiguous in iced.
        let all: Vec<Register> = Register::values().collect();
        let pos = all.iter().position(|&r| r == self).unwrap();
        all[pos + n as usize]
    }
}

/// An expected decoded operand.
#[derive(Debug, Clone, Copy, PartialEq)]
enum E {
    R(Register),
    M(Mem),
    I(i64),
}

fn gpr() -> impl Strategy<Value = Gpr> {
    (0u8..16).prop_map(|n| Gpr::from_num(n).unwrap())
}
fn xmm() -> impl Strategy<Value = Xmm> {
    (0u8..16).prop_map(|n| Xmm::from_num(n).unwrap())
}
fn ymm() -> impl Strategy<Value = Ymm> {
    (0u8..16).prop_map(|n| Ymm::from_num(n).unwrap())
}
fn disp() -> impl Strategy<Value = i32> {
    prop_oneof![Just(0), -128i32..128, any::<i32>()]
}
fn imm() -> impl Strategy<Value = i32> {
    prop_oneof![-128i32..128, any::<i32>()]
}
fn mem() -> impl Strategy<Value = Mem> {
    let scale = prop_oneof![
        Just(Scale::X1),
        Just(Scale::X2),
        Just(Scale::X4),
        Just(Scale::X8)
    ];
    (
        proptest::option::of(gpr()),
        proptest::option::of((gpr(), scale)),
        disp(),
    )
        .prop_map(|(base, index, disp)| {
            let index = index.map(|(i, s)| (if i == Gpr::Rsp { Gpr::Rbp } else { i }, s));
            match (base, index) {
                (Some(b), Some((i, s))) => Mem::sib(b, i, s, disp).unwrap(),
                (Some(b), None) => Mem::base(b).disp(disp),
                (None, Some((i, s))) => Mem::index_only(i, s, disp).unwrap(),
                (None, None) => Mem::absolute(disp),
            }
        })
}
fn gp_args() -> impl Strategy<Value = GpArgs> {
    prop_oneof![
        (gpr(), gpr()).prop_map(|(a, b)| GpArgs::RegReg(a, b)),
        (gpr(), mem()).prop_map(|(a, b)| GpArgs::RegMem(a, b)),
        (mem(), gpr()).prop_map(|(a, b)| GpArgs::MemReg(a, b)),
        (gpr(), imm()).prop_map(|(a, b)| GpArgs::RegImm(a, b)),
        (mem(), imm()).prop_map(|(a, b)| GpArgs::MemImm(a, b)),
    ]
}
fn rm_gpr() -> impl Strategy<Value = RegMem<Gpr>> {
    prop_oneof![gpr().prop_map(RegMem::Reg), mem().prop_map(RegMem::Mem)]
}
fn rm_xmm() -> impl Strategy<Value = RegMem<Xmm>> {
    prop_oneof![xmm().prop_map(RegMem::Reg), mem().prop_map(RegMem::Mem)]
}
fn rm_ymm() -> impl Strategy<Value = RegMem<Ymm>> {
    prop_oneof![ymm().prop_map(RegMem::Reg), mem().prop_map(RegMem::Mem)]
}

fn eg(rm: RegMem<Gpr>) -> E {
    match rm {
        RegMem::Reg(r) => E::R(ig(r)),
        RegMem::Mem(m) => E::M(m),
    }
}
fn ex(rm: RegMem<Xmm>) -> E {
    match rm {
        RegMem::Reg(r) => E::R(ix(r)),
        RegMem::Mem(m) => E::M(m),
    }
}
fn ey(rm: RegMem<Ymm>) -> E {
    match rm {
        RegMem::Reg(r) => E::R(iy(r)),
        RegMem::Mem(m) => E::M(m),
    }
}

const BIN: [&str; 8] = ["mov", "add", "sub", "and", "or", "xor", "cmp", "test"];
const PACKED: [&str; 10] = [
    "vaddpd",
    "vsubpd",
    "vmulpd",
    "vdivpd",
    "vmaxpd",
    "vminpd",
    "vxorpd",
    "vfmadd132pd",
    "vfmadd213pd",
    "vfmadd231pd",
];
const SCALAR: [&str; 10] = [
    "vaddsd",
    "vsubsd",
    "vmulsd",
    "vdivsd",
    "vmaxsd",
    "vminsd",
    "vsqrtsd",
    "vfmadd132sd",
    "vfmadd213sd",
    "vfmadd231sd",
];

fn bin(asm: &mut Assembler, op: usize, a: GpArgs) -> Vec<E> {
    macro_rules! go {
        ($m:ident) => {
            match a {
                GpArgs::RegReg(d, s) => asm.$m(d, s),
                GpArgs::RegMem(d, s) => asm.$m(d, s),
                GpArgs::MemReg(d, s) => asm.$m(d, s),
                GpArgs::RegImm(d, s) => asm.$m(d, s),
                GpArgs::MemImm(d, s) => asm.$m(d, s),
            }
        };
    }
    match op {
        0 => go!(mov),
        1 => go!(add),
        2 => go!(sub),
        3 => go!(and),
        4 => go!(or),
        5 => go!(xor),
        6 => go!(cmp),
        _ => go!(test),
    }
    match a {
        GpArgs::RegReg(d, s) => vec![E::R(ig(d)), E::R(ig(s))],
        // `test r, m` is encoded (and decoded) as `test m, r`.
        GpArgs::RegMem(d, s) if op == 7 => vec![E::M(s), E::R(ig(d))],
        GpArgs::RegMem(d, s) => vec![E::R(ig(d)), E::M(s)],
        GpArgs::MemReg(d, s) => vec![E::M(d), E::R(ig(s))],
        GpArgs::RegImm(d, i) => vec![E::R(ig(d)), E::I(i64::from(i))],
        GpArgs::MemImm(d, i) => vec![E::M(d), E::I(i64::from(i))],
    }
}

fn packed_y(asm: &mut Assembler, op: usize, d: Ymm, a: Ymm, b: RegMem<Ymm>) {
    match op {
        0 => asm.vaddpd(d, a, b),
        1 => asm.vsubpd(d, a, b),
        2 => asm.vmulpd(d, a, b),
        3 => asm.vdivpd(d, a, b),
        4 => asm.vmaxpd(d, a, b),
        5 => asm.vminpd(d, a, b),
        6 => asm.vxorpd(d, a, b),
        7 => asm.vfmadd132pd(d, a, b),
        8 => asm.vfmadd213pd(d, a, b),
        _ => asm.vfmadd231pd(d, a, b),
    }
}
fn packed_x(asm: &mut Assembler, op: usize, d: Xmm, a: Xmm, b: RegMem<Xmm>) {
    match op {
        0 => asm.vaddpd(d, a, b),
        1 => asm.vsubpd(d, a, b),
        2 => asm.vmulpd(d, a, b),
        3 => asm.vdivpd(d, a, b),
        4 => asm.vmaxpd(d, a, b),
        5 => asm.vminpd(d, a, b),
        6 => asm.vxorpd(d, a, b),
        7 => asm.vfmadd132pd(d, a, b),
        8 => asm.vfmadd213pd(d, a, b),
        _ => asm.vfmadd231pd(d, a, b),
    }
}
fn scalar(asm: &mut Assembler, op: usize, d: Xmm, a: Xmm, b: RegMem<Xmm>) {
    match op {
        0 => asm.vaddsd(d, a, b),
        1 => asm.vsubsd(d, a, b),
        2 => asm.vmulsd(d, a, b),
        3 => asm.vdivsd(d, a, b),
        4 => asm.vmaxsd(d, a, b),
        5 => asm.vminsd(d, a, b),
        6 => asm.vsqrtsd(d, a, b),
        7 => asm.vfmadd132sd(d, a, b),
        8 => asm.vfmadd213sd(d, a, b),
        _ => asm.vfmadd231sd(d, a, b),
    }
}

#[derive(Debug, Clone)]
enum Case {
    Bin(usize, GpArgs),
    Unary(usize, RegMem<Gpr>),
    Shift(usize, RegMem<Gpr>, u8),
    Imul(Gpr, RegMem<Gpr>, Option<i32>),
    Lea(Gpr, Mem),
    Movabs(Gpr, i64),
    Cmov(usize, Gpr, RegMem<Gpr>),
    PushPop(bool, Gpr),
    PackedY(usize, Ymm, Ymm, RegMem<Ymm>),
    PackedX(usize, Xmm, Xmm, RegMem<Xmm>),
    Scalar(usize, Xmm, Xmm, RegMem<Xmm>),
    MoveY(bool, Ymm, RegMem<Ymm>, bool),
    MoveX(bool, Xmm, RegMem<Xmm>, bool),
    Broadcast(Ymm, RegMem<Xmm>),
    Cvt(Xmm, Xmm, RegMem<Gpr>),
    Ucomi(Xmm, RegMem<Xmm>),
    Movsd(Xmm, Xmm, Xmm),
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![
        (0..8usize, gp_args()).prop_map(|(o, a)| Case::Bin(o, a)),
        (0..4usize, rm_gpr()).prop_map(|(o, a)| Case::Unary(o, a)),
        (0..3usize, rm_gpr(), 1u8..64).prop_map(|(o, a, c)| Case::Shift(o, a, c)),
        (gpr(), rm_gpr(), proptest::option::of(imm())).prop_map(|(d, s, i)| Case::Imul(d, s, i)),
        (gpr(), mem()).prop_map(|(d, m)| Case::Lea(d, m)),
        (gpr(), any::<i64>()).prop_map(|(d, i)| Case::Movabs(d, i)),
        (0..16usize, gpr(), rm_gpr()).prop_map(|(c, d, s)| Case::Cmov(c, d, s)),
        (any::<bool>(), gpr()).prop_map(|(p, r)| Case::PushPop(p, r)),
        (0..10usize, ymm(), ymm(), rm_ymm()).prop_map(|(o, d, a, b)| Case::PackedY(o, d, a, b)),
        (0..10usize, xmm(), xmm(), rm_xmm()).prop_map(|(o, d, a, b)| Case::PackedX(o, d, a, b)),
        (0..10usize, xmm(), xmm(), rm_xmm()).prop_map(|(o, d, a, b)| Case::Scalar(o, d, a, b)),
        (any::<bool>(), ymm(), rm_ymm(), any::<bool>())
            .prop_map(|(al, r, m, st)| Case::MoveY(al, r, m, st)),
        (any::<bool>(), xmm(), rm_xmm(), any::<bool>())
            .prop_map(|(al, r, m, st)| Case::MoveX(al, r, m, st)),
        (ymm(), rm_xmm()).prop_map(|(d, s)| Case::Broadcast(d, s)),
        (xmm(), xmm(), rm_gpr()).prop_map(|(d, a, s)| Case::Cvt(d, a, s)),
        (xmm(), rm_xmm()).prop_map(|(a, b)| Case::Ucomi(a, b)),
        (xmm(), xmm(), xmm()).prop_map(|(d, a, b)| Case::Movsd(d, a, b)),
    ]
}

/// Emits `case`; returns the expected mnemonic and operands.
fn emit(asm: &mut Assembler, case: &Case) -> (String, Vec<E>) {
    match *case {
        Case::Bin(o, a) => (BIN[o].into(), bin(asm, o, a)),
        Case::Unary(o, a) => {
            match o {
                0 => asm.inc(a),
                1 => asm.dec(a),
                2 => asm.neg(a),
                _ => asm.not(a),
            }
            (["inc", "dec", "neg", "not"][o].into(), vec![eg(a)])
        }
        Case::Shift(o, a, c) => {
            match o {
                0 => asm.shl(a, c),
                1 => asm.shr(a, c),
                _ => asm.sar(a, c),
            }
            (
                ["shl", "shr", "sar"][o].into(),
                vec![eg(a), E::I(i64::from(c))],
            )
        }
        Case::Imul(d, s, None) => {
            asm.imul(d, s);
            ("imul".into(), vec![E::R(ig(d)), eg(s)])
        }
        Case::Imul(d, s, Some(i)) => {
            asm.imul_imm(d, s, i);
            ("imul".into(), vec![E::R(ig(d)), eg(s), E::I(i64::from(i))])
        }
        Case::Lea(d, m) => {
            asm.lea(d, m);
            ("lea".into(), vec![E::R(ig(d)), E::M(m)])
        }
        Case::Movabs(d, i) => {
            asm.movabs(d, i);
            ("mov".into(), vec![E::R(ig(d)), E::I(i)])
        }
        Case::Cmov(c, d, s) => {
            let c = Cond::ALL[c];
            asm.cmov(c, d, s);
            (format!("cmov{}", c.suffix()), vec![E::R(ig(d)), eg(s)])
        }
        Case::PushPop(push, r) => {
            if push {
                asm.push(r)
            } else {
                asm.pop(r)
            }
            (
                (if push { "push" } else { "pop" }).into(),
                vec![E::R(ig(r))],
            )
        }
        Case::PackedY(o, d, a, b) => {
            packed_y(asm, o, d, a, b);
            (PACKED[o].into(), vec![E::R(iy(d)), E::R(iy(a)), ey(b)])
        }
        Case::PackedX(o, d, a, b) => {
            packed_x(asm, o, d, a, b);
            (PACKED[o].into(), vec![E::R(ix(d)), E::R(ix(a)), ex(b)])
        }
        Case::Scalar(o, d, a, b) => {
            scalar(asm, o, d, a, b);
            (SCALAR[o].into(), vec![E::R(ix(d)), E::R(ix(a)), ex(b)])
        }
        Case::MoveY(aligned, r, rm, store) => {
            let name = if aligned { "vmovapd" } else { "vmovupd" };
            let ops = match (rm, store) {
                (RegMem::Mem(m), true) => {
                    if aligned {
                        asm.vmovapd(m, r)
                    } else {
                        asm.vmovupd(m, r)
                    }
                    vec![E::M(m), E::R(iy(r))]
                }
                (RegMem::Mem(m), false) => {
                    if aligned {
                        asm.vmovapd(r, m)
                    } else {
                        asm.vmovupd(r, m)
                    }
                    vec![E::R(iy(r)), E::M(m)]
                }
                (RegMem::Reg(s), _) => {
                    if aligned {
                        asm.vmovapd(r, s)
                    } else {
                        asm.vmovupd(r, s)
                    }
                    vec![E::R(iy(r)), E::R(iy(s))]
                }
            };
            (name.into(), ops)
        }
        Case::MoveX(aligned, r, rm, store) => {
            let name = if aligned { "vmovapd" } else { "vmovupd" };
            let ops = match (rm, store) {
                (RegMem::Mem(m), true) => {
                    if aligned {
                        asm.vmovapd(m, r)
                    } else {
                        asm.vmovupd(m, r)
                    }
                    vec![E::M(m), E::R(ix(r))]
                }
                (RegMem::Mem(m), false) => {
                    if aligned {
                        asm.vmovapd(r, m)
                    } else {
                        asm.vmovupd(r, m)
                    }
                    vec![E::R(ix(r)), E::M(m)]
                }
                (RegMem::Reg(s), _) => {
                    if aligned {
                        asm.vmovapd(r, s)
                    } else {
                        asm.vmovupd(r, s)
                    }
                    vec![E::R(ix(r)), E::R(ix(s))]
                }
            };
            (name.into(), ops)
        }
        Case::Broadcast(d, s) => {
            asm.vbroadcastsd(d, s);
            ("vbroadcastsd".into(), vec![E::R(iy(d)), ex(s)])
        }
        Case::Cvt(d, a, s) => {
            asm.vcvtsi2sd(d, a, s);
            ("vcvtsi2sd".into(), vec![E::R(ix(d)), E::R(ix(a)), eg(s)])
        }
        Case::Ucomi(a, b) => {
            asm.vucomisd(a, b);
            ("vucomisd".into(), vec![E::R(ix(a)), ex(b)])
        }
        Case::Movsd(d, a, b) => {
            asm.vmovsd_merge(d, a, b);
            ("vmovsd".into(), vec![E::R(ix(d)), E::R(ix(a)), E::R(ix(b))])
        }
    }
}

fn decoded_operands(ins: &Instruction) -> Vec<E> {
    (0..ins.op_count())
        .map(|i| match ins.op_kind(i) {
            OpKind::Register => E::R(ins.op_register(i)),
            OpKind::Memory => {
                let base = IGPR.iter().position(|&r| r == ins.memory_base());
                let index = IGPR.iter().position(|&r| r == ins.memory_index());
                let scale = Scale::from_factor(ins.memory_index_scale() as u8).unwrap();
                let disp = ins.memory_displacement64() as i64 as i32;
                let g = |p: Option<usize>| p.map(|p| Gpr::from_num(p as u8).unwrap());
                E::M(match (g(base), g(index)) {
                    (Some(b), Some(i)) => Mem::sib(b, i, scale, disp).unwrap(),
                    (Some(b), None) => Mem::base(b).disp(disp),
                    (None, Some(i)) => Mem::index_only(i, scale, disp).unwrap(),
                    (None, None) => Mem::absolute(disp),
                })
            }
            OpKind::Immediate8 => E::I(i64::from(ins.immediate8())),
            _ => E::I(ins.immediate(i) as i64),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn iced_decodes_what_we_emit(case in case()) {
        let mut asm = Assembler::new();
        let (mnemonic, expected) = emit(&mut asm, &case);
        let code = asm.finish().unwrap();
        let mut decoder = Decoder::new(64, &code, DecoderOptions::NONE);
        let ins = decoder.decode();
        prop_assert!(!ins.is_invalid(), "invalid encoding {:02x?} for {:?}", code, case);
        prop_assert_eq!(ins.len(), code.len(), "length of {:02x?}", code);
        prop_assert_eq!(format!("{:?}", ins.mnemonic()).to_lowercase(), mnemonic);
        prop_assert_eq!(decoded_operands(&ins), expected, "{:02x?}", code);
    }
}
