#!/usr/bin/env python3
"""`poly run` against gcc -O3 -march=native on the shared kernels and the project's own kernels.

Usage (from the repository root, after `cargo build --release -p poly`):
  python3 benches/run_kernels.py [--repeat R] [--quick] [--only NAME,...]

The shared checker (../shared/run/check.py) does the work: same initialisation, same harness,
checksums compared to a relative 1e-9, ratio gcc/poly per kernel, GFLOP/s where the flop count is
known. The shared kernels carry their sizes in the checker's table; the project's kernels
(scop/tests/kernels/*.c) get the `// params:` and `// flops:` lines below (sizes for roughly
50-500 ms per run with gcc on one core), written into copies in a temporary folder.
Skips cleanly (exit 0 with a note) where gcc is absent.
"""
import glob, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared")

# kernel: (params, flops or None)
OWN = {
    "back_subst": ("N=4000", "N*N"),
    "cholesky": ("N=1000", "N*N*N/3"),
    "covariance": ("M=800 N=800", "M*M*N"),
    "fdtd_2d": ("TMAX=100 NX=1000 NY=1000", "11*TMAX*NX*NY"),
    "floyd_warshall": ("N=500", "2*N*N*N"),
    "heat_3d": ("TSTEPS=10 N=150", "30*TSTEPS*N*N*N"),
    "k2mm": ("NI=500 NJ=500 NK=500 NL=500", "5*NI*NJ*NK"),
    "misc_math": ("N=2000000", None),
    "nussinov": ("N=800", None),
    "seidel_2d": ("TSTEPS=20 N=1000", "9*TSTEPS*N*N"),
    "syrk": ("N=800 M=800", "N*N*M*3/2"),
    "tiled_mix": ("N=4000 M=4000", None),
    "trmm": ("M=800 N=800", "M*M*N"),
}


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__.strip())
        return 0
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    if shutil.which("gcc") is None:
        print("note: gcc is absent; nothing to compare")
        return 0
    tmp = tempfile.mkdtemp(prefix="poly_run_bench_")
    files = sorted(glob.glob(os.path.join(SHARED, "kernels", "*.c")))
    for path in sorted(glob.glob(os.path.join(ROOT, "scop", "tests", "kernels", "*.c"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if name not in OWN:
            continue
        params, flops = OWN[name]
        head = f"// params: {params}\n" + (f"// flops: {flops}\n" if flops else "")
        copy = os.path.join(tmp, name + ".c")
        with open(copy, "w") as f:
            f.write(head + open(path).read())
        files.append(copy)
    if only:
        files = [f for f in files if os.path.splitext(os.path.basename(f))[0] in only]
    cmd = [sys.executable, os.path.join(SHARED, "run", "check.py"),
           os.path.join(ROOT, "target", "release", "poly")] + files + args
    r = subprocess.run(cmd)
    shutil.rmtree(tmp, ignore_errors=True)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
