#!/usr/bin/env python3
"""CPU time per kernel run, `poly run` against gcc -O3 -march=native, from perf samples.

Usage (from the repository root, after `cargo build --release -p poly`; needs perf and gcc):
  python3 benches/kernel_cpu.py [--repeat R] NAME|PATH...

On a shared, loaded machine wall-clock ratios move by 2x between runs; this counts `perf record
-e task-clock -F 10000` samples that fall in the kernel's own code: for poly the JIT code (perf's
`perf-PID.map` pseudo-object) plus libm (the `exp`/`pow` it calls), for gcc the kernel's symbol
plus libm, divided by the number of runs R (initialisation and checksums excluded on both sides:
they run in other code). One sample is 0.1 ms of CPU; sub-millisecond kernels need a large R
(e.g. 600 for stencil_diag and tiled_mix). Sizes are the checker's (`../shared/run/check.py`) and,
for the project's kernels, `benches/run_kernels.py`'s. Prints per kernel the CPU ms of both, the
ratio gcc/poly (> 1: poly faster) and whether the checksums agree (to the checker's 1e-9).
"""
import os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "run"))
sys.path.insert(0, HERE)
import check  # noqa: E402
from run_kernels import OWN  # noqa: E402


def samples(cmd, hit):
    d = tempfile.mkdtemp()
    try:
        out = subprocess.run(["perf", "record", "-q", "-e", "task-clock", "-F", "10000", "-o", d + "/p.data"] + cmd,
                             capture_output=True, text=True)
        s = subprocess.run(["perf", "script", "-i", d + "/p.data", "-F", "ip,sym,dso"],
                           capture_output=True, text=True).stdout
        return sum(1 for line in s.splitlines() if hit(line)), out.stdout
    finally:
        shutil.rmtree(d, ignore_errors=True)


def resolve(arg, tmp):
    """A kernel path with sizes: shared kernels as they are, own kernels as copies with `// params:`."""
    if os.path.exists(arg):
        path, name = arg, os.path.splitext(os.path.basename(arg))[0]
    else:
        name = arg
        path = os.path.join(ROOT, "..", "shared", "kernels", name + ".c")
        if not os.path.exists(path):
            path = os.path.join(ROOT, "scop", "tests", "kernels", name + ".c")
    if name in OWN:
        params, _ = OWN[name]
        copy = os.path.join(tmp, name + ".c")
        with open(copy, "w") as f:
            f.write(f"// params: {params}\n" + open(path).read())
        path = copy
    return path


def main():
    if "-h" in sys.argv[1:] or "--help" in sys.argv[1:]:
        print(__doc__.strip())
        return 0
    args = sys.argv[1:]
    R = 3
    if "--repeat" in args:
        i = args.index("--repeat")
        R = int(args[i + 1])
        del args[i:i + 2]
    if shutil.which("gcc") is None or shutil.which("perf") is None:
        print("note: gcc or perf is absent; nothing to compare")
        return 0
    poly = os.path.join(ROOT, "target", "release", "poly")
    tmp = tempfile.mkdtemp(prefix="poly_cpu_")
    try:
        for arg in args:
            path = resolve(arg, tmp)
            k = check.parse_kernel(path)
            vals = dict(k["sizes"])
            name = k["name"]
            ints = [f"{n}={vals[n]}" for n, _ in k["ints"]]
            d = tempfile.mkdtemp(dir=tmp)
            exe = check.build(k, vals, d, ["-O3", "-march=native"])
            ng, og = samples([exe, str(R)], lambda l: re.search(r"\b%s\b" % name, l) is not None or "libm" in l)
            npo, op = samples([poly, "run", path] + ints + ["--repeat", str(R), "--threads", "1"],
                              lambda l: "perf-" in l or "libm" in l)
            want, got = check.parse_output(og)[0], check.parse_output(op)[0]
            ok = list(want) == list(got) and all(check.close(got[a], v) for a, v in want.items())
            g, p = ng / 10 / R, npo / 10 / R
            ratio = f"{g / p:.2f}" if p else "n/a"
            print(f"{name}: gcc {g:.3g} ms  poly {p:.3g} ms  ratio gcc/poly {ratio}  "
                  f"{'checksums agree' if ok else 'CHECKSUMS DIFFER'}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
