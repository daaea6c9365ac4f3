#!/usr/bin/env bash
# Long coverage-guided campaigns (issue 23): run fuzz targets in turn, each until the libFuzzer
# process has used a given number of CPU seconds, on grown corpora kept between runs, and append
# one line per run to a ledger so that CPU time and executions accumulate across sessions or
# nightly jobs.
#
# usage: fuzz/campaign.sh [-n NICE] [-w WORKDIR] TARGET:CPUSECONDS...
#   e.g. fuzz/campaign.sh -n 19 interp:3600 calc:1800
#
# Prerequisite: `cd fuzz && cargo +nightly fuzz build -s none` (the campaigns' build: optimised,
# debug assertions and overflow checks on, no sanitizer; fuzz/README.md). WORKDIR (default
# ../fuzzwork beside the repository) holds the grown corpora (WORKDIR/corpus/TARGET, seeded from
# fuzz/corpus/TARGET on first use), libFuzzer's output (WORKDIR/out), artifacts (WORKDIR/art/TARGET)
# and the ledger WORKDIR/ledger.tsv with the columns
#   date  commit  target  cpu_s  runs  cov  ft  result
# where cpu_s is user + sys of the process, and result is `budget` (stopped by SIGINT at the CPU
# budget: no finding), `finding FILE...` (libFuzzer wrote a crash, timeout, leak or out-of-memory
# artifact: reproduce with `fuzz/target/x86_64-unknown-linux-gnu/release/TARGET FILE`, minimise with
# `cargo +nightly fuzz tmin -s none TARGET FILE`, fix, add to fuzz/corpus/TARGET) or `exit N`.
# Sum a target's lines with: awk -F'\t' '$3=="interp"{c+=$4; r+=$5} END{print c, r}' ledger.tsv
set -u
nice_=19
here=$(cd "$(dirname "$0")" && pwd)
work="$here/../../fuzzwork"
while getopts "n:w:" opt; do
    case $opt in
        n) nice_=$OPTARG ;;
        w) work=$OPTARG ;;
        *) echo "usage: $0 [-n NICE] [-w WORKDIR] TARGET:CPUSECONDS..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    echo "usage: $0 [-n NICE] [-w WORKDIR] TARGET:CPUSECONDS..." >&2
    exit 2
fi
bin="$here/target/x86_64-unknown-linux-gnu/release"
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p "$work/out"
status=0
for spec in "$@"; do
    t=${spec%%:*}
    budget=${spec##*:}
    case $budget in '' | *[!0-9]*) echo "bad CPU budget in '$spec'" >&2; exit 2 ;; esac
    if [ ! -x "$bin/$t" ]; then
        echo "no fuzz binary $bin/$t: run (cd fuzz && cargo +nightly fuzz build -s none $t)" >&2
        exit 2
    fi
    case $t in
        calc) dict=iscc ;;
        c_kernel | interp) dict=c ;;
        schedule_constraints | codegen_input) dict=schedule ;;
        *) dict=isl ;;
    esac
    corpus="$work/corpus/$t"
    art="$work/art/$t"
    mkdir -p "$corpus" "$art"
    [ -z "$(ls -A "$corpus")" ] && cp -r "$here/corpus/$t/." "$corpus/"
    # Copy the binary so that a rebuild during the run does not change it under libFuzzer.
    cp "$bin/$t" "$work/bin_$t"
    out="$work/out/$t.$(date +%Y%m%d-%H%M%S)"
    before=$(ls "$art" | wc -l)
    echo "=== $t: ${budget}s of CPU at nice $nice_, corpus $corpus, output $out"
    nice -n "$nice_" /usr/bin/time -f 'cpu %U %S' "$work/bin_$t" "$corpus" -dict="$here/dict/$dict.dict" \
        -max_len=2048 -timeout=600 -rss_limit_mb=4096 -runs=1000000000 -print_final_stats=1 \
        -artifact_prefix="$art/" >"$out" 2>&1 &
    runner=$!
    sleep 2
    pid=$(pgrep -P "$runner" | head -1)
    stopped=0
    while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
        cpu=$(awk '{print int(($14 + $15) / 100)}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        if [ "$cpu" -ge "$budget" ]; then
            kill -INT "$pid"
            stopped=1
            break
        fi
        sleep 10
    done
    wait "$runner"
    rc=$?
    cpu=$(awk '/^cpu /{printf "%.0f", $2 + $3}' "$out")
    runs=$(awk '/stat::number_of_executed_units/{print $2}' "$out" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$out" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$out" | tail -1 | cut -d' ' -f2)
    new=$(ls -t "$art" | head -n $(($(ls "$art" | wc -l) - before)) | sed "s|^|$art/|" | tr '\n' ' ')
    if [ -n "$new" ]; then
        result="finding $new"
        status=1
    elif [ "$stopped" = 1 ]; then
        result=budget
    else
        result="exit $rc"
        [ "$rc" = 0 ] || status=1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$t" \
        "${cpu:-0}" "${runs:-0}" "${cov:-}" "${ft:-}" "$result" >>"$work/ledger.tsv"
    tail -1 "$work/ledger.tsv"
done
exit $status
