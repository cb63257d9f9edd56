#!/usr/bin/env bash
# SciMark 2.0 composite, side by side in one run: uninstrumented, every probe compiled in but off,
# method probes on, every probe on (loops included), each with probe entries as invokedynamic
# sites (the default) and as static calls (--probe-sites static). SciMark's class files are
# version 45, which has no invokedynamic: they are lifted to version 52 first (LiftClassFiles;
# same code, frames added), and every variant, the uninstrumented one included, runs the lifted
# classes. Rounds alternate the variants so machine noise hits all of them alike; medians and
# ratios to the uninstrumented run are printed, the composite's and each kernel's. BEFORE=dir (a checkout with its CLI built) adds that
# build's invokedynamic variants (all off, method probes on, every probe on) in the same rounds.
# SITES="indy" (or "static") runs one site form only; SITES may also name "agent": the lifted
# classes under -javaagent, as `hyprof profile` runs them (loop code placed in a class only when its
# loops are switched on, so "all off" and "method probes on" have none).
# Settings (environment variables): ROUNDS (default 5), SITES (default "indy static"; also "agent"), BEFORE.
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
. "$(dirname "$0")/lib/before.sh" # BEFORE=DIR: before_hyprof
ROUNDS=${ROUNDS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SCI="$HERE/target/scimark.jar"
[ -f "$SCI" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench -am)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
java -cp "$HERE/target/benchmarks.jar:$SCI" org.hyprof.bench.LiftClassFiles "$SCI" "$WORK/scimark-52.jar"
SCI="$WORK/scimark-52.jar"
"$ROOT/hyprof" instrument "$SCI" -o "$WORK/scimark-indy.jar" --quiet
"$ROOT/hyprof" instrument "$SCI" -o "$WORK/scimark-static.jar" --quiet --probe-sites static
if [ -n "${BEFORE:-}" ]; then
  before_hyprof instrument "$SCI" -o "$WORK/scimark-before.jar" --quiet
fi
SITES=${SITES:-indy static}
AGENT="$ROOT/cli/target/lib/hyprof-agent.jar"
# one token per run: the composite, then FFT, SOR, Monte Carlo, sparse matmult and LU, comma-separated
composite() { grep -E '^(Composite|FFT|SOR|Monte|Sparse|LU)' | awk '{printf "%s%s", (NR > 1 ? "," : ""), $NF}'; }
declare -A RES
for r in $(seq "$ROUNDS"); do
  RES[plain]+="$(java -cp "$SCI" jnt.scimark2.commandline | composite) "
  for sites in $SITES ${BEFORE:+before}; do
    for v in off:"" methods:process:thread:method all:process:thread:method:loop; do
      name=${v%%:*}; res=${v#*:}
      if [ "$sites" = agent ]; then RUN=(-javaagent:"$AGENT"=out=$WORK/s.hyprof,include=jnt.scimark2.*,resolutions=$res -cp "$SCI")
      else RUN=(-Dhyprof.options=out=$WORK/s.hyprof,resolutions=$res -cp "$WORK/scimark-$sites.jar"); fi
      RES[$name-$sites]+="$(java "${RUN[@]}" jnt.scimark2.commandline 2>/dev/null | composite) "
    done
  done
  echo "round $r/$ROUNDS done" >&2
done
ARGS=("uninstrumented (class files lifted to 52)" "${RES[plain]}")
for sites in $SITES ${BEFORE:+before}; do
  for v in "off:probes compiled in, all off" "methods:method probes on" "all:all probes on (loops too)"; do
    ARGS+=("$sites: ${v#*:}" "${RES[${v%%:*}-$sites]}")
  done
done
python3 - "${ARGS[@]}" <<'PY'
import statistics, sys
pairs = sys.argv[1:]
names = pairs[0::2]
runs = [[list(map(float, r.split(","))) for r in a.split()] for a in pairs[1::2]]
vals = [[r[0] for r in v] for v in runs]
base = statistics.median(vals[0])
print(f"{'SciMark 2.0 composite (higher is faster)':44} {'median':>9} {'ratio':>7}   runs")
for n, v in zip(names, vals):
    m = statistics.median(v)
    print(f"{n:44} {m:9.1f} {m / base:7.3f}   {' '.join(f'{x:.0f}' for x in v)}")
kernels = ["FFT", "SOR", "Monte Carlo", "Sparse", "LU"]
print()
print(f"{'per kernel: median ratio to uninstrumented':44} " + " ".join(f"{k:>11}" for k in kernels))
bases = [statistics.median(r[k + 1] for r in runs[0]) for k in range(5)]
for n, v in zip(names, runs):
    print(f"{n:44} " + " ".join(f"{statistics.median(r[k + 1] for r in v) / bases[k]:11.3f}" for k in range(5)))
PY
