#!/usr/bin/env bash
# DEX instrumentation throughput and growth on a real library: Guava 33.4.0-jre from Maven
# Central, compiled to DEX by D8 (com.android.tools:r8, min API 26), then instrumented: in one
# JVM several times (cold first run, then steady state) and once through the command line.
# Settings (environment variables): RUNS (instrumentations in one JVM, default 11).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GUAVA=com.google.guava:guava:33.4.0-jre
R8=com.android.tools:r8:8.5.35
DIR="$HERE/target/dex"
mkdir -p "$DIR"
[ -f "$HERE/target/benchmarks.jar" ] && [ -f "$ROOT/cli/target/hyprof.jar" ] \
  || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench,tui -am)
if [ ! -f "$DIR/guava/classes.dex" ]; then
  (cd "$ROOT" && mvn -B -q dependency:copy -Dartifact=$GUAVA -DoutputDirectory="$DIR" -Dmdep.stripVersion=true \
    && mvn -B -q dependency:copy -Dartifact=$R8 -DoutputDirectory="$DIR" -Dmdep.stripVersion=true)
  mkdir -p "$DIR/guava"
  java -cp "$DIR/r8.jar" com.android.tools.r8.D8 --release --min-api 26 --lib "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")" \
    --output "$DIR/guava" "$DIR/guava.jar"
fi
echo "== in one JVM (DexThroughput)"
java -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.DexThroughput "$DIR/guava/classes.dex" "${RUNS:-11}"
echo "== one 'hyprof instrument' command, wall clock"
rm -rf "$DIR/out"
start=$(date +%s.%N)
java -jar "$ROOT/cli/target/hyprof.jar" instrument "$DIR/guava" -o "$DIR/out" --quiet
end=$(date +%s.%N)
methods=$(grep -c $'^probe\t[0-9]*\tmethod' "$DIR/out.manifest.tsv")
python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'{int(sys.argv[3]):,} methods in {s:.2f} s = {int(sys.argv[3])/s:,.0f} methods/s')" "$start" "$end" "$methods"
