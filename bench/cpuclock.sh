#!/usr/bin/env bash
# Cost of thread CPU time (issue 18), in one run each:
# 1. JMH: a recording begin+end pair (token API, static call and invokedynamic site) with
#    cpuClock=off, sampled (default) and dual.
# 2. SciMark 2.0 composite with every method probe on, cpuClock=off vs sampled vs dual, rounds
#    alternating the variants so machine noise hits all alike; medians and ratios to cpuClock=off.
# Settings (environment variables): ROUNDS (default 3).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
ROUNDS=${ROUNDS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SCI="$HERE/target/scimark.jar"
[ -f "$HERE/target/benchmarks.jar" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench -am)
java -jar "$HERE/target/benchmarks.jar" 'ProbeBench.tokenPairOn' -p mode=aggregate -p cpuClock=off,sampled,dual \
    -f 1 -wi 3 -w 1s -i 5 -r 1s
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
java -cp "$HERE/target/benchmarks.jar:$SCI" org.hyprof.bench.LiftClassFiles "$SCI" "$WORK/scimark-52.jar"
"$ROOT/hyprof" instrument "$WORK/scimark-52.jar" -o "$WORK/scimark-indy.jar" --quiet
composite() { grep -o 'Composite Score: [0-9.]*' | awk '{print $3}'; }
declare -A RES
for r in $(seq "$ROUNDS"); do
  for clock in off sampled dual; do
    RES[$clock]+="$(java -Dhyprof.options=out=$WORK/s.hyprof,resolutions=process:thread:method,cpuClock=$clock \
        -cp "$WORK/scimark-indy.jar" jnt.scimark2.commandline 2>/dev/null | composite) "
  done
  echo "round $r/$ROUNDS done" >&2
done
python3 - "${RES[off]}" "${RES[sampled]}" "${RES[dual]}" <<'PY'
import statistics, sys
names = ["method probes on, cpuClock=off", "method probes on, cpuClock=sampled", "method probes on, cpuClock=dual"]
vals = [list(map(float, a.split())) for a in sys.argv[1:]]
base = statistics.median(vals[0])
print(f"{'SciMark 2.0 composite (higher is faster)':40} {'median':>9} {'ratio':>7}   runs")
for n, v in zip(names, vals):
    m = statistics.median(v)
    print(f"{n:40} {m:9.1f} {m / base:7.3f}   {' '.join(f'{x:.0f}' for x in v)}")
PY
