//! Re-encodes every line of `encodings.txt` (generated once with GNU as by
//! `gen_encodings.py`) and checks the bytes match exactly.

use codegen_x86::{Assembler, Cond, Gpr, Mem, RegMem, Scale, Xmm, Ymm};

#[derive(Debug, Clone, Copy)]
enum Op {
    G(Gpr),
    X(Xmm),
    Y(Ymm),
    M(Mem),
    I(i64),
    Rel(i64),
    Cl,
}
use Op::*;

fn parse_int(s: &str) -> i64 {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("bad number {s:?}: {e}"));
    if neg {
        -v
    } else {
        v
    }
}

fn gpr(s: &str) -> Option<Gpr> {
    Gpr::ALL.into_iter().find(|r| r.name() == s)
}

fn parse_mem(s: &str) -> Mem {
    let inner = s.trim_start_matches('[').trim_end_matches(']');
    let (mut base, mut index, mut disp) = (None, None, 0i64);
    // Split into signed terms.
    let mut terms = Vec::new();
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        if (c == '+' || c == '-') && i > 0 {
            terms.push(&inner[start..i]);
            start = i;
        }
    }
    terms.push(&inner[start..]);
    for t in terms {
        let body = t.trim_start_matches('+');
        if let Some((r, sc)) = body.split_once('*') {
            let scale = Scale::from_factor(sc.parse().unwrap()).unwrap();
            index = Some((gpr(r).unwrap(), scale));
        } else if let Some(r) = gpr(body) {
            base = Some(r);
        } else {
            disp += parse_int(t);
        }
    }
    let disp = i32::try_from(disp).unwrap();
    match (base, index) {
        (Some(b), Some((i, s))) => Mem::sib(b, i, s, disp).unwrap(),
        (Some(b), None) => Mem::base(b).disp(disp),
        (None, Some((i, s))) => Mem::index_only(i, s, disp).unwrap(),
        (None, None) => Mem::absolute(disp),
    }
}

fn parse_operand(s: &str) -> Op {
    let mut s = s.trim();
    for size in ["BYTE PTR ", "QWORD PTR ", "XMMWORD PTR ", "YMMWORD PTR "] {
        s = s.strip_prefix(size).unwrap_or(s);
    }
    if s.starts_with('[') {
        return M(parse_mem(s));
    }
    if let Some(rel) = s.strip_prefix('.') {
        return Rel(parse_int(rel));
    }
    if s == "cl" {
        return Cl;
    }
    if let Some(r) = gpr(s) {
        return G(r);
    }
    if let Some(r) = Xmm::ALL.into_iter().find(|r| r.name() == s) {
        return X(r);
    }
    if let Some(r) = Ymm::ALL.into_iter().find(|r| r.name() == s) {
        return Y(r);
    }
    I(parse_int(s))
}

fn g(op: &Op) -> RegMem<Gpr> {
    match *op {
        G(r) => RegMem::Reg(r),
        M(m) => RegMem::Mem(m),
        _ => panic!("expected r/m64, got {op:?}"),
    }
}
fn x(op: &Op) -> RegMem<Xmm> {
    match *op {
        X(r) => RegMem::Reg(r),
        M(m) => RegMem::Mem(m),
        _ => panic!("expected xmm/m, got {op:?}"),
    }
}
fn y(op: &Op) -> RegMem<Ymm> {
    match *op {
        Y(r) => RegMem::Reg(r),
        M(m) => RegMem::Mem(m),
        _ => panic!("expected ymm/m, got {op:?}"),
    }
}
fn imm32(v: i64) -> i32 {
    i32::try_from(v).unwrap()
}

macro_rules! binary {
    ($asm:ident, $m:ident, $ops:expr) => {
        match $ops {
            [G(d), G(s)] => $asm.$m(*d, *s),
            [G(d), M(s)] => $asm.$m(*d, *s),
            [M(d), G(s)] => $asm.$m(*d, *s),
            [G(d), I(i)] => $asm.$m(*d, imm32(*i)),
            [M(d), I(i)] => $asm.$m(*d, imm32(*i)),
            ops => panic!("bad operands {ops:?}"),
        }
    };
}

macro_rules! packed3 {
    ($asm:ident, $m:ident, $ops:expr) => {
        match $ops {
            [Y(d), Y(a), b] => $asm.$m(*d, *a, y(b)),
            [X(d), X(a), b] => $asm.$m(*d, *a, x(b)),
            ops => panic!("bad operands {ops:?}"),
        }
    };
}

macro_rules! vmove {
    ($asm:ident, $m:ident, $ops:expr) => {
        match $ops {
            [Y(d), Y(s)] => $asm.$m(*d, *s),
            [X(d), X(s)] => $asm.$m(*d, *s),
            [Y(d), M(s)] => $asm.$m(*d, *s),
            [X(d), M(s)] => $asm.$m(*d, *s),
            [M(d), Y(s)] => $asm.$m(*d, *s),
            [M(d), X(s)] => $asm.$m(*d, *s),
            ops => panic!("bad operands {ops:?}"),
        }
    };
}

/// Encodes a non-branch instruction.
fn encode(asm: &mut Assembler, mn: &str, ops: &[Op]) {
    match mn {
        "mov" => binary!(asm, mov, ops),
        "add" => binary!(asm, add, ops),
        "sub" => binary!(asm, sub, ops),
        "and" => binary!(asm, and, ops),
        "or" => binary!(asm, or, ops),
        "xor" => binary!(asm, xor, ops),
        "cmp" => binary!(asm, cmp, ops),
        "test" => binary!(asm, test, ops),
        "movabs" => match ops {
            [G(d), I(i)] => asm.movabs(*d, *i),
            _ => panic!("{ops:?}"),
        },
        "lea" => match ops {
            [G(d), M(m)] => asm.lea(*d, *m),
            _ => panic!("{ops:?}"),
        },
        "imul" => match ops {
            [s] => asm.imul_wide(g(s)),
            [G(d), s] => asm.imul(*d, g(s)),
            [G(d), s, I(i)] => asm.imul_imm(*d, g(s), imm32(*i)),
            _ => panic!("{ops:?}"),
        },
        "shl" | "shr" | "sar" => {
            let dst = g(&ops[0]);
            match (mn, &ops[1]) {
                ("shl", I(n)) => asm.shl(dst, *n as u8),
                ("shr", I(n)) => asm.shr(dst, *n as u8),
                ("sar", I(n)) => asm.sar(dst, *n as u8),
                ("shl", Cl) => asm.shl_cl(dst),
                ("shr", Cl) => asm.shr_cl(dst),
                ("sar", Cl) => asm.sar_cl(dst),
                _ => panic!("{ops:?}"),
            }
        }
        "inc" => asm.inc(g(&ops[0])),
        "dec" => asm.dec(g(&ops[0])),
        "neg" => asm.neg(g(&ops[0])),
        "not" => asm.not(g(&ops[0])),
        "idiv" => asm.idiv(g(&ops[0])),
        "cqo" => asm.cqo(),
        "prefetcht0" => match ops {
            [M(m)] => asm.prefetcht0(*m),
            _ => panic!("prefetcht0 {ops:?}"),
        },
        "prefetcht1" => match ops {
            [M(m)] => asm.prefetcht1(*m),
            _ => panic!("prefetcht1 {ops:?}"),
        },
        "prefetcht2" => match ops {
            [M(m)] => asm.prefetcht2(*m),
            _ => panic!("prefetcht2 {ops:?}"),
        },
        "push" | "pop" => match (mn, ops) {
            ("push", [G(r)]) => asm.push(*r),
            ("pop", [G(r)]) => asm.pop(*r),
            _ => panic!("{ops:?}"),
        },
        "call" => asm.call_indirect(g(&ops[0])),
        "jmp" => asm.jmp_indirect(g(&ops[0])),
        "ret" => asm.ret(),
        "nop" => asm.nop(),
        "vzeroupper" => asm.vzeroupper(),
        "vaddpd" => packed3!(asm, vaddpd, ops),
        "vsubpd" => packed3!(asm, vsubpd, ops),
        "vmulpd" => packed3!(asm, vmulpd, ops),
        "vdivpd" => packed3!(asm, vdivpd, ops),
        "vmaxpd" => packed3!(asm, vmaxpd, ops),
        "vminpd" => packed3!(asm, vminpd, ops),
        "vxorpd" => packed3!(asm, vxorpd, ops),
        "vandpd" => packed3!(asm, vandpd, ops),
        "vunpcklpd" => packed3!(asm, vunpcklpd, ops),
        "vunpckhpd" => packed3!(asm, vunpckhpd, ops),
        "vfmadd132pd" => packed3!(asm, vfmadd132pd, ops),
        "vfmadd213pd" => packed3!(asm, vfmadd213pd, ops),
        "vfmadd231pd" => packed3!(asm, vfmadd231pd, ops),
        "vsqrtpd" => match ops {
            [Y(d), s] => asm.vsqrtpd(*d, y(s)),
            [X(d), s] => asm.vsqrtpd(*d, x(s)),
            _ => panic!("{ops:?}"),
        },
        "vmovupd" => vmove!(asm, vmovupd, ops),
        "vmovapd" => vmove!(asm, vmovapd, ops),
        "vmovsd" => match ops {
            [X(d), M(m)] => asm.vmovsd_load(*d, *m),
            [M(m), X(s)] => asm.vmovsd_store(*m, *s),
            [X(d), X(a), X(b)] => asm.vmovsd_merge(*d, *a, *b),
            _ => panic!("{ops:?}"),
        },
        "vbroadcastsd" => match ops {
            [Y(d), s] => asm.vbroadcastsd(*d, x(s)),
            _ => panic!("{ops:?}"),
        },
        "vcvtsi2sd" => match ops {
            [X(d), X(a), s] => asm.vcvtsi2sd(*d, *a, g(s)),
            _ => panic!("{ops:?}"),
        },
        "vmovq" => match ops {
            [G(d), X(s)] => asm.vmovq_to_gpr(*d, *s),
            [X(d), G(s)] => asm.vmovq_from_gpr(*d, *s),
            _ => panic!("{ops:?}"),
        },
        "vperm2f128" => match ops {
            [Y(d), Y(a), b, I(i)] => asm.vperm2f128(*d, *a, y(b), *i as u8),
            _ => panic!("{ops:?}"),
        },
        "vmovntpd" => match ops {
            [M(m), Y(s)] => asm.vmovntpd(*m, *s),
            [M(m), X(s)] => asm.vmovntpd(*m, *s),
            _ => panic!("{ops:?}"),
        },
        "vucomisd" => match ops {
            [X(a), b] => asm.vucomisd(*a, x(b)),
            _ => panic!("{ops:?}"),
        },
        _ => {
            let scalar =
                |asm: &mut Assembler, f: fn(&mut Assembler, Xmm, Xmm, RegMem<Xmm>)| match ops {
                    [X(d), X(a), b] => f(asm, *d, *a, x(b)),
                    _ => panic!("{ops:?}"),
                };
            match mn {
                "vaddsd" => scalar(asm, |a, d, s, t| a.vaddsd(d, s, t)),
                "vsubsd" => scalar(asm, |a, d, s, t| a.vsubsd(d, s, t)),
                "vmulsd" => scalar(asm, |a, d, s, t| a.vmulsd(d, s, t)),
                "vdivsd" => scalar(asm, |a, d, s, t| a.vdivsd(d, s, t)),
                "vmaxsd" => scalar(asm, |a, d, s, t| a.vmaxsd(d, s, t)),
                "vminsd" => scalar(asm, |a, d, s, t| a.vminsd(d, s, t)),
                "vsqrtsd" => scalar(asm, |a, d, s, t| a.vsqrtsd(d, s, t)),
                "vfmadd132sd" => scalar(asm, |a, d, s, t| a.vfmadd132sd(d, s, t)),
                "vfmadd213sd" => scalar(asm, |a, d, s, t| a.vfmadd213sd(d, s, t)),
                "vfmadd231sd" => scalar(asm, |a, d, s, t| a.vfmadd231sd(d, s, t)),
                _ => match mn.strip_prefix("cmov").and_then(Cond::from_suffix) {
                    Some(c) => asm.cmov(
                        c,
                        match ops[0] {
                            G(r) => r,
                            _ => panic!("{ops:?}"),
                        },
                        g(&ops[1]),
                    ),
                    None => panic!("unknown mnemonic {mn}"),
                },
            }
        }
    }
}

/// Encodes a branch to `.+rel` and returns just the branch's bytes. Backward
/// targets exercise the automatic rel8/rel32 choice; forward ones use the
/// form GNU as chose (`expected_len`), checking the fix-up.
fn encode_branch(mn: &str, rel: i64, expected_len: usize) -> Vec<u8> {
    let mut asm = Assembler::new();
    let l = asm.new_label();
    let short = expected_len == 2;
    let emit = |asm: &mut Assembler| match mn {
        "call" => asm.call(l),
        "jmp" if short => asm.jmp_short(l),
        "jmp" => asm.jmp(l),
        _ => {
            let c = Cond::from_suffix(&mn[1..]).unwrap_or_else(|| panic!("unknown {mn}"));
            if short {
                asm.jcc_short(c, l)
            } else {
                asm.jcc(c, l)
            }
        }
    };
    if rel <= 0 {
        asm.bind(l).unwrap();
        asm.emit_bytes(&vec![0x90; (-rel) as usize]);
        let start = asm.offset();
        emit(&mut asm);
        let code = asm.finish().unwrap();
        code[start..].to_vec()
    } else {
        emit(&mut asm);
        let end = asm.offset();
        while asm.offset() < rel as usize {
            asm.nop();
        }
        asm.bind(l).unwrap();
        asm.finish().unwrap()[..end].to_vec()
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn gnu_as_table_is_reproduced() {
    let table = include_str!("encodings.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let (expected, text) = line.split_once('\t').expect("HEX<TAB>asm");
        let (mn, rest) = text.split_once(' ').unwrap_or((text, ""));
        let ops: Vec<Op> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split(", ").map(parse_operand).collect()
        };
        let got = match ops.as_slice() {
            [Rel(r)] => encode_branch(mn, *r, expected.len() / 2),
            _ => {
                let mut asm = Assembler::new();
                encode(&mut asm, mn, &ops);
                asm.finish().unwrap()
            }
        };
        if hex(&got) != expected {
            failures.push(format!("{text}: expected {expected}, got {}", hex(&got)));
        }
        count += 1;
    }
    assert!(count >= 400, "table too small: {count}");
    assert!(
        failures.is_empty(),
        "{} of {count} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
