#!/usr/bin/env bash
# SciMark 2.0 composite, side by side in one run: uninstrumented, every probe compiled in but off,
# method probes on, every probe on (loops included). Rounds alternate the variants so machine
# noise hits all of them alike; medians and ratios to the uninstrumented run are printed.
set -euo pipefail
ROUNDS=${ROUNDS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SCI="$HERE/target/scimark.jar"
[ -f "$SCI" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench -am)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$ROOT/hyprof" instrument "$SCI" -o "$WORK/scimark-hyprof.jar" --quiet
RT="$ROOT/cli/target/lib/hyprof-runtime.jar"
composite() { grep -o 'Composite Score: [0-9.]*' | awk '{print $3}'; }
declare -A RES
for r in $(seq "$ROUNDS"); do
  RES[plain]+="$(java -cp "$SCI" jnt.scimark2.commandline | composite) "
  for v in off:"" methods:process:thread:method all:process:thread:method:loop; do
    name=${v%%:*}; res=${v#*:}
    RES[$name]+="$(java -Dhyprof.options=out=$WORK/s.hyprof,resolutions=$res -cp "$WORK/scimark-hyprof.jar" \
        jnt.scimark2.commandline 2>/dev/null | composite) "
  done
  echo "round $r/$ROUNDS done" >&2
done
python3 - "${RES[plain]}" "${RES[off]}" "${RES[methods]}" "${RES[all]}" <<'PY'
import statistics, sys
names = ["uninstrumented", "probes compiled in, all off", "method probes on", "all probes on (loops too)"]
vals = [list(map(float, a.split())) for a in sys.argv[1:]]
base = statistics.median(vals[0])
print(f"{'SciMark 2.0 composite (higher is faster)':44} {'median':>9} {'ratio':>7}   runs")
for n, v in zip(names, vals):
    m = statistics.median(v)
    print(f"{n:44} {m:9.1f} {m / base:7.3f}   {' '.join(f'{x:.0f}' for x in v)}")
PY
