#!/usr/bin/env bash
# How long a loop switched on takes to record when the agent started with loops off, its default
# (issue 15: the agent places a loop's code when it is switched on, by retransforming its class).
# Runs perturb.PlaceLoops (bench/src/main/java/perturb/PlaceLoops.java) under the agent ROUNDS
# times: a worker calls a loop method over and over; once warm, every probe is switched on through
# the runtime's API and the program waits for the first loop iteration recorded. Prints each
# run's figure and their median; nothing is asserted on times.
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: bench/place-loops.sh [-h|--help]
Environment:
  ROUNDS=N   runs (default 10)
Needs the CLI built: mvn -o -q package -pl cli -am -DskipTests
USAGE
}
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") ;;
  *) echo "place-loops.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac
ROUNDS=${ROUNDS:-10}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "place-loops.sh: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
LIB="$ROOT/cli/target/lib"
fail() { echo "place-loops.sh: $*" >&2; exit 1; }
[ -f "$LIB/hyprof-agent.jar" ] && [ -f "$LIB/hyprof-runtime.jar" ] \
  || fail "no agent in $LIB: build the CLI first (mvn -o -q package -pl cli -am -DskipTests)"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
# Compiled here against the runtime, so that only the program's class is on the class path.
javac --release 17 -cp "$LIB/hyprof-runtime.jar" -d "$WORK/classes" "$HERE/src/main/java/perturb/PlaceLoops.java" \
  || fail "javac failed"
ms=()
for r in $(seq "$ROUNDS"); do
  out=$(java "-javaagent:$LIB/hyprof-agent.jar=out=$WORK/s.hyprof" -cp "$WORK/classes" perturb.PlaceLoops) \
    || fail "run $r failed"
  rm -f "$WORK/s.hyprof"
  echo "run $r: $out"
  ms+=("$(sed -n 's/.*placed_ms=\([0-9.]*\).*/\1/p' <<<"$out")")
done
printf '%s\n' "${ms[@]}" | sort -g | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2;
  printf "switch-on to the first loop iteration recorded, %d runs: median %.1f ms, min %.1f ms, max %.1f ms\n", NR, m, a[1], a[NR]}'
