#!/usr/bin/env bash
# Memory of a running codegen watch over many cycles (docs/watch.md,
# docs/performance.md): starts CODEGEN watch on TREE (a real tree prepared
# by hack/real-tree.sh fetch; it is edited in place), saves FILE (relative
# to TREE, a Go file of an API package) CYCLES times, toggling a sentence
# of the first field comment as testtree.ToggleDoc does, waits for each
# cycle's line and prints the process's resident set (VmRSS) after the
# first cycle, after every CYCLES/10-th and at the end, then its peak
# (VmHWM) and CPU seconds (user+system).
#
# Usage: hack/watch-memory.sh CODEGEN TREE [CYCLES [FILE]]
# Environment: GOGC, GOMEMLIMIT pass through to codegen.
set -euo pipefail
[ $# -ge 2 ] || {
  echo "usage: $0 CODEGEN TREE [CYCLES [FILE]]" >&2
  exit 2
}
codegen=$1 tree=$2 cycles=${3:-100} file=$2/${4:-config/v1/types_infrastructure.go}
log=$(mktemp)
"$codegen" watch --base-dir "$tree" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT

# wait_cycles N: until the log holds N cycle lines.
wait_cycles() {
  for _ in $(seq 6000); do
    [ "$(grep -c '^watch #' "$log")" -ge "$1" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "no cycle $1; log:" >&2
  cat "$log" >&2
  exit 1
}
status() { awk -v k="$1:" '$1 == k { print $2 / 1024 " MiB" }' "/proc/$pid/status"; }

wait_cycles 1
echo "after the first cycle: RSS $(status VmRSS)"
for i in $(seq "$cycles"); do
  perl -0pi -e 's/Edited by the benchmark\. // or s/struct \{\n\t\/\/ /struct {\n\t\/\/ Edited by the benchmark. /' "$file"
  wait_cycles $((i + 1))
  if [ $((i % (cycles / 10 > 0 ? cycles / 10 : 1))) -eq 0 ]; then
    echo "after $i edit cycles: RSS $(status VmRSS)"
  fi
done
grep -q '^watch #.*nothing written' "$log" && {
  echo "a cycle failed; log:" >&2
  cat "$log" >&2
  exit 1
}
echo "peak RSS (VmHWM): $(status VmHWM)"
awk '{ printf "CPU: %.1f s (user+system, all cycles)\n", ($14 + $15) / '"$(getconf CLK_TCK)"' }' "/proc/$pid/stat"
