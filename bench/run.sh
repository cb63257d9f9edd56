#!/usr/bin/env bash
# All benchmarks, side by side: JMH probe costs, the SciMark comparison, the perturbation benchmark,
# then the live, TUI, native, bridge and DEX ones.
# Figures go to stdout; copy them into bench/README.md with the machine and date.
# Settings (environment variables): JMH_ARGS (added to the JMH command line).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
(cd "$ROOT" && mvn -B -q -DskipTests package -pl bench,tui -am)
java -jar "$HERE/target/benchmarks.jar" ProbeBench -f 1 -wi 3 -i 5 -w 1s -r 1s ${JMH_ARGS:-} 2>&1 \
  | sed -n '/^Benchmark/,$p'
"$HERE/scimark.sh"
"$HERE/perturbation.sh"
"$HERE/place-loops.sh"
java -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.LiveThroughput \
  "$ROOT/cli/target/lib/hyprof-agent.jar" "$ROOT/cli/target/lib/hyprof-samples-java.jar" 30
java -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.LiveLoad "$ROOT/cli/target" 8 60
java -Dhyprof.home="$ROOT/cli/target" -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.TuiOpen "$ROOT/cli/target/lib/hyprof-samples-java.jar"
java -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.NativeBlocks "$ROOT/samples/native"
"$HERE/bridge.sh"
"$HERE/dex.sh"
