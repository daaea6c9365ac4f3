#!/usr/bin/env python3
"""Regenerates encodings.txt: one line per instruction form, `HEX<TAB>asm`.

The right-hand column is the Intel-syntax (noprefix) source line fed to GNU as;
the left-hand column is the bytes binutils produced for it (split per
instruction with objdump). Needs /usr/bin/as and objdump; CI only reads the
generated table. Usage: python3 codegen-x86/tests/gen_encodings.py
"""
import os
import subprocess
import sys
import tempfile

GPR = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
       "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
XMM = [f"xmm{i}" for i in range(16)]
YMM = [f"ymm{i}" for i in range(16)]
CONDS = ["o", "no", "b", "ae", "e", "ne", "be", "a",
         "s", "ns", "p", "np", "l", "ge", "le", "g"]
# Every addressing shape: plain base, disp8/disp32 (both signs and the
# boundaries), rsp/r12 (SIB), rbp/r13 (forced disp), base+index*scale(+disp),
# index without base, absolute.
MEMS = [
    "[rax]", "[rcx+0x8]", "[rdx-0x80]", "[rbx+0x7f]", "[rsi+0x80]", "[rdi-0x81]",
    "[rsp]", "[rsp+0x10]", "[rsp-0x1000]", "[r12]", "[r12+0x1000]", "[r12-0x8]",
    "[rbp]", "[rbp+0x8]", "[rbp-0x12345]", "[r13]", "[r13-0x8]", "[r13+0x100]",
    "[r8]", "[r9+0x40]", "[r10-0x1000]", "[r11+0x12345678]", "[r14+0x20]",
    "[r15-0x80000000]",
    "[rax+rcx*1]", "[rax+rbx*2+0x8]", "[r8+r9*4-0x20]", "[rsp+rax*8]",
    "[r12+r15*8+0x100]", "[rbp+rdx*8]", "[r13+r14*2]", "[r11+rbp*4+0x7f]",
    "[rdi+r12*8]", "[rsi+r13*1-0x1]", "[r15+r8*2+0x7fffffff]",
    "[rcx*8+0x40]", "[r10*2]", "[r15*4-0x8]", "[0x1000]",
]
IMMS = ["0x0", "0x1", "-0x1", "0x7f", "-0x80", "0x80", "-0x81", "0x1000",
        "0x7fffffff", "-0x80000000"]


def mems(step, offset=0, count=None):
    """A deterministic spread of memory operands."""
    out = [MEMS[(offset + i * step) % len(MEMS)] for i in range(len(MEMS))]
    return out[:count] if count else out


def pairs(regs, shift):
    return [(regs[i], regs[(i + shift) % 16]) for i in range(16)]


def lines():
    out = []
    # Two-operand integer instructions.
    for k, op in enumerate(["mov", "add", "sub", "and", "or", "xor", "cmp", "test"]):
        for d, s in pairs(GPR, 3 + k):
            out.append(f"{op} {d}, {s}")
        for i, m in enumerate(mems(1) if op == "mov" else mems(5, k, 12)):
            r = GPR[(i * 7 + k) % 16]
            if op != "test":
                out.append(f"{op} {r}, QWORD PTR {m}")
            out.append(f"{op} QWORD PTR {m}, {r}")
        for i, imm in enumerate(IMMS):
            out.append(f"{op} {GPR[(i * 3 + k) % 16]}, {imm}")
            out.append(f"{op} rax, {imm}")
            out.append(f"{op} QWORD PTR {MEMS[(i * 4 + k) % len(MEMS)]}, {imm}")
    for i, r in enumerate(GPR):
        out.append(f"movabs {r}, {hex(0x1122334455667788 + i)}")
    out.append("movabs rax, -0x1")
    for m in MEMS:
        out.append(f"lea {GPR[len(out) % 16]}, {m}")
    for m in MEMS:
        out.append(f"prefetcht0 BYTE PTR {m}")
    for m in MEMS:
        out.append(f"prefetcht1 BYTE PTR {m}")
    for m in MEMS:
        out.append(f"prefetcht2 BYTE PTR {m}")
    # Multiply.
    for d, s in pairs(GPR, 5):
        out.append(f"imul {d}, {s}")
    for i, m in enumerate(mems(3, 0, 10)):
        out.append(f"imul {GPR[(i * 5) % 16]}, QWORD PTR {m}")
    for i, imm in enumerate(["0x5", "-0x80", "0x7f", "0x80", "0x12345", "-0x1"]):
        out.append(f"imul {GPR[i * 3 % 16]}, {GPR[(i * 7 + 2) % 16]}, {imm}")
        out.append(f"imul {GPR[(i * 5 + 1) % 16]}, QWORD PTR {MEMS[i * 6]}, {imm}")
    # One-operand multiply (rdx:rax = rax * src).
    for r in GPR[1::3]:
        out.append(f"imul {r}")
    for m in mems(5, 1, 4):
        out.append(f"imul QWORD PTR {m}")
    # Shifts.
    for k, op in enumerate(["shl", "shr", "sar"]):
        for i, c in enumerate(["0x1", "0x3", "0x3f"]):
            out.append(f"{op} {GPR[(i * 5 + k * 3) % 16]}, {c}")
            out.append(f"{op} QWORD PTR {MEMS[(i * 7 + k) % len(MEMS)]}, {c}")
        out.append(f"{op} {GPR[k + 7]}, cl")
        out.append(f"{op} rax, cl")
        out.append(f"{op} QWORD PTR {MEMS[k * 5 + 3]}, cl")
    # Unary.
    for k, op in enumerate(["inc", "dec", "neg", "not", "idiv"]):
        for r in GPR[k::3]:
            out.append(f"{op} {r}")
        for m in mems(7, k, 4):
            out.append(f"{op} QWORD PTR {m}")
    for r in GPR:
        out.append(f"push {r}")
        out.append(f"pop {r}")
    for r in GPR[::3]:
        out.append(f"call {r}")
        out.append(f"jmp {r}")
    for m in mems(9, 0, 4):
        out.append(f"call QWORD PTR {m}")
        out.append(f"jmp QWORD PTR {m}")
    for i, c in enumerate(CONDS):
        out.append(f"cmov{c} {GPR[i]}, {GPR[(i * 7 + 3) % 16]}")
        out.append(f"cmov{c} {GPR[(i + 8) % 16]}, QWORD PTR {MEMS[(i * 5) % len(MEMS)]}")
    out += ["ret", "nop", "vzeroupper", "cqo"]
    # Branches: `.+N` is relative to the start of the instruction.
    targets = [".+0x10", ".-0x10", ".+0x81", ".+0x82", ".-0x7e", ".-0x7f", ".+0x1000",
               ".-0x1000"]
    for t in targets:
        out.append(f"jmp {t}")
    for i, c in enumerate(CONDS):
        out.append(f"j{c} {targets[i % len(targets)]}")
        out.append(f"j{c} {targets[(i + 3) % len(targets)]}")
    out += ["call .+0x100", "call .-0x40", "call .+0x5"]

    # Packed double, both widths.
    packed = ["vaddpd", "vsubpd", "vmulpd", "vdivpd", "vmaxpd", "vminpd", "vxorpd",
              "vfmadd132pd", "vfmadd213pd", "vfmadd231pd", "vandpd", "vunpcklpd", "vunpckhpd"]
    for k, op in enumerate(packed):
        for i in range(16):
            out.append(f"{op} {YMM[i]}, {YMM[(i + 5 + k) % 16]}, {YMM[(i + 11 + 2 * k) % 16]}")
        for i in range(0, 16, 3):
            out.append(f"{op} {XMM[i]}, {XMM[(i + 9) % 16]}, {XMM[(i + 4 + k) % 16]}")
        for i, m in enumerate(mems(4, k, 6)):
            out.append(f"{op} {YMM[(i * 5 + k) % 16]}, {YMM[(i * 3 + 8) % 16]}, YMMWORD PTR {m}")
            out.append(f"{op} {XMM[(i * 7 + k) % 16]}, {XMM[(i + 2) % 16]}, XMMWORD PTR {m}")
    for i in range(0, 16, 2):
        out.append(f"vsqrtpd {YMM[i]}, {YMM[(i + 9) % 16]}")
        out.append(f"vsqrtpd {XMM[(i + 1) % 16]}, {XMM[(i + 4) % 16]}")
    for i, m in enumerate(mems(6, 1, 4)):
        out.append(f"vsqrtpd {YMM[i * 5]}, YMMWORD PTR {m}")
        out.append(f"vsqrtpd {XMM[i * 3 + 1]}, XMMWORD PTR {m}")
    # Packed moves: loads, stores, register copies (all high/low combinations).
    for op in ["vmovupd", "vmovapd"]:
        for regs, size in [(YMM, "YMMWORD"), (XMM, "XMMWORD")]:
            for d, s in [(0, 1), (0, 8), (8, 0), (8, 9), (3, 15), (15, 3), (12, 12)]:
                out.append(f"{op} {regs[d]}, {regs[s]}")
            for i, m in enumerate(mems(5, 2, 8)):
                out.append(f"{op} {regs[(i * 5) % 16]}, {size} PTR {m}")
                out.append(f"{op} {size} PTR {m}, {regs[(i * 5 + 8) % 16]}")
    # Scalar double.
    scalar = ["vaddsd", "vsubsd", "vmulsd", "vdivsd", "vmaxsd", "vminsd", "vsqrtsd",
              "vfmadd132sd", "vfmadd213sd", "vfmadd231sd"]
    for k, op in enumerate(scalar):
        for i in range(0, 16, 2):
            out.append(f"{op} {XMM[i]}, {XMM[(i + 3 + k) % 16]}, {XMM[(i + 9 + k) % 16]}")
        for i, m in enumerate(mems(6, k, 4)):
            out.append(f"{op} {XMM[(i * 7 + k) % 16]}, {XMM[(i * 3 + 5) % 16]}, QWORD PTR {m}")
    for i, m in enumerate(mems(3, 0, 10)):
        out.append(f"vmovsd {XMM[(i * 5) % 16]}, QWORD PTR {m}")
        out.append(f"vmovsd QWORD PTR {m}, {XMM[(i * 5 + 3) % 16]}")
    for d, a, b in [(0, 1, 2), (0, 1, 8), (8, 1, 0), (8, 9, 10), (2, 12, 3), (5, 5, 13), (13, 4, 14)]:
        out.append(f"vmovsd {XMM[d]}, {XMM[a]}, {XMM[b]}")
    for i in range(0, 16, 3):
        out.append(f"vbroadcastsd {YMM[i]}, {XMM[(i + 7) % 16]}")
    for i, m in enumerate(mems(2, 0, 10)):
        out.append(f"vbroadcastsd {YMM[(i * 3 + 2) % 16]}, QWORD PTR {m}")
    for i in range(16):
        out.append(f"vcvtsi2sd {XMM[i]}, {XMM[(i + 5) % 16]}, {GPR[(i * 3) % 16]}")
    for i, m in enumerate(mems(8, 1, 5)):
        out.append(f"vcvtsi2sd {XMM[i * 3]}, {XMM[(i * 3 + 10) % 16]}, QWORD PTR {m}")
    for i in range(0, 16, 2):
        out.append(f"vucomisd {XMM[i]}, {XMM[(i + 9) % 16]}")
    for i, m in enumerate(mems(7, 3, 5)):
        out.append(f"vucomisd {XMM[i * 3 + 1]}, QWORD PTR {m}")
    # Integer bits to and from the low lane; non-temporal stores.
    for i in range(16):
        out.append(f"vmovq {GPR[(i * 5) % 16]}, {XMM[i]}")
        out.append(f"vmovq {XMM[(i + 7) % 16]}, {GPR[(i * 3 + 1) % 16]}")
    for i, m in enumerate(mems(3, 2, 12)):
        out.append(f"vmovntpd YMMWORD PTR {m}, {YMM[(i * 5 + 2) % 16]}")
        out.append(f"vmovntpd XMMWORD PTR {m}, {XMM[(i * 7 + 9) % 16]}")
    # Lane permutation of 128-bit halves.
    for i, imm in enumerate(["0x0", "0x21", "0x31", "0x20", "0x13", "0x88"] * 3):
        out.append(f"vperm2f128 {YMM[i % 16]}, {YMM[(i * 5 + 3) % 16]}, {YMM[(i * 7 + 11) % 16]}, {imm}")
    for i, m in enumerate(mems(5, 4, 10)):
        out.append(f"vperm2f128 {YMM[(i * 3 + 8) % 16]}, {YMM[(i * 11) % 16]}, YMMWORD PTR {m}, 0x21")
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = lines()
    with tempfile.TemporaryDirectory() as tmp:
        s, o = os.path.join(tmp, "t.s"), os.path.join(tmp, "t.o")
        with open(s, "w") as f:
            f.write(".intel_syntax noprefix\n" + "\n".join(src) + "\n")
        subprocess.run(["as", "--64", "-o", o, s], check=True)
        dump = subprocess.run(["objdump", "-d", "-z", "--insn-width=16", "-M", "intel", o],
                              check=True, capture_output=True, text=True).stdout
    insns = []
    for line in dump.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0].strip().endswith(":") and parts[0].startswith(" "):
            insns.append(parts[1].split())
    if len(insns) != len(src):
        sys.exit(f"objdump found {len(insns)} instructions for {len(src)} source lines")
    with open(os.path.join(here, "encodings.txt"), "w") as f:
        for hexbytes, text in zip(insns, src):
            f.write("".join(hexbytes) + "\t" + text + "\n")
    print(f"wrote {len(src)} lines")


if __name__ == "__main__":
    main()
