#!/usr/bin/env bash
# Instruction counts (callgrind) per call of the profile example on fixed workloads, for
# before/after comparisons of engine changes (repeatable on a loaded machine):
#   cargo build --release -p benches --example profile
#   benches/icount.sh target/release/examples/profile
# usage: icount.sh PROFILE_BINARY  -> per workload: instructions of (N reps) - (0 reps), divided by N
P=$(realpath "$1"); cd "$(dirname "$0")/.."
run() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$P" "$@" 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*'; }
for w in "lexmax doitgen" "lexmax jacobi_1d" "lexmax gemm" "lexmax strided" "polytope 4" "polytope 8" "polytope 12" "decide 2-0" "decide 3-2" "empty 2-0" "flow doitgen" "flow jacobi_1d" "flow gemm" "flow atax"; do
  n=5; case $w in decide*|empty*) n=200;; esac
  a=$(run $w 0); b=$(run $w $n)
  echo "$w $(( (b - a) / n ))"
done
