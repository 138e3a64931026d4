#!/usr/bin/env bash
# The battery's scaling table: whole-process time and peak memory of `rhoscope battery --json`
# for N in {10^3, 10^4, 10^5, 10^6} and p in {3, 6, 20, 50} judges (three anchors, three
# families), on this machine. Prints a Markdown table; the table in docs/benchmarks.md is its output.
#
#   scripts/scaling.sh [MAX_N]        # e.g. scripts/scaling.sh 100000 for a quick run
#
# Needs /usr/bin/time (Debian package `time`). Panels go to a temporary folder and are removed.
set -euo pipefail
cd "$(dirname "$0")/.."
max_n=${1:-1000000}
cargo build --release --quiet
bin=target/release/rhoscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x /usr/bin/time ]; then
  echo "scripts/scaling.sh needs /usr/bin/time (apt-get install time)" >&2
  exit 1
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
echo "| N | p = 3 | p = 6 | p = 20 | p = 50 |"
echo "|---|---|---|---|---|"
for n in 1000 10000 100000 1000000; do
  [ "$n" -le "$max_n" ] || continue
  row="| $n |"
  for p in 3 6 20 50; do
    f="$tmp/p$p-n$n.csv"
    "$bin" simulate --preset three-anchor --set p=$p --set families=3 --n "$n" --seed 1 -o "$f"
    out=$( { /usr/bin/time -f '%e %M' "$bin" battery "$f" --json >/dev/null; } 2>&1 | tail -1)
    secs=${out% *}
    kb=${out#* }
    row="$row ${secs} s, $((kb / 1024)) MB |"
    rm -f "$f" "${f%.csv}.families.csv"
  done
  echo "$row"
done
