#!/usr/bin/env bash
# What the calling-context tree costs (issue 22), side by side in one run: SciMark 2.0 composite with
# every probe on (loops too) without the tree (treeNodes=0) and with it (the default budget), rounds
# alternating so machine noise hits both alike; then ProbeBench's recording token pairs (one pair,
# and a method calling another) and the same gone count-only, without and with the tree (JMH, same
# run). Prints medians and ratios.
# Settings (environment variables): ROUNDS (default 5).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
ROUNDS=${ROUNDS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SCI="$HERE/target/scimark.jar"
[ -f "$SCI" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench -am)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
java -cp "$HERE/target/benchmarks.jar:$SCI" org.hyprof.bench.LiftClassFiles "$SCI" "$WORK/scimark-52.jar"
"$ROOT/hyprof" instrument "$WORK/scimark-52.jar" -o "$WORK/scimark-indy.jar" --quiet
composite() { grep -o 'Composite Score: [0-9.]*' | awk '{print $3}'; }
NO_TREE="" TREE=""
for r in $(seq "$ROUNDS"); do
  NO_TREE+="$(java -Dhyprof.options=out=$WORK/s.hyprof,treeNodes=0 -cp "$WORK/scimark-indy.jar" jnt.scimark2.commandline 2>/dev/null | composite) "
  TREE+="$(java -Dhyprof.options=out=$WORK/t.hyprof -cp "$WORK/scimark-indy.jar" jnt.scimark2.commandline 2>/dev/null | composite) "
  echo "round $r/$ROUNDS done" >&2
done
python3 - "$NO_TREE" "$TREE" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
print(f"SciMark composite, every probe on, without the tree: median {statistics.median(a):.1f}  {a}")
print(f"SciMark composite, every probe on, with the tree:    median {statistics.median(b):.1f}  {b}")
print(f"with / without: {statistics.median(b) / statistics.median(a):.3f}")
PY
echo "recording pairs (every probe timed), without and with the tree:"
java -jar "$HERE/target/benchmarks.jar" 'ProbeBench.(nanoTimeTwice|tokenPairOnIndy|tokenPairOnStatic|tokenNestedPairsOnStatic)' \
    -p mode=aggregate -p treeNodes=0,100000 -f 2 -wi 3 -i 5 -w 1s -r 1s 2>/dev/null | grep -E '^(Benchmark|ProbeBench)'
echo "the same probes gone count-only (timeAll=false), called from a timed caller and at top level, without and with the tree:"
java -jar "$HERE/target/benchmarks.jar" 'ProbeBench.(tokenPairOnStatic|tokenNestedPairsOnStatic)' \
    -p mode=aggregate -p timeAll=false -p caller=true,false -p treeNodes=0,100000 -f 2 -wi 3 -i 5 -w 1s -r 1s 2>/dev/null | grep -E '^ProbeBench'
