#!/usr/bin/env bash
# OverheadIT's workloads (workload.CallHeavy, 1 s warm-up, then REPS measured root() calls) side by
# side in one run: plain, and profiled by this build and (BEFORE=dir) another checkout's build. Per
# case: the program's own clock and hyprof's deducted inclusive time of root(), each against plain.
# Nothing is asserted; one run per case and build, so read several passes (PASSES).
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: bench/overhead.sh [-h|--help]
Environment:
  BEFORE=DIR    a checkout with its CLI built (cli/target/hyprof.jar), profiled beside this one
  REPS=N        measured root() calls per run (default 40, as OverheadIT)
  PASSES=N      passes over the cases (default 1)
  CASES="kind:resolutions ..."   default: OverheadIT's eight cases
Needs the CLI and the samples built: mvn -o -q package -pl cli -am -DskipTests
USAGE
}
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP="$ROOT/samples/java/target/classes"
[ -f "$ROOT/cli/target/hyprof.jar" ] && [ -d "$CP/workload" ] || { echo "overhead.sh: build first: mvn -o -q package -pl cli -am -DskipTests" >&2; exit 1; }
if [ -n "${BEFORE:-}" ]; then
  [ -f "$BEFORE/cli/target/hyprof.jar" ] || { echo "overhead.sh: no $BEFORE/cli/target/hyprof.jar" >&2; exit 1; }
fi
REPS=${REPS:-40}; PASSES=${PASSES:-1}
CASES=${CASES:-"coarse:process,thread,method coarse:process,thread,method,loop kernels:process,thread,method mixed:process,thread,method recursion:process,thread,method small:process,thread,method loops:process,thread,method,loop kernels:process,thread,method,loop"}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
# own clock and deducted ns per root() call of one profiled run by the build in $1
profiled() {
  local db="$WORK/s.db"; rm -f "$db"
  local own ded
  own=$(HYPROF_NO_BUILD=1 "$1/hyprof" profile --resolution "$3" -o "$db" -- java -cp "$CP" workload.CallHeavy "$2" "$REPS" 200 1000 2>/dev/null \
    | sed -n 's/root_mean_ns=\([0-9]*\).*/\1/p')
  ded=$(HYPROF_NO_BUILD=1 "$1/hyprof" report "$db" --format csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["method"] == "workload.CallHeavy.root()": print(int(r["incl_ns"]) // int(r["calls"]))')
  echo "$own $ded"
}
printf '%-10s %-8s %10s  %s\n' workload probes "plain ns" "own clock and deducted time against plain, per build"
for pass in $(seq "$PASSES"); do
  for c in $CASES; do
    kind=${c%%:*}; res=${c#*:}
    plain=$(java -cp "$CP" workload.CallHeavy "$kind" "$REPS" 200 1000 | sed -n 's/root_mean_ns=\([0-9]*\).*/\1/p')
    line=""
    if [ -n "${BEFORE:-}" ]; then line="before $(profiled "$BEFORE" "$kind" "$res") | "; fi
    line+="this $(profiled "$ROOT" "$kind" "$res")"
    python3 - "$kind" "$res" "$plain" "$line" <<'PY'
import sys
kind, res, plain, line = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
pct = lambda x: "%+8.1f%%" % (100.0 * (int(x) - plain) / plain)
parts = []
for part in line.split(" | "):
    name, own, ded = part.split()
    parts.append("%s: own %s ded %s" % (name, pct(own), pct(ded)))
print("%-10s %-8s %10d  %s" % (kind, "loops" if res.endswith(",loop") else "methods", plain, " | ".join(parts)))
PY
  done
done
